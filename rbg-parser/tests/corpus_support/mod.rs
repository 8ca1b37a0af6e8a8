//! The corpus for the parser's tests, as (file name below the corpus, bytes); locating it (and
//! failing under CI when it is missing) is rbg-testdata's job.

#![allow(dead_code)]

use std::path::{Path, PathBuf};

pub use rbg_testdata::corpus as corpus_dir;

/// The reference parser's lowered output of each game.
pub fn lowered_dir(_corpus: &Path) -> PathBuf {
    rbg_testdata::conformance_dir().join("lowered")
}

/// Every `.rbg` file of the corpus (including `nsplit/`), sorted, as (relative name, bytes).
pub fn corpus_games(corpus: &Path) -> Vec<(String, Vec<u8>)> {
    rbg_testdata::corpus_games(corpus).into_iter().map(|g| (format!("{}.rbg", g.name), g.bytes())).collect()
}
