//! The lexer (spec section 2): bytes to tokens, with the reference's warnings.
//!
//! The lexical grammar is `rbg.pest`. This module turns its pairs into [`Token`]s and produces
//! the lexical diagnostics: "Stray 'c' character in file", "Unterminated string",
//! "Unterminated comment" (warnings) and "Too large integer" (an error, which stops lexing).
//!
//! Two guards against junk, which the reference does not have: a file that is clearly not text
//! ([`not_text`]: a NUL byte, or many non-text bytes, in the first KiB) is one error before any
//! lexing, and lexical warnings are limited per kind ([`WarningLimit`]), so random bytes cannot
//! produce a warning per byte.

use std::rc::Rc;

use pest::Parser;
use pest_derive::Parser;

use crate::diag::{Diagnostic, WarningLimit};
use crate::source::Span;
use crate::token::{Keyword, Sym, Token, TokenKind, TrailId};

#[derive(Parser)]
#[grammar = "rbg.pest"]
struct RbgLexer;

/// Tokens of a file plus the warnings met on the way, or the first error.
#[derive(Debug, Default)]
pub struct Lexed {
    pub tokens: Vec<Token>,
    pub warnings: Vec<Diagnostic>,
}

/// Bytes given to one pest call (more when one token is longer). Pest builds the pairs of its
/// whole input before the first can be read, about 80 bytes per token; lexing a large file in one
/// call held twice the memory of the tokens themselves (120 bytes per byte of a file of symbols).
/// Chunks keep that to one chunk's worth.
const CHUNK_BYTES: usize = 1 << 16;

/// Tokenizes a whole file.
pub fn lex(bytes: &[u8]) -> Result<Lexed, Diagnostic> {
    if let Some(error) = not_text(bytes) {
        return Err(error);
    }
    // Keep byte offsets: every non-ASCII byte becomes DEL, which no token starts with. The text
    // is therefore ASCII, and every byte offset is a place where a chunk may end.
    let text: String = bytes.iter().map(|&b| if b < 0x80 { b as char } else { '\u{7f}' }).collect();
    let mut out = Lexed::default();
    let mut limit = WarningLimit::default();
    let (mut start, mut size) = (0, CHUNK_BYTES);
    while start < text.len() {
        let end = start.saturating_add(size).min(text.len());
        match lex_chunk(&text, bytes, start..end, &mut out, &mut limit)? {
            Some(next) => (start, size) = (next, CHUNK_BYTES),
            // One token (a long comment or string, say) fills the chunk: take a larger one.
            None => size = size.saturating_mul(2),
        }
    }
    out.warnings.extend(limit.summaries());
    Ok(out)
}

/// Lexes `text[chunk]` into `out`. Unless the chunk ends the file, its last token may be cut
/// short (a word, a `->` of `->>`, a comment or string that goes on): it is left out, and the
/// place to go on from, its start, is returned; `None` if that leaves nothing to add. Every
/// earlier token ends before the chunk does, so the cut did not change it. (A line comment
/// makes no token: one cut short lies after the last token and is lexed again with it.)
fn lex_chunk(
    text: &str,
    bytes: &[u8],
    chunk: std::ops::Range<usize>,
    out: &mut Lexed,
    limit: &mut WarningLimit,
) -> Result<Option<usize>, Diagnostic> {
    let offset = chunk.start;
    let ends_file = chunk.end == text.len();
    let pairs = match RbgLexer::parse(Rule::file, &text[chunk]) {
        Ok(mut pairs) => pairs.next().map(|file| file.into_inner()),
        // The grammar accepts every input (`stray` matches any character); keep a clear error
        // rather than a panic should that ever change.
        Err(e) => return Err(Diagnostic::error(format!("Internal lexer error: {e}"), None)),
    };
    let mut pairs = pairs.into_iter().flatten().filter(|p| p.as_rule() != Rule::EOI).peekable();
    let mut added = false;
    while let Some(pair) = pairs.next() {
        let span =
            Span::new((offset + pair.as_span().start()) as u32, (offset + pair.as_span().end()) as u32);
        if !ends_file && pairs.peek().is_none() {
            return Ok(added.then_some(span.start as usize));
        }
        added = true;
        add_token(pair.as_rule(), pair.as_str(), span, bytes, out, limit)?;
    }
    // No token at all (whitespace and line comments): go on only at the end of the file.
    Ok(ends_file.then_some(text.len()))
}

/// Turns one pair into a token of `out`, or into a warning.
fn add_token(
    rule: Rule,
    text: &str,
    span: Span,
    bytes: &[u8],
    out: &mut Lexed,
    limit: &mut WarningLimit,
) -> Result<(), Diagnostic> {
    let kind = match rule {
        Rule::word => match Keyword::from_word(text) {
            Some(k) => TokenKind::Keyword(k),
            None => TokenKind::Ident(Rc::from(text)),
        },
        Rule::number => TokenKind::Number(parse_number(text, span)?),
        Rule::string => {
            let closed = text.len() >= 2 && text.ends_with('"');
            if !closed {
                limit.push(&mut out.warnings, Diagnostic::warning("Unterminated string", Some(span)));
            }
            let inner = &bytes[span.start as usize + 1..span.end as usize - closed as usize];
            TokenKind::Str(Rc::from(String::from_utf8_lossy(inner).as_ref()))
        }
        Rule::symbol => TokenKind::Sym(Sym::from_spelling(text).expect("grammar symbols are Sym spellings")),
        Rule::block_comment => {
            if !(text.len() >= 4 && text.ends_with("*/")) {
                limit.push(&mut out.warnings, Diagnostic::warning("Unterminated comment", Some(span)));
            }
            return Ok(());
        }
        Rule::stray => {
            let byte = bytes[span.start as usize];
            let shown = if byte.is_ascii_graphic() || byte == b' ' {
                (byte as char).to_string()
            } else {
                format!("\\x{byte:02x}")
            };
            let mut warning = Diagnostic::warning(format!("Stray '{shown}' character in file"), Some(span));
            if byte == b'|' {
                // The reference accepts and skips it (so `a | b` means `a b`); say what was meant.
                warning = warning
                    .with_note("`|` is not an operator of RBG: alternatives are written with `+`; this `|` is ignored")
                    .with_fix(span, "+");
            }
            limit.push(&mut out.warnings, warning);
            return Ok(());
        }
        _ => return Ok(()),
    };
    out.tokens.push(Token { kind, span, trail: TrailId::ROOT });
    Ok(())
}
/// How much of the file [`not_text`] looks at.
pub const TEXT_SNIFF_BYTES: usize = 1024;

/// [`not_text`] rejects a file when more than this share of the sniffed bytes is not text.
/// Real games are ASCII with at most a few UTF-8 letters in comments; random bytes are about
/// 60 % non-text.
pub const MAX_NON_TEXT_SHARE: f64 = 0.1;

/// An error if the first [`TEXT_SNIFF_BYTES`] bytes are clearly not text: they contain a NUL
/// byte, or more than [`MAX_NON_TEXT_SHARE`] of them are control characters (other than
/// whitespace) or bytes of invalid UTF-8.
pub fn not_text(bytes: &[u8]) -> Option<Diagnostic> {
    let head = &bytes[..bytes.len().min(TEXT_SNIFF_BYTES)];
    if let Some(nul) = head.iter().position(|&b| b == 0) {
        let span = Span::new(nul as u32, nul as u32 + 1);
        return Some(
            Diagnostic::error("This is not a text file (it contains a NUL byte)", Some(span))
                .with_note("an RBG game description is a text file"),
        );
    }
    // The lexer's whitespace (spec 2.1) is text; every other control character is not.
    let is_control =
        |b: &u8| b.is_ascii_control() && !matches!(b, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r');
    let mut non_text = 0;
    let mut valid_len = 0;
    for chunk in head.utf8_chunks() {
        non_text += chunk.valid().bytes().filter(is_control).count();
        valid_len += chunk.valid().len();
        // Invalid bytes at the very end may be a character cut in half by the sniff window.
        if valid_len + chunk.invalid().len() < head.len() || head.len() == bytes.len() {
            non_text += chunk.invalid().len();
        }
        valid_len += chunk.invalid().len();
    }
    if non_text as f64 > MAX_NON_TEXT_SHARE * head.len() as f64 {
        let message = format!(
            "This is not a text file ({non_text} of its first {} bytes are neither printable \
             characters, whitespace nor UTF-8)",
            head.len()
        );
        return Some(Diagnostic::error(message, None).with_note("an RBG game description is a text file"));
    }
    None
}

/// Decimal value of a digit string; leading zeros are dropped. Values above `u32::MAX` are the
/// error "Too large integer".
fn parse_number(digits: &str, span: Span) -> Result<u32, Diagnostic> {
    digits
        .bytes()
        .try_fold(0u32, |acc, d| acc.checked_mul(10)?.checked_add((d - b'0') as u32))
        .ok_or_else(|| Diagnostic::error("Too large integer", Some(span)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spell(src: &str) -> Vec<String> {
        lex(src.as_bytes()).unwrap().tokens.iter().map(|t| t.kind.to_string()).collect()
    }

    #[test]
    fn longest_match_examples_of_the_spec() {
        assert_eq!(spell("->>x"), ["->>", "x"]);
        assert_eq!(spell("a->b"), ["a", "->", "b"]);
        assert_eq!(spell("x-1"), ["x", "-", "1"]);
        assert_eq!(spell("{?{e}}"), ["{?", "{", "e", "}", "}"]);
        assert_eq!(spell("12ab"), ["12", "ab"]);
        assert_eq!(spell("ab12 boards board"), ["ab12", "boards", "board"]);
        assert_eq!(spell("{ ? [ $ - > -> >"), ["{", "?", "[", "$", "-", ">", "->", ">"]);
        assert_eq!(spell("007"), ["7"]);
    }

    #[test]
    fn keywords_are_not_identifiers() {
        let toks = lex(b"rules rule").unwrap().tokens;
        assert_eq!(toks[0].kind, TokenKind::Keyword(Keyword::Rules));
        assert_eq!(toks[1].kind, TokenKind::Ident(Rc::from("rule")));
    }

    #[test]
    fn comments_and_lone_trailing_slash() {
        assert_eq!(spell("a // b\nc /* d */ e /"), ["a", "c", "e", "/"]);
        assert_eq!(spell("a /*b"), ["a"]);
        let lexed = lex(b"a /*b").unwrap();
        assert_eq!(lexed.warnings[0].message, "Unterminated comment");
    }

    #[test]
    fn a_bar_suggests_plus() {
        let lexed = lex(b"(a | b)").unwrap();
        assert_eq!(lexed.warnings.len(), 1);
        let w = &lexed.warnings[0];
        assert_eq!(w.message, "Stray '|' character in file", "the reference's wording");
        assert!(w.notes[0].contains("alternatives are written with `+`"), "{:?}", w.notes);
        let fix = w.fix.as_ref().expect("a fix");
        assert_eq!((fix.span, fix.replacement.as_str()), (Span::new(3, 4), "+"));
        // Other strays get no fix.
        assert!(lex(b"a_b").unwrap().warnings[0].fix.is_none());
    }

    #[test]
    fn stray_characters_warn_and_split_words() {
        let lexed = lex("a_b é".as_bytes()).unwrap();
        let spelled: Vec<String> = lexed.tokens.iter().map(|t| t.kind.to_string()).collect();
        assert_eq!(spelled, ["a", "b"]);
        assert_eq!(lexed.warnings[0].message, "Stray '_' character in file");
        assert_eq!(lexed.warnings[0].span, Some(Span::new(1, 2)));
        // A two-byte UTF-8 character is two stray bytes, as in the byte-based reference.
        assert_eq!(lexed.warnings.len(), 3);
    }

    #[test]
    fn strings_and_their_warning() {
        let lexed = lex(b"\"x # y\" z \"open").unwrap();
        assert_eq!(lexed.tokens.len(), 3);
        assert_eq!(lexed.tokens[0].kind, TokenKind::Str(Rc::from("x # y")));
        assert_eq!(lexed.warnings[0].message, "Unterminated string");
    }

    #[test]
    fn comments_and_strings_across_chunk_boundaries() {
        // Lines `x` with a comment and a string that each span a chunk boundary; every line
        // outside them is one token, so the expected count is a plain line count.
        let line = "x\n";
        let lines_before = CHUNK_BYTES / line.len() - 3;
        let mut src = line.repeat(lines_before);
        src.push_str("/* a comment\n".repeat(8).as_str());
        src.push_str("*/\n");
        src.push_str(&line.repeat(CHUNK_BYTES / line.len()));
        src.push_str("\"a string\n");
        src.push_str(&"over lines\n".repeat(CHUNK_BYTES / 11 + 5));
        src.push_str("\" y\n");
        let lexed = lex(src.as_bytes()).unwrap();
        assert!(lexed.warnings.is_empty(), "{:?}", lexed.warnings);
        let xs = lexed.tokens.iter().filter(|t| t.kind == TokenKind::Ident(Rc::from("x"))).count();
        assert_eq!(xs, lines_before + CHUNK_BYTES / line.len());
        let strings: Vec<_> = lexed.tokens.iter().filter(|t| matches!(t.kind, TokenKind::Str(_))).collect();
        assert_eq!(strings.len(), 1);
        assert!(matches!(&strings[0].kind, TokenKind::Str(s) if s.starts_with("a string\nover")));
        assert_eq!(lexed.tokens.last().unwrap().kind, TokenKind::Ident(Rc::from("y")));
        // The last token's span is its place in the whole file, not in its chunk.
        assert_eq!(lexed.tokens.last().unwrap().span.start as usize, src.len() - 2);
        // Unterminated at the end of a large file: still one warning, no token.
        let open = format!("{}/* open", line.repeat(CHUNK_BYTES));
        let lexed = lex(open.as_bytes()).unwrap();
        assert_eq!(lexed.tokens.len(), CHUNK_BYTES);
        assert_eq!(lexed.warnings.len(), 1);
        assert_eq!(lexed.warnings[0].message, "Unterminated comment");
    }

    #[test]
    fn too_large_integer_is_an_error() {
        assert!(lex(b"4294967295").is_ok());
        assert_eq!(lex(b"4294967296").unwrap_err().message, "Too large integer");
    }
}
