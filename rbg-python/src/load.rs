//! Reading a game file (RBG, or Simplified Boardgames translated to RBG) into an engine.
//!
//! The CLI's loader lives in its binary crate; this is the same decision (by extension, then
//! by content) without the terminal rendering: diagnostics become one text, each error as
//! `file:line:col: error: message` followed by its notes, the form editors and tests match on.

use std::path::Path;

use rbg_core::dynamic::AnyGame;
use rbg_interp::{InterpOptions, Interpreter};
use rbg_parser::diag::Diagnostic;
use rbg_parser::ir;
use rbg_parser::source::SourceFile;

/// Why a game could not be loaded, and which Python exception says so.
#[derive(Debug)]
pub enum LoadError {
    /// The file could not be read (an `OSError`).
    Io(String),
    /// The description has errors (their rendered text) or the engine rejected it.
    Invalid(String),
}

/// A parsed game: its name (the file stem) and intermediate representation.
pub struct ParsedGame {
    pub name: String,
    pub game: ir::Game,
}

/// Reads and parses the game at `path`, RBG or SBG.
pub fn parse_path(path: &Path) -> Result<ParsedGame, LoadError> {
    let bytes =
        std::fs::read(path).map_err(|e| LoadError::Io(format!("cannot read {}: {e}", path.display())))?;
    let file_name = path.display().to_string();
    let (source, diagnostics, game) = if is_sbg(path, &bytes) {
        parse_sbg(&file_name, bytes)
    } else {
        let output = rbg_parser::parse(&file_name, &bytes);
        (output.source, output.diagnostics, output.game)
    };
    match game {
        Some(game) if !diagnostics.iter().any(Diagnostic::is_error) => {
            Ok(ParsedGame { name: game_name(path), game })
        }
        _ => Err(LoadError::Invalid(render_errors(&source, &diagnostics))),
    }
}

/// Builds the interpreter for a parsed game.
pub fn interpreter(parsed: &ParsedGame) -> Result<AnyGame, LoadError> {
    let engine = Interpreter::new(&parsed.game, &parsed.name, InterpOptions::default())
        .map_err(|e| LoadError::Invalid(format!("{}: {e}", parsed.name)))?;
    Ok(AnyGame::new(engine))
}

/// Parses SBG text and its RBG translation; diagnostics point at the SBG source.
fn parse_sbg(file_name: &str, bytes: Vec<u8>) -> (SourceFile, Vec<Diagnostic>, Option<ir::Game>) {
    let source = SourceFile::new(file_name, bytes.clone());
    let sbg = match rbg_sbg::parse(file_name, &bytes) {
        Ok(sbg) => sbg,
        Err(diagnostics) => return (source, diagnostics, None),
    };
    let generated = rbg_sbg::to_rbg_writer_with_source(&sbg, &bytes).parse(&format!("{file_name}.rbg"));
    let mut diagnostics = generated.mapped;
    if generated.game.is_none() {
        diagnostics.push(Diagnostic::error(
            "the RBG translation of this game was rejected (a bug of the SBG translator)",
            None,
        ));
    }
    (source, diagnostics, generated.game)
}

/// Whether the file is Simplified Boardgames: by extension (`.sbg`; `.rbg` is RBG), else by
/// content (SBG starts with its `<<name>>` header, which no RBG file can start with).
fn is_sbg(path: &Path, bytes: &[u8]) -> bool {
    match path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase).as_deref() {
        Some("sbg") => true,
        Some("rbg") => false,
        _ => after_comments(bytes).starts_with(b"<<"),
    }
}

/// The bytes after leading white space and `//` and `/* */` comments.
fn after_comments(mut bytes: &[u8]) -> &[u8] {
    loop {
        let trimmed = bytes.trim_ascii_start();
        bytes = if let Some(rest) = trimmed.strip_prefix(b"//") {
            rest.iter().position(|&b| b == b'\n').map_or(&[][..], |n| &rest[n..])
        } else if let Some(rest) = trimmed.strip_prefix(b"/*") {
            rest.windows(2).position(|w| w == b"*/").map_or(&[][..], |n| &rest[n + 2..])
        } else {
            return trimmed;
        };
    }
}

/// The errors among `diagnostics` as text, one `file:line:col: error: message` line each
/// (`file: error: message` when the error has no place), notes indented below.
fn render_errors(source: &SourceFile, diagnostics: &[Diagnostic]) -> String {
    let lines: Vec<String> = diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| {
            let place = match d.span {
                Some(span) => {
                    let (line, col) = source.line_col(span.start);
                    format!("{}:{line}:{col}", source.name)
                }
                None => source.name.clone(),
            };
            let mut text = format!("{place}: error: {}", d.message);
            for note in &d.notes {
                text.push_str("\n  note: ");
                text.push_str(note);
            }
            text
        })
        .collect();
    if lines.is_empty() {
        format!("{}: the game could not be read", source.name)
    } else {
        lines.join("\n")
    }
}

/// The game's name: the file name without extension.
fn game_name(path: &Path) -> String {
    path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_else(|| "game".into())
}
