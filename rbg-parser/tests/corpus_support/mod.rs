//! Locating the shared corpus of 75 games for integration tests.
//!
//! The corpus is read from `RBG_CORPUS` or else `../shared/corpus` relative to the workspace
//! root. It is never copied into the project. When it is missing, tests are skipped with a note,
//! except under `CI=true`, where a missing corpus must fail the build.

#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// The corpus directory, or `None` (after printing a note) when it is absent outside CI.
pub fn corpus_dir() -> Option<PathBuf> {
    let dir = match std::env::var_os("RBG_CORPUS") {
        Some(dir) => PathBuf::from(dir),
        None => workspace_root().join("../shared/corpus"),
    };
    if dir.is_dir() {
        return Some(dir);
    }
    if std::env::var("CI").is_ok_and(|ci| ci == "true") {
        panic!("corpus not found at {} (set RBG_CORPUS)", dir.display());
    }
    eprintln!("note: corpus not found at {}; skipping corpus test (set RBG_CORPUS)", dir.display());
    None
}

/// The reference parser's lowered output of each game, next to the corpus.
pub fn lowered_dir(corpus: &Path) -> PathBuf {
    corpus.join("../conformance/lowered")
}

fn workspace_root() -> PathBuf {
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    manifest.parent().map(Path::to_path_buf).unwrap_or(manifest)
}

/// Every `.rbg` file of the corpus (including `nsplit/`), sorted, as (relative name, bytes).
pub fn corpus_games(corpus: &Path) -> Vec<(String, Vec<u8>)> {
    let mut games = Vec::new();
    for sub in ["", "nsplit"] {
        let dir = corpus.join(sub);
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.extension().is_some_and(|e| e == "rbg") {
                let name = path.strip_prefix(corpus).unwrap_or(&path).to_string_lossy().into_owned();
                let bytes =
                    std::fs::read(&path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
                games.push((name, bytes));
            }
        }
    }
    games.sort();
    games
}
