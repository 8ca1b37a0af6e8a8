//! docs/guide.md stays true: every block marked `rbg runnable` is a whole game that
//! `rbg check --deny-warnings` accepts, and the figures the guide states about its final game
//! (perft counts derived by hand in the text, the move written in both notations) are what the
//! tools print.

use std::path::PathBuf;

mod common;
use common::rbg;

fn guide() -> String {
    let path = rbg_testdata::workspace_root().join("docs/guide.md");
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// The contents of the fenced blocks whose info string is exactly `info`.
fn blocks(text: &str, info: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut current: Option<String> = None;
    for line in text.lines() {
        match (&mut current, line.trim_end()) {
            (None, fence) if fence.strip_prefix("```") == Some(info) => current = Some(String::new()),
            (Some(_), "```") => found.extend(current.take()),
            (Some(block), _) => {
                block.push_str(line);
                block.push('\n');
            }
            (None, _) => {}
        }
    }
    found
}

fn write_game(index: usize, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("rbg-guide-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(format!("pawns{index}.rbg"));
    std::fs::write(&path, text).expect("write");
    path
}

#[test]
fn every_runnable_block_is_a_valid_game() {
    let text = guide();
    let runnable = blocks(&text, "rbg runnable");
    assert!(runnable.len() >= 5, "only {} runnable blocks", runnable.len());
    // A block tagged plain `rbg` would escape this test: fragments must be tagged `text`.
    assert!(blocks(&text, "rbg").is_empty(), "an `rbg` block not marked runnable");
    for (i, game) in runnable.iter().enumerate() {
        let path = write_game(i, game);
        let out = rbg(&["check", "--deny-warnings", path.to_str().unwrap()]);
        assert!(
            out.status.success(),
            "runnable block {} of docs/guide.md is rejected:\n{game}\n{}",
            i + 1,
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[test]
fn the_final_game_plays_as_the_guide_says() {
    let text = guide();
    let last = blocks(&text, "rbg runnable").pop().expect("a runnable block");
    let path = write_game(99, &last);
    let file = path.to_str().unwrap();

    // "7 and 49 leaves" at depths 1 and 2.
    let out = rbg(&["perft", file, "--depth", "2"]);
    let table = String::from_utf8_lossy(&out.stdout);
    let leaves: Vec<&str> = table.lines().skip(1).filter_map(|l| l.split_whitespace().nth(1)).collect();
    assert_eq!(leaves, ["7", "49"], "{table}");
    assert!(text.contains("counts 7 and 49"));

    // The listed move, by vertex names and by numbers, and the reply written with `;`.
    let moves = String::from_utf8_lossy(&rbg(&["moves", file]).stdout).into_owned();
    assert!(moves.contains("4@rx0y3 5@rx0y2 6@rx0y2"), "{moves}");
    for after in ["4@rx0y3 5@rx0y2 6@rx0y2; 12@rx0y0 13@rx0y1 14@rx0y1", "4@9 5@6 6@6"] {
        assert!(text.contains(after), "the guide shows --after \"{after}\"");
        let out = rbg(&["moves", file, "--after", after]);
        assert!(out.status.success(), "--after \"{after}\": {}", String::from_utf8_lossy(&out.stderr));
    }
    // The wire form `10 4 7 5 7 6` rests on rx0y3 being vertex 9 and rx0y2 vertex 6 (0-based).
    let lowered = String::from_utf8_lossy(&rbg(&["lower", file]).stdout).into_owned();
    let vertices: Vec<&str> = lowered
        .lines()
        .skip_while(|l| !l.starts_with("#board"))
        .skip(1)
        .take_while(|l| !l.starts_with('#'))
        .filter_map(|l| l.trim().split('[').next())
        .collect();
    assert_eq!(vertices.iter().position(|v| *v == "rx0y3"), Some(9), "{vertices:?}");
    assert_eq!(vertices.iter().position(|v| *v == "rx0y2"), Some(6), "{vertices:?}");
    assert!(text.contains("`10 4 7 5 7 6`"));
}
