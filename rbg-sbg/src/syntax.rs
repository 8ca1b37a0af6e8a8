//! The syntax tree of a Simplified Boardgames description, as the parser builds it and the
//! reasoner and the translator read it. Every part keeps its byte span in the source so that
//! diagnostics (ours and the RBG parser's, mapped back) point at the SBG text.

use rbg_parser::source::Span;

/// The two players. White moves first; uppercase letters are white pieces.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Side {
    White,
    Black,
}

impl Side {
    pub fn opponent(self) -> Side {
        match self {
            Side::White => Side::Black,
            Side::Black => Side::White,
        }
    }

    /// The player's name, also its RBG player name and the prefix of its RBG piece names.
    pub fn name(self) -> &'static str {
        match self {
            Side::White => "white",
            Side::Black => "black",
        }
    }

    /// The owner of a piece letter: uppercase is white, lowercase black.
    pub fn of_letter(letter: u8) -> Side {
        if letter.is_ascii_uppercase() {
            Side::White
        } else {
            Side::Black
        }
    }
}

/// A piece on the board: its owner and its type (the uppercase letter).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    pub side: Side,
    /// The piece type, always the uppercase form of the letter.
    pub kind: u8,
}

impl Piece {
    /// The piece a board or goal letter stands for.
    pub fn of_letter(letter: u8) -> Piece {
        Piece { side: Side::of_letter(letter), kind: letter.to_ascii_uppercase() }
    }

    /// The RBG piece name: `whiteP` for `P`, `blackP` for `p`.
    pub fn rbg_name(self) -> String {
        format!("{}{}", self.side.name(), self.kind as char)
    }
}

/// What a letter of a movement rule requires of the square it lands on.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum On {
    /// `e`: the square is empty.
    Empty,
    /// `p`: the square holds an opponent's piece.
    Opponent,
    /// `w`: the square holds one of the mover's own pieces.
    Own,
}

/// One letter `(dx, dy, on)` of a movement rule; `dy` is forward for the piece's owner.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Letter {
    pub dx: i32,
    pub dy: i32,
    pub on: On,
    pub span: Span,
}

/// A repetition suffix: `^n` or `^*`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Power {
    Times(u32),
    Star,
}

/// A regular expression over letters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Regex {
    Letter(Letter),
    /// Juxtaposition, at least two parts.
    Concat(Vec<Regex>),
    /// `+`, at least two branches.
    Alt(Vec<Regex>),
    /// A letter or a group with a suffix.
    Power(Box<Regex>, Power),
}

impl Regex {
    /// The number of letter occurrences after unfolding every `^n` (saturating): the size of
    /// the position automaton the rule compiles to.
    pub fn unfolded_size(&self) -> u64 {
        match self {
            Regex::Letter(_) => 1,
            Regex::Concat(parts) | Regex::Alt(parts) => {
                parts.iter().fold(0u64, |sum, p| sum.saturating_add(p.unfolded_size()))
            }
            Regex::Power(inner, Power::Star) => inner.unfolded_size(),
            Regex::Power(inner, Power::Times(n)) => inner.unfolded_size().saturating_mul(u64::from(*n)),
        }
    }

    /// Calls `f` on every letter as written (powers not unfolded).
    pub fn for_each_letter(&self, f: &mut impl FnMut(&Letter)) {
        match self {
            Regex::Letter(letter) => f(letter),
            Regex::Concat(parts) | Regex::Alt(parts) => parts.iter().for_each(|p| p.for_each_letter(f)),
            Regex::Power(inner, _) => inner.for_each_letter(f),
        }
    }
}

/// The movement rule of one piece type (it applies to both sides' pieces of that type).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rule {
    /// The uppercase letter of the piece type.
    pub kind: u8,
    pub regex: Regex,
    /// The letter of the rule.
    pub kind_span: Span,
    /// The whole rule, letter to `&`.
    pub span: Span,
}

/// A terminal condition of the `<GOALS>` section.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Goal {
    /// `@X x y, ...`: the owner of `piece` wins when such a piece stands on one of the squares.
    Reach { piece: Piece, squares: Vec<(u32, u32)>, span: Span },
    /// `#X n`: the owner of `piece` loses when at most `count` such pieces are left.
    Count { piece: Piece, count: u64, span: Span },
}

impl Goal {
    pub fn span(&self) -> Span {
        match self {
            Goal::Reach { span, .. } | Goal::Count { span, .. } => *span,
        }
    }
}

/// A valid Simplified Boardgames description.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SbgGame {
    /// The file name given to [`crate::parse`].
    pub file: String,
    /// The name between `<<` and `>>`, trimmed.
    pub name: String,
    pub width: u32,
    pub height: u32,
    /// Cells in the order written: row 0 is the top row (the row farthest from white), so
    /// the cell at absolute `(x, y)` (y counted from the bottom) is
    /// `cells[(height - 1 - y) * width + x]`.
    pub cells: Vec<Option<Piece>>,
    /// The span of each row as written, top row first.
    pub row_spans: Vec<Span>,
    /// Movement rules in the order written, at most one per piece type.
    pub rules: Vec<Rule>,
    /// The number of half-moves after which the game is drawn.
    pub turn_limit: u64,
    pub turn_limit_span: Span,
    pub goals: Vec<Goal>,
}

impl SbgGame {
    /// Every piece type named anywhere (board, rules, goals), sorted.
    pub fn kinds(&self) -> Vec<u8> {
        let mut kinds: Vec<u8> = self.cells.iter().flatten().map(|p| p.kind).collect();
        kinds.extend(self.rules.iter().map(|r| r.kind));
        kinds.extend(self.goals.iter().map(|g| match g {
            Goal::Reach { piece, .. } | Goal::Count { piece, .. } => piece.kind,
        }));
        kinds.sort_unstable();
        kinds.dedup();
        kinds
    }

    /// The rule of a piece type, if it has one.
    pub fn rule(&self, kind: u8) -> Option<&Rule> {
        self.rules.iter().find(|r| r.kind == kind)
    }
}
