//! `rbg evolve`: a tiny run writes its files, a resumed run continues it, bad options fail.

mod common;
use common::{rbg, stderr, temp_file};

const TINY: &[&str] = &[
    "--width",
    "4",
    "--height",
    "4",
    "--weak",
    "1",
    "--light",
    "1",
    "--strong",
    "1",
    "--population",
    "4",
    "--playouts",
    "2",
    "--turn-limit",
    "16",
    "--depth",
    "1",
    "--best",
    "2",
];

fn out_dir() -> std::path::PathBuf {
    temp_file("placeholder", "").parent().expect("a directory").join("out")
}

#[test]
fn a_tiny_run_writes_games_csv_and_checkpoint_and_resumes() {
    let out = out_dir();
    let out_arg = out.to_str().expect("utf-8");
    let mut args = vec!["evolve", "--out", out_arg, "--generations", "2"];
    args.extend_from_slice(TINY);
    let run = rbg(&args);
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    for file in ["checkpoint.json", "generations.csv", "best-1.sbg", "best-1.rbg", "best-1.json"] {
        assert!(out.join(file).is_file(), "{file} is missing");
    }
    let csv = std::fs::read_to_string(out.join("generations.csv")).expect("the CSV");
    assert_eq!(csv.lines().count(), 4, "a header and generations 0, 1, 2:\n{csv}");

    let checkpoint = out.join("checkpoint.json");
    let resumed =
        rbg(&["evolve", "--out", out_arg, "--resume", checkpoint.to_str().unwrap(), "--generations", "3"]);
    assert_eq!(resumed.status.code(), Some(0), "{}", stderr(&resumed));
    let csv = std::fs::read_to_string(out.join("generations.csv")).expect("the CSV");
    assert_eq!(csv.lines().count(), 5, "{csv}");

    let changed =
        rbg(&["evolve", "--out", out_arg, "--resume", checkpoint.to_str().unwrap(), "--width", "5"]);
    assert_eq!(changed.status.code(), Some(2), "a usage error");
    assert!(stderr(&changed).contains("--width cannot change on --resume"), "{}", stderr(&changed));
}

#[test]
fn bad_options_are_clear_errors() {
    let out = out_dir();
    let out_arg = out.to_str().expect("utf-8");
    for (option, value, message) in [
        ("--population", "1", "population"),
        ("--width", "40", "width"),
        ("--branching", "-2", "branching"),
        ("--playouts", "0", "playouts"),
        ("--depth", "0", "depth"),
    ] {
        let run = rbg(&["evolve", "--out", out_arg, option, value]);
        // A usage error naming the option.
        assert_eq!(run.status.code(), Some(2), "{option} {value}");
        let err = stderr(&run);
        assert!(err.contains(message) && err.contains(&format!("{option}:")), "{option}: {err}");
    }
    let missing = rbg(&["evolve", "--out", out_arg, "--resume", "/nonexistent/checkpoint.json"]);
    assert_eq!(missing.status.code(), Some(1));
    assert!(stderr(&missing).contains("cannot read"), "{}", stderr(&missing));
}
