//! Move notation: moves as text and back, and what a move changes.
//!
//! Two text forms of a move (a list of [`Action`]s) are supported:
//!
//! * **Pair notation**, the one `rbg moves` prints and reads: `index@vertex` pairs separated by
//!   white space, e.g. `3@c2 7@c3`. The vertex is written by name ([`VertexStyle::Name`]) or
//!   by number from 0 in board order ([`VertexStyle::Number`]); parsing accepts either (a
//!   vertex name takes precedence over a number that spells the same text).
//! * **Wire notation** of the RBG game manager: `v1 m1 v2 m2 ...`, white-space separated
//!   numbers, each pair being the vertex numbered **from 1** and then the modifier index.
//!
//! Parsing never panics: a malformed text gives a [`NotationError`] naming the offending token,
//! its position and the reason.
//!
//! [`describe_move`] computes what a move does to a state (pieces, variables, the end of the
//! game) as data, a [`MoveChanges`], which can be printed with names.
//!
//! [`sketch_move`] reads those changes as a person would (a piece went from here to there,
//! taking what stood there; a piece was placed) and [`MoveSketch::text`] writes the human
//! notation of the page of `rbg serve`: `e2-e4`, `Ng1-f3`, `e4xd5`, `e7-e8=Q`, `c3xg7` for a
//! draughts multi-jump, `X@b2` for a placement, `Ng1` for the choice of a piece in a split game
//! ([`vertex_choices`]); a move that moves, places and chooses nothing is written in pair
//! notation.

use core::fmt;

use crate::game::{Game, GameInfo, SearchError};
use crate::moves::Action;

/// How pair notation writes vertices.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum VertexStyle {
    /// By the vertex's name in the board (`3@c2`).
    #[default]
    Name,
    /// By the vertex's number from 0 in board order (`3@17`).
    Number,
}

/// Writes a move in pair notation: `index@vertex` pairs separated by single spaces. A vertex
/// outside the board (which no legal move contains) is written by number in either style.
pub fn format_move(info: &GameInfo, m: &[Action], style: VertexStyle) -> String {
    let mut out = String::new();
    for (i, a) in m.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        match (style, info.vertices.get(a.vertex as usize)) {
            (VertexStyle::Name, Some(name)) => out.push_str(&format!("{}@{}", a.index, name)),
            _ => out.push_str(&format!("{}@{}", a.index, a.vertex)),
        }
    }
    out
}

/// Reads a move in pair notation (vertices by name or by number from 0). Indices must be
/// modifier indices of the game (1 to [`GameInfo::modifiers`]); whether the move is legal is
/// not checked here.
pub fn parse_move(info: &GameInfo, text: &str) -> Result<Vec<Action>, NotationError> {
    let tokens = tokens(text);
    if tokens.is_empty() {
        return Err(NotationError::new(NotationErrorKind::Empty, "", 0, 0));
    }
    tokens
        .iter()
        .enumerate()
        .map(|(n, &(offset, token))| {
            let error = |kind| NotationError::new(kind, token, n, offset);
            let (index, vertex) = token.split_once('@').ok_or_else(|| error(NotationErrorKind::NotAPair))?;
            let index = parse_index(info, index).ok_or_else(|| error(NotationErrorKind::BadIndex))?;
            let vertex = match info.vertex_id(vertex) {
                Some(v) => v,
                None => match parse_number(vertex) {
                    Some(v) if v < info.vertices.len() as u64 => v as u32,
                    Some(_) => return Err(error(out_of_range(info, 0))),
                    None => return Err(error(NotationErrorKind::UnknownVertex)),
                },
            };
            Ok(Action::new(index, vertex))
        })
        .collect()
}

/// Writes a move in the game manager's wire notation: `v1 m1 v2 m2 ...` with vertices numbered
/// from 1.
pub fn format_wire(m: &[Action]) -> String {
    let pairs: Vec<String> = m.iter().map(|a| format!("{} {}", u64::from(a.vertex) + 1, a.index)).collect();
    pairs.join(" ")
}

/// Reads a move in the game manager's wire notation (`v1 m1 v2 m2 ...`, vertices from 1).
pub fn parse_wire(info: &GameInfo, text: &str) -> Result<Vec<Action>, NotationError> {
    let tokens = tokens(text);
    if tokens.is_empty() {
        return Err(NotationError::new(NotationErrorKind::Empty, "", 0, 0));
    }
    if tokens.len() % 2 == 1 {
        let n = tokens.len() - 1;
        let (offset, token) = tokens[n];
        return Err(NotationError::new(
            NotationErrorKind::OddTokenCount { count: tokens.len() },
            token,
            n,
            offset,
        ));
    }
    tokens
        .chunks_exact(2)
        .enumerate()
        .map(|(pair, chunk)| {
            let [(v_offset, v_token), (i_offset, i_token)] = [chunk[0], chunk[1]];
            let vertex = match parse_number(v_token) {
                Some(v) if v >= 1 && v <= info.vertices.len() as u64 => (v - 1) as u32,
                Some(_) => {
                    return Err(NotationError::new(out_of_range(info, 1), v_token, 2 * pair, v_offset))
                }
                None => {
                    return Err(NotationError::new(
                        NotationErrorKind::UnknownVertex,
                        v_token,
                        2 * pair,
                        v_offset,
                    ))
                }
            };
            let index = parse_index(info, i_token).ok_or_else(|| {
                NotationError::new(NotationErrorKind::BadIndex, i_token, 2 * pair + 1, i_offset)
            })?;
            Ok(Action::new(index, vertex))
        })
        .collect()
}

/// White-space separated tokens with their byte offsets.
fn tokens(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices() {
        match (c.is_whitespace(), start) {
            (true, Some(s)) => {
                out.push((s, &text[s..i]));
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push((s, &text[s..]));
    }
    out
}

/// A decimal number made of ASCII digits only (no sign, no `+`), if it fits in `u64`.
fn parse_number(text: &str) -> Option<u64> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// A modifier index of the game: 1 to `info.modifiers`.
fn parse_index(info: &GameInfo, text: &str) -> Option<u32> {
    parse_number(text).filter(|&i| i >= 1 && i <= u64::from(info.modifiers)).map(|i| i as u32)
}

fn out_of_range(info: &GameInfo, first: u64) -> NotationErrorKind {
    NotationErrorKind::VertexOutOfRange { first, count: info.vertices.len() as u64 }
}

/// Why a move text could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotationErrorKind {
    /// The text has no tokens.
    Empty,
    /// A pair-notation token has no `@`.
    NotAPair,
    /// The index is not a number from 1 to the game's number of modifiers.
    BadIndex,
    /// The vertex is neither a vertex name nor a number.
    UnknownVertex,
    /// The vertex number is not one of the board's `count` vertex numbers, which start at
    /// `first`.
    VertexOutOfRange {
        /// The first vertex number (0 in pair notation, 1 in wire notation).
        first: u64,
        /// Number of vertices.
        count: u64,
    },
    /// Wire notation needs an even number of tokens (vertex, index pairs).
    OddTokenCount {
        /// Number of tokens in the text.
        count: usize,
    },
}

/// A move text that could not be read: which token, where, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotationError {
    /// Why the token was rejected.
    pub kind: NotationErrorKind,
    /// The offending token (empty for [`NotationErrorKind::Empty`]).
    pub token: String,
    /// The token's number in the text, from 0.
    pub token_index: usize,
    /// The token's byte offset in the text.
    pub offset: usize,
}

impl NotationError {
    fn new(kind: NotationErrorKind, token: &str, token_index: usize, offset: usize) -> Self {
        NotationError { kind, token: token.to_string(), token_index, offset }
    }
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (n, token) = (self.token_index + 1, &self.token);
        match &self.kind {
            NotationErrorKind::Empty => write!(f, "empty move"),
            NotationErrorKind::NotAPair => write!(f, "token {n} '{token}' is not an index@vertex pair"),
            NotationErrorKind::BadIndex => {
                write!(
                    f,
                    "token {n} '{token}': the modifier index is not a number from 1 to the game's modifiers"
                )
            }
            NotationErrorKind::UnknownVertex => write!(f, "token {n} '{token}': no such vertex in this game"),
            NotationErrorKind::VertexOutOfRange { count: 0, .. } => {
                write!(f, "token {n} '{token}': the board has no vertices")
            }
            NotationErrorKind::VertexOutOfRange { first, count } => {
                let last = first + count - 1;
                write!(f, "token {n} '{token}': vertex number out of range {first}..={last}")
            }
            NotationErrorKind::OddTokenCount { count } => {
                write!(f, "{count} tokens: a wire move needs vertex-index pairs (an even count)")
            }
        }
    }
}

impl std::error::Error for NotationError {}

/// One effect of a move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    /// The piece on `vertex` went from `from` to `to` (piece ids).
    Piece {
        /// The vertex.
        vertex: u32,
        /// The piece before the move.
        from: u32,
        /// The piece after the move.
        to: u32,
    },
    /// Variable `var` (see [`GameInfo::variables`]) went from `from` to `to`.
    Variable {
        /// The variable's id.
        var: usize,
        /// The value before the move.
        from: i64,
        /// The value after the move.
        to: i64,
    },
    /// After the move (and keeper completion) no player can move: the game is over.
    GameOver,
}

/// What a move changes, keeper completion included: pieces by vertex order, then variables in
/// their numbering, then the end of the game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveChanges {
    /// The changes; empty when the move changes no piece or variable and the game goes on.
    pub changes: Vec<Change>,
}

impl MoveChanges {
    /// Displays the changes with the names in `info`, e.g. `c2: e→x, score: 0→1, game over`.
    pub fn display<'a>(&'a self, info: &'a GameInfo) -> impl fmt::Display + 'a {
        ChangesDisplay { changes: self, info }
    }
}

struct ChangesDisplay<'a> {
    changes: &'a MoveChanges,
    info: &'a GameInfo,
}

impl fmt::Display for ChangesDisplay<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.changes.changes.is_empty() {
            return write!(f, "(no piece or variable changes)");
        }
        fn name(names: &[String], i: usize) -> String {
            names.get(i).cloned().unwrap_or_else(|| format!("#{i}"))
        }
        for (i, change) in self.changes.changes.iter().enumerate() {
            if i > 0 {
                write!(f, ", ")?;
            }
            match *change {
                Change::Piece { vertex, from, to } => write!(
                    f,
                    "{}: {}→{}",
                    name(&self.info.vertices, vertex as usize),
                    name(&self.info.pieces, from as usize),
                    name(&self.info.pieces, to as usize)
                )?,
                Change::Variable { var, from, to } => {
                    write!(f, "{}: {from}→{to}", name(&self.info.variables, var))?
                }
                Change::GameOver => write!(f, "game over")?,
            }
        }
        Ok(())
    }
}

/// What playing `m` in `state` changes, keeper completion (at most `keeper_limit` keeper moves)
/// included. `m` must be a legal move of `state` (see [`Game::apply_move`]).
pub fn describe_move<G: Game>(
    game: &G,
    state: &G::State,
    sc: &mut G::Scratch,
    m: &[Action],
    keeper_limit: u64,
) -> Result<MoveChanges, SearchError> {
    let info = game.info();
    let mut after = state.clone();
    game.apply_move(&mut after, m);
    let ongoing = game.complete_keeper(&mut after, sc, keeper_limit)?;
    let mut changes = Vec::new();
    for v in 0..info.vertices.len() as u32 {
        let (from, to) = (game.piece(state, v), game.piece(&after, v));
        if from != to {
            changes.push(Change::Piece { vertex: v, from, to });
        }
    }
    for var in 0..info.variables.len() {
        let (from, to) = (game.variable(state, var), game.variable(&after, var));
        if from != to {
            changes.push(Change::Variable { var, from, to });
        }
    }
    if !ongoing {
        changes.push(Change::GameOver);
    }
    Ok(MoveChanges { changes })
}

/// One part of a move as a person reads it (see [`sketch_move`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MovePart {
    /// A piece went from `from` to `to` (and is `becomes` there when it changed, e.g. a
    /// promotion); `takes` when `to` held a piece before or the move removed pieces elsewhere.
    Shift {
        /// The piece that moved (its id before the move).
        piece: u32,
        /// Where it stood.
        from: u32,
        /// Where it stands now.
        to: u32,
        /// The piece it became, when different.
        becomes: Option<u32>,
        /// Whether the move took something with this part.
        takes: bool,
    },
    /// `piece` was put on the empty vertex `at`.
    Place {
        /// The piece placed.
        piece: u32,
        /// Where.
        at: u32,
    },
    /// The move chose the vertex `at`, where `piece` stands, and changed nothing there: the
    /// first half of a split move ("choose a piece, then move it"; see [`vertex_choices`]).
    Choose {
        /// The piece on the chosen vertex (an empty one when nothing stands there).
        piece: u32,
        /// Where.
        at: u32,
    },
}

/// The vertices the moves of a position choose, sorted, when they are choices of a vertex:
/// at least two of the moves are a switch alone (they change no piece or variable, only whose
/// turn it is and where play stands) and those moves end at distinct vertices. Split games
/// make the first half of a move so (`games/chessSplit.rbg`: choose a piece; the corpus's
/// `breakthrough_split`). Otherwise none: a lone switch is a pass, and switches alone that end
/// on one vertex differ in something a click cannot show.
pub fn vertex_choices<'a>(moves: impl IntoIterator<Item = &'a [Action]>) -> Vec<u32> {
    let mut vertices: Vec<u32> = moves.into_iter().filter(|m| m.len() == 1).map(|m| m[0].vertex).collect();
    vertices.sort_unstable();
    let distinct = vertices.windows(2).all(|w| w[0] != w[1]);
    if vertices.len() < 2 || !distinct {
        vertices.clear();
    }
    vertices
}

/// `sketch` of `m` with the choice of a vertex added when `m` is one of `choices` (from
/// [`vertex_choices`] of the position) and moves and places nothing; `piece_at` gives the piece
/// standing on a vertex before the move.
pub fn with_choice(
    mut sketch: MoveSketch,
    m: &[Action],
    choices: &[u32],
    piece_at: impl Fn(u32) -> u32,
) -> MoveSketch {
    if let [only] = m {
        if sketch.parts.is_empty() && choices.binary_search(&only.vertex).is_ok() {
            sketch.parts.push(MovePart::Choose { piece: piece_at(only.vertex), at: only.vertex });
        }
    }
    sketch
}

/// A move as a person reads it: its parts in the order the move touches their vertices, and
/// the vertices whose pieces it took.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveSketch {
    /// Shifts and placements; empty when the move moved and placed nothing (a pass, a move
    /// that only changes variables or changes pieces in place).
    pub parts: Vec<MovePart>,
    /// Vertices whose piece the move removed or replaced by a moving piece.
    pub taken: Vec<u32>,
}

/// How [`MoveSketch::text`] names things: every vertex (e.g. chess-style `e2`) and every
/// piece's letter (empty for a piece written without one, like a chess pawn).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NotationNames {
    /// A name per vertex.
    pub vertices: Vec<String>,
    /// A letter (or short label) per piece id.
    pub letters: Vec<String>,
}

/// Reads `changes` (of the move `m`, from [`describe_move`]) as shifts and placements.
/// `empty[p]` tells whether piece `p` stands for an empty cell.
///
/// A vertex that lost its piece (now empty) is an origin; a vertex that got a piece is a
/// destination. Each destination is paired with an unused origin that held the same piece, else
/// (a promotion) with the unused origin the move touches first, if it touches it before the
/// destination (a placed stone that captures does not move). A destination left unpaired is
/// a placement if it was empty and a change in place otherwise (reversi's flips: not written).
/// Origins left unpaired are pieces taken (draughts' jumped men, en passant).
pub fn sketch_move(changes: &MoveChanges, m: &[Action], empty: &[bool]) -> MoveSketch {
    let is_empty = |p: u32| empty.get(p as usize).copied().unwrap_or(false);
    // Where the move first touches a vertex (vertices it never names come after, in order).
    let first_touch = |v: u32| m.iter().position(|a| a.vertex == v).unwrap_or(usize::MAX);
    let mut pieces: Vec<(u32, u32, u32)> = changes
        .changes
        .iter()
        .filter_map(|c| match *c {
            Change::Piece { vertex, from, to } => Some((vertex, from, to)),
            _ => None,
        })
        .collect();
    pieces.sort_by_key(|&(v, _, _)| (first_touch(v), v));
    let mut origins: Vec<(u32, u32)> = pieces
        .iter()
        .filter(|&&(_, from, to)| !is_empty(from) && is_empty(to))
        .map(|&(v, from, _)| (v, from))
        .collect();
    let arrivals: Vec<(u32, u32, u32)> = pieces.iter().copied().filter(|&(_, _, to)| !is_empty(to)).collect();
    let mut sketch = MoveSketch::default();
    for &(at, before, piece) in &arrivals {
        let same = origins.iter().position(|&(_, p)| p == piece);
        // A piece that changed on the way (a promotion) comes from a vertex the move touched
        // before its destination; a stone placed and then capturing (go) does not.
        let changed = origins.first().is_some_and(|&(v, _)| first_touch(v) < first_touch(at));
        let paired = same.or_else(|| changed.then_some(0));
        match paired {
            Some(i) => {
                let (from, moved) = origins.remove(i);
                let takes = !is_empty(before);
                if takes {
                    sketch.taken.push(at);
                }
                let becomes = (moved != piece).then_some(piece);
                sketch.parts.push(MovePart::Shift { piece: moved, from, to: at, becomes, takes });
            }
            None if is_empty(before) => sketch.parts.push(MovePart::Place { piece, at }),
            None => {}
        }
    }
    // Pieces removed without a piece arriving: taken (by the first shift, if there is one).
    if !origins.is_empty() {
        if let Some(MovePart::Shift { takes, .. }) =
            sketch.parts.iter_mut().find(|p| matches!(p, MovePart::Shift { .. }))
        {
            *takes = true;
        }
        sketch.taken.extend(origins.iter().map(|&(v, _)| v));
    }
    sketch
}

impl MoveSketch {
    /// The vertices a player clicks to make the move: each shift's origin and destination,
    /// each placement's vertex, in order (a vertex repeated at once is kept once).
    pub fn path(&self) -> Vec<u32> {
        let mut path: Vec<u32> = Vec::new();
        for part in &self.parts {
            let vertices = match *part {
                MovePart::Shift { from, to, .. } => vec![from, to],
                MovePart::Place { at, .. } | MovePart::Choose { at, .. } => vec![at],
            };
            for v in vertices {
                if path.last() != Some(&v) {
                    path.push(v);
                }
            }
        }
        path
    }

    /// The human notation of the move: `Ng1-f3`, `e4xd5`, `e7-e8=Q`, `X@b2`, `Ng1` (a piece
    /// chosen), parts separated by spaces; `full` (the move's pair notation) when there are no
    /// parts.
    pub fn text(&self, names: &NotationNames, full: impl FnOnce() -> String) -> String {
        if self.parts.is_empty() {
            return full();
        }
        let vertex = |v: u32| names.vertices.get(v as usize).cloned().unwrap_or_else(|| v.to_string());
        let letter = |p: u32| names.letters.get(p as usize).map_or("", String::as_str);
        let parts: Vec<String> = self
            .parts
            .iter()
            .map(|part| match *part {
                MovePart::Shift { piece, from, to, becomes, takes } => {
                    let mark = if takes { 'x' } else { '-' };
                    // A piece that changed but reads the same (a rook losing its right to
                    // castle, a pawn marked as just advanced two squares) is no promotion.
                    let promotion = becomes
                        .filter(|&p| letter(p) != letter(piece))
                        .map(|p| format!("={}", letter(p)))
                        .unwrap_or_default();
                    format!("{}{}{mark}{}{promotion}", letter(piece), vertex(from), vertex(to))
                }
                MovePart::Place { piece, at } => format!("{}@{}", letter(piece), vertex(at)),
                MovePart::Choose { piece, at } => format!("{}{}", letter(piece), vertex(at)),
            })
            .collect();
        parts.join(" ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn info() -> GameInfo {
        GameInfo {
            name: "t".into(),
            vertices: vec!["a1".into(), "b1".into(), "7".into(), "c1".into()],
            pieces: vec!["e".into(), "x".into()],
            variables: vec!["p".into()],
            modifiers: 9,
            ..Default::default()
        }
    }

    fn m(pairs: &[(u32, u32)]) -> Vec<Action> {
        pairs.iter().map(|&(i, v)| Action::new(i, v)).collect()
    }

    #[test]
    fn pair_notation_by_name_and_number() {
        let info = info();
        let mv = m(&[(3, 1), (9, 3)]);
        assert_eq!(format_move(&info, &mv, VertexStyle::Name), "3@b1 9@c1");
        assert_eq!(format_move(&info, &mv, VertexStyle::Number), "3@1 9@3");
        assert_eq!(parse_move(&info, "3@b1 9@c1"), Ok(mv.clone()));
        assert_eq!(parse_move(&info, "  3@1\t9@3\n"), Ok(mv.clone()));
        // A vertex named "7" is that vertex (number 2), not vertex number 7.
        assert_eq!(parse_move(&info, "1@7"), Ok(m(&[(1, 2)])));
    }

    #[test]
    fn wire_notation_counts_vertices_from_one_vertex_first() {
        let info = info();
        let mv = m(&[(3, 0), (9, 3)]);
        assert_eq!(format_wire(&mv), "1 3 4 9");
        assert_eq!(parse_wire(&info, "1 3 4 9"), Ok(mv));
    }

    fn kind(r: Result<Vec<Action>, NotationError>) -> (NotationErrorKind, String, usize, usize) {
        let e = r.unwrap_err();
        (e.kind, e.token, e.token_index, e.offset)
    }

    #[test]
    fn pair_errors_name_the_token_its_position_and_the_reason() {
        let info = info();
        assert_eq!(kind(parse_move(&info, "   ")).0, NotationErrorKind::Empty);
        assert_eq!(kind(parse_move(&info, "1@a1 2b1")), (NotationErrorKind::NotAPair, "2b1".into(), 1, 5));
        assert_eq!(kind(parse_move(&info, "0@a1")).0, NotationErrorKind::BadIndex);
        assert_eq!(kind(parse_move(&info, "10@a1")).0, NotationErrorKind::BadIndex);
        assert_eq!(kind(parse_move(&info, "-1@a1")).0, NotationErrorKind::BadIndex);
        assert_eq!(kind(parse_move(&info, "1@zz")).0, NotationErrorKind::UnknownVertex);
        assert_eq!(
            kind(parse_move(&info, "1@4")).0,
            NotationErrorKind::VertexOutOfRange { first: 0, count: 4 }
        );
        assert_eq!(kind(parse_move(&info, "1@99999999999999999999999")).0, NotationErrorKind::UnknownVertex);
    }

    #[test]
    fn wire_errors_name_the_token_its_position_and_the_reason() {
        let info = info();
        assert_eq!(kind(parse_wire(&info, "")).0, NotationErrorKind::Empty);
        assert_eq!(
            kind(parse_wire(&info, "1 3 4")),
            (NotationErrorKind::OddTokenCount { count: 3 }, "4".into(), 2, 4)
        );
        assert_eq!(
            kind(parse_wire(&info, "0 3")),
            (NotationErrorKind::VertexOutOfRange { first: 1, count: 4 }, "0".into(), 0, 0)
        );
        assert_eq!(
            kind(parse_wire(&info, "5 3")).0,
            NotationErrorKind::VertexOutOfRange { first: 1, count: 4 }
        );
        assert_eq!(kind(parse_wire(&info, "a1 3")).0, NotationErrorKind::UnknownVertex);
        assert_eq!(kind(parse_wire(&info, "1 3 2 0")), (NotationErrorKind::BadIndex, "0".into(), 3, 6));
        // Every error prints a message that names the token.
        let e = parse_wire(&info, "1 3 2 0").unwrap_err();
        assert!(e.to_string().contains("token 4 '0'"), "{e}");
    }

    #[test]
    fn describe_move_lists_variable_changes_and_game_over() {
        use crate::toy::Nim;
        let game = Nim::new(1);
        let mut sc = ();
        let mut s = game.initial_state();
        assert!(game.complete_keeper(&mut s, &mut sc, 10).unwrap());
        // Taking the only stone: pile 1→0, first player's score 0→1, game over.
        let changes = describe_move(&game, &s, &mut sc, &m(&[(1, 0)]), 10).unwrap();
        let pile = game.info().variables.iter().position(|v| v == "pile").unwrap();
        assert_eq!(
            changes.changes,
            vec![
                Change::Variable { var: 0, from: 0, to: 1 },
                Change::Variable { var: pile, from: 1, to: 0 },
                Change::GameOver
            ]
        );
        assert_eq!(changes.display(game.info()).to_string(), "first: 0→1, pile: 1→0, game over");
    }

    /// Chess-style names of an 8x8 board, vertex `file + 8 * rank` (a1 = 0, h8 = 63).
    fn square(name: &str) -> u32 {
        let b = name.as_bytes();
        (b[0] - b'a') as u32 + 8 * (b[1] - b'1') as u32
    }

    fn board_names(letters: &[&str]) -> NotationNames {
        let vertices = (0..64).map(|v| format!("{}{}", (b'a' + (v % 8) as u8) as char, v / 8 + 1)).collect();
        NotationNames { vertices, letters: letters.iter().map(|l| l.to_string()).collect() }
    }

    /// The changes of a move given as (square, before, after), in vertex order as
    /// `describe_move` lists them, and the move touching `touched` squares in order.
    fn changes_of(pieces: &[(&str, u32, u32)]) -> MoveChanges {
        let mut list: Vec<(u32, u32, u32)> = pieces.iter().map(|&(sq, f, t)| (square(sq), f, t)).collect();
        list.sort();
        MoveChanges {
            changes: list.into_iter().map(|(vertex, from, to)| Change::Piece { vertex, from, to }).collect(),
        }
    }

    fn touching(squares: &[&str]) -> Vec<Action> {
        squares.iter().enumerate().map(|(i, sq)| Action::new(i as u32 + 1, square(sq))).collect()
    }

    // Chess pieces: 0 empty, 1 white pawn, 2 black pawn, 3 white knight, 4 white queen,
    // 5 black rook, 6 white king, 7 white rook; pawns are written without a letter.
    const CHESS_EMPTY: [bool; 8] = [true, false, false, false, false, false, false, false];
    const CHESS_LETTERS: [&str; 8] = ["", "", "", "N", "Q", "R", "K", "R"];

    fn chess(pieces: &[(&str, u32, u32)], touched: &[&str]) -> (String, MoveSketch) {
        let sketch = sketch_move(&changes_of(pieces), &touching(touched), &CHESS_EMPTY);
        (sketch.text(&board_names(&CHESS_LETTERS), || "full".into()), sketch)
    }

    #[test]
    fn chess_moves_are_written_from_to_with_captures_and_promotions() {
        // e2-e4: the pawn leaves e2 for the empty e4.
        let (text, sketch) = chess(&[("e2", 1, 0), ("e4", 0, 1)], &["e2", "e4"]);
        assert_eq!(text, "e2-e4");
        assert_eq!(sketch.path(), vec![square("e2"), square("e4")]);
        assert!(sketch.taken.is_empty());
        // The knight from g1 to f3.
        assert_eq!(chess(&[("g1", 3, 0), ("f3", 0, 3)], &["g1", "f3"]).0, "Ng1-f3");
        // e4xd5: the white pawn takes the black pawn on d5.
        let (text, sketch) = chess(&[("e4", 1, 0), ("d5", 2, 1)], &["e4", "d5"]);
        assert_eq!(text, "e4xd5");
        assert_eq!(sketch.taken, vec![square("d5")]);
        // e7xd8=Q: a pawn takes the rook on d8 and becomes a queen.
        assert_eq!(chess(&[("e7", 1, 0), ("d8", 5, 4)], &["e7", "d8"]).0, "e7xd8=Q");
        // e5xd6 en passant: the black pawn taken stood on d5, not on the destination.
        let (text, sketch) = chess(&[("e5", 1, 0), ("d6", 0, 1), ("d5", 2, 0)], &["e5", "d6", "d5"]);
        assert_eq!(text, "e5xd6");
        assert_eq!(sketch.taken, vec![square("d5")]);
        // Castling: the king's part, then the rook's.
        let castle = [("e1", 6, 0), ("g1", 0, 6), ("h1", 7, 0), ("f1", 0, 7)];
        let (text, sketch) = chess(&castle, &["e1", "g1", "h1", "f1"]);
        assert_eq!(text, "Ke1-g1 Rh1-f1");
        assert_eq!(sketch.path(), ["e1", "g1", "h1", "f1"].map(square).to_vec());
    }

    #[test]
    fn a_piece_that_changes_but_reads_the_same_is_no_promotion() {
        // A rook (5, `R`) that becomes another rook (7, `R`, one that may no longer castle).
        assert_eq!(chess(&[("a1", 5, 0), ("a4", 0, 7)], &["a1", "a4"]).0, "Ra1-a4");
    }

    #[test]
    fn switches_alone_at_distinct_vertices_choose_a_vertex() {
        let (e2, g1, d4) = (square("e2"), square("g1"), square("d4"));
        let switch = |v: u32| vec![Action::new(9, v)];
        // The first half of a split move: the pawn on e2 or the knight on g1.
        let split = [switch(e2), switch(g1)];
        let choices = vertex_choices(split.iter().map(Vec::as_slice));
        assert_eq!(choices, vec![e2.min(g1), e2.max(g1)]);
        let piece_at = |v: u32| if v == g1 { 3 } else { 1 };
        let names = board_names(&CHESS_LETTERS);
        let knight = with_choice(MoveSketch::default(), &split[1], &choices, piece_at);
        assert_eq!(knight.text(&names, || "full".into()), "Ng1");
        assert_eq!(knight.path(), vec![g1]);
        assert_eq!(
            with_choice(MoveSketch::default(), &split[0], &choices, piece_at).text(&names, || "x".into()),
            "e2"
        );
        // A lone switch is a pass: offered by its pair notation, nothing to click.
        let pass = [switch(d4), vec![Action::new(1, e2), Action::new(9, e2)]];
        let none = vertex_choices(pass.iter().map(Vec::as_slice));
        assert!(none.is_empty());
        let sketch = with_choice(MoveSketch::default(), &pass[0], &none, piece_at);
        assert!(sketch.path().is_empty());
        assert_eq!(sketch.text(&names, || "full".into()), "full");
        // Switches alone that end on one vertex (two switch indices) are no choice of a vertex.
        let same = [switch(d4), vec![Action::new(8, d4)]];
        assert!(vertex_choices(same.iter().map(Vec::as_slice)).is_empty());
        // A move with a piece change is not made a choice even at a chosen vertex.
        let moved = MoveSketch { parts: vec![MovePart::Place { piece: 1, at: e2 }], taken: vec![] };
        assert_eq!(with_choice(moved.clone(), &switch(e2), &choices, piece_at), moved);
    }

    #[test]
    fn a_draughts_multi_jump_is_one_capture_from_start_to_end() {
        // Pieces: 0 empty, 1 white man, 2 black man. The man on c3 jumps d4 and f6 to g7.
        let empty = [true, false, false];
        let changes = changes_of(&[("c3", 1, 0), ("d4", 2, 0), ("f6", 2, 0), ("g7", 0, 1)]);
        let sketch = sketch_move(&changes, &touching(&["c3", "d4", "f6", "g7"]), &empty);
        assert_eq!(sketch.text(&board_names(&["", "", ""]), String::new), "c3xg7");
        assert_eq!(sketch.taken, vec![square("d4"), square("f6")]);
        assert_eq!(sketch.path(), vec![square("c3"), square("g7")]);
    }

    #[test]
    fn placements_are_written_with_the_piece_letter() {
        // Connect four: a red disc (1) dropped in column d lands on d1.
        let sketch =
            sketch_move(&changes_of(&[("d1", 0, 1)]), &touching(&["d1", "d1"]), &[true, false, false]);
        assert_eq!(sketch.text(&board_names(&["", "R", "Y"]), String::new), "R@d1");
        assert_eq!(sketch.path(), vec![square("d1")]);
        // Tic-tac-toe: a cross on b2.
        let sketch = sketch_move(&changes_of(&[("b2", 0, 2)]), &touching(&["b2"]), &[true, false, false]);
        assert_eq!(sketch.text(&board_names(&["", "O", "X"]), String::new), "X@b2");
        // Reversi: a black disc on d3 flips e4 (not written); go: a stone on b2 that takes
        // the white stone on b3 is still a placement, and b3 is taken.
        let (empty, letters) = ([true, false, false], board_names(&["", "B", "W"]));
        let flips = changes_of(&[("d3", 0, 1), ("e4", 2, 1)]);
        assert_eq!(sketch_move(&flips, &touching(&["d3", "e4"]), &empty).text(&letters, String::new), "B@d3");
        let capture =
            sketch_move(&changes_of(&[("b2", 0, 1), ("b3", 2, 0)]), &touching(&["b2", "b3"]), &empty);
        assert_eq!(capture.text(&letters, String::new), "B@b2");
        assert_eq!(capture.taken, vec![square("b3")]);
    }

    #[test]
    fn a_move_without_shifts_or_placements_is_written_in_full() {
        let sketch = sketch_move(&MoveChanges::default(), &touching(&["a1"]), &[true]);
        assert_eq!(sketch.text(&board_names(&[""]), || "7@a1".into()), "7@a1");
        assert!(sketch.path().is_empty());
    }

    fn arbitrary_move(vertices: u32, modifiers: u32) -> impl Strategy<Value = Vec<Action>> {
        proptest::collection::vec((1..=modifiers, 0..vertices).prop_map(|(i, v)| Action::new(i, v)), 1..8)
    }

    proptest! {
        #[test]
        fn notations_round_trip(mv in arbitrary_move(4, 9)) {
            let info = info();
            for style in [VertexStyle::Name, VertexStyle::Number] {
                prop_assert_eq!(parse_move(&info, &format_move(&info, &mv, style)), Ok(mv.clone()));
            }
            prop_assert_eq!(parse_wire(&info, &format_wire(&mv)), Ok(mv.clone()));
        }

        #[test]
        fn arbitrary_text_never_panics(text in "\\PC*", ascii in "[0-9@ a-c\t-]{0,24}") {
            let info = info();
            for t in [&text, &ascii] {
                if let Ok(mv) = parse_move(&info, t) {
                    prop_assert!(mv.iter().all(|a| a.index >= 1 && a.index <= 9 && a.vertex < 4));
                }
                if let Ok(mv) = parse_wire(&info, t) {
                    prop_assert!(mv.iter().all(|a| a.index >= 1 && a.index <= 9 && a.vertex < 4));
                }
                let _ = parse_move(&GameInfo::default(), t).map_err(|e| e.to_string());
                let _ = parse_wire(&GameInfo::default(), t).map_err(|e| e.to_string());
            }
        }
    }
}
