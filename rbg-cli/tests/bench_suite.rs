//! `rbg bench --suite DIR`: one CSV row per game and engine, the perft depth rules (the
//! reference table's depth; else the deepest depth of about a second), ratios that are the rate
//! over the reference table's figure, and clear errors for bad options.
//!
//! The games are tic-tac-toe twice: the corpus's `ticTacToe` (in the reference table at depth
//! 10) and `games/ticTacToe.rbg` copied as `noughts` (not in the table). Tic-tac-toe's game tree
//! is known by hand: no line of three exists before the fifth mark, so plies 1-5 have
//! 9, 9*8, 9*8*7, 9*8*7*6, 9*8*7*6*5 = 15120 positions; plies 6-9 have 54720, 148176, 200448 and
//! 127872 (the standard game-tree counts, wins ending games early), and ply 10 none.

mod common;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use common::{rbg, stderr, temp_file};

/// Leaves of tic-tac-toe's tree at depths 1..=10 (see the module docs).
const TIC_TAC_TOE_LEAVES: [u64; 10] = [9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872, 0];

/// Nodes counted by perft at a depth: the root and every leaf at a smaller or equal depth.
fn tic_tac_toe_nodes(depth: usize) -> u64 {
    1 + TIC_TAC_TOE_LEAVES[..depth].iter().sum::<u64>()
}

/// A fresh directory with the two games.
fn suite_dir() -> Option<PathBuf> {
    let corpus_game = rbg_testdata::corpus_game("ticTacToe");
    if !rbg_testdata::available(&[&corpus_game, &reference_csv()]) {
        return None;
    }
    let workspace = rbg_testdata::workspace_root();
    let ours = std::fs::read_to_string(workspace.join("games/ticTacToe.rbg")).expect("games/ticTacToe.rbg");
    let noughts = temp_file("noughts.rbg", &ours);
    let dir = noughts.parent().expect("a directory").to_path_buf();
    std::fs::copy(&corpus_game, dir.join("ticTacToe.rbg")).expect("copy the corpus game");
    Some(dir)
}

fn reference_csv() -> PathBuf {
    rbg_testdata::conformance_dir().join("reference-speed.csv")
}

/// The reference table's rows of one game by tool: (depth, nodes/s, playouts/s).
fn reference_rows(game: &str) -> HashMap<String, (u32, f64, f64)> {
    rbg_testdata::read_csv(&reference_csv())
        .into_iter()
        .filter(|r| r[0] == game)
        .map(|r| (r[1].clone(), (r[2].parse().unwrap(), r[3].parse().unwrap(), r[4].parse().unwrap())))
        .collect()
}

/// The CSV written by the suite as maps from column to field (ok rows have no quoted fields).
fn read_rows(path: &Path) -> Vec<HashMap<String, String>> {
    let text = std::fs::read_to_string(path).expect("the suite wrote its CSV");
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().expect("a header").split(',').collect();
    lines
        .map(|l| header.iter().map(|h| h.to_string()).zip(l.split(',').map(str::to_string)).collect())
        .collect()
}

fn number(row: &HashMap<String, String>, column: &str) -> f64 {
    let field = row.get(column).unwrap_or_else(|| panic!("no column {column}"));
    field.parse().unwrap_or_else(|_| panic!("column {column} is not a number: '{field}' in {row:?}"))
}

fn assert_close(actual: f64, expected: f64, what: &str) {
    assert!((actual - expected).abs() <= 1e-9 * expected.abs(), "{what}: {actual} != {expected}");
}

/// Whether rbg2cpp's Monte Carlo run of `game` cached monotonic classes: its row of
/// reference-mc.csv has `monotonic_classes=N` with N > 0.
fn rbg2cpp_cached(game: &str) -> bool {
    let text = std::fs::read_to_string(rbg_testdata::conformance_dir().join("reference-mc.csv")).unwrap();
    let row = text.lines().find(|l| l.starts_with(&format!("{game},"))).expect("the game's MC row");
    let classes = row.split("monotonic_classes=").nth(1).expect("a monotonic_classes field");
    !classes.starts_with('0')
}

/// Every ratio column of a row equals its rate over the reference table's figure; the
/// like-for-like MC ratio uses our cached figure where the reference cached (only rbg2cpp does).
fn check_ratios(row: &HashMap<String, String>, references: &HashMap<String, (u32, f64, f64)>) {
    assert!(!references.is_empty());
    let nodes = number(row, "perft_nodes_per_s");
    let playouts = number(row, "mc_playouts_per_s");
    let monotonic = number(row, "mc_monotonic_playouts_per_s");
    let cached = rbg2cpp_cached(&row["game"]);
    let like_for_like = |tool: &str| if tool == "rbg2cpp" && cached { monotonic } else { playouts };
    for (tool, (depth, ref_nodes, ref_playouts)) in references {
        assert_eq!(number(row, &format!("{tool}_perft_depth")), f64::from(*depth));
        assert_close(number(row, &format!("{tool}_perft_ratio")), nodes / ref_nodes, tool);
        assert_close(number(row, &format!("{tool}_mc_ratio")), like_for_like(tool) / ref_playouts, tool);
        assert_close(number(row, &format!("{tool}_mc_uncached_ratio")), playouts / ref_playouts, tool);
        assert_close(number(row, &format!("{tool}_mc_monotonic_ratio")), monotonic / ref_playouts, tool);
        let flag = if tool == "rbg2cpp" && cached { "true" } else { "false" };
        assert_eq!(row[&format!("{tool}_mc_reference_cached")], flag, "{tool}");
    }
    let tool = row["headline_tool"].as_str();
    let headline = &references[tool];
    assert_close(number(row, "headline_perft_ratio"), nodes / headline.1, "headline perft");
    assert_close(number(row, "headline_mc_ratio"), like_for_like(tool) / headline.2, "headline mc");
}

#[test]
fn the_interpreter_suite_measures_every_game_at_the_right_depth() {
    let Some(dir) = suite_dir() else { return };
    let csv = dir.join("out.csv");
    let markdown = dir.join("out.md");
    let day_before = utc_date();
    let out = rbg(&[
        "bench",
        "--suite",
        dir.to_str().unwrap(),
        "--seconds",
        "0.2",
        "--engines",
        "interpreter",
        "--reference",
        reference_csv().to_str().unwrap(),
        "--csv",
        csv.to_str().unwrap(),
        "--markdown",
        markdown.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let rows = read_rows(&csv);
    let games: Vec<(&str, &str)> = rows.iter().map(|r| (r["game"].as_str(), r["engine"].as_str())).collect();
    assert_eq!(games, [("noughts", "interpreter"), ("ticTacToe", "interpreter")]);
    for row in &rows {
        assert_eq!(row["status"], "ok", "{row:?}");
        for rate in ["perft_nodes_per_s", "mc_playouts_per_s", "mc_monotonic_playouts_per_s"] {
            assert!(number(row, rate) > 0.0, "{rate} in {row:?}");
        }
        if cfg!(target_os = "linux") {
            assert!(number(row, "peak_rss_kib") > 0.0, "{row:?}");
        }
    }

    // In the table: the interpreter runs the depth of the C++ interpreter's row.
    let table = reference_rows("ticTacToe");
    let tic_tac_toe = &rows[1];
    let depth = table["rbggamemanager"].0;
    assert_eq!(number(tic_tac_toe, "perft_depth"), f64::from(depth));
    assert_eq!(tic_tac_toe["perft_depth_rule"], "reference");
    assert_eq!(number(tic_tac_toe, "perft_leaves"), TIC_TAC_TOE_LEAVES[depth as usize - 1] as f64);
    assert_eq!(number(tic_tac_toe, "perft_nodes"), tic_tac_toe_nodes(depth as usize) as f64);
    check_ratios(tic_tac_toe, &table);

    // Not in the table: the whole tree takes far less than a second, so the fallback probes to
    // the end of the tree (depth 10 has no leaves) and keeps the deepest depth with leaves: 9.
    let noughts = &rows[0];
    assert_eq!(noughts["perft_depth_rule"], "about_a_second");
    assert_eq!(number(noughts, "perft_depth"), 9.0);
    assert_eq!(number(noughts, "perft_leaves"), TIC_TAC_TOE_LEAVES[8] as f64);
    assert_eq!(number(noughts, "perft_nodes"), tic_tac_toe_nodes(9) as f64);
    for tool in ["rbg2cpp", "rbggamemanager", "rg"] {
        assert_eq!(noughts[&format!("{tool}_perft_ratio")], "", "no reference, no ratio");
    }

    let md = std::fs::read_to_string(&markdown).expect("the suite wrote its Markdown");
    assert!(md.contains("**Interpreter** against rbggamemanager"), "{md}");
    assert!(md.contains("| noughts | 9 (1s) |") && md.contains("| ticTacToe | 10 |"), "{md}");
    assert!(!md.contains("**Compiled**"), "only the interpreter was asked for: {md}");
    check_machine_sentence(&md, [day_before, utc_date()]);

    check_rewritten_from_csv(&dir, &csv, &rows[1]);
}

/// Today's date by the system's `date` command (an independent clock reading), if it runs.
fn utc_date() -> Option<String> {
    let out = std::process::Command::new("date").args(["-u", "+%F"]).output().ok()?;
    out.status.success().then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// The page says what it measured on: the cores this machine makes available, its CPU model
/// (the first `model name` of /proc/cpuinfo) and the day of the run (the run may cross midnight).
fn check_machine_sentence(md: &str, days: [Option<String>; 2]) {
    let cores = std::thread::available_parallelism().map(usize::from).unwrap_or(0);
    let plural = if cores == 1 { "" } else { "s" };
    assert!(md.contains(&format!(" with {cores} core{plural} available (")), "{md}");
    let model = std::fs::read_to_string("/proc/cpuinfo").ok().and_then(|text| {
        text.lines()
            .filter(|l| l.starts_with("model name"))
            .find_map(|l| l.split_once(':').map(|(_, m)| m.trim().to_string()))
            .filter(|m| !m.is_empty())
    });
    let model = model.unwrap_or_else(|| "CPU model not known".to_string());
    assert!(md.contains(&format!("available ({model}).")), "{model} not in {md}");
    assert!(!md.contains("shared 2-core machine"), "{md}");
    let days: Vec<String> = days.into_iter().flatten().collect();
    if !days.is_empty() {
        assert!(days.iter().any(|d| md.contains(&format!("Measured on {d} with "))), "{days:?} not in {md}");
    }
}

/// `--from-csv` measures nothing and writes the README section from the earlier run's figures:
/// with one game in the reference table, each geometric mean is that game's ratio. The text
/// around the markers is kept; a file without markers and a malformed CSV are errors.
fn check_rewritten_from_csv(dir: &Path, csv: &Path, tic_tac_toe: &HashMap<String, String>) {
    let readme = dir.join("README.md");
    let before = "# Title\n\nbefore\n<!-- bench-suite:begin -->\nold text\n<!-- bench-suite:end -->\nafter\n";
    std::fs::write(&readme, before).unwrap();
    let args = |csv: &Path, readme: &Path| {
        rbg(&[
            "bench",
            "--suite",
            dir.to_str().unwrap(),
            "--engines",
            "interpreter",
            "--reference",
            reference_csv().to_str().unwrap(),
            "--from-csv",
            csv.to_str().unwrap(),
            "--readme",
            readme.to_str().unwrap(),
        ])
    };
    let out = args(csv, &readme);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = std::fs::read_to_string(&readme).unwrap();
    assert!(text.starts_with("# Title\n\nbefore\n<!-- bench-suite:begin -->\n"), "{text}");
    assert!(text.ends_with("<!-- bench-suite:end -->\nafter\n"), "{text}");
    assert!(!text.contains("old text"), "{text}");
    let table = reference_rows("ticTacToe");
    let perft = number(tic_tac_toe, "perft_nodes_per_s") / table["rbggamemanager"].1;
    let line = format!("| interpreter | rbggamemanager | perft nodes/s | {perft:.2}x | 1 |");
    assert!(text.contains(&line), "{line} not in {text}");

    let no_markers = dir.join("plain.md");
    std::fs::write(&no_markers, "# nothing to rewrite\n").unwrap();
    let out = args(csv, &no_markers);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("no section between"), "{}", stderr(&out));

    let bad_csv = dir.join("bad.csv");
    let good = std::fs::read_to_string(csv).unwrap();
    let header = good.lines().next().unwrap();
    let fields = header.split(',').count();
    let mut row = vec!["ticTacToe", "interpreter", "ok"];
    row.resize(fields, "");
    let depth = header.split(',').position(|h| h == "perft_depth").unwrap();
    row[depth] = "deep";
    std::fs::write(&bad_csv, format!("{header}\n{}\n", row.join(","))).unwrap();
    let out = args(&bad_csv, &readme);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("bad.csv:2: column perft_depth: not a number: deep"), "{}", stderr(&out));
}

#[test]
fn the_compiled_engine_is_compared_with_rbg2cpp() {
    let Some(dir) = suite_dir() else { return };
    let csv = dir.join("compiled.csv");
    let out = rbg(&[
        "bench",
        "--suite",
        dir.to_str().unwrap(),
        "--games",
        "ticTacToe",
        "--seconds",
        "0.2",
        "--engines",
        "compiled",
        "--reference",
        reference_csv().to_str().unwrap(),
        "--csv",
        csv.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let rows = read_rows(&csv);
    assert_eq!(rows.len(), 1, "{rows:?}");
    let row = &rows[0];
    assert_eq!(
        (row["game"].as_str(), row["engine"].as_str(), row["status"].as_str()),
        ("ticTacToe", "compiled", "ok")
    );
    assert_eq!(row["headline_tool"], "rbg2cpp");
    assert!(number(row, "compile_seconds") > 0.0);
    assert!(["true", "false"].contains(&row["compile_cached"].as_str()), "{row:?}");
    let table = reference_rows("ticTacToe");
    let depth = table["rbg2cpp"].0;
    assert_eq!(number(row, "perft_depth"), f64::from(depth));
    assert_eq!(number(row, "perft_nodes"), tic_tac_toe_nodes(depth as usize) as f64);
    check_ratios(row, &table);
}

#[test]
fn bad_options_are_errors() {
    let Some(dir) = suite_dir() else { return };
    let dir = dir.to_str().unwrap();
    let missing = format!("{dir}/no-such-dir");
    let unwritable = format!("{dir}/no-such-dir/out.csv");
    let bad: [(&[&str], &str); 17] = [
        (&["bench"], "<FILE>"),
        (&["bench", "--suite", &missing], "not a directory"),
        (&["bench", "--suite", dir, "--depth", "3"], "--depth"),
        (&["bench", "--suite", dir, "--engines", "cpp"], "cpp"),
        (&["bench", "--suite", dir, "--games", "chess"], "no game named chess"),
        (&["bench", "--suite", dir, "--seconds=-1"], "--seconds"),
        (&["bench", "--suite", dir, "--seconds", "0"], "--seconds"),
        (&["bench", "--csv", "x.csv", "noughts.rbg", "--depth", "1"], "--csv goes with --suite"),
        (&["bench", "noughts.rbg"], "give --depth N or --seconds S"),
        (&["bench", "--suite", dir, "noughts.rbg"], "cannot be used with"),
        (&["bench", "--suite", dir, "--reference", &missing], "cannot read the reference table"),
        (&["bench", "--suite", dir, "--csv", &unwritable], "cannot create"),
        (&["bench", "--suite", dir, "--stop-after=-2"], "--stop-after"),
        (
            &["bench", "--suite", dir, "--instructions", "--seconds", "1"],
            "--seconds does not go with --instructions",
        ),
        (&["bench", "--suite", dir, "--playouts", "3"], "--instructions"),
        (
            &["bench", "--suite", dir, "--instructions", "--games", "ticTacToe"],
            "not one of the eight bench games",
        ),
        (&["bench", "--suite", dir, "--instructions", "--depth", "0", "--playouts", "1"], "at least 1"),
    ];
    for (args, message) in bad {
        let out = rbg(args);
        assert!(matches!(out.status.code(), Some(1 | 2)), "{args:?}: {:?}", out.status);
        assert!(stderr(&out).contains(message), "{args:?}: {}", stderr(&out));
    }
}

/// `--instructions` on tic-tac-toe (interpreter, tiny work): one CSV row per task with a count
/// that grows with the work, and a second run against the first as `--baseline` gives each
/// count over the earlier one (counts of the same work agree to within 2%: the runs are fixed,
/// only hash seeds and the environment differ).
#[test]
fn instruction_counts_compare_with_a_baseline() {
    let Some(dir) = suite_dir() else { return };
    let count = |playouts: &str, csv: &str, baseline: Option<&str>| {
        let path = |name: &str| dir.join(name).to_str().unwrap().to_string();
        let mut args: Vec<String> = ["bench", "--suite", dir.to_str().unwrap(), "--instructions"]
            .into_iter()
            .chain(["--games", "ticTacToe", "--engines", "interpreter", "--depth", "2"])
            .map(String::from)
            .collect();
        args.extend(["--playouts".into(), playouts.into(), "--csv".into(), path(csv)]);
        if let Some(b) = baseline {
            args.extend(["--baseline".into(), path(b), "--markdown".into(), path("instructions.md")]);
        }
        let out = rbg(&args.iter().map(String::as_str).collect::<Vec<_>>());
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        read_rows(&dir.join(csv))
    };
    let first = count("3", "first.csv", None);
    let tasks: Vec<(&str, &str, &str)> =
        first.iter().map(|r| (r["game"].as_str(), r["engine"].as_str(), r["task"].as_str())).collect();
    assert_eq!(tasks, [("ticTacToe", "interpreter", "perft-2"), ("ticTacToe", "interpreter", "mc-3")]);
    assert!(first.iter().all(|r| number(r, "instructions") > 1e5 && r["ratio_to_baseline"].is_empty()));
    let second = count("30", "second.csv", Some("first.csv"));
    let (perft, mc) = (&second[0], &second[1]);
    assert_eq!((perft["task"].as_str(), mc["task"].as_str()), ("perft-2", "mc-30"));
    let ratio = number(perft, "instructions") / number(&first[0], "instructions");
    assert!((number(perft, "ratio_to_baseline") - ratio).abs() < 1e-5, "{perft:?}");
    assert!((ratio - 1.0).abs() < 0.02, "the same work counted {ratio}x the instructions");
    // 27 more playouts cost more instructions; mc-30 has no baseline row.
    assert!(number(mc, "instructions") > number(&first[1], "instructions"));
    assert!(mc["ratio_to_baseline"].is_empty());
    let md = std::fs::read_to_string(dir.join("instructions.md")).unwrap();
    assert!(md.contains("| ticTacToe | interpreter | mc-30 |") && md.contains("| n/a |"), "{md}");
}

/// Without valgrind on the path the suite says so and fails (exit 1) before measuring.
#[test]
fn instruction_counts_without_valgrind_are_a_clear_error() {
    let Some(dir) = suite_dir() else { return };
    let empty = dir.join("empty-path");
    std::fs::create_dir_all(&empty).unwrap();
    let out = assert_cmd::Command::cargo_bin("rbg")
        .unwrap()
        .env("PATH", &empty)
        .args(["bench", "--suite", dir.to_str().unwrap(), "--instructions", "--games", "ticTacToe"])
        .args(["--engines", "interpreter", "--depth", "1", "--playouts", "1"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("install valgrind"), "{}", stderr(&out));
}
