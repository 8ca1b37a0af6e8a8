//! The direct reasoner: Simplified Boardgames played without RBG, implementing
//! [`rbg_core::Game`] so that perft, playouts and every agent run on it.
//!
//! Semantics (spec section 2.3 and `design/sbg-notes.md`): white moves first. A move takes one
//! of the mover's pieces whose type has a rule from square `from` to square `to` such that some
//! word of the rule, applied from `from` with `dy` mirrored for black, lands every letter on the
//! board on a square meeting its condition (`e` empty, `p` an opponent's piece, `w` an own
//! piece; the board does not change during the walk, so `from` still holds the mover's piece).
//! The piece on `to`, whoever owns it, is captured; `to == from` changes nothing. Moves are the
//! pairs (from, to): words reaching the same square are one move.
//!
//! After each move (and once on the initial position, as if black had just moved) the game is
//! judged: white has *won* if a white `@` goal holds (a piece of that letter stands on a listed
//! square) or a black `#` goal holds (at most that many black pieces of the type are left), and
//! black symmetrically. One side won: it scores 100, the other 0. Both: a draw (50 each; neither
//! the spec nor the notes decide this case, and a draw favours neither). Neither, and the turn
//! limit is reached: a draw. Otherwise the player who just moved is credited 100 and the other 0,
//! which is the result if the next player has no legal move (that player loses).
//!
//! Moves as actions: `[(1, from), (2, to)]` (vertices in RBG's rectangle order: row by row from
//! the top, left to right). [`crate::translate::rbg_move_squares`] reads the same pair from a
//! move of the RBG translation. Variables: the two scores, then `halfMoves` (the half-moves
//! played), as in the translation; piece ids are the translation's too (its origin marks
//! included, which never stand on the board of a state between moves).

use core::ops::ControlFlow;

use rbg_core::{
    Action, Game, GameInfo, Player, SearchError, StateCodecError, StateParts, VertexPosition, KEEPER,
};

use crate::automaton::PieceAutomaton;
use crate::syntax::{Goal, Piece, SbgGame, Side};

/// The name of the variable counting half-moves (also in the RBG translation).
pub const HALF_MOVES: &str = "halfMoves";

/// The piece name of a side's origin mark in the RBG translation.
pub fn origin_name(side: Side) -> String {
    format!("{}Origin", side.name())
}

/// The direct reasoner of one game.
#[derive(Clone, Debug)]
pub struct SbgReasoner {
    info: GameInfo,
    width: i32,
    height: i32,
    initial: SbgState,
    /// Per piece id: the owner (`None` for `empty`; the origin marks have owners).
    owner: Vec<Option<Side>>,
    /// Per piece id: the automaton of its type's rule.
    automaton_of: Vec<Option<usize>>,
    automata: Vec<PieceAutomaton>,
    /// `@` goals: the side that wins, the piece id, the vertices.
    reach_goals: Vec<(Side, u8, Vec<u32>)>,
    /// `#` goals: the side that loses, the piece id, the count.
    count_goals: Vec<(Side, u8, u64)>,
    turn_limit: u64,
    /// The piece id of `empty` (ids follow the sorted names, so it is not 0).
    empty: u8,
}

/// A state of [`SbgReasoner`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SbgState {
    /// The piece id on each vertex.
    board: Vec<u8>,
    /// How many pieces of each id are on the board.
    counts: Vec<u32>,
    half_moves: u64,
    to_move: Side,
    /// The game ended by a goal or the turn limit (a player without moves ends it too, but
    /// then it is still that player's turn, as in RBG).
    ended: bool,
    /// White's and black's scores.
    scores: [i64; 2],
}

/// Working memory of move generation.
#[derive(Clone, Debug, Default)]
pub struct SbgScratch {
    /// One bit per (automaton state, vertex): reached during the current walk.
    visited: Vec<u64>,
    /// The bits set in `visited`, to clear them after the walk.
    touched: Vec<usize>,
    stack: Vec<(u32, u32)>,
    /// Destinations of the current walk: a flag per vertex and the list.
    is_destination: Vec<bool>,
    destinations: Vec<u32>,
}

fn side_index(side: Side) -> usize {
    match side {
        Side::White => 0,
        Side::Black => 1,
    }
}

impl SbgReasoner {
    pub fn new(game: &SbgGame) -> SbgReasoner {
        let kinds = game.kinds();
        let mut pieces = vec!["empty".to_string(), origin_name(Side::White), origin_name(Side::Black)];
        for &kind in &kinds {
            for side in [Side::White, Side::Black] {
                pieces.push(Piece { side, kind }.rbg_name());
            }
        }
        pieces.sort();
        let id_of = |name: &str| pieces.iter().position(|p| p == name).unwrap_or(0) as u8;
        let piece_id = |piece: Piece| id_of(&piece.rbg_name());
        let mut owner = vec![None; pieces.len()];
        let mut automaton_of = vec![None; pieces.len()];
        let mut automata = Vec::new();
        for side in [Side::White, Side::Black] {
            owner[id_of(&origin_name(side)) as usize] = Some(side);
        }
        for &kind in &kinds {
            let rule = game.rule(kind).map(|rule| {
                automata.push(PieceAutomaton::compile(&rule.regex));
                automata.len() - 1
            });
            for side in [Side::White, Side::Black] {
                let id = piece_id(Piece { side, kind }) as usize;
                owner[id] = Some(side);
                automaton_of[id] = rule;
            }
        }
        let (width, height) = (game.width, game.height);
        let vertex = |x: u32, y: u32| (height - 1 - y) * width + x;
        let mut reach_goals = Vec::new();
        let mut count_goals = Vec::new();
        for goal in &game.goals {
            match goal {
                Goal::Reach { piece, squares, .. } => {
                    let vertices = squares.iter().map(|&(x, y)| vertex(x, y)).collect();
                    reach_goals.push((piece.side, piece_id(*piece), vertices));
                }
                Goal::Count { piece, count, .. } => count_goals.push((piece.side, piece_id(*piece), *count)),
            }
        }

        let area = (width * height) as usize;
        let mut vertices = Vec::with_capacity(area);
        let mut positions = Vec::with_capacity(area);
        let mut edges = Vec::new();
        // RBG's rectangle generator: vertex `row * width + x`, row 0 on top; labels sorted
        // (down, left, right, up), up leading to the row above.
        for row in 0..height as i32 {
            for x in 0..width as i32 {
                vertices.push(format!("rx{x}y{row}"));
                positions.push(VertexPosition { coords: [x, row, 0], point: [f64::from(x), f64::from(row)] });
                let from = (row * width as i32 + x) as u32;
                for (label, (tx, ty)) in
                    [(x, row + 1), (x - 1, row), (x + 1, row), (x, row - 1)].into_iter().enumerate()
                {
                    if (0..width as i32).contains(&tx) && (0..height as i32).contains(&ty) {
                        edges.push((from, label as u32, (ty * width as i32 + tx) as u32));
                    }
                }
            }
        }
        let info = GameInfo {
            name: game
                .file
                .rsplit(['/', '\\'])
                .next()
                .unwrap_or_default()
                .trim_end_matches(".sbg")
                .to_string(),
            players: vec!["white".into(), "black".into()],
            pieces: pieces.clone(),
            variables: vec!["white".into(), "black".into(), HALF_MOVES.into()],
            bounds: vec![100, 100, crate::translate::half_moves_bound(game) as i64],
            vertices,
            modifiers: 2,
            switches: vec![2],
            labels: ["down", "left", "right", "up"].map(String::from).to_vec(),
            edges,
            positions: Some(positions),
        };
        let board: Vec<u8> = game.cells.iter().map(|cell| cell.map_or(id_of("empty"), piece_id)).collect();
        let mut counts = vec![0u32; pieces.len()];
        for &id in &board {
            counts[id as usize] += 1;
        }
        let mut reasoner = SbgReasoner {
            info,
            width: width as i32,
            height: height as i32,
            initial: SbgState {
                board,
                counts,
                half_moves: 0,
                to_move: Side::White,
                ended: false,
                scores: [0, 0],
            },
            owner,
            automaton_of,
            automata,
            reach_goals,
            count_goals,
            turn_limit: game.turn_limit,
            empty: id_of("empty"),
        };
        let mut initial = reasoner.initial.clone();
        reasoner.judge(&mut initial, Side::Black);
        reasoner.initial = initial;
        reasoner
    }

    /// The (from, to) vertices of a move of this reasoner.
    pub fn move_squares(m: &[Action]) -> Option<(u32, u32)> {
        match m {
            [from, to] => Some((from.vertex, to.vertex)),
            _ => None,
        }
    }

    /// The move from `from` to `to` as actions.
    pub fn move_of_squares(from: u32, to: u32) -> [Action; 2] {
        [Action::new(1, from), Action::new(2, to)]
    }

    /// Decides the game after `mover` moved (see the module documentation).
    fn judge(&self, s: &mut SbgState, mover: Side) {
        let mut won = [false; 2];
        for (side, piece, vertices) in &self.reach_goals {
            if vertices.iter().any(|&v| s.board[v as usize] == *piece) {
                won[side_index(*side)] = true;
            }
        }
        for (side, piece, count) in &self.count_goals {
            if u64::from(s.counts[*piece as usize]) <= *count {
                won[side_index(side.opponent())] = true;
            }
        }
        let final_scores = match won {
            [true, false] => Some([100, 0]),
            [false, true] => Some([0, 100]),
            [true, true] => Some([50, 50]),
            [false, false] if s.half_moves >= self.turn_limit => Some([50, 50]),
            [false, false] => None,
        };
        match final_scores {
            Some(scores) => {
                s.scores = scores;
                s.ended = true;
            }
            None => {
                s.scores = [0, 0];
                s.scores[side_index(mover)] = 100;
            }
        }
    }

    /// Fills `sc.destinations` (sorted) with the squares the piece on `from` can move to.
    fn destinations(&self, s: &SbgState, from: u32, automaton: &PieceAutomaton, sc: &mut SbgScratch) {
        let area = s.board.len();
        let needed = (automaton.letters.len() * area).div_ceil(64);
        if sc.visited.len() < needed {
            sc.visited.resize(needed, 0);
        }
        if sc.is_destination.len() < area {
            sc.is_destination.resize(area, false);
        }
        let mover = s.to_move;
        let forward = if mover == Side::White { 1 } else { -1 };
        let add = |sc: &mut SbgScratch, vertex: u32| {
            if !sc.is_destination[vertex as usize] {
                sc.is_destination[vertex as usize] = true;
                sc.destinations.push(vertex);
            }
        };
        if automaton.accepts_empty {
            add(sc, from);
        }
        // Tries to read letter `state` from `vertex`: where it lands, if there and new.
        let step = |sc: &mut SbgScratch, state: u32, vertex: u32| {
            let letter = &automaton.letters[state as usize];
            let (x, row) = (vertex as i32 % self.width, vertex as i32 / self.width);
            let (tx, trow) = (x + letter.dx, row - forward * letter.dy);
            if !(0..self.width).contains(&tx) || !(0..self.height).contains(&trow) {
                return;
            }
            let target = (trow * self.width + tx) as u32;
            let piece = s.board[target as usize];
            let ok = match letter.on {
                crate::syntax::On::Empty => piece == self.empty,
                crate::syntax::On::Opponent => self.owner[piece as usize] == Some(mover.opponent()),
                crate::syntax::On::Own => self.owner[piece as usize] == Some(mover),
            };
            let bit = state as usize * area + target as usize;
            if ok && sc.visited[bit / 64] & (1 << (bit % 64)) == 0 {
                sc.visited[bit / 64] |= 1 << (bit % 64);
                sc.touched.push(bit);
                sc.stack.push((state, target));
            }
        };
        for &state in &automaton.first {
            step(sc, state, from);
        }
        while let Some((state, vertex)) = sc.stack.pop() {
            if automaton.accepting[state as usize] {
                add(sc, vertex);
            }
            for &next in &automaton.follow[state as usize] {
                step(sc, next, vertex);
            }
        }
        for bit in sc.touched.drain(..) {
            sc.visited[bit / 64] = 0;
        }
        sc.destinations.sort_unstable();
    }
}

impl Game for SbgReasoner {
    type State = SbgState;
    type Scratch = SbgScratch;

    fn info(&self) -> &GameInfo {
        &self.info
    }

    fn new_scratch(&self) -> SbgScratch {
        SbgScratch::default()
    }

    fn initial_state(&self) -> SbgState {
        self.initial.clone()
    }

    fn current_player(&self, s: &SbgState) -> Player {
        match (s.ended, s.to_move) {
            (true, _) => KEEPER,
            (false, Side::White) => 1,
            (false, Side::Black) => 2,
        }
    }

    fn current_vertex(&self, _s: &SbgState) -> u32 {
        0
    }

    fn piece(&self, s: &SbgState, vertex: u32) -> u32 {
        s.board.get(vertex as usize).map_or(0, |&p| u32::from(p))
    }

    fn variable(&self, s: &SbgState, var: usize) -> i64 {
        match var {
            0 | 1 => s.scores[var],
            _ => s.half_moves as i64,
        }
    }

    fn rules_state(&self, s: &SbgState) -> u32 {
        self.current_player(s)
    }

    fn visit_moves<F>(
        &self,
        s: &mut SbgState,
        sc: &mut SbgScratch,
        mut visit: F,
    ) -> Result<ControlFlow<()>, SearchError>
    where
        F: FnMut(&[Action]) -> ControlFlow<()>,
    {
        if s.ended {
            return Ok(ControlFlow::Continue(()));
        }
        for from in 0..s.board.len() as u32 {
            let piece = s.board[from as usize] as usize;
            if self.owner[piece] != Some(s.to_move) {
                continue;
            }
            let Some(automaton) = self.automaton_of[piece] else { continue };
            self.destinations(s, from, &self.automata[automaton], sc);
            let mut flow = ControlFlow::Continue(());
            for &to in &sc.destinations {
                sc.is_destination[to as usize] = false;
                if flow.is_continue() {
                    flow = visit(&Self::move_of_squares(from, to));
                }
            }
            sc.destinations.clear();
            if flow.is_break() {
                return Ok(flow);
            }
        }
        Ok(ControlFlow::Continue(()))
    }

    fn apply_move(&self, s: &mut SbgState, m: &[Action]) {
        // Moves are trusted (see the trait); a malformed one is ignored rather than a panic.
        let Some((from, to)) = Self::move_squares(m) else { return };
        let (from, to) = (from as usize, to as usize);
        if from >= s.board.len() || to >= s.board.len() || s.ended {
            return;
        }
        if from != to {
            let captured = s.board[to];
            s.counts[captured as usize] -= 1;
            s.counts[self.empty as usize] += 1;
            s.board[to] = s.board[from];
            s.board[from] = self.empty;
        }
        s.half_moves += 1;
        let mover = s.to_move;
        s.to_move = mover.opponent();
        self.judge(s, mover);
    }

    fn state_from_parts(&self, parts: &StateParts) -> Result<SbgState, StateCodecError> {
        let bad = |what: &'static str, value: i128| StateCodecError::OutOfRange { what, value };
        let mut counts = vec![0u32; self.info.pieces.len()];
        let mut board = Vec::with_capacity(parts.pieces.len());
        for &piece in &parts.pieces {
            let known = self.owner.get(piece as usize).is_some();
            let is_mark = self.automaton_of.get(piece as usize) == Some(&None)
                && self.info.pieces.get(piece as usize).is_some_and(|n| n.ends_with("Origin"));
            if !known || is_mark {
                return Err(bad("piece", i128::from(piece)));
            }
            counts[piece as usize] += 1;
            board.push(piece as u8);
        }
        let [white, black, half_moves] = parts.variables[..] else {
            return Err(bad("variable count", parts.variables.len() as i128));
        };
        let (ended, to_move) = match (parts.player, parts.rules_state) {
            (KEEPER, KEEPER) => (true, if half_moves % 2 == 0 { Side::White } else { Side::Black }),
            (1, 1) => (false, Side::White),
            (2, 2) => (false, Side::Black),
            (_, r) => return Err(bad("rules state", i128::from(r))),
        };
        Ok(SbgState { board, counts, half_moves: half_moves as u64, to_move, ended, scores: [white, black] })
    }
}
