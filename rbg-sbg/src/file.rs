//! Game files of either language: RBG, or Simplified Boardgames read through its translation
//! to RBG. Every front end (the CLI, the Python package, servers) reads files this one way.
//!
//! A file is SBG by its extension (`.sbg`) or, under any other extension but `.rbg`, by its
//! content (the first thing after comments is the `<<name>>` header, which no RBG file can
//! start with). An SBG game is translated ([`crate::to_rbg_writer_with_source`]) and read by
//! the RBG parser, and every diagnostic, those of the translation included, points at the SBG
//! source.

use std::path::Path;

use rbg_parser::diag::{clip_text, Diagnostic};

/// Most characters of a message in [`errors_text`].
const MAX_MESSAGE: usize = 300;
use rbg_parser::ir;
use rbg_parser::source::SourceFile;

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

/// Whether the contents read as RBG rather than SBG: after comments they start with a `#`
/// directive (`#players = ...`), where an SBG description starts with `<<`. A translator given
/// such a file says so instead of failing on the first character.
pub fn looks_like_rbg(bytes: &[u8]) -> bool {
    after_comments(bytes).starts_with(b"#")
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

/// A game file read, before anything is shown.
pub struct ParsedFile {
    /// The file's own text (diagnostics' spans refer to it).
    pub source: SourceFile,
    /// Errors and warnings, with spans in `source`.
    pub diagnostics: Vec<Diagnostic>,
    pub game: Option<ir::Game>,
    /// The RBG text the game was read from: the file itself, or the translation of an SBG
    /// file (what a compiled engine is keyed by and what a game manager sends).
    pub rbg_text: Vec<u8>,
}

/// Parses `bytes` read from `path` as RBG or SBG.
pub fn parse_file(path: &Path, bytes: Vec<u8>) -> ParsedFile {
    let name = path.display().to_string();
    if language(path, &bytes) == Language::Rbg {
        let output = rbg_parser::parse(&name, &bytes);
        return ParsedFile {
            source: output.source,
            diagnostics: output.diagnostics,
            game: output.game,
            rbg_text: bytes,
        };
    }
    let source = SourceFile::new(name.clone(), bytes.clone());
    let sbg = match crate::parse(&name, &bytes) {
        Ok(sbg) => sbg,
        Err(diagnostics) => return ParsedFile { source, diagnostics, game: None, rbg_text: Vec::new() },
    };
    let writer = crate::to_rbg_writer_with_source(&sbg, &bytes);
    let generated = writer.parse(&format!("{name}.rbg"));
    let mut diagnostics = generated.mapped;
    if generated.game.is_none() {
        // The translation of a valid SBG game is valid RBG; this names whose bug it is.
        diagnostics.push(Diagnostic::error(
            "the RBG translation of this game was rejected (a bug of the SBG translator)",
            None,
        ));
    }
    ParsedFile { source, diagnostics, game: generated.game, rbg_text: writer.text().as_bytes().to_vec() }
}

/// The errors among `diagnostics` as plain text for messages outside a terminal (exceptions,
/// JSON answers): one `file:line:col: error: message` line each (`file: error: message` when
/// the error has no place), its notes indented below.
pub fn errors_text(source: &SourceFile, diagnostics: &[Diagnostic]) -> String {
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
            let mut text = format!("{place}: error: {}", clip_text(&d.message, MAX_MESSAGE));
            for note in &d.notes {
                text.push_str("\n  note: ");
                text.push_str(&clip_text(note, MAX_MESSAGE));
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

    #[test]
    fn errors_are_written_with_their_place() {
        let parsed = parse_file(Path::new("bad.rbg"), b"#players = a(1)\n#pieces = e\n#variables =\n#board = rectangle(up, down, left, right, [e])\n#rules = ->a ((\n".to_vec());
        assert!(parsed.game.is_none());
        let text = errors_text(&parsed.source, &parsed.diagnostics);
        assert!(text.starts_with("bad.rbg:5:"), "{text}");
        assert!(text.contains(": error: "), "{text}");
    }
}
