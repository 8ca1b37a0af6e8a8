//! `rbg fmt`: one layout for high-level RBG.
//!
//! The style keeps the author's line structure and normalises everything within it:
//! * every directive starts a line at column 0; at most one blank line in a row is kept;
//! * a continuation line of a directive is indented by four spaces per open bracket plus one
//!   level (a line that starts by closing a bracket is indented as the line that opened it);
//! * within a line, tokens are separated by one space except after an opening bracket, before
//!   a closing one, before `,` `;` `:`, around `~` and `^`, after `->`, before a postfix `*`,
//!   after a sign, and where the author joined a name or a closing bracket to a following
//!   opening bracket (`f(x)`, `{a}[b]`) or separated them;
//! * comments are kept where they are, line comments with one space before them;
//! * consecutive lines that are each one board row (`[a, b, c]`, perhaps followed by `)`) with
//!   the same number of cells are aligned in columns: each cell is padded to its column's width.
//!
//! Only whitespace changes, and never between two tokens that would read differently joined
//! (`- >` is not `->`, `a b` is not `ab`). The result is lexed again and must give the same
//! tokens, so formatting cannot change what a file means. Formatting a formatted file changes
//! nothing (the rules above depend only on the tokens, the line breaks and the spaces they keep).

use rbg_parser::lexer;
use rbg_parser::source::Span;
use rbg_parser::token::{Sym, Token, TokenKind};

/// Why a file cannot be formatted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FormatError {
    pub message: String,
    pub span: Option<Span>,
}

/// Spaces per indentation level.
const INDENT: usize = 4;

/// One thing to place: a token or a comment, with the layout it had.
#[derive(Debug)]
struct Item<'t> {
    text: &'t str,
    /// The token, or `None` for a comment.
    token: Option<&'t TokenKind>,
    line_comment: bool,
    /// Line breaks between the previous item and this one.
    newlines: usize,
    /// Whitespace before it (on its line).
    spaced: bool,
}

/// The formatted text of `text` in `language` (SBG: [`crate::sbg::format`]).
pub fn format_as(language: crate::Language, text: &str) -> Result<String, FormatError> {
    match language {
        crate::Language::Rbg => format(text),
        crate::Language::Sbg => crate::sbg::format::format(text),
    }
}

/// The formatted text of `text` (high-level RBG).
pub fn format(text: &str) -> Result<String, FormatError> {
    let lexed = lexer::lex(text.as_bytes()).map_err(|d| FormatError { message: d.message, span: d.span })?;
    let items = items(text, &lexed.tokens)?;
    let out = align_board_rows(&layout(&items));
    let relexed = lexer::lex(out.as_bytes()).map_err(|d| FormatError { message: d.message, span: None })?;
    let same = relexed.tokens.len() == lexed.tokens.len()
        && relexed.tokens.iter().zip(&lexed.tokens).all(|(a, b)| a.kind == b.kind);
    if !same {
        return Err(FormatError {
            message: "internal error: the formatted text would read differently; the file is left as it is"
                .into(),
            span: None,
        });
    }
    Ok(out)
}

/// The tokens and the comments between them, in order.
fn items<'t>(text: &'t str, tokens: &'t [Token]) -> Result<Vec<Item<'t>>, FormatError> {
    let mut out = Vec::with_capacity(tokens.len() * 2);
    let mut at = 0usize;
    for token in tokens {
        let (start, end) = (token.span.start as usize, token.span.end as usize);
        let (newlines, spaced) = gap(text, at, start, &mut out)?;
        let written =
            text.get(start..end).ok_or_else(|| error_at("a token is not valid text", token.span))?;
        out.push(Item { text: written, token: Some(&token.kind), line_comment: false, newlines, spaced });
        at = end;
    }
    gap(text, at, text.len(), &mut out)?;
    Ok(out)
}

/// Reads the comments of `text[from..to]` (which holds no token) into `out`; returns the line
/// breaks and whether there was whitespace after the last comment.
fn gap<'t>(
    text: &'t str,
    from: usize,
    to: usize,
    out: &mut Vec<Item<'t>>,
) -> Result<(usize, bool), FormatError> {
    let bytes = text.as_bytes();
    let (mut newlines, mut spaced) = (0, false);
    let mut i = from;
    while i < to {
        let rest = &bytes[i..to];
        if rest.starts_with(b"//") || rest.starts_with(b"/*") {
            let line = rest.starts_with(b"//");
            let len = if line {
                rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len())
            } else {
                rest.windows(2).skip(2).position(|w| w == b"*/").map_or(rest.len(), |n| n + 4)
            };
            let comment = &text[i..i + len];
            let comment = if line { comment.trim_end() } else { comment };
            out.push(Item { text: comment, token: None, line_comment: line, newlines, spaced });
            (newlines, spaced) = (0, false);
            i += len;
        } else if rest[0] == b'\n' {
            newlines += 1;
            spaced = true;
            i += 1;
        } else if rest[0].is_ascii_whitespace() || rest[0] == 0x0b {
            spaced = true;
            i += 1;
        } else {
            let end = (i + 1..=to).find(|&e| text.is_char_boundary(e)).unwrap_or(to);
            let message = format!(
                "stray character '{}' (the parser ignores it): remove it before formatting",
                text.get(i..end).unwrap_or("?").escape_debug()
            );
            return Err(error_at(&message, Span::new(i as u32, end as u32)));
        }
    }
    Ok((newlines, spaced))
}

fn error_at(message: &str, span: Span) -> FormatError {
    FormatError { message: message.to_string(), span: Some(span) }
}

/// Places the items (see the module documentation for the rules).
fn layout(items: &[Item]) -> String {
    let mut out = String::with_capacity(items.iter().map(|i| i.text.len() + 2).sum());
    let mut state = LineState::default();
    let mut previous: Option<&Item> = None;
    for (n, item) in items.iter().enumerate() {
        let is_hash = item.token.is_some_and(|k| k.is_sym(Sym::Hash));
        if is_hash {
            state.depth = 0;
            state.arithmetic.clear();
            state.in_directive = true;
        }
        let mut newlines = item.newlines.min(2);
        if previous.is_some_and(|p| p.line_comment) || (is_hash && previous.is_some()) {
            newlines = newlines.max(1);
        }
        if previous.is_none() {
            newlines = 0;
        }
        if newlines > 0 {
            out.push_str(&"\n".repeat(newlines));
            out.push_str(&" ".repeat(indent(items, n, &state)));
        } else if let Some(previous) = previous {
            if state.space_between(previous, item) {
                out.push(' ');
            }
        }
        out.push_str(item.text);
        if let Some(kind) = item.token {
            state.after(kind);
        }
        previous = Some(item);
    }
    // A file ending inside an unterminated string or comment keeps its end as it is: a line
    // break added there would become part of it.
    if !out.is_empty() && !previous.is_some_and(is_open_ended) {
        out.push('\n');
    }
    out
}

/// An unterminated string or block comment (it runs to the end of the file).
fn is_open_ended(item: &Item) -> bool {
    match item.token {
        Some(TokenKind::Str(_)) => item.text.len() < 2 || !item.text.ends_with('"'),
        Some(_) => false,
        None => !item.line_comment && (item.text.len() < 4 || !item.text.ends_with("*/")),
    }
}

/// What the layout knows at a point: brackets open in the current directive, which of them
/// hold arithmetic (`[$`, `{$`), and the token before the last (to tell a sign from `+`/`-`).
#[derive(Default)]
struct LineState {
    depth: usize,
    arithmetic: Vec<bool>,
    in_directive: bool,
    /// The last token placed is a sign (a `+` or `-` where an operand is expected).
    last_was_sign: bool,
    /// An operand may start here (start of a bracket, after an operator).
    expects_operand: bool,
}

impl LineState {
    fn in_arithmetic(&self) -> bool {
        self.arithmetic.last().copied().unwrap_or(false)
    }

    fn after(&mut self, kind: &TokenKind) {
        let sign = self.expects_operand && (kind.is_sym(Sym::Plus) || kind.is_sym(Sym::Minus));
        self.last_was_sign = sign;
        self.expects_operand = match kind {
            TokenKind::Sym(sym) => is_opener(*sym) || is_binary(*sym) || *sym == Sym::Hash,
            _ => false,
        };
        if let TokenKind::Sym(sym) = kind {
            if is_opener(*sym) {
                self.depth += 1;
                self.arithmetic.push(matches!(sym, Sym::LBracketDollar | Sym::LBraceDollar));
            } else if is_closer(*sym) {
                self.depth = self.depth.saturating_sub(1);
                self.arithmetic.pop();
            }
        }
    }

    fn space_between(&self, previous: &Item, item: &Item) -> bool {
        let (Some(a), Some(b)) = (previous.token, item.token) else { return true };
        if must_separate(previous.text, item.text) {
            return true;
        }
        if self.last_was_sign && matches!(b, TokenKind::Number(_)) {
            return false;
        }
        spaced_pair(a, b, self.in_arithmetic()).unwrap_or(item.spaced)
    }
}

/// Whether two tokens get a space between them on one line; `None`: as the author wrote it.
pub(crate) fn spaced_pair(a: &TokenKind, b: &TokenKind, arithmetic: bool) -> Option<bool> {
    use TokenKind::Sym as S;
    let rule = match (a, b) {
        (_, S(Sym::RParen | Sym::RBracket | Sym::RBrace | Sym::Comma | Sym::Semicolon | Sym::Colon)) => false,
        (S(Sym::Hash), _) => false,
        (S(Sym::LBracketDollar | Sym::LBraceDollar), _) => true,
        (S(sym), _) if is_opener(*sym) => false,
        (S(Sym::Tilde | Sym::Caret | Sym::Arrow), _) | (_, S(Sym::Tilde | Sym::Caret)) => false,
        (_, S(Sym::Star)) if !arithmetic => false,
        (TokenKind::Ident(_) | TokenKind::Keyword(_), S(Sym::LParen)) => return None,
        (S(closer), S(opener)) if is_closer(*closer) && is_opener(*opener) => return None,
        _ => true,
    };
    Some(rule)
}

/// Whether joining the two texts would lex differently (a longer word, number, symbol or a
/// comment).
fn must_separate(a: &str, b: &str) -> bool {
    let (Some(last), Some(first)) = (a.chars().last(), b.chars().next()) else { return false };
    if last.is_ascii_alphanumeric() && first.is_ascii_alphanumeric() {
        return true;
    }
    matches!(
        (last, first),
        ('-' | '+', '>')
            | ('>', '>')
            | ('{', '?' | '!' | '$')
            | ('[', '$')
            | ('=' | '!' | '<' | '>', '=')
            | ('/', '/' | '*')
    )
}

fn is_opener(sym: Sym) -> bool {
    matches!(
        sym,
        Sym::LParen
            | Sym::LBracket
            | Sym::LBrace
            | Sym::LBracketDollar
            | Sym::LBraceDollar
            | Sym::LBraceQuestion
            | Sym::LBraceBang
    )
}

fn is_closer(sym: Sym) -> bool {
    matches!(sym, Sym::RParen | Sym::RBracket | Sym::RBrace)
}

fn is_binary(sym: Sym) -> bool {
    matches!(
        sym,
        Sym::Comma
            | Sym::Semicolon
            | Sym::Assign
            | Sym::Lt
            | Sym::Le
            | Sym::Gt
            | Sym::Ge
            | Sym::Eq
            | Sym::Ne
            | Sym::Plus
            | Sym::Minus
            | Sym::Star
            | Sym::Slash
            | Sym::Colon
    )
}

/// The indentation of a line starting with item `n`.
fn indent(items: &[Item], n: usize, state: &LineState) -> usize {
    let item = &items[n];
    if item.token.is_some_and(|k| k.is_sym(Sym::Hash)) || !state.in_directive {
        return 0;
    }
    if item.token.is_none() && state.depth == 0 && comments_lead_to_directive(&items[n..]) {
        return 0;
    }
    let closes = item.token.is_some_and(|k| matches!(k, TokenKind::Sym(s) if is_closer(*s)));
    INDENT * (1 + state.depth - usize::from(closes && state.depth > 0))
}

/// Whether the comments starting `items` are followed by a directive (they introduce it).
fn comments_lead_to_directive(items: &[Item]) -> bool {
    match items.iter().find(|i| i.token.is_some()) {
        Some(item) => item.token.is_some_and(|k| k.is_sym(Sym::Hash)),
        None => true,
    }
}

/// Tokens as one line of text, spaced as the formatter spaces them (for showing expansions).
pub fn join_tokens<'k>(kinds: impl IntoIterator<Item = &'k TokenKind>) -> String {
    let mut out = String::new();
    let mut previous: Option<(&TokenKind, String)> = None;
    let mut arithmetic = Vec::new();
    for kind in kinds {
        let text = kind.to_string();
        if let Some((a, a_text)) = &previous {
            let spaced = must_separate(a_text, &text)
                || spaced_pair(a, kind, arithmetic.last().copied().unwrap_or(false)).unwrap_or(true);
            if spaced {
                out.push(' ');
            }
        }
        out.push_str(&text);
        if let TokenKind::Sym(sym) = kind {
            if is_opener(*sym) {
                arithmetic.push(matches!(sym, Sym::LBracketDollar | Sym::LBraceDollar));
            } else if is_closer(*sym) {
                arithmetic.pop();
            }
        }
        previous = Some((kind, text));
    }
    out
}

/// One line that is a board row: indentation, cells, and what follows the `]`.
struct RowLine<'a> {
    indent: &'a str,
    cells: Vec<&'a str>,
    after: &'a str,
}

/// Reads `line` as a board row: `[`, two or more names or holes separated by `,`, `]`, then
/// only `)`s. (One cell would also match an off action such as `[empty]`.)
fn row_line(line: &str) -> Option<RowLine<'_>> {
    let body = line.trim_start();
    let indent = &line[..line.len() - body.len()];
    let inner = body.strip_prefix('[')?;
    let close = inner.find(']')?;
    let after = &inner[close + 1..];
    if !after.bytes().all(|b| b == b')') {
        return None;
    }
    let cells: Vec<&str> = inner[..close].split(',').map(str::trim).collect();
    let names = cells.iter().all(|c| c.bytes().all(|b| b.is_ascii_alphanumeric()));
    (names && cells.len() >= 2).then_some(RowLine { indent, cells, after })
}

/// Aligns runs of board rows in columns (see the module documentation).
fn align_board_rows(text: &str) -> String {
    let lines: Vec<&str> = text.split('\n').collect();
    let rows: Vec<Option<RowLine>> = lines.iter().map(|l| row_line(l)).collect();
    let mut out: Vec<String> = Vec::with_capacity(lines.len());
    let mut i = 0;
    while i < lines.len() {
        let Some(first) = &rows[i] else {
            out.push(lines[i].to_string());
            i += 1;
            continue;
        };
        let same_shape = |r: &Option<RowLine>| r.as_ref().is_some_and(|r| r.cells.len() == first.cells.len());
        let run = rows[i..].iter().take_while(|r| same_shape(r)).count();
        let run_rows: Vec<&RowLine> = rows[i..i + run].iter().flatten().collect();
        let widths: Vec<usize> = (0..first.cells.len())
            .map(|c| run_rows.iter().map(|r| r.cells[c].len()).max().unwrap_or(0))
            .collect();
        for row in &run_rows {
            let cells: Vec<String> = if run > 1 {
                row.cells.iter().zip(&widths).map(|(cell, &w)| format!("{cell:<w$}")).collect()
            } else {
                row.cells.iter().map(|cell| cell.to_string()).collect()
            };
            out.push(format!("{}[{}]{}", row.indent, cells.join(", "), row.after));
        }
        i += run;
    }
    out.join("\n")
}
