//! The move search: a depth-first walk over (node, vertex) pairs of the [`crate::Program`] graph with
//! an explicit frame stack, an undo trail and stamped visited layers (spec 11.1).
//!
//! # Design
//!
//! * **Frames instead of recursion.** A `Frame` is a node entered at a vertex with alternatives
//!   left, plus a cursor over its edges (or over its fan-table row). A freshly admitted node runs
//!   its first alternative at once and pushes a frame only if more remain; resuming a frame
//!   restores the state to the frame's entry (trail and move-buffer lengths are saved in the
//!   frame, so the restore is lazy) and runs the next alternative. Only pattern evaluation
//!   recurses natively, to a depth bounded by the static nesting of patterns (plus, for *pure*
//!   patterns, a bounded recursion along the pattern's paths).
//! * **Pattern memo.** Every semi-state on the search path has a version; a pattern's result is
//!   cached per (pattern, vertex) with the version it was computed in.
//! * **Undo trail.** Offs and assignments push the overwritten value; restoring a frame pops back
//!   to its mark. A keeper move is applied by *not* undoing the path that found it.
//! * **Visited layers.** Layer `d` is an array of `u32` stamps over (slot, vertex) with its own
//!   generation number; starting a layer bumps the number (O(1) clear). An edge that modifies
//!   enters its target in layer `d + 1`; a pattern evaluation at layer `d` runs in `d + 1` and up.
//!   Since frames on the stack have non-decreasing depths, the parent's layers keep their marks
//!   while children run (restore on backtrack for free). Nodes without a slot skip the check.
//! * **Modes** (const generic): the main search reports each move (the pair list in the move
//!   buffer) to a `Sink` that can stop it; the pattern search ignores modifiers' indices and
//!   stops at the first accepting node, restoring everything.
//! * **Bounds.** Every frame pushed (a branch point) costs one unit of the per-call budget and every
//!   modifier on the current path counts toward the modifier limit, so improper games end with a
//!   [`SearchError`] instead of looping or exhausting memory.
//!
//! Steady-state searches never allocate: frames, trail, move buffer and layers are in the
//! caller's [`Scratch`] and keep their capacity.

use rbg_core::{Action, SearchError};

use crate::code::ExecNode;
use crate::code::{Instr, PatternEval};
use crate::interp::{Interpreter, State};
use crate::program::{AutomatonId, NONE};

/// A node on the search path with alternatives left to try.
#[derive(Copy, Clone, Debug)]
struct Frame {
    node: u32,
    vertex: u32,
    /// Next alternative: an edge index (branch nodes) or a position in the fan table's target
    /// array (fan nodes); `end` is one past the last.
    cursor: u32,
    end: u32,
    /// Trail and move-buffer lengths when the node was entered.
    trail: u32,
    moves: u32,
    /// Visited layer.
    depth: u32,
}

/// An overwritten value: a piece at a vertex, or a variable (flagged), and the version of the
/// semi-state the write created (see [`Scratch::memo`]).
#[derive(Copy, Clone, Debug)]
struct Undo {
    slot: u32,
    old: i32,
    version: u64,
}

const VAR_FLAG: u32 = 1 << 31;

/// Logs the old value of `slot` (a vertex, or a variable with [`VAR_FLAG`]) before a modifier
/// overwrites it, under a fresh version (pattern memo entries of older versions go stale).
#[inline(always)]
fn record_undo(sc: &mut Scratch, slot: u32, old: i32) {
    sc.next_version += 1;
    sc.trail.push(Undo { slot, old, version: sc.next_version });
}

#[derive(Clone, Debug, Default)]
struct Layer {
    generation: u32,
    stamps: Vec<u32>,
}

/// Per-thread working memory of the interpreter's searches.
#[derive(Clone, Debug, Default)]
pub struct Scratch {
    frames: Vec<Frame>,
    trail: Vec<Undo>,
    moves: Vec<Action>,
    layers: Vec<Layer>,
    /// Search nodes left in the current top-level call.
    budget: u64,
    /// Pattern results by (automaton, vertex): `version << 1 | holds`. Every semi-state on the
    /// search path has a unique version (the search start gets a fresh one, every modifier
    /// write another, undoing returns to the previous one), so an entry is valid exactly when
    /// its version is the current one.
    memo: Vec<u64>,
    /// Version of the semi-state at the start of the current search.
    base_version: u64,
    next_version: u64,
    /// The error that aborted the current search (kept out of the hot return values).
    error: Option<SearchError>,
}

/// Receives the moves found by the main search.
pub(crate) trait Sink {
    /// Whether the sink looks at modifiers before a move is complete ([`Sink::admit`],
    /// [`Sink::resume`]); `false` compiles those calls away.
    const FILTER: bool = false;
    /// `mv` is the complete move (its last pair is the switch). Returns `true` to stop.
    fn found(&mut self, mv: &[Action]) -> bool;
    /// Whether the search may apply `action` as the move's action number `position` (from 0);
    /// `false` prunes the branch. Called only when [`Sink::FILTER`].
    #[inline(always)]
    fn admit(&mut self, _position: usize, _action: Action) -> bool {
        true
    }
    /// After [`Sink::found`] asked to stop: `Some(p)` abandons only the branches below the
    /// move's action number `p` (the search goes on with that action's alternatives), `None`
    /// stops the whole search. Called only when [`Sink::FILTER`].
    #[inline(always)]
    fn resume(&mut self) -> Option<usize> {
        None
    }
}

/// Whether a filtering sink lets the main search apply modifier `index` at `vertex` as the
/// next action of the move under construction (always, for other sinks and in patterns).
#[inline(always)]
fn admitted<const PATTERN: bool, S: Sink>(sc: &Scratch, sink: &mut S, index: u32, vertex: u32) -> bool {
    !S::FILTER || PATTERN || sink.admit(sc.moves.len(), Action::new(index, vertex))
}

/// Sink for pattern searches, which never report moves.
struct NoSink;

impl Sink for NoSink {
    fn found(&mut self, _mv: &[Action]) -> bool {
        false
    }
}

enum EdgeOutcome {
    Failed,
    /// A bound was exceeded; the error is in [`Scratch::error`].
    Abort,
    /// The edge ended with a switch that was reported.
    Reported,
    /// The sink asked to stop.
    Stop,
    /// All ops succeeded; the vertex at the end of the edge.
    Arrived(u32),
}

impl Interpreter {
    /// Runs the main search from the state's rules position; `Ok(true)` if the sink stopped it.
    /// The state keeps the modifications of the stopping path (callers undo or commit them with
    /// [`Interpreter::finish_search`]).
    pub(crate) fn search_moves<S: Sink>(
        &self,
        st: &mut State,
        sc: &mut Scratch,
        sink: &mut S,
    ) -> Result<bool, SearchError> {
        sc.budget = self.limits.max_search_nodes;
        if self.program.options().pattern_memo {
            let size = self.program.automata().len() * self.program.board().vertices() as usize;
            if sc.memo.len() != size {
                sc.memo = vec![0; size];
            }
            sc.next_version += 1;
            sc.base_version = sc.next_version;
        }
        sc.frames.clear();
        sc.moves.clear();
        sc.trail.clear();
        let (node, vertex) = (st.node, st.vertex);
        self.search::<false, S>(st, sc, node, vertex, 0, true, sink)
    }

    /// Ends a main search: undoes its modifications (`keep` = false) or commits them.
    pub(crate) fn finish_search(&self, st: &mut State, sc: &mut Scratch, keep: bool) {
        if keep {
            sc.trail.clear();
        } else {
            self.undo_to(st, sc, 0);
        }
        sc.frames.clear();
        sc.moves.clear();
    }

    fn undo_to(&self, st: &mut State, sc: &mut Scratch, mark: usize) {
        while sc.trail.len() > mark {
            let Some(u) = sc.trail.pop() else { break };
            if u.slot & VAR_FLAG != 0 {
                st.vars[(u.slot & !VAR_FLAG) as usize] = u.old;
            } else {
                st.set_piece(u.slot, u.old as u8);
            }
        }
    }

    /// Starts a fresh instance of visited layer `depth`.
    #[inline(always)]
    fn begin_layer(&self, sc: &mut Scratch, depth: u32) {
        if self.program.visited_slots() != 0 {
            self.bump_layer(sc, depth as usize);
        }
    }

    fn bump_layer(&self, sc: &mut Scratch, depth: usize) {
        while sc.layers.len() <= depth {
            let size = self.program.visited_slots() as usize * self.program.board().vertices() as usize;
            sc.layers.push(Layer { generation: 0, stamps: vec![0; size] });
        }
        let layer = &mut sc.layers[depth];
        if layer.generation == u32::MAX {
            layer.stamps.iter_mut().for_each(|s| *s = 0);
            layer.generation = 0;
        }
        layer.generation += 1;
    }

    /// Admits `node` at `vertex` in layer `depth`: `Some(true)` if it must be expanded,
    /// `Some(false)` if there is nothing to do there (visited, or no exits), `None` when a
    /// pattern search reaches an accepting node.
    #[inline(always)]
    fn admit<const PATTERN: bool>(
        &self,
        sc: &mut Scratch,
        node: u32,
        vertex: u32,
        depth: u32,
    ) -> Option<bool> {
        let n = &self.nodes[node as usize];
        if PATTERN && n.accepting {
            return None;
        }
        if n.slot != NONE {
            let layer = &mut sc.layers[depth as usize];
            let k = n.slot as usize * self.program.board().vertices() as usize + vertex as usize;
            if layer.stamps[k] == layer.generation {
                return Some(false);
            }
            layer.stamps[k] = layer.generation;
        }
        Some(n.is_fan() || n.first_edge != n.end_edge)
    }

    /// Pushes a frame for a node with alternatives left, charging the search budget.
    #[inline(always)]
    fn push_frame(&self, sc: &mut Scratch, mut frame: Frame) -> Result<(), SearchError> {
        if sc.budget == 0 {
            return Err(SearchError::SearchTooLarge { limit: self.limits.max_search_nodes });
        }
        sc.budget -= 1;
        frame.trail = sc.trail.len() as u32;
        frame.moves = sc.moves.len() as u32;
        sc.frames.push(frame);
        Ok(())
    }

    /// The search loop from `start` at `vertex` in layer `depth`. Returns `true` if it stopped
    /// early (a pattern accepted, or the sink asked to stop). `fresh_layer`: start a new
    /// instance of layer `depth` (false only to continue a recursive pattern evaluation in the
    /// layer it already stamps, see [`Interpreter::eval_pure`]).
    ///
    /// An admitted node is expanded at once: its first alternative runs immediately and a frame
    /// is pushed only if more alternatives remain; a frame is popped when its last alternative
    /// starts. So single-exit nodes and last alternatives cost no frame, and the search budget
    /// counts frames (branch points): between two of them the path is a single chain, whose
    /// length the visited checks bound.
    #[allow(clippy::too_many_arguments)]
    fn search<const PATTERN: bool, S: Sink>(
        &self,
        st: &mut State,
        sc: &mut Scratch,
        start: u32,
        vertex: u32,
        depth: u32,
        fresh_layer: bool,
        sink: &mut S,
    ) -> Result<bool, SearchError> {
        let p = &self.program;
        let base = sc.frames.len();
        let trail_base = sc.trail.len();
        if fresh_layer {
            self.begin_layer(sc, depth);
        } else if self.program.visited_slots() != 0 && sc.layers.len() <= depth as usize {
            // Only reachable if the layer was never started; a new one is as good.
            self.bump_layer(sc, depth as usize);
        }
        let (mut node, mut v, mut d) = (start, vertex, depth);
        let mut stopped = false;
        // Whether (node, v, d) was just admitted and is waiting to be expanded.
        let mut fresh = match self.admit::<PATTERN>(sc, node, v, d) {
            Some(x) => x,
            None => return Ok(true),
        };
        while !stopped {
            let item;
            if fresh {
                fresh = false;
                let n = &self.nodes[node as usize];
                let (first, end) = if n.is_fan() {
                    let (first, end) = p.fan_tables()[n.fan as usize].row_span(v);
                    match self.next_fan_target(st, n, first, end) {
                        Some(i) => (i, end),
                        None => continue,
                    }
                } else {
                    (n.first_edge, n.end_edge)
                };
                if end - first > 1 {
                    let frame =
                        Frame { node, vertex: v, cursor: first + 1, end, trail: 0, moves: 0, depth: d };
                    self.push_frame(sc, frame)?;
                }
                item = first;
            } else {
                let Some(&f) = sc.frames.last().filter(|_| sc.frames.len() > base) else { break };
                if sc.trail.len() > f.trail as usize {
                    self.undo_to(st, sc, f.trail as usize);
                }
                if !PATTERN {
                    sc.moves.truncate(f.moves as usize);
                }
                (node, v, d) = (f.node, f.vertex, f.depth);
                let n = &self.nodes[node as usize];
                item = if n.is_fan() {
                    match self.next_fan_target(st, n, f.cursor, f.end) {
                        Some(i) => i,
                        None => {
                            sc.frames.pop();
                            continue;
                        }
                    }
                } else {
                    f.cursor
                };
                if item + 1 == f.end {
                    sc.frames.pop();
                } else if let Some(top) = sc.frames.last_mut() {
                    top.cursor = item + 1;
                }
            }
            let n = &self.nodes[node as usize];
            if n.is_fan() {
                (node, v) = (n.next, p.fan_tables()[n.fan as usize].targets()[item as usize]);
                match self.admit::<PATTERN>(sc, node, v, d) {
                    Some(x) => fresh = x,
                    None => stopped = true,
                }
                continue;
            }
            let edge = &self.edges[item as usize];
            match self.run_edge::<PATTERN, false, S>(st, sc, edge.first, edge.end, v, d, sink) {
                EdgeOutcome::Failed | EdgeOutcome::Reported => {}
                EdgeOutcome::Abort => {
                    let error = sc.error.take().unwrap_or(SearchError::SearchTooLarge { limit: 0 });
                    return Err(error);
                }
                EdgeOutcome::Stop => match sink.resume().filter(|_| S::FILTER && !PATTERN) {
                    // Frames pushed after the action at `position` was recorded hold that
                    // action's other continuations: drop them; the next frame undoes the rest.
                    Some(position) => {
                        while sc.frames.len() > base
                            && sc.frames.last().is_some_and(|f| f.moves as usize > position)
                        {
                            sc.frames.pop();
                        }
                    }
                    None => stopped = true,
                },
                EdgeOutcome::Arrived(w) => {
                    if edge.modifies {
                        d += 1;
                        self.begin_layer(sc, d);
                    }
                    (node, v) = (edge.target, w);
                    match self.admit::<PATTERN>(sc, node, v, d) {
                        Some(x) => fresh = x,
                        None => stopped = true,
                    }
                }
            }
        }
        if PATTERN {
            self.undo_to(st, sc, trail_base);
        }
        sc.frames.truncate(base);
        Ok(stopped)
    }

    /// Evaluates a pattern automaton that writes nothing ([`PatternEval::Pure`] or
    /// [`PatternEval::ReadOnly`]) from `node` at `v` by plain recursion: no frames, trail or
    /// budget are needed because nothing is written. Nodes with a visited slot are stamped in
    /// layer `depth + 1`, which the evaluation owns (the semi-state is fixed, so one layer serves
    /// the whole evaluation); nested patterns run in the layers above it. Without slots the
    /// static analysis proved that no (node, vertex) pair repeats. Past a fixed depth the native
    /// recursion stops growing and the rest is left to the general search, continuing in layer
    /// `depth + 1` (so it shares the recursion's stamps) and sharing the caller's budget. If
    /// that search (or a nested pattern) exceeds a bound, the error goes to [`Scratch::error`]
    /// and the evaluation unwinds at once by answering `true` (the caller checks the error; a
    /// plain `bool` keeps the recursion cheap).
    fn eval_pure<const READ_ONLY: bool>(
        &self,
        st: &mut State,
        sc: &mut Scratch,
        node: u32,
        v: u32,
        depth: u32,
        level: u32,
    ) -> bool {
        // Read-only patterns hand over much sooner: their deep paths are searches such as
        // flood fills, which the frame-based search runs with less memory traffic than deep
        // native recursion (measured with callgrind on go: 256 levels cost about 5% more
        // instructions than 16 levels).
        let max_level: u32 = if READ_ONLY { 16 } else { 256 };
        let p = &self.program;
        let n = &self.nodes[node as usize];
        if n.accepting {
            return true;
        }
        if level == max_level {
            // The general search continues in this evaluation's layer, so it skips what the
            // recursion already explored (and vice versa) instead of exploring it again.
            return match self.search::<true, NoSink>(st, sc, node, v, depth + 1, false, &mut NoSink) {
                Ok(holds) => holds,
                Err(e) => {
                    sc.error = Some(e);
                    true
                }
            };
        }
        // Only read-only patterns have slots (pure ones are compiled without the check).
        if READ_ONLY && n.slot != NONE && !first_visit(sc, depth, n.slot, p.board().vertices(), v) {
            return false;
        }
        if n.ray != NONE {
            let ray = self.rays[n.ray as usize];
            let mut v = v;
            loop {
                let piece = st.pieces[v as usize];
                if (ray.end >> piece) & 1 == 1 {
                    return self.eval_pure::<READ_ONLY>(st, sc, ray.exit, v, depth, level + 1);
                }
                if (ray.through >> piece) & 1 == 0 {
                    return false;
                }
                v = self.steps[(ray.base + v) as usize];
                if v == NONE {
                    return false;
                }
                // Entering the node again at `v`: its visited check (which also ends a ray
                // that cycles). Without a slot the static analysis proved that no vertex
                // repeats.
                if READ_ONLY && n.slot != NONE && !first_visit(sc, depth, n.slot, p.board().vertices(), v) {
                    return false;
                }
            }
        }
        if n.is_fan() {
            let fan = &p.fan_tables()[n.fan as usize];
            let (first, end) = fan.row_span(v);
            let mut i = first;
            while let Some(j) = self.next_fan_target(st, n, i, end) {
                if self.eval_pure::<READ_ONLY>(st, sc, n.next, fan.targets()[j as usize], depth, level + 1) {
                    return true;
                }
                i = j + 1;
            }
            return false;
        }
        for edge in &self.edges[n.first_edge as usize..n.end_edge as usize] {
            // These edges only test and move (and evaluate nested patterns above this
            // evaluation's layer), so the pure mode of the edge runner never writes or records.
            match self.run_edge::<true, true, NoSink>(st, sc, edge.first, edge.end, v, depth + 1, &mut NoSink)
            {
                EdgeOutcome::Arrived(w) => {
                    if self.eval_pure::<READ_ONLY>(st, sc, edge.target, w, depth, level + 1) {
                        return true;
                    }
                }
                // A nested pattern exceeded a bound (the error is in the scratch): unwind.
                EdgeOutcome::Abort => return true,
                EdgeOutcome::Failed | EdgeOutcome::Reported | EdgeOutcome::Stop => {}
            }
        }
        false
    }

    /// The first position in `from..end` of a fan's target array whose vertex passes the fan's
    /// piece filter.
    #[inline(always)]
    fn next_fan_target(&self, st: &State, fan: &ExecNode, from: u32, end: u32) -> Option<u32> {
        let table = &self.program.fan_tables()[fan.fan as usize];
        let filter = fan.filter;
        if filter == u64::MAX {
            return (from < end).then_some(from);
        }
        if table.covers_all_vertices() && !st.occ.is_empty() {
            // Positions are vertices here: scan the union of the filter's piece bitsets.
            let words = st.occ_words;
            let mut word = from as usize / 64;
            let mut below = (1u64 << (from % 64)) - 1;
            while word < words {
                let mut bits = 0u64;
                let mut pieces = filter;
                while pieces != 0 {
                    bits |= st.occ[pieces.trailing_zeros() as usize * words + word];
                    pieces &= pieces - 1;
                }
                bits &= !below;
                if bits != 0 {
                    let v = (word * 64) as u32 + bits.trailing_zeros();
                    return (v < end).then_some(v);
                }
                word += 1;
                below = 0;
            }
            return None;
        }
        let row = &table.targets()[from as usize..end as usize];
        row.iter().position(|&w| (filter >> st.pieces[w as usize]) & 1 == 1).map(|i| from + i as u32)
    }

    /// Whether pattern `automaton` has a complete word from vertex `v` (layers above `depth`);
    /// `None` (with the error in the scratch) if the evaluation exceeded a bound.
    fn eval_pattern(
        &self,
        st: &mut State,
        sc: &mut Scratch,
        automaton: AutomatonId,
        v: u32,
        depth: u32,
    ) -> Option<bool> {
        let start = self.program.automaton(automaton).start().get();
        let holds = match self.pattern_evals[automaton.index()] {
            PatternEval::Search => {
                return match self.search::<true, NoSink>(st, sc, start, v, depth + 1, true, &mut NoSink) {
                    Ok(holds) => Some(holds),
                    Err(e) => {
                        sc.error = Some(e);
                        None
                    }
                }
            }
            PatternEval::Pure => self.eval_pure::<false>(st, sc, start, v, depth, 0),
            PatternEval::ReadOnly => self.eval_pure::<true>(st, sc, start, v, depth, 0),
            PatternEval::ReadOnlyVisited => {
                self.begin_layer(sc, depth + 1);
                self.eval_pure::<true>(st, sc, start, v, depth, 0)
            }
        };
        if sc.error.is_some() {
            None
        } else {
            Some(holds)
        }
    }

    /// Whether one of the edges `first..end` of a one-step pattern ([`Instr::Probe`]) runs
    /// through from `v`. Those edges only test and move, so nothing is written or recorded.
    fn probe(&self, st: &mut State, sc: &mut Scratch, first: u32, end: u32, v: u32, depth: u32) -> bool {
        self.edges[first as usize..end as usize].iter().any(|edge| {
            matches!(
                self.run_edge::<true, true, NoSink>(st, sc, edge.first, edge.end, v, depth, &mut NoSink),
                EdgeOutcome::Arrived(_)
            )
        })
    }

    /// Records a modifier application on the current path (main search: also in the move).
    /// Returns `false` (with the error in the scratch) when the modifier bound is exceeded.
    #[inline(always)]
    fn note_modifier<const PATTERN: bool>(&self, sc: &mut Scratch, index: u32, vertex: u32) -> bool {
        if sc.trail.len() >= self.limits.max_modifiers {
            sc.error = Some(SearchError::MoveTooLong { limit: self.limits.max_modifiers });
            return false;
        }
        if !PATTERN {
            sc.moves.push(Action::new(index, vertex));
        }
        true
    }

    /// Runs the ops `first..end` of an edge from `v`: the one op runner of every mode. `PATTERN`:
    /// inside a pattern (no move recorded, switches ignored); `PURE`: inside a pure pattern
    /// (only tests and moves occur, see [`crate::code::pure_patterns`]).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn run_edge<const PATTERN: bool, const PURE: bool, S: Sink>(
        &self,
        st: &mut State,
        sc: &mut Scratch,
        first: u32,
        end: u32,
        mut v: u32,
        depth: u32,
        sink: &mut S,
    ) -> EdgeOutcome {
        let p = &self.program;
        // The tables are indexed through the slice accessors (`p.det_tables()[t.index()]`),
        // not the typed ones (`p.det_table(t)`): the same lookups, but the extra call layer
        // changed LLVM's code for this whole loop, about 2.5% more instructions in chess and
        // reversi perft (callgrind).
        for op in &self.code[first as usize..end as usize] {
            match *op {
                Instr::Shift(l) => {
                    v = p.board().neighbour(v, l);
                    if v == NONE {
                        return EdgeOutcome::Failed;
                    }
                }
                Instr::Table(t) => {
                    v = p.det_tables()[t.index()][v as usize];
                    if v == NONE {
                        return EdgeOutcome::Failed;
                    }
                }
                Instr::ShiftOn(l, mask) => {
                    v = p.board().neighbour(v, l);
                    if v == NONE || (mask >> st.pieces[v as usize]) & 1 == 0 {
                        return EdgeOutcome::Failed;
                    }
                }
                Instr::TableOn(t, mask) => {
                    v = p.det_tables()[t.index()][v as usize];
                    if v == NONE || (mask >> st.pieces[v as usize]) & 1 == 0 {
                        return EdgeOutcome::Failed;
                    }
                }
                Instr::On(mask) => {
                    if (mask >> st.pieces[v as usize]) & 1 == 0 {
                        return EdgeOutcome::Failed;
                    }
                }
                Instr::Step(base) => {
                    v = self.steps[(base + v) as usize];
                    if v == NONE {
                        return EdgeOutcome::Failed;
                    }
                }
                Instr::StepOn(base, mask) => {
                    v = self.steps[(base + v) as usize];
                    if v == NONE || (mask >> st.pieces[v as usize]) & 1 == 0 {
                        return EdgeOutcome::Failed;
                    }
                }
                Instr::OnStep(mask, base) => {
                    if (mask >> st.pieces[v as usize]) & 1 == 0 {
                        return EdgeOutcome::Failed;
                    }
                    v = self.steps[(base + v) as usize];
                    if v == NONE {
                        return EdgeOutcome::Failed;
                    }
                }
                Instr::OnSet(s) => {
                    if !p.piece_sets()[s.index()][st.pieces[v as usize] as usize] {
                        return EdgeOutcome::Failed;
                    }
                }
                Instr::InSet(s) => {
                    if !p.cell_sets()[s.index()].contains(v) {
                        return EdgeOutcome::Failed;
                    }
                }
                // A pattern evaluated by recursion writes nothing (see `code::pattern_evals`);
                // its mode compiles the writes away.
                Instr::Off { .. } | Instr::Assign { .. } | Instr::AssignConst { .. } if PURE => {
                    return EdgeOutcome::Failed;
                }
                Instr::Off { piece, index } => {
                    if !admitted::<PATTERN, S>(sc, sink, index, v) {
                        return EdgeOutcome::Failed;
                    }
                    if !self.note_modifier::<PATTERN>(sc, index, v) {
                        return EdgeOutcome::Abort;
                    }
                    record_undo(sc, v, st.pieces[v as usize] as i32);
                    st.set_piece(v, piece as u8);
                }
                Instr::Assign { var, expr, index } => {
                    let Some(value) = p.exprs()[expr.index()].eval(&st.vars, &st.counts) else {
                        return EdgeOutcome::Failed;
                    };
                    if value < 0 || value > p.bounds()[var as usize] {
                        return EdgeOutcome::Failed;
                    }
                    if !admitted::<PATTERN, S>(sc, sink, index, v) {
                        return EdgeOutcome::Failed;
                    }
                    if !self.note_modifier::<PATTERN>(sc, index, v) {
                        return EdgeOutcome::Abort;
                    }
                    record_undo(sc, var | VAR_FLAG, st.vars[var as usize]);
                    st.vars[var as usize] = value as i32;
                }
                Instr::AssignConst { var, value, index } => {
                    if !admitted::<PATTERN, S>(sc, sink, index, v) {
                        return EdgeOutcome::Failed;
                    }
                    if !self.note_modifier::<PATTERN>(sc, index, v) {
                        return EdgeOutcome::Abort;
                    }
                    record_undo(sc, var | VAR_FLAG, st.vars[var as usize]);
                    st.vars[var as usize] = value;
                }
                Instr::Compare { lhs, rel, rhs } => {
                    let a = p.exprs()[lhs.index()].eval(&st.vars, &st.counts);
                    let b = p.exprs()[rhs.index()].eval(&st.vars, &st.counts);
                    match (a, b) {
                        (Some(a), Some(b)) if rel.holds(a, b) => {}
                        _ => return EdgeOutcome::Failed,
                    }
                }
                Instr::Pattern { automaton, positive } => {
                    let holds = if p.options().pattern_memo {
                        let key = automaton.index() * p.board().vertices() as usize + v as usize;
                        let version = sc.trail.last().map_or(sc.base_version, |u| u.version);
                        let entry = sc.memo[key];
                        if entry >> 1 == version {
                            entry & 1 == 1
                        } else {
                            let Some(holds) = self.eval_pattern(st, sc, automaton, v, depth) else {
                                return EdgeOutcome::Abort;
                            };
                            sc.memo[key] = version << 1 | holds as u64;
                            holds
                        }
                    } else {
                        match self.eval_pattern(st, sc, automaton, v, depth) {
                            Some(holds) => holds,
                            None => return EdgeOutcome::Abort,
                        }
                    };
                    if holds != positive {
                        return EdgeOutcome::Failed;
                    }
                }
                Instr::Probe { first_edge, end_edge, positive } => {
                    if self.probe(st, sc, first_edge, end_edge, v, depth) != positive {
                        return EdgeOutcome::Failed;
                    }
                }
                Instr::Switch { index } => {
                    if PATTERN {
                        // Switches are compiled away inside patterns; nothing to do.
                        continue;
                    }
                    if !admitted::<PATTERN, S>(sc, sink, index, v) {
                        return EdgeOutcome::Failed;
                    }
                    sc.moves.push(Action::new(index, v));
                    return if sink.found(&sc.moves) { EdgeOutcome::Stop } else { EdgeOutcome::Reported };
                }
                Instr::Fail => return EdgeOutcome::Failed,
            }
        }
        EdgeOutcome::Arrived(v)
    }
}

/// Marks `(slot, v)` visited in the visited layer of a read-only pattern at `depth`; false
/// when it already was (the path has been here before, so this branch fails).
#[inline(always)]
fn first_visit(sc: &mut Scratch, depth: u32, slot: u32, vertices: u32, v: u32) -> bool {
    let layer = &mut sc.layers[depth as usize + 1];
    let k = slot as usize * vertices as usize + v as usize;
    if layer.stamps[k] == layer.generation {
        return false;
    }
    layer.stamps[k] = layer.generation;
    true
}
