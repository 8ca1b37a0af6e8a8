//! The tokens of a Simplified Boardgames file, each with the part it plays, for an editor.
//!
//! rbg-sbg's parser reads bytes and stops at the first syntax error; an editor needs every
//! token of a file that may be half written. This lexer follows the same lexical rules
//! (white space and `//`, `/* */` comments between any two terminals; every letter a token of
//! its own; a `-` joined to the digits after it) and then gives each token its role from the
//! section it stands in, so that an unfinished file still has its pieces, rules and goals.

use rbg_parser::source::Span;

/// What a token is.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `<<`.
    HeaderOpen,
    /// The game's name between `<<` and `>>` (as written, spaces included).
    Name,
    /// `>>`.
    HeaderClose,
    /// `<BOARD>`, `<PIECES>` or `<GOALS>`.
    Tag(Section),
    /// Digits, perhaps after a `-`.
    Number,
    /// One ASCII letter.
    Letter(u8),
    /// Any other single character: `( ) , + ^ * & | . # @` and anything unexpected.
    Punct(u8),
}

/// The sections of a file, in their order.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Section {
    Header,
    Board,
    Pieces,
    Goals,
}

impl Section {
    pub fn tag(self) -> &'static str {
        match self {
            Section::Header => "<<",
            Section::Board => "<BOARD>",
            Section::Pieces => "<PIECES>",
            Section::Goals => "<GOALS>",
        }
    }
}

/// The part a token plays.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Role {
    /// A piece letter on the board.
    Cell,
    /// A `.` on the board.
    EmptyCell,
    /// The letter a movement rule starts with.
    RuleLetter,
    /// `e`, `p` or `w` in a letter `(dx, dy, on)`.
    On,
    /// The piece letter after `#` or `@` in a goal.
    GoalPiece,
    /// The `|` that opens a board row.
    RowOpen,
    /// The `|` that closes a board row.
    RowClose,
    /// The turn limit (the first number of the goals).
    TurnLimit,
    /// The `#` or `@` that starts a goal.
    GoalStart,
    Other,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Token {
    pub kind: Kind,
    pub span: Span,
    pub section: Section,
    pub role: Role,
    /// Open parentheses before this token in its rule (a `(` counts itself, a `)` does not).
    pub depth: u32,
}

impl Token {
    /// A piece letter (on the board, starting a rule or in a goal).
    pub fn is_piece(&self) -> bool {
        matches!(self.role, Role::Cell | Role::RuleLetter | Role::GoalPiece)
    }

    /// The uppercase letter of the piece type, for piece letters.
    pub fn piece_kind(&self) -> Option<u8> {
        match self.kind {
            Kind::Letter(b) if self.is_piece() => Some(b.to_ascii_uppercase()),
            _ => None,
        }
    }
}

/// A comment, with its span.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Comment {
    pub span: Span,
    /// `//` to the end of the line (else `/* */`).
    pub line: bool,
}

/// The lexed file.
#[derive(Clone, Debug, Default)]
pub struct Lexed {
    pub tokens: Vec<Token>,
    pub comments: Vec<Comment>,
    /// Where an unterminated `/*` starts, if there is one (it runs to the end of the file).
    pub unterminated: Option<Span>,
    /// Bytes that are not ASCII (no token of the language contains one), at most one per run.
    pub stray: Vec<Span>,
}

/// Lexes any bytes; never fails.
pub fn lex(text: &[u8]) -> Lexed {
    let mut out = Lexed::default();
    let mut at = 0;
    while at < text.len() {
        let after_open =
            out.tokens.last().is_some_and(|t| t.kind == Kind::HeaderOpen && t.span.end as usize == at);
        // The parser reads the name right after `<<`: letters, digits and spaces.
        let name = text[at..].iter().take_while(|b| b.is_ascii_alphanumeric() || **b == b' ').count();
        if after_open && name > 0 {
            out.tokens.push(Token {
                kind: Kind::Name,
                span: span(at, at + name),
                section: Section::Header,
                role: Role::Other,
                depth: 0,
            });
            at += name;
            continue;
        }
        at = match (text[at], text.get(at + 1)) {
            (b, _) if b.is_ascii_whitespace() => at + 1,
            (b'/', Some(b'/')) => {
                let end = text[at..].iter().position(|&b| b == b'\n').map_or(text.len(), |n| at + n);
                out.comments.push(Comment { span: span(at, end), line: true });
                end
            }
            (b'/', Some(b'*')) => match text[at + 2..].windows(2).position(|w| w == b"*/") {
                Some(n) => {
                    out.comments.push(Comment { span: span(at, at + 2 + n + 2), line: false });
                    at + 2 + n + 2
                }
                None => {
                    out.unterminated = Some(span(at, at + 2));
                    text.len()
                }
            },
            (b, _) if !b.is_ascii() => {
                let end = text[at..].iter().position(u8::is_ascii).map_or(text.len(), |n| at + n);
                out.stray.push(span(at, end));
                end
            }
            _ => {
                let (kind, end) = token_at(text, at);
                out.tokens.push(Token {
                    kind,
                    span: span(at, end),
                    section: Section::Header,
                    role: Role::Other,
                    depth: 0,
                });
                end
            }
        };
    }
    assign_roles(&mut out.tokens);
    out
}

/// The token starting at `at` (not white space or a comment) and where it ends.
fn token_at(text: &[u8], at: usize) -> (Kind, usize) {
    let rest = &text[at..];
    for section in [Section::Board, Section::Pieces, Section::Goals] {
        if rest.starts_with(section.tag().as_bytes()) {
            return (Kind::Tag(section), at + section.tag().len());
        }
    }
    if rest.starts_with(b"<<") {
        return (Kind::HeaderOpen, at + 2);
    }
    if rest.starts_with(b">>") {
        return (Kind::HeaderClose, at + 2);
    }
    let digits = |from: usize| text[from..].iter().take_while(|b| b.is_ascii_digit()).count();
    match rest[0] {
        b'0'..=b'9' => (Kind::Number, at + digits(at)),
        b'-' if digits(at + 1) > 0 => (Kind::Number, at + 1 + digits(at + 1)),
        b if b.is_ascii_alphabetic() => (Kind::Letter(b), at + 1),
        b => (Kind::Punct(b), at + 1),
    }
}

/// Gives each token its section, role and depth, reading the sections as the grammar orders
/// them (a tag switches the section wherever it stands).
fn assign_roles(tokens: &mut [Token]) {
    let mut section = Section::Header;
    let mut in_row = false;
    let mut depth = 0u32;
    // In the pieces section: the next token starts a rule; in the goals: the next number is
    // the turn limit, the next letter the piece of a goal.
    let mut rule_start = false;
    let mut seen_limit = false;
    let mut after_goal_start = false;
    for token in tokens.iter_mut() {
        if let Kind::Tag(s) = token.kind {
            section = s;
            (in_row, depth, rule_start) = (false, 0, s == Section::Pieces);
        }
        token.section = section;
        token.role = match (section, token.kind) {
            (Section::Board, Kind::Punct(b'|')) => {
                in_row = !in_row;
                if in_row {
                    Role::RowOpen
                } else {
                    Role::RowClose
                }
            }
            (Section::Board, Kind::Letter(_)) if in_row => Role::Cell,
            (Section::Board, Kind::Punct(b'.')) if in_row => Role::EmptyCell,
            (Section::Pieces, Kind::Letter(_)) if rule_start => Role::RuleLetter,
            (Section::Pieces, Kind::Letter(b'e' | b'p' | b'w')) if depth > 0 => Role::On,
            (Section::Goals, Kind::Number) if !seen_limit => {
                seen_limit = true;
                Role::TurnLimit
            }
            (Section::Goals, Kind::Punct(b'#' | b'@')) => Role::GoalStart,
            (Section::Goals, Kind::Letter(_)) if after_goal_start => Role::GoalPiece,
            _ => Role::Other,
        };
        after_goal_start = token.role == Role::GoalStart;
        if section == Section::Pieces {
            match token.kind {
                Kind::Punct(b'(') => depth += 1,
                Kind::Punct(b')') => depth = depth.saturating_sub(1),
                _ => {}
            }
            token.depth = depth + u32::from(token.kind == Kind::Punct(b')'));
            rule_start = token.kind == Kind::Punct(b'&') || token.kind == Kind::Tag(Section::Pieces);
            if token.kind == Kind::Punct(b'&') {
                depth = 0;
            }
        }
    }
}

fn span(start: usize, end: usize) -> Span {
    Span::new(start as u32, end as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roles_follow_the_sections() {
        let text =
            b"<<Tiny game>> <BOARD> 2 2 |.k| |K.| <PIECES> K (0,-1,e)^* & <GOALS> 10 & #K 0 & @k 1 1 &";
        let lexed = lex(text);
        let roles: Vec<(&str, Role)> = lexed
            .tokens
            .iter()
            .filter(|t| t.role != Role::Other)
            .map(|t| {
                (std::str::from_utf8(&text[t.span.start as usize..t.span.end as usize]).unwrap(), t.role)
            })
            .collect();
        assert_eq!(
            roles,
            [
                ("|", Role::RowOpen),
                (".", Role::EmptyCell),
                ("k", Role::Cell),
                ("|", Role::RowClose),
                ("|", Role::RowOpen),
                ("K", Role::Cell),
                (".", Role::EmptyCell),
                ("|", Role::RowClose),
                ("K", Role::RuleLetter),
                ("e", Role::On),
                ("10", Role::TurnLimit),
                ("#", Role::GoalStart),
                ("K", Role::GoalPiece),
                ("@", Role::GoalStart),
                ("k", Role::GoalPiece),
            ]
        );
        let name = lexed.tokens.iter().find(|t| t.kind == Kind::Name).unwrap();
        assert_eq!(name.span, Span::new(2, 11));
        assert!(lexed.tokens.iter().any(|t| t.kind == Kind::Number && t.span == Span::new(50, 52)));
    }

    #[test]
    fn comments_and_strays_are_kept_apart() {
        let lexed = lex("// a\n<<G>> /* b */ é /* open".as_bytes());
        assert_eq!(lexed.comments.len(), 2);
        assert!(lexed.comments[0].line && !lexed.comments[1].line);
        assert_eq!(lexed.stray, [Span::new(19, 21)]);
        assert_eq!(lexed.unterminated, Some(Span::new(22, 24)));
    }
}
