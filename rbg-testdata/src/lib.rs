//! rbg-testdata: where the reference data is, for every test suite and benchmark of the
//! workspace, and how to read it.
//!
//! The conformance corpus (75 real games) and the reference tools' results are never copied into
//! the project. They are read from `$RBG_CORPUS` and `$RBG_CONFORMANCE`, else from
//! `../shared/corpus` and `../shared/conformance` beside the workspace.
//!
//! Skips are never silent: a test that finds its data missing fails with instructions, unless
//! the run says explicitly that it does without the data (`RBG_SKIP_CONFORMANCE=1`); then it
//! prints a note and returns. Under `CI=true` a missing corpus always fails: CI always has the
//! data, so there it is a broken setup, not a reason to pass.

#![forbid(unsafe_code)]

use std::path::{Path, PathBuf};

pub mod steps;

/// The workspace root (the parent of this crate's directory).
pub fn workspace_root() -> PathBuf {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest.parent().map(Path::to_path_buf).unwrap_or_else(|| manifest.to_path_buf())
}

fn dir_from_env(var: &str, default_under_shared: &str) -> PathBuf {
    match std::env::var_os(var) {
        Some(dir) => PathBuf::from(dir),
        None => workspace_root().join("../shared").join(default_under_shared),
    }
}

/// The corpus directory: `$RBG_CORPUS`, else `../shared/corpus`.
pub fn corpus_dir() -> PathBuf {
    dir_from_env("RBG_CORPUS", "corpus")
}

/// The reference results: `$RBG_CONFORMANCE`, else `../shared/conformance`.
pub fn conformance_dir() -> PathBuf {
    dir_from_env("RBG_CONFORMANCE", "conformance")
}

/// Whether we run under CI (`CI=true`).
pub fn under_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true")
}

/// Whether the run asked to skip tests whose reference data is missing
/// (`RBG_SKIP_CONFORMANCE=1`).
pub fn skip_requested() -> bool {
    std::env::var("RBG_SKIP_CONFORMANCE").is_ok_and(|v| v == "1")
}

/// What to do when reference data is missing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MissingData {
    /// Fail the test with instructions.
    Fail,
    /// Skip it with a note (explicitly requested).
    Skip,
}

/// The policy for missing data, given whether CI runs and whether a skip was requested.
pub fn missing_data_policy(ci: bool, skip: bool) -> MissingData {
    if skip && !ci {
        MissingData::Skip
    } else {
        MissingData::Fail
    }
}

/// Whether all `paths` exist. If not, the test fails with instructions, unless a skip was
/// requested outside CI: then it prints a note and returns false (the caller skips its test).
pub fn available<P: AsRef<Path>>(paths: &[P]) -> bool {
    let missing: Vec<&Path> = paths.iter().map(AsRef::as_ref).filter(|p| !p.exists()).collect();
    if missing.is_empty() {
        return true;
    }
    match missing_data_policy(under_ci(), skip_requested()) {
        MissingData::Fail => panic!(
            "reference data missing: {missing:?}. The corpus is the rbgGames collection \
             (github.com/marekesz/rbgGames, commit 3ae4fb75c2cc) and the reference results of the \
             rbg-rs project; put them in ../shared/corpus and ../shared/conformance or point \
             RBG_CORPUS / RBG_CONFORMANCE at them. To run without them, set RBG_SKIP_CONFORMANCE=1 \
             (not under CI)."
        ),
        MissingData::Skip => {
            eprintln!("note: reference data not found, test SKIPPED (RBG_SKIP_CONFORMANCE=1): {missing:?}");
            false
        }
    }
}

/// The corpus directory if present (see [`available`]).
pub fn corpus() -> Option<PathBuf> {
    let dir = corpus_dir();
    available(&[&dir]).then_some(dir)
}

/// The conformance directory if present (see [`available`]).
pub fn conformance() -> Option<PathBuf> {
    let dir = conformance_dir();
    available(&[&dir]).then_some(dir)
}

/// One game file of the corpus.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct CorpusGame {
    /// The name used in the reference CSV files: the path below the corpus without `.rbg`
    /// (`chess`, `nsplit/amazons_nsplit`).
    pub name: String,
    pub path: PathBuf,
}

impl CorpusGame {
    pub fn bytes(&self) -> Vec<u8> {
        std::fs::read(&self.path).unwrap_or_else(|e| panic!("cannot read {}: {e}", self.path.display()))
    }

    /// The reference parser's lowered output of this game.
    pub fn lowered_path(&self, conformance: &Path) -> PathBuf {
        conformance.join("lowered").join(format!("{}.rbg", self.name))
    }
}

/// Every `.rbg` file of the corpus (including `nsplit/`), sorted by name.
pub fn corpus_games(corpus: &Path) -> Vec<CorpusGame> {
    let mut games = Vec::new();
    for sub in ["", "nsplit"] {
        let Ok(entries) = std::fs::read_dir(corpus.join(sub)) else { continue };
        for path in entries.flatten().map(|e| e.path()) {
            if path.extension().is_some_and(|e| e == "rbg") {
                let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
                let name = if sub.is_empty() { stem } else { format!("{sub}/{stem}") };
                games.push(CorpusGame { name, path });
            }
        }
    }
    games.sort();
    games
}

/// The corpus file of a game named as in the reference CSV files.
pub fn corpus_game(name: &str) -> PathBuf {
    corpus_dir().join(format!("{name}.rbg"))
}

/// The data rows of a reference CSV file, as fields (the files have a header and no quoting).
pub fn read_csv(path: &Path) -> Vec<Vec<String>> {
    let text =
        std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    text.lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.split(',').map(str::to_string).collect())
        .collect()
}

/// A finished row of `reference-perft.csv`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PerftRow {
    pub game: String,
    pub depth: u32,
    pub leaves: u64,
    /// The reference's `states`: the root and every non-keeper state visited.
    pub nodes: u64,
}

/// The finished rows of `reference-perft.csv` (the `timeout` rows are left out), in file order.
pub fn reference_perft(conformance: &Path) -> Vec<PerftRow> {
    read_csv(&conformance.join("reference-perft.csv"))
        .into_iter()
        .filter(|r| r.len() >= 4 && !r[2].is_empty())
        .map(|r| PerftRow {
            game: r[0].clone(),
            depth: r[1].parse().expect("a depth in reference-perft.csv"),
            leaves: r[2].parse().expect("a leaf count in reference-perft.csv"),
            nodes: r[3].parse().expect("a state count in reference-perft.csv"),
        })
        .collect()
}

/// The largest leaf count of the perft rows a conformance test checks: `$RBG_PERFT_MAX_LEAVES`,
/// else 10^6 in optimised builds (the CI subset) and 2·10^4 in debug builds (about 20x slower).
pub fn perft_max_leaves() -> u64 {
    let default = if cfg!(debug_assertions) { 20_000 } else { 1_000_000 };
    std::env::var("RBG_PERFT_MAX_LEAVES").ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// The finished reference rows with at most `max_leaves` leaves, in file order.
pub fn reference_perft_up_to(max_leaves: u64) -> Vec<PerftRow> {
    reference_perft(&conformance_dir()).into_iter().filter(|r| r.leaves <= max_leaves).collect()
}

/// What [`check_reference_perft`] covered.
#[derive(Clone, Debug)]
pub struct PerftCoverage {
    /// The games with at least one checked row, in file order.
    pub games: Vec<String>,
    pub rows: usize,
}

/// Runs an engine on every reference perft row with at most `max_leaves` leaves and panics with
/// one line per mismatch. Games run in parallel (one rayon task each, as the largest rows dominate);
/// `load` prepares a game once (`Err` is reported as that game's failure), `count` returns
/// `(leaves, nodes)` at a depth.
pub fn check_reference_perft<E>(
    max_leaves: u64,
    load: impl Fn(&str) -> Result<E, String> + Sync,
    count: impl Fn(&E, u32) -> Result<(u64, u64), String> + Sync,
) -> PerftCoverage {
    use rayon::prelude::*;
    let rows = reference_perft_up_to(max_leaves);
    let mut games: Vec<String> = rows.iter().map(|r| r.game.clone()).collect();
    games.dedup();
    let failures: Vec<String> = games
        .par_iter()
        .flat_map_iter(|game| {
            let game_rows = rows.iter().filter(move |r| &r.game == game);
            let engine = load(game);
            let failures: Vec<String> = match &engine {
                Err(e) => vec![format!("{game}: {e}")],
                Ok(engine) => game_rows
                    .filter_map(|row| match count(engine, row.depth) {
                        Ok(got) if got == (row.leaves, row.nodes) => None,
                        Ok((leaves, nodes)) => Some(format!(
                            "{game} depth {}: got leaves {leaves} nodes {nodes}, reference {} {}",
                            row.depth, row.leaves, row.nodes
                        )),
                        Err(e) => Some(format!("{game} depth {}: {e}", row.depth)),
                    })
                    .collect(),
            };
            failures
        })
        .collect();
    println!("{} reference rows over {} games checked", rows.len(), games.len());
    assert!(failures.is_empty(), "{} perft mismatches:\n{}", failures.len(), failures.join("\n"));
    assert!(
        games.len() >= 75 || max_leaves < 1_000,
        "expected rows for all 75 corpus games, got {}",
        games.len()
    );
    PerftCoverage { rows: rows.len(), games }
}

/// A toy game for agents' tests: white puts `bad` or `good` on the first cell, black fills the
/// second; then `good` wins for white and `bad` for black. Only the piece white chose decides
/// the score, and every game is white's choice, then black's one move.
pub const ONE_PIECE_DECIDES: &str = "
#players = white(100), black(100)
#pieces = e, bad, good, filler
#variables =
#board = rectangle(up, down, left, right, [e, e])
#rules = ->white ([bad] + [good]) right ->black [filler] ->> left
    ({good} [$ white = 100, black = 0] + {bad} [$ white = 0, black = 100]) ->> {}
";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_data_fails_unless_a_skip_is_requested_outside_ci() {
        assert_eq!(missing_data_policy(false, false), MissingData::Fail);
        assert_eq!(missing_data_policy(false, true), MissingData::Skip);
        assert_eq!(missing_data_policy(true, true), MissingData::Fail);
        assert_eq!(missing_data_policy(true, false), MissingData::Fail);
    }

    #[test]
    fn present_paths_are_available() {
        assert!(available(&[workspace_root()]));
    }

    /// The visible line of every run: whether the conformance data is there, and what was
    /// skipped otherwise.
    #[test]
    fn conformance_data_is_present_or_its_absence_is_declared() {
        let (corpus, conformance) = (corpus_dir(), conformance_dir());
        if available(&[&corpus, &conformance]) {
            let games = corpus_games(&corpus).len();
            println!("conformance data: {games} corpus games in {}", corpus.display());
            assert_eq!(games, 75, "the corpus has 75 games (70 + 5 under nsplit/)");
        }
    }
}
