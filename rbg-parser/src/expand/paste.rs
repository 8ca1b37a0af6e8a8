//! Token pasting with `~` (spec section 4.7): which two tokens glue into which token.
//!
//! Only the combinations of the spec's table are allowed: words (identifiers and keywords) with
//! words or numbers, numbers with numbers, and the symbol pairs that build the multi-character
//! symbols `->` `->>` `+>` `{?` `{!` `{$` `[$` `<=` `>=` `==` `!=`. The result of gluing two words
//! is a keyword when it spells one (`play ~ ers` is the keyword `players`).

use std::rc::Rc;

use crate::token::{Keyword, Sym, TokenKind};

/// Why two tokens cannot be pasted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum PasteError {
    /// The pair is not in the table of section 4.7.
    NotAToken,
    /// Two numbers whose digits together exceed `u32::MAX` (the reference crashes here; we report
    /// the lexer's error for over-large numbers).
    TooLargeInteger,
}

impl PasteError {
    /// The diagnostic text for pasting `left` and `right`.
    pub fn message(&self, left: &TokenKind, right: &TokenKind) -> String {
        match self {
            PasteError::NotAToken => format!("Pasting '{left}' and '{right}' doesn't create parseable token"),
            PasteError::TooLargeInteger => "Too large integer".to_string(),
        }
    }
}

/// The token made by gluing `left` and `right`.
pub(super) fn paste(left: &TokenKind, right: &TokenKind) -> Result<TokenKind, PasteError> {
    match (left, right) {
        (TokenKind::Number(l), TokenKind::Number(r)) => paste_numbers(*l, *r),
        (TokenKind::Sym(l), TokenKind::Sym(r)) => paste_symbols(*l, *r).map(TokenKind::Sym),
        _ => paste_words(left, right),
    }
}

/// Word followed by a word or a number: the spellings concatenated.
fn paste_words(left: &TokenKind, right: &TokenKind) -> Result<TokenKind, PasteError> {
    let left = word_spelling(left).ok_or(PasteError::NotAToken)?;
    let right = match right {
        // Numbers paste via their decimal value: `a ~ 007` is `a7`.
        TokenKind::Number(n) => n.to_string(),
        other => word_spelling(other).ok_or(PasteError::NotAToken)?.to_string(),
    };
    let word = format!("{left}{right}");
    Ok(match Keyword::from_word(&word) {
        Some(keyword) => TokenKind::Keyword(keyword),
        None => TokenKind::Ident(Rc::from(word)),
    })
}

fn word_spelling(kind: &TokenKind) -> Option<&str> {
    match kind {
        TokenKind::Ident(name) => Some(name),
        TokenKind::Keyword(keyword) => Some(keyword.as_str()),
        _ => None,
    }
}

/// The digits of `left` followed by the digits of `right`.
fn paste_numbers(left: u32, right: u32) -> Result<TokenKind, PasteError> {
    let digits = format!("{left}{right}");
    digits.parse::<u32>().map(TokenKind::Number).map_err(|_| PasteError::TooLargeInteger)
}

fn paste_symbols(left: Sym, right: Sym) -> Result<Sym, PasteError> {
    use Sym::*;
    Ok(match (left, right) {
        (Minus, Gt) => Arrow,
        (Arrow, Gt) => DoubleArrow,
        (Plus, Gt) => PlusArrow,
        (LBrace, Question) => LBraceQuestion,
        (LBrace, Bang) => LBraceBang,
        (LBrace, Dollar) => LBraceDollar,
        (LBracket, Dollar) => LBracketDollar,
        (Lt, Assign) => Le,
        (Gt, Assign) => Ge,
        (Assign, Assign) => Eq,
        (Bang, Assign) => Ne,
        _ => return Err(PasteError::NotAToken),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ident(name: &str) -> TokenKind {
        TokenKind::Ident(Rc::from(name))
    }

    /// Every symbol pair of the table, and nothing else among symbol pairs.
    #[test]
    fn symbol_table_is_exactly_the_spec_table() {
        let table = [
            ("-", ">", "->"),
            ("->", ">", "->>"),
            ("+", ">", "+>"),
            ("{", "?", "{?"),
            ("{", "!", "{!"),
            ("{", "$", "{$"),
            ("[", "$", "[$"),
            ("<", "=", "<="),
            (">", "=", ">="),
            ("=", "=", "=="),
            ("!", "=", "!="),
        ];
        let sym = |s: &str| Sym::from_spelling(s).unwrap();
        for left in Sym::ALL {
            for right in Sym::ALL {
                let expected = table
                    .iter()
                    .find(|(l, r, _)| sym(l) == left && sym(r) == right)
                    .map(|(_, _, result)| TokenKind::Sym(sym(result)));
                let got = paste(&TokenKind::Sym(left), &TokenKind::Sym(right)).ok();
                assert_eq!(got, expected, "pasting {left:?} and {right:?}");
            }
        }
    }

    #[test]
    fn words_and_numbers() {
        assert_eq!(paste(&ident("color"), &ident("Pawn")), Ok(ident("colorPawn")));
        assert_eq!(paste(&ident("outer"), &TokenKind::Number(1)), Ok(ident("outer1")));
        assert_eq!(paste(&ident("play"), &ident("ers")), Ok(TokenKind::Keyword(Keyword::Players)));
        assert_eq!(paste(&TokenKind::Keyword(Keyword::Board), &ident("s")), Ok(ident("boards")));
        assert_eq!(paste(&ident("x"), &TokenKind::Keyword(Keyword::Rules)), Ok(ident("xrules")));
        assert_eq!(paste(&TokenKind::Number(1), &TokenKind::Number(2)), Ok(TokenKind::Number(12)));
        assert_eq!(paste(&TokenKind::Number(0), &TokenKind::Number(7)), Ok(TokenKind::Number(7)));
        assert_eq!(paste(&TokenKind::Number(8), &ident("y")), Err(PasteError::NotAToken));
        assert_eq!(paste(&ident("a"), &TokenKind::Sym(Sym::Minus)), Err(PasteError::NotAToken));
        assert_eq!(paste(&TokenKind::Sym(Sym::Minus), &ident("a")), Err(PasteError::NotAToken));
        let string = TokenKind::Str(Rc::from("s"));
        assert_eq!(paste(&ident("a"), &string), Err(PasteError::NotAToken));
        assert_eq!(paste(&string, &ident("a")), Err(PasteError::NotAToken));
    }

    #[test]
    fn number_overflow_is_too_large_integer() {
        assert_eq!(
            paste(&TokenKind::Number(429496729), &TokenKind::Number(5)),
            Ok(TokenKind::Number(u32::MAX))
        );
        assert_eq!(
            paste(&TokenKind::Number(429496729), &TokenKind::Number(6)),
            Err(PasteError::TooLargeInteger)
        );
        assert_eq!(
            paste(&TokenKind::Number(u32::MAX), &TokenKind::Number(u32::MAX)),
            Err(PasteError::TooLargeInteger)
        );
    }
}
