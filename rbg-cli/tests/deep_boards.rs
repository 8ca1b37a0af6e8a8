//! Searches whose depth grows with the board: a rule `(right {e})*` on a 1×N board walks a
//! chain of N cells. The interpreter keeps its own stack; the compiled engine recurses natively
//! and used to abort with a stack overflow around N = 30,000 on worker threads and N = 200,000
//! on the main thread. Both engines must give the counts derived below, on the main thread and
//! on worker threads, never an abort.

use std::path::{Path, PathBuf};
use std::process::Output;

mod common;
use common::rbg;

/// A 1×`cells` board of empty cells `e` with the given rules, written to a temporary file.
fn line_game(name: &str, cells: usize, rules: &str) -> PathBuf {
    let row = vec!["e"; cells].join(",");
    let text = format!(
        "#players = x(1), o(1)\n#pieces = e, p\n#variables =\n\
         #board = rectangle(up, down, left, right, [{row}])\n#rules = {rules}\n"
    );
    let dir = std::env::temp_dir().join(format!("rbg-deep-boards-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(format!("{name}.rbg"));
    std::fs::write(&path, text).expect("temp file");
    path
}

/// `(depth, leaves, nodes)` rows of `rbg perft`; a failure (exit code not 0) fails the test.
fn perft(path: &Path, depth: u32, extra: &[&str]) -> Vec<(u64, u64, u64)> {
    let depth = depth.to_string();
    let mut args = vec!["perft", path.to_str().unwrap(), "--depth", &depth];
    args.extend_from_slice(extra);
    perft_rows(&rbg(&args), &format!("{extra:?}"))
}

/// The rows of a finished `rbg perft` run; a failure (exit code not 0) fails the test.
fn perft_rows(out: &Output, what: &str) -> Vec<(u64, u64, u64)> {
    let stderr = String::from_utf8_lossy(&out.stderr);
    // An abort shows as a signal (no exit code) and "stack overflow" on stderr.
    assert_eq!(out.status.code(), Some(0), "{what}: {}", stderr.chars().take(2000).collect::<String>());
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .skip(1)
        .map(|l| {
            let f: Vec<u64> = l.split_whitespace().take(3).map(|x| x.parse().expect("a count")).collect();
            (f[0], f[1], f[2])
        })
        .collect()
}

/// The rules of the issue, with a pattern walking the row added to x's move:
///
/// * the keeper's first move is the switch `->x` (not counted by perft);
/// * x's only move: the pattern `{? (right {e})* {! right}}` holds (from the first cell,
///   every cell is `e` up to the last, which has no right neighbour), then `->o`: one move;
/// * o's moves: walk right over `e` cells 0 to N-1 times, then put `p` there: N moves, one per
///   cell; then `->>` and the rules end, so the keeper has no move and the game is over.
///
/// So depth 1 has 1 leaf (nodes: root + 1 = 2), depth 2 has N leaves (nodes: 2 + N). Searching
/// o's moves walks a chain of N cells, and so does the pattern.
const WALK_RULES: &str = "->x {? (right {e})* {! right}} ->o (right {e})* [p] ->>";

const CELLS: usize = 200_000;

fn expected_walk_counts(cells: u64) -> Vec<(u64, u64, u64)> {
    vec![(1, 1, 2), (2, cells, cells + 2)]
}

#[test]
fn interpreter_walks_a_200k_chain_on_the_main_and_worker_threads() {
    let path = line_game("walk-interp", CELLS, WALK_RULES);
    let expected = expected_walk_counts(CELLS as u64);
    assert_eq!(perft(&path, 2, &[]), expected);
    assert_eq!(perft(&path, 2, &["--threads", "2"]), expected);
}

/// The compiled engine on a shorter chain: 60,000 cells overflowed a 2 MiB stack without the
/// stack checks (measured: about 30,000 did), and the main thread runs with its stack limited
/// to 1 MiB (`ulimit -s`), which also bounds the state this test can afford on that stack
/// (about 60 KB here). The board is above the packed-table threshold, so this runs the packed
/// path on the main thread; worker threads are the next test's (this game has a single root
/// move, so perft never splits it between threads).
#[test]
fn compiled_engine_walks_a_long_chain_on_the_main_and_worker_threads() {
    const SHORTER: usize = 60_000;
    let path = line_game("walk-compiled", SHORTER, WALK_RULES);
    let expected = expected_walk_counts(SHORTER as u64);
    // The first run builds the crate (with the default stack); `--threads 2` still runs on the
    // main thread (a single root move).
    assert_eq!(perft(&path, 2, &["--engine", "compiled", "--threads", "2"]), expected);
    // The cached build, on a main thread with a 1 MiB stack.
    let rbg_bin = assert_cmd::cargo::cargo_bin("rbg");
    let script = format!(
        "ulimit -s 1024 && exec '{}' perft '{}' --depth 2 --engine compiled",
        rbg_bin.display(),
        path.display()
    );
    let out = std::process::Command::new("sh").args(["-c", &script]).output().expect("sh runs");
    assert_eq!(perft_rows(&out, "main thread, 1 MiB stack"), expected);
}

/// x chooses between two moves at the root (`[e]` or `[p]` on the first cell, after the pattern
/// of [`WALK_RULES`]), so with `--threads 2` each root move's subtree is searched on a worker
/// thread (perft splits the work at the root; [`WALK_RULES`] has a single root move and runs on
/// the main thread whatever `--threads` says). After either move o has the N moves of
/// [`WALK_RULES`] (walking starts from the first cell, whatever it holds): depth 1 has 2 leaves
/// (nodes: root + 2 = 3), depth 2 has 2N leaves (nodes: 3 + 2N).
const FORK_RULES: &str = "->x {? (right {e})* {! right}} ([e] + [p]) ->o (right {e})* [p] ->>";

/// Boards above rbg-compiler's `LARGE_BOARD_VERTICES` (4096) get their tables packed into string
/// literals decoded at run time; this board is far above it, so the whole packed path (board,
/// shift tables, precomputed pattern sets, initial state, names, edges and positions for
/// `GameInfo`) is built and run. Its state holds every cell (about 200 KB), several of which
/// a worker keeps on its stack. The size: the crate of a packed board builds in seconds whatever
/// the board, and perft copies the state once per move (2N copies at depth 2), so 200,000
/// cells keep the run short while the state is large.
#[test]
fn compiled_engine_forks_on_a_packed_board_on_worker_threads() {
    const CELLS: usize = 200_000;
    let path = line_game("fork-compiled", CELLS, FORK_RULES);
    let n = CELLS as u64;
    let expected = vec![(1, 2, 3), (2, 2 * n, 2 * n + 3)];
    assert_eq!(perft(&path, 2, &["--engine", "compiled", "--threads", "2"]), expected);
    assert_eq!(perft(&path, 2, &["--engine", "compiled"]), expected);
    // The interpreter agrees (the counts above are derived, this checks the derivation too).
    assert_eq!(perft(&path, 2, &[]), expected);
}

/// A million cells, for the interpreter only: the compiled crate of a million-cell board takes
/// many minutes to build (its tables hold every cell), and copying its million-byte state for
/// each of a million moves would dominate perft depth 2, so o has a single move here: after
/// the keeper's `->x` and x's only move `->o`, o walks right over `e` cells as far as the
/// pattern `{! right}` allows, i.e. to the last cell only, and puts `p` there. Depth 1: 1 leaf,
/// 2 nodes; depth 2: 1 leaf, 3 nodes. o's search runs on a worker thread with `--threads 2`
/// (the work is split at the root).
#[test]
fn interpreter_walks_a_million_cell_chain() {
    let path = line_game("walk-million", 1_000_000, "->x ->o (right {e})* {! right} [p] ->>");
    let expected = vec![(1, 1, 2), (2, 1, 3)];
    // Loading a million-cell board takes most of the time, so one run: on a worker thread,
    // whose stack is the smaller (the main thread is covered by the 200k tests).
    assert_eq!(perft(&path, 2, &["--threads", "2"]), expected);
}

/// Perft recurses once per ply, and the compiled engine counts a child inside its parent's
/// search: a game of one endless forced line (`(->x)*`: the keeper hands the turn to x, whose
/// only move hands it to x again) counted 200,000 plies deep used to overflow the stack of both
/// engines. Every depth has one leaf, and the nodes are the root and one per ply.
#[test]
fn a_forced_line_200k_plies_deep_is_counted_by_both_engines() {
    const PLIES: u64 = 200_000;
    let path = line_game("forced-line", 1, "(->x)*");
    let expected = vec![(PLIES, 1, PLIES + 1)];
    for engine in [&["--only-last"][..], &["--only-last", "--engine", "compiled"]] {
        assert_eq!(perft(&path, PLIES as u32, engine), expected, "{engine:?}");
        let threads: Vec<&str> = engine.iter().copied().chain(["--threads", "2"]).collect();
        assert_eq!(perft(&path, PLIES as u32, &threads), expected, "{threads:?}");
    }
}
