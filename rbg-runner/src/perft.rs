//! `perft`: leaves and nodes for each depth 1..=N, with time and speed.

use std::io::Write;
use std::time::Instant;

use rbg_core::perft::{perft_with_progress, PerftCounts, PerftOptions, PerftSplit};
use rbg_core::Game;
use serde_json::json;

use crate::{per_second, progress_bar, RunError};

#[derive(clap::Args, Clone, Debug)]
pub struct PerftArgs {
    /// Deepest depth to count; every depth from 1 is printed. The count stops early at the
    /// first depth with no leaves (the game tree ends before it; deeper depths would count the
    /// same nodes again), and says so.
    #[arg(long, short = 'd')]
    pub depth: u32,
    /// Worker threads. The tree is split into many subtrees below the root (at least 32 per
    /// thread when it is deep enough), which the threads take one at a time.
    #[arg(long, short = 't', default_value_t = 1)]
    pub threads: usize,
    /// Split the work between the threads at the root only, one subtree per root move (the
    /// former split, to compare with).
    #[arg(long)]
    pub root_split: bool,
    /// One JSON object per line: game, depth, leaves, nodes, ms, nodes_per_s, and tree_ends
    /// (true on the last line when the count stopped early because no leaf is that deep).
    #[arg(long)]
    pub json: bool,
    /// Count the last ply's moves without applying them (exact, but not comparable with the
    /// reference driver's speed).
    #[arg(long)]
    pub bulk: bool,
    /// Only count the deepest depth instead of every depth from 1.
    #[arg(long)]
    pub only_last: bool,
    /// Most moves of one state counted one by one when they are too many to list (an error
    /// past it; the game has too many moves to count).
    #[arg(long, default_value_t = rbg_core::perft::DEFAULT_MAX_STREAMED_MOVES)]
    pub max_streamed_moves: u64,
}

/// One printed row.
#[derive(Clone, Debug, PartialEq)]
pub struct PerftRow {
    pub depth: u32,
    pub counts: PerftCounts,
    pub seconds: f64,
}

impl PerftRow {
    pub fn nodes_per_second(&self) -> f64 {
        per_second(self.counts.nodes, self.seconds)
    }
}

impl PerftArgs {
    /// Whether the arguments make sense (checked before a game is loaded or compiled).
    pub fn check(&self) -> Result<(), RunError> {
        check_threads(self.threads, available_cores())
    }
}

/// Runs perft for depths 1..=args.depth (or only the last), printing one line per depth to `out`.
/// A depth with no leaves is the last: the tree ends before it (text output adds a line saying
/// so; JSON sets `tree_ends` on that row).
pub fn run_perft<G: Game>(
    game: &G,
    args: &PerftArgs,
    out: &mut dyn Write,
) -> Result<Vec<PerftRow>, RunError> {
    args.check()?;
    let opts = PerftOptions {
        threads: args.threads,
        split: if args.root_split { PerftSplit::Root } else { PerftSplit::Balanced },
        bulk_last_ply: args.bulk,
        max_streamed_moves: args.max_streamed_moves,
        ..Default::default()
    };
    let first = if args.only_last { args.depth } else { 1.min(args.depth) };
    let mut rows = Vec::new();
    for depth in first..=args.depth {
        let bar = progress_bar(0, format!("depth {depth}"));
        let progress = |done: usize, total: usize| {
            bar.set_length(total as u64);
            bar.set_position(done as u64);
        };
        let start = Instant::now();
        let counts = perft_with_progress(game, depth, &opts, &progress)?;
        let row = PerftRow { depth, counts, seconds: start.elapsed().as_secs_f64() };
        bar.finish_and_clear();
        // The header comes with the first row, so a run that fails at once prints no table.
        if rows.is_empty() && !args.json {
            writeln!(out, "{:>5} {:>16} {:>16} {:>10} {:>14}", "depth", "leaves", "nodes", "ms", "nodes/s")?;
        }
        let tree_ends = row.counts.leaves == 0;
        print_row(game, &row, args.json, tree_ends, out)?;
        rows.push(row);
        if tree_ends {
            if !args.json {
                let ends = if args.only_last {
                    format!("before depth {depth}")
                } else {
                    format!("at depth {}", depth - 1)
                };
                writeln!(out, "no position is {depth} moves deep: the game tree ends {ends}")?;
                out.flush()?;
            }
            break;
        }
    }
    Ok(rows)
}

/// Most worker threads per core: more only adds scheduling overhead, and thousands of threads
/// can exhaust the process's limits instead of counting anything.
pub const MAX_THREADS_PER_CORE: usize = 4;

/// The cores this process may use (1 if unknown).
pub(crate) fn available_cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// `--threads` must be between 1 and [`MAX_THREADS_PER_CORE`] times the cores.
pub(crate) fn check_threads(threads: usize, cores: usize) -> Result<(), RunError> {
    let most = MAX_THREADS_PER_CORE.saturating_mul(cores.max(1));
    if threads == 0 {
        return Err(RunError::Usage("--threads must be at least 1".into()));
    }
    if threads > most {
        return Err(RunError::Usage(format!(
            "--threads {threads} is too many: this machine has {cores} core(s), so at most {most} \
             ({MAX_THREADS_PER_CORE} per core) are allowed"
        )));
    }
    Ok(())
}

fn print_row<G: Game>(
    game: &G,
    row: &PerftRow,
    as_json: bool,
    tree_ends: bool,
    out: &mut dyn Write,
) -> Result<(), RunError> {
    let ms = (row.seconds * 1000.0).round() as u64;
    if as_json {
        let line = json!({
            "game": game.info().name,
            "depth": row.depth,
            "leaves": row.counts.leaves,
            "nodes": row.counts.nodes,
            "ms": ms,
            "nodes_per_s": row.nodes_per_second().round() as u64,
            "tree_ends": tree_ends,
        });
        writeln!(out, "{line}")?;
    } else {
        writeln!(
            out,
            "{:>5} {:>16} {:>16} {:>10} {:>14.0}",
            row.depth,
            row.counts.leaves,
            row.counts.nodes,
            ms,
            row.nodes_per_second()
        )?;
    }
    out.flush()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn threads_are_bounded_by_the_cores() {
        assert!(check_threads(1, 2).is_ok());
        assert!(check_threads(8, 2).is_ok());
        let err = check_threads(9, 2).expect_err("9 > 4 * 2").to_string();
        assert!(err.contains("at most 8"), "{err}");
        assert!(check_threads(0, 2).is_err());
        assert!(check_threads(usize::MAX, 2).is_err());
        assert!(check_threads(1_000, usize::MAX).is_ok(), "no overflow in the bound");
    }
}
