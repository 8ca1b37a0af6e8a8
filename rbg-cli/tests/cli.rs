//! End-to-end tests of the `rbg` binary: exit codes, output formats, and agreement with the
//! reference data on a few corpus games.

use std::path::PathBuf;

use rbg_testdata::{conformance, corpus};

mod common;
use common::{rbg, stderr, stdout, temp_file};

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
    let file = corpus.join("breakthrough.rbg");
    let serial = ["perft", file.to_str().unwrap(), "--depth", "3", "--json"];
    for threads in [&[][..], &["--threads", "2"], &["--threads", "3", "--root-split"]] {
        let out = rbg(&[&serial[..], threads].concat());
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        // Piped: no progress bar or other noise on stderr.
        assert_eq!(stderr(&out), "");
        let text = stdout(&out);
        let lines: Vec<&str> = text.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
        assert_eq!(lines.len(), 3);
        for (depth, line) in (1..=3).zip(&lines) {
            let reference = csv.lines().find(|l| l.starts_with(&format!("breakthrough,{depth},"))).unwrap();
            let r: Vec<&str> = reference.split(',').collect();
            let expected = format!(
                r#"{{"game":"breakthrough","depth":{depth},"leaves":{},"nodes":{},"ms":"#,
                r[2], r[3]
            );
            assert!(line.starts_with(&expected), "{threads:?}: {line} vs {expected}");
            assert!(line.contains(r#""nodes_per_s":"#));
        }
    }
}

#[test]
fn mc_on_several_threads_plays_the_playouts_asked_for() {
    let path = temp_file("tiny-mc-threads.rbg", TINY);
    let file = path.to_str().unwrap();
    let out = rbg(&["mc", file, "--playouts", "500", "--json", "--threads", "2"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).contains(r#""playouts":500,"#), "{}", stdout(&out));
    let out = rbg(&["mc", file, "--seconds", "0.2", "--threads", "2"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let out = rbg(&["mc", file, "--playouts", "5", "--threads", "10000"]);
    assert_eq!(out.status.code(), Some(2), "a usage error");
    assert!(stderr(&out).contains("--threads 10000 is too many"), "{}", stderr(&out));
}

#[test]
fn count_replay_from_takes_auto_never_or_a_number_and_nothing_else() {
    let path = temp_file("tiny-count-replay.rbg", TINY);
    let file = path.to_str().unwrap();
    for good in ["auto", "never", "0", "256", "18446744073709551615"] {
        let out = rbg(&["mc", file, "--playouts", "20", "--json", "--count-replay-from", good]);
        assert_eq!(out.status.code(), Some(0), "{good}: {}", stderr(&out));
        assert!(stdout(&out).contains(r#""length_mean":2.0"#), "{good}: {}", stdout(&out));
    }
    for bad in ["", "-1", "banana", "1e3", "18446744073709551616", "Auto ", "\u{7f}never"] {
        let flag = format!("--count-replay-from={bad}");
        let out = rbg(&["mc", file, "--playouts", "20", &flag]);
        assert_eq!(out.status.code(), Some(2), "{bad:?}: {}", stderr(&out));
        let err = stderr(&out);
        assert!(
            err.contains("--count-replay-from") && err.contains("auto, never or a number"),
            "{bad:?}: {err}"
        );
        assert!(!err.contains("panicked"), "{err}");
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

#[test]
fn absurd_seconds_and_threads_are_errors_not_panics() {
    let path = temp_file("tiny-limits.rbg", TINY);
    let file = path.to_str().unwrap();
    for seconds in ["1e300", "nan", "inf", "-1"] {
        let flag = format!("--seconds={seconds}");
        let out = rbg(&["mc", file, &flag]);
        assert_eq!(out.status.code(), Some(2), "mc --seconds {seconds}: {}", stderr(&out));
        assert!(stderr(&out).contains("--seconds"), "{}", stderr(&out));
        assert!(!stderr(&out).contains("panicked"), "{}", stderr(&out));
        // bench rejects it before building anything (no cargo output, no cache written).
        let out = rbg(&["bench", file, &flag]);
        assert_eq!(out.status.code(), Some(2), "bench --seconds {seconds}: {}", stderr(&out));
        assert!(!stderr(&out).contains("building"), "{}", stderr(&out));
    }
    let out = rbg(&["perft", file, "--depth", "1", "--threads", "10000"]);
    assert_eq!(out.status.code(), Some(2), "a usage error");
    let err = stderr(&out);
    assert!(err.contains("--threads 10000 is too many") && err.contains("at most"), "{err}");
    // The message names the argument, not the file (which is fine), and no table header
    // precedes the error.
    assert!(!err.contains("tiny-limits.rbg"), "{err}");
    assert_eq!(stdout(&out), "");
    let out = rbg(&["perft", file, "--depth", "1", "--threads", "2"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

#[test]
fn a_closed_pipe_ends_quietly_with_141() {
    use std::process::Stdio;
    // A game whose perft rows keep coming (one endless line of moves): close our end after
    // the first line.
    let endless = "#players = a(1)\n#pieces = e\n#variables =\n\
                   #board = rectangle(up, down, left, right, [e, e])\n#rules = (->a (left + right))*\n";
    let path = temp_file("endless-pipe.rbg", endless);
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("rbg"))
        .args(["perft", path.to_str().unwrap(), "--depth", "200000"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("rbg starts");
    let mut first = [0u8; 5];
    std::io::Read::read_exact(child.stdout.as_mut().unwrap(), &mut first).expect("a header");
    drop(child.stdout.take());
    let status = child.wait().expect("rbg ends");
    // With stderr closed too, a panic would give 101.
    assert_eq!(status.code(), Some(141));
}

#[test]
fn perft_prints_no_header_when_the_first_depth_fails() {
    // The keeper loops forever: the root state cannot be completed.
    let looping = "#players = a(1)\n#pieces = e\n#variables =\n\
                   #board = rectangle(up, down, left, right, [e])\n#rules = (->> {})* ->a\n";
    let path = temp_file("loop.rbg", looping);
    let out = rbg(&["perft", path.to_str().unwrap(), "--depth", "1"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_eq!(stdout(&out), "", "no table header before the error");
    assert!(stderr(&out).contains("loop.rbg"), "the error names the file: {}", stderr(&out));
}

#[test]
fn junk_input_is_rendered_without_control_bytes_and_capped() {
    // 200 stray control characters: each one a warning. A text file's first KiB decides
    // whether it is read at all (a binary file gets one error), so they come after a comment.
    let junk = format!("{TINY}// {}\n{}", "text ".repeat(250), "\u{1b}[2J\u{7}".repeat(100));
    let path = temp_file("junk.rbg", &junk);
    let out = rbg(&["check", path.to_str().unwrap()]);
    let err = stderr(&out);
    assert!(!err.bytes().any(|b| b == 0x1b || b == 0x07), "raw control bytes in the output");
    assert!(err.contains("more diagnostics in") && err.contains("not shown"), "{err}");
    let rendered = err.matches("warning").count() + err.matches("error").count();
    assert!(rendered <= 25, "{rendered} diagnostics rendered");
}

#[test]
fn check_warns_about_games_that_cannot_be_played() {
    let no_players = "#players =\n#pieces = e\n#variables =\n\
                      #board = rectangle(up, down, left, right, [e])\n#rules = {e}\n";
    let path = temp_file("noplayers.rbg", no_players);
    let out = rbg(&["check", path.to_str().unwrap()]);
    assert!(stderr(&out).contains("declares no players"), "{}", stderr(&out));
    assert_eq!(rbg(&["check", "--deny-warnings", path.to_str().unwrap()]).status.code(), Some(1));
    // Unbounded moves: a note only, the game stays valid even with --deny-warnings.
    let unbounded = "#players = a(1)\n#pieces = e, x\n#variables =\n\
                     #board = rectangle(up, down, left, right, [e, e])\n#rules = ->a (left* [x])* ->> {}\n";
    let path = temp_file("unbounded.rbg", unbounded);
    let out = rbg(&["check", "--deny-warnings", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stderr(&out).contains("move straightness unbounded"), "{}", stderr(&out));
    assert!(!stderr(&rbg(&["check", "-q", path.to_str().unwrap()])).contains("note"));
}

fn temp_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("rbg-cli-test-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn compile_refuses_a_foreign_directory_without_force() {
    let game = temp_file("tiny-compile.rbg", TINY);
    let dir = temp_dir("foreign");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("Cargo.toml"), "[package]\nname = \"mine\"\n").unwrap();
    let out = rbg(&["compile", game.to_str().unwrap(), "-o", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("--force"), "{}", stderr(&out));
    assert_eq!(std::fs::read_to_string(dir.join("Cargo.toml")).unwrap(), "[package]\nname = \"mine\"\n");
    let forced = rbg(&["compile", game.to_str().unwrap(), "-o", dir.to_str().unwrap(), "--force"]);
    assert_eq!(forced.status.code(), Some(0), "{}", stderr(&forced));
    // Now it is ours: writing again needs no --force.
    let again = rbg(&["compile", game.to_str().unwrap(), "-o", dir.to_str().unwrap()]);
    assert_eq!(again.status.code(), Some(0), "{}", stderr(&again));
    // A file is not a directory.
    let file = temp_file("not-a-dir", "x");
    assert_eq!(
        rbg(&["compile", game.to_str().unwrap(), "-o", file.to_str().unwrap()]).status.code(),
        Some(1)
    );
}

/// A crate from `rbg compile` names nothing in this checkout, is portable unless asked, carries
/// a lock file, and builds offline; its binary counts the game as the reference semantics say.
#[test]
fn a_compiled_crate_travels_and_builds_offline() {
    let game = temp_file("tiny-travel.rbg", TINY);
    let dir = temp_dir("travel");
    let out = rbg(&["compile", game.to_str().unwrap(), "-o", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let manifest = std::fs::read_to_string(dir.join("Cargo.toml")).unwrap();
    let checkout = rbg_testdata::workspace_root().canonicalize().unwrap();
    assert!(!manifest.contains(checkout.to_str().unwrap()), "a path into the checkout:\n{manifest}");
    assert!(manifest.contains(r#"path = "vendor/rbg-core""#), "{manifest}");
    for file in ["vendor/rbg-core/Cargo.toml", "vendor/rbg-core/src/lib.rs", "vendor/rbg-runner/src/lib.rs"] {
        assert!(dir.join(file).is_file(), "{file} missing");
    }
    let vendored = std::fs::read_to_string(dir.join("vendor/rbg-runner/Cargo.toml")).unwrap();
    assert!(!vendored.contains(".workspace"), "{vendored}");
    assert!(dir.join("Cargo.lock").is_file());
    assert!(!dir.join(".cargo/config.toml").exists(), "portable unless --native");

    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    // A target directory of its own inside ours, kept between runs so the dependencies build once.
    let target = rbg_testdata::workspace_root().join("target").join("rbg-cli-travel-test");
    let build = std::process::Command::new(&cargo)
        .args(["build", "--offline", "--quiet", "--manifest-path"])
        .arg(dir.join("Cargo.toml"))
        .env("CARGO_TARGET_DIR", &target)
        .env_remove("RUSTFLAGS")
        .current_dir(&dir)
        .output()
        .expect("cargo runs");
    assert!(build.status.success(), "offline build failed:\n{}", String::from_utf8_lossy(&build.stderr));
    let binary = target.join("debug").join(format!("rbg-game-tiny-travel{}", std::env::consts::EXE_SUFFIX));
    let run =
        std::process::Command::new(&binary).args(["perft", "--depth", "2"]).output().expect("binary runs");
    let text = String::from_utf8_lossy(&run.stdout);
    let rows: Vec<Vec<&str>> = text.lines().skip(1).map(|l| l.split_whitespace().collect()).collect();
    // As in `perft_text_has_one_row_per_depth`: 2 leaves and 3 nodes, then 2 and 5.
    assert_eq!(rows.len(), 2, "{text}");
    assert_eq!(rows[0][..3], ["1", "2", "3"]);
    assert_eq!(rows[1][..3], ["2", "2", "5"]);
    // Usage errors exit 2 naming the argument, as `rbg`'s do: one the runner finds and one
    // clap finds.
    for args in
        [&["perft", "--depth", "2", "--threads", "0"][..], &["perft", "--depth", "2", "--no-such-flag"]]
    {
        let run = std::process::Command::new(&binary).args(args).output().expect("binary runs");
        let err = String::from_utf8_lossy(&run.stderr);
        assert_eq!(run.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(args[3]), "{args:?}: {err}");
    }

    let native = rbg(&["compile", game.to_str().unwrap(), "-o", dir.to_str().unwrap(), "--native"]);
    assert_eq!(native.status.code(), Some(0));
    let config = std::fs::read_to_string(dir.join(".cargo/config.toml")).unwrap();
    assert!(config.contains("target-cpu=native"), "{config}");
    // And a later portable compile removes it again.
    assert_eq!(rbg(&["compile", game.to_str().unwrap(), "-o", dir.to_str().unwrap()]).status.code(), Some(0));
    assert!(!dir.join(".cargo/config.toml").exists());
}

#[test]
fn an_unclosed_paren_is_shown_with_the_paren_and_what_was_expected() {
    // The `(` after `->a` is never closed: the message is the reference parser's, and our
    // rendering adds the open paren and what was expected where.
    let text = "#players = a(1)\n#pieces = e, x\n#variables =\n\
                #board = rectangle(up, down, left, right, [e, e])\n#rules = ->a (left [x] ->>\n";
    let path = temp_file("unclosed.rbg", text);
    let err = stderr(&rbg(&["check", path.to_str().unwrap()]));
    assert!(err.contains("is not closed"), "{err}");
    assert!(err.contains("this '(' is not closed"), "{err}");
    assert!(err.contains("expected ')' before the end of the section"), "{err}");
    // The reference format stays the reference parser's: no labels, no notes.
    let reference = stderr(&rbg(&["check", "--format", "reference", path.to_str().unwrap()]));
    assert!(!reference.contains("is not closed") && !reference.contains("note:"), "{reference}");
}
