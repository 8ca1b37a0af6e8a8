//! Shared by the tests: where the reference data is, and reading it.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// `../../shared` beside the workspace.
pub fn shared_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared")
}

/// The corpus: `$RBG_CORPUS`, else `shared/corpus`.
pub fn corpus_dir() -> PathBuf {
    match std::env::var_os("RBG_CORPUS") {
        Some(dir) => PathBuf::from(dir),
        None => shared_dir().join("corpus"),
    }
}

/// The reference results: `$RBG_CONFORMANCE`, else `shared/conformance`.
pub fn conformance_dir() -> PathBuf {
    match std::env::var_os("RBG_CONFORMANCE") {
        Some(dir) => PathBuf::from(dir),
        None => shared_dir().join("conformance"),
    }
}

/// Whether the data a test needs is present. Under CI (`CI=true`) missing data is a failure;
/// elsewhere the test is skipped with a note.
pub fn data_available(paths: &[PathBuf]) -> bool {
    let missing: Vec<&PathBuf> = paths.iter().filter(|p| !p.exists()).collect();
    if missing.is_empty() {
        return true;
    }
    assert!(!std::env::var("CI").is_ok_and(|v| v == "true"), "reference data missing under CI: {missing:?}");
    eprintln!("note: skipping, reference data not found: {missing:?}");
    false
}

/// Rows of a CSV file as string fields (the reference files have no quoted fields).
pub fn read_csv(path: &Path) -> Vec<Vec<String>> {
    let text =
        std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    text.lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.split(',').map(str::to_string).collect())
        .collect()
}
