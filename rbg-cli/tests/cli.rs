//! End-to-end tests of the `rbg` binary: exit codes, output formats, and agreement with the
//! reference data on a few corpus games.

use std::path::PathBuf;
use std::process::Output;

use assert_cmd::Command;

use rbg_testdata::{conformance, corpus};

fn rbg(args: &[&str]) -> Output {
    Command::cargo_bin("rbg").expect("the rbg binary is built").args(args).output().expect("rbg runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn temp_file(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("rbg-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    std::fs::write(&path, text).expect("temp file");
    path
}

const TINY: &str = "#players = a(1), b(1)\n#pieces = e, x\n#variables =\n\
                    #board = rectangle(up, down, left, right, [e, e])\n\
                    #rules = ->a (left* + right*) {e} [x] ->b ->> {}\n";

#[test]
fn check_exit_codes_are_0_valid_1_invalid_2_usage() {
    let good = temp_file("good.rbg", TINY);
    let bad = temp_file("bad.rbg", &TINY.replace("->b", "->c"));
    let ok = rbg(&["check", good.to_str().unwrap()]);
    assert_eq!(ok.status.code(), Some(0), "{}", stderr(&ok));
    assert!(stdout(&ok).contains(&format!("{}: valid", good.display())), "{}", stdout(&ok));

    let failed = rbg(&["check", good.to_str().unwrap(), bad.to_str().unwrap()]);
    assert_eq!(failed.status.code(), Some(1));
    // The error names the file, line and column; `->c` is on line 5.
    let err = stderr(&failed);
    assert!(err.contains("Player c was not declared"), "{err}");
    assert!(err.contains("bad.rbg:5:"), "{err}");

    assert_eq!(rbg(&["check"]).status.code(), Some(2));
    assert_eq!(rbg(&["perft", good.to_str().unwrap()]).status.code(), Some(2), "--depth is required");
    assert_eq!(rbg(&["frobnicate"]).status.code(), Some(2));
}

#[test]
fn reference_format_prints_the_reference_line_and_trail() {
    let text = "#players = a(1)\n#pieces = e\n#variables =\n#board = rectangle(up,down,left,right,[e])\n\
                #m(x) = x ~ 8\n#rules = ->a m(up)\n";
    let path = temp_file("trail.rbg", text);
    let out = rbg(&["check", "--format", "reference", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stderr(&out).lines().collect::<Vec<_>>(),
        [
            "Error (line 6, character 16): Identifier 'up8' not declared",
            "\tin expansion of 'x' macro argument",
            "\tin expansion of macro 'm'"
        ]
    );
}

#[test]
fn warnings_are_shown_and_can_be_denied() {
    let path = temp_file("warn.rbg", &format!("{TINY}#pieces = e, x\n"));
    let out = rbg(&["check", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0));
    assert!(stderr(&out).contains("Another 'pieces' declared; discarding previous"), "{}", stderr(&out));
    assert_eq!(rbg(&["check", "--deny-warnings", path.to_str().unwrap()]).status.code(), Some(1));
}

#[test]
fn unreadable_file_is_an_error_not_a_panic() {
    let out = rbg(&["check", "/nonexistent/game.rbg"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("cannot read"));
}

#[test]
fn lower_writes_the_reference_text_and_straightness_matches() {
    let (Some(corpus), Some(conf)) = (corpus(), conformance()) else { return };
    for game in ["chess", "englishDraughts", "hex_9x9", "arimaa"] {
        let src = corpus.join(format!("{game}.rbg"));
        let expected = std::fs::read(conf.join("lowered").join(format!("{game}.rbg"))).unwrap();
        let out = rbg(&["lower", src.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(0));
        assert!(out.stdout == expected, "{game}: rbg lower differs from the reference lowering");

        let file = temp_file(&format!("{game}.lowered.rbg"), "");
        assert!(rbg(&["lower", src.to_str().unwrap(), "-o", file.to_str().unwrap()]).status.success());
        assert!(std::fs::read(&file).unwrap() == expected, "{game}: -o output differs");
    }
    let csv = std::fs::read_to_string(conf.join("straightness.csv")).unwrap();
    let row = csv.lines().find(|l| l.starts_with("chess,")).unwrap();
    let f: Vec<&str> = row.split(',').collect();
    let out = stdout(&rbg(&["check", "--straightness", corpus.join("chess.rbg").to_str().unwrap()]));
    for (label, value) in ["Applicational strong", "Main", "Move", "Semimove"].iter().zip(&f[2..6]) {
        assert!(out.contains(&format!("{label} straightness: {value}")), "{out}");
    }
}

#[test]
fn perft_json_lines_match_the_reference() {
    let (Some(corpus), Some(conf)) = (corpus(), conformance()) else { return };
    let csv = std::fs::read_to_string(conf.join("reference-perft.csv")).unwrap();
    let out = rbg(&["perft", corpus.join("breakthrough.rbg").to_str().unwrap(), "--depth", "3", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    // Piped: no progress bar or other noise on stderr.
    assert_eq!(stderr(&out), "");
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
    assert_eq!(lines.len(), 3);
    for (depth, line) in (1..=3).zip(&lines) {
        let reference = csv.lines().find(|l| l.starts_with(&format!("breakthrough,{depth},"))).unwrap();
        let r: Vec<&str> = reference.split(',').collect();
        let expected =
            format!(r#"{{"game":"breakthrough","depth":{depth},"leaves":{},"nodes":{},"ms":"#, r[2], r[3]);
        assert!(line.starts_with(&expected), "{line} vs {expected}");
        assert!(line.contains(r#""nodes_per_s":"#));
    }
}

#[test]
fn perft_text_has_one_row_per_depth() {
    let path = temp_file("tiny.rbg", TINY);
    let out = rbg(&["perft", path.to_str().unwrap(), "-d", "2"]);
    assert_eq!(out.status.code(), Some(0));
    let rows: Vec<Vec<String>> =
        stdout(&out).lines().skip(1).map(|l| l.split_whitespace().map(String::from).collect()).collect();
    // a has 2 cells to fill; then b has one move; so 2 leaves at depth 1 and 2 at depth 2.
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0][..3], ["1", "2", "3"]);
    assert_eq!(rows[1][..3], ["2", "2", "5"]);
}

#[test]
fn mc_reports_playouts_lengths_and_scores() {
    let path = temp_file("tiny-mc.rbg", TINY);
    let out = rbg(&["mc", path.to_str().unwrap(), "--playouts", "50", "--json", "--seed", "3"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    // Every playout is a then b then the end: length 2, scores 0.
    assert!(text.contains(r#""playouts":50"#), "{text}");
    assert!(text.contains(r#""length_mean":2.0"#) && text.contains(r#""length_max":2"#), "{text}");
    assert!(text.contains(r#""player":"a""#) && text.contains(r#""player":"b""#), "{text}");
    assert_eq!(rbg(&["mc", path.to_str().unwrap()]).status.code(), Some(2), "a limit is required");
    let text = stdout(&rbg(&["mc", path.to_str().unwrap(), "--seconds", "0.2"]));
    assert!(text.contains("playouts/s"), "{text}");
}

#[test]
fn moves_lists_pairs_and_effects_and_checks_after() {
    let path = temp_file("tiny-moves.rbg", TINY);
    let out = stdout(&rbg(&["moves", path.to_str().unwrap()]));
    // `->a`=1, `[x]`=2, `->b`=3, `->>`=4; a marks one of the two cells.
    assert!(out.contains("to move: a"), "{out}");
    assert!(out.contains("2 legal moves"), "{out}");
    assert!(out.contains("2@rx0y0 3@rx0y0") && out.contains("rx0y0: e→x"), "{out}");
    assert!(out.contains("2@rx1y0 3@rx1y0"), "{out}");
    let after = stdout(&rbg(&["moves", path.to_str().unwrap(), "--after", "2@rx1y0 3@rx1y0"]));
    assert!(after.contains("to move: b") && after.contains("4@rx1y0"), "{after}");
    let illegal = rbg(&["moves", path.to_str().unwrap(), "--after", "2@rx1y0"]);
    assert_eq!(illegal.status.code(), Some(1));
    assert!(stderr(&illegal).contains("not legal"));
}
