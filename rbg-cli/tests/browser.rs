//! The page of `rbg serve` in a real browser: `rbg-serve/browser-tests/page.mjs` drives headless
//! Chromium with playwright-core, by clicks (and a few keys) only: it wins tic-tac-toe against
//! the random agent; in chess it checks the selection (targets, Escape, switching), e2-e4 and
//! its notation, Back and Forward by the arrow keys, a move by the keyboard, a reload keeping
//! the game, export and import of the log; the board locked while the agent thinks, Stop, and
//! "New game" during a search; a promotion in chessGardner chosen by picture and name; chess
//! with split moves (a piece chosen, then moved, by clicks); paper soccer (the corpus's) moved
//! by a click on the point the ball goes to; then
//! every game of `games/` opens from the library and a legal move is made by clicks, with a
//! check that no two clickable sites are closer than 24 px; the editor marks a typed error,
//! applies its quick fix, redraws the preview and plays the edited rule; the studio part checks
//! the check ring in chess (1. e4 f6 2. Qh5+), Stop during a 4-second search and the Analyze view
//! (tic-tac-toe measured, a long analysis cancelled). Screenshots (1280x800 and 600 px
//! wide) are kept in `$CARGO_TARGET_DIR/browser-screenshots/` (else `target/`).
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
    // The games of games/ and the corpus's chess and paper soccer, in a directory of their own.
    let dir = temp_file("chess.rbg", &std::fs::read_to_string(&chess).expect("chess.rbg"))
        .parent()
        .expect("a directory")
        .to_path_buf();
    copy_tree(&workspace().join("games"), &dir);
    // Paper soccer, clicked at the points the ball goes to.
    let soccer = rbg_testdata::corpus_game("paperSoccer");
    if rbg_testdata::available(&[&soccer]) {
        std::fs::copy(&soccer, dir.join("paperSoccer.rbg")).expect("copy paperSoccer.rbg");
    }
    let (_server, address) = start_server(&dir);

    let target =
        std::env::var_os("CARGO_TARGET_DIR").map(PathBuf::from).unwrap_or_else(|| workspace().join("target"));
    let target = if target.is_relative() { workspace().join(target) } else { target };
    let artefacts = target.join("browser-screenshots");
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
    for shot in [
        "tic-tac-toe-won.png",
        "chess-selected-1280.png",
        "chess-thinking-1280.png",
        "promotion-1280.png",
        "paper-soccer-1280.png",
        "chess-1280.png",
        "library-1280.png",
        "chess-600.png",
    ] {
        assert!(artefacts.join(shot).is_file(), "screenshot {shot} missing");
    }
}

/// Copies the files under `from` into `to`, keeping the tree.
fn copy_tree(from: &Path, to: &Path) {
    for entry in std::fs::read_dir(from).expect("read games/").flatten() {
        let (source, target) = (entry.path(), to.join(entry.file_name()));
        if source.is_dir() {
            std::fs::create_dir_all(&target).expect("make a directory");
            copy_tree(&source, &target);
        } else {
            std::fs::copy(&source, &target).expect("copy a game");
        }
    }
}
