//! Shared helpers of the integration tests: reading games and loading corpus games into the
//! interpreter (the reference data itself is located by rbg-testdata).
#![allow(dead_code)] // each test crate uses a different subset

use std::path::Path;

use rbg_interp::{InterpOptions, Interpreter, ProgramOptions};
use rbg_parser::ir;

#[allow(unused_imports)]
pub use rbg_testdata::{available as data_available, conformance_dir, corpus_dir, read_csv};

/// Reads a game description (high- or low-level RBG) with the real parser.
pub fn read_game(text: &[u8]) -> Result<ir::Game, String> {
    let out = rbg_parser::parse("test.rbg", text);
    out.game.ok_or_else(|| format!("{:?}", out.diagnostics))
}

/// `options` and the same with every program optimisation off.
pub fn with_baseline(options: InterpOptions) -> [InterpOptions; 2] {
    let baseline = InterpOptions { program: ProgramOptions::baseline(), ..options.clone() };
    [options, baseline]
}

fn parse_file(path: &Path) -> ir::Game {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let out = rbg_parser::parse(&path.display().to_string(), &bytes);
    out.game.unwrap_or_else(|| panic!("cannot read {}: {:?}", path.display(), out.diagnostics))
}

/// Loads a game: by default the corpus file; with `$RBG_INTERP_SOURCE=lowered` the reference
/// parser's lowered form of it instead (which checks the interpreter against the reference's own
/// lowering, independently of our macro expander and board generators).
pub fn load_game(name: &str) -> ir::Game {
    if std::env::var("RBG_INTERP_SOURCE").is_ok_and(|s| s == "lowered") {
        parse_file(&conformance_dir().join("lowered").join(format!("{name}.rbg")))
    } else {
        parse_file(&rbg_testdata::corpus_game(name))
    }
}

pub fn interpreter(name: &str, options: InterpOptions) -> Interpreter {
    Interpreter::new(&load_game(name), name, options).unwrap_or_else(|e| panic!("{name}: {e}"))
}
