//! Instruction counts: `rbg bench --suite DIR --instructions`.
//!
//! Wall-clock rates need a quiet machine; the number of instructions a fixed piece of work
//! executes does not, so two commits can be compared exactly on a busy one. Each run is a fixed
//! amount of work (perft at a fixed depth, a fixed number of Monte Carlo playouts from a fixed
//! seed) executed under `valgrind --tool=callgrind`, whose out file's `summary:` line is the
//! total instruction count (Ir).
//!
//! The interpreter runs perft and Monte Carlo; the compiled engine runs perft and both of its
//! fixed Monte Carlo modes (`--count-replay-from never` and `0`): its default `auto` choice
//! times itself, so its count would depend on the machine's load. The compiled engine is built
//! for plain x86-64 (the host's portable build), since valgrind may not decode the newest
//! instructions of this machine's CPU.
//!
//! A `--baseline` CSV of an earlier run gives each count's ratio to the earlier one.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::{Engine, Host, Progress, SuiteError};

/// The fixed work of one game: perft depth and Monte Carlo playouts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Workload {
    pub depth: u32,
    pub playouts: u64,
}

/// The eight bench games of docs/results.md and their work (10^7 to a few 10^9 instructions a run).
pub const BENCH_GAMES: [(&str, Workload); 8] = [
    ("breakthrough", Workload { depth: 4, playouts: 2000 }),
    ("chess", Workload { depth: 3, playouts: 100 }),
    ("connect4", Workload { depth: 7, playouts: 2000 }),
    ("englishDraughts", Workload { depth: 7, playouts: 500 }),
    ("go", Workload { depth: 2, playouts: 5 }),
    ("hex_9x9", Workload { depth: 3, playouts: 500 }),
    ("reversi", Workload { depth: 7, playouts: 500 }),
    ("amazons", Workload { depth: 2, playouts: 20 }),
];

/// The Monte Carlo seed of every run.
const SEED: &str = "7";

/// Options of the instruction-count mode.
#[derive(Clone, Debug, Default)]
pub struct InstructionOptions {
    /// Perft depth for every game instead of the table's.
    pub depth: Option<u32>,
    /// Monte Carlo playouts for every game instead of the table's.
    pub playouts: Option<u64>,
    /// An earlier run's CSV to compare with.
    pub baseline: Option<PathBuf>,
}

/// One count: a game, an engine, a task (`perft-4`, `mc-2000`, `mc-2000-list`, ...).
#[derive(Clone, Debug, PartialEq)]
pub struct Count {
    pub game: String,
    pub engine: &'static str,
    pub task: String,
    pub instructions: u64,
    /// This count over the baseline's count of the same game, engine and task.
    pub ratio: Option<f64>,
}

/// The work of each game: the games asked for (default: the eight), with the overrides.
pub fn workloads(
    games: &[String],
    options: &InstructionOptions,
) -> Result<Vec<(String, Workload)>, SuiteError> {
    let names: Vec<String> = if games.is_empty() {
        BENCH_GAMES.iter().map(|(g, _)| g.to_string()).collect()
    } else {
        let mut unique: Vec<String> = Vec::new();
        for game in games {
            if !unique.contains(game) {
                unique.push(game.clone());
            }
        }
        unique
    };
    names
        .into_iter()
        .map(|name| {
            let table = BENCH_GAMES.iter().find(|(g, _)| *g == name).map(|(_, w)| *w);
            let depth = options.depth.or(table.map(|w| w.depth));
            let playouts = options.playouts.or(table.map(|w| w.playouts));
            match (depth, playouts) {
                (Some(depth), Some(playouts)) => Ok((name, Workload { depth, playouts })),
                _ => Err(SuiteError::new(format!(
                    "{name} is not one of the eight bench games: give --depth N and --playouts N with --instructions"
                ))),
            }
        })
        .collect()
}

/// The argument lists of one engine's runs, after the program: (task, arguments).
fn runs(engine: Engine, game: &Path, work: Workload) -> Vec<(String, Vec<String>)> {
    let depth = work.depth.to_string();
    let playouts = work.playouts.to_string();
    let perft_task = format!("perft-{depth}");
    let mc_task = format!("mc-{playouts}");
    let perft = |file: Option<&Path>| {
        let mut args = vec!["perft".to_string()];
        args.extend(file.map(|f| f.display().to_string()));
        args.extend(["--depth".into(), depth.clone(), "--only-last".into()]);
        args
    };
    let mc = |file: Option<&Path>, extra: &[&str]| {
        let mut args = vec!["mc".to_string()];
        args.extend(file.map(|f| f.display().to_string()));
        args.extend(["--playouts".into(), playouts.clone(), "--seed".into(), SEED.into()]);
        args.extend(extra.iter().map(|s| s.to_string()));
        args
    };
    match engine {
        Engine::Interpreter => vec![(perft_task, perft(Some(game))), (mc_task, mc(Some(game), &[]))],
        Engine::Compiled => vec![
            (perft_task, perft(None)),
            (format!("{mc_task}-list"), mc(None, &["--count-replay-from", "never"])),
            (format!("{mc_task}-count"), mc(None, &["--count-replay-from", "0"])),
        ],
    }
}

/// Counts every run of every game on every engine, showing each as it comes.
pub fn count_all(
    games: &[(String, PathBuf, Workload)],
    engines: &[Engine],
    baseline: &HashMap<(String, String, String), u64>,
    host: &mut dyn Host,
) -> Result<Vec<Count>, SuiteError> {
    check_valgrind()?;
    let rbg = host.rbg_program().map_err(|e| SuiteError::new(format!("cannot find the rbg program: {e}")))?;
    host.progress(Progress::Start { measurements: (games.len() * engines.len()) as u64 });
    let mut counts = Vec::new();
    for (name, path, work) in games {
        for &engine in engines {
            host.progress(Progress::Measuring { game: name, engine });
            let program = match engine {
                Engine::Interpreter => rbg.clone(),
                Engine::Compiled => host
                    .build_portable(path)
                    .map_err(|e| SuiteError::new(format!("{name}: cannot build the compiled engine: {e}")))?,
            };
            for (task, args) in runs(engine, path, *work) {
                let instructions = callgrind_total(&program, &args)
                    .map_err(|e| SuiteError::new(format!("{name} ({}, {task}): {e}", engine.name())))?;
                let key = (name.clone(), engine.name().to_string(), task.clone());
                let ratio = baseline.get(&key).map(|&old| instructions as f64 / old as f64);
                let count = Count { game: name.clone(), engine: engine.name(), task, instructions, ratio };
                host.line(&line_text(&count)).map_err(SuiteError::Output)?;
                counts.push(count);
            }
            host.progress(Progress::Done);
        }
    }
    host.progress(Progress::Finish);
    Ok(counts)
}

/// Fails clearly when valgrind cannot be run at all.
fn check_valgrind() -> Result<(), SuiteError> {
    match Command::new("valgrind").arg("--version").output() {
        Ok(out) if out.status.success() => Ok(()),
        Ok(out) => Err(SuiteError::new(format!("`valgrind --version` failed ({})", out.status))),
        Err(e) => Err(SuiteError::new(format!(
            "--instructions runs valgrind's callgrind, but valgrind cannot be started ({e}): install valgrind"
        ))),
    }
}

/// The total instruction count of one program run under callgrind.
fn callgrind_total(program: &Path, args: &[String]) -> Result<u64, String> {
    let out_file = std::env::temp_dir().join(format!("rbg-callgrind-{}.out", std::process::id()));
    let output = Command::new("valgrind")
        .arg("--tool=callgrind")
        .arg(format!("--callgrind-out-file={}", out_file.display()))
        .arg(program)
        .args(args)
        .output()
        .map_err(|e| format!("cannot start valgrind: {e}"));
    let text = std::fs::read_to_string(&out_file);
    let _ = std::fs::remove_file(&out_file);
    let output = output?;
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        let last = stderr.lines().rfind(|l| !l.starts_with("==")).unwrap_or("").trim().to_string();
        return Err(format!("the run under valgrind failed ({}): {last}", output.status));
    }
    let text = text.map_err(|e| format!("callgrind wrote no out file: {e}"))?;
    summary_total(&text).ok_or_else(|| "callgrind's out file has no `summary:` line".to_string())
}

/// The first event count of the `summary:` line of a callgrind out file (Ir).
fn summary_total(text: &str) -> Option<u64> {
    let line = text.lines().find_map(|l| l.strip_prefix("summary:"))?;
    line.split_whitespace().next()?.parse().ok()
}

/// One result line as the host shows it.
fn line_text(count: &Count) -> String {
    let ratio = count.ratio.map(|r| format!(" ({r:.4}x the baseline)")).unwrap_or_default();
    format!("{} {} {} {}{ratio}", count.game, count.engine, count.task, count.instructions)
}

const CSV_HEADER: [&str; 5] = ["game", "engine", "task", "instructions", "ratio_to_baseline"];

/// The counts as CSV, one row per count.
pub fn csv_text(counts: &[Count]) -> String {
    let mut text = CSV_HEADER.join(",") + "\n";
    for c in counts {
        let ratio = c.ratio.map(|r| format!("{r:.6}")).unwrap_or_default();
        text += &format!("{},{},{},{},{ratio}\n", c.game, c.engine, c.task, c.instructions);
    }
    text
}

/// An earlier run's counts by (game, engine, task).
pub fn read_baseline(path: &Path) -> Result<HashMap<(String, String, String), u64>, SuiteError> {
    let bad = |what: String| SuiteError::new(format!("--baseline {}: {what}", path.display()));
    let mut reader = csv::Reader::from_path(path).map_err(|e| bad(e.to_string()))?;
    let headers = reader.headers().map_err(|e| bad(e.to_string()))?.clone();
    let column = |name: &str| {
        headers
            .iter()
            .position(|h| h == name)
            .ok_or_else(|| bad(format!("no column `{name}` (give a CSV of --instructions --csv)")))
    };
    let [game, engine, task, instructions] =
        [column("game")?, column("engine")?, column("task")?, column("instructions")?];
    let mut counts = HashMap::new();
    for (index, record) in reader.records().enumerate() {
        let record = record.map_err(|e| bad(e.to_string()))?;
        let field = |i: usize| record.get(i).unwrap_or("").to_string();
        let value = field(instructions);
        let count = value.parse::<u64>().ok().filter(|&n| n > 0).ok_or_else(|| {
            bad(format!("line {}: `{value}` is not a positive instruction count", index + 2))
        })?;
        counts.insert((field(game), field(engine), field(task)), count);
    }
    Ok(counts)
}

/// The counts as a Markdown table (with the ratio column when a baseline was given), and the
/// geometric mean of the ratios per engine.
pub fn markdown_text(counts: &[Count], baseline: Option<&Path>) -> String {
    let mut text = String::from("# Instruction counts (callgrind)\n\n");
    text += "Total instructions (Ir) of fixed work: perft at the depth shown, Monte Carlo with the \
             playouts shown from seed 7 (the compiled engine in both fixed modes: `list` generates \
             every move list, `count` counts and replays).\n\n";
    match baseline {
        Some(path) => {
            text += &format!(
                "Ratios are to the counts of `{}` (below 1: fewer instructions).\n\n",
                path.display()
            );
            text += "| game | engine | task | instructions | ratio to baseline |\n|---|---|---|---:|---:|\n";
        }
        None => text += "| game | engine | task | instructions |\n|---|---|---|---:|\n",
    }
    for c in counts {
        let row = format!("| {} | {} | {} | {} |", c.game, c.engine, c.task, thousands(c.instructions));
        match (baseline, c.ratio) {
            (None, _) => text += &format!("{row}\n"),
            (Some(_), Some(r)) => text += &format!("{row} {r:.4} |\n"),
            (Some(_), None) => text += &format!("{row} n/a |\n"),
        }
    }
    if baseline.is_some() {
        text += "\n";
        for engine in [Engine::Interpreter, Engine::Compiled] {
            let ratios: Vec<f64> =
                counts.iter().filter(|c| c.engine == engine.name()).filter_map(|c| c.ratio).collect();
            if !ratios.is_empty() {
                let mean = (ratios.iter().map(|r| r.ln()).sum::<f64>() / ratios.len() as f64).exp();
                text += &format!("Geometric mean of the ratios, {}: {mean:.4}\n", engine.name());
            }
        }
    }
    text
}

/// `1234567` as `1,234,567`.
fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_summary_line_gives_the_first_event() {
        let text = "version: 1\nevents: Ir Dr\nsummary: 123456 789\ntotals: 123456 789\n";
        assert_eq!(summary_total(text), Some(123_456));
        assert_eq!(summary_total("events: Ir\n"), None);
    }

    #[test]
    fn thousands_are_grouped() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(12_345_678), "12,345,678");
    }

    #[test]
    fn a_game_outside_the_eight_needs_both_overrides() {
        let only_depth = InstructionOptions { depth: Some(2), ..Default::default() };
        assert!(workloads(&["ticTacToe".into()], &only_depth).is_err());
        let both = InstructionOptions { depth: Some(2), playouts: Some(3), ..Default::default() };
        let got = workloads(&["ticTacToe".into()], &both).unwrap();
        assert_eq!(got, vec![("ticTacToe".to_string(), Workload { depth: 2, playouts: 3 })]);
        assert_eq!(workloads(&[], &InstructionOptions::default()).unwrap().len(), 8);
    }
}
