//! Shared helpers of the integration tests: loading corpus games into the interpreter (the
//! reference data itself is located by rbg-testdata).
#![allow(dead_code)]

use rbg_interp::{InterpOptions, Interpreter};
use rbg_parser::ir;

#[allow(unused_imports)] // each test crate uses a different subset
pub use rbg_testdata::{available as data_available, conformance_dir, corpus_dir, read_csv};

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
