//! End-to-end tests of `rbg play` (matches, logs, human games on standard input) and
//! `rbg replay`. Iteration budgets and fixed seeds only: every run here is deterministic.

use std::path::{Path, PathBuf};
use std::process::Output;

use assert_cmd::Command;

mod common;
use common::{rbg, stderr, stdout, temp_file};

fn game(name: &str) -> String {
    rbg_testdata::workspace_root().join("games").join(format!("{name}.rbg")).to_str().unwrap().to_string()
}

/// A fresh path for a log (in a directory of its own).
fn log_path(name: &str) -> PathBuf {
    let path = temp_file(name, "");
    std::fs::remove_file(&path).unwrap();
    path
}

/// Runs `rbg` with `input` on standard input.
fn rbg_with_input(args: &[&str], input: impl Into<Vec<u8>>) -> Output {
    Command::cargo_bin("rbg").unwrap().args(args).write_stdin(input.into()).output().unwrap()
}

fn log_lines(path: &Path) -> Vec<serde_json::Value> {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines().map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}"))).collect()
}

/// `rbg play` of ten tic-tac-toe games with a log; returns the log's path.
fn logged_match(name: &str, threads: &str) -> PathBuf {
    let log = log_path(name);
    let ttt = game("ticTacToe");
    let out = rbg(&[
        "play",
        &ttt,
        "--agents",
        "mcts:iterations=200,random",
        "--games",
        "10",
        "--threads",
        threads,
        "--seed",
        "5",
        "--log",
        log.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("ticTacToe: 10 games, 10 finished"), "{text}");
    assert!(text.contains("1 mcts:iterations=200  all"), "{text}");
    assert!(text.contains("2 random") && text.contains("cross") && text.contains("nought"), "{text}");
    assert!(text.contains("Elo difference (1 minus 2): "), "{text}");
    log
}

#[test]
fn a_logged_match_replays_as_all_legal() {
    let log = logged_match("match.jsonl", "2");
    let records = log_lines(&log);
    assert_eq!(records.len(), 10);
    let mut moves = 0;
    for (i, r) in records.iter().enumerate() {
        assert_eq!(r["index"], i as u64);
        assert_eq!(r["game"], "ticTacToe");
        assert_eq!(r["players"], serde_json::json!(["cross", "nought"]));
        assert_eq!(r["termination"], "finished");
        // Seats rotate: mcts plays cross in even games.
        let first = if i % 2 == 0 { "mcts:iterations=200" } else { "random" };
        assert_eq!(r["agents"][0], first);
        let n = r["moves"].as_array().unwrap().len();
        assert!((5..=9).contains(&n), "{r}");
        assert!(r["moves"][0].as_str().unwrap().contains('@'));
        assert_eq!(r["result"].as_array().unwrap().len(), 2);
        moves += n;
    }
    let out = rbg(&["replay", log.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout(&out), format!("10 games, {moves} moves, all legal\n"));
}

#[test]
fn the_thread_count_does_not_change_the_games() {
    let one = std::fs::read_to_string(logged_match("one.jsonl", "1")).unwrap();
    let two = std::fs::read_to_string(logged_match("two.jsonl", "2")).unwrap();
    assert_eq!(one, two);
}

#[test]
fn an_altered_move_or_a_malformed_line_fails_the_replay() {
    let log = logged_match("altered.jsonl", "1");
    let mut records = log_lines(&log);
    // Game 3's second move (nought's) replaced by the first (cross's): not legal there.
    let first = records[3]["moves"][0].clone();
    records[3]["moves"][1] = first.clone();
    let text: String = records.iter().map(|r| format!("{r}\n")).collect();
    let altered = temp_file("altered-copy.jsonl", &text);
    let out = rbg(&["replay", altered.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.contains(":4: game 3: ply 2, move '"), "{err}");
    assert!(err.contains(&format!("'{}': not legal", first.as_str().unwrap())), "{err}");
    assert!(stdout(&out).is_empty());
    // A vertex that does not exist.
    records[3]["moves"][1] = serde_json::json!("10@nowhere 11@nowhere");
    let text: String = records.iter().map(|r| format!("{r}\n")).collect();
    let out = rbg(&["replay", temp_file("bad-vertex.jsonl", &text).to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("game 3: ply 2, move '10@nowhere 11@nowhere': token 1"),
        "{}",
        stderr(&out)
    );
    // Scores that the moves do not give.
    let mut records = log_lines(&log);
    records[0]["scores"] = serde_json::json!([7, 7]);
    let text: String = records.iter().map(|r| format!("{r}\n")).collect();
    let out = rbg(&["replay", temp_file("bad-scores.jsonl", &text).to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("game 0: the log gives the scores [7, 7]"), "{}", stderr(&out));
    // A line that is not a record, with its line number.
    let mut lines: Vec<String> = std::fs::read_to_string(&log).unwrap().lines().map(String::from).collect();
    lines[1] = "{\"index\": 1, \"moves\": [".to_string();
    let out = rbg(&["replay", temp_file("malformed.jsonl", &(lines.join("\n") + "\n")).to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("malformed.jsonl:2: not a game record of rbg play"), "{}", stderr(&out));
    lines[1] = "[1, 2]".to_string();
    let out = rbg(&["replay", temp_file("malformed2.jsonl", &(lines.join("\n") + "\n")).to_str().unwrap()]);
    assert!(stderr(&out).contains("malformed2.jsonl:2: "), "{}", stderr(&out));
    // A missing log.
    let out = rbg(&["replay", "/nonexistent/log.jsonl"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("cannot open the log"), "{}", stderr(&out));
}

#[test]
fn replay_takes_the_game_from_the_command_line() {
    // A record without a file needs --game.
    let record = "{\"index\": 0, \"moves\": [\"4@rx1y1 5@rx1y1\", \"10@rx0y0 11@rx0y0\"]}\n";
    let log = temp_file("no-file.jsonl", record);
    let out = rbg(&["replay", log.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("names no game file; give it with --game"), "{}", stderr(&out));
    let out = rbg(&["replay", log.to_str().unwrap(), "--game", &game("ticTacToe")]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout(&out), "1 game, 2 moves, all legal\n");
}

#[test]
fn bad_arguments_are_explained() {
    let ttt = game("ticTacToe");
    let cases: [(&[&str], &str); 6] = [
        (&["--agents", "random"], "the game has 2 players (cross, nought) but 1 agents were given"),
        (&["--agents", "mcts:depht=3,random"], "agent 1 (`mcts:depht=3`): unknown option `depht`"),
        (&["--agents", "random,minimax"], "unknown agent `minimax`"),
        (&["--agents", "human:fast,random"], "the human agent takes no options"),
        (&["--agents", "human,random", "--threads", "2"], "games with a human are played one at a time"),
        (&["--agents", "random,random", "--threads", "100000"], "--threads 100000: give from 1 to"),
    ];
    for (extra, message) in cases {
        let mut args = vec!["play", ttt.as_str()];
        args.extend_from_slice(extra);
        let out = rbg(&args);
        // Usage errors: the command line is at fault, not the game.
        assert_eq!(out.status.code(), Some(2), "{extra:?}");
        assert!(stderr(&out).contains(message), "{extra:?}: {}", stderr(&out));
    }
    // Clap's usage errors: both budgets, a bad duration, no games.
    for extra in [&["--time", "10ms", "--iterations", "5"][..], &["--time", "10"][..], &["--games", "0"][..]]
    {
        let mut args = vec!["play", ttt.as_str(), "--agents", "random,random"];
        args.extend_from_slice(extra);
        assert_eq!(rbg(&args).status.code(), Some(2), "{extra:?}");
    }
}

#[test]
fn a_budget_override_and_a_move_limit_show_in_the_results() {
    let out = rbg(&[
        "play",
        &game("connect4"),
        "--agents",
        "mcts:iterations=5000,flatmc",
        "--iterations",
        "20",
        "--games",
        "2",
        "--max-moves",
        "4",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("1 mcts:iterations=20") && text.contains("2 flatmc:iterations=20"), "{text}");
    assert!(text.contains("connect4: 2 games, 0 finished"), "{text}");
    assert!(text.contains("2 games stopped at the move limit (4 moves), not counted above"), "{text}");
    assert!(!text.contains("Elo"), "{text}");
}

/// The human is cross (seat 1 in game 0). Junk, a move number out of range, a bad pair, then
/// b2 (the centre); after the agent's reply b2 again (occupied: not legal), `undo` (back to the
/// empty board), then a1 and `1` (the first legal move) until the game ends.
#[test]
fn a_human_game_of_tic_tac_toe_with_junk_and_undo_finishes() {
    let log = log_path("human.jsonl");
    let input = "hello there\n42\n4@zz\n\u{7f}\u{1b}[A\nhelp\nb2\nb2\nundo\na1\n1\n1\n1\n1\n1\n";
    let mut input = input.as_bytes().to_vec();
    // Bytes that are not UTF-8 are junk too.
    input.splice(0..0, b"\xff\xfe\n".iter().copied());
    let out = rbg_with_input(
        &[
            "play",
            &game("ticTacToe"),
            "--agents",
            "human,random",
            "--seed",
            "3",
            "--log",
            log.to_str().unwrap(),
        ],
        input,
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    for expected in [
        "game 1 of 1 (cross: human, nought: random)",
        "   a b c\n3  . . .\n2  . . .\n1  . . .\n",
        "cross to move; 9 legal moves:",
        "5) b2  4@rx1y1 5@rx1y1  rx1y1: free→X",
        "'hello' is not a move number, a vertex name or a command (type `help`)",
        "there is no move 42: moves are numbered 1 to 9",
        "'\\u{7f}\\u{1b}[A' is not a move number",
        "'\u{fffd}\u{fffd}' is not a move number",
        "cannot read that move: token 1 '4@zz': no such vertex in this game",
        "undo         take back your last move",
        "nought (random) plays ",
        "no legal move goes through b2 (type `moves` for the list)",
        "took back 2 moves",
        "game over: cross ",
        "\nticTacToe: 1 game, 1 finished\n",
    ] {
        assert!(text.contains(expected), "missing {expected:?} in:\n{text}");
    }
    assert!(text.lines().any(|l| l.starts_with("1 human ") && l.contains(" all ")), "{text}");
    // The junk line is echoed after the prompt (the input is not a terminal).
    assert!(text.contains("cross> hello there\n"), "{text}");
    // The log holds the game as played after the undo: a1 first, and replays.
    let records = log_lines(&log);
    assert_eq!(records.len(), 1);
    assert_eq!(records[0]["moves"][0], "4@rx0y2 5@rx0y2");
    assert_eq!(records[0]["agents"], serde_json::json!(["human", "random"]));
    assert_eq!(records[0]["termination"], "finished");
    let out = rbg(&["replay", log.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

#[test]
fn ambiguous_squares_are_listed_and_the_end_of_the_input_ends_the_game() {
    // In breakthrough the pawn on a2 can go to a3 or b3.
    let log = log_path("eof.jsonl");
    let args = ["play", &game("breakthrough"), "--agents", "human,random", "--log", log.to_str().unwrap()];
    let out = rbg_with_input(&args, "a2\na2b3\n");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("a2 matches 2 legal moves:\n  1) a2-a3  2@rx0y6 3@rx0y5 4@rx0y5\n  2) a2-b3  "),
        "{text}"
    );
    assert!(text.contains("type the number of the one you mean"), "{text}");
    assert!(text.contains("black (random) plays "), "{text}");
    assert!(text.ends_with("the input ended: game 1 abandoned after 2 moves\n"), "{text}");
    let records = log_lines(&log);
    assert_eq!(
        (records[0]["termination"].as_str(), records[0]["moves"][0].as_str()),
        (Some("abandoned"), Some("2@rx0y6 3@rx1y5 4@rx1y5"))
    );
    assert_eq!(rbg(&["replay", log.to_str().unwrap()]).status.code(), Some(0));
    // No input at all, and `quit`.
    let out = rbg_with_input(&args[..4], "");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).ends_with("the input ended: game 1 abandoned after 0 moves\n"), "{}", stdout(&out));
    let out = rbg_with_input(&args[..4], "quit\n");
    assert!(stdout(&out).ends_with("the player quit: game 1 abandoned after 0 moves\n"), "{}", stdout(&out));
}
