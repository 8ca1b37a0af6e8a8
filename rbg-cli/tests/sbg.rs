//! End-to-end tests of `rbg` on Simplified Boardgames files: every command reads a .sbg file
//! (the RBG translation for the interpreter and the compiled engine, or the direct reasoner with
//! `--engine sbg`), and SBG errors are reported at file:line:col with exit code 1.
//!
//! Expected counts come from outside our code: Duel's by hand (games/sbg/duel.sbg's header),
//! Breakthrough's from the RBG reference perft table (same rules as breakthrough_5x5).

mod common;
use common::{rbg, stderr, stdout, temp_file};

fn sbg_game(name: &str) -> String {
    let path = rbg_testdata::workspace_root().join("games").join("sbg").join(format!("{name}.sbg"));
    path.to_str().unwrap().to_string()
}

/// Leaves per depth printed by `rbg perft --json` with these extra arguments.
fn perft_leaves(file: &str, depth: u32, extra: &[&str]) -> Vec<u64> {
    let depth = depth.to_string();
    let mut args = vec!["perft", file, "--depth", &depth, "--json"];
    args.extend_from_slice(extra);
    let out = rbg(&args);
    assert_eq!(out.status.code(), Some(0), "perft {extra:?}: {}", stderr(&out));
    stdout(&out)
        .lines()
        .map(|line| {
            let row: serde_json::Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}"));
            row["leaves"].as_u64().unwrap()
        })
        .collect()
}

#[test]
fn perft_of_the_interpreter_the_compiled_engine_and_the_direct_reasoner_agree() {
    let file = sbg_game("breakthrough5");
    // /work/shared/conformance/reference-perft.csv, breakthrough_5x5.
    let expected = [13, 156, 1924, 23084];
    assert_eq!(perft_leaves(&file, 4, &["--engine", "sbg"]), expected);
    assert_eq!(perft_leaves(&file, 4, &["--engine", "interp"]), expected);
    assert_eq!(perft_leaves(&file, 4, &["--engine", "compiled"]), expected);
    // bench runs the translation on both engines (the compiled one is cached by now).
    let out = rbg(&["bench", &file, "--depth", "3"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("counts       agree") && text.contains("1924"), "{text}");
}

#[test]
fn check_lower_sbg2rbg_and_compile_read_an_sbg_file() {
    let file = sbg_game("duel");
    let out = rbg(&["check", &file]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout(&out), format!("{file}: valid\n"));

    // The low-level text of the translation: a 3x3 board, two players.
    let out = rbg(&["lower", &file]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let low = stdout(&out);
    assert!(low.contains("#players = white(100),black(100)"), "{low}");
    assert!(low.contains("rx2y2[") && !low.contains("rx3"), "{low}");

    // Lowering the written translation gives the same text as lowering the SBG file.
    let translated = rbg(&["sbg2rbg", &file]);
    assert_eq!(translated.status.code(), Some(0), "{}", stderr(&translated));
    let rbg_file = temp_file("duel.rbg", &stdout(&translated));
    let relowered = rbg(&["lower", rbg_file.to_str().unwrap()]);
    assert_eq!(stdout(&relowered), low);

    // GDL: two roles, the white king's corner in the initial state, a king's step rule.
    let gdl = rbg(&["sbg2gdl", &file]);
    assert_eq!(gdl.status.code(), Some(0), "{}", stderr(&gdl));
    let gdl = stdout(&gdl);
    assert!(gdl.contains("(role white)\n(role black)") && gdl.contains("(init (cell 0 0 white_k))"), "{gdl}");
    assert!(
        gdl.contains("(<= terminal at_limit)") && gdl.contains("(succ 5 6)") && !gdl.contains("(succ 6 "),
        "{gdl}"
    );

    let dir = temp_file("placeholder", "").parent().unwrap().join("duel-crate");
    let out = rbg(&["compile", &file, "-o", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let manifest = std::fs::read_to_string(dir.join("Cargo.toml")).unwrap();
    assert!(manifest.contains("name = \"rbg-game-duel\""), "{manifest}");
}

#[test]
fn moves_mc_play_and_replay_run_on_both_engines() {
    let file = sbg_game("duel");
    // By hand: the white king in the corner has 3 moves.
    for engine in ["interp", "sbg"] {
        let out = rbg(&["moves", &file, "--engine", engine]);
        assert_eq!(out.status.code(), Some(0), "{engine}: {}", stderr(&out));
        let text = stdout(&out);
        assert!(
            text.starts_with("to move: white;") && text.contains("\n3 legal moves\n"),
            "{engine}: {text}"
        );
    }
    // The direct reasoner's moves are (1, from), (2, to) (vertex rxXyR has row R from the top):
    // white's king from (0, 0) to the centre, black's from (2, 2) to (2, 1); the white king in the
    // centre then reaches all 8 squares around it, one of them a capture.
    let out = rbg(&["moves", &file, "--engine", "sbg", "--after", "1@rx0y2 2@rx1y1; 1@rx2y0 2@rx2y1"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).contains("\n8 legal moves\n"), "{}", stdout(&out));

    // Duel ends by the 6th half-move at the latest.
    for engine in ["interp", "sbg"] {
        let out = rbg(&["mc", &file, "--playouts", "50", "--engine", engine]);
        assert_eq!(out.status.code(), Some(0), "{engine}: {}", stderr(&out));
        let text = stdout(&out);
        let length = text.lines().find(|l| l.starts_with("length")).unwrap_or_else(|| panic!("{text}"));
        let max: u32 = length.split_whitespace().last().unwrap().parse().unwrap();
        assert!((1..=6).contains(&max), "{engine}: {length}");
    }

    for engine in ["interp", "sbg"] {
        let log = temp_file(&format!("duel-{engine}.jsonl"), "");
        let log = log.to_str().unwrap();
        let args = ["play", &file, "--agents", "random,random", "--games", "6", "--seed", "3", "--log", log];
        let out = rbg(&[&args[..], &["--engine", engine]].concat());
        assert_eq!(out.status.code(), Some(0), "{engine}: {}", stderr(&out));
        assert!(stdout(&out).contains("duel: 6 games, 6 finished"), "{engine}: {}", stdout(&out));
        let replay = rbg(&["replay", log, "--engine", engine]);
        assert_eq!(replay.status.code(), Some(0), "{engine}: {}", stderr(&replay));
        assert!(stdout(&replay).starts_with("6 games, ") && stdout(&replay).ends_with("all legal\n"));
    }
}

#[test]
fn the_language_is_read_from_the_content_under_another_extension() {
    let text = std::fs::read_to_string(sbg_game("duel")).unwrap();
    let file = temp_file("duel.txt", &text);
    // Duel by hand: 3 and 9 (games/sbg/duel.sbg).
    assert_eq!(perft_leaves(file.to_str().unwrap(), 2, &[]), [3, 9]);
    assert_eq!(perft_leaves(file.to_str().unwrap(), 2, &["--engine", "sbg"]), [3, 9]);
}

#[test]
fn the_sbg_engine_refuses_rbg_files_and_the_game_manager() {
    let rbg_file = rbg_testdata::workspace_root().join("games").join("ticTacToe.rbg");
    let out = rbg(&["perft", rbg_file.to_str().unwrap(), "--depth", "1", "--engine", "sbg"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("--engine sbg runs Simplified Boardgames"), "{}", stderr(&out));
    // The game manager does not offer the engine (its games travel as RBG text).
    let out = rbg(&["manager", &sbg_game("duel"), "--engine", "sbg", "--port", "0"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("invalid value 'sbg'"), "{}", stderr(&out));
}

#[test]
fn a_broken_sbg_file_is_reported_at_file_line_and_column_with_exit_code_1() {
    // Line 6, character 8: an `x` where e, p or w must be.
    let bad =
        temp_file("broken.sbg", "<<Bad>>\n<BOARD> 2 2\n|K.|\n|.k|\n<PIECES>\nK (0,1,x) &\n<GOALS>\n10 &\n");
    let bad = bad.to_str().unwrap();
    let place = format!("{bad}:6:8");
    let commands: [&[&str]; 9] = [
        &["check", bad],
        &["lower", bad],
        &["sbg2rbg", bad],
        &["sbg2gdl", bad],
        &["perft", bad, "--depth", "1"],
        &["perft", bad, "--depth", "1", "--engine", "sbg"],
        &["mc", bad, "--playouts", "1", "--engine", "sbg"],
        &["moves", bad],
        &["play", bad, "--agents", "random,random", "--engine", "sbg"],
    ];
    for args in commands {
        let out = rbg(args);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let text = stderr(&out);
        assert!(text.contains(&place) && text.contains("Expected 'e', 'p' or 'w'"), "{args:?}: {text}");
    }
    let out = rbg(&["check", bad, "--format", "reference"]);
    assert!(stderr(&out).contains("Error (line 6, character 8)"), "{}", stderr(&out));
}

#[test]
fn typed_moves_for_the_direct_reasoner_that_are_garbage_are_errors() {
    let file = sbg_game("duel");
    for junk in ["zzz", "1@nowhere 2@rx0y0", "1@rx0y0", "\u{7f}\u{1b}[2J", "9999999999@rx0y0"] {
        let out = rbg(&["moves", &file, "--engine", "sbg", "--after", junk]);
        assert_eq!(out.status.code(), Some(1), "{junk:?}");
        assert!(stderr(&out).contains("move 1"), "{junk:?}: {}", stderr(&out));
    }
}
