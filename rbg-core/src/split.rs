//! Moves one step at a time: a prefix view over one state's legal moves, for agents that
//! search over sub-moves (split-move MCTS) instead of whole moves.
//!
//! A move is a sequence of actions; a *partial move* is a prefix of at least one legal move.
//! [`SplitMoves`] keeps a state's legal moves together with their order sorted lexicographically
//! by actions. In that order the moves sharing any prefix form one contiguous range, so a
//! partial move is just a [`PartialMove`]: a range of positions in the order and the length of
//! the shared prefix. Its children, the distinct *steps* that extend it, are found by binary
//! search inside the range, without allocating.
//!
//! A step is one action, or, when compressing, the longest run of actions shared by every move
//! of its range: a stretch of the move where the player has no choice (a piece leaving its
//! square and the switch that follows, say) is then one step, and every node a tree builds from
//! these steps offers a real choice.
//!
//! Every step comes from a legal full move, so every partial move can be completed: an agent
//! walking these steps never reaches a dead end (unlike the reference's semisplit getters,
//! which report actions legal only as prefixes and make agents backtrack).
//!
//! Invariants the view relies on, both guaranteed by the reasoners (ARCHITECTURE.md,
//! invariants 3 and 4): every move ends with a switch, so no legal move is a proper prefix of
//! another; and a state's moves are distinct. The view stays well defined without them: a
//! range holding a move that equals its prefix is complete and has no children.

use core::cmp::Ordering;

use rand::Rng;

use crate::game::{Game, SearchError};
use crate::moves::{Action, MoveList};
use crate::PlayoutRng;

/// A partial move of a [`SplitMoves`]: the moves at positions `start..end` of the sorted order
/// all begin with the same `depth` actions (the partial move itself). Only meaningful for the
/// view (and the state) it came from, or a view rebuilt from the same state, which gives the
/// same order.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct PartialMove {
    /// First position of the range in the sorted order.
    pub start: u32,
    /// One past the last position.
    pub end: u32,
    /// Number of actions of the partial move.
    pub depth: u32,
}

impl PartialMove {
    /// Number of legal moves that complete this partial move.
    pub fn completions(&self) -> usize {
        (self.end - self.start) as usize
    }
}

/// One way to extend a partial move: the actions added and the partial move they lead to.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Step<'a> {
    /// The actions this step adds (one, or a run when compressing; never empty).
    pub actions: &'a [Action],
    /// The partial move after the step.
    pub next: PartialMove,
}

/// A state's legal moves seen as a tree of prefixes (see the module documentation).
///
/// Reuse one value across states: [`SplitMoves::fill`] keeps the buffers' capacity, so a
/// search stops allocating once they have grown to the largest move list seen.
#[derive(Clone, Debug, Default)]
pub struct SplitMoves {
    moves: MoveList,
    /// Indices into `moves`, sorted by the moves' actions (ties, which only duplicate moves
    /// have, by index, so that the order is a function of the move list alone).
    order: Vec<u32>,
}

impl SplitMoves {
    /// An empty view whose move list has the default limit.
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty view whose move list holds at most `max_actions` actions in all
    /// ([`MoveList::with_limit`]).
    pub fn with_limit(max_actions: usize) -> Self {
        SplitMoves { moves: MoveList::with_limit(max_actions), order: Vec::new() }
    }

    /// Replaces the moves with those `generate` writes into the (cleared) list, then sorts
    /// them. On an error the view holds the moves that were written before it, sorted, and the
    /// error is returned.
    pub fn fill<E>(&mut self, generate: impl FnOnce(&mut MoveList) -> Result<(), E>) -> Result<(), E> {
        self.moves.clear();
        let result = generate(&mut self.moves);
        self.sort();
        result
    }

    /// Rebuilds the sorted order after the move list changed.
    fn sort(&mut self) {
        let moves = &self.moves;
        self.order.clear();
        self.order.extend(0..moves.len() as u32);
        // An unstable sort allocates nothing; the index tie-break makes it deterministic.
        self.order
            .sort_unstable_by(|&a, &b| moves.get(a as usize).cmp(moves.get(b as usize)).then(a.cmp(&b)));
    }

    /// The legal moves in the reasoner's order.
    pub fn moves(&self) -> &MoveList {
        &self.moves
    }

    /// Number of legal moves.
    pub fn len(&self) -> usize {
        self.order.len()
    }

    /// Whether there is no legal move.
    pub fn is_empty(&self) -> bool {
        self.order.is_empty()
    }

    /// The empty partial move, which every legal move extends.
    pub fn root(&self) -> PartialMove {
        PartialMove { start: 0, end: self.order.len() as u32, depth: 0 }
    }

    /// The move at `position` of the sorted order.
    fn sorted(&self, position: u32) -> &[Action] {
        self.moves.get(self.order[position as usize] as usize)
    }

    /// The `i`-th completion of `p` (in sorted order, `i < p.completions()`): a full legal
    /// move beginning with `p`'s actions. Returns `None` when `i` is out of range.
    pub fn completion(&self, p: PartialMove, i: usize) -> Option<&[Action]> {
        let end = (p.end as usize).min(self.order.len());
        let position = (p.start as usize).checked_add(i).filter(|&pos| pos < end)?;
        Some(self.sorted(position as u32))
    }

    /// The actions of the partial move `p` (empty for an empty range).
    pub fn prefix(&self, p: PartialMove) -> &[Action] {
        match self.completion(p, 0) {
            Some(first) => &first[..(p.depth as usize).min(first.len())],
            None => &[],
        }
    }

    /// Whether `p` is a whole legal move: no action remains to be chosen.
    pub fn is_complete(&self, p: PartialMove) -> bool {
        // A move equal to the prefix sorts before every longer move sharing it, so it is the
        // first of the range if it is there at all.
        self.completion(p, 0).is_some_and(|first| first.len() == p.depth as usize)
    }

    /// The full move of a complete partial move (see [`SplitMoves::is_complete`]).
    pub fn complete_move(&self, p: PartialMove) -> Option<&[Action]> {
        self.is_complete(p).then(|| self.sorted(p.start))
    }

    /// The distinct steps extending `p`, in sorted order of their first action; none when `p`
    /// is complete or empty. With `compress`, each step runs as far as all its completions
    /// agree.
    pub fn steps(&self, p: PartialMove, compress: bool) -> Steps<'_> {
        // A range that did not come from this view is cut to it rather than read past it.
        let end = p.end.min(self.order.len() as u32);
        let mut position = p.start;
        // Skip a move that ends at the prefix (it has no next action); see `is_complete`.
        while position < end && self.sorted(position).len() <= p.depth as usize {
            position += 1;
        }
        Steps { view: self, end, depth: p.depth, position, compress }
    }

    /// Number of steps extending `p` (a walk over them, without allocating).
    pub fn step_count(&self, p: PartialMove, compress: bool) -> usize {
        self.steps(p, compress).count()
    }

    /// The step extending `p` whose actions begin `actions`, if `p` has one: how a move that
    /// was played is followed down a tree of steps.
    pub fn step_along<'a>(&'a self, p: PartialMove, actions: &[Action], compress: bool) -> Option<Step<'a>> {
        let first = actions.first()?;
        self.steps(p, compress).find(|s| s.actions[0] == *first && actions.starts_with(s.actions))
    }
}

/// The steps extending one partial move ([`SplitMoves::steps`]).
#[derive(Clone, Debug)]
pub struct Steps<'a> {
    view: &'a SplitMoves,
    end: u32,
    depth: u32,
    /// The first position of the next step's range.
    position: u32,
    compress: bool,
}

impl<'a> Iterator for Steps<'a> {
    type Item = Step<'a>;

    fn next(&mut self) -> Option<Step<'a>> {
        if self.position >= self.end {
            return None;
        }
        let view = self.view;
        let depth = self.depth as usize;
        let first = view.sorted(self.position);
        let action = *first.get(depth)?;
        // Past the skipped short move, every move of the range is longer than the prefix and
        // they are sorted by their action at `depth`: the step's moves are a leading run.
        let rest = &view.order[self.position as usize..self.end as usize];
        let count =
            rest.partition_point(|&i| view.moves.get(i as usize).get(depth) == Some(&action)).max(1) as u32;
        let start = self.position;
        let end = start + count;
        self.position = end;
        let mut step_end = depth + 1;
        if self.compress {
            // In lexicographic order the prefix shared by all moves of a range is the prefix
            // shared by its first and last ones.
            let last = view.sorted(end - 1);
            step_end = common_prefix(first, last).max(step_end);
        }
        Some(Step {
            actions: &first[depth..step_end],
            next: PartialMove { start, end, depth: step_end as u32 },
        })
    }
}

/// The bookkeeping of an engine's [`Game::next_actions`] search, shared by the interpreter
/// and generated code: the engine asks [`NextActionsFilter::admit`] before applying each
/// modifier of the move under construction, reports complete moves to
/// [`NextActionsFilter::found`], and when that asks to stop, unwinds only to the action
/// number [`NextActionsFilter::resume_position`] and goes on with its alternatives.
///
/// Correctness rests on invariant 4 of ARCHITECTURE.md: within one modifier prefix a given
/// action is applied at most once, so the subtree below a next action is entered once, and
/// abandoning it after its first completion loses no other next action.
#[derive(Debug)]
pub struct NextActionsFilter<'a> {
    prefix: &'a [Action],
    out: &'a mut Vec<Action>,
}

impl<'a> NextActionsFilter<'a> {
    /// A filter for the partial move `prefix`, collecting into `out` (cleared).
    pub fn new(prefix: &'a [Action], out: &'a mut Vec<Action>) -> Self {
        out.clear();
        NextActionsFilter { prefix, out }
    }

    /// Whether `action` may be the move's action number `position`: the prefix's own action
    /// there, or anything past the prefix.
    #[inline(always)]
    pub fn admit(&self, position: usize, action: Action) -> bool {
        self.prefix.get(position).is_none_or(|&wanted| wanted == action)
    }

    /// A complete move beginning with the prefix: records its next action. Returns `true`
    /// when the search should abandon the rest of that action's subtree (the move goes on
    /// past it), `false` when there is nothing below to abandon.
    #[inline(always)]
    pub fn found(&mut self, mv: &[Action]) -> bool {
        match mv.get(self.prefix.len()) {
            Some(&next) => {
                self.out.push(next);
                mv.len() > self.prefix.len() + 1
            }
            None => false,
        }
    }

    /// The action number whose subtree a stop abandons.
    #[inline(always)]
    pub fn resume_position(&self) -> usize {
        self.prefix.len()
    }
}

/// One step made by a [`StepGenerator`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct GeneratedStep<'a> {
    /// The actions the step adds (one, or a run when compressing; never empty).
    pub actions: &'a [Action],
    /// The step ends with a switch: the partial move with it is a whole legal move.
    pub complete: bool,
}

/// The steps of a partial move found by the reasoner itself, through [`Game::next_actions`]
/// (one search per choice, each stopping at the first completion of every next action),
/// instead of by listing every legal move as [`SplitMoves`] does. The two offer the same
/// steps (in the reasoner's search order here, in sorted order there).
///
/// With `compress`, a step goes on while its partial move has exactly one next action (one
/// more search per such action), so that it is the same run of actions as
/// [`SplitMoves::steps`] gives. Reuse one value: its buffers keep their capacity.
#[derive(Clone, Debug, Default)]
pub struct StepGenerator {
    /// The steps' actions back to back.
    actions: Vec<Action>,
    /// `(start, end, complete)` of each step in `actions`.
    steps: Vec<(u32, u32, bool)>,
    /// The partial move being extended, and the next actions of one search.
    prefix: Vec<Action>,
    next: Vec<Action>,
    first: Vec<Action>,
}

impl StepGenerator {
    /// An empty generator.
    pub fn new() -> Self {
        Self::default()
    }

    /// Replaces the steps with those extending `prefix` (a partial move of the state `s`).
    /// No step when `prefix` is a whole move or no legal move begins with it.
    pub fn generate<G: Game + ?Sized>(
        &mut self,
        game: &G,
        s: &mut G::State,
        sc: &mut G::Scratch,
        prefix: &[Action],
        compress: bool,
    ) -> Result<(), SearchError> {
        self.actions.clear();
        self.steps.clear();
        game.next_actions(s, sc, prefix, &mut self.first)?;
        let first = core::mem::take(&mut self.first);
        let result = first.iter().try_for_each(|&a| self.push_step(game, s, sc, prefix, a, compress));
        self.first = first;
        result
    }

    fn push_step<G: Game + ?Sized>(
        &mut self,
        game: &G,
        s: &mut G::State,
        sc: &mut G::Scratch,
        prefix: &[Action],
        first: Action,
        compress: bool,
    ) -> Result<(), SearchError> {
        let start = self.actions.len() as u32;
        self.actions.push(first);
        let mut complete = game.info().is_switch(first.index);
        if compress && !complete {
            self.prefix.clear();
            self.prefix.extend_from_slice(prefix);
            self.prefix.push(first);
            loop {
                game.next_actions(s, sc, &self.prefix, &mut self.next)?;
                let [only] = self.next[..] else { break };
                self.actions.push(only);
                self.prefix.push(only);
                if game.info().is_switch(only.index) {
                    complete = true;
                    break;
                }
            }
        }
        self.steps.push((start, self.actions.len() as u32, complete));
        Ok(())
    }

    /// Number of steps.
    pub fn len(&self) -> usize {
        self.steps.len()
    }

    /// Whether there is no step.
    pub fn is_empty(&self) -> bool {
        self.steps.is_empty()
    }

    /// The `i`-th step.
    pub fn get(&self, i: usize) -> Option<GeneratedStep<'_>> {
        let &(start, end, complete) = self.steps.get(i)?;
        Some(GeneratedStep { actions: &self.actions[start as usize..end as usize], complete })
    }

    /// The steps in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = GeneratedStep<'_>> + '_ {
        self.steps.iter().map(|&(start, end, complete)| GeneratedStep {
            actions: &self.actions[start as usize..end as usize],
            complete,
        })
    }

    /// Extends the partial move `mv` of the state `s` to a whole legal move, one uniformly
    /// random next action at a time (the paper's semi-split random walk: a move's chance is
    /// the product of its choices' 1/k, not uniform over moves). Returns `false`, with `mv`
    /// as far as it got, if some partial move had no next action (never for a prefix of a
    /// legal move).
    pub fn complete_randomly<G: Game + ?Sized>(
        &mut self,
        game: &G,
        s: &mut G::State,
        sc: &mut G::Scratch,
        mv: &mut Vec<Action>,
        rng: &mut PlayoutRng,
    ) -> Result<bool, SearchError> {
        while mv.last().is_none_or(|a| !game.info().is_switch(a.index)) {
            game.next_actions(s, sc, mv, &mut self.next)?;
            if self.next.is_empty() {
                return Ok(false);
            }
            let k = rng.gen_range(0..self.next.len());
            mv.push(self.next[k]);
        }
        Ok(true)
    }
}

/// Length of the longest common prefix of two moves.
fn common_prefix(a: &[Action], b: &[Action]) -> usize {
    a.iter().zip(b).take_while(|(x, y)| x.cmp(y) == Ordering::Equal).count()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Game, SearchError};
    use crate::toy::Nim;

    fn a(index: u32, vertex: u32) -> Action {
        Action::new(index, vertex)
    }

    fn view(moves: &[Vec<Action>]) -> SplitMoves {
        let mut v = SplitMoves::new();
        v.fill(|list| {
            for m in moves {
                list.push(m);
            }
            Ok::<(), ()>(())
        })
        .unwrap();
        v
    }

    /// (actions, completions, depth after) of each step.
    fn steps(v: &SplitMoves, p: PartialMove, compress: bool) -> Vec<(Vec<Action>, usize, u32)> {
        v.steps(p, compress).map(|s| (s.actions.to_vec(), s.next.completions(), s.next.depth)).collect()
    }

    /// Moves of a made-up game where a piece at vertex 5 or 7 moves: from 5 it goes to 1 or 2
    /// (off 1, then on 2 at the target, then switch 9), from 7 only to 3. Listed out of order.
    fn piece_moves() -> Vec<Vec<Action>> {
        vec![
            vec![a(1, 7), a(2, 3), a(9, 3)],
            vec![a(1, 5), a(2, 2), a(9, 2)],
            vec![a(1, 5), a(2, 1), a(9, 1)],
        ]
    }

    #[test]
    fn moves_sharing_a_prefix_are_grouped_into_one_step() {
        let v = view(&piece_moves());
        let root = v.root();
        assert_eq!(root.completions(), 3);
        assert!(!v.is_complete(root));
        // One action at a time: the two origins, 5 first (sorted by vertex).
        assert_eq!(steps(&v, root, false), vec![(vec![a(1, 5)], 2, 1), (vec![a(1, 7)], 1, 1)]);
        let from5 = v.steps(root, false).next().unwrap().next;
        assert_eq!(v.prefix(from5), &[a(1, 5)]);
        assert_eq!(steps(&v, from5, false), vec![(vec![a(2, 1)], 1, 2), (vec![a(2, 2)], 1, 2)]);
        let to1 = v.steps(from5, false).next().unwrap().next;
        assert_eq!(steps(&v, to1, false), vec![(vec![a(9, 1)], 1, 3)]);
        let done = v.steps(to1, false).next().unwrap().next;
        assert!(v.is_complete(done));
        assert_eq!(v.complete_move(done), Some(&[a(1, 5), a(2, 1), a(9, 1)][..]));
        assert_eq!(v.step_count(done, false), 0);
        assert!(!v.is_complete(to1));
        assert_eq!(v.complete_move(to1), None);
    }

    #[test]
    fn compression_merges_runs_without_a_choice() {
        let v = view(&piece_moves());
        let root = v.root();
        // From 7 there is one move: the whole of it is one step.
        assert_eq!(
            steps(&v, root, true),
            vec![(vec![a(1, 5)], 2, 1), (vec![a(1, 7), a(2, 3), a(9, 3)], 1, 3)]
        );
        let from5 = v.steps(root, true).next().unwrap().next;
        assert_eq!(
            steps(&v, from5, true),
            vec![(vec![a(2, 1), a(9, 1)], 1, 3), (vec![a(2, 2), a(9, 2)], 1, 3)]
        );
        for step in v.steps(from5, true) {
            assert!(v.is_complete(step.next));
        }
        // A shared run at the start is one step too.
        let v = view(&[vec![a(4, 0), a(5, 0), a(6, 1)], vec![a(4, 0), a(5, 0), a(6, 2)]]);
        assert_eq!(steps(&v, v.root(), true), vec![(vec![a(4, 0), a(5, 0)], 2, 2)]);
        assert_eq!(steps(&v, v.root(), false), vec![(vec![a(4, 0)], 2, 1)]);
    }

    #[test]
    fn following_a_played_move_finds_its_steps() {
        let v = view(&piece_moves());
        let played = [a(1, 5), a(2, 2), a(9, 2)];
        let first = v.step_along(v.root(), &played, false).unwrap();
        assert_eq!(first.actions, &[a(1, 5)]);
        let second = v.step_along(first.next, &played[1..], true).unwrap();
        assert_eq!(second.actions, &[a(2, 2), a(9, 2)]);
        assert!(v.is_complete(second.next));
        assert!(v.step_along(v.root(), &[a(1, 6)], true).is_none());
        assert!(v.step_along(v.root(), &[], true).is_none());
        // A compressed step longer than what is left does not match.
        assert!(v.step_along(v.root(), &[a(1, 7), a(2, 3)], true).is_none());
    }

    #[test]
    fn an_empty_list_has_no_steps_and_nothing_complete() {
        let v = view(&[]);
        let root = v.root();
        assert!(v.is_empty());
        assert_eq!(root.completions(), 0);
        assert!(!v.is_complete(root));
        assert_eq!(v.step_count(root, true), 0);
        assert_eq!(v.prefix(root), &[] as &[Action]);
        assert_eq!(v.completion(root, 0), None);
    }

    #[test]
    fn duplicate_moves_form_a_complete_range_without_children() {
        let m = vec![a(3, 1), a(9, 1)];
        let v = view(&[m.clone(), m.clone(), vec![a(3, 2), a(9, 2)]]);
        let first = v.steps(v.root(), false).next().unwrap();
        assert_eq!(first.next.completions(), 2);
        let done = v.steps(first.next, false).next().unwrap().next;
        assert!(v.is_complete(done));
        assert_eq!(done.completions(), 2);
        assert_eq!(v.step_count(done, false), 0);
        assert_eq!(v.step_count(done, true), 0);
    }

    #[test]
    fn the_trait_default_lists_the_legal_moves() {
        // Nim: the player takes 1 or 2 stones (actions 1@0 and 2@0); one stone left: only 1@0.
        let game = Nim::new(3);
        let mut sc = ();
        let mut s = game.initial_state();
        assert!(game.complete_keeper(&mut s, &mut sc, 10).unwrap());
        let mut v = SplitMoves::new();
        game.split_moves(&mut s, &mut sc, &mut v).unwrap();
        assert_eq!(steps(&v, v.root(), true), vec![(vec![a(1, 0)], 1, 1), (vec![a(2, 0)], 1, 1)]);
        game.apply_move(&mut s, &[a(2, 0)]);
        assert!(game.complete_keeper(&mut s, &mut sc, 10).unwrap());
        game.split_moves(&mut s, &mut sc, &mut v).unwrap();
        assert_eq!(steps(&v, v.root(), true), vec![(vec![a(1, 0)], 1, 1)]);
        // A list too small for the moves reports the overflow, like `legal_moves`.
        let mut small = SplitMoves::with_limit(0);
        assert_eq!(
            game.split_moves(&mut s, &mut sc, &mut small),
            Err(SearchError::TooManyMoves { limit: 0 })
        );
        assert!(small.is_empty());
    }
}
