//! Every switch of both engines, reached through the `rbg` command line, keeps the game tree
//! the reference tools count: perft with each flag alone on three games of `games/` (the
//! interpreter), and with a few combinations of flags on one game (the compiled engine, whose
//! every combination costs a crate build).

mod common;
use common::rbg;

/// Leaves and nodes per depth from 1, from `reference-perft.csv` of the conformance data (the
/// reference tools' counts; the games in `games/` count the same as the corpus's).
const GAMES: [(&str, &[(u64, u64)]); 3] = [
    ("breakthrough", &[(22, 23), (484, 507), (11132, 11639)]),
    ("reversi", &[(4, 5), (12, 17), (56, 73), (244, 317), (1396, 1713)]),
    ("englishDraughts", &[(7, 8), (49, 57), (302, 359), (1469, 1828), (7361, 9189)]),
];

/// Every flag `rbg perft --help` lists under "Switches" (so the test follows the table).
fn switch_flags() -> Vec<String> {
    let out = rbg(&["perft", "--help"]);
    assert_eq!(out.status.code(), Some(0));
    let help = String::from_utf8_lossy(&out.stdout).into_owned();
    let section = help.split("Switches:").nth(1).expect("perft --help has a Switches section");
    section
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("--"))
        .map(|l| l.split_whitespace().next().unwrap().to_string())
        .collect()
}

/// Runs `rbg perft` on a game of `games/` and returns (leaves, nodes) per depth.
fn perft(game: &str, depth: usize, extra: &[&str]) -> Vec<(u64, u64)> {
    let path = rbg_testdata::workspace_root().join("games").join(format!("{game}.rbg"));
    let depth = depth.to_string();
    let mut args = vec!["perft", path.to_str().unwrap(), "--depth", &depth];
    args.extend_from_slice(extra);
    let out = rbg(&args);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{game} {extra:?}: {}", String::from_utf8_lossy(&out.stderr));
    // Rows after the header: depth, leaves, nodes, milliseconds, nodes per second.
    stdout
        .lines()
        .skip(1)
        .map(|line| {
            let cols: Vec<u64> = line.split_whitespace().take(3).map(|c| c.parse().unwrap()).collect();
            (cols[1], cols[2])
        })
        .collect()
}

#[test]
fn help_lists_every_switch_with_its_documentation() {
    let flags = switch_flags();
    // 11 of the shared program (`--no-pattern-tails` the newest), 20 of the compiler, 9 of the
    // interpreter.
    assert_eq!(flags.len(), 40, "{flags:?}");
    for flag in [
        "--no-board-words",
        "--no-set-moves",
        "--no-shared-visitor",
        "--no-fewer-searches",
        "--no-ray-captures",
        "--no-bulk-counts",
        "--no-fat-lto",
        "--no-fuse-ops",
        "--no-pure-patterns",
        "--no-read-only-patterns",
        "--no-probe-patterns",
        "--no-flat-steps",
        "--no-ray-patterns",
        "--no-skip-filtered-tests",
        "--no-piece-bitsets",
        "--checked-keeper",
    ] {
        assert!(flags.iter().any(|f| f == flag), "{flag} is not reachable");
    }
    // Today's spellings keep working.
    for flag in ["--no-shift-tables", "--no-pattern-sharing", "--always-count-pieces", "--no-piece-sets"] {
        assert!(flags.iter().any(|f| f == flag), "{flag} is gone");
    }
    let help = String::from_utf8_lossy(&rbg(&["perft", "--help"]).stdout).into_owned();
    assert!(help.contains("Verify that all keeper moves lead to the same state"), "{help}");
    assert!(help.contains("correctness check, off by default; interpreter only"), "{help}");
    let unknown = rbg(&["perft", "games/ticTacToe.rbg", "--depth", "1", "--no-such-switch"]);
    assert_eq!(unknown.status.code(), Some(2), "an unknown flag is a usage error");
}

#[test]
fn each_switch_alone_keeps_the_interpreters_perft() {
    let flags = switch_flags();
    for (game, expected) in GAMES {
        assert_eq!(perft(game, expected.len(), &[]), expected, "{game} with defaults");
        for flag in &flags {
            assert_eq!(perft(game, expected.len(), &[flag]), expected, "{game} {flag}");
        }
    }
}

#[test]
fn switches_keep_the_moves_listed() {
    let path = rbg_testdata::workspace_root().join("games").join("reversi.rbg");
    let path = path.to_str().unwrap();
    let list = |extra: &[&str]| {
        let mut args = vec!["moves", path];
        args.extend_from_slice(extra);
        let out = rbg(&args);
        assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let plain = list(&[]);
    // Reversi's first player has four legal moves (reference perft at depth 1).
    assert_eq!(plain.lines().filter(|l| l.contains('@')).count(), 4, "{plain}");
    assert_eq!(
        list(&["--checked-keeper", "--no-fuse-ops", "--no-pure-patterns", "--no-piece-bitsets"]),
        plain
    );
}

/// Three flag combinations for the compiled engine (each builds a crate): every program analysis
/// off, every compiler switch off, and both together.
#[test]
fn switch_combinations_keep_the_compiled_engines_perft() {
    let program: &[&str] = &[
        "--no-shift-tables",
        "--no-precomputed-patterns",
        "--no-fold-chains",
        "--no-tail-duplication",
        "--no-visited-elimination",
        "--no-constant-folding",
        "--no-fan-filters",
        "--always-count-pieces",
        "--no-monotonic-classes",
        "--no-pattern-sharing",
        "--no-pattern-tails",
    ];
    let compiler: &[&str] = &[
        "--no-unchecked-modifiers",
        "--no-compact-state",
        "--no-deferred-checks",
        "--no-pattern-order",
        "--no-piece-sets",
        "--no-monotonic-fill",
        "--no-lean-apply",
        "--no-count-replay",
        "--no-visit-children",
        "--no-board-patterns",
        "--no-word-tests",
        "--no-fused-class-moves",
        "--no-class-playouts",
        "--no-board-words",
        "--no-bulk-counts",
    ];
    let (game, expected) = GAMES[2];
    for combination in [program.to_vec(), compiler.to_vec(), [program, compiler].concat()] {
        let mut args = vec!["--engine", "compiled"];
        args.extend_from_slice(&combination);
        assert_eq!(perft(game, 4, &args), expected[..4], "{game} {combination:?}");
    }
}
