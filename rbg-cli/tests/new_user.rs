//! Defects found by using `rbg` as a new user (issue 28, item 5), one test each: logs of the
//! SBG engine replay, perft stops where the tree ends, `rbg play` streams its games and reports
//! on Ctrl-C, diagnostics on huge lines stay small, `|` suggests `+`, usage errors exit 2 and
//! name the argument, illegal `--after` moves say whose turn it is, `render -o x.jpg` and
//! `sbg2rbg` of an RBG file are refused clearly, `manager` does not offer `--engine sbg`.

use std::io::Read;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

mod common;
use common::{rbg, stderr, stdout, temp_file};

fn game(relative: &str) -> String {
    rbg_testdata::workspace_root().join("games").join(relative).to_str().unwrap().to_string()
}

/// A fresh path in a directory of its own.
fn fresh_path(name: &str) -> PathBuf {
    let path = temp_file(name, "");
    std::fs::remove_file(&path).unwrap();
    path
}

#[test]
fn a_log_of_the_sbg_engine_replays_and_old_logs_still_do() {
    let log = fresh_path("sbg.log");
    let blockade = game("sbg/blockade.sbg");
    let args = ["play", &blockade, "--engine", "sbg", "--agents", "random,random", "--games", "2"];
    let out = rbg(&[&args[..], &["--max-moves", "60", "--log", log.to_str().unwrap()]].concat());
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = std::fs::read_to_string(&log).unwrap();
    for line in text.lines() {
        let record: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!((record["engine"].as_str(), record["notation"].as_str()), (Some("sbg"), Some("sbg")));
    }
    let replayed = rbg(&["replay", log.to_str().unwrap()]);
    assert_eq!(replayed.status.code(), Some(0), "{}", stderr(&replayed));
    assert!(stdout(&replayed).starts_with("2 games,"), "{}", stdout(&replayed));
    // The same log without the new fields (as written before them) replays on --engine sbg.
    let old: String = text
        .lines()
        .map(|l| {
            let mut v: serde_json::Value = serde_json::from_str(l).unwrap();
            v.as_object_mut().unwrap().retain(|k, _| k != "engine" && k != "notation");
            format!("{v}\n")
        })
        .collect();
    let old_log = temp_file("old.log", &old);
    let replayed = rbg(&["replay", old_log.to_str().unwrap(), "--engine", "sbg"]);
    assert_eq!(replayed.status.code(), Some(0), "{}", stderr(&replayed));
    // A log of the interpreter (RBG notation, no fields) still replays on the interpreter.
    let rbg_log = fresh_path("ttt.log");
    let ttt = game("ticTacToe.rbg");
    let out =
        rbg(&["play", &ttt, "--agents", "random,random", "--games", "2", "--log", rbg_log.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(std::fs::read_to_string(&rbg_log).unwrap().contains(r#""notation":"rbg""#));
    assert_eq!(rbg(&["replay", rbg_log.to_str().unwrap()]).status.code(), Some(0));
}

/// Tic-tac-toe's positions `d` moves deep, for each `d` from 1 to 10, counted here directly
/// (a line of three ends the game; so does a full board).
fn tic_tac_toe_leaves() -> Vec<u64> {
    fn won(board: &[u8; 9], mark: u8) -> bool {
        const LINES: [[usize; 3]; 8] =
            [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]];
        LINES.iter().any(|l| l.iter().all(|&i| board[i] == mark))
    }
    fn walk(board: &mut [u8; 9], depth: usize, counts: &mut [u64; 11]) {
        counts[depth] += 1;
        let mover = if depth.is_multiple_of(2) { 1 } else { 2 };
        let last = 3 - mover;
        if depth > 0 && won(board, last) {
            return;
        }
        for i in 0..9 {
            if board[i] == 0 {
                board[i] = mover;
                walk(board, depth + 1, counts);
                board[i] = 0;
            }
        }
    }
    let mut counts = [0u64; 11];
    walk(&mut [0; 9], 0, &mut counts);
    counts[1..].to_vec()
}

#[test]
fn perft_stops_at_the_first_depth_without_leaves() {
    let expected = tic_tac_toe_leaves();
    assert_eq!(expected[9], 0, "no position is 10 moves deep");
    let ttt = game("ticTacToe.rbg");
    let out = rbg(&["perft", &ttt, "--depth", "100"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    let rows: Vec<Vec<u64>> = text
        .lines()
        .skip(1)
        .filter(|l| l.trim_start().starts_with(|c: char| c.is_ascii_digit()))
        .map(|l| l.split_whitespace().take(2).map(|c| c.parse().unwrap()).collect())
        .collect();
    let leaves: Vec<u64> = rows.iter().map(|r| r[1]).collect();
    assert_eq!(leaves, expected, "{text}");
    assert!(text.contains("the game tree ends at depth 9"), "{text}");
    // The largest depth ends by the same rule, in JSON too.
    let out = rbg(&["perft", &ttt, "--depth", "4294967295", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let lines: Vec<serde_json::Value> =
        stdout(&out).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 10);
    assert!(lines[..9].iter().all(|l| l["tree_ends"] == false));
    assert_eq!((lines[9]["depth"].as_u64(), lines[9]["tree_ends"].as_bool()), (Some(10), Some(true)));
}

/// Starts `rbg play` with `games` games and a log, waits until the log has a game, sends Ctrl-C
/// (SIGINT) and returns the exit code and standard output.
fn interrupt_play(games: &str) -> (Option<i32>, String) {
    let log = fresh_path("interrupted.log");
    let ttt = game("ticTacToe.rbg");
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("rbg"))
        .args(["play", &ttt, "--agents", "random,random", "--games", games, "--log", log.to_str().unwrap()])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while std::fs::metadata(&log).map_or(0, |m| m.len()) == 0 {
        if start.elapsed() > Duration::from_secs(60) || child.try_wait().unwrap().is_some() {
            let _ = child.kill();
            panic!("no game was logged (or rbg play ended) within a minute");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let sent = Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
    assert!(sent.success());
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > Duration::from_secs(30) {
            let _ = child.kill();
            panic!("rbg play did not stop within 30 s of Ctrl-C");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut text = String::new();
    child.stdout.take().unwrap().read_to_string(&mut text).unwrap();
    (status.code(), text)
}

#[test]
fn huge_matches_stream_and_ctrl_c_prints_the_games_so_far() {
    for games in ["1000000000", "18446744073709551615"] {
        let (code, text) = interrupt_play(games);
        assert_eq!(code, Some(130), "--games {games}: {text}");
        assert!(text.starts_with("interrupted"), "{text}");
        let played: u64 = text
            .lines()
            .find_map(|l| l.strip_prefix("ticTacToe: ")?.split(' ').next()?.parse().ok())
            .unwrap_or_else(|| panic!("no summary line: {text}"));
        assert!(played >= 1, "{text}");
    }
}

#[test]
fn a_diagnostic_on_a_megabyte_line_stays_small() {
    let head = "#players = a(1) #pieces = e #variables = #board = rectangle(up,down,left,right,[e, e]) \
                #m(x) = x #rules = ->a ";
    let body = "(left + right) ".repeat(70_000);
    let text = format!("{head}{body}m(zzz)");
    assert!(text.len() > 1_000_000 && !text.contains('\n'));
    let path = temp_file("oneline.rbg", &text);
    let out = rbg(&["check", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.len() < 4096, "{} bytes of stderr", err.len());
    assert!(err.contains("Identifier 'zzz' not declared"), "{err}");
    // The column is the byte of `zzz` counted from 1 (the line is ASCII).
    let column = text.find("zzz").unwrap() + 1;
    assert!(err.contains(&format!("oneline.rbg:1:{column}")), "{err}");
    assert!(err.contains("m(zzz)") && err.contains("in expansion of macro 'm'"), "{err}");
    // NUL bytes on one long line.
    let mut nul = b"#players = a(1) ".to_vec();
    nul.extend(std::iter::repeat_n(0u8, 20_000));
    let path = temp_file("nul.rbg", "");
    std::fs::write(&path, nul).unwrap();
    let out = rbg(&["check", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).len() < 1024, "{}", stderr(&out));
    assert!(stderr(&out).contains("nul.rbg:1:17"), "{}", stderr(&out));
}

#[test]
fn a_bar_warns_that_alternatives_are_written_with_plus() {
    let original = std::fs::read_to_string(game("ticTacToe.rbg")).unwrap();
    let with_bar = original.replacen("#rules =", "#rules = |", 1);
    assert_ne!(with_bar, original);
    let path = temp_file("bar.rbg", &with_bar);
    let out = rbg(&["check", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "still accepted, as by the reference");
    assert!(stderr(&out).contains("alternatives are written with `+`"), "{}", stderr(&out));
    // The bar is skipped: the lowered game is the same.
    let lowered = |p: &str| stdout(&rbg(&["lower", p]));
    assert_eq!(lowered(path.to_str().unwrap()), lowered(&game("ticTacToe.rbg")));
}

#[test]
fn usage_errors_exit_2_and_name_the_argument() {
    let ttt = game("ticTacToe.rbg");
    let evolve_out = fresh_path("evolve");
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["perft", &ttt, "--depth", "2", "--threads", "0"], "--threads"),
        (vec!["mc", &ttt, "--seconds=-1"], "--seconds"),
        (vec!["mc", &ttt, "--playouts", "5", "--threads", "0"], "--threads"),
        (vec!["play", &ttt, "--agents", "random,minimax"], "--agents"),
        (vec!["play", &ttt, "--agents", "random,mcts:foo=1"], "--agents"),
        (vec!["play", &ttt, "--agents", "random"], "--agents"),
        (vec!["play", &ttt, "--agents", "random,random", "--threads", "0"], "--threads"),
        (vec!["bench", &ttt], "--depth"),
        (vec!["evolve", "--out", evolve_out.to_str().unwrap(), "--population", "1"], "--population"),
        (vec!["render", &ttt, "-o", "x.jpg"], "--output"),
        (vec!["manager", &ttt, "--port", "0", "--engine", "sbg"], "--engine"),
    ];
    for (args, flag) in cases {
        let out = rbg(&args);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(flag), "{args:?} should name {flag}: {err}");
        assert!(!err.contains(&format!("error: {ttt}:")), "{args:?} blames the game file: {err}");
    }
    assert!(!std::path::Path::new("x.jpg").exists(), "nothing written for x.jpg");
}

#[test]
fn an_illegal_after_move_says_whose_turn_and_how_many_moves() {
    let ttt = game("ticTacToe.rbg");
    // After cross's first move nought is to move with the 8 empty cells.
    let out = rbg(&["moves", &ttt, "--after", "4@rx1y1 5@rx1y1; 4@rx0y0 5@rx0y0"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains("move 2") && err.contains("nought's turn") && err.contains("8 legal moves"),
        "{err}"
    );
}

#[test]
fn replaying_an_empty_log_is_an_error() {
    let empty = temp_file("empty.log", "\n");
    let out = rbg(&["replay", empty.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("no games in"), "{}", stderr(&out));
    assert!(!stdout(&out).contains("all legal"));
}

#[test]
fn render_writes_what_the_extension_says_or_refuses() {
    let ttt = game("ticTacToe.rbg");
    let jpg = fresh_path("board.jpg");
    let out = rbg(&["render", &ttt, "-o", jpg.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(!jpg.exists());
    let svg = fresh_path("board.SVG");
    assert_eq!(rbg(&["render", &ttt, "-o", svg.to_str().unwrap()]).status.code(), Some(0));
    assert!(std::fs::read_to_string(&svg).unwrap().starts_with("<svg"));
}

#[test]
fn sbg2rbg_of_an_rbg_file_says_it_is_rbg() {
    let out = rbg(&["sbg2rbg", &game("ticTacToe.rbg")]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("looks like an RBG game"), "{}", stderr(&out));
}

#[test]
fn the_manager_does_not_offer_the_sbg_engine() {
    for (command, values) in [("manager", "interp, compiled"), ("client", "auto, interp, compiled")] {
        let help = stdout(&rbg(&[command, "-h"]));
        assert!(help.contains(&format!("[possible values: {values}]")), "{help}");
        let help = stdout(&rbg(&[command, "--help"]));
        assert!(help.contains("- compiled") && !help.contains("- sbg"), "{help}");
    }
}
