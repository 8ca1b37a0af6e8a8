//! Helpers shared by the end-to-end tests of the `rbg` binary. Each test file uses a part of
//! them, hence the `dead_code` allowance.
#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

use assert_cmd::Command;

/// Runs `rbg` with these arguments to the end.
pub fn rbg(args: &[&str]) -> Output {
    Command::cargo_bin("rbg").expect("the rbg binary is built").args(args).output().expect("rbg runs")
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// `(leaves, nodes)` per depth of `rbg perft FILE --depth DEPTH EXTRA...`, which must succeed.
pub fn perft_counts(path: &str, depth: u32, extra: &[&str]) -> Vec<(u64, u64)> {
    let depth = depth.to_string();
    let mut args = vec!["perft", path, "--depth", &depth];
    args.extend_from_slice(extra);
    let out = rbg(&args);
    assert_eq!(out.status.code(), Some(0), "{extra:?}: {}", stderr(&out));
    stdout(&out)
        .lines()
        .skip(1)
        .map(|line| {
            let cols: Vec<u64> =
                line.split_whitespace().take(3).map(|c| c.parse().expect("a count")).collect();
            (cols[1], cols[2])
        })
        .collect()
}

/// Writes `text` to a file called `name` in a directory of its own: tests run in parallel and
/// must not see each other's files, and the file name (a game's name) is kept.
pub fn temp_file(name: &str, text: &str) -> PathBuf {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("rbg-cli-test-{}-{n}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    std::fs::write(&path, text).expect("temp file");
    path
}

/// A running `rbg serve`, killed when the test ends, whatever happens.
pub struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts `rbg serve DIR --port 0` and returns it with the address it printed
/// ("serving DIR on http://127.0.0.1:PORT/ (Ctrl-C stops)"), checked to be on loopback.
pub fn start_server(dir: &Path) -> (Server, String) {
    start_server_with(dir, &[], &[])
}

/// The engine of a test server unless the test names one: the interpreter alone (the default,
/// `auto`, would build every game opened with cargo).
const TEST_ENGINE: [&str; 2] = ["--engine", "interpreter"];

/// [`start_server`] with more arguments and environment variables.
pub fn start_server_with(dir: &Path, args: &[&str], envs: &[(&str, &Path)]) -> (Server, String) {
    let (server, address, _) = start_server_reading(dir, args, envs);
    (server, address)
}

/// [`start_server_with`], with the lines the server writes to stderr after the first (a
/// thread reads them until the server ends, so its stderr never blocks or breaks).
pub fn start_server_reading(
    dir: &Path,
    args: &[&str],
    envs: &[(&str, &Path)],
) -> (Server, String, std::sync::mpsc::Receiver<String>) {
    let child = std::process::Command::new(assert_cmd::cargo::cargo_bin("rbg"))
        .args(["serve", dir.to_str().expect("a UTF-8 path"), "--port", "0"])
        .args(if args.contains(&"--engine") { &[][..] } else { &TEST_ENGINE[..] })
        .args(args)
        .envs(envs.iter().copied())
        .stderr(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .expect("rbg serve starts");
    let mut server = Server(child);
    let mut lines = BufReader::new(server.0.stderr.take().expect("piped")).lines();
    let first = lines.next().and_then(Result::ok).expect("a first line");
    let address =
        first.split("http://").nth(1).and_then(|rest| rest.split('/').next()).expect(&first).to_string();
    assert!(address.starts_with("127.0.0.1:"), "{first}");
    let (sender, rest) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in lines.map_while(Result::ok) {
            // The test may have stopped listening; the lines are still read.
            let _ = sender.send(line);
        }
    });
    (server, address, rest)
}
