//! Perft: counting the nodes of the game tree to a fixed depth.
//!
//! The counts follow the reference perft driver (rbg2cpp `test/perft.cpp`, language reference
//! section 11.2): depth counts moves of real players; keeper states are completed by applying the
//! keeper's first legal move, not branched, and are never counted themselves; a state whose
//! current player (real, or a stuck keeper) has no legal move counts as a node, and as a leaf
//! only at depth 0. `nodes` counts the root and every non-keeper state visited.
//!
//! Move lists are bounded ([`PerftOptions::max_move_actions`]); a state whose moves do not fit
//! is counted by streaming its moves from [`Game::visit_moves`] instead, so the count stays exact
//! in bounded memory (the search bounds of the reasoner still apply).
//!
//! A reasoner whose search builds child states ([`Game::visit_children`], the compiled engine)
//! is counted without move lists: each child is counted inside the search of its parent, which
//! then goes on to the next move. The work per node is the reference driver's (the state after
//! the move, its keeper completed, its moves generated) without storing the moves and applying
//! each again. The recursion per ply runs on a fresh stack segment when the stack runs low
//! ([`crate::stack::with_room`]), so the depth is the caller's to choose.

use core::ops::{Add, AddAssign, ControlFlow};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use rayon::prelude::*;

use crate::game::{Game, SearchError};
use crate::moves::{Action, MoveList, DEFAULT_MAX_ACTIONS};

/// Leaves (nodes at exactly the requested depth) and all nodes visited.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct PerftCounts {
    /// Nodes at exactly the requested depth.
    pub leaves: u64,
    /// All nodes counted (the root included, keeper states excluded).
    pub nodes: u64,
}

impl Add for PerftCounts {
    type Output = PerftCounts;
    fn add(self, o: PerftCounts) -> PerftCounts {
        PerftCounts { leaves: self.leaves + o.leaves, nodes: self.nodes + o.nodes }
    }
}

impl AddAssign for PerftCounts {
    fn add_assign(&mut self, o: PerftCounts) {
        *self = *self + o;
    }
}

/// How perft runs.
#[derive(Clone, Debug)]
pub struct PerftOptions {
    /// Worker threads; 1 runs on the calling thread. Clamped to [`MAX_THREADS`] and to the
    /// number of work items the split yields (see [`PerftSplit`]).
    pub threads: usize,
    /// How a parallel run divides the tree between the threads (unused with one thread).
    pub split: PerftSplit,
    /// Count the moves at the last ply instead of applying them. Both counters stay exact (every
    /// move at depth 1 yields exactly one node and one leaf), but it is not what the reference
    /// driver does, so speed figures with it are not comparable.
    pub bulk_last_ply: bool,
    /// Bound on consecutive keeper moves (see [`Game::complete_keeper`]).
    pub keeper_limit: u64,
    /// Most actions one stored move list holds ([`MoveList::with_limit`]); states with more
    /// are counted by streaming their moves.
    pub max_move_actions: usize,
    /// Most moves one state's streamed count may meet before it fails with
    /// [`SearchError::TooManyStreamedMoves`] (see [`DEFAULT_MAX_STREAMED_MOVES`]); a count from
    /// the children a search builds ([`Game::visit_children`]) allows this many or
    /// `max_move_actions`, whichever is more.
    pub max_streamed_moves: u64,
    /// A flag that stops the count: once it is raised, every subtree of two or more plies not
    /// yet counted counts as its root alone, so the count ends within a subtree of one ply
    /// (the flag is checked once per subtree, never per leaf, so an unraised flag costs
    /// nothing measurable). The counts of a stopped run mean nothing; the caller that raised
    /// the flag discards them. Only rbg-core's count sees it: an engine that counts subtrees
    /// itself (a compiled library across its C interface) finishes the subtree it was given.
    pub stop: Option<Arc<AtomicBool>>,
}

impl Default for PerftOptions {
    fn default() -> Self {
        PerftOptions {
            threads: 1,
            split: PerftSplit::Balanced,
            bulk_last_ply: false,
            keeper_limit: DEFAULT_KEEPER_LIMIT,
            max_move_actions: DEFAULT_MAX_ACTIONS,
            max_streamed_moves: DEFAULT_MAX_STREAMED_MOVES,
            stop: None,
        }
    }
}

impl PerftOptions {
    /// Whether the [`PerftOptions::stop`] flag is raised.
    fn stopped(&self) -> bool {
        self.stop.as_ref().is_some_and(|flag| flag.load(Ordering::Relaxed))
    }
}

/// How a parallel perft divides the tree into work items, the subtrees the threads count.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum PerftSplit {
    /// One item per root move. A root with few moves (reversi's 4, a forced first move) leaves
    /// threads idle while the largest subtree is still counted.
    Root,
    /// Whole plies are expanded breadth first until there are at least
    /// [`ITEMS_PER_THREAD`] items per thread (or nothing is left to expand), and the items are
    /// handed out one at a time, so a thread that finishes early takes the next one.
    #[default]
    Balanced,
}

/// The work items a [`PerftSplit::Balanced`] split aims at per thread. Items of one ply differ
/// in size (a check has few replies, a capture many); with dozens per thread the last one to
/// finish is a small part of the run, and expanding the plies above them costs a few move
/// generations per item.
pub const ITEMS_PER_THREAD: usize = 32;

/// Most work items a balanced split makes: it stops expanding a ply at this size (items are a
/// few words each; the states kept are those of the expanded nodes, fewer than the items).
pub const MAX_WORK_ITEMS: usize = 1 << 20;

/// Default bound on the moves of one state that perft counts, or a playout samples from, one
/// by one when they do not fit in a list: 2^24, seconds of enumeration, far
/// above any corpus game's (whose lists all fit).
pub const DEFAULT_MAX_STREAMED_MOVES: u64 = 1 << 24;

/// Default bound on consecutive keeper moves.
pub const DEFAULT_KEEPER_LIMIT: u64 = 100_000;

/// The most worker threads perft starts; larger requests are clamped (more threads than cores
/// only cost memory).
pub const MAX_THREADS: usize = 256;

/// Why a driver stopped without a result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DriverError {
    /// The keeper has no legal move in the initial state: no player ever moves.
    /// (The reference drivers print nothing in this case.)
    GameOverAtStart,
    /// A search exceeded a bound.
    Search(SearchError),
    /// The worker threads could not be started (the operating system's message).
    Threads(String),
}

impl From<SearchError> for DriverError {
    fn from(e: SearchError) -> Self {
        DriverError::Search(e)
    }
}

impl core::fmt::Display for DriverError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            DriverError::GameOverAtStart => {
                write!(f, "the keeper has no legal move in the initial state: the game is over before any player moves")
            }
            DriverError::Search(e) => e.fmt(f),
            DriverError::Threads(e) => write!(f, "cannot start the worker threads: {e}"),
        }
    }
}

impl std::error::Error for DriverError {}

/// The initial state after keeper completion, or `GameOverAtStart`.
pub fn root_state<G: Game>(
    game: &G,
    sc: &mut G::Scratch,
    keeper_limit: u64,
) -> Result<G::State, DriverError> {
    let mut root = game.initial_state();
    if game.complete_keeper(&mut root, sc, keeper_limit)? {
        Ok(root)
    } else {
        Err(DriverError::GameOverAtStart)
    }
}

/// Perft to `depth` from the keeper-completed initial state.
pub fn perft<G: Game>(game: &G, depth: u32, opts: &PerftOptions) -> Result<PerftCounts, DriverError> {
    perft_with_progress(game, depth, opts, &|_, _| {})
}

/// Like [`perft`]; `progress(done, total)` is called after each work item (a subtree: one per
/// root move with one thread) is counted.
pub fn perft_with_progress<G: Game>(
    game: &G,
    depth: u32,
    opts: &PerftOptions,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<PerftCounts, DriverError> {
    let mut sc = game.new_scratch();
    let mut root = root_state(game, &mut sc, opts.keeper_limit)?;
    if depth == 0 {
        return Ok(PerftCounts { leaves: 1, nodes: 1 });
    }
    let mut moves = MoveList::with_limit(opts.max_move_actions);
    match game.legal_moves(&mut root, &mut sc, &mut moves) {
        Err(SearchError::TooManyMoves { .. }) => {
            // Too many root moves to split between threads: count them one by one.
            drop(moves);
            return Ok(PerftCounts { leaves: 0, nodes: 1 } + count_streaming(game, &mut root, depth, opts)?);
        }
        other => other?,
    }
    let root_node = PerftCounts { leaves: 0, nodes: 1 };
    let threads = opts.threads.min(MAX_THREADS);
    if threads <= 1 {
        // The serial count: each root move's subtree in turn, on the calling thread.
        let total = moves.len();
        let mut child = root.clone();
        let mut sum = root_node;
        for i in 0..total {
            child.clone_from(&root);
            game.apply_move(&mut child, moves.get(i));
            sum += game.perft_subtree(&mut child, &mut sc, depth - 1, opts)?;
            progress(i + 1, total);
        }
        return Ok(sum);
    }
    let mut frontier = Frontier::new(root, moves, depth - 1);
    if opts.split == PerftSplit::Balanced {
        frontier.expand(game, &mut sc, threads.saturating_mul(ITEMS_PER_THREAD), opts)?;
    }
    Ok(root_node + frontier.count(game, threads, opts, progress)?)
}

/// A move of an expanded node whose subtree is one work item: its state is the node's after the
/// move, `depth` plies to go.
#[derive(Copy, Clone, Debug)]
struct WorkItem {
    node: usize,
    mv: usize,
    depth: u32,
}

/// A keeper-completed state whose moves became work items, and those moves.
struct Expanded<S> {
    state: S,
    moves: MoveList,
}

/// The top of the tree split into work items: the subtrees below it, and the counts of the
/// nodes above them (the root's excepted), counted as [`count_subtree`] counts them.
struct Frontier<S> {
    /// The expanded nodes (the root first), whose states the items' states are made from.
    nodes: Vec<Expanded<S>>,
    /// The items of the last ply expanded, all `depth` plies deep.
    items: Vec<WorkItem>,
    depth: u32,
    /// Items of earlier plies that stay whole: their moves do not fit in a list (their count
    /// streams them), or the split reached [`MAX_WORK_ITEMS`].
    whole: Vec<WorkItem>,
    above: PerftCounts,
}

impl<S: Clone + Send + Sync> Frontier<S> {
    /// The root's moves as the items; `depth` plies to go below them.
    fn new(root: S, moves: MoveList, depth: u32) -> Self {
        let items = (0..moves.len()).map(|mv| WorkItem { node: 0, mv, depth }).collect();
        Frontier {
            nodes: vec![Expanded { state: root, moves }],
            items,
            depth,
            whole: Vec::new(),
            above: PerftCounts::default(),
        }
    }

    fn len(&self) -> usize {
        self.items.len() + self.whole.len()
    }

    /// The state of an item: its node's after its move (before keeper completion).
    fn state_of<G: Game<State = S> + ?Sized>(&self, game: &G, item: WorkItem, into: &mut S) {
        let node = &self.nodes[item.node];
        into.clone_from(&node.state);
        game.apply_move(into, node.moves.get(item.mv));
    }

    /// Replaces the items by their children, a whole ply at a time (so the items are of about
    /// the same size), until there are at least `target` items, or the items have fewer than
    /// two plies to go (then an item is one move generation: splitting it gains nothing), or a
    /// ply would pass [`MAX_WORK_ITEMS`]. An expanded item is counted as `count_subtree` counts
    /// it: one node once the keeper is completed, never a leaf (it has two plies or more to
    /// go); a stuck keeper or a player without moves ends it there.
    fn expand<G: Game<State = S> + ?Sized>(
        &mut self,
        game: &G,
        sc: &mut G::Scratch,
        target: usize,
        opts: &PerftOptions,
    ) -> Result<(), SearchError> {
        let mut state = self.nodes[0].state.clone();
        let mut capped = false;
        while self.len() < target && self.depth >= 2 && !capped {
            let ply = core::mem::take(&mut self.items);
            for (k, &item) in ply.iter().enumerate() {
                if capped {
                    self.whole.push(item);
                    continue;
                }
                self.state_of(game, item, &mut state);
                if !game.complete_keeper(&mut state, sc, opts.keeper_limit)? {
                    self.above += PerftCounts { leaves: 0, nodes: 1 };
                    continue;
                }
                let mut moves = MoveList::with_limit(opts.max_move_actions);
                match game.legal_moves(&mut state, sc, &mut moves) {
                    Err(SearchError::TooManyMoves { .. }) => {
                        self.whole.push(item);
                        continue;
                    }
                    other => other?,
                }
                let later = ply.len() - k - 1;
                if self.len().saturating_add(moves.len()).saturating_add(later) > MAX_WORK_ITEMS {
                    // This item and the rest of the ply stay whole; the split stops here.
                    capped = true;
                    self.whole.push(item);
                    continue;
                }
                self.above += PerftCounts { leaves: 0, nodes: 1 };
                if !moves.is_empty() {
                    let node = self.nodes.len();
                    let depth = item.depth - 1;
                    self.items.extend((0..moves.len()).map(|mv| WorkItem { node, mv, depth }));
                    self.nodes.push(Expanded { state: state.clone(), moves });
                }
            }
            self.depth -= 1;
        }
        // The deeper (larger) items first: the threads start on them, and the small ones fill
        // the end.
        let last_ply = core::mem::take(&mut self.items);
        self.items = core::mem::take(&mut self.whole);
        self.items.extend(last_ply);
        Ok(())
    }

    /// Counts every item's subtree on `threads` threads (fewer if there are fewer items) and
    /// adds the nodes above them. Items are handed out one at a time ([`IndexedParallelIterator::with_max_len`]),
    /// so the threads stay busy until the last item starts.
    fn count<G: Game<State = S>>(
        &self,
        game: &G,
        threads: usize,
        opts: &PerftOptions,
        progress: &(dyn Fn(usize, usize) + Sync),
    ) -> Result<PerftCounts, DriverError> {
        let total = self.items.len();
        let done = core::sync::atomic::AtomicUsize::new(0);
        let subtree = |(sc, child): &mut (G::Scratch, Option<S>), item: &WorkItem| {
            let child = child.get_or_insert_with(|| self.nodes[item.node].state.clone());
            self.state_of(game, *item, child);
            let c = game.perft_subtree(child, sc, item.depth, opts);
            progress(done.fetch_add(1, core::sync::atomic::Ordering::Relaxed) + 1, total);
            c
        };
        let threads = threads.min(total);
        let counts = if threads <= 1 {
            let mut worker = (game.new_scratch(), None);
            let mut sum = PerftCounts::default();
            for item in &self.items {
                sum += subtree(&mut worker, item)?;
            }
            sum
        } else {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .stack_size(worker_stack_bytes::<G>())
                .build()
                .map_err(|e| DriverError::Threads(e.to_string()))?;
            pool.install(|| {
                self.items
                    .par_iter()
                    .with_max_len(1)
                    .map_init(|| (game.new_scratch(), None), subtree)
                    .try_reduce(PerftCounts::default, |a, b| Ok(a + b))
            })?
        };
        Ok(counts + self.above)
    }
}

/// The stack of a worker thread: the default (2 MiB, as std and rayon give) plus room for the
/// states a worker keeps in its frames (the root's child, and the base and child of
/// [`count_streaming`], each possibly with a temporary while it is built). A compiled state
/// holds every cell inline (a million-cell board: a megabyte), so the default alone would
/// overflow; for small games the extra is a few hundred bytes of address space.
fn worker_stack_bytes<G: Game>() -> usize {
    const DEFAULT_STACK: usize = 2 << 20;
    const STATE_COPIES: usize = 6;
    DEFAULT_STACK.saturating_add(STATE_COPIES.saturating_mul(core::mem::size_of::<G::State>()))
}

/// The buffers of one ply of a count: its node's move list, the child state its moves are
/// applied to, and the scratch its children are counted with while the node's search (holding
/// the node's scratch) builds them (see [`count_children`]); the last two made on first use.
struct Ply<G: Game + ?Sized> {
    list: MoveList,
    child: Option<G::State>,
    scratch: Option<G::Scratch>,
}

/// One [`Ply`] per remaining depth, `depth + 1` in all.
fn plies<G: Game + ?Sized>(depth: u32, opts: &PerftOptions) -> Vec<Ply<G>> {
    (0..=depth)
        .map(|_| Ply { list: MoveList::with_limit(opts.max_move_actions), child: None, scratch: None })
        .collect()
}

/// Bytes of stack kept free below a ply's count: the count recurses once per ply (with
/// [`Game::visit_children`], inside the parent's search), so a deep count (long forced lines, a
/// large `--depth`) continues on a fresh stack segment instead of overflowing.
const PLY_RED_ZONE: usize = 1 << 20;

/// Per-thread buffers: the scratch of the subtree's root and the plies.
struct Worker<G: Game + ?Sized> {
    scratch: G::Scratch,
    plies: Vec<Ply<G>>,
}

impl<G: Game + ?Sized> Worker<G> {
    fn new(game: &G, depth: u32, opts: &PerftOptions) -> Self {
        Worker { scratch: game.new_scratch(), plies: plies(depth, opts) }
    }

    fn count(
        &mut self,
        game: &G,
        s: &mut G::State,
        depth: u32,
        opts: &PerftOptions,
    ) -> Result<PerftCounts, SearchError> {
        count_subtree(game, &mut self.scratch, s, depth, &mut self.plies, opts)
    }
}

/// Counts the subtree of `s`, a state reached by a move (possibly a keeper state, which is
/// completed first), to `depth` more plies: the body of [`Game::perft_subtree`]'s default.
pub fn perft_subtree<G: Game + ?Sized>(
    game: &G,
    s: &mut G::State,
    sc: &mut G::Scratch,
    depth: u32,
    opts: &PerftOptions,
) -> Result<PerftCounts, SearchError> {
    count_subtree(game, sc, s, depth, &mut plies(depth, opts), opts)
}

/// Counts the subtree of `s` (a state reached by a move; possibly a keeper state).
fn count_subtree<G: Game + ?Sized>(
    game: &G,
    sc: &mut G::Scratch,
    s: &mut G::State,
    depth: u32,
    plies: &mut [Ply<G>],
    opts: &PerftOptions,
) -> Result<PerftCounts, SearchError> {
    let here = PerftCounts { leaves: (depth == 0) as u64, nodes: 1 };
    if depth >= 2 && opts.stopped() {
        return Ok(here);
    }
    if !game.complete_keeper(s, sc, opts.keeper_limit)? || depth == 0 {
        return Ok(here);
    }
    let Some((ply, plies_below)) = plies.split_first_mut() else {
        return Ok(here + count_streaming(game, s, depth, opts)?);
    };
    if !(opts.bulk_last_ply && depth == 1) {
        if let Some(below) = count_children(game, sc, s, depth, ply, plies_below, opts)? {
            return Ok(here + below);
        }
    }
    let list = &mut ply.list;
    match game.legal_moves(s, sc, list) {
        Err(SearchError::TooManyMoves { .. }) => {
            list.clear();
            return Ok(here + count_streaming(game, s, depth, opts)?);
        }
        other => other?,
    }
    if opts.bulk_last_ply && depth == 1 {
        let n = list.len() as u64;
        return Ok(here + PerftCounts { leaves: n, nodes: n });
    }
    let child = ply.child.get_or_insert_with(|| s.clone());
    let mut sum = here;
    for i in 0..list.len() {
        child.clone_from(s);
        game.apply_move(child, list.get(i));
        sum += if depth == 1 {
            // The last ply without recursing: a move adds one node and one leaf whatever the
            // keeper does next. The keeper is still completed, as the reference driver does, so
            // a looping keeper is reported and the work per leaf is comparable.
            game.complete_keeper(child, sc, opts.keeper_limit)?;
            PerftCounts { leaves: 1, nodes: 1 }
        } else {
            crate::stack::with_room(PLY_RED_ZONE, || {
                count_subtree(game, sc, child, depth - 1, plies_below, opts)
            })?
        };
    }
    Ok(sum)
}

/// The subtrees of the moves of `s` (keeper-completed, `depth >= 1` plies to go; `s` itself is
/// counted by the caller) by [`Game::visit_children`]: each child is counted by
/// [`count_subtree`] (at the last ply: its keeper completed, one node and one leaf, as the loop
/// there counts it), without a move list or a second pass over each move's actions. `None`
/// when the reasoner builds no children. The search holds `sc` while a child is counted, so
/// the child is counted with the ply's own scratch.
///
/// No list bounds the children, so their number is: past [`children_bound`] the count fails
/// with [`SearchError::TooManyStreamedMoves`], where a list would have overflowed and the
/// streamed count failed.
fn count_children<G: Game + ?Sized>(
    game: &G,
    sc: &mut G::Scratch,
    s: &mut G::State,
    depth: u32,
    ply: &mut Ply<G>,
    plies_below: &mut [Ply<G>],
    opts: &PerftOptions,
) -> Result<Option<PerftCounts>, SearchError> {
    let child = ply.child.get_or_insert_with(|| s.clone());
    let child_sc = &mut ply.scratch;
    let mut sum = PerftCounts::default();
    let mut failure = None;
    let (bound, mut visited_here) = (children_bound(opts), 0u64);
    let visited = game.visit_children(s, sc, child, |c| {
        visited_here += 1;
        if visited_here > bound {
            failure = Some(SearchError::TooManyStreamedMoves { limit: bound });
            return ControlFlow::Break(());
        }
        let child_sc = child_sc.get_or_insert_with(|| game.new_scratch());
        let counted = if depth == 1 {
            // A leaf, as `count_subtree` would count it, without the call.
            game.complete_keeper(c, child_sc, opts.keeper_limit).map(|_| PerftCounts { leaves: 1, nodes: 1 })
        } else {
            crate::stack::with_room(PLY_RED_ZONE, || {
                count_subtree(game, child_sc, c, depth - 1, plies_below, opts)
            })
        };
        add_or_stop(counted, &mut sum, &mut failure)
    })?;
    match failure {
        Some(e) => Err(e),
        None => Ok(visited.map(|_| sum)),
    }
}

/// A visit's step over the counts of its moves: adds `counted` to `sum`, or keeps its error in
/// `failure` and stops the visit.
fn add_or_stop(
    counted: Result<PerftCounts, SearchError>,
    sum: &mut PerftCounts,
    failure: &mut Option<SearchError>,
) -> ControlFlow<()> {
    match counted {
        Ok(c) => {
            *sum += c;
            ControlFlow::Continue(())
        }
        Err(e) => {
            *failure = Some(e);
            ControlFlow::Break(())
        }
    }
}

/// Most children of one state [`count_children`] counts: as many moves as the streamed count
/// allows, and at least as many as a list could hold (one action each), so a state counted
/// from its list before is counted from its children now.
fn children_bound(opts: &PerftOptions) -> u64 {
    opts.max_streamed_moves.max(opts.max_move_actions as u64)
}

/// Counts the subtrees of the moves of `s` (a keeper-completed state with `depth >= 1` plies to
/// go; `s` itself is counted by the caller) without storing its move list: each move is applied and counted as the
/// search reports it. Used when the list would exceed the bound, so speed matters less than
/// memory; buffers are allocated here.
fn count_streaming<G: Game + ?Sized>(
    game: &G,
    s: &mut G::State,
    depth: u32,
    opts: &PerftOptions,
) -> Result<PerftCounts, SearchError> {
    let base = s.clone();
    let mut child = s.clone();
    let mut visit_scratch = game.new_scratch();
    let mut worker = Worker::new(game, depth.saturating_sub(1), opts);
    let mut sum = PerftCounts::default();
    let mut failure = None;
    let mut streamed = 0u64;
    let mut count_move = |m: &[Action]| -> Result<PerftCounts, SearchError> {
        streamed += 1;
        if streamed > opts.max_streamed_moves {
            return Err(SearchError::TooManyStreamedMoves { limit: opts.max_streamed_moves });
        }
        child.clone_from(&base);
        game.apply_move(&mut child, m);
        if depth == 1 {
            game.complete_keeper(&mut child, &mut worker.scratch, opts.keeper_limit)?;
            Ok(PerftCounts { leaves: 1, nodes: 1 })
        } else {
            worker.count(game, &mut child, depth - 1, opts)
        }
    };
    let _ =
        game.visit_moves(s, &mut visit_scratch, |m| add_or_stop(count_move(m), &mut sum, &mut failure))?;
    match failure {
        Some(e) => Err(e),
        None => Ok(sum),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::toy::{Nim, SearchingNim};

    /// Independent count of Nim's game tree: from a pile of `n` with `d` plies to go.
    fn nim_counts(n: u32, d: u32) -> PerftCounts {
        let here = PerftCounts { leaves: (d == 0) as u64, nodes: 1 };
        if n == 0 || d == 0 {
            return here;
        }
        let mut sum = here;
        for take in 1..=2.min(n) {
            sum += nim_counts(n - take, d - 1);
        }
        sum
    }

    #[test]
    fn a_raised_stop_flag_ends_the_count_at_the_first_subtree() {
        // Nim of 60 stones to depth 40 has about 2^40 leaves: only a stopped count ends.
        let game = Nim::new(60);
        let stop = Arc::new(AtomicBool::new(true));
        let opts = PerftOptions { stop: Some(Arc::clone(&stop)), ..Default::default() };
        let mut s = game.initial_state();
        let counts = perft_subtree(&game, &mut s, &mut (), 40, &opts).unwrap();
        assert_eq!(counts, PerftCounts { leaves: 0, nodes: 1 });
        // A lowered flag changes nothing.
        stop.store(false, Ordering::Relaxed);
        let mut s = game.initial_state();
        assert_eq!(perft_subtree(&game, &mut s, &mut (), 6, &opts).unwrap(), nim_counts(60, 6));
    }

    #[test]
    fn perft_matches_an_independent_count_serial_parallel_and_bulk() {
        let game = Nim::new(7);
        for depth in 0..9 {
            let expected = nim_counts(7, depth);
            let serial = perft(&game, depth, &PerftOptions::default()).unwrap();
            let parallel = perft(&game, depth, &PerftOptions { threads: 2, ..Default::default() }).unwrap();
            let bulk =
                perft(&game, depth, &PerftOptions { bulk_last_ply: true, ..Default::default() }).unwrap();
            assert_eq!(serial, expected, "depth {depth}");
            assert_eq!(parallel, expected, "depth {depth}");
            assert_eq!(bulk, expected, "depth {depth}");
        }
    }

    #[test]
    fn counts_from_built_children_equal_the_independent_count() {
        let game = SearchingNim::new(7);
        for depth in 0..9 {
            let expected = nim_counts(7, depth);
            for threads in [1, 2] {
                for bulk_last_ply in [false, true] {
                    let opts = PerftOptions { threads, bulk_last_ply, ..Default::default() };
                    let counts = perft(&game, depth, &opts).unwrap();
                    assert_eq!(counts, expected, "depth {depth}, {threads} threads, bulk {bulk_last_ply}");
                }
            }
        }
        assert!(game.searches() > 0, "no child was built by the search");
    }

    #[test]
    fn move_lists_past_the_bound_are_counted_by_streaming() {
        let game = Nim::new(7);
        for limit in [0, 1, 2] {
            for depth in 0..7 {
                let opts = PerftOptions { max_move_actions: limit, ..Default::default() };
                assert_eq!(
                    perft(&game, depth, &opts).unwrap(),
                    nim_counts(7, depth),
                    "limit {limit} depth {depth}"
                );
                let opts = PerftOptions { threads: 2, ..opts };
                assert_eq!(
                    perft(&game, depth, &opts).unwrap(),
                    nim_counts(7, depth),
                    "limit {limit} depth {depth}"
                );
            }
        }
    }

    #[test]
    fn every_split_and_thread_count_gives_the_serial_counts() {
        // Piles 1 and 2 give roots of one and two moves; small piles end within the depth.
        for pile in 1..=9 {
            let game = Nim::new(pile);
            for depth in 0..=10 {
                let expected = nim_counts(pile, depth);
                for threads in [1, 2, 3] {
                    for split in [PerftSplit::Root, PerftSplit::Balanced] {
                        for bulk_last_ply in [false, true] {
                            let opts = PerftOptions { threads, split, bulk_last_ply, ..Default::default() };
                            assert_eq!(
                                perft(&game, depth, &opts).unwrap(),
                                expected,
                                "pile {pile} depth {depth} threads {threads} {split:?} bulk {bulk_last_ply}"
                            );
                        }
                    }
                }
            }
        }
    }

    /// The number of work items a run reports through its progress callback.
    fn work_items(game: &Nim, depth: u32, opts: &PerftOptions) -> usize {
        let total = core::sync::atomic::AtomicUsize::new(0);
        perft_with_progress(game, depth, opts, &|_, t| {
            total.store(t, core::sync::atomic::Ordering::Relaxed);
        })
        .unwrap();
        total.into_inner()
    }

    #[test]
    fn a_root_with_few_moves_is_split_into_many_items() {
        // Nim's root has two moves: the root split gives each thread one subtree at most.
        let game = Nim::new(40);
        for threads in [2, 3] {
            let balanced = PerftOptions { threads, ..Default::default() };
            let items = work_items(&game, 12, &balanced);
            assert!(items >= ITEMS_PER_THREAD * threads, "{items} items for {threads} threads");
            // Whole plies: the first one at or past the target, 2^k moves deep.
            assert!(items.is_power_of_two() && items < 2 * ITEMS_PER_THREAD * threads, "{items}");
            let root = PerftOptions { split: PerftSplit::Root, ..balanced };
            assert_eq!(work_items(&game, 12, &root), 2);
        }
        // Too shallow to split below the root's moves: the items are the root's.
        assert_eq!(work_items(&game, 1, &PerftOptions { threads: 2, ..Default::default() }), 2);
        // One thread keeps the serial count of the root's moves.
        assert_eq!(work_items(&game, 12, &PerftOptions::default()), 2);
    }

    #[test]
    fn absurd_thread_counts_are_clamped() {
        let game = Nim::new(7);
        let opts = PerftOptions { threads: 10_000, ..Default::default() };
        assert_eq!(perft(&game, 5, &opts).unwrap(), nim_counts(7, 5));
        let opts = PerftOptions { threads: usize::MAX, ..Default::default() };
        assert_eq!(perft(&game, 5, &opts).unwrap(), nim_counts(7, 5));
    }

    #[test]
    fn stuck_keeper_at_start_is_reported() {
        let game = Nim::new(0);
        assert_eq!(perft(&game, 1, &PerftOptions::default()), Err(DriverError::GameOverAtStart));
    }
}
