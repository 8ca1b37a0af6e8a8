//! `rbg fmt` for Simplified Boardgames files: one layout, whitespace changes only.
//!
//! The layout:
//! * `<<name>>` (the name without spaces around it), `<BOARD> width height`, every board row
//!   (`|..k..|`, no spaces inside), `<PIECES>`, every movement rule, `<GOALS>`, the turn limit
//!   (`100 &`) and every goal start a line at column 0;
//! * inside a rule or a goal the author's line breaks are kept, and a continuation line is
//!   indented by two spaces; everywhere else the parts of a line are joined;
//! * at most one blank line in a row is kept where a line break is;
//! * letters are written `(dx,dy,on)`, concatenation without spaces (`(1,0,e)^*(1,0,p)`),
//!   `+` with a space each side, ` &` after a rule or goal, goal squares as `0 4, 1 4`;
//! * comments stay where they are (line comments without trailing spaces).
//!
//! The result is lexed again and must give the same tokens and comments; formatting a
//! formatted file changes nothing (every decision depends on the tokens, the comments and the
//! line breaks kept, which the output reproduces).

use rbg_parser::source::Span;

use super::lex::{self, Comment, Kind, Role, Section, Token};
use crate::format::FormatError;

/// Spaces before a continuation line of a rule or a goal.
const INDENT: &str = "  ";

/// A token or a comment, with the line breaks before it.
enum Item<'t> {
    Token(&'t Token),
    Comment(&'t Comment),
}

/// The formatted text of an SBG file.
pub fn format(text: &str) -> Result<String, FormatError> {
    let lexed = lex::lex(text.as_bytes());
    if let Some(&span) = lexed.stray.first() {
        return Err(error_at("a character that is not ASCII (outside a comment): remove it first", span));
    }
    if let Some(span) = lexed.unterminated {
        return Err(error_at("an unterminated comment ('/*' without '*/')", span));
    }
    let out = layout(text, &lexed);
    let relexed = lex::lex(out.as_bytes());
    if written(&out, &relexed) != written(text, &lexed) {
        return Err(FormatError {
            message: "internal error: the formatted text would read differently; the file is left as it is"
                .into(),
            span: None,
        });
    }
    Ok(out)
}

/// What must survive formatting: each token's text (the name trimmed) and each comment.
fn written<'t>(text: &'t str, lexed: &lex::Lexed) -> Vec<&'t str> {
    let mut out: Vec<&str> =
        lexed.tokens.iter().map(|t| slice(text, t.span)).map(|s| s.trim_matches(' ')).collect();
    out.extend(lexed.comments.iter().map(|c| slice(text, c.span).trim_end()));
    out
}

fn slice(text: &str, span: Span) -> &str {
    text.get(span.start as usize..span.end as usize).unwrap_or("")
}

fn error_at(message: &str, span: Span) -> FormatError {
    FormatError { message: message.to_string(), span: Some(span) }
}

/// The tokens and comments in file order.
fn items(lexed: &lex::Lexed) -> Vec<Item<'_>> {
    let mut items: Vec<(u32, Item)> = lexed.tokens.iter().map(|t| (t.span.start, Item::Token(t))).collect();
    items.extend(lexed.comments.iter().map(|c| (c.span.start, Item::Comment(c))));
    items.sort_by_key(|(start, _)| *start);
    items.into_iter().map(|(_, item)| item).collect()
}

fn layout(text: &str, lexed: &lex::Lexed) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 8);
    let mut previous: Option<&Item> = None;
    let mut last_token: Option<&Token> = None;
    let mut at = 0usize;
    let items = items(lexed);
    for item in &items {
        let span = match item {
            Item::Token(t) => t.span,
            Item::Comment(c) => c.span,
        };
        let newlines = text[at..span.start as usize].bytes().filter(|&b| b == b'\n').count().min(2);
        at = span.end as usize;
        let breaks = match (previous, item) {
            (None, _) => 0,
            (Some(Item::Comment(c)), _) if c.line => newlines.max(1),
            (_, Item::Comment(_)) => newlines,
            (_, Item::Token(t)) if starts_line(t) => newlines.max(1),
            (_, Item::Token(t)) if keeps_breaks(t, last_token) => newlines,
            _ => 0,
        };
        if breaks > 0 {
            out.push_str(&"\n".repeat(breaks));
            let first = match item {
                Item::Token(t) => Some(*t),
                Item::Comment(_) => None,
            };
            if continues_statement(last_token, first) {
                out.push_str(INDENT);
            }
        } else if let Some(previous) = previous {
            if spaced(previous, item) {
                out.push(' ');
            }
        }
        match item {
            Item::Token(t) => {
                out.push_str(slice(text, t.span).trim_matches(' '));
                last_token = Some(t);
            }
            Item::Comment(c) => out.push_str(slice(text, c.span).trim_end()),
        }
        previous = Some(item);
    }
    if !out.is_empty() {
        out.push('\n');
    }
    out
}

/// Tokens that always start a line.
fn starts_line(token: &Token) -> bool {
    matches!(token.kind, Kind::Tag(_) | Kind::HeaderOpen)
        || matches!(token.role, Role::RowOpen | Role::RuleLetter | Role::TurnLimit | Role::GoalStart)
}

/// Whether a line break the author wrote before `token` is kept: inside a rule after its
/// first part, inside a goal after its piece.
fn keeps_breaks(token: &Token, last: Option<&Token>) -> bool {
    let Some(last) = last else { return false };
    match token.section {
        Section::Pieces => last.role != Role::RuleLetter && last.kind != Kind::Tag(Section::Pieces),
        Section::Goals => !matches!(last.role, Role::GoalStart) && last.kind != Kind::Tag(Section::Goals),
        Section::Header | Section::Board => false,
    }
}

/// Whether a line starting with `first` (a comment when `None`) continues a rule or a goal.
fn continues_statement(last: Option<&Token>, first: Option<&Token>) -> bool {
    let inside = last.is_some_and(|t| {
        matches!(t.section, Section::Pieces | Section::Goals)
            && !matches!(t.kind, Kind::Tag(_) | Kind::Punct(b'&'))
    });
    inside && !first.is_some_and(starts_line)
}

/// Whether one space separates two items on a line.
fn spaced(previous: &Item, item: &Item) -> bool {
    let (Item::Token(p), Item::Token(c)) = (previous, item) else { return true };
    let punct = |t: &Token, b: u8| t.kind == Kind::Punct(b);
    if matches!(c.kind, Kind::Name | Kind::HeaderClose) || p.kind == Kind::HeaderOpen {
        return false;
    }
    if matches!(p.role, Role::RowOpen | Role::Cell | Role::EmptyCell | Role::GoalStart)
        || matches!(c.role, Role::Cell | Role::EmptyCell | Role::RowClose)
    {
        return false;
    }
    if punct(c, b')') || punct(c, b',') || punct(p, b'(') || punct(p, b'^') || punct(c, b'^') {
        return false;
    }
    if punct(p, b',') {
        return p.depth == 0;
    }
    let ends_atom =
        punct(p, b')') || punct(p, b'*') || (p.kind == Kind::Number && p.section == Section::Pieces);
    !(punct(c, b'(') && ends_atom)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_messy_file_gets_the_layout() {
        let messy = "\n\n// head\n<< Tiny >>\n<BOARD>\n2 2 | . k |\n\n\n|K.|<PIECES> // rules\nK (0, 1,e) ( 1,0,e ) ^ * +\n(0,-1,e)&\n<GOALS> 10 & #K 0 & @k 1 1 ,0 0 &";
        let expected = "// head\n<<Tiny>>\n<BOARD> 2 2\n|.k|\n\n|K.|\n<PIECES> // rules\nK (0,1,e)(1,0,e)^* +\n  (0,-1,e) &\n<GOALS>\n10 &\n#K 0 &\n@k 1 1, 0 0 &\n";
        assert_eq!(format(messy).as_deref(), Ok(expected));
        assert_eq!(format(expected).as_deref(), Ok(expected));
    }

    #[test]
    fn what_cannot_be_formatted_says_where() {
        assert_eq!(format("<<G>> é").map_err(|e| e.span), Err(Some(Span::new(6, 8))));
        assert_eq!(format("<<G>> /* open").map_err(|e| e.span), Err(Some(Span::new(6, 8))));
        assert_eq!(format("").as_deref(), Ok(""));
    }
}
