//! Moves: `(action index, vertex)` pairs, a reusable arena of moves, and checked play.
//!
//! Checked play ([`apply_if_legal`], [`check_listed`]) is the one place where a move from an
//! untrusted source (a user, a network peer, a log, a Python caller) is tested against the
//! legal moves before [`Game::apply_move`], which trusts its caller. A refusal says whose turn
//! it was and how many moves were legal.

use core::fmt;
use core::ops::ControlFlow;

use crate::game::{Game, Player, SearchError};

/// One modifier application of a move: the reference parser's index of the modifier (an off, an
/// assignment or a switch) and the vertex that was current when it was applied.
///
/// Vertices are numbered from 0 in board order (the order of the reference's printed board);
/// indices start at 1 (see the language reference, section 9.2).
///
/// `#[repr(C)]`: moves cross the C ABI of compiled reasoner libraries ([`crate::abi`]) as
/// arrays of this type.
#[repr(C)]
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Action {
    /// The modifier's action index (from 1).
    pub index: u32,
    /// The vertex where the modifier was applied (from 0).
    pub vertex: u32,
}

impl Action {
    /// The pair `(index, vertex)`.
    pub const fn new(index: u32, vertex: u32) -> Self {
        Action { index, vertex }
    }
}

impl fmt::Debug for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}@{}", self.index, self.vertex)
    }
}

/// A list of moves stored back to back in one buffer.
///
/// Clearing keeps the capacity, so a `MoveList` reused across calls stops allocating once it has
/// grown to the largest move list seen. Moves of any length fit, so games whose moves have no
/// static length bound need no special case.
///
/// **Bounded memory.** A list holds at most [`MoveList::limit`] actions in all (default
/// [`DEFAULT_MAX_ACTIONS`]); a move that does not fit is dropped and the list is marked
/// [`overflowed`](MoveList::overflowed) until the next [`clear`](MoveList::clear). Some games
/// have astronomically many legal moves in one state (a move may mark any set of cells in any
/// order); the bound turns "out of memory" into [`SearchError::TooManyMoves`].
#[derive(Clone, PartialEq, Eq)]
pub struct MoveList {
    actions: Vec<Action>,
    /// `(start, end)` of each move in `actions`; removing a move only touches this vector.
    spans: Vec<(u32, u32)>,
    /// Most actions `actions` may hold.
    limit: usize,
    /// A move was dropped because it did not fit in `limit`.
    overflowed: bool,
}

/// Default bound on the actions one [`MoveList`] holds: 2^24 actions, 128 MiB of actions plus
/// the moves' spans. The largest move lists of the corpus games are far below it.
pub const DEFAULT_MAX_ACTIONS: usize = 1 << 24;

impl Default for MoveList {
    fn default() -> Self {
        MoveList::with_limit(DEFAULT_MAX_ACTIONS)
    }
}

impl MoveList {
    /// An empty list with the default limit.
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty list that holds at most `max_actions` actions in all (clamped to `u32::MAX`,
    /// the largest offset a list can store).
    pub fn with_limit(max_actions: usize) -> Self {
        MoveList {
            actions: Vec::new(),
            spans: Vec::new(),
            limit: max_actions.min(u32::MAX as usize),
            overflowed: false,
        }
    }

    /// The most actions the list holds.
    #[inline]
    pub fn limit(&self) -> usize {
        self.limit
    }

    /// Whether a move was dropped since the last [`clear`](MoveList::clear) because the list was
    /// full.
    #[inline]
    pub fn overflowed(&self) -> bool {
        self.overflowed
    }

    /// `Err(TooManyMoves)` if the list [`overflowed`](MoveList::overflowed).
    pub fn check(&self) -> Result<(), SearchError> {
        if self.overflowed {
            Err(SearchError::TooManyMoves { limit: self.limit })
        } else {
            Ok(())
        }
    }

    /// Removes all moves (keeping the capacity) and resets the overflow mark.
    #[inline]
    pub fn clear(&mut self) {
        self.actions.clear();
        self.spans.clear();
        self.overflowed = false;
    }

    // Always inlined: a caller that knows the move's length (generated reasoners usually do)
    // then copies it with a few moves instead of a call (measured: half of the move generation
    // time of amazons went into an outlined `push`).
    /// Appends a move; if it does not fit in the limit it is dropped and the list marked
    /// [`overflowed`](MoveList::overflowed).
    #[inline(always)]
    pub fn push(&mut self, m: &[Action]) {
        // The limit is enforced where the buffer grows, and growth never takes the capacity
        // past the limit: a list with room pays only the capacity test that `extend` makes
        // anyway (a separate limit test cost compiled playouts about 4% of their instructions).
        if self.actions.capacity() - self.actions.len() < m.len() && !self.make_room(m.len()) {
            self.overflowed = true;
            return;
        }
        let start = self.actions.len() as u32;
        self.actions.extend_from_slice(m);
        self.spans.push((start, self.actions.len() as u32));
    }

    /// Grows the buffer for `extra` more actions, to at most the limit; `false` if they do not
    /// fit in it.
    #[cold]
    #[inline(never)]
    fn make_room(&mut self, extra: usize) -> bool {
        let needed = self.actions.len() + extra;
        if needed > self.limit {
            return false;
        }
        let target = (self.actions.capacity() * 2).max(needed).max(64).min(self.limit);
        self.actions.reserve_exact(target - self.actions.len());
        true
    }

    /// Number of moves.
    #[inline]
    pub fn len(&self) -> usize {
        self.spans.len()
    }

    /// Whether the list has no moves.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.spans.is_empty()
    }

    /// The `i`-th move. Panics if `i >= self.len()`.
    #[inline]
    pub fn get(&self, i: usize) -> &[Action] {
        let (start, end) = self.spans[i];
        &self.actions[start as usize..end as usize]
    }

    /// The moves in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = &[Action]> + '_ {
        (0..self.len()).map(move |i| self.get(i))
    }

    /// Removes the `i`-th move in O(1) by moving the last one into its place.
    #[inline]
    pub fn swap_remove(&mut self, i: usize) {
        self.spans.swap_remove(i);
    }

    /// Keeps only the moves for which `keep` is true, in their order.
    pub fn retain(&mut self, mut keep: impl FnMut(&[Action]) -> bool) {
        let actions = &self.actions;
        self.spans.retain(|&(start, end)| keep(&actions[start as usize..end as usize]));
    }
}

/// Appends the action `(index, v)` for every set bit `v` of `words` (bit `b` of `words[k]` is
/// vertex `64 k + b`), in ascending vertex order: the moves of a switch at every vertex of a
/// piece-location set (a generated reasoner's [`Game::monotonic_moves`](crate::Game::monotonic_moves)).
///
/// One shared, tested loop instead of one per class in every generated crate. The slots are
/// made first and then written through an iterator (no capacity test per move; measured on
/// gomoku, about as fast as a generated `push` loop: 13 instructions a move either way).
pub fn push_set_bits(out: &mut Vec<Action>, index: u32, words: &[u64]) {
    let start = out.len();
    let count: usize = words.iter().map(|w| w.count_ones() as usize).sum();
    out.resize(start + count, Action::default());
    let mut slots = out[start..].iter_mut();
    for (k, &word) in words.iter().enumerate() {
        let mut bits = word;
        while bits != 0 {
            let v = k as u32 * 64 + bits.trailing_zeros();
            bits &= bits - 1;
            if let Some(slot) = slots.next() {
                *slot = Action::new(index, v);
            }
        }
    }
}

/// A move that is not one of the legal moves of the state it was offered in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IllegalMove {
    /// The player to move in that state (the keeper is [`crate::KEEPER`]).
    pub player: Player,
    /// How many moves were legal there.
    pub legal: u64,
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = if self.legal == 1 { "" } else { "s" };
        write!(
            f,
            "the move is not one of the {} legal move{s} of player {} in this state",
            self.legal, self.player
        )
    }
}

impl std::error::Error for IllegalMove {}

/// Why a checked move was not played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CheckedMoveError {
    /// The move is not legal there.
    Illegal(IllegalMove),
    /// The search for the legal moves stopped at a bound.
    Search(SearchError),
}

impl From<SearchError> for CheckedMoveError {
    fn from(e: SearchError) -> Self {
        CheckedMoveError::Search(e)
    }
}

impl From<IllegalMove> for CheckedMoveError {
    fn from(e: IllegalMove) -> Self {
        CheckedMoveError::Illegal(e)
    }
}

impl fmt::Display for CheckedMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CheckedMoveError::Illegal(e) => e.fmt(f),
            CheckedMoveError::Search(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for CheckedMoveError {}

/// `Ok` if `m` is one of `legal`, the legal moves (already listed) of a state where `player`
/// is to move.
pub fn check_listed(legal: &MoveList, player: Player, m: &[Action]) -> Result<(), IllegalMove> {
    if legal.iter().any(|candidate| candidate == m) {
        Ok(())
    } else {
        Err(IllegalMove { player, legal: legal.len() as u64 })
    }
}

/// `Ok` if `m` is a legal move of `s`; `s` is unchanged. A refusal counts the legal moves.
///
/// Decided by the move-by-move interface: `m`'s last action is a switch and
/// [`Game::next_actions`] of the rest offers it. The rest is then a prefix of some legal move
/// that the switch extends, and since a move ends at its switch (ARCHITECTURE.md, invariant 3)
/// that legal move is `m` itself. This costs one pruned search along the move, where looking
/// through the list costs every move before `m` in the search order (in paper soccer, whose
/// bounces chain into moves by the hundred thousand, about a second a move).
pub fn check_move<G: Game + ?Sized>(
    game: &G,
    s: &mut G::State,
    sc: &mut G::Scratch,
    m: &[Action],
) -> Result<(), CheckedMoveError> {
    if let Some((last, rest)) = m.split_last() {
        if game.info().is_switch(last.index) {
            let mut next = Vec::new();
            game.next_actions(s, sc, rest, &mut next)?;
            if next.contains(last) {
                return Ok(());
            }
        }
    }
    let legal = match game.count_moves(s, sc)? {
        Some(n) => n,
        None => {
            let mut n = 0u64;
            let _ = game.visit_moves(s, sc, |_| {
                n += 1;
                ControlFlow::Continue(())
            })?;
            n
        }
    };
    Err(IllegalMove { player: game.current_player(s), legal }.into())
}

/// Applies `m` to `s` if it is a legal move there ([`check_move`]); otherwise `s` is unchanged.
/// The keeper's moves that follow are not made (callers complete them with their own bound).
pub fn apply_if_legal<G: Game + ?Sized>(
    game: &G,
    s: &mut G::State,
    sc: &mut G::Scratch,
    m: &[Action],
) -> Result<(), CheckedMoveError> {
    check_move(game, s, sc, m)?;
    game.apply_move(s, m);
    Ok(())
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(v: &[(u32, u32)]) -> Vec<Action> {
        v.iter().map(|&(i, c)| Action::new(i, c)).collect()
    }

    #[test]
    fn set_bits_become_actions_in_vertex_order() {
        let mut out = vec![Action::new(9, 9)];
        push_set_bits(&mut out, 4, &[0b1010, 0, 1 << 63, 1]);
        assert_eq!(out, m(&[(9, 9), (4, 1), (4, 3), (4, 191), (4, 192)]));
        push_set_bits(&mut out, 4, &[]);
        assert_eq!(out.len(), 5);
    }

    #[test]
    fn push_get_and_swap_remove_keep_moves_intact() {
        let mut list = MoveList::new();
        let moves = [m(&[(1, 0)]), m(&[(2, 1), (3, 2)]), m(&[(4, 3), (5, 4), (6, 5)]), m(&[(7, 6)])];
        for mv in &moves {
            list.push(mv);
        }
        assert_eq!(list.len(), 4);
        assert_eq!(list.get(2), &moves[2][..]);
        list.swap_remove(1);
        let got: Vec<Vec<Action>> = list.iter().map(|x| x.to_vec()).collect();
        assert_eq!(got, vec![moves[0].clone(), moves[3].clone(), moves[2].clone()]);
        list.swap_remove(2);
        list.swap_remove(0);
        let got: Vec<Vec<Action>> = list.iter().map(|x| x.to_vec()).collect();
        assert_eq!(got, vec![moves[3].clone()]);
        list.swap_remove(0);
        assert!(list.is_empty());
        for mv in &moves {
            list.push(mv);
        }
        list.retain(|m| m.len() != 2);
        let got: Vec<Vec<Action>> = list.iter().map(|x| x.to_vec()).collect();
        assert_eq!(got, vec![moves[0].clone(), moves[2].clone(), moves[3].clone()]);
        list.clear();
        list.push(&moves[1]);
        assert_eq!(list.get(0), &moves[1][..]);
    }

    #[test]
    fn a_full_list_drops_moves_and_reports_overflow_until_cleared() {
        let mut list = MoveList::with_limit(3);
        list.push(&m(&[(1, 0), (2, 0)]));
        list.push(&m(&[(3, 0)]));
        assert!(!list.overflowed());
        assert_eq!(list.check(), Ok(()));
        list.push(&m(&[(4, 0)]));
        assert!(list.overflowed());
        assert_eq!(list.len(), 2);
        assert_eq!(list.check(), Err(SearchError::TooManyMoves { limit: 3 }));
        list.clear();
        assert!(!list.overflowed());
        list.push(&m(&[(4, 0), (5, 0), (6, 0)]));
        assert_eq!(list.len(), 1);
        assert!(!list.overflowed());
    }

    /// Nim with 3 stones, player 1 to move: taking one or two stones is legal (2 moves), the
    /// keeper's pass and an empty move are not; a refused move leaves the state as it was.
    #[test]
    fn checked_play_refuses_illegal_moves_saying_whose_turn_and_how_many() {
        use crate::toy::Nim;
        let game = Nim::new(3);
        let mut s = game.initial_state();
        // Nim's scratch is `()`.
        let sc = &mut ();
        assert!(game.complete_keeper(&mut s, sc, 10).unwrap());
        let before = s.clone();
        for bad in [m(&[(3, 0)]), m(&[]), m(&[(1, 0), (1, 0)]), m(&[(1, 7)])] {
            let refused = apply_if_legal(&game, &mut s, sc, &bad);
            assert_eq!(refused, Err(CheckedMoveError::Illegal(IllegalMove { player: 1, legal: 2 })));
            assert_eq!(s, before);
        }
        apply_if_legal(&game, &mut s, sc, &m(&[(2, 0)])).unwrap();
        assert_eq!(game.variable(&s, 2), 1, "two of three stones taken");
        let mut listed = MoveList::new();
        game.legal_moves(&mut before.clone(), sc, &mut listed).unwrap();
        assert_eq!(check_listed(&listed, 1, &m(&[(1, 0)])), Ok(()));
        assert_eq!(check_listed(&listed, 1, &m(&[(4, 0)])), Err(IllegalMove { player: 1, legal: 2 }));
        let text = IllegalMove { player: 2, legal: 1 }.to_string();
        assert_eq!(text, "the move is not one of the 1 legal move of player 2 in this state");
    }
}
