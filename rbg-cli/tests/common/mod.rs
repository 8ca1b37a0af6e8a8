//! Helpers shared by the end-to-end tests of the `rbg` binary. Each test file uses a part of
//! them, hence the `dead_code` allowance.
#![allow(dead_code)]

use std::path::PathBuf;
use std::process::Output;
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
