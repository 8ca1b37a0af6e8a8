//! `rbg analyze`: the table, JSON and HTML outputs, the same numbers on any number of threads,
//! and usage errors that name their argument.

mod common;
use common::{rbg, stderr, stdout, temp_file};

fn game(name: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../games").join(name);
    path.to_str().expect("a UTF-8 path").to_string()
}

fn json(args: &[&str]) -> serde_json::Value {
    let out = rbg(args);
    assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
    serde_json::from_str(&stdout(&out)).unwrap_or_else(|e| panic!("{e}: {}", stdout(&out)))
}

#[test]
fn random_tic_tac_toe_is_measured_as_json_html_and_a_table() {
    let ttt = game("ticTacToe.rbg");
    let report = temp_file("report.html", "");
    let base = ["analyze", &ttt, "--agents", "random", "--games", "12", "--samples", "1", "--seed", "3"];
    let mut args = base.to_vec();
    args.extend(["--json", "--html", report.to_str().unwrap(), "--threads", "1"]);
    let a = json(&args);
    let m = &a["measures"];
    // Tic-tac-toe always ends, after 5 to 9 moves; the first position has 9 legal moves.
    assert_eq!(m["games"], 12);
    assert_eq!(m["completion"]["rate"], 1.0);
    let (min, max) = (m["duration"]["min"].as_u64().unwrap(), m["duration"]["max"].as_u64().unwrap());
    assert!(5 <= min && max <= 9, "{min}..{max}");
    assert_eq!(m["branching"]["by_ply"][0], 9.0);
    // Random agents: no strength test by default; one sample game with a value per ply.
    assert!(a["strength"].is_null());
    let values = a["samples"][0]["first"].as_array().unwrap();
    assert!(
        (5..=9).contains(&values.len()) && values.iter().all(|v| (0.0..=1.0).contains(&v.as_f64().unwrap()))
    );
    let html = std::fs::read_to_string(&report).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>") && html.matches("<svg").count() >= 3, "{html}");
    // The same numbers on two threads.
    let mut two = args.clone();
    *two.last_mut().unwrap() = "2";
    assert_eq!(json(&two), a);
    // The table: one line per measure.
    let out = rbg(&base);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.lines().any(|l| l.starts_with("completion") && l.contains("1.000")), "{text}");
    assert!(text.contains("win rate: cross") && text.contains("first-mover score"), "{text}");
}

#[test]
fn bad_arguments_are_usage_errors_naming_the_argument() {
    let ttt = game("ticTacToe.rbg");
    let cases: [(&[&str], &str); 7] = [
        (&["--agents", "bogus"], "--agents"),
        (&["--agents", "random,random,random"], "--agents"),
        (&["--agents", "human"], "--agents"),
        (&["--evaluator", "random"], "--evaluator"),
        (&["--strength", "random"], "--strength"),
        (&["--threads", "0"], "--threads"),
        (&["--games", "0"], "--games"),
    ];
    for (extra, named) in cases {
        let mut args = vec!["analyze", ttt.as_str(), "--games", "2"];
        args.extend_from_slice(extra);
        let out = rbg(&args);
        assert_eq!(out.status.code(), Some(2), "{extra:?}: {}", stderr(&out));
        assert!(stderr(&out).contains(named), "{extra:?}: {}", stderr(&out));
    }
    // A missing game file is not a usage error.
    let out = rbg(&["analyze", "no-such-game.rbg", "--games", "1"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
}
