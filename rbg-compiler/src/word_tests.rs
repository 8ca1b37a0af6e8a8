//! Word tests at one cell (design notes 6.3): tests that read the board through the state's
//! piece words (`State::words`, see [`state_words`]: one `BoardSet` per piece read, kept in
//! step by `set_piece` like the piece-location sets).
//!
//! Two uses, both on boards of at most 128 vertices:
//!
//! * **Cell patterns.** A pattern whose body only shifts, fans and tests pieces or fixed cell
//!   sets, with no cycle, holds at a cell exactly when one of its accepting paths' tests all
//!   pass, and from a fixed cell each path tests fixed cells. So the compiler enumerates the
//!   paths from every cell and keeps, per cell, their *terms*: for each piece set read, the
//!   cells that must hold one of its pieces. The generated test is `(word & cells) == cells`
//!   for every term and set, ORed without branches: connect4's "four in a row through this
//!   cell" is 11 such terms, where the search takes a branch per cell it looks at and
//!   mispredicts on a random board. Patterns with few terms, or reading more than one piece
//!   set, keep the search (see [`MIN_TERMS`]: the words cost every move).
//! * **Fan prefilters.** A fan visits its row in ascending cell order, and its continuation
//!   often starts with tests that have a word form: on-tests (a state word), fixed cell sets
//!   (a literal), and patterns cheap to evaluate for the whole board from the state words
//!   (`down {e}` is one masked shift). Where some of them is such a pattern, the fan visits
//!   only the bits of `row & filter & (tests of edge 1 | tests of edge 2 | …)`, lowest first,
//!   which is the same order: connect4's keeper finds the lowest empty cell of a column with
//!   one word expression instead of a loop whose exit mispredicts. Where the continuation has
//!   one edge, the cells visited have passed its leading tests, and the edge runs inline
//!   without them ([`WordPlan::passed_tests`]).
//!
//! Both read state words, so their nodes are readers of derived state
//! ([`Analysis::add_derived_readers`]), and a search that modifies the board before reaching
//! them keeps the words exact.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use rbg_automaton::{Analysis, AutomatonId, NodeId, NodeKind, Op, Program};

use crate::board_sets::{set_lit, BoardPlan};
use crate::ctx::Ctx;
use crate::tables::lit;

/// A state word is one `BoardSet` (`u64`, or `u128` past 64 vertices).
pub(crate) const MAX_VERTICES: u32 = 128;
/// Patterns with more terms at some cell keep the search.
const MAX_TERMS: usize = 16;
/// Patterns with fewer terms everywhere keep the search. The words cost every move that changes
/// the board (`set_piece` keeps them, and states are larger); only a pattern of many terms,
/// where the search takes many unpredictable branches, repays that. Measured, switch on against
/// off: connect4 (11 terms) perft 1.81x and flat Monte Carlo 2.27x, yavalath (12 to 15) 1.11x
/// and 1.37x; with fewer terms, the split games' perft lost 9 to 20% (knightthrough_split and
/// amazons_split3, 4 terms; breakthrough_split, 3) and ticTacToe's gained 20% (4 terms). See
/// also [`asked_often`].
const MIN_TERMS: usize = 5;
/// Patterns reading more piece sets keep the search: English draughts' capture tests (2 sets,
/// 2 to 4 terms) lost 12% perft and 10% Monte Carlo, reversi's flips (2 sets, 6 terms) about
/// 5%.
const MAX_SETS: usize = 1;
/// Enumeration steps per start cell before the pattern is left to the search (bounds cycles,
/// which a pattern with visited checks may have, and path explosions).
const MAX_STEPS: usize = 4096;
/// Table entries (cells × terms × sets) of one cell pattern, to stay within the caches.
const MAX_ENTRIES: usize = 4096;
/// Ops in a pattern cheap enough to evaluate for the whole board at every fan visit.
const MAX_CHEAP_OPS: usize = 6;

/// Which patterns are cell patterns, which fans are prefiltered, and the piece words they read.
#[derive(Clone, Debug, Default)]
pub(crate) struct WordPlan {
    /// Per automaton: its terms, if it is a cell pattern.
    cell: Vec<Option<Terms>>,
    /// Per automaton: its whole-board set from the state words is cheap (see [`cheap_automata`]).
    cheap: Vec<bool>,
    /// Per node: for a fan that visits the bits of a prefilter, its continuation's leading word
    /// tests, per edge.
    fans: Vec<Option<Vec<Vec<WordTest>>>>,
    /// The piece masks read as state words.
    masks: Vec<u64>,
    /// The nodes whose pattern ops read a memoised whole-board set computed from the state
    /// words (switch `board-words`, see [`WordPlan::read_board_patterns`]); empty when those
    /// sets collect their pieces from the board.
    board_readers: Vec<NodeId>,
}

/// A cell pattern's terms.
#[derive(Clone, Debug)]
struct Terms {
    /// The piece masks its tests read (a term's sets, in this order).
    masks: Vec<u64>,
    /// Per vertex: the terms, each the cells per mask that must hold a piece of it.
    at: Vec<Vec<Vec<u128>>>,
}

impl WordPlan {
    /// The plan for `p`: word tests where `word_tests` is set, and the words of the memoised
    /// whole-board sets where `board_words` is ([`WordPlan::read_board_patterns`]); empty when
    /// the board has more than [`MAX_VERTICES`] vertices or the game more than 64 pieces.
    pub(crate) fn new(
        p: &Program,
        a: &Analysis,
        board: &BoardPlan,
        word_tests: bool,
        board_words: bool,
    ) -> WordPlan {
        if p.board().vertices() > MAX_VERTICES || p.num_pieces() > 64 {
            return WordPlan::default();
        }
        let mut plan = if word_tests {
            Self::word_tests(p, a, board)
        } else {
            WordPlan {
                cell: vec![None; p.automata().len()],
                cheap: vec![false; p.automata().len()],
                fans: vec![None; p.nodes().len()],
                ..WordPlan::default()
            }
        };
        if board_words {
            plan.read_board_patterns(p, board);
        }
        plan
    }

    /// Cell patterns and fan prefilters (switch `word-tests`).
    fn word_tests(p: &Program, a: &Analysis, board: &BoardPlan) -> WordPlan {
        let cell: Vec<Option<Terms>> = p
            .automaton_ids()
            .map(|id| {
                let automaton = p.automaton(id);
                if automaton.is_pattern() {
                    cell_terms(p, automaton.start())
                } else {
                    None
                }
            })
            .collect();
        let cell = if asked_often(p, &cell) { cell } else { vec![None; cell.len()] };
        let cheap = cheap_automata(p, board);
        let mut plan = WordPlan { cell, cheap, fans: vec![None; p.nodes().len()], ..WordPlan::default() };
        for n in 0..p.nodes().len() as u32 {
            // Fans that iterate a piece-location set, or a memoised whole-board set, keep that.
            let other_way = a.tracked_set(p, NodeId::new(n)).is_some() || board.prefilters(p, n);
            if other_way {
                continue;
            }
            let Some(tests) = prefilter_tests(p, &plan, n) else { continue };
            let mut patterns = Vec::new();
            for test in tests.iter().flatten() {
                match *test {
                    WordTest::On(mask) => plan.add_mask(mask),
                    WordTest::Pattern(a, _) => patterns.push(a),
                    WordTest::InSet(_) => {}
                }
            }
            for a in board.with_nested(p, patterns) {
                for op in board.ops_of(p, a) {
                    if let Op::On(mask) = *op {
                        plan.add_mask(mask);
                    }
                }
            }
            if let NodeKind::Fan { filter: Some(mask), .. } = p.node(NodeId::new(n)).kind() {
                plan.add_mask(mask);
            }
            plan.fans[n as usize] = Some(tests);
        }
        let cell_masks: Vec<u64> = plan.cell.iter().flatten().flat_map(|t| t.masks.iter().copied()).collect();
        cell_masks.into_iter().for_each(|m| plan.add_mask(m));
        plan
    }

    /// Lets the memoised whole-board sets of `board` (and the patterns they nest) read the piece
    /// masks of their on-tests and fan filters from state words. Collecting a piece set from
    /// the board costs a pass over every cell at each evaluation (reversi's move test reads two,
    /// about a thousand instructions per evaluation on 64 cells), where a word costs two bit
    /// updates per piece put. Piece sets without a mask (`OnSet`) are still collected.
    fn read_board_patterns(&mut self, p: &Program, board: &BoardPlan) {
        let memoised = p.automaton_ids().filter(|&a| board.memo_slot(a).is_some());
        for a in board.with_nested(p, memoised) {
            for &n in board.nodes_of(a) {
                if let NodeKind::Fan { filter: Some(mask), .. } = p.node(NodeId::new(n)).kind() {
                    self.add_mask(mask);
                }
            }
            let masks: Vec<u64> = board
                .ops_of(p, a)
                .filter_map(|op| match *op {
                    Op::On(mask) => Some(mask),
                    _ => None,
                })
                .collect();
            masks.into_iter().for_each(|mask| self.add_mask(mask));
        }
        self.board_readers = (0..p.nodes().len() as u32)
            .filter(|&n| {
                p.node_edges(NodeId::new(n)).iter().flat_map(|e| p.edge_ops(e)).any(|op| match *op {
                    Op::Pattern { automaton, .. } => board.reads_memo(n, automaton),
                    _ => false,
                })
            })
            .map(NodeId::new)
            .collect();
    }

    /// Whether the memoised whole-board sets read their pieces from the state words.
    pub(crate) fn board_patterns_read_words(&self) -> bool {
        !self.board_readers.is_empty()
    }

    /// Keeps the words of `masks` too (read by [`crate::set_moves`]).
    pub(crate) fn add_masks(&mut self, masks: impl IntoIterator<Item = u64>) {
        masks.into_iter().for_each(|mask| self.add_mask(mask));
    }

    fn add_mask(&mut self, mask: u64) {
        if !self.masks.contains(&mask) {
            self.masks.push(mask);
        }
    }

    /// For a prefiltered fan whose continuation has one edge: the number of that edge's leading
    /// ops its prefilter tests, which therefore hold at every cell the fan visits (the state is
    /// the same at each visit: the search undoes what a visit changes).
    pub(crate) fn passed_tests(&self, n: u32) -> Option<usize> {
        match self.fans.get(n as usize)?.as_deref()? {
            [tests] => Some(tests.len()),
            _ => None,
        }
    }

    /// Whether anything reads state words.
    pub(crate) fn is_used(&self) -> bool {
        !self.masks.is_empty()
    }

    /// Tells `a` which nodes read the piece words (cell patterns' start nodes and prefiltered
    /// fans), so that searches that reach them keep the words exact.
    pub(crate) fn track(&self, p: &Program, a: &mut Analysis) {
        if !self.is_used() {
            return;
        }
        let mut readers: Vec<NodeId> = p
            .automaton_ids()
            .filter(|id| self.cell[id.get() as usize].is_some())
            .map(|id| p.automaton(id).start())
            .collect();
        readers.extend(
            (0..self.fans.len() as u32).filter(|&n| self.fans[n as usize].is_some()).map(NodeId::new),
        );
        readers.extend_from_slice(&self.board_readers);
        a.add_derived_readers(p, &readers);
    }

    /// The pieces with a word of their own, ascending: those of the masks read (every mask's
    /// pieces, so a mask's word is an OR of these). The state keeps one more word, for the cells
    /// holding any other piece.
    fn pieces(&self) -> Vec<u32> {
        let union = self.masks.iter().fold(0u64, |u, m| u | m);
        (0..64).filter(|&piece| (union >> piece) & 1 == 1).collect()
    }

    /// Whether pattern automaton `a` is evaluated by its terms.
    pub(crate) fn is_cell_pattern(&self, a: AutomatonId) -> bool {
        self.cell.get(a.get() as usize).is_some_and(|t| t.is_some())
    }
}

/// The terms of the pattern starting at `start` at every vertex, or `None` when it is not a
/// cell pattern (an op without a word form, too many terms or sets, a cycle) or has fewer than
/// [`MIN_TERMS`] terms everywhere.
fn cell_terms(p: &Program, start: NodeId) -> Option<Terms> {
    let all_pieces = if p.num_pieces() == 64 { u64::MAX } else { (1u64 << p.num_pieces()) - 1 };
    let mut masks: Vec<u64> = Vec::new();
    let mut at = Vec::new();
    for v in 0..p.board().vertices() {
        let paths = accepting_paths(p, start, v, all_pieces)?;
        let mut terms: Vec<Vec<u128>> = Vec::new();
        for path in paths {
            let mut term = vec![0u128; masks.len()];
            for (cell, mask) in path {
                let k = match masks.iter().position(|&m| m == mask) {
                    Some(k) => k,
                    None if masks.len() < MAX_SETS => {
                        masks.push(mask);
                        term.push(0);
                        masks.len() - 1
                    }
                    None => return None,
                };
                term[k] |= 1 << cell;
            }
            terms.push(term);
        }
        at.push(absorbed(terms));
    }
    // Terms made before a later mask appeared are shorter (`absorbed` reads missing sets as
    // empty); pad them.
    at.iter_mut().flatten().for_each(|t| t.resize(masks.len(), 0));
    let most = at.iter().map(Vec::len).max().unwrap_or(0);
    let entries = at.len() * most * masks.len().max(1);
    ((MIN_TERMS..=MAX_TERMS).contains(&most) && entries <= MAX_ENTRIES).then_some(Terms { masks, at })
}

/// Whether the cell patterns are asked often enough, against the board changes that the words
/// cost, to repay them: the pattern ops that ask them against the offs, over the whole program.
/// A placement game (connect4, yavalath) asks its win test at every move and puts one piece;
/// arimaa's goal test (8 terms) is asked once a turn of up to four steps and many offs (its
/// perft ran 13% slower with the words), pentago's after a rotation that moves eight pieces
/// (perft 0.66x, though flat Monte Carlo 1.71x).
fn asked_often(p: &Program, cell: &[Option<Terms>]) -> bool {
    let (asks, offs) = asks_and_offs(p, cell);
    asks > 0 && 2 * asks >= offs
}

/// The pattern ops that ask a cell pattern, and the offs, over the whole program.
fn asks_and_offs(p: &Program, cell: &[Option<Terms>]) -> (usize, usize) {
    let (mut asks, mut offs) = (0, 0);
    for op in p.edges().iter().flat_map(|e| p.edge_ops(e)) {
        match *op {
            Op::Pattern { automaton, .. } if cell[automaton.get() as usize].is_some() => asks += 1,
            Op::Off { .. } => offs += 1,
            _ => {}
        }
    }
    (asks, offs)
}

/// Drops repeated terms and terms that another term's cells imply (their OR is the same).
fn absorbed(terms: Vec<Vec<u128>>) -> Vec<Vec<u128>> {
    let implies = |a: &Vec<u128>, b: &Vec<u128>| {
        (0..a.len().max(b.len())).all(|k| {
            let (x, y) = (a.get(k).copied().unwrap_or(0), b.get(k).copied().unwrap_or(0));
            x & y == x
        })
    };
    let mut kept: Vec<Vec<u128>> = Vec::new();
    for (i, t) in terms.iter().enumerate() {
        let redundant = terms.iter().enumerate().any(|(j, u)| {
            // `u` implies `t`'s holding; keep the first of equal terms.
            j != i && implies(u, t) && (!implies(t, u) || j < i)
        });
        if !redundant {
            kept.push(t.clone());
        }
    }
    kept
}

/// A path's tests: (cell, piece mask) pairs, one per cell.
type Path = Vec<(u32, u64)>;

/// Every accepting path of the pattern from `v`, as its tests; `None` if an op has no word form
/// or the enumeration runs past [`MAX_STEPS`].
fn accepting_paths(p: &Program, start: NodeId, v: u32, all_pieces: u64) -> Option<Vec<Path>> {
    let mut stack: Vec<(NodeId, u32, Path)> = vec![(start, v, Vec::new())];
    let mut out = Vec::new();
    let mut steps = 0;
    while let Some((n, cell, tests)) = stack.pop() {
        steps += 1;
        if steps > MAX_STEPS {
            return None;
        }
        let node = p.node(n);
        if node.is_accepting() {
            out.push(tests);
            continue;
        }
        match node.kind() {
            NodeKind::Fan { table, next, filter } => {
                for &t in p.fan_table(table).row(cell) {
                    let mut tests = tests.clone();
                    if filter.is_none_or(|m| require(&mut tests, t, m, all_pieces)) {
                        stack.push((next, t, tests));
                    }
                }
            }
            NodeKind::Branch { .. } => {
                for e in p.node_edges(n) {
                    if let Some((cell, tests)) = run_edge(p, p.edge_ops(e), cell, tests.clone(), all_pieces)?
                    {
                        stack.push((e.target(), cell, tests));
                    }
                }
            }
        }
    }
    Some(out)
}

/// An edge's ops from `cell`: `Some(None)` where they fail, `None` where one has no word form.
fn run_edge(
    p: &Program,
    ops: &[Op],
    mut cell: u32,
    mut tests: Path,
    all_pieces: u64,
) -> Option<Option<(u32, Path)>> {
    for op in ops {
        let holds = match *op {
            Op::Shift(l) => {
                cell = p.board().neighbour(cell, l);
                cell < p.board().vertices()
            }
            Op::Table(t) => {
                cell = p.det_table(t)[cell as usize];
                cell < p.board().vertices()
            }
            Op::On(mask) => require(&mut tests, cell, mask, all_pieces),
            Op::InSet(s) => p.cell_set(s).contains(cell),
            Op::Fail => false,
            // Switches inside patterns do nothing.
            Op::Switch { .. } => true,
            Op::OnSet(_)
            | Op::Compare { .. }
            | Op::Pattern { .. }
            | Op::Off { .. }
            | Op::Assign { .. }
            | Op::AssignConst { .. } => return None,
        };
        if !holds {
            return Some(None);
        }
    }
    Some(Some((cell, tests)))
}

/// Adds "`cell` holds a piece of `mask`" to `tests`, meeting an earlier test of the same cell;
/// `false` when no piece passes both.
fn require(tests: &mut Path, cell: u32, mask: u64, all_pieces: u64) -> bool {
    let mask = mask & all_pieces;
    match tests.iter_mut().find(|(c, _)| *c == cell) {
        Some((_, m)) => {
            *m &= mask;
            *m != 0
        }
        // Every cell holds some piece.
        None if mask == all_pieces => true,
        None => {
            tests.push((cell, mask));
            mask != 0
        }
    }
}

/// Patterns whose whole-board set, computed from the state words, costs at most
/// [`MAX_CHEAP_OPS`] ops (nested patterns included): no fans, no rays, on-tests by mask only.
fn cheap_automata(p: &Program, board: &BoardPlan) -> Vec<bool> {
    let count = |a: AutomatonId| -> Option<usize> {
        let mut ops = 0;
        let mut stack = vec![a];
        while let Some(a) = stack.pop() {
            if !board.is_evaluable(a) {
                return None;
            }
            for &n in board.nodes_of(a) {
                let node = p.node(NodeId::new(n));
                if node.is_fan() {
                    return None;
                }
                for e in p.node_edges(NodeId::new(n)) {
                    if e.target().get() == n {
                        return None;
                    }
                    for op in p.edge_ops(e) {
                        ops += 1;
                        match *op {
                            Op::OnSet(_) => return None,
                            Op::Pattern { automaton, .. } => stack.push(automaton),
                            _ => {}
                        }
                    }
                }
            }
            if ops > MAX_CHEAP_OPS {
                return None;
            }
        }
        Some(ops)
    };
    p.automaton_ids().map(|a| p.automaton(a).is_pattern() && count(a).is_some()).collect()
}

/// A leading test of a fan continuation's edge, with a word form.
#[derive(Clone, Copy, Debug)]
enum WordTest {
    On(u64),
    InSet(rbg_automaton::CellSetId),
    /// A cheap pattern, and whether it must hold (`false`: must not).
    Pattern(AutomatonId, bool),
}

/// For a fan whose continuation's every edge starts with word tests: those tests per edge.
/// `None` for other nodes.
fn prefilter_tests(p: &Program, plan: &WordPlan, n: u32) -> Option<Vec<Vec<WordTest>>> {
    let NodeKind::Fan { table, next, .. } = p.node(NodeId::new(n)).kind() else { return None };
    let fan = p.fan_table(table);
    let ascending = (0..p.board().vertices()).all(|v| fan.row(v).windows(2).all(|w| w[0] < w[1]));
    let continuation = p.node(next);
    if !ascending || continuation.is_fan() || continuation.is_accepting() {
        return None;
    }
    let mut edges = Vec::new();
    for e in p.node_edges(next) {
        let tests: Vec<WordTest> = p
            .edge_ops(e)
            .iter()
            .map_while(|op| match *op {
                Op::On(mask) => Some(WordTest::On(mask)),
                Op::InSet(s) => Some(WordTest::InSet(s)),
                Op::Pattern { automaton, positive }
                    if plan.cheap.get(automaton.get() as usize).copied().unwrap_or(false) =>
                {
                    Some(WordTest::Pattern(automaton, positive))
                }
                _ => None,
            })
            .collect();
        if tests.is_empty() {
            return None;
        }
        edges.push(tests);
    }
    // On-tests alone cost the loop over the row a load and a compare per cell, about what the
    // words cost (measured: 15puzzle's and canadianDraughts' short fans ran slower with them);
    // a pattern per cell is what the words save.
    let saves_a_pattern = edges.iter().flatten().any(|t| matches!(t, WordTest::Pattern(..)));
    saves_a_pattern.then_some(edges)
}

/// The state's piece words, as tokens: its field, its initial value, its update in `set_piece`
/// and its constants (all empty without word tests).
pub(crate) struct StateWords {
    pub field: TokenStream,
    pub init: TokenStream,
    pub update: TokenStream,
    pub consts: TokenStream,
}

/// One word per piece some word test reads, and one for all other pieces: `set_piece` moves the
/// cell's bit from the old piece's word to the new one's (two updates, however many piece sets
/// are read), and the word of a piece set is an OR of its pieces' words.
pub(crate) fn state_words(c: &Ctx) -> StateWords {
    if !c.words.is_used() {
        let none = TokenStream::new;
        return StateWords { field: none(), init: none(), update: none(), consts: none() };
    }
    let pieces = c.words.pieces();
    let slots = pieces.len() + 1;
    let slot_of = |piece: u32| pieces.iter().position(|&q| q == piece).unwrap_or(pieces.len());
    let mut init = vec![0u128; slots];
    for (v, &piece) in c.p.initial_pieces().iter().enumerate() {
        init[slot_of(piece as u32)] |= 1 << v;
    }
    let init = init.into_iter().map(set_lit);
    let slot_table = (0..c.p.num_pieces()).map(|piece| lit(slot_of(piece) as u64));
    let described: Vec<String> = pieces.iter().map(|&piece| c.describe_op(&Op::On(1 << piece))).collect();
    let doc = format!(
        "The word of each piece's slot in `State::words`: {}, then every other piece.",
        described.join(", ")
    );
    let slots = lit(slots as u64);
    StateWords {
        field: quote! {
            /// Bit `v` of `words[WORD_SLOT[p]]` is set when cell `v` holds piece `p` (word tests).
            words: [BoardSet; WORD_SLOTS],
        },
        init: quote!(words: [#(#init),*],),
        update: quote! {
            let bit: BoardSet = 1 << at;
            let old = st.pieces[at as usize];
            st.words[WORD_SLOT[old as usize] as usize] &= !bit;
            st.words[WORD_SLOT[piece as usize] as usize] |= bit;
        },
        consts: quote! {
            /// Piece words in the state.
            const WORD_SLOTS: usize = #slots;
            #[doc = #doc]
            const WORD_SLOT: [u8; PIECES] = [#(#slot_table),*];
        },
    }
}

/// The word of the cells holding a piece of `mask`: an OR of its pieces' words, or the
/// complement of the others' when that is shorter.
pub(crate) fn state_word(c: &Ctx, mask: u64) -> TokenStream {
    let pieces = c.words.pieces();
    let slot = |i: usize| {
        let i = lit(i as u64);
        quote!(st.words[#i])
    };
    let (inside, outside): (Vec<usize>, Vec<usize>) =
        (0..pieces.len()).partition(|&i| (mask >> pieces[i]) & 1 == 1);
    if inside.is_empty() {
        return quote!((0 as BoardSet));
    }
    if inside.len() <= outside.len() + 1 {
        let words = inside.into_iter().map(slot);
        quote!((#(#words)|*))
    } else {
        // Every cell holds one piece: those of the other words, or one of these.
        let all = set_lit(crate::board_sets::all_cells(c.l.vertices as u32));
        let words = outside.into_iter().chain(std::iter::once(pieces.len())).map(slot);
        quote!((#all & !(#(#words)|*)))
    }
}

/// For a prefiltered fan: the cells it visits from cell `v`, as a `BoardSet` expression.
pub(crate) fn fan_prefilter(c: &Ctx, n: u32) -> Option<TokenStream> {
    let edges = c.words.fans.get(n as usize)?.as_ref()?;
    let NodeKind::Fan { table, filter, .. } = c.p.node(NodeId::new(n)).kind() else { return None };
    let edges = edges.iter().map(|tests| {
        let tests = tests.iter().map(|test| match *test {
            WordTest::On(mask) => state_word(c, mask),
            WordTest::InSet(s) => {
                let bits = crate::board_sets::cell_set_bits(c, s);
                quote!(#bits)
            }
            WordTest::Pattern(a, positive) => {
                let name = crate::board_sets::word_fn_ident(a);
                if positive {
                    quote!(#name(st))
                } else {
                    quote!(!#name(st))
                }
            }
        });
        quote!((#(#tests)&*))
    });
    let rows = fan_masks_ident(table.get());
    let filter = filter.map(|m| {
        let word = state_word(c, m);
        quote!(& #word)
    });
    Some(quote!((#rows[v as usize] #filter & (#(#edges)|*))))
}

fn fan_masks_ident(table: u32) -> proc_macro2::Ident {
    format_ident!("FAN_{}_MASKS", table)
}

fn cell_fn_ident(a: AutomatonId) -> proc_macro2::Ident {
    format_ident!("cell_pattern_{}", a.get())
}

/// The body of `pattern_A` for a cell pattern.
pub(crate) fn cell_call(a: AutomatonId) -> TokenStream {
    let name = cell_fn_ident(a);
    quote!(#name(st, v))
}

/// The tables and functions: cell patterns' terms and tests, prefiltered fans' row masks, and
/// the cheap patterns' whole-board word functions they call.
pub(crate) fn functions(c: &Ctx) -> TokenStream {
    let mut out = TokenStream::new();
    for a in c.p.automaton_ids() {
        if let Some(Some(terms)) = c.words.cell.get(a.get() as usize) {
            out.extend(cell_fn(c, a, terms));
        }
    }
    let mut tables = Vec::new();
    let mut patterns = Vec::new();
    for (n, tests) in c.words.fans.iter().enumerate() {
        let Some(tests) = tests else { continue };
        let NodeKind::Fan { table, .. } = c.p.node(NodeId::new(n as u32)).kind() else { continue };
        if !tables.contains(&table) {
            tables.push(table);
        }
        patterns.extend(tests.iter().flatten().filter_map(|t| match *t {
            WordTest::Pattern(a, _) => Some(a),
            _ => None,
        }));
    }
    for t in tables {
        let fan = c.p.fan_table(t);
        let rows = (0..c.l.vertices as u32)
            .map(|v| set_lit(fan.row(v).iter().fold(0u128, |bits, &w| bits | 1 << w)))
            .chain(std::iter::once(set_lit(0)));
        let name = fan_masks_ident(t.get());
        out.extend(quote! {
            /// The cells of each row of the fan table, as a word (the sentinel's row is empty).
            static #name: [BoardSet; VERTICES + 1] = [#(#rows),*];
        });
    }
    for a in c.board.with_nested(c.p, patterns) {
        out.extend(crate::board_sets::word_set_fn(c, a));
    }
    out
}

/// `cell_pattern_A(st, v)` and its tables: whether some term of cell `v` has all its cells.
fn cell_fn(c: &Ctx, a: AutomatonId, terms: &Terms) -> TokenStream {
    let most = terms.at.iter().map(Vec::len).max().unwrap_or(0);
    let sets = terms.masks.len();
    let table = format_ident!("CELL_TERMS_{}", a.get());
    let any = format_ident!("CELL_ANY_{}", a.get());
    let name = cell_fn_ident(a);
    let rows = terms.at.iter().map(|cell_terms| {
        // Repeating a term leaves the OR unchanged; a cell without terms is empty (see `any`).
        let padded = (0..most).map(|i| {
            let term = cell_terms.get(i).or(cell_terms.first());
            let words = (0..sets).map(|k| set_lit(term.map_or(0, |t| t[k])));
            quote!([#(#words),*])
        });
        quote!([#(#padded),*])
    });
    let empty_row = (0..most).map(|_| {
        let zeros = (0..sets).map(|_| set_lit(0));
        quote!([#(#zeros),*])
    });
    let anys = terms.at.iter().map(|t| !t.is_empty()).chain(std::iter::once(false));
    let words = terms.masks.iter().enumerate().map(|(k, &mask)| {
        let name = format_ident!("w{}", k);
        let word = state_word(c, mask);
        quote!(let #name: BoardSet = #word;)
    });
    let tests = (0..sets).map(|k| {
        let (w, k) = (format_ident!("w{}", k), lit(k as u64));
        quote!(((#w & term[#k]) == term[#k]))
    });
    let (most, sets) = (lit(most as u64), lit(sets as u64));
    let doc = format!(
        "Pattern automaton {a} at cell `v` by its terms (design notes 6.3): it holds when, for \
         some term, every piece word covers the term's cells."
    );
    quote! {
        static #table: [[[BoardSet; #sets]; #most]; VERTICES + 1] = [#(#rows,)* [#(#empty_row),*]];
        static #any: [bool; VERTICES + 1] = [#(#anys),*];
        #[doc = #doc]
        #[inline(always)]
        fn #name(st: &State, v: Cell) -> bool {
            let (Some(terms), Some(&any)) = (#table.get(v as usize), #any.get(v as usize)) else {
                return false;
            };
            #(#words)*
            let mut hit = false;
            for term in terms {
                hit |= #(#tests)&*;
            }
            hit & any
        }
    }
}
