//! `rbg check` and `rbg lower`.

use std::io::Write;
use std::path::Path;

use crate::diagnostics::Format;
use crate::load::load;
use crate::Failure;

pub struct CheckOptions {
    pub straightness: bool,
    pub deny_warnings: bool,
    pub quiet: bool,
    pub format: Format,
}

/// Checks every file (all of them, even after a failure); fails if any is invalid.
pub fn run(files: &[impl AsRef<Path>], opts: &CheckOptions) -> Result<(), Failure> {
    let mut all_valid = true;
    for file in files {
        all_valid &= check_one(file.as_ref(), opts);
    }
    if all_valid {
        Ok(())
    } else {
        Err(Failure::silent())
    }
}

fn check_one(path: &Path, opts: &CheckOptions) -> bool {
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) => {
            crate::say!("error: cannot read {}: {e}", path.display());
            return false;
        }
    };
    let output = crate::load::parse_file(path, bytes);
    let mut warnings = output.diagnostics.iter().filter(|d| !d.is_error()).count();
    let shown: Vec<_> = output.diagnostics.iter().filter(|d| d.is_error() || !opts.quiet).cloned().collect();
    crate::diagnostics::emit(&output.source, &shown, opts.format);
    if let Some(game) = &output.game {
        let (playability_warnings, notes) = playability(game);
        warnings += playability_warnings.len();
        if !opts.quiet {
            for w in playability_warnings {
                crate::say!("warning: {}: {w}", path.display());
            }
            for n in notes {
                crate::say!("note: {}: {n}", path.display());
            }
        }
    }
    let valid = output.game.is_some() && !(opts.deny_warnings && warnings > 0);
    let mut stdout = std::io::stdout().lock();
    match (&output.game, valid) {
        (Some(game), true) => {
            let _ = writeln!(stdout, "{}: valid", path.display());
            if opts.straightness {
                let s = game.straightness;
                let _ = writeln!(stdout, "Applicational strong straightness: {}", s.applicational);
                let _ = writeln!(stdout, "Main straightness: {}", s.main);
                let _ = writeln!(stdout, "Move straightness: {}", s.moves);
                let _ = writeln!(stdout, "Semimove straightness: {}", s.semimoves);
            }
        }
        (Some(_), false) => {
            let _ = writeln!(stdout, "{}: invalid ({warnings} warnings denied)", path.display());
        }
        (None, _) => {
            let _ = writeln!(stdout, "{}: invalid", path.display());
        }
    }
    valid
}

/// What a valid description may still lack to be played: warnings (counted by
/// `--deny-warnings`) and notes (information only).
fn playability(game: &rbg_parser::ir::Game) -> (Vec<String>, Vec<String>) {
    let mut warnings = Vec::new();
    let mut notes = Vec::new();
    if game.players.is_empty() {
        warnings.push("the game declares no players, so it cannot be played".to_string());
    }
    // -2 is "unbounded" in the straightness figures (spec section 12.2).
    if game.straightness.moves == -2 {
        notes.push(
            "the length of a move is not bounded by the rules (move straightness unbounded); \
             it is playable if the board bounds it in practice, as in draughts, but a move that \
             never ends makes perft and mc stop with an error"
                .to_string(),
        );
    }
    (warnings, notes)
}

/// Prints the low-level form of a game to `output` or stdout.
pub fn lower(path: &Path, output: Option<&Path>, format: Format) -> Result<(), Failure> {
    let loaded = load(path, format, false)?;
    write_out(&rbg_parser::print::print_game(&loaded.ir), output)
}

/// Writes `text` to `output`, or to stdout.
pub(crate) fn write_out(text: &str, output: Option<&Path>) -> Result<(), Failure> {
    match output {
        Some(out) => std::fs::write(out, text)
            .map_err(|e| Failure::new(format!("cannot write {}: {e}", out.display()))),
        None => {
            let mut stdout = std::io::stdout().lock();
            stdout.write_all(text.as_bytes()).and_then(|_| stdout.flush()).map_err(Failure::output)
        }
    }
}
