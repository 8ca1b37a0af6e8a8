//! Shared helpers of the integration tests: locating the corpus and the reference data, loading
//! games, reading the reference CSV files.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use rbg_interp::{InterpOptions, Interpreter};
use rbg_parser::ir;

/// The workspace root (parent of this crate).
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().map(Path::to_path_buf).unwrap_or_default()
}

/// The corpus directory: `$RBG_CORPUS`, else `../shared/corpus` next to the workspace.
pub fn corpus_dir() -> PathBuf {
    match std::env::var_os("RBG_CORPUS") {
        Some(dir) => PathBuf::from(dir),
        None => workspace_root().join("../shared/corpus"),
    }
}

pub fn conformance_dir() -> PathBuf {
    workspace_root().join("../shared/conformance")
}

/// Whether reference data needed by a test is present. Under CI (`CI=true`) missing data is a
/// failure; elsewhere the test is skipped with a note.
pub fn data_available(paths: &[PathBuf]) -> bool {
    let missing: Vec<&PathBuf> = paths.iter().filter(|p| !p.exists()).collect();
    if missing.is_empty() {
        return true;
    }
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!("reference data missing under CI: {missing:?}");
    }
    eprintln!("note: skipping, reference data not found: {missing:?}");
    false
}

/// Where a game was read from.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// The corpus file through `rbg_parser::parse`.
    Corpus,
    /// The reference parser's lowered output (no macros or generators), through `rbg_parser`.
    Lowered,
}

/// Loads a game: by default the corpus file; with `$RBG_INTERP_SOURCE=lowered` the reference
/// parser's lowered form of it instead (which checks the interpreter against the reference's own
/// lowering, independently of our macro expander and board generators).
pub fn load_game(name: &str) -> (ir::Game, Source) {
    let forced = std::env::var("RBG_INTERP_SOURCE").ok();
    if forced.as_deref() != Some("lowered") {
        let path = corpus_dir().join(format!("{name}.rbg"));
        let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
        let out = rbg_parser::parse(&path.display().to_string(), &bytes);
        match out.game {
            Some(game) => return (game, Source::Corpus),
            None => panic!("rbg_parser cannot read {name}: {:?}", out.diagnostics),
        }
    }
    let path = conformance_dir().join("lowered").join(format!("{name}.rbg"));
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let out = rbg_parser::parse(&path.display().to_string(), &bytes);
    let game = out.game.unwrap_or_else(|| panic!("cannot read {}: {:?}", path.display(), out.diagnostics));
    (game, Source::Lowered)
}

pub fn interpreter(name: &str, options: InterpOptions) -> Interpreter {
    let (game, _) = load_game(name);
    Interpreter::new(&game, name, options).unwrap_or_else(|e| panic!("{name}: {e}"))
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
