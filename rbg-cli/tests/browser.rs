//! The page of `rbg serve` in a real browser: `rbg-serve/browser-tests/page.mjs` drives headless
//! Chromium with playwright-core, by clicks only: it wins tic-tac-toe against the random agent
//! and checks the result message, then plays e2-e4 in chess and steps back, checking the drawn
//! board each time. Screenshots are kept in `target/browser-artefacts/`.
//!
//! Needs Node.js, Chromium (`/usr/bin/chromium`, or `CHROMIUM`) and `npm ci` run in
//! `rbg-serve/browser-tests` (`.ci/run` does all three). Outside CI the test is skipped with a
//! note when one is missing; under `CI` a missing one fails it.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use common::{start_server, temp_file};

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// What is missing to run the browser test, if anything.
fn missing_tools(scripts: &Path) -> Vec<String> {
    let chromium = std::env::var("CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into());
    let mut missing = Vec::new();
    if !Path::new(&chromium).exists() {
        missing.push(format!("Chromium ({chromium}; Debian package chromium)"));
    }
    if Command::new("node").arg("--version").output().map(|o| !o.status.success()).unwrap_or(true) {
        missing.push("Node.js (node)".into());
    }
    if !scripts.join("node_modules/playwright-core").is_dir() {
        missing.push(format!("playwright-core (run `npm ci` in {})", scripts.display()));
    }
    missing
}

#[test]
fn the_page_plays_by_clicks_in_headless_chromium() {
    let scripts = workspace().join("rbg-serve/browser-tests");
    let missing = missing_tools(&scripts);
    if !missing.is_empty() {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI must run the browser test; missing: {}",
            missing.join(", ")
        );
        eprintln!("note: browser test skipped; missing: {}", missing.join(", "));
        return;
    }
    let chess = rbg_testdata::corpus_game("chess");
    if !rbg_testdata::available(&[&chess]) {
        return;
    }
    let ttt = std::fs::read_to_string(workspace().join("games/ticTacToe.rbg")).expect("games/ticTacToe.rbg");
    let dir = temp_file("ticTacToe.rbg", &ttt).parent().expect("a directory").to_path_buf();
    std::fs::copy(&chess, dir.join("chess.rbg")).expect("copy chess.rbg");
    let (_server, address) = start_server(&dir);

    let artefacts = workspace().join("target/browser-artefacts");
    let mut node = Command::new("node")
        .arg(scripts.join("page.mjs"))
        .arg(format!("http://{address}"))
        .arg(&artefacts)
        .spawn()
        .expect("node starts");
    // The script's own waits are bounded (20 s each); this bounds the whole run as well.
    let deadline = Instant::now() + Duration::from_secs(300);
    let status = loop {
        if let Some(status) = node.try_wait().expect("wait for node") {
            break status;
        }
        if Instant::now() > deadline {
            let _ = node.kill();
            let _ = node.wait();
            panic!("the browser test did not finish in 300 s");
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    assert!(status.success(), "the browser test failed (its output is above)");
    for shot in ["tic-tac-toe-won.png", "chess-e4.png", "chess-back.png"] {
        assert!(artefacts.join(shot).is_file(), "screenshot {shot} missing");
    }
}
