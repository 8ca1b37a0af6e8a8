//! Moves: `(action index, vertex)` pairs and a reusable arena of moves.

use core::fmt;

use crate::game::SearchError;

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
}
