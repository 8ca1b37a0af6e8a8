//! Ray captures: a rules node that either finds no capture along a ray or flips the ray's run
//! of enemy pieces, run as one loop over the ray instead of a pattern search and a modifier
//! per flipped cell (reversi's `swapDirection`, design notes 5: "flood fills instead of
//! searches").
//!
//! The shape, read off the program and checked edge by edge (anything else keeps the search):
//!
//! ```text
//! N: {! P} tail → T                 P = S {opp} S ({opp} S)* {me}
//!    S {opp} [me] S → L
//! L: {opp} [me] S → L               (the run goes on)
//!    {me} B → M                     (its end: walk back)
//! M: {me} B → M
//!    {e} tail → T                   (back at the start cell)
//! ```
//!
//! with `S` one shift (or shift table) that never cycles, `B` its inverse on every cell `S`
//! reaches, and `e`, `me`, `opp` three distinct pieces. At a start cell holding `e` the search
//! from `N` is deterministic: the run `c1..ck` of `opp` cells along `S` either ends at a `me`
//! cell (then `P` holds, and the second edge flips `c1..ck`, walks back over them to the start
//! cell and runs the tail there, `k` modifiers deeper) or not (then `P` fails and the first
//! edge runs the tail unchanged; the second fails). The tail (a copy of `T`'s first edge that
//! tail duplication made, reversi's `[me]` after the last direction, or nothing) is the same
//! on both ways and holds no pattern. The generated fast path does exactly that, with
//! `set_piece` per flipped cell, the same visited layers begun, the same modifier count, and the
//! same undo when `T`'s search does not keep the move. It runs only for sinks that record no
//! path and filter no action (keeper moves, counting, replay), only at a start cell holding `e`,
//! and only when the flips stay within the modifier bound; otherwise the node's edges run as
//! before.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use rbg_automaton::{AutomatonId, Edge, NodeId, Op, Program, NONE};

use crate::ctx::Ctx;

/// A node of the capture shape (module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct RayCapture {
    /// The ray's step `S` (a `Shift` or a `Table`).
    step: Op,
    /// The piece the start cell must hold.
    empty: u32,
    /// The piece put on the run (the mover's).
    me: u32,
    /// The pieces of the run (the opponent's).
    opp: u32,
}

/// Per node of the program: its capture shape, if it has one and the switch is on.
#[derive(Clone, Debug, Default)]
pub(crate) struct RayPlan {
    captures: Vec<Option<RayCapture>>,
}

impl RayPlan {
    /// The plan for `p`: no node when `enabled` is false.
    pub(crate) fn new(c: &Ctx, enabled: bool) -> RayPlan {
        if !enabled {
            return RayPlan::default();
        }
        let captures = (0..c.p.nodes().len() as u32).map(|n| capture_at(c, n)).collect();
        RayPlan { captures }
    }

    /// The capture shape of node `n`, if it gets the fast path.
    pub(crate) fn at(&self, n: u32) -> Option<RayCapture> {
        self.captures.get(n as usize).copied().flatten()
    }
}

/// The only piece of an on-test's mask, if it has exactly one.
fn single_piece(op: &Op) -> Option<u32> {
    match *op {
        Op::On(mask) if mask.count_ones() == 1 => Some(mask.trailing_zeros()),
        _ => None,
    }
}

fn is_step(op: &Op) -> bool {
    matches!(op, Op::Shift(_) | Op::Table(_))
}

/// A plain rules node (not a fan, no visited check) with exactly two edges.
fn two_edges(c: &Ctx, n: u32) -> Option<[Edge; 2]> {
    let node = c.p.node(NodeId::new(n));
    if node.is_fan() || node.slot().is_some() || c.is_pattern(n) {
        return None;
    }
    match c.p.node_edges(NodeId::new(n)) {
        [a, b] => Some([*a, *b]),
        _ => None,
    }
}

/// The loop edge of `n` (back to `n`) and its other edge, in either order.
fn loop_and_exit(c: &Ctx, n: u32) -> Option<(Edge, Edge)> {
    let [a, b] = two_edges(c, n)?;
    match (a.target().get() == n, b.target().get() == n) {
        (true, false) => Some((a, b)),
        (false, true) => Some((b, a)),
        _ => None,
    }
}

fn capture_at(c: &Ctx, n: u32) -> Option<RayCapture> {
    let p = c.p;
    let [skip, flip] = two_edges(c, n)?;
    // N's first edge: {! P} and a tail (tail duplication may have copied T's first edge there).
    let [Op::Pattern { automaton, positive: false }, ref tail @ ..] = *p.edge_ops(&skip) else { return None };
    let next = skip.target().get();
    // N's second edge: S {opp} [me] S → L.
    let [step, on_opp, Op::Off { piece: me, .. }, step2] = *p.edge_ops(&flip) else { return None };
    let opp = single_piece(&on_opp)?;
    let run = flip.target().get();
    if !is_step(&step) || step2 != step || run == n || run == next || next == n {
        return None;
    }
    // L: {opp} [me] S → L, and {me} B → M.
    let (more, end) = loop_and_exit(c, run)?;
    let [on_opp2, Op::Off { piece: me2, .. }, step3] = *p.edge_ops(&more) else { return None };
    if on_opp2 != on_opp || me2 != me || step3 != step {
        return None;
    }
    let [on_me, back] = *p.edge_ops(&end) else { return None };
    let walk = end.target().get();
    if single_piece(&on_me) != Some(me) || !is_step(&back) || [n, run, next].contains(&walk) {
        return None;
    }
    // M: {me} B → M, and {e} with the same tail → T.
    let (again, home) = loop_and_exit(c, walk)?;
    let [on_empty, ref home_tail @ ..] = *p.edge_ops(&home) else { return None };
    let empty = single_piece(&on_empty)?;
    if *p.edge_ops(&again) != [on_me, back] || home.target().get() != next || home_tail != tail {
        return None;
    }
    // The tail is generated as N's first edge's (pattern ops there would read N's memos).
    let plain_tail = !tail.iter().any(|op| matches!(op, Op::Pattern { .. }));
    let distinct = empty != me && empty != opp && me != opp;
    let capture = RayCapture { step, empty, me, opp };
    (plain_tail && distinct && capture_pattern(p, automaton, &capture) && ray_geometry(p, &step, &back))
        .then_some(capture)
}

/// Whether pattern automaton `a` is `S {opp} S ({opp} S)* {me}` for the capture's step and
/// pieces: start → (S {opp} S) → ray; ray → ({opp} S) → ray, ({me}) → accepting, which has no
/// edges.
fn capture_pattern(p: &Program, a: AutomatonId, capture: &RayCapture) -> bool {
    let (step, on_opp, on_me) = (capture.step, Op::On(1 << capture.opp), Op::On(1 << capture.me));
    let start = p.automaton(a).start();
    let plain = |n: NodeId| !p.node(n).is_fan() && !p.node(n).is_accepting();
    let [first] = p.node_edges(start) else { return false };
    let ray = first.target();
    if !plain(start) || !plain(ray) || ray == start || *p.edge_ops(first) != [step, on_opp, step] {
        return false;
    }
    let [a, b] = p.node_edges(ray) else { return false };
    let (more, done) = if a.target() == ray { (a, b) } else { (b, a) };
    let accept = done.target();
    more.target() == ray
        && *p.edge_ops(more) == [on_opp, step]
        && *p.edge_ops(done) == [on_me]
        && accept != ray
        && accept != start
        && p.node(accept).is_accepting()
        && !p.node(accept).is_fan()
        && p.node_edges(accept).is_empty()
}

/// The target of step op `op` at vertex `v` ([`NONE`] off the board).
fn step_target(p: &Program, op: &Op, v: u32) -> u32 {
    match *op {
        Op::Shift(l) => p.board().neighbour(v, l),
        Op::Table(t) => p.det_table(t).get(v as usize).copied().unwrap_or(NONE),
        _ => NONE,
    }
}

/// Whether `step` leaves the board from every vertex within as many steps as there are
/// vertices (no cycle: the run's cells are distinct and never the start cell), and `back`
/// undoes it on every vertex it reaches (the walk back retraces the run).
fn ray_geometry(p: &Program, step: &Op, back: &Op) -> bool {
    let vertices = p.board().vertices();
    (0..vertices).all(|v| {
        let next = step_target(p, step, v);
        let retraced = next == NONE || step_target(p, back, next) == v;
        let mut at = v;
        let mut steps = 0;
        while at != NONE && steps <= vertices {
            at = step_target(p, step, at);
            steps += 1;
        }
        retraced && at == NONE
    })
}

/// The fast path of node `n` (module docs) in two parts: the walk along the ray, which returns
/// the next node's result when there is no capture and `flip_call` when there is one, and the
/// body of the flip function (parameters `v`, `d` and `run`). `leave(depth)` is the code of
/// `n`'s first edge after its pattern (the way to `T` at the start cell `v`) in layer `depth`,
/// as a `bool` expression.
pub(crate) fn fast_path(
    c: &Ctx,
    n: u32,
    flip_call: &TokenStream,
    mut leave: impl FnMut(TokenStream) -> TokenStream,
) -> (TokenStream, TokenStream) {
    let Some(capture) = c.rays.at(n) else { return Default::default() };
    let piece = |p: u32| &c.pieces[p as usize];
    let (empty, me, opp) = (piece(capture.empty), piece(capture.me), piece(capture.opp));
    let step = |x: TokenStream| match capture.step {
        Op::Shift(l) => {
            let label = &c.labels[l as usize];
            quote!(NEIGHBOURS[#x as usize][#label])
        }
        Op::Table(t) => {
            let table = format_ident!("TABLE_{}", t.get());
            quote!(#table[#x as usize])
        }
        _ => quote!(OFF),
    };
    let (first, after) = (step(quote!(v)), step(quote!(at)));
    let guard = c.a.needs_guard();
    // The flips must fit under the modifier bound (the search fails past it, the slow path
    // says how); a failed search never continues.
    let within = if guard { quote!(!sc.failed && sc.mods + run <= MAX_MODIFIERS) } else { quote!(true) };
    let (count, uncount) =
        if guard { (quote!(sc.mods += run;), quote!(sc.mods -= run;)) } else { Default::default() };
    let keep = if guard { quote!(K::KEEP && stop && !sc.failed) } else { quote!(K::KEEP && stop) };
    let (unchanged, flipped) = (leave(quote!(d)), leave(quote!(d + run)));
    // The visited layers the flips' nested searches would begin, one per modifier.
    let (index, layers) = if c.has_layers {
        (quote!(i), quote!(begin_layer(sc, d + 1 + i);))
    } else {
        (quote!(_), TokenStream::new())
    };
    let epoch = crate::board_sets::new_epoch(c);
    let walk = quote! {
        if !K::RECORD && !K::FILTER && matches!(st.pieces[v as usize], #empty) {
            let mut run: u32 = 0;
            let mut end = #first;
            // The sentinel's piece is none of the board's: the walk stops off the board.
            while matches!(st.pieces[end as usize], #opp) {
                run += 1;
                let at = end;
                end = #after;
            }
            if #within {
                if run == 0 || !matches!(st.pieces[end as usize], #me) {
                    return #unchanged;
                }
                return #flip_call;
            }
        }
    };
    let flips = quote! {
        #count
        let mut at = #first;
        for #index in 0..run {
            set_piece(st, at, #me);
            #layers
            at = #after;
        }
        #epoch
        let stop = #flipped;
        if !(#keep) {
            let mut at = #first;
            for _ in 0..run {
                set_piece(st, at, #opp);
                at = #after;
            }
            #epoch
            #uncount
        }
        stop
    };
    (walk, flips)
}
