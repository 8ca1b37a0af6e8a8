//! Reading and parsing a game file, reporting diagnostics.
//!
//! A game file is RBG or Simplified Boardgames (SBG). SBG files are told apart by their
//! extension (`.sbg`) or, under any other extension but `.rbg`, by their content (the first
//! thing after comments is the `<<name>>` header, which no RBG file can start with). An SBG
//! game is translated to RBG ([`rbg_sbg::to_rbg_writer_with_source`]) and read by the RBG
//! parser, so every command that runs RBG runs it; diagnostics, also those of the translation,
//! point at the SBG source.

use std::path::Path;

use rbg_parser::diag::Diagnostic;
use rbg_parser::ir;
use rbg_parser::source::SourceFile;

use crate::diagnostics::{emit, Format};
use crate::Failure;

/// A parsed game and its name (the file stem).
pub struct Loaded {
    pub name: String,
    pub game: ir::Game,
    /// The RBG text the game was read from: the file itself, or the translation of an SBG file
    /// (what a compiled engine is keyed by and what the game manager sends to its clients).
    pub rbg_text: Vec<u8>,
}

/// The description language of a game file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Language {
    Rbg,
    Sbg,
}

/// The language of the file at `path` with these contents (see the module docs).
pub fn language(path: &Path, bytes: &[u8]) -> Language {
    match path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase).as_deref() {
        Some("sbg") => Language::Sbg,
        Some("rbg") => Language::Rbg,
        _ if after_comments(bytes).starts_with(b"<<") => Language::Sbg,
        _ => Language::Rbg,
    }
}

/// The bytes after leading white space and `//` and `/* */` comments (both languages have them).
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

/// The outcome of reading a game file of either language, before anything is printed.
pub struct Parsed {
    /// The file's own text (diagnostics' spans refer to it).
    pub source: SourceFile,
    /// Errors and warnings, with spans in `source`.
    pub diagnostics: Vec<Diagnostic>,
    pub game: Option<ir::Game>,
    pub rbg_text: Vec<u8>,
}

/// Parses `bytes` read from `path` as RBG or SBG.
pub fn parse_file(path: &Path, bytes: Vec<u8>) -> Parsed {
    let name = path.display().to_string();
    if language(path, &bytes) == Language::Rbg {
        let output = rbg_parser::parse(&name, &bytes);
        return Parsed {
            source: output.source,
            diagnostics: output.diagnostics,
            game: output.game,
            rbg_text: bytes,
        };
    }
    let source = SourceFile::new(name.clone(), bytes.clone());
    let sbg = match rbg_sbg::parse(&name, &bytes) {
        Ok(sbg) => sbg,
        Err(diagnostics) => return Parsed { source, diagnostics, game: None, rbg_text: Vec::new() },
    };
    let writer = rbg_sbg::to_rbg_writer_with_source(&sbg, &bytes);
    let generated = writer.parse(&format!("{name}.rbg"));
    let mut diagnostics = generated.mapped;
    if generated.game.is_none() {
        // The translation of a valid SBG game is valid RBG; this names whose bug it is.
        diagnostics.push(Diagnostic::error(
            "the RBG translation of this game was rejected (a bug of the SBG translator)",
            None,
        ));
    }
    Parsed { source, diagnostics, game: generated.game, rbg_text: writer.text().as_bytes().to_vec() }
}

/// Reads and parses `path`; diagnostics go to stderr. Warnings are shown unless `quiet`.
pub fn load(path: &Path, format: Format, quiet: bool) -> Result<Loaded, Failure> {
    let bytes =
        std::fs::read(path).map_err(|e| Failure::new(format!("cannot read {}: {e}", path.display())))?;
    let parsed = parse_file(path, bytes);
    let shown: Vec<_> = parsed.diagnostics.iter().filter(|d| d.is_error() || !quiet).cloned().collect();
    emit(&parsed.source, &shown, format);
    match parsed.game {
        Some(game) => Ok(Loaded { name: game_name(path), game, rbg_text: parsed.rbg_text }),
        None => Err(Failure::silent()),
    }
}

/// The game's name: the file name without extension.
pub fn game_name(path: &Path) -> String {
    path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_else(|| "game".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_language_is_told_by_extension_then_by_content() {
        let sbg = b"// a comment\n/* another */ <<Game>>\n<BOARD> 1 1\n";
        let rbg = b"// a comment\n#players = white(100)\n";
        assert_eq!(language(Path::new("g.sbg"), rbg), Language::Sbg);
        assert_eq!(language(Path::new("g.rbg"), sbg), Language::Rbg);
        assert_eq!(language(Path::new("g.txt"), sbg), Language::Sbg);
        assert_eq!(language(Path::new("g"), rbg), Language::Rbg);
        assert_eq!(language(Path::new("g"), b"/* unclosed"), Language::Rbg);
    }
}
