//! What a run leaves behind: the best games (SBG, their RBG translation, their features as
//! JSON), each checked before it is written; the generation-by-generation CSV; checkpoints.
//!
//! The check of an output game ([`check_game`]): its SBG text parses again, and perft to depth 2
//! of the direct reasoner equals perft of its RBG translation run by the interpreter (leaves and
//! nodes at both depths), as `rbg-sbg`'s tests compare the two.

use std::path::{Path, PathBuf};

use rbg_core::perft::{perft, PerftOptions};
use rbg_interp::{InterpOptions, Interpreter};
use rbg_sbg::SbgReasoner;
use serde::Serialize;

use crate::evolution::{Checkpoint, Evolution, GenerationStats, Individual};

/// The depth to which an output game's two reasoners must agree.
pub const CHECK_DEPTH: u32 = 2;

/// Perft counts `(leaves, nodes)` per depth 1..=[`CHECK_DEPTH`] of a checked game.
pub type CheckedCounts = Vec<(u64, u64)>;

/// Parses `sbg_text`, translates it to RBG and compares both reasoners' perft to
/// [`CHECK_DEPTH`]; returns the RBG text and the counts.
pub fn check_game(file: &str, sbg_text: &str) -> Result<(String, CheckedCounts), String> {
    let game =
        rbg_sbg::parse(file, sbg_text.as_bytes()).map_err(|ds| format!("{file} does not parse: {ds:?}"))?;
    let writer = rbg_sbg::to_rbg_writer_with_source(&game, sbg_text.as_bytes());
    let rbg_name = format!("{file}.rbg");
    let generated = writer.parse(&rbg_name);
    let ir = generated
        .game
        .ok_or_else(|| format!("{file}: its RBG translation is invalid: {:?}", generated.parsed))?;
    let interpreter = Interpreter::new(&ir, &rbg_name, InterpOptions::default())
        .map_err(|e| format!("{file}: its RBG translation cannot run: {e:?}"))?;
    let direct = SbgReasoner::new(&game);
    let options = PerftOptions::default();
    let mut counts = Vec::new();
    for depth in 1..=CHECK_DEPTH {
        let ours = perft(&direct, depth, &options).map_err(|e| format!("{file}: direct perft: {e}"))?;
        let theirs = perft(&interpreter, depth, &options).map_err(|e| format!("{file}: RBG perft: {e}"))?;
        if (ours.leaves, ours.nodes) != (theirs.leaves, theirs.nodes) {
            return Err(format!(
                "{file}: perft({depth}) differs: direct {}/{}, RBG translation {}/{}",
                ours.leaves, ours.nodes, theirs.leaves, theirs.nodes
            ));
        }
        counts.push((ours.leaves, ours.nodes));
    }
    Ok((writer.text().to_string(), counts))
}

/// The JSON written next to an output game.
#[derive(Serialize)]
struct GameReport<'a> {
    rank: usize,
    name: &'a str,
    fitness: f64,
    features: &'a crate::fitness::Features,
    /// Perft (leaves, nodes) of depths 1 and 2, equal for both reasoners.
    perft: &'a CheckedCounts,
}

/// Writes the best `count` distinct games of `population` (best first) to `dir` as
/// `best-<rank>.sbg`, `.rbg` and `.json`, each checked first; returns the SBG paths.
pub fn write_best(
    dir: &Path,
    checkpoint: &Checkpoint,
    population: &[Individual],
    count: usize,
) -> Result<Vec<PathBuf>, String> {
    let mut distinct: Vec<&Individual> = Vec::new();
    for individual in population {
        if distinct.len() < count && !distinct.iter().any(|d| d.genome == individual.genome) {
            distinct.push(individual);
        }
    }
    let mut written = Vec::new();
    for (i, individual) in distinct.into_iter().enumerate() {
        let rank = i + 1;
        let name = format!("Evolved {rank} of generation {}", checkpoint.generation);
        let sbg = individual.genome.to_sbg(&checkpoint.config, &name);
        let file = format!("best-{rank}.sbg");
        let (rbg, counts) = check_game(&file, &sbg)?;
        let report = GameReport {
            rank,
            name: &name,
            fitness: individual.fitness(),
            features: &individual.features,
            perft: &counts,
        };
        let json = serde_json::to_string_pretty(&report).map_err(|e| e.to_string())?;
        let path = dir.join(&file);
        write(&path, &sbg)?;
        write(&dir.join(format!("best-{rank}.rbg")), &rbg)?;
        write(&dir.join(format!("best-{rank}.json")), &(json + "\n"))?;
        written.push(path);
    }
    Ok(written)
}

fn write(path: &Path, text: &str) -> Result<(), String> {
    std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// The CSV of a run's history: generation, best, mean, min, playable, seconds.
pub fn generations_csv(history: &[GenerationStats]) -> String {
    let mut csv = String::from("generation,best,mean,min,playable,seconds\n");
    for g in history {
        csv.push_str(&format!(
            "{},{:.6},{:.6},{:.6},{},{:.3}\n",
            g.generation, g.best, g.mean, g.min, g.playable, g.seconds
        ));
    }
    csv
}

/// A generation's statistics as one line of progress (as `rbg evolve` prints them).
pub fn generation_line(stats: &GenerationStats) -> String {
    format!(
        "generation {}: best {:.4} mean {:.4} min {:.4} playable {} ({:.1}s)",
        stats.generation, stats.best, stats.mean, stats.min, stats.playable, stats.seconds
    )
}

/// Writes the checkpoint atomically (a temporary file renamed), so a run killed while writing
/// leaves the previous checkpoint intact.
pub fn write_checkpoint(path: &Path, checkpoint: &Checkpoint) -> Result<(), String> {
    let json = serde_json::to_string(checkpoint).map_err(|e| e.to_string())?;
    let temporary = path.with_extension("json.tmp");
    write(&temporary, &json)?;
    std::fs::rename(&temporary, path).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// The checkpoint's file name in a run's output directory.
pub const CHECKPOINT_FILE: &str = "checkpoint.json";
/// The generation-by-generation CSV's file name in a run's output directory.
pub const GENERATIONS_FILE: &str = "generations.csv";

/// Writes the run so far to its output directory `out`: the checkpoint (atomically) and the CSV
/// of its history. Every runner of evolution (`rbg evolve`, `rbg.cluster.evolve`) calls it
/// after each generation.
pub fn save_run(out: &Path, checkpoint: &Checkpoint) -> Result<(), String> {
    write_checkpoint(&out.join(CHECKPOINT_FILE), checkpoint)?;
    write(&out.join(GENERATIONS_FILE), &generations_csv(&checkpoint.history))
}

/// The run saved in the checkpoint at `path`, ready to continue (with the extra fitness term
/// its settings ask for); errors name the file.
pub fn resume_from(path: &Path) -> Result<Evolution, String> {
    let checkpoint = read_checkpoint(path)?;
    let extra = checkpoint.config.extra_term();
    Evolution::resume(checkpoint, extra).map_err(|e| format!("{}: {e}", path.display()))
}

/// Reads a checkpoint written by [`write_checkpoint`].
pub fn read_checkpoint(path: &Path) -> Result<Checkpoint, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    serde_json::from_slice(&bytes).map_err(|e| format!("{} is not a checkpoint: {e}", path.display()))
}
