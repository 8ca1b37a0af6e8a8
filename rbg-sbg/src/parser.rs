//! The parser of the grammar of the spec (section 2.1) and the validity rules of its section 2.3.
//!
//! A hand-written recursive descent over bytes. Whitespace and C-like comments (`//` to the end
//! of the line, `/* ... */`) are skipped between any two terminals, inside board rows too. A
//! syntax error stops the parse (one diagnostic); the validity checks that follow (row count and
//! lengths, one rule per piece type, coordinates in range, our size limits) report every
//! problem they find.
//!
//! Two readings of the spec's figure: the grammar's `'< <'` and `'> >'` are the two-character
//! brackets `<<`, `>>` (white space between the two characters is tolerated), and the empty
//! quotes after `<goals>`' numbers are the `&` separators of the example.
//!
//! Limits of ours, so that no input makes the reasoner slow or large (real games are far
//! below them): boards of at most [`MAX_SIDE`] squares a side, rules of at most
//! [`MAX_RULE_SIZE`] letters once every `^n` is unfolded, groups nested at most
//! [`MAX_NESTING`] deep, turn limits and counts of at most [`MAX_NUMBER`].

use rbg_parser::diag::Diagnostic;
use rbg_parser::source::Span;

use crate::syntax::{Goal, Letter, On, Piece, Power, Regex, Rule, SbgGame};

/// The most squares a board side may have.
pub const MAX_SIDE: u32 = 64;
/// The most letters a rule may have with every `^n` unfolded.
pub const MAX_RULE_SIZE: u64 = 1024;
/// The deepest nesting of parentheses in a rule.
pub const MAX_NESTING: usize = 48;
/// The largest turn limit, goal count or power.
pub const MAX_NUMBER: u64 = 1_000_000_000;

/// Parses and checks a description; `file` names it in the result.
pub fn parse(file: &str, text: &[u8]) -> Result<SbgGame, Vec<Diagnostic>> {
    let mut parser = Parser { text, pos: 0, depth: 0 };
    let game = parser.game(file).map_err(|d| vec![d])?;
    let errors = validate(&game);
    if errors.is_empty() {
        Ok(game)
    } else {
        Err(errors)
    }
}

type Parsed<T> = Result<T, Diagnostic>;

struct Parser<'a> {
    text: &'a [u8],
    pos: usize,
    /// Open parentheses of the rule being read.
    depth: usize,
}

fn span(start: usize, end: usize) -> Span {
    Span::new(start as u32, end as u32)
}

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.text.get(self.pos).copied()
    }

    /// Skips white space and comments; an unterminated `/*` is an error.
    fn skip_trivia(&mut self) -> Parsed<()> {
        loop {
            match (self.peek(), self.text.get(self.pos + 1)) {
                (Some(b), _) if b.is_ascii_whitespace() => self.pos += 1,
                (Some(b'/'), Some(b'/')) => {
                    while self.peek().is_some_and(|b| b != b'\n') {
                        self.pos += 1;
                    }
                }
                (Some(b'/'), Some(b'*')) => {
                    let start = self.pos;
                    match self.text[self.pos + 2..].windows(2).position(|w| w == b"*/") {
                        Some(offset) => self.pos += 2 + offset + 2,
                        None => {
                            return Err(Diagnostic::error(
                                "Unterminated comment: '/*' without a closing '*/'",
                                Some(span(start, start + 2)),
                            ))
                        }
                    }
                }
                _ => return Ok(()),
            }
        }
    }

    /// Skips trivia and returns the next byte without consuming it.
    fn next_byte(&mut self) -> Parsed<Option<u8>> {
        self.skip_trivia()?;
        Ok(self.peek())
    }

    /// An error "expected X" at the current position, naming what is there instead.
    fn expected(&self, what: &str) -> Diagnostic {
        let found = match self.peek() {
            None => "the end of the file".to_string(),
            Some(b) if b.is_ascii_graphic() => format!("'{}'", b as char),
            Some(b' ') => "a space".to_string(),
            Some(b) => format!("the byte 0x{b:02x}"),
        };
        let end = (self.pos + 1).min(self.text.len());
        Diagnostic::error(format!("Expected {what}, found {found}"), Some(span(self.pos, end)))
    }

    /// Skips trivia and consumes `literal`, or fails with "expected".
    fn expect(&mut self, literal: &str) -> Parsed<Span> {
        self.skip_trivia()?;
        if self.text[self.pos..].starts_with(literal.as_bytes()) {
            let start = self.pos;
            self.pos += literal.len();
            Ok(span(start, self.pos))
        } else {
            Err(self.expected(&format!("'{literal}'")))
        }
    }

    fn eat(&mut self, byte: u8) -> Parsed<bool> {
        if self.next_byte()? == Some(byte) {
            self.pos += 1;
            Ok(true)
        } else {
            Ok(false)
        }
    }

    /// A natural number (digits), at most [`MAX_NUMBER`].
    fn nat(&mut self, what: &str) -> Parsed<(u64, Span)> {
        self.skip_trivia()?;
        let start = self.pos;
        while self.peek().is_some_and(|b| b.is_ascii_digit()) {
            self.pos += 1;
        }
        if start == self.pos {
            return Err(self.expected(what));
        }
        let digits = &self.text[start..self.pos];
        let value = digits.iter().try_fold(0u64, |v, &d| {
            let v = v.checked_mul(10)?.checked_add(u64::from(d - b'0'))?;
            (v <= MAX_NUMBER).then_some(v)
        });
        match value {
            Some(v) => Ok((v, span(start, self.pos))),
            None => Err(Diagnostic::error(
                format!("Number too large (the limit is {MAX_NUMBER})"),
                Some(span(start, self.pos)),
            )),
        }
    }

    /// A signed integer: a natural number with an optional `-` right before it.
    fn int(&mut self, what: &str) -> Parsed<(i64, Span)> {
        self.skip_trivia()?;
        let start = self.pos;
        let negative = self.peek() == Some(b'-');
        if negative {
            self.pos += 1;
            if !self.peek().is_some_and(|b| b.is_ascii_digit()) {
                return Err(self.expected("a digit after '-'"));
            }
        }
        let (value, end) = self.nat(what)?;
        let value = value as i64;
        Ok((if negative { -value } else { value }, span(start, end.end as usize)))
    }

    fn game(&mut self, file: &str) -> Parsed<SbgGame> {
        self.expect("<")?;
        self.expect("<")?;
        let name_start = self.pos;
        while self.peek().is_some_and(|b| b.is_ascii_alphanumeric() || b == b' ') {
            self.pos += 1;
        }
        let name = String::from_utf8_lossy(&self.text[name_start..self.pos]).trim().to_string();
        if name.is_empty() {
            return Err(self.expected("the game's name (letters, digits and spaces)"));
        }
        if self.peek() != Some(b'>') {
            return Err(self.expected("'>>' after the game's name"));
        }
        self.expect(">")?;
        self.expect(">")?;

        self.expect("<BOARD>")?;
        let (width, width_span) = self.nat("the board's width")?;
        let (height, height_span) = self.nat("the board's height")?;
        check_side(width, width_span, "width")?;
        check_side(height, height_span, "height")?;
        let mut rows = Vec::new();
        while self.next_byte()? == Some(b'|') {
            rows.push(self.row()?);
        }
        if rows.len() != height as usize {
            let at = rows.last().map_or(height_span, |(_, s)| *s);
            return Err(Diagnostic::error(
                format!("The board has {} rows, the height says {height}", rows.len()),
                Some(at),
            )
            .with_label(height_span, "the height"));
        }
        let mut cells = Vec::with_capacity((width * height) as usize);
        let mut row_spans = Vec::new();
        for (row, row_span) in rows {
            if row.len() != width as usize {
                return Err(Diagnostic::error(
                    format!("This row has {} squares, the width says {width}", row.len()),
                    Some(row_span),
                )
                .with_label(width_span, "the width"));
            }
            cells.extend(row);
            row_spans.push(row_span);
        }

        self.expect("<PIECES>")?;
        let mut rules = Vec::new();
        while let Some(b) = self.next_byte()? {
            if !b.is_ascii_uppercase() {
                if b.is_ascii_lowercase() {
                    return Err(self.expected("an uppercase letter (rules are given for white pieces only)"));
                }
                break;
            }
            rules.push(self.rule()?);
        }

        self.expect("<GOALS>")?;
        let (turn_limit, turn_limit_span) = self.nat("the turn limit")?;
        self.expect("&")?;
        let mut goals = Vec::new();
        while let Some(b @ (b'#' | b'@')) = self.next_byte()? {
            goals.push(self.goal(b)?);
            self.expect("&")?;
        }
        if self.next_byte()?.is_some() {
            return Err(self.expected("a goal ('#' or '@') or the end of the file"));
        }
        Ok(SbgGame {
            file: file.to_string(),
            name,
            width: width as u32,
            height: height as u32,
            cells,
            row_spans,
            rules,
            turn_limit,
            turn_limit_span,
            goals,
        })
    }

    /// `| cells |`: dots and letters.
    fn row(&mut self) -> Parsed<(Vec<Option<Piece>>, Span)> {
        let start = self.pos;
        self.pos += 1; // the opening '|'
        let mut cells = Vec::new();
        loop {
            match self.next_byte()? {
                Some(b'|') => {
                    self.pos += 1;
                    return Ok((cells, span(start, self.pos)));
                }
                Some(b'.') => cells.push(None),
                Some(b) if b.is_ascii_alphabetic() => cells.push(Some(Piece::of_letter(b))),
                _ => return Err(self.expected("'.', a piece letter or '|'")),
            }
            self.pos += 1;
            if cells.len() > MAX_SIDE as usize {
                return Err(Diagnostic::error(
                    format!("Board row longer than {MAX_SIDE} squares"),
                    Some(span(start, self.pos)),
                ));
            }
        }
    }

    fn rule(&mut self) -> Parsed<Rule> {
        let start = self.pos;
        let kind = self.text[start];
        self.pos += 1;
        let regex = self.alternatives()?;
        self.expect("&")?;
        Ok(Rule { kind, regex, kind_span: span(start, start + 1), span: span(start, self.pos) })
    }

    /// `concat { '+' concat }`.
    fn alternatives(&mut self) -> Parsed<Regex> {
        let mut branches = vec![self.concatenation()?];
        while self.eat(b'+')? {
            branches.push(self.concatenation()?);
        }
        Ok(if branches.len() == 1 { branches.remove(0) } else { Regex::Alt(branches) })
    }

    /// One or more atoms (each starts with `(`).
    fn concatenation(&mut self) -> Parsed<Regex> {
        let mut parts = Vec::new();
        while self.next_byte()? == Some(b'(') {
            parts.push(self.atom()?);
        }
        match parts.len() {
            0 => Err(self.expected("'(' (a letter or a group)")),
            1 => Ok(parts.remove(0)),
            _ => Ok(Regex::Concat(parts)),
        }
    }

    /// `'(' int ',' int ',' on ')'` or `'(' regexp ')'`, then an optional power.
    fn atom(&mut self) -> Parsed<Regex> {
        let open = self.pos;
        self.pos += 1;
        let inner = if self.next_byte()?.is_some_and(|b| b == b'-' || b.is_ascii_digit()) {
            Regex::Letter(self.letter(open)?)
        } else {
            self.depth += 1;
            if self.depth > MAX_NESTING {
                return Err(Diagnostic::error(
                    format!("Groups nested more than {MAX_NESTING} deep"),
                    Some(span(open, open + 1)),
                ));
            }
            let inner = self.alternatives()?;
            self.depth -= 1;
            if !self.eat(b')')? {
                return Err(self
                    .expected("')' or '+'")
                    .with_label(span(open, open + 1), "the group opened here"));
            }
            inner
        };
        if !self.eat(b'^')? {
            return Ok(inner);
        }
        if self.eat(b'*')? {
            return Ok(Regex::Power(Box::new(inner), Power::Star));
        }
        let (n, _) = self.nat("a number or '*' after '^'")?;
        Ok(Regex::Power(Box::new(inner), Power::Times(n as u32)))
    }

    /// The rest of `(dx, dy, on)` after the `(` at `open`.
    fn letter(&mut self, open: usize) -> Parsed<Letter> {
        let (dx, _) = self.int("the letter's dx")?;
        self.expect(",")?;
        let (dy, _) = self.int("the letter's dy")?;
        self.expect(",")?;
        let on = match self.next_byte()? {
            Some(b'e') => On::Empty,
            Some(b'p') => On::Opponent,
            Some(b'w') => On::Own,
            _ => return Err(self.expected("'e', 'p' or 'w'")),
        };
        self.pos += 1;
        self.expect(")")?;
        // Both are at most MAX_NUMBER in size, so they fit an i32.
        Ok(Letter { dx: dx as i32, dy: dy as i32, on, span: span(open, self.pos) })
    }

    /// `#X n` or `@X x y {, x y}`; `kind` is the `#` or `@` at the cursor.
    fn goal(&mut self, kind: u8) -> Parsed<Goal> {
        let start = self.pos;
        self.pos += 1;
        let letter = match self.next_byte()? {
            Some(b) if b.is_ascii_alphabetic() => b,
            _ => return Err(self.expected("a piece letter")),
        };
        self.pos += 1;
        let piece = Piece::of_letter(letter);
        if kind == b'#' {
            let (count, _) = self.nat("the number of pieces")?;
            return Ok(Goal::Count { piece, count, span: span(start, self.pos) });
        }
        let mut squares = Vec::new();
        loop {
            let (x, _) = self.nat("a column")?;
            let (y, _) = self.nat("a row")?;
            squares.push((x as u32, y as u32));
            if !self.eat(b',')? {
                break;
            }
        }
        Ok(Goal::Reach { piece, squares, span: span(start, self.pos) })
    }
}

fn check_side(value: u64, at: Span, what: &str) -> Parsed<()> {
    if (1..=u64::from(MAX_SIDE)).contains(&value) {
        Ok(())
    } else {
        Err(Diagnostic::error(format!("The board's {what} must be between 1 and {MAX_SIDE}"), Some(at)))
    }
}

/// The checks of section 2.3 beyond the grammar, and our size limits.
fn validate(game: &SbgGame) -> Vec<Diagnostic> {
    let mut errors = Vec::new();
    for (i, rule) in game.rules.iter().enumerate() {
        if let Some(first) = game.rules[..i].iter().find(|r| r.kind == rule.kind) {
            errors.push(
                Diagnostic::error(
                    format!("A second movement rule for piece '{}'", rule.kind as char),
                    Some(rule.kind_span),
                )
                .with_label(first.kind_span, "the first rule")
                .with_note("each piece type has at most one rule (it applies to both colours)"),
            );
        }
        let size = rule.regex.unfolded_size();
        if size > MAX_RULE_SIZE {
            errors.push(Diagnostic::error(
                format!("The rule of '{}' has {size} letters with its powers unfolded; the limit is {MAX_RULE_SIZE}", rule.kind as char),
                Some(rule.kind_span),
            ));
        }
        let (width, height) = (game.width as i32, game.height as i32);
        rule.regex.for_each_letter(&mut |letter| {
            if letter.dx.abs() >= width || letter.dy.abs() >= height {
                errors.push(
                    Diagnostic::error(
                        format!("Letter ({}, {}) leaves any {width}x{height} board", letter.dx, letter.dy),
                        Some(letter.span),
                    )
                    .with_note(
                        "dx must lie strictly between -width and width, dy between -height and height",
                    ),
                );
            }
        });
    }
    for goal in &game.goals {
        if let Goal::Reach { squares, span, .. } = goal {
            for &(x, y) in squares {
                if x >= game.width || y >= game.height {
                    errors.push(
                        Diagnostic::error(format!("Square ({x}, {y}) is not on the board"), Some(*span))
                            .with_note("goal squares are absolute: 0 0 is the bottom left corner"),
                    );
                }
            }
        }
    }
    errors
}

#[cfg(test)]
mod tests {
    use super::*;

    fn errors(text: &str) -> Vec<String> {
        match parse("t.sbg", text.as_bytes()) {
            Ok(_) => Vec::new(),
            Err(ds) => ds.into_iter().map(|d| d.message).collect(),
        }
    }

    const TINY: &str =
        "<<Tiny>> <BOARD> 2 2 |.k| |K.| <PIECES> K (0,1,e) + (1,0,e)^* & <GOALS> 10 & #K 0 & @K 1 1 &";

    #[test]
    fn a_small_game_is_read() {
        let game = parse("t.sbg", TINY.as_bytes()).unwrap();
        assert_eq!((game.name.as_str(), game.width, game.height, game.turn_limit), ("Tiny", 2, 2, 10));
        assert_eq!(game.rules.len(), 1);
        assert_eq!(game.goals.len(), 2);
        assert_eq!(game.cells[1], Some(Piece::of_letter(b'k')));
    }

    #[test]
    fn comments_are_skipped_anywhere() {
        let text = "// head\n<</*x*/<</*y*/"
            .replace("<</*x*/<</*y*/", "<<T>>/* c */<BOARD> 1 /*a*/ 1 |/*b*/.//c\n| <PIECES> <GOALS> 1 & ");
        assert_eq!(errors(&text), Vec::<String>::new());
    }

    #[test]
    fn validity_rules_are_reported() {
        assert_eq!(
            errors("<<T>> <BOARD> 2 2 |..| <PIECES> <GOALS> 1 &"),
            ["The board has 1 rows, the height says 2"]
        );
        assert_eq!(
            errors("<<T>> <BOARD> 2 1 |...| <PIECES> <GOALS> 1 &"),
            ["This row has 3 squares, the width says 2"]
        );
        assert_eq!(
            errors("<<T>> <BOARD> 2 1 |..| <PIECES> K (0,0,w) & K (0,0,w) & <GOALS> 1 &"),
            ["A second movement rule for piece 'K'"]
        );
        assert_eq!(
            errors("<<T>> <BOARD> 2 1 |..| <PIECES> K (2,0,e) & <GOALS> 1 & @K 0 1 &"),
            ["Letter (2, 0) leaves any 2x1 board", "Square (0, 1) is not on the board"]
        );
        assert_eq!(
            errors("<<T>> <BOARD> 1 1 |.| /* open"),
            ["Unterminated comment: '/*' without a closing '*/'"]
        );
        assert_eq!(
            errors("<<T>> <BOARD> 1 1 |.| <PIECES> k (0,0,w) &"),
            ["Expected an uppercase letter (rules are given for white pieces only), found 'k'"]
        );
    }

    #[test]
    fn oversized_inputs_are_errors_not_work() {
        assert!(errors("<<T>> <BOARD> 65 1").iter().any(|m| m.contains("between 1 and 64")));
        let nested = format!(
            "<<T>> <BOARD> 1 1 |.| <PIECES> K {}(0,0,w){} & <GOALS> 1 &",
            "(".repeat(100),
            ")".repeat(100)
        );
        assert!(errors(&nested)[0].starts_with("Groups nested"));
        let big = "<<T>> <BOARD> 1 1 |.| <PIECES> K (((0,0,w)^100)^100) & <GOALS> 1 &";
        assert!(errors(big)[0].contains("10000 letters"));
        assert!(errors("<<T>> <BOARD> 99999999999999999999")
            .iter()
            .any(|m| m.starts_with("Number too large")));
    }
}
