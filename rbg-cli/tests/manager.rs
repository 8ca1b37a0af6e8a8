//! `rbg manager` and `rbg client` as processes on loopback: five games of ticTacToe between two
//! random clients (one `auto` without cargo). Every wait is bounded; a process still running at the end is killed.

mod common;

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Output, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use common::{rbg, stderr, temp_file};

/// How long a process may take before the test gives up on it.
const PATIENCE: Duration = Duration::from_secs(120);

fn rbg_command() -> Command {
    Command::new(assert_cmd::cargo::cargo_bin("rbg"))
}

/// Waits for `child` to exit, at most `PATIENCE`; kills it (and fails) if it does not.
fn finish(mut child: Child, what: &str) -> Output {
    let start = Instant::now();
    loop {
        match child.try_wait().expect("try_wait") {
            Some(_) => return child.wait_with_output().expect("output"),
            None if start.elapsed() > PATIENCE => {
                let _ = child.kill();
                let _ = child.wait();
                panic!("{what} did not finish within {PATIENCE:?}");
            }
            None => std::thread::sleep(Duration::from_millis(20)),
        }
    }
}

#[test]
fn manager_and_two_clients_play_five_games() {
    let game = rbg_testdata::corpus_dir().join("ticTacToe.rbg");
    if !rbg_testdata::available(&[&game]) {
        return;
    }
    let results = temp_file("results.txt", "");
    let moves = temp_file("moves.txt", "");
    let mut manager = rbg_command()
        .arg("manager")
        .arg(&game)
        .args(["--port", "0", "--games", "5", "--deadline", "5000", "--preparation", "3000"])
        .arg("--log-results")
        .arg(&results)
        .arg("--log-moves")
        .arg(&moves)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("rbg manager starts");
    // The manager reports the address it bound; the rest of its stderr is kept for messages.
    let (tx, rx) = mpsc::channel();
    let manager_stderr = manager.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut all = String::new();
        for line in BufReader::new(manager_stderr).lines().map_while(Result::ok) {
            if let Some(rest) = line.split("listening on ").nth(1) {
                let _ = tx.send(rest.split(',').next().unwrap_or(rest).trim().to_string());
            }
            all.push_str(&line);
            all.push('\n');
        }
        all
    });
    let Ok(addr) = rx.recv_timeout(PATIENCE) else {
        let _ = manager.kill();
        let _ = manager.wait();
        panic!("the manager did not report its address: {}", reader.join().unwrap());
    };
    assert!(addr.starts_with("127.0.0.1:"), "{addr}");
    // Client 2 asks for `auto` where cargo cannot run: it says so and plays on the interpreter
    // (no build started), like client 1's `interp`.
    let no_cargo = std::env::temp_dir().join("rbg-manager-test-no-such-dir").join("cargo");
    let clients: Vec<Child> = [("random", "1", "interp"), ("random:seed=9", "2", "auto")]
        .iter()
        .map(|(agent, seed, engine)| {
            rbg_command()
                .args(["client", &addr, "--agent", agent, "--seed", seed, "--engine", engine])
                .env("CARGO", &no_cargo)
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .expect("rbg client starts")
        })
        .collect();
    let outputs: Vec<Output> =
        clients.into_iter().enumerate().map(|(i, c)| finish(c, &format!("client {}", i + 1))).collect();
    let manager_output = finish(manager, "the manager");
    let manager_log = reader.join().unwrap();
    assert!(manager_output.status.success(), "{manager_log}");
    for output in &outputs {
        assert!(output.status.success(), "client: {}", stderr(output));
        assert!(stderr(output).contains("5 games played as player"), "{}", stderr(output));
    }
    let said = |client: usize| stderr(&outputs[client]).contains("cargo was not found");
    assert!(!said(0) && said(1), "only the auto client looks for cargo: {}", stderr(&outputs[1]));
    let auto = stderr(&outputs[1]);
    assert!(!auto.contains("could not be built") && !auto.contains("switched"), "no build: {auto}");
    assert!(manager_log.contains("5 games played (0 forfeited)"), "{manager_log}");
    let results = std::fs::read_to_string(&results).unwrap();
    let lines: Vec<&str> = results.lines().collect();
    assert_eq!(lines.len(), 5, "{results}");
    let mut total_moves = 0;
    for line in &lines {
        let fields: Vec<&str> = line.split(' ').collect();
        assert_eq!(fields.len(), 5, "no timeouts or forfeits: '{line}'");
        assert!(fields[0].parse::<f64>().is_ok(), "{line}");
        let moves: u64 = fields[1].parse().unwrap();
        assert!((5..=9).contains(&moves), "{line}");
        total_moves += moves;
        let scores: Vec<i64> = fields[3..].iter().map(|s| s.parse().unwrap()).collect();
        // ticTacToe: a win is 100 to 0, a draw 50 each.
        assert!(matches!(scores[..], [100, 0] | [0, 100] | [50, 50]), "{line}");
    }
    let moves = std::fs::read_to_string(&moves).unwrap();
    assert_eq!(moves.lines().count() as u64, total_moves, "{moves}");
}

#[test]
fn client_rejects_a_bad_agent_before_connecting() {
    let output = rbg(&["client", "127.0.0.1:1", "--agent", "minimax"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(stderr(&output).contains("unknown agent `minimax`"), "{}", stderr(&output));
}

#[test]
fn client_reports_a_refused_connection() {
    // Bind a port, then free it: nothing listens there.
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let address = format!("127.0.0.1:{port}");
    let output = rbg(&["client", &address, "--agent", "random"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(stderr(&output).contains("cannot connect"), "{}", stderr(&output));
}
