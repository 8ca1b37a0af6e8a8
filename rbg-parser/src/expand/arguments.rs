//! Argument boundaries of every possible macro call, computed once per file (spec section 4.5).
//!
//! Splitting `f(a; b; c)` means finding the `;` and `)` at the parenthesis depth of the opening
//! `(`. Doing that by scanning on every call is quadratic for nested calls (`f(f(f(…)))` rescans
//! each inner list once per enclosing call, and arguments are re-expanded on every use). Since
//! arguments always have balanced round parentheses, these boundaries are the same whichever
//! token string the call is read in, so one pass over the file finds them all: for each `(` and
//! `;`, the `;` or `)` that ends the argument starting after it.

use crate::token::{Sym, Token};

const NONE: u32 = u32::MAX;

#[derive(Debug)]
pub(super) struct ArgumentBounds {
    /// For a `(` or `;` token: the index of the `;` or `)` closing the argument after it, at the
    /// same depth within the same directive; [`NONE`] if there is none.
    next: Vec<u32>,
}

impl ArgumentBounds {
    pub fn new(tokens: &[Token]) -> Self {
        let mut next = vec![NONE; tokens.len()];
        // The `(` or `;` that opened the current argument, one per open parenthesis.
        let mut open: Vec<usize> = Vec::new();
        for (at, token) in tokens.iter().enumerate() {
            if token.is_sym(Sym::Hash) {
                // Bodies never cross `#`.
                open.clear();
            } else if token.is_sym(Sym::LParen) {
                open.push(at);
            } else if token.is_sym(Sym::Semicolon) {
                if let Some(opener) = open.last_mut() {
                    next[*opener] = at as u32;
                    *opener = at;
                }
            } else if token.is_sym(Sym::RParen) {
                if let Some(opener) = open.pop() {
                    next[opener] = at as u32;
                }
            }
        }
        ArgumentBounds { next }
    }

    /// The arguments of the list whose `(` is at `open`, in a token string ending before `end`:
    /// their index ranges and the index after the closing `)`. `None` if the list is not closed
    /// within the string.
    pub fn split(&self, tokens: &[Token], open: usize, end: usize) -> Option<(Vec<(usize, usize)>, usize)> {
        let mut arguments = Vec::new();
        let mut opener = open;
        loop {
            let closer = *self.next.get(opener)? as usize;
            if closer >= end {
                return None;
            }
            arguments.push((opener + 1, closer));
            if tokens.get(closer)?.is_sym(Sym::RParen) {
                return Some((arguments, closer + 1));
            }
            opener = closer;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexer::lex;

    fn split(text: &str, open: usize, end: Option<usize>) -> Option<(Vec<(usize, usize)>, usize)> {
        let tokens = lex(text.as_bytes()).unwrap().tokens;
        let bounds = ArgumentBounds::new(&tokens);
        bounds.split(&tokens, open, end.unwrap_or(tokens.len()))
    }

    #[test]
    fn arguments_end_at_semicolons_and_the_closing_paren_of_their_depth() {
        // Token indices: f=0 (=1 a=2 ;=3 (=4 b=5 ;=6 c=7 )=8 {=9 ;=10 }=11 )=12
        let text = "f ( a ; ( b ; c ) { ; } )";
        assert_eq!(split(text, 1, None), Some((vec![(2, 3), (4, 10), (11, 12)], 13)));
        // The inner list, as read inside the second argument.
        assert_eq!(split(text, 4, Some(9)), Some((vec![(5, 6), (7, 8)], 9)));
        assert_eq!(split("f ( )", 1, None), Some((vec![(2, 2)], 3)));
        assert_eq!(split("f ( ; )", 1, None), Some((vec![(2, 2), (3, 3)], 4)));
    }

    #[test]
    fn unclosed_lists_and_string_ends() {
        assert_eq!(split("f ( a ; b", 1, None), None);
        // Closed only after the end of the string being read.
        assert_eq!(split("f ( a ) b", 1, Some(3)), None);
        // A `#` ends every open list.
        assert_eq!(split("f ( a # b )", 1, None), None);
    }
}
