//! Bit-parallel pattern evaluation (design notes 6.3): the set of cells where a pattern holds,
//! computed for the whole board at once with word operations.
//!
//! A pattern body that only moves (shifts, shift tables, fans), tests (on-tests, precomputed
//! cell sets, comparisons) and evaluates such patterns reads the semi-state and nothing else, so
//! the set of start cells from which it has a complete word is a least fixpoint over its
//! automaton: an accepting node holds at every cell; a node holds at a cell if some edge's ops,
//! read backwards, lead from the cell into the set of the edge's target. On a board of at most
//! 128 vertices a set is one integer (`BoardSet`: `u64`, or `u128` past 64 vertices) and each op
//! is a few word operations:
//!
//! * an on-test intersects with the cells holding one of its pieces,
//! * a shift, whose targets are `cell + delta` for a handful of deltas (a rectangle's labels have
//!   one each), becomes one masked bit shift per delta,
//! * a fan whose row is the same for every cell (the "any square" idiom) gives every cell or
//!   none, as its row meets the target set or not; a fan whose rows are a few deltas from their
//!   cell (`(left + right)`, a short star) is one masked shift per delta, like a shift,
//! * a nested pattern intersects with its own set (or its complement),
//! * a comparison keeps the set or empties it.
//!
//! The only cycles taken are rays (`({x} up)*`: one edge back to the node, shifting by one
//! delta), run for a fixed number of rounds that the longest ray on the board bounds. Patterns
//! with other cycles or fans keep the scalar search: their word forms need loops that measured
//! slower than it.
//!
//! This pays where one semi-state asks the same pattern at many cells: reversi's move test at
//! every empty cell, any "any square {P} {? pattern}" idiom. Such *hot* uses (a pattern op on an
//! edge of the continuation of a fan that asks at least 16 cells, see [`hot_nodes`]) read a memo in `Scratch`, valid while
//! its epoch equals the search's; every search start and every modifier (and its undo) starts a
//! new epoch. The fan then visits only the cells where its continuation's leading tests hold.
//! Other uses keep the scalar search, which stops at the first word it finds.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, ToTokens};
use rbg_automaton::{Analysis, AutomatonId, CellSetId, FanTableId, NodeId, NodeKind, Op, Program, NONE};

use crate::ctx::Ctx;
use crate::tables::lit;

/// A set is one `u64`, or one `u128` on boards of more than 64 vertices (the generated
/// `BoardSet`), so the board must fit in 128 bits.
const MAX_VERTICES: u32 = 128;
/// Shifts with more distinct deltas are left to the scalar search.
const MAX_DELTAS: usize = 8;
/// Patterns reading more piece sets keep the scalar search (see [`few_piece_sets`]).
const MAX_PIECE_SETS: usize = 4;
/// Fans that ask fewer cells do not repay a whole-board evaluation.
const MIN_ASKED_CELLS: usize = 16;
/// Patterns with longer rays keep the scalar search (the rounds are unrolled by the optimiser).
const MAX_RAY_ROUNDS: usize = 16;
/// Patterns with a memo in `Scratch` (arrays up to 32 entries derive `Default`).
const MAX_MEMOS: usize = 32;
/// A fan's continuation with more paths, or longer ones, keeps the visit of its cells
/// ([`fan_exists`]).
const MAX_EXISTS_PATHS: usize = 8;

/// Which patterns are evaluated as whole-board sets, and where.
#[derive(Clone, Debug, Default)]
pub(crate) struct BoardPlan {
    /// Per automaton: its memo slot, if some hot use reads it.
    memo: Vec<Option<usize>>,
    /// Per node: its pattern ops read memos (it continues a fan that asks many cells, see
    /// [`hot_nodes`]).
    hot: Vec<bool>,
    /// Per automaton: its nodes, ascending.
    nodes: Vec<Vec<u32>>,
    /// Per automaton: its body has a word form ([`evaluable_automata`]).
    evaluable: Vec<bool>,
    /// Per automaton: the memoised patterns that the rules ask, after asking it, before a piece
    /// changes ([`asked_again`]).
    asked_again: Vec<Vec<AutomatonId>>,
}

impl BoardPlan {
    /// The plan for `p`: no memo (every pattern scalar) when `enabled` is false or the board has
    /// more than [`MAX_VERTICES`] vertices. The automata's nodes, and their word forms on boards
    /// that fit, are known either way (word tests use them).
    pub(crate) fn new(p: &Program, a: &Analysis, enabled: bool) -> BoardPlan {
        let mut nodes: Vec<Vec<u32>> = vec![Vec::new(); p.automata().len()];
        for n in 0..p.nodes().len() as u32 {
            if let Some(owner) = a.owner(NodeId::new(n)) {
                nodes[owner.get() as usize].push(n);
            }
        }
        if p.board().vertices() > MAX_VERTICES {
            return BoardPlan { nodes, ..BoardPlan::default() };
        }
        let evaluable = evaluable_automata(p, &nodes);
        if !enabled {
            // The word forms stay known (word tests use them); no pattern is memoised.
            return BoardPlan {
                memo: vec![None; p.automata().len()],
                nodes,
                evaluable,
                ..BoardPlan::default()
            };
        }
        let hot = hot_nodes(p);
        let mut memo = vec![None; p.automata().len()];
        let mut slots = 0;
        for (n, &is_hot) in hot.iter().enumerate() {
            if !is_hot || p.node(NodeId::new(n as u32)).is_fan() {
                continue;
            }
            for e in p.node_edges(NodeId::new(n as u32)) {
                for op in p.edge_ops(e) {
                    if let Op::Pattern { automaton, .. } = *op {
                        let i = automaton.get() as usize;
                        if evaluable[i] && memo[i].is_none() && slots < MAX_MEMOS {
                            memo[i] = Some(slots);
                            slots += 1;
                        }
                    }
                }
            }
        }
        let mut plan = BoardPlan { memo, hot, nodes, evaluable, asked_again: Vec::new() };
        plan.asked_again = asked_again(p, &plan);
        plan
    }

    /// Whether memoised pattern `pattern`, asked inside pattern automaton `asker`, is asked by the
    /// rules again after `asker` and before a piece changes: its set, once computed, serves
    /// that later search too, so `asker` tries it before its other alternatives.
    pub(crate) fn is_asked_again(&self, asker: AutomatonId, pattern: AutomatonId) -> bool {
        self.asked_again.get(asker.get() as usize).is_some_and(|v| v.contains(&pattern))
    }

    /// Whether fan node `n` may visit the cells of a memoised set ([`fan_prefilter`]): a fan
    /// whose row is the same everywhere, continued by a node whose patterns read memos.
    pub(crate) fn prefilters(&self, p: &Program, n: u32) -> bool {
        let NodeKind::Fan { table, next, .. } = p.node(NodeId::new(n)).kind() else { return false };
        p.fan_table(table).is_uniform() && self.hot.get(next.index()).copied().unwrap_or(false)
    }

    /// `roots` and the patterns they nest, each once (in the order first met).
    pub(crate) fn with_nested(
        &self,
        p: &Program,
        roots: impl IntoIterator<Item = AutomatonId>,
    ) -> Vec<AutomatonId> {
        let mut out: Vec<AutomatonId> = Vec::new();
        let mut stack: Vec<AutomatonId> = roots.into_iter().collect();
        stack.reverse();
        while let Some(a) = stack.pop() {
            if out.contains(&a) {
                continue;
            }
            out.push(a);
            for op in self.ops_of(p, a) {
                if let Op::Pattern { automaton, .. } = *op {
                    stack.push(automaton);
                }
            }
        }
        out
    }

    /// The ops of the edges of automaton `a`'s nodes.
    pub(crate) fn ops_of<'a>(&'a self, p: &'a Program, a: AutomatonId) -> impl Iterator<Item = &'a Op> + 'a {
        self.nodes_of(a)
            .iter()
            .flat_map(move |&n| p.node_edges(NodeId::new(n)).iter().flat_map(|e| p.edge_ops(e)))
    }

    /// The nodes of automaton `a`, ascending.
    pub(crate) fn nodes_of(&self, a: AutomatonId) -> &[u32] {
        self.nodes.get(a.get() as usize).map_or(&[], Vec::as_slice)
    }

    /// Whether pattern automaton `a`'s body has a word form.
    pub(crate) fn is_evaluable(&self, a: AutomatonId) -> bool {
        self.evaluable.get(a.get() as usize).copied().unwrap_or(false)
    }

    /// The memo slot of pattern automaton `a`, if some hot use reads it.
    pub(crate) fn memo_slot(&self, a: AutomatonId) -> Option<usize> {
        self.memo.get(a.get() as usize).copied().flatten()
    }

    /// Number of memo slots `Scratch` holds.
    pub(crate) fn memos(&self) -> usize {
        self.memo.iter().flatten().count()
    }

    /// Whether a pattern op for `automaton` on an edge of node `n` reads its memo.
    pub(crate) fn reads_memo(&self, n: u32, automaton: AutomatonId) -> bool {
        self.hot.get(n as usize).copied().unwrap_or(false)
            && self.memo.get(automaton.get() as usize).is_some_and(|m| m.is_some())
    }
}

/// Per automaton `A` that owns a hot node reading two memos or more: the memoised patterns the
/// rules ask (nested ones included) on some path from an edge asking `A`, in the same search
/// or the next one, before the first op that changes a piece. A switch changes no piece, so a
/// set kept while the pieces are unchanged serves the next player's first search.
fn asked_again(p: &Program, plan: &BoardPlan) -> Vec<Vec<AutomatonId>> {
    let mut out = vec![Vec::new(); p.automata().len()];
    let rules = AutomatonId::new(0);
    let chooses = |a: AutomatonId| {
        plan.nodes_of(a).iter().any(|&n| {
            let memos =
                p.node_edges(NodeId::new(n)).iter().flat_map(|e| p.edge_ops(e)).filter(
                    |op| matches!(**op, Op::Pattern { automaton, .. } if plan.reads_memo(n, automaton)),
                );
            memos.count() >= 2
        })
    };
    for &n in plan.nodes_of(rules) {
        for e in p.node_edges(NodeId::new(n)) {
            let ops = p.edge_ops(e);
            for (i, op) in ops.iter().enumerate() {
                let Op::Pattern { automaton, .. } = *op else { continue };
                if !chooses(automaton) || !out[automaton.index()].is_empty() {
                    continue;
                }
                let asked = asked_from(p, &ops[i + 1..], e.target());
                out[automaton.index()] = plan
                    .with_nested(p, asked)
                    .into_iter()
                    .filter(|&a| a != automaton && plan.memo_slot(a).is_some())
                    .collect();
            }
        }
    }
    out
}

/// The patterns asked by `ops` and then by the rules from node `from` on, on every path up to
/// the first op that changes a piece or the end of the next search (the second switch).
fn asked_from(p: &Program, ops: &[Op], from: NodeId) -> Vec<AutomatonId> {
    let mut asked = Vec::new();
    // Per node, whether it was reached before a switch (0) or after one (1).
    let mut seen = vec![[false; 2]; p.nodes().len()];
    let mut stack = Vec::new();
    if let Some(switches) = read_until_change(ops, 0, &mut asked) {
        stack.push((from, switches));
    }
    while let Some((n, switches)) = stack.pop() {
        if std::mem::replace(&mut seen[n.index()][switches], true) {
            continue;
        }
        if let NodeKind::Fan { next, .. } = p.node(n).kind() {
            stack.push((next, switches));
            continue;
        }
        for e in p.node_edges(n) {
            if let Some(after) = read_until_change(p.edge_ops(e), switches, &mut asked) {
                stack.push((e.target(), after));
            }
        }
    }
    asked
}

/// Adds the patterns `ops` asks before a piece changes or a second switch; the switches passed
/// after `ops` (from `switches` before), or `None` where the path ends.
fn read_until_change(ops: &[Op], mut switches: usize, asked: &mut Vec<AutomatonId>) -> Option<usize> {
    for op in ops {
        match *op {
            Op::Off { .. } => return None,
            Op::Switch { .. } if switches == 1 => return None,
            Op::Switch { .. } => switches = 1,
            Op::Pattern { automaton, .. } if !asked.contains(&automaton) => asked.push(automaton),
            _ => {}
        }
    }
    Some(switches)
}

/// The patterns whose bodies use only ops with a word form. Nesting is acyclic, so a pass that
/// only ever turns entries on reaches the answer within the nesting depth.
fn evaluable_automata(p: &Program, nodes_of: &[Vec<u32>]) -> Vec<bool> {
    let vertices = p.board().vertices();
    let op_ok = |op: &Op, evaluable: &[bool]| match *op {
        Op::Shift(l) => deltas(vertices, |v| p.board().neighbour(v, l)).is_some(),
        Op::Table(t) => deltas(vertices, |v| p.det_table(t)[v as usize]).is_some(),
        Op::On(_) | Op::OnSet(_) | Op::InSet(_) | Op::Compare { .. } | Op::Fail | Op::Switch { .. } => true,
        Op::Pattern { automaton, .. } => evaluable[automaton.get() as usize],
        Op::Off { .. } | Op::Assign { .. } | Op::AssignConst { .. } => false,
    };
    let mut evaluable = vec![false; p.automata().len()];
    loop {
        let mut changed = false;
        for id in p.automaton_ids() {
            let i = id.get() as usize;
            if evaluable[i] || !p.automaton(id).is_pattern() {
                continue;
            }
            let ok = nodes_of[i].iter().all(|&n| {
                p.node_edges(NodeId::new(n))
                    .iter()
                    .all(|e| p.edge_ops(e).iter().all(|op| op_ok(op, &evaluable)))
            }) && cheap_shape(p, &nodes_of[i])
                && few_piece_sets(p, &nodes_of[i]);
            if ok {
                evaluable[i] = true;
                changed = true;
            }
        }
        if !changed {
            return evaluable;
        }
    }
}

/// Whether the pattern's on-tests and fan filters read at most [`MAX_PIECE_SETS`] piece sets:
/// each costs a pass over the board to collect, where a search at one cell reads one piece
/// (arimaa's repetition test compares all 15 pieces of two boards).
fn few_piece_sets(p: &Program, nodes: &[u32]) -> bool {
    let mut sets: Vec<Vec<bool>> = Vec::new();
    let mut add = |accepts: Vec<bool>| {
        if !sets.contains(&accepts) {
            sets.push(accepts);
        }
    };
    let mask_set = |mask: u64| (0..64).map(|piece| (mask >> piece) & 1 == 1).collect::<Vec<bool>>();
    for &n in nodes {
        if let NodeKind::Fan { filter: Some(mask), .. } = p.node(NodeId::new(n)).kind() {
            add(mask_set(mask));
        }
        for e in p.node_edges(NodeId::new(n)) {
            for op in p.edge_ops(e) {
                match *op {
                    Op::On(mask) => add(mask_set(mask)),
                    Op::OnSet(set) => add(p.piece_set(set).to_vec()),
                    _ => {}
                }
            }
        }
    }
    sets.len() <= MAX_PIECE_SETS
}

/// Whether a pattern's automaton has a shape whose word form costs a few operations per node:
/// fans only with one row for every cell (a test of the whole row) or with rows of a few deltas
/// (a masked shift each), and cycles only as rays (a fixed number of shift rounds, see
/// [`ray_rounds`]). Other fans need a loop over the cells and other cycles a loop to a fixpoint,
/// which measured slower than the scalar search.
fn cheap_shape(p: &Program, nodes: &[u32]) -> bool {
    let cheap_fans = nodes.iter().all(|&n| match p.node(NodeId::new(n)).kind() {
        NodeKind::Fan { table, .. } => p.fan_table(table).is_uniform() || fan_deltas(p, table).is_some(),
        NodeKind::Branch { .. } => true,
    });
    cheap_fans
        && components(p, nodes).iter().all(|scc| match scc[..] {
            [n] => !successors(p, n).contains(&n) || ray_rounds(p, n).is_some(),
            _ => false,
        })
}

/// The continuations of fans that ask many cells: a pattern op on their edges is asked at up to
/// that many cells in one semi-state, enough to repay one whole-board evaluation. A fan asks the
/// cells of its row that hold a piece of its filter; the initial board stands for a typical one
/// (reversi's fan over empty cells asks 60 there, breakthrough's over its pawns 16, amazons'
/// over its amazons 4). Nodes further on are usually reached from few cells, after tests that
/// filter; there, and after fans that ask few cells, the scalar search, which stops at the first
/// word, is cheaper. Nodes reached by tests that the fan's filter implies are asked as often as
/// the continuation, so they are hot too ([`passed_through`]).
fn hot_nodes(p: &Program) -> Vec<bool> {
    let mut hot = vec![false; p.nodes().len()];
    let initial = p.initial_pieces();
    for node in p.nodes() {
        if let NodeKind::Fan { table, next, filter } = node.kind() {
            let fan = p.fan_table(table);
            let asked = |v: u32| {
                let holds = |t: &&u32| {
                    filter.is_none_or(|mask| {
                        initial.get(**t as usize).is_some_and(|&piece| (mask >> piece) & 1 == 1)
                    })
                };
                fan.row(v).iter().filter(holds).count()
            };
            if (0..p.board().vertices()).map(asked).max().unwrap_or(0) >= MIN_ASKED_CELLS {
                hot[next.index()] = true;
                for n in passed_through(p, next, filter) {
                    hot[n.index()] = true;
                }
            }
        }
    }
    hot
}

/// The nodes that every cell a fan asks reaches from `next` (the fan's continuation): the
/// targets of edges that only test pieces which the fan's filter already ensures (reversi's
/// keeper, `anySquare {e} ({? mine} + {? theirs})`, asks its two patterns one node after the
/// fan's `{e}`).
fn passed_through(p: &Program, next: NodeId, filter: Option<u64>) -> Vec<NodeId> {
    let Some(filter) = filter else { return Vec::new() };
    let implied = |op: &Op| matches!(*op, Op::On(mask) if filter & !mask == 0);
    let mut out = Vec::new();
    let mut stack = vec![next];
    while let Some(n) = stack.pop() {
        if p.node(n).is_fan() {
            continue;
        }
        for e in p.node_edges(n) {
            let t = e.target();
            if p.edge_ops(e).iter().all(implied) && t != next && !out.contains(&t) {
                out.push(t);
                stack.push(t);
            }
        }
    }
    out
}

/// A shift as masked bit shifts: `(delta, sources)` pairs, where every vertex in `sources` moves
/// to `vertex + delta` and the others leave the board. `None` past [`MAX_DELTAS`].
fn deltas(vertices: u32, target: impl Fn(u32) -> u32) -> Option<Vec<(i64, u128)>> {
    delta_classes((0..vertices).map(|v| (v, target(v))))
}

/// A fan's rows the same way: vertex `v` is in the sources of `delta` when `v + delta` is in its
/// row. `None` past [`MAX_DELTAS`].
fn fan_deltas(p: &Program, table: FanTableId) -> Option<Vec<(i64, u128)>> {
    let fan = p.fan_table(table);
    delta_classes((0..p.board().vertices()).flat_map(|v| fan.row(v).iter().map(move |&t| (v, t))))
}

/// Groups `(vertex, target)` moves by `target - vertex`; [`NONE`] targets leave the board.
fn delta_classes(moves: impl Iterator<Item = (u32, u32)>) -> Option<Vec<(i64, u128)>> {
    let mut out: Vec<(i64, u128)> = Vec::new();
    for (v, t) in moves {
        if t == NONE {
            continue;
        }
        let delta = t as i64 - v as i64;
        match out.iter().position(|&(d, _)| d == delta) {
            Some(i) => out[i].1 |= 1 << v,
            None if out.len() < MAX_DELTAS => out.push((delta, 1 << v)),
            None => return None,
        }
    }
    Some(out)
}

fn board_fn_ident(a: AutomatonId) -> proc_macro2::Ident {
    format_ident!("board_pattern_{}", a.get())
}

fn memo_fn_ident(a: AutomatonId) -> proc_macro2::Ident {
    format_ident!("board_memo_{}", a.get())
}

/// The test of a hot pattern op at cell `w`: one bit of the memoised set.
pub(crate) fn memo_test(automaton: AutomatonId) -> TokenStream {
    let name = memo_fn_ident(automaton);
    quote!(((#name(st, sc) >> w) & 1 != 0))
}

/// The `Scratch` fields of the memos (none without memos): the epoch each set was made in and,
/// where some set is [`keyed_by_words`], the state words it was made from.
pub(crate) fn scratch_fields(c: &Ctx) -> TokenStream {
    let m = c.board.memos();
    if m == 0 {
        return TokenStream::new();
    }
    let m = lit(m as u64);
    let keys = if memoised(c).any(|a| keyed_by_words(c, a)) {
        quote!(board_keys: [[BoardSet; WORD_SLOTS]; #m], board_keyed: [bool; #m],)
    } else {
        TokenStream::new()
    };
    quote!(board_epoch: u64, board_seen: [u64; #m], board_sets: [BoardSet; #m], #keys)
}

/// The memoised pattern automata.
fn memoised<'a>(c: &'a Ctx) -> impl Iterator<Item = AutomatonId> + 'a {
    c.p.automaton_ids().filter(|a| c.board.memo_slot(*a).is_some())
}

/// Whether the set of memoised pattern `a` is kept from one search to the next while the
/// state's piece words are unchanged (counting a state's moves and then replaying one evaluate
/// it once): it must be a function of those words alone (its pieces, and those of the patterns
/// it nests, read from the words, switch `board-words`; no variable compared), and worth the
/// comparison of the words at every new epoch (it walks rays: reversi's sets took 0.82x to 0.92x
/// the instructions of its counting playouts this way, where the few shifts of
/// breakthrough_split's cost less to recompute than to compare, docs/results.md).
fn keyed_by_words(c: &Ctx, a: AutomatonId) -> bool {
    let nested = c.board.with_nested(c.p, [a]);
    let reads_words_alone = nested
        .iter()
        .all(|&b| c.board.ops_of(c.p, b).all(|op| !matches!(op, Op::Compare { .. } | Op::OnSet(_))));
    let walks_rays =
        nested.iter().any(|&b| c.board.nodes_of(b).iter().any(|&n| successors(c.p, n).contains(&n)));
    c.words.board_patterns_read_words() && reads_words_alone && walks_rays
}

/// Starts a new memo epoch: the semi-state may differ from the one the memos were made in.
pub(crate) fn new_epoch(c: &Ctx) -> TokenStream {
    if c.board.memos() == 0 {
        return TokenStream::new();
    }
    quote!(sc.board_epoch += 1;)
}

/// The set functions of every evaluable pattern that some memo needs, and the memo readers.
pub(crate) fn functions(c: &Ctx) -> TokenStream {
    if c.board.memos() == 0 && !c.words.is_used() {
        return TokenStream::new();
    }
    let vertices = lit(c.l.vertices as u64);
    let word = if c.l.vertices > 64 { quote!(u128) } else { quote!(u64) };
    let mut out = quote! {
        /// A set of cells: bit `v` for vertex `v`.
        type BoardSet = #word;

        /// The cells (bit `v` for vertex `v`) holding a piece that `holds` accepts.
        #[inline(always)]
        fn board_bits(st: &State, holds: impl Fn(Piece) -> bool) -> BoardSet {
            let mut bits: BoardSet = 0;
            for v in 0..#vertices {
                bits |= (holds(st.pieces[v]) as BoardSet) << v;
            }
            bits
        }
    };
    if c.board.memos() == 0 {
        return out;
    }
    let mut needed = c.board.with_nested(c.p, memoised(c));
    needed.sort();
    let from_state = c.words.board_patterns_read_words();
    for a in needed {
        out.extend(set_fn(c, a, from_state, board_fn_ident));
    }
    for (i, slot) in c.board.memo.iter().enumerate() {
        let Some(slot) = slot else { continue };
        let a = AutomatonId::new(i as u32);
        let (memo, set) = (memo_fn_ident(a), board_fn_ident(a));
        let slot = lit(*slot as u64);
        // A set keyed by the words is computed again only when they changed.
        let (compute, doc) = if keyed_by_words(c, a) {
            let compute = quote! {
                if !sc.board_keyed[#slot] || sc.board_keys[#slot] != st.words {
                    sc.board_sets[#slot] = #set(st);
                    sc.board_keys[#slot] = st.words;
                    sc.board_keyed[#slot] = true;
                }
            };
            (compute, ", and kept while the state's piece words are those it was computed from")
        } else {
            (quote!(sc.board_sets[#slot] = #set(st);), "")
        };
        let doc = format!("The set of pattern automaton {a}, computed once per memo epoch{doc}.");
        out.extend(quote! {
            #[doc = #doc]
            #[inline(always)]
            fn #memo(st: &State, sc: &mut Scratch) -> BoardSet {
                if sc.board_seen[#slot] != sc.board_epoch {
                    #compute
                    sc.board_seen[#slot] = sc.board_epoch;
                }
                sc.board_sets[#slot]
            }
        });
    }
    out
}

/// For a fan whose continuation tests a memoised pattern first on every edge: the cells where
/// some edge's leading tests pass, as a word expression, so that the fan visits only those (in
/// the same ascending order) instead of entering the continuation at every cell of its row and
/// failing there. `None` when a continuation edge has no such test or the row is not the same
/// for every cell.
pub(crate) fn fan_prefilter(c: &Ctx, n: u32) -> Option<TokenStream> {
    let NodeKind::Fan { table, next, .. } = c.p.node(NodeId::new(n)).kind() else { return None };
    let fan = c.p.fan_table(table);
    if !c.board.prefilters(c.p, n) {
        return None;
    }
    let mut edges = Vec::new();
    for e in c.p.node_edges(next) {
        let mut tests = Vec::new();
        let mut memoised = false;
        for op in c.p.edge_ops(e) {
            let Some(test) = prefilter_test(c, n, next.get(), op) else { break };
            memoised |= matches!(op, Op::Pattern { .. });
            tests.push(test);
        }
        if !memoised {
            return None;
        }
        edges.push(quote!((#(#tests)&*)));
    }
    if edges.is_empty() {
        return None;
    }
    let row = set_lit(row_bits(fan.row(0)));
    Some(quote!(((#(#edges)|*) & #row)))
}

/// The whole-row form of one test of prefiltered fan `n`'s continuation `next`, if it has one
/// ([`is_prefilter_test`]).
fn prefilter_test(c: &Ctx, n: u32, next: u32, op: &Op) -> Option<TokenStream> {
    if !is_prefilter_test(c, next, op) {
        return None;
    }
    let tracked = c.tracked_set(n).map(|k| (k, c.a.tracked_masks()[k]));
    Some(match *op {
        Op::On(mask) => match tracked {
            // The fan's own set is exact wherever the fan runs (it iterates it).
            Some((k, tracked_mask)) if tracked_mask == mask => {
                let k = lit(k as u64);
                if c.l.vertices > 64 {
                    quote!((st.occ[#k][0] as BoardSet | (st.occ[#k][1] as BoardSet) << 64))
                } else {
                    quote!(st.occ[#k][0])
                }
            }
            _ => {
                let pieces = c.piece_pattern_mask(mask);
                quote!(board_bits(st, |p| matches!(p, #pieces)))
            }
        },
        Op::InSet(s) => cell_set_bits(c, s).into_token_stream(),
        Op::Pattern { automaton, positive } => {
            let name = memo_fn_ident(automaton);
            if positive {
                quote!(#name(st, sc))
            } else {
                quote!(!#name(st, sc))
            }
        }
        _ => return None,
    })
}

/// For a fan `n` inside a pattern whose continuation is made of whole-row tests only (on-tests,
/// cell sets, memoised patterns) up to an accepting node, without cycles: whether the pattern
/// goes on from some cell of the row, as one word test per path, asked in the order of the
/// edges and stopping at the first that holds. A memoised set is thus only computed when the
/// paths before it found no cell (reversi's keeper reads the next player's move set first, see
/// [`crate::search::ordered_edges`], and needs the other one only when that is empty).
pub(crate) fn fan_exists(c: &Ctx, n: u32) -> Option<TokenStream> {
    let NodeKind::Fan { table, next, .. } = c.p.node(NodeId::new(n)).kind() else { return None };
    if !c.is_pattern(n) || !c.board.prefilters(c.p, n) {
        return None;
    }
    let row = set_lit(row_bits(c.p.fan_table(table).row(0)));
    let mut paths = Vec::new();
    // (node, the tests of the path so far, its depth), depth first in edge order.
    let mut stack = vec![(next.get(), Vec::new(), 0)];
    while let Some((node, tests, depth)) = stack.pop() {
        if c.p.node(NodeId::new(node)).is_accepting() {
            paths.push(quote!((#(#tests &)* #row) != 0));
            continue;
        }
        let too_many = paths.len() + stack.len() > MAX_EXISTS_PATHS || depth > MAX_EXISTS_PATHS;
        if c.p.node(NodeId::new(node)).is_fan() || too_many {
            return None;
        }
        let mut branches = Vec::new();
        for e in crate::search::ordered_edges(c, node) {
            let target = e.target().get();
            if target == node || target == next.get() {
                return None;
            }
            let mut path = tests.clone();
            for op in c.p.edge_ops(&e) {
                // Tests are read at the fan's continuation; later nodes are the same cell.
                path.push(prefilter_test(c, n, next.get(), op)?);
            }
            branches.push((target, path, depth + 1));
        }
        stack.extend(branches.into_iter().rev());
    }
    (!paths.is_empty()).then(|| quote!(#(#paths)||*))
}

/// Whether `op`, on an edge of a prefiltered fan's continuation `next`, is one of the tests
/// that [`fan_prefilter`] reads for the whole row: an on-test, a cell-set test, or a pattern
/// with a memo.
fn is_prefilter_test(c: &Ctx, next: u32, op: &Op) -> bool {
    match *op {
        Op::On(_) | Op::InSet(_) => true,
        Op::Pattern { automaton, .. } => c.board.reads_memo(next, automaton),
        _ => false,
    }
}

/// Whether every cell that prefiltered fan `n` visits is exactly one move: its continuation
/// has one edge, made of the tests the prefilter has read and the move's switch, so the moves
/// of the fan are the bits of its prefilter, in order (a sink counting them may take them
/// by a popcount, see [`crate::search`]). The caller checks that the continuation's function
/// does nothing else (no visited check, stack check or loop).
pub(crate) fn cells_are_moves(c: &Ctx, n: u32) -> bool {
    let NodeKind::Fan { next, .. } = c.p.node(NodeId::new(n)).kind() else { return false };
    if !c.o.bulk_counts || c.is_pattern(n) || !c.board.prefilters(c.p, n) {
        return false;
    }
    let [edge] = c.p.node_edges(next) else { return false };
    let Some((Op::Switch { .. }, tests)) = c.p.edge_ops(edge).split_last() else { return false };
    tests.iter().all(|op| is_prefilter_test(c, next.get(), op))
}

/// `word_pattern_A(st)`: like `board_pattern_A`, reading its pieces from the state's words
/// (which word tests keep, see [`crate::word_tests`]).
pub(crate) fn word_set_fn(c: &Ctx, a: AutomatonId) -> TokenStream {
    set_fn(c, a, true, word_fn_ident)
}

pub(crate) fn word_fn_ident(a: AutomatonId) -> proc_macro2::Ident {
    format_ident!("word_pattern_{}", a.get())
}

/// The function named `name_of(A)` (nested patterns called by their names too): the cells where
/// pattern automaton `A` has a complete word, the pieces collected from the board, or read from
/// the state's words when `from_state` (those of piece masks: the words kept for word tests or
/// for switch `board-words`).
fn set_fn(
    c: &Ctx,
    a: AutomatonId,
    from_state: bool,
    name_of: fn(AutomatonId) -> proc_macro2::Ident,
) -> TokenStream {
    let nodes = &c.board.nodes[a.get() as usize];
    let all = set_lit(all_cells(c.l.vertices as u32));
    let mut gen = SetGen { c, all: quote!(#all), occ: Vec::new(), subs: Vec::new() };
    let mut body = TokenStream::new();
    // Sinks first; the shape check admits only single nodes, each acyclic or a ray.
    for scc in components(c.p, nodes) {
        let n = scc[0];
        let (var, expr) = (set_var(n), gen.node_set(n));
        match ray_rounds(c.p, n) {
            // A fixed number of rounds reaches the fixpoint, with no test to mispredict.
            Some(rounds) if successors(c.p, n).contains(&n) => body.extend(quote! {
                let mut #var: BoardSet = 0;
                for _ in 0..#rounds { #var = #expr; }
            }),
            _ => body.extend(quote!(let #var: BoardSet = #expr;)),
        }
    }
    let occ = gen.occ.iter().enumerate().map(|(k, (pieces, mask))| {
        let name = format_ident!("occ{}", k);
        match mask {
            Some(mask) if from_state => {
                let word = crate::word_tests::state_word(c, *mask);
                quote!(let #name: BoardSet = #word;)
            }
            _ => quote!(let #name = board_bits(st, |p| matches!(p, #pieces));),
        }
    });
    let subs = gen.subs.iter().map(|&b| {
        let (name, f) = (format_ident!("sub{}", b.get()), name_of(b));
        quote!(let #name = #f(st);)
    });
    let start = set_var(c.p.automaton(a).start().get());
    let name = name_of(a);
    let doc = format!("Pattern automaton {a} on the whole board: bit `v` is set when its body has a complete word from vertex `v`.");
    quote! {
        #[doc = #doc]
        #[inline]
        fn #name(st: &State) -> BoardSet {
            #(#occ)*
            #(#subs)*
            #body
            #start
        }
    }
}

/// For a node whose only cycle is one edge back to itself that shifts by a single delta (a ray,
/// `({x} up)*`): how many rounds of `s = node_set(s)` from the empty set reach the fixpoint. Each
/// round extends the set by one more step along the ray, and a ray on the board has at most as
/// many steps as its longest chain of cells. `None` for other cycles, or rays longer than
/// [`MAX_RAY_ROUNDS`].
fn ray_rounds(p: &Program, n: u32) -> Option<usize> {
    let vertices = p.board().vertices();
    let mut loops = p.node_edges(NodeId::new(n)).iter().filter(|e| e.target().get() == n);
    let (edge, None) = (loops.next()?, loops.next()) else { return None };
    let mut shifts = p.edge_ops(edge).iter().filter_map(|op| match *op {
        Op::Shift(l) => Some(deltas(vertices, |v| p.board().neighbour(v, l))),
        Op::Table(t) => Some(deltas(vertices, |v| p.det_table(t)[v as usize])),
        _ => None,
    });
    let (Some(Some(ray)), None) = (shifts.next(), shifts.next()) else { return None };
    let [(delta, sources)] = ray[..] else { return None };
    if delta == 0 {
        return None;
    }
    // Chain lengths along the ray, from its far end back (targets are `v + delta`).
    let mut chain = vec![0usize; vertices as usize];
    let order: Vec<u32> = if delta > 0 { (0..vertices).rev().collect() } else { (0..vertices).collect() };
    for v in order {
        if (sources >> v) & 1 == 1 {
            let t = (v as i64 + delta) as usize;
            chain[v as usize] = 1 + chain.get(t).copied().unwrap_or(0);
        }
    }
    let rounds = chain.iter().max().copied().unwrap_or(0) + 1;
    (rounds <= MAX_RAY_ROUNDS).then_some(rounds)
}

fn set_var(n: u32) -> proc_macro2::Ident {
    format_ident!("s{}", n)
}

pub(crate) fn all_cells(vertices: u32) -> u128 {
    if vertices >= 128 {
        u128::MAX
    } else {
        (1u128 << vertices) - 1
    }
}

/// The nodes a node's search continues at.
fn successors(p: &Program, n: u32) -> Vec<u32> {
    match p.node(NodeId::new(n)).kind() {
        NodeKind::Fan { next, .. } => vec![next.get()],
        NodeKind::Branch { .. } => p.node_edges(NodeId::new(n)).iter().map(|e| e.target().get()).collect(),
    }
}

/// Strongly connected components of the automaton's nodes, each after every component it
/// reaches (Tarjan's order), found with an explicit stack.
fn components(p: &Program, nodes: &[u32]) -> Vec<Vec<u32>> {
    let local = |n: u32| nodes.binary_search(&n).ok();
    let succ: Vec<Vec<usize>> =
        nodes.iter().map(|&n| successors(p, n).into_iter().filter_map(local).collect()).collect();
    let count = nodes.len();
    let (mut index, mut low) = (vec![usize::MAX; count], vec![0; count]);
    let (mut on_stack, mut stack, mut out) = (vec![false; count], Vec::new(), Vec::new());
    let mut next_index = 0;
    for root in 0..count {
        if index[root] != usize::MAX {
            continue;
        }
        // (node, position in its successor list)
        let mut work = vec![(root, 0usize)];
        while let Some(&mut (v, ref mut i)) = work.last_mut() {
            if *i == 0 && index[v] == usize::MAX {
                index[v] = next_index;
                low[v] = next_index;
                next_index += 1;
                stack.push(v);
                on_stack[v] = true;
            }
            if let Some(&w) = succ[v].get(*i) {
                *i += 1;
                if index[w] == usize::MAX {
                    work.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            work.pop();
            if let Some(&(parent, _)) = work.last() {
                low[parent] = low[parent].min(low[v]);
            }
            if low[v] == index[v] {
                let mut scc = Vec::new();
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    scc.push(nodes[w]);
                    if w == v {
                        break;
                    }
                }
                out.push(scc);
            }
        }
    }
    out
}

/// Builds the set expressions of one pattern function, collecting the piece sets and nested
/// patterns it reads.
struct SetGen<'a> {
    c: &'a Ctx<'a>,
    all: TokenStream,
    /// `matches!` patterns of the piece sets read, in order of first use (`occ0`, `occ1`, …),
    /// with their piece masks where they have one (not for `OnSet`).
    occ: Vec<(TokenStream, Option<u64>)>,
    /// Nested patterns read (`sub{id}`).
    subs: Vec<AutomatonId>,
}

impl SetGen<'_> {
    fn occ(&mut self, pieces: TokenStream, mask: Option<u64>) -> TokenStream {
        let key = pieces.to_string();
        let k = match self.occ.iter().position(|(p, _)| p.to_string() == key) {
            Some(k) => k,
            None => {
                self.occ.push((pieces, mask));
                self.occ.len() - 1
            }
        };
        let name = format_ident!("occ{}", k);
        quote!(#name)
    }

    /// The set of node `n` from the current sets of its successors.
    fn node_set(&mut self, n: u32) -> TokenStream {
        let c = self.c;
        let node = *c.p.node(NodeId::new(n));
        if node.is_accepting() {
            return self.all.clone();
        }
        match node.kind() {
            NodeKind::Fan { table, next, filter } => {
                let next = set_var(next.get());
                let mut target = quote!(#next);
                if let Some(mask) = filter {
                    let occ = self.occ(c.piece_pattern_mask(mask), Some(mask));
                    target = quote!((#target & #occ));
                }
                if c.p.fan_table(table).is_uniform() {
                    // Every cell has this row: all cells or none.
                    let row = set_lit(row_bits(c.p.fan_table(table).row(0)));
                    let all = &self.all;
                    return quote!(if #target & #row != 0 { #all } else { 0 });
                }
                // Rows of a few deltas (the shape check), one masked shift each.
                let shifts = shift_back(fan_deltas(c.p, table));
                quote!({ let mut x: BoardSet = #target; #shifts x })
            }
            NodeKind::Branch { .. } => {
                let edges: Vec<TokenStream> =
                    c.p.node_edges(NodeId::new(n))
                        .iter()
                        .map(|e| self.edge_set(c.p.edge_ops(e), e.target().get()))
                        .collect();
                if edges.is_empty() {
                    quote!(0)
                } else {
                    quote!(#(#edges)|*)
                }
            }
        }
    }

    /// The cells from which `ops` succeed and end in the set of `target`: the ops read
    /// backwards, each turning the cells after it into the cells before it.
    fn edge_set(&mut self, ops: &[Op], target: u32) -> TokenStream {
        let c = self.c;
        let target = set_var(target);
        let mut steps = TokenStream::new();
        for op in ops.iter().rev() {
            steps.extend(match *op {
                Op::Shift(l) => shift_back(deltas(c.l.vertices as u32, |v| c.p.board().neighbour(v, l))),
                Op::Table(t) => shift_back(deltas(c.l.vertices as u32, |v| c.p.det_table(t)[v as usize])),
                Op::On(mask) => {
                    let occ = self.occ(c.piece_pattern_mask(mask), Some(mask));
                    quote!(x &= #occ;)
                }
                Op::OnSet(s) => {
                    let occ = self.occ(c.piece_set_pattern(s), None);
                    quote!(x &= #occ;)
                }
                Op::InSet(s) => {
                    let bits = cell_set_bits(c, s);
                    quote!(x &= #bits;)
                }
                Op::Compare { lhs, rel, rhs } => {
                    let test = crate::search::compare_code(
                        c,
                        lhs,
                        rel,
                        rhs,
                        &syn::Lifetime::new("'cmp", proc_macro2::Span::call_site()),
                    );
                    quote!(if !('cmp: { #test true }) { x = 0; })
                }
                Op::Pattern { automaton, positive } => {
                    if !self.subs.contains(&automaton) {
                        self.subs.push(automaton);
                    }
                    let sub = format_ident!("sub{}", automaton.get());
                    if positive {
                        quote!(x &= #sub;)
                    } else {
                        quote!(x &= !#sub;)
                    }
                }
                Op::Fail => quote!(x = 0;),
                // Switches inside patterns do nothing; modifiers never reach here (not evaluable).
                Op::Switch { .. } | Op::Off { .. } | Op::Assign { .. } | Op::AssignConst { .. } => {
                    TokenStream::new()
                }
            });
        }
        quote!({ let mut x: BoardSet = #target; #steps x })
    }
}

/// The cells whose shift lands in `x`: per delta, the sources whose target bit is set.
fn shift_back(deltas: Option<Vec<(i64, u128)>>) -> TokenStream {
    let parts: Vec<TokenStream> = deltas
        .unwrap_or_default()
        .into_iter()
        .map(|(delta, sources)| {
            let sources = set_lit(sources);
            let amount = lit(delta.unsigned_abs());
            match delta {
                0 => quote!((x & #sources)),
                d if d > 0 => quote!(((x >> #amount) & #sources)),
                _ => quote!(((x << #amount) & #sources)),
            }
        })
        .collect();
    if parts.is_empty() {
        return quote!(x = 0;);
    }
    quote!(x = #(#parts)|*;)
}

/// A precomputed cell set as a `BoardSet` literal.
pub(crate) fn cell_set_bits(c: &Ctx, s: CellSetId) -> proc_macro2::Literal {
    let set = c.p.cell_set(s);
    set_lit((0..c.l.vertices as u32).filter(|&v| set.contains(v)).fold(0, |bits, v| bits | 1 << v))
}

/// A cell set as a literal of the generated `BoardSet`.
pub(crate) fn set_lit(bits: u128) -> proc_macro2::Literal {
    proc_macro2::Literal::u128_unsuffixed(bits)
}

fn row_bits(row: &[u32]) -> u128 {
    row.iter().fold(0, |bits, &v| bits | 1 << v)
}
