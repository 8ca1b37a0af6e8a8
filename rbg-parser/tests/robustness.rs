//! Property tests: mutated corpus games never make [`rbg_parser::parse`] panic.
//!
//! Two families of mutations start from a random corpus game: byte edits (insert, delete,
//! replace, with bytes biased towards RBG's symbols) and token edits (delete, duplicate, swap
//! tokens, insert symbols and keywords), the latter producing inputs that stay lexically valid and
//! so reach macro expansion and the section parsers. Besides not panicking, every diagnostic must
//! point inside the file, and a game is returned exactly when there is no error.

mod corpus_support;

use std::sync::OnceLock;

use proptest::prelude::*;
use proptest::sample::{select, Index};
use rbg_parser::lexer::lex;
use rbg_parser::source::Span;
use rbg_parser::token::{Keyword, Sym};

/// A game's relative path and bytes.
type Game = (String, Vec<u8>);

fn corpus() -> Option<&'static [Game]> {
    static GAMES: OnceLock<Option<Vec<Game>>> = OnceLock::new();
    GAMES.get_or_init(|| corpus_support::corpus().map(|dir| corpus_support::corpus_games(&dir))).as_deref()
}

/// Parses and checks the output's invariants.
fn check_parse(name: &str, bytes: &[u8]) -> Result<(), TestCaseError> {
    let output = rbg_parser::parse(name, bytes);
    let inside = |span: Span| span.start <= span.end && span.end as usize <= bytes.len();
    for diagnostic in &output.diagnostics {
        if let Some(span) = diagnostic.span {
            prop_assert!(inside(span), "{:?} outside a file of {} bytes", diagnostic, bytes.len());
            let _ = output.source.line_col(span.start);
        }
        for frame in &diagnostic.trail {
            prop_assert!(inside(frame.span()), "trail frame {:?} outside the file", frame);
        }
        let _ = diagnostic.reference_text(&output.source);
    }
    prop_assert_eq!(output.game.is_some(), !output.has_errors());
    prop_assert!(output.diagnostics.iter().filter(|d| d.is_error()).count() <= 1);
    Ok(())
}

#[derive(Clone, Debug)]
enum ByteEdit {
    Insert(Index, u8),
    Delete(Index),
    Replace(Index, u8),
}

impl ByteEdit {
    fn apply(&self, bytes: &mut Vec<u8>) {
        match *self {
            ByteEdit::Insert(at, byte) => bytes.insert(at.index(bytes.len() + 1), byte),
            ByteEdit::Delete(at) if !bytes.is_empty() => {
                bytes.remove(at.index(bytes.len()));
            }
            ByteEdit::Replace(at, byte) if !bytes.is_empty() => {
                let at = at.index(bytes.len());
                bytes[at] = byte;
            }
            _ => {}
        }
    }
}

fn interesting_byte() -> impl Strategy<Value = u8> {
    prop_oneof![any::<u8>(), select(b"#=()[]{};~,-><$?!+*^.:/\" \n09ax".to_vec())]
}

fn byte_edit() -> impl Strategy<Value = ByteEdit> {
    prop_oneof![
        (any::<Index>(), interesting_byte()).prop_map(|(at, b)| ByteEdit::Insert(at, b)),
        any::<Index>().prop_map(ByteEdit::Delete),
        (any::<Index>(), interesting_byte()).prop_map(|(at, b)| ByteEdit::Replace(at, b)),
    ]
}

#[derive(Clone, Debug)]
enum TokenEdit {
    Delete(Index),
    Duplicate(Index),
    Swap(Index, Index),
    Insert(Index, String),
}

impl TokenEdit {
    fn apply(&self, tokens: &mut Vec<String>) {
        let len = tokens.len();
        match self {
            TokenEdit::Insert(at, text) => tokens.insert(at.index(len + 1), text.clone()),
            _ if len == 0 => {}
            TokenEdit::Delete(at) => {
                tokens.remove(at.index(len));
            }
            TokenEdit::Duplicate(at) => {
                let at = at.index(len);
                tokens.insert(at, tokens[at].clone());
            }
            TokenEdit::Swap(a, b) => tokens.swap(a.index(len), b.index(len)),
        }
    }
}

/// Symbols, keywords and a few other tokens worth inserting.
fn token_text() -> impl Strategy<Value = String> {
    let mut texts: Vec<String> = Sym::ALL.iter().map(|s| s.as_str().to_string()).collect();
    texts.extend(Keyword::ALL.iter().map(|k| k.as_str().to_string()));
    texts.extend(["x", "e", "0", "1", "99", "4294967295", "\"s\""].map(String::from));
    select(texts)
}

fn token_edit() -> impl Strategy<Value = TokenEdit> {
    prop_oneof![
        any::<Index>().prop_map(TokenEdit::Delete),
        any::<Index>().prop_map(TokenEdit::Duplicate),
        (any::<Index>(), any::<Index>()).prop_map(|(a, b)| TokenEdit::Swap(a, b)),
        (any::<Index>(), token_text()).prop_map(|(at, text)| TokenEdit::Insert(at, text)),
    ]
}

/// The source text of each token of a game.
fn token_texts(bytes: &[u8]) -> Vec<String> {
    let tokens = lex(bytes).map(|lexed| lexed.tokens).unwrap_or_default();
    tokens
        .iter()
        .map(|t| String::from_utf8_lossy(&bytes[t.span.start as usize..t.span.end as usize]).into_owned())
        .collect()
}

// 256 cases per test by default; set PROPTEST_CASES for longer runs.
proptest! {
    #[test]
    fn byte_mutations_never_panic(game in any::<Index>(), edits in prop::collection::vec(byte_edit(), 1..10)) {
        let Some(games) = corpus() else { return Ok(()) };
        let (name, original) = &games[game.index(games.len())];
        let mut bytes = original.clone();
        for edit in &edits {
            edit.apply(&mut bytes);
        }
        check_parse(name, &bytes)?;
    }

    #[test]
    fn token_mutations_never_panic(game in any::<Index>(), edits in prop::collection::vec(token_edit(), 1..10)) {
        let Some(games) = corpus() else { return Ok(()) };
        let (name, original) = &games[game.index(games.len())];
        let mut tokens = token_texts(original);
        for edit in &edits {
            edit.apply(&mut tokens);
        }
        check_parse(name, tokens.join(" ").as_bytes())?;
    }
}
