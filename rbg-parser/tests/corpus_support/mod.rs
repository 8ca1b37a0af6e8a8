//! The corpus for the parser's tests, as (file name below the corpus, bytes); locating it (and
//! failing under CI when it is missing) is rbg-testdata's job.

#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// The corpus directory if present (skipped with a note, or a failure under CI, if not).
pub use rbg_testdata::corpus;

/// The reference parser's lowered output of each game.
pub fn lowered_dir() -> PathBuf {
    rbg_testdata::conformance_dir().join("lowered")
}

/// Every `.rbg` file of the corpus (including `nsplit/`), sorted, as (relative name, bytes).
pub fn corpus_games(corpus: &Path) -> Vec<(String, Vec<u8>)> {
    rbg_testdata::corpus_games(corpus).into_iter().map(|g| (format!("{}.rbg", g.name), g.bytes())).collect()
}
