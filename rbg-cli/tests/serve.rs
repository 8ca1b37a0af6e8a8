//! `rbg serve`: the binary serves a games directory on 127.0.0.1 (port 0: a free one, printed),
//! plays a game over the API, and reports a broken game file with its line; a missing
//! directory is an error; `--engine compiled` builds the game (its cargo's failure is the
//! answer's error). The server is killed at the end of the test.

mod common;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use common::{rbg, start_server, start_server_reading, start_server_with, stderr, temp_file};

fn post(address: &str, path: &str, body: &str) -> (u16, String) {
    post_waiting(address, path, body, Duration::from_secs(60))
}

fn post_waiting(address: &str, path: &str, body: &str, wait: Duration) -> (u16, String) {
    let mut stream = TcpStream::connect(address).expect("connect");
    stream.set_read_timeout(Some(wait)).unwrap();
    let request = format!(
        "POST {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    let status = answer.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    (status, answer.split_once("\r\n\r\n").map(|(_, b)| b.to_string()).unwrap_or_default())
}

#[test]
fn serves_a_directory_on_loopback() {
    let ttt =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../games/ticTacToe.rbg")).unwrap();
    let game = temp_file("ticTacToe.rbg", &ttt);
    let dir = game.parent().unwrap().to_path_buf();
    std::fs::write(dir.join("broken.rbg"), "#players = a(1)\n#pieces = e\n#variables =\n#board = rectangle(up, down, left, right, [e])\n#rules = ->a ((\n").unwrap();
    let (_server, address) = start_server(&dir);
    let (status, body) = post(&address, "/api/sessions", "{\"game\": \"ticTacToe.rbg\"}");
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("\"to_move\":\"cross\""), "{body}");
    let (status, body) = post(&address, "/api/sessions", "{\"game\": \"broken.rbg\"}");
    assert_eq!(status, 422, "{body}");
    assert!(body.contains("broken.rbg:5:"), "{body}");
    served_logs_replay(&address, &dir);
}

/// Three random agents' moves in a new session; the session's log, saved as a file, is a log
/// that `rbg replay` checks (one record of `rbg play --log`).
fn served_logs_replay(address: &str, dir: &std::path::Path) {
    let (status, body) = post(address, "/api/sessions", "{\"game\": \"ticTacToe.rbg\"}");
    assert_eq!(status, 200, "{body}");
    let view: serde_json::Value = serde_json::from_str(&body).unwrap();
    let id = view["id"].as_u64().map(|n| n.to_string()).or_else(|| view["id"].as_str().map(String::from));
    let id = id.unwrap_or_else(|| panic!("no session id in {body}"));
    for seed in 1..=3 {
        let (status, body) = post(
            address,
            &format!("/api/sessions/{id}/agent"),
            &format!("{{\"agent\": \"random\", \"seed\": {seed}}}"),
        );
        assert_eq!(status, 200, "{body}");
    }
    let mut stream = TcpStream::connect(address).expect("connect");
    stream.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    write!(stream, "GET /api/sessions/{id}/log HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    let log = answer.split_once("\r\n\r\n").map(|(_, b)| b.to_string()).unwrap_or_default();
    let record: serde_json::Value = serde_json::from_str(&log).expect(&log);
    assert_eq!(record["moves"].as_array().map(Vec::len), Some(3), "{log}");
    let file = dir.join("served.jsonl");
    std::fs::write(&file, format!("{log}\n")).unwrap();
    let game = dir.join("ticTacToe.rbg");
    let out = rbg(&["replay", file.to_str().unwrap(), "--game", game.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

#[test]
fn a_missing_directory_is_an_error() {
    let out = rbg(&["serve", "/nonexistent/games", "--port", "0"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("is not a directory"), "{}", stderr(&out));
}

/// tic-tac-toe with a comment naming this run: a game text (and compile cache entry) of its own.
fn fresh_tic_tac_toe() -> std::path::PathBuf {
    let ttt =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../games/ticTacToe.rbg")).unwrap();
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos();
    temp_file("ticTacToe.rbg", &format!("{ttt}\n// serve test {} {nanos}\n", std::process::id()))
}

/// `--engine auto` where cargo does not run: the server says so and opens games on the
/// interpreter, building nothing.
#[test]
fn auto_without_cargo_plays_on_the_interpreter() {
    let game = fresh_tic_tac_toe();
    let dir = game.parent().unwrap().to_path_buf();
    let no_cargo = dir.join("no-such-dir").join("cargo");
    let (_server, address, lines) =
        start_server_reading(&dir, &["--engine", "auto"], &[("CARGO", &no_cargo)]);
    let note = lines.recv_timeout(Duration::from_secs(60)).expect("a second line");
    assert!(note.contains("cargo was not found"), "{note}");
    let (status, body) = post(&address, "/api/sessions", "{\"game\": \"ticTacToe.rbg\"}");
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("\"engine\":\"interpreter\""), "{body}");
    assert!(body.contains("\"build\":\"none\""), "no build: {body}");
}

#[test]
fn the_compiled_engine_serves_games_and_reports_a_failed_build() {
    let game = fresh_tic_tac_toe();
    let dir = game.parent().unwrap().to_path_buf();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let failing = dir.join("failing-cargo");
        std::fs::write(&failing, "#!/bin/sh\necho 'error: this cargo fails on purpose' >&2\nexit 101\n")
            .unwrap();
        std::fs::set_permissions(&failing, std::fs::Permissions::from_mode(0o755)).unwrap();
        let (_server, address) = start_server_with(&dir, &["--engine", "compiled"], &[("CARGO", &failing)]);
        let (status, body) = post(&address, "/api/sessions", "{\"game\": \"ticTacToe.rbg\"}");
        assert_eq!(status, 422, "{body}");
        assert!(body.contains("fails on purpose"), "cargo's captured output is in the answer: {body}");
    }
    // With cargo: built on the first request (dependencies too on a fresh cache: minutes).
    let (_server, address) = start_server_with(&dir, &["--engine", "compiled"], &[]);
    let (status, body) =
        post_waiting(&address, "/api/sessions", "{\"game\": \"ticTacToe.rbg\"}", Duration::from_secs(900));
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("\"to_move\":\"cross\""), "{body}");
}
