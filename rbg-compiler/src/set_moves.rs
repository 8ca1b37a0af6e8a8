//! Set-at-a-time move generation (switch `set-moves`; design notes 5 and 6.3, the hand-written
//! breakthrough reasoner's trick): a rules position whose moves are "some piece of a set steps
//! along a fixed translation of the board onto a cell holding one of some pieces" has its moves
//! counted, and the `n`-th of them found, with a few word operations instead of a search.
//!
//! The shape recognised, read off the program (anything else keeps the search):
//!
//! * the rules position is a fan over every cell, in cell order, with a piece filter (the
//!   movers: `anySquare {w}`);
//! * from there every path is a tree of edges without visited checks whose ops are shifts,
//!   deterministic tables, fans, on-tests and fixed cell sets, at most one off at the mover's cell before its first shift and at most one off at the
//!   last cell, and a switch that ends the edge;
//! * on-tests read only the mover's cell (before its off) or the last cell (before its off), so
//!   the board the tests see is the board at the start of the search;
//! * each path's last cell is the mover's cell plus a fixed nonzero offset wherever the path
//!   exists (a uniform translation of the vertex numbering, as on a rectangle).
//!
//! Each path is then a *step*: from the cells `sources` where the path exists, the movers that
//! can take it are `movers & sources & (targets >> offset)`, read from the state's piece words
//! ([`crate::word_tests::state_word`]). The search lists a mover's moves in the program's edge
//! order, each fan's row ascending; a fan's rows ascend with the offset, so the steps, taken in
//! that order, list a mover's moves in the search's order, and the movers ascend. Counting is a
//! sum of popcounts; the `n`-th move walks the movers, and applies the step as the search's
//! `NthSink` would (`set_piece` for each off, then the switch's cell, player and position).

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use rbg_automaton::{NodeId, NodeKind, Op, Program};

use crate::board_sets::set_lit;
use crate::ctx::Ctx;
use crate::tables::lit;
use crate::word_tests::{state_word, MAX_VERTICES};

/// Nodes entered (edges and fan offsets) from one rules position before it is left to the
/// search: bounds cycles and large trees, whose steps would cost more than the search.
const MAX_WALK: usize = 64;
/// Steps of one rules position; more keep the search (each step is a few word operations per
/// count, and a test per mover when finding a move). English draughts' simple moves are 15
/// steps (two offsets per diagonal on its 32 cells): with them, its perft took 7% more
/// instructions and its playouts 1 to 2% more (the words cost every capture's offs); breakthrough
/// has 3, knightthrough 4, amazons_split2a 8.
const MAX_STEPS: usize = 8;

/// The rules positions whose moves are generated set-at-a-time.
#[derive(Clone, Debug, Default)]
pub(crate) struct SetPlan {
    fans: Vec<SetFan>,
}

/// One rules position's moves as steps.
#[derive(Clone, Debug)]
struct SetFan {
    node: u32,
    steps: Vec<Step>,
}

/// A path from a mover's cell to a switch at a fixed offset.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Step {
    /// The pieces a mover may hold (the fan's filter and the tests at its cell).
    movers: u64,
    /// The cells where the path exists (after its cell-set tests).
    sources: u128,
    /// The switch's cell minus the mover's.
    offset: i64,
    /// The pieces the switch's cell may hold.
    targets: u64,
    /// The piece put on the mover's cell, and the one put on the switch's cell.
    mover_off: Option<u32>,
    target_off: Option<u32>,
    /// The switch: the next player and rules position.
    player: u32,
    next: u32,
}

/// Where a path is, per mover cell, and what it has tested and put so far.
#[derive(Clone, Debug)]
struct Walk {
    /// Per mover cell: the path's cell, `None` once the path does not exist from there.
    at: Vec<Option<u32>>,
    shifted: bool,
    movers: u64,
    tested: u64,
    mover_off: Option<u32>,
    target_off: Option<u32>,
}

impl SetPlan {
    /// The plan of `p` (empty when `on` is false, or on boards past [`MAX_VERTICES`]).
    pub(crate) fn new(p: &Program, rules_positions: &[u32], on: bool) -> SetPlan {
        if !on || p.board().vertices() > MAX_VERTICES || p.num_pieces() > 64 {
            return SetPlan::default();
        }
        let fans = rules_positions
            .iter()
            .filter_map(|&n| Some(SetFan { node: n, steps: steps_of(p, n)? }))
            .filter(|f| !f.steps.is_empty())
            .collect();
        SetPlan { fans }
    }

    /// The piece masks the steps read as state words.
    pub(crate) fn masks(&self) -> impl Iterator<Item = u64> + '_ {
        self.fans.iter().flat_map(|f| f.steps.iter()).flat_map(|s| [s.movers, s.targets])
    }
}

/// The steps of rules position `n`, if its moves have the shape (see the module's overview).
fn steps_of(p: &Program, n: u32) -> Option<Vec<Step>> {
    let node = p.node(NodeId::new(n));
    let NodeKind::Fan { table, next, filter: Some(movers) } = node.kind() else { return None };
    if node.slot().is_some() || !p.fan_table(table).covers_all_vertices() {
        return None;
    }
    let vertices = p.board().vertices();
    let walk = Walk {
        at: (0..vertices).map(Some).collect(),
        shifted: false,
        movers,
        tested: u64::MAX,
        mover_off: None,
        target_off: None,
    };
    let (mut steps, mut budget) = (Vec::new(), MAX_WALK);
    walk_node(p, next, walk, &mut steps, &mut budget)?;
    // Masks name only the game's pieces, so that their words exist.
    let pieces = if p.num_pieces() == 64 { u64::MAX } else { (1u64 << p.num_pieces()) - 1 };
    for s in &mut steps {
        s.movers &= pieces;
        s.targets &= pieces;
    }
    (steps.len() <= MAX_STEPS).then_some(steps)
}

/// Follows node `n`'s paths in the search's order, adding their steps; `None` where the shape
/// does not hold.
fn walk_node(p: &Program, n: NodeId, walk: Walk, steps: &mut Vec<Step>, budget: &mut usize) -> Option<()> {
    *budget = budget.checked_sub(1)?;
    let node = p.node(n);
    if node.slot().is_some() || node.is_accepting() {
        return None;
    }
    if walk.at.iter().all(Option::is_none) {
        // The search finds nothing below: no step.
        return Some(());
    }
    match node.kind() {
        NodeKind::Fan { table, next, filter } => {
            // A fan at a tested cell would test a cell other than the last.
            if walk.shifted && (walk.tested != u64::MAX || walk.target_off.is_some()) {
                return None;
            }
            let table = p.fan_table(table);
            let mut offsets: Vec<i64> = Vec::new();
            for (mover, at) in walk.at.iter().enumerate() {
                if let Some(t) = *at {
                    offsets.extend(table.row(t).iter().map(|&u| u as i64 - mover as i64));
                }
            }
            // Rows ascend, so a mover's offsets ascend: the order of the steps below.
            offsets.sort_unstable();
            offsets.dedup();
            for offset in offsets {
                let at = walk
                    .at
                    .iter()
                    .enumerate()
                    .map(|(mover, at)| {
                        let target = u32::try_from(mover as i64 + offset).ok()?;
                        table.row((*at)?).contains(&target).then_some(target)
                    })
                    .collect();
                let tested = filter.unwrap_or(u64::MAX);
                walk_node(p, next, Walk { at, tested, shifted: true, ..walk.clone() }, steps, budget)?;
            }
            Some(())
        }
        NodeKind::Branch { .. } => {
            for e in p.node_edges(n) {
                let ops = p.edge_ops(e);
                let mut w = walk.clone();
                for (i, op) in ops.iter().enumerate() {
                    if let Op::Switch { player, .. } = *op {
                        // The move ends here; the search does not enter the target.
                        if i + 1 != ops.len() {
                            return None;
                        }
                        steps.push(step(&w, player, e.target().get())?);
                        break;
                    }
                    apply_op(p, op, &mut w)?;
                }
                if !matches!(ops.last(), Some(Op::Switch { .. })) {
                    walk_node(p, e.target(), w, steps, budget)?;
                }
            }
            Some(())
        }
    }
}

/// One op of a path; `None` where it leaves the shape.
fn apply_op(p: &Program, op: &Op, w: &mut Walk) -> Option<()> {
    let board = p.board();
    let follow = |w: &mut Walk, to: &dyn Fn(u32) -> u32| {
        // Tests and offs are allowed only at the mover's and the last cell.
        if w.shifted && (w.tested != u64::MAX || w.target_off.is_some()) {
            return None;
        }
        for at in &mut w.at {
            *at = at.map(to).filter(|&t| t < board.vertices());
        }
        w.shifted = true;
        Some(())
    };
    match *op {
        Op::Shift(label) => follow(w, &|t| board.neighbour(t, label))?,
        Op::Table(table) => follow(w, &|t| p.det_table(table)[t as usize])?,
        Op::On(mask) => test(w, mask)?,
        Op::OnSet(set) => {
            let flags = p.piece_set(set);
            test(w, (0..flags.len().min(64)).filter(|&q| flags[q]).fold(0, |m, q| m | 1 << q))?
        }
        Op::InSet(set) => {
            let cells = p.cell_set(set);
            w.at.iter_mut().for_each(|at| *at = at.filter(|&t| cells.contains(t)));
        }
        Op::Off { piece, .. } => {
            let put = if w.shifted { &mut w.target_off } else { &mut w.mover_off };
            if put.replace(piece).is_some() {
                return None;
            }
        }
        _ => return None,
    }
    Some(())
}

/// An on-test at the path's cell, read from the board at the start of the search: refused
/// after an off at that cell.
fn test(w: &mut Walk, mask: u64) -> Option<()> {
    if w.shifted {
        if w.target_off.is_some() {
            return None;
        }
        w.tested &= mask;
    } else {
        if w.mover_off.is_some() {
            return None;
        }
        w.movers &= mask;
    }
    Some(())
}

/// The step of a path reaching a switch, if its cell is the mover's plus one nonzero offset
/// wherever it exists.
fn step(w: &Walk, player: u32, next: u32) -> Option<Step> {
    let mut offset = None;
    let mut sources = 0u128;
    for (mover, at) in w.at.iter().enumerate() {
        let Some(t) = *at else { continue };
        let d = t as i64 - mover as i64;
        if d == 0 || offset.is_some_and(|o| o != d) {
            return None;
        }
        offset = Some(d);
        sources |= 1 << mover;
    }
    Some(Step {
        movers: w.movers,
        sources,
        offset: offset?,
        targets: w.tested,
        mover_off: w.mover_off,
        target_off: w.target_off,
        player,
        next,
    })
}

/// `set_WHAT_N`: a function of rules position `n`.
fn fn_ident(what: &str, n: u32) -> proc_macro2::Ident {
    format_ident!("set_{}_{}", what, n)
}

/// The functions of every rules position generated set-at-a-time (module items).
pub(crate) fn functions(c: &Ctx) -> TokenStream {
    c.sets.fans.iter().map(|f| fan_functions(c, f)).collect()
}

/// `set_words_N` (per step, the movers that can take it), `set_count_N`, `set_each_N` (the
/// moves in the search's order), `set_apply_N` and `set_nth_N`.
fn fan_functions(c: &Ctx, f: &SetFan) -> TokenStream {
    let [words_fn, count_fn, each_fn, apply_fn, nth_fn] =
        ["words", "count", "each", "apply", "nth"].map(|what| fn_ident(what, f.node));
    let len = lit(f.steps.len() as u64);
    let words = f.steps.iter().map(|s| {
        let movers = state_word(c, s.movers);
        let targets = state_word(c, s.targets);
        let sources = set_lit(s.sources);
        let back = lit(s.offset.unsigned_abs());
        let targets_at_movers =
            if s.offset > 0 { quote!(#targets >> #back) } else { quote!(#targets << #back) };
        quote!(#movers & #sources & (#targets_at_movers))
    });
    let arms = f.steps.iter().enumerate().map(|(k, s)| {
        let k = lit(k as u64);
        let apply = apply_step(c, s);
        quote!(#k => { #apply })
    });
    let doc = format!(
        "Rules position {}, set-at-a-time: per step, the movers that can take it (bit `v`: the move from `v`).",
        f.node
    );
    quote! {
        #[doc = #doc]
        #[inline(always)]
        fn #words_fn(st: &State) -> [BoardSet; #len] {
            [#(#words),*]
        }

        /// The number of moves of the rules position, one popcount per step.
        #[inline]
        fn #count_fn(st: &State) -> u64 {
            #words_fn(st).iter().map(|w| u64::from(w.count_ones())).sum()
        }

        /// Calls `each(step, from)` for the moves of the rules position in the search's order
        /// (movers ascending, each mover's steps in order) until it returns `true`; whether it
        /// did.
        #[inline(always)]
        fn #each_fn(st: &State, mut each: impl FnMut(usize, Cell) -> bool) -> bool {
            let words = #words_fn(st);
            let mut movers = words.iter().fold(0, |all, w| all | w);
            while movers != 0 {
                let from = movers.trailing_zeros();
                movers &= movers - 1;
                for (step, w) in words.iter().enumerate() {
                    if (w >> from) & 1 == 1 && each(step, from as Cell) {
                        return true;
                    }
                }
            }
            false
        }

        /// Applies the move of `step` from cell `from`: its offs, then its switch.
        #[inline(always)]
        fn #apply_fn(st: &mut State, step: usize, from: Cell) {
            match step {
                #(#arms)*
                _ => {}
            }
        }

        /// Applies move `n` of the rules position (in the search's order) and keeps it
        /// applied; `false` if there are fewer moves.
        #[inline]
        fn #nth_fn(st: &mut State, mut n: u64) -> bool {
            let mut found = None;
            #each_fn(st, |step, from| {
                if n == 0 {
                    found = Some((step, from));
                    return true;
                }
                n -= 1;
                false
            });
            let Some((step, from)) = found else { return false };
            #apply_fn(st, step, from);
            true
        }
    }
}

/// A step's move applied from cell `from`: its offs, then its switch.
fn apply_step(c: &Ctx, s: &Step) -> TokenStream {
    let offset = lit(s.offset.unsigned_abs());
    let to = if s.offset > 0 { quote!(from + #offset) } else { quote!(from - #offset) };
    let put = |cell: TokenStream, piece: Option<u32>| match piece {
        Some(piece) => {
            let piece = &c.pieces[piece as usize];
            quote!(set_piece(st, #cell, #piece);)
        }
        None => TokenStream::new(),
    };
    let mover_off = put(quote!(from), s.mover_off);
    let target_off = put(quote!(to), s.target_off);
    let player = c.l.player.lit(s.player as u64);
    let node = c.node_value(s.next);
    quote! {
        let to: Cell = #to;
        #mover_off
        #target_off
        st.vertex = to;
        st.player = #player;
        st.node = #node;
    }
}

/// Statements opening `count_moves`: a rules position generated set-at-a-time returns its count.
pub(crate) fn count_arms(c: &Ctx) -> TokenStream {
    dispatch(c, |n| {
        let f = fn_ident("count", n);
        quote!(return Ok(Some(#f(s))))
    })
}

/// Statements opening `apply_nth_move`: a rules position generated set-at-a-time applies its
/// move.
pub(crate) fn nth_arms(c: &Ctx) -> TokenStream {
    dispatch(c, |n| {
        let f = fn_ident("nth", n);
        quote!(return Ok(#f(s, n)))
    })
}

/// Statements opening `visit_children`: a rules position generated set-at-a-time builds each
/// child as the search's `ChildSink` would (the state with the move applied).
pub(crate) fn children_arms(c: &Ctx) -> TokenStream {
    dispatch(c, |n| {
        let [each, apply] = ["each", "apply"].map(|what| fn_ident(what, n));
        quote! {{
            let mut visited = 0;
            #each(s, |step, from| {
                child.clone_from(s);
                #apply(child, step, from);
                visited += 1;
                visit(child).is_break()
            });
            return Ok(Some(visited));
        }}
    })
}

fn dispatch(c: &Ctx, arm: impl Fn(u32) -> TokenStream) -> TokenStream {
    if c.sets.fans.is_empty() {
        return TokenStream::new();
    }
    let arms = c.sets.fans.iter().map(|f| {
        let value = c.node_value(f.node);
        let body = arm(f.node);
        quote!(#value => #body,)
    });
    quote! {
        match s.node {
            #(#arms)*
            _ => {}
        }
    }
}
