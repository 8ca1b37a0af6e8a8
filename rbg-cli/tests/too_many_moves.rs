//! A legitimate game with too many moves to list or count: on a 6x3 board of empty cells, one
//! move may mark any sequence of distinct empty cells with `x`, so one state has
//! sum over k of 18!/(18-k)! (about 1.7e16) legal moves. Listing them used to grow the move
//! list until the machine ran out of memory; counting them one by one would run for years.
//! Every command must end with a clear error, within bounded memory, on both engines.

use std::process::Output;

mod common;
use common::{rbg, stderr, temp_file};

const MARKS: &str = "#players = a(1)\n#pieces = e, x\n#variables =\n\
    #board = rectangle(up, down, left, right, [e,e,e,e,e,e] [e,e,e,e,e,e] [e,e,e,e,e,e])\n\
    #anySquare = (up + down + left + right)*\n\
    #rules = ->a (anySquare {e} [x])* ->>\n";

/// Address space allowed to a run, in KiB: the move list's bound (2^24 actions of 8 bytes,
/// 128 MiB, plus the list's growth) fits, an unbounded list does not.
const MEMORY_KIB: u64 = 1 << 20;

/// Runs `rbg ARGS` with its address space limited to [`MEMORY_KIB`] (`ulimit -v`).
fn rbg_limited(args: &[&str]) -> Output {
    let bin = assert_cmd::cargo::cargo_bin("rbg");
    let quoted: Vec<String> = args.iter().map(|a| format!("'{a}'")).collect();
    let script = format!("ulimit -v {MEMORY_KIB} && exec '{}' {}", bin.display(), quoted.join(" "));
    std::process::Command::new("sh").args(["-c", &script]).output().expect("sh runs")
}

fn assert_fails_with(out: &Output, what: &str, message: &str) {
    let err = stderr(out);
    assert_eq!(out.status.code(), Some(1), "{what}: {err}");
    assert!(err.contains(message), "{what}: expected '{message}' in: {err}");
    assert!(!err.contains("panicked") && !err.contains("memory allocation"), "{what}: {err}");
}

const STREAMED: &str = "one state has more than 16777216 legal moves";
const LISTED: &str = "hold more than 16777216 actions in all";

#[test]
fn the_interpreter_stops_with_an_error_in_bounded_memory() {
    let game = temp_file("marks.rbg", MARKS);
    let path = game.to_str().unwrap();
    // perft and mc only count or sample: they stream past the list's bound, up to the bound
    // on streamed moves (default 2^24).
    assert_fails_with(&rbg_limited(&["perft", path, "--depth", "1"]), "perft", STREAMED);
    assert_fails_with(&rbg_limited(&["mc", path, "--playouts", "1"]), "mc", STREAMED);
    // `moves` must list them: the list's bound.
    assert_fails_with(&rbg_limited(&["moves", path]), "moves", LISTED);
}

/// As [`MARKS`], with the marks one ply down (a's first move only hands the turn back to a):
/// the compiled engine counts the second ply from the children its search builds, with no list
/// to overflow, so its own bound on one state's children must stop it.
#[test]
fn both_engines_stop_on_a_state_below_the_root_with_too_many_moves() {
    let game = temp_file("marks-below.rbg", &MARKS.replace("#rules = ->a ", "#rules = ->a ->a "));
    let path = game.to_str().unwrap();
    assert_fails_with(&rbg_limited(&["perft", path, "--depth", "2"]), "interpreter", STREAMED);
    // The first run builds the crate (cargo needs more address space than the limit).
    let compiled = ["perft", path, "--depth", "2", "--engine", "compiled"];
    assert_fails_with(&rbg(&compiled), "compiled, building", STREAMED);
    assert_fails_with(&rbg_limited(&compiled), "compiled", STREAMED);
}

#[test]
fn the_compiled_engine_stops_with_an_error_in_bounded_memory() {
    let game = temp_file("marks.rbg", MARKS);
    let path = game.to_str().unwrap();
    // The first run builds the crate (cargo needs more address space than the limit).
    let small = ["perft", path, "--depth", "1", "--engine", "compiled", "--max-streamed-moves", "1000"];
    assert_fails_with(&rbg(&small), "perft, building", "one state has more than 1000 legal moves");
    assert_fails_with(
        &rbg_limited(&["perft", path, "--depth", "1", "--engine", "compiled"]),
        "perft",
        STREAMED,
    );
    assert_fails_with(&rbg_limited(&["mc", path, "--playouts", "1", "--engine", "compiled"]), "mc", STREAMED);
}
