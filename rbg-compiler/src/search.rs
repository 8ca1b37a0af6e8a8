//! The move search as code: one function per automaton node (design notes 2.8).
//!
//! A node function is entered at a cell `v`, does the node's visited check (only nodes that the
//! analysis gave a slot), and then either iterates a fan table row, entering the continuation
//! node at each cell, or runs its edges in order. An edge is a labelled block of straight-line
//! code over a working cell `w`: tests `break` out of the block with `false`; a modifier saves
//! the overwritten value in a local, records `(index, cell)` in the move path, runs the rest of
//! the edge in a nested block and undoes itself afterwards; the end of the edge calls the target
//! node's function (in the next visited layer if the edge modified the state), or, for a switch,
//! reports the move to the sink.
//!
//! Every function returns `true` to stop the search: the sink asked to stop (main search), or
//! the pattern was matched (pattern automata). The traversal order is exactly the interpreter's
//! (edges in order, fan rows ascending, depth first), so both report the same moves in the same
//! order.
//!
//! Keeper moves use a sink with `KEEP = true`: when it stops at the first move, the path's
//! modifications are not undone and the switch sets player, rules position and cell, so the move
//! is applied by the very search that found it (design notes 2.14).

use proc_macro2::{Ident, Span, TokenStream};
use quote::{format_ident, quote};
use rbg_automaton::{AutomatonId, Edge, ExprId, NodeId, NodeKind, Op};
use rbg_parser::ir::RelOp;
use syn::Lifetime;

use crate::ctx::Ctx;
use crate::exprs::{self, Value};
use crate::stack_plan::StackPlan;
use crate::tables::{fan_row, lit};

/// Generates the node functions, the pattern entry points and the rules dispatch.
pub(crate) fn functions(c: &Ctx) -> TokenStream {
    let mut g = SearchGen { c, next_id: 0 };
    let mut out = stack_helpers(&c.stack);
    for n in 0..c.p.nodes().len() {
        if c.a.owner(NodeId::new(n as u32)).is_some() {
            out.extend(g.node_fn(n as u32));
        }
    }
    for a in c.p.automaton_ids() {
        if c.p.automaton(a).is_pattern() {
            out.extend(g.pattern_fn(a));
        }
    }
    out.extend(g.dispatch());
    out
}

pub(crate) fn node_ident(n: u32) -> Ident {
    format_ident!("node_{}", n)
}

fn pattern_ident(a: AutomatonId) -> Ident {
    format_ident!("pattern_{}", a.get())
}

struct SearchGen<'a> {
    c: &'a Ctx<'a>,
    /// Counter for unique labels and locals.
    next_id: usize,
}

/// What an edge's code needs to know besides its ops.
struct EdgeCx {
    pattern: bool,
    /// The node the edge leaves.
    node: u32,
    target: u32,
    /// The length of the move when this edge ends in a switch, if the same on every path.
    move_len: Option<u32>,
    /// The edge ends in a switch: its target is not entered by this search.
    ends_in_switch: bool,
    /// The edge is the last of a node that it re-enters (see [`loops_to_itself`]): entering
    /// the target is the next iteration of the node's loop.
    tail_loop: bool,
}

impl SearchGen<'_> {
    fn fresh(&mut self) -> usize {
        self.next_id += 1;
        self.next_id
    }

    /// `, d: u32` when the game has visited layers.
    fn depth_param(&self) -> TokenStream {
        if self.c.has_layers {
            quote!(, d: u32)
        } else {
            TokenStream::new()
        }
    }

    /// The call of node `n`'s function at cell `cell`, in layer `depth` (an expression).
    fn call_node(&self, n: u32, cell: &TokenStream, depth: &TokenStream) -> TokenStream {
        let name = node_ident(n);
        let d = if self.c.has_layers { quote!(, #depth) } else { TokenStream::new() };
        if self.c.is_pattern(n) {
            quote!(#name(st, sc, #cell #d))
        } else {
            quote!(#name(st, sc, k, #cell #d))
        }
    }

    fn node_fn(&mut self, n: u32) -> TokenStream {
        let c = self.c;
        let node = *c.p.node(NodeId::new(n));
        let pattern = c.is_pattern(n);
        let name = node_ident(n);
        let doc = crate::names::doc(&c.describe_node(n));
        let dparam = self.depth_param();
        let header = if pattern {
            quote!(fn #name(st: &mut State, sc: &mut Scratch, v: Cell #dparam) -> bool)
        } else {
            quote!(fn #name<K: Sink>(st: &mut State, sc: &mut Scratch, k: &mut K, v: Cell #dparam) -> bool)
        };
        if pattern && node.is_accepting() {
            return quote! {
                #doc
                #[inline(always)]
                #header { true }
            };
        }
        let mut body = TokenStream::new();
        let mut extra = TokenStream::new();
        if c.stack.checked[n as usize] {
            // Continue on a fresh stack segment when this thread's stack is nearly used up: the
            // node is on a cycle of calls, so its depth grows with the board (module docs of
            // `rbg_core::stack`).
            // The move is a separate function so that this one lends no local to a closure:
            // that would stop the compiler from turning a tail call to itself into a loop.
            let again = self.call_node(n, &quote!(v), &quote!(d));
            let twin = format_ident!("node_{}_on_new_stack", n);
            let twin_header = if pattern {
                quote!(fn #twin(st: &mut State, sc: &mut Scratch, v: Cell #dparam) -> bool)
            } else {
                quote!(fn #twin<K: Sink>(st: &mut State, sc: &mut Scratch, k: &mut K, v: Cell #dparam) -> bool)
            };
            let twin_call = match (pattern, c.has_layers) {
                (true, true) => quote!(#twin(st, sc, v, d)),
                (true, false) => quote!(#twin(st, sc, v)),
                (false, true) => quote!(#twin(st, sc, k, v, d)),
                (false, false) => quote!(#twin(st, sc, k, v)),
            };
            extra = quote! {
                #[doc = "Node function on a fresh stack segment, or nothing once the search is aborted."]
                #[cold]
                #[inline(never)]
                #twin_header {
                    if sc.aborted {
                        return false;
                    }
                    grow_stack(sc, move |sc| #again)
                }
            };
            body.extend(quote! {
                if ::rbg_core::stack::approximate_stack_pointer() < sc.stack_low {
                    return #twin_call;
                }
            });
        }
        if let Some(slot) = node.slot() {
            let slot = lit(slot.get() as u64);
            body.extend(quote!(if !visit(sc, #slot, v, d) { return false; }));
        }
        if node.is_fan() {
            body.extend(self.fan_body(n));
        } else {
            let edges = ordered_edges(c, n);
            let looping = loops_to_itself(c, n);
            for (i, e) in edges.iter().enumerate() {
                let tail_loop = looping && i + 1 == edges.len();
                let block = self.edge_block(n, i, e, 0, tail_loop);
                if i + 1 == edges.len() {
                    body.extend(block);
                } else {
                    body.extend(quote!(if #block { return true; }));
                }
            }
            if edges.is_empty() {
                body.extend(quote!(false));
            }
        }
        if loops_to_itself(c, n) {
            // The last edge re-enters this node as its very last step: a loop rather than a
            // call, so walking such a chain needs no stack at all.
            body = quote! {
                let mut v = v;
                'node: loop {
                    return { #body };
                }
            };
        }
        if c.rays.at(n).is_some() {
            return self.ray_capture_fns(n, &doc, &header, body, extra);
        }
        quote! {
            #doc
            #header { #body }
            #extra
        }
    }

    /// Node `n` with a ray capture (see [`crate::ray_captures`]): its function walks the ray and
    /// hands over, by tail calls, to the next node, to `node_N_flip` (the flips, the next node
    /// and the undo) or, where the walk does not apply, to `node_N_search` (the node's `body`).
    /// The common case, no capture, thus costs a few loads and a jump.
    fn ray_capture_fns(
        &mut self,
        n: u32,
        doc: &TokenStream,
        header: &TokenStream,
        body: TokenStream,
        extra: TokenStream,
    ) -> TokenStream {
        let dparam = self.depth_param();
        let d = if self.c.has_layers { quote!(, d) } else { TokenStream::new() };
        let (search, flip) = (format_ident!("node_{}_search", n), format_ident!("node_{}_flip", n));
        let flip_call = quote!(#flip(st, sc, k, v #d, run));
        let (walk, flips) =
            crate::ray_captures::fast_path(self.c, n, &flip_call, |depth| self.ray_capture_exit(n, depth));
        quote! {
            #doc
            #header { #walk #search(st, sc, k, v #d) }
            #[doc = "The edges of the node before it, searched."]
            #[inline(never)]
            fn #search<K: Sink>(st: &mut State, sc: &mut Scratch, k: &mut K, v: Cell #dparam) -> bool { #body }
            #[doc = "The flips of a capture of `run` cells from `v`, the rest of the search, and the undo."]
            #[inline(never)]
            fn #flip<K: Sink>(st: &mut State, sc: &mut Scratch, k: &mut K, v: Cell #dparam, run: u32) -> bool { #flips }
            #extra
        }
    }

    /// Edge `e`, the `i`-th of node `n`, as a labelled block over `w` starting at cell `v`,
    /// without its first `passed` ops (tests the caller knows to hold).
    fn edge_block(&mut self, n: u32, i: usize, e: &Edge, passed: usize, tail_loop: bool) -> TokenStream {
        let c = self.c;
        let label = Lifetime::new(&format!("'edge{i}"), Span::call_site());
        let ops = c.p.edge_ops(e);
        let modifiers = ops.iter().filter(|op| op.is_modifier()).count() as u32;
        let cx = EdgeCx {
            pattern: c.is_pattern(n),
            node: n,
            target: e.target().get(),
            move_len: c.a.path_len(NodeId::new(n)).map(|base| base + modifiers),
            ends_in_switch: c.p.ends_move(e),
            tail_loop,
        };
        let ops = self.ops(&ops[passed.min(ops.len())..], &cx, &label, false, false);
        quote!(#label: { let mut w = v; #ops })
    }

    /// The rest of ray capture node `n`'s first edge after its negated pattern, from cell `v`
    /// in layer `depth` (see [`crate::ray_captures`]).
    fn ray_capture_exit(&mut self, n: u32, depth: TokenStream) -> TokenStream {
        let Some(skip) = self.c.p.node_edges(NodeId::new(n)).first().copied() else { return quote!(false) };
        let block = self.edge_block(n, 0, &skip, 1, false);
        if self.c.has_layers {
            quote!({ let d = #depth; #block })
        } else {
            block
        }
    }

    /// The visit of a prefiltered fan's continuation `next` (neither a fan nor accepting) at
    /// cell `w`, whose prefilter has tested the first `passed` ops of its only edge: that edge
    /// inline, without them, where `next`'s function does nothing else (no visited check, stack
    /// check or loop).
    fn prefiltered_visit(&mut self, next: u32, passed: usize) -> Option<TokenStream> {
        let c = self.c;
        let edges = ordered_edges(c, next);
        let ([e], true) = (edges.as_slice(), self.is_plain(next)) else { return None };
        let block = self.edge_block(next, 0, e, passed, false);
        Some(quote!({ let v = w; #block }))
    }

    /// Whether node `next`'s function only runs its edges: no visited check, stack check or
    /// loop back to itself.
    fn is_plain(&self, next: u32) -> bool {
        let c = self.c;
        c.p.node(NodeId::new(next)).slot().is_none()
            && !c.stack.checked[next as usize]
            && !loops_to_itself(c, next)
    }

    fn fan_body(&mut self, n: u32) -> TokenStream {
        let c = self.c;
        // Only called for fan nodes.
        let NodeKind::Fan { table, next, filter } = c.p.node(NodeId::new(n)).kind() else {
            return quote!(false);
        };
        if let Some(any) = crate::board_sets::fan_exists(c, n) {
            return any;
        }
        let call = self.call_node(next.get(), &quote!(w), &quote!(d));
        // Design notes 6.3: the continuation's first tests, for the whole row at once (from a
        // memoised whole-board set, or from the state's piece words; never both, and never for a
        // fan over a piece-location set); the cells that pass are visited lowest first (the
        // order of the row).
        let mut skip = TokenStream::new();
        let prefilter = match crate::board_sets::fan_prefilter(c, n) {
            Some(cells) => {
                if crate::board_sets::cells_are_moves(c, n) && self.is_plain(next.get()) {
                    // Each cell is one move: a sink that counts moves takes the first ones
                    // by their number, and the loop drops their cells.
                    skip = quote! {
                        if K::SKIPS {
                            let mut skipped = k.skip_moves(u64::from(bits.count_ones()));
                            while skipped > 0 {
                                bits &= bits - 1;
                                skipped -= 1;
                            }
                        }
                    };
                }
                Some((cells, call.clone()))
            }
            None => crate::word_tests::fan_prefilter(c, n).map(|cells| {
                // The cells it visits pass the tests it read; an only edge need not repeat them.
                let passed = c.words.passed_tests(n);
                let inline = passed.and_then(|passed| self.prefiltered_visit(next.get(), passed));
                (cells, inline.unwrap_or_else(|| call.clone()))
            }),
        };
        if let Some((cells, visit)) = prefilter {
            return quote! {
                let mut bits: BoardSet = #cells;
                #skip
                while bits != 0 {
                    let w = bits.trailing_zeros() as Cell;
                    bits &= bits - 1;
                    if #visit { return true; }
                }
                false
            };
        }
        if let Some(set) = c.tracked_set(n) {
            // Design notes 6.2: visit the cells holding a filter piece by scanning the bits of
            // the state's piece-location set, lowest cell first (the order of a full scan). The
            // words are read as the loop reaches them; every call below restores the state.
            let set = lit(set as u64);
            return quote! {
                for word in 0..OCC_WORDS {
                    let mut bits = st.occ[#set][word];
                    while bits != 0 {
                        let w = (word * 64 + bits.trailing_zeros() as usize) as Cell;
                        bits &= bits - 1;
                        if #call { return true; }
                    }
                }
                false
            };
        }
        let row = fan_row(c, table, &quote!(v));
        let test = if let Some(filter) = filter {
            let pieces = c.piece_pattern_mask(filter);
            quote!(matches!(st.pieces[w as usize], #pieces) && #call)
        } else {
            call
        };
        quote! {
            for w in #row {
                if #test { return true; }
            }
            false
        }
    }

    /// The code of `ops` (the rest of an edge) inside the block `label`, ending in its `bool`
    /// value. `pending`: the working cell may be the off-board sentinel and was not checked yet;
    /// `modified`: a modifier was applied earlier on this edge, so the target is entered in the
    /// next visited layer.
    fn ops(
        &mut self,
        ops: &[Op],
        cx: &EdgeCx,
        label: &Lifetime,
        mut pending: bool,
        modified: bool,
    ) -> TokenStream {
        let c = self.c;
        let mut code = TokenStream::new();
        let fail = quote!(break #label false;);
        let check = quote!(if w == OFF { #fail });
        for (i, op) in ops.iter().enumerate() {
            match *op {
                Op::Shift(l) => {
                    let label_const = &c.labels[l as usize];
                    code.extend(quote!(w = NEIGHBOURS[w as usize][#label_const];));
                    pending = true;
                }
                Op::Table(t) => {
                    let table = format_ident!("TABLE_{}", t.get());
                    code.extend(quote!(w = #table[w as usize];));
                    pending = true;
                }
                Op::On(mask) => {
                    let pieces = c.piece_pattern_mask(mask);
                    code.extend(quote!(if !matches!(st.pieces[w as usize], #pieces) { #fail }));
                    // The sentinel's piece is in no on-set: the test is also the board check.
                    pending = false;
                }
                Op::OnSet(s) => {
                    let pieces = c.piece_set_pattern(s);
                    code.extend(quote!(if !matches!(st.pieces[w as usize], #pieces) { #fail }));
                    pending = false;
                }
                Op::InSet(s) => {
                    let set = format_ident!("SET_{}", s.get());
                    code.extend(quote!(if !#set[w as usize] { #fail }));
                    pending = false;
                }
                Op::Compare { lhs, rel, rhs } => code.extend(compare_code(c, lhs, rel, rhs, label)),
                Op::Pattern { automaton, positive } => {
                    if pending {
                        code.extend(check.clone());
                        pending = false;
                    }
                    let call = if c.board.reads_memo(cx.node, automaton) {
                        crate::board_sets::memo_test(automaton)
                    } else {
                        let name = pattern_ident(automaton);
                        let d = if c.has_layers { quote!(, d + 1) } else { TokenStream::new() };
                        quote!(#name(st, sc, w #d))
                    };
                    code.extend(if positive {
                        quote!(if !#call { #fail })
                    } else {
                        quote!(if #call { #fail })
                    });
                    if c.a.needs_guard() {
                        code.extend(quote!(if sc.failed { break #label true; }));
                    }
                }
                Op::Off { .. } | Op::Assign { .. } | Op::AssignConst { .. } => {
                    if pending {
                        code.extend(check.clone());
                    }
                    code.extend(self.modifier(op, &ops[i + 1..], cx, label));
                    return code;
                }
                Op::Switch { player, index } => {
                    if cx.pattern {
                        // Switches inside patterns are no-ops (the program removes them).
                        continue;
                    }
                    if pending {
                        code.extend(check.clone());
                    }
                    code.extend(self.switch(player, index, cx, label));
                    return code;
                }
                Op::Fail => {
                    code.extend(quote!(break #label false));
                    return code;
                }
            }
            if pending && !c.o.deferred_checks {
                code.extend(check.clone());
                pending = false;
            }
        }
        if pending {
            code.extend(check);
        }
        code.extend(self.enter_target(cx, modified));
        code
    }

    /// The end of an edge: the target node's function, in the next layer after a modifier.
    fn enter_target(&self, cx: &EdgeCx, modified: bool) -> TokenStream {
        let c = self.c;
        if cx.pattern && c.p.node(NodeId::new(cx.target)).is_accepting() {
            return quote!(true);
        }
        if cx.tail_loop && !modified {
            return quote!({
                v = w;
                continue 'node;
            });
        }
        if modified && c.has_layers {
            let call = self.call_node(cx.target, &quote!(w), &quote!(d + 1));
            quote!({ begin_layer(sc, d + 1); #call })
        } else {
            self.call_node(cx.target, &quote!(w), &quote!(d))
        }
    }

    /// An off or assignment, the rest of the edge nested after it, and its undo.
    fn modifier(&mut self, op: &Op, rest: &[Op], cx: &EdgeCx, label: &Lifetime) -> TokenStream {
        let c = self.c;
        let id = self.fresh();
        let at = format_ident!("at{}", id);
        let old = format_ident!("old{}", id);
        let inner = Lifetime::new(&format!("'mod{id}"), Span::call_site());
        let (prepare, apply, undo, index) = match *op {
            Op::Off { piece, index } => {
                let piece = &c.pieces[piece as usize];
                // Piece counts and piece-location sets must follow the board only if something
                // reads them before this off is undone, or if it is kept (keeper moves).
                let later = c.ops_read_derived(rest)
                    || (!cx.ends_in_switch && c.a.reads_derived(NodeId::new(cx.target)));
                let put = |value: &TokenStream| {
                    let full = quote!(set_piece(st, #at, #value););
                    let plain = quote!(st.pieces[#at as usize] = #value;);
                    match (later || !c.has_derived_state(), cx.pattern) {
                        (true, _) => full,
                        (false, true) => plain,
                        (false, false) => quote!(if K::DERIVED { #full } else { #plain }),
                    }
                };
                let (set, reset) = (put(&quote!(#piece)), put(&quote!(#old)));
                (TokenStream::new(), quote!(let #old = st.pieces[#at as usize]; #set), reset, index)
            }
            Op::Assign { var, expr, index } => {
                let bound = c.p.bounds()[var as usize];
                let value = match exprs::value(c, expr, &quote!(st)) {
                    Value::Total(x) => quote!(let value: i64 = #x;),
                    Value::Partial(x) => quote!(let Some(value) = #x else { break #label false; };),
                    Value::Invalid => quote!(break #label false;),
                };
                let var = &c.vars[var as usize];
                (
                    quote!(#value if !(0..=#bound).contains(&value) { break #label false; }),
                    quote!(let #old = st.vars[#var]; st.vars[#var] = value as Var;),
                    quote!(st.vars[#var] = #old;),
                    index,
                )
            }
            Op::AssignConst { var, value, index } => {
                let var = &c.vars[var as usize];
                let value = c.l.var.lit(value.max(0) as u64);
                (
                    TokenStream::new(),
                    quote!(let #old = st.vars[#var]; st.vars[#var] = #value;),
                    quote!(st.vars[#var] = #old;),
                    index,
                )
            }
            _ => return quote!(break #label false),
        };
        // A filtering sink (`Game::next_actions`) may prune this modifier, and after a stop
        // it may resume the search here: at the action number it names, the stop ends.
        let (admit, resume) = if cx.pattern {
            (TokenStream::new(), TokenStream::new())
        } else {
            (
                quote!(if K::FILTER && !k.admit(sc.path.len(), Action::new(#index, w as u32)) {
                    break #label false;
                }),
                quote!(let stop = stop && !(K::FILTER && k.resume() == Some(sc.path.len().wrapping_sub(1)));),
            )
        };
        let (record, unrecord) = if cx.pattern {
            (TokenStream::new(), TokenStream::new())
        } else {
            (
                quote!(if K::RECORD { sc.path.push(Action::new(#index, #at as u32)); }),
                quote!(if K::RECORD {
                    sc.path.pop();
                }),
            )
        };
        let (count, uncount) = if c.a.needs_guard() {
            (
                quote! {
                    if sc.mods >= MAX_MODIFIERS { sc.failed = true; break #label true; }
                    sc.mods += 1;
                },
                quote!(sc.mods -= 1;),
            )
        } else {
            (TokenStream::new(), TokenStream::new())
        };
        let rest_code = self.ops(rest, cx, &inner, false, true);
        let keep = if cx.pattern {
            quote!(true)
        } else if c.a.needs_guard() {
            quote!(!(K::KEEP && stop && !sc.failed))
        } else {
            quote!(!(K::KEEP && stop))
        };
        let epoch = crate::board_sets::new_epoch(c);
        quote! {
            #prepare
            #admit
            #count
            let #at = w;
            #apply
            #epoch
            #record
            let stop = #inner: { #rest_code };
            #resume
            if #keep {
                #undo
                #epoch
                #unrecord
                #uncount
            }
            stop
        }
    }

    fn switch(&self, player: u32, index: u32, cx: &EdgeCx, label: &Lifetime) -> TokenStream {
        let c = self.c;
        let player = c.l.player.lit(player as u64);
        let node = c.node_value(cx.target);
        // A move length known here lets the sink copy the move with fixed-size moves (the
        // fallback, never taken, keeps the code correct should the analysis be wrong: the
        // conversion only succeeds at exactly that length).
        let found = match cx.move_len {
            Some(len) => {
                let len = lit(len as u64);
                quote! {
                    if !K::RECORD {
                        k.found(&[])
                    } else if let Ok(path) = <&[Action; #len]>::try_from(sc.path.as_slice()) {
                        k.found(path)
                    } else {
                        found_cold(k, &sc.path)
                    }
                }
            }
            None => quote!(k.found(&sc.path)),
        };
        // A list past its bound ends the search through the stack checks (see
        // `stack_helpers`); without checks the search is bounded anyway (module `stack_plan`).
        let abort = if c.stack.any() {
            quote!(if k.overflowed() {
                abort_search(sc);
            })
        } else {
            TokenStream::new()
        };
        quote! {
            if K::FILTER && !k.admit(sc.path.len(), Action::new(#index, w as u32)) {
                break #label false;
            }
            if K::RECORD {
                sc.path.push(Action::new(#index, w as u32));
            }
            let stop = if K::CHILD { k.found_child(st, w, #player, #node) } else { #found };
            #abort
            if K::KEEP && stop {
                st.vertex = w;
                st.player = #player;
                st.node = #node;
                break #label true;
            }
            if K::RECORD {
                sc.path.pop();
            }
            stop
        }
    }

    /// `pattern_A(st, sc, v, d)`: whether pattern automaton `A` has a complete word from `v`.
    fn pattern_fn(&self, a: AutomatonId) -> TokenStream {
        let c = self.c;
        let start = c.p.automaton(a).start().get();
        let name = pattern_ident(a);
        let doc = format!("Pattern automaton {a}: does its body have a complete word from cell `v`?");
        let dparam = self.depth_param();
        let begin = if c.has_layers { quote!(begin_layer(sc, d);) } else { TokenStream::new() };
        if c.words.is_cell_pattern(a) {
            let call = crate::word_tests::cell_call(a);
            return quote! {
                #[doc = #doc]
                #[inline]
                fn #name(st: &mut State, sc: &mut Scratch, v: Cell #dparam) -> bool {
                    #call
                }
            };
        }
        let call = self.call_node(start, &quote!(v), &quote!(d));
        quote! {
            #[doc = #doc]
            #[inline]
            fn #name(st: &mut State, sc: &mut Scratch, v: Cell #dparam) -> bool {
                #begin
                #call
            }
        }
    }

    /// `dispatch`: runs the main search from the state's rules position.
    fn dispatch(&self) -> TokenStream {
        let c = self.c;
        let arms = c.rules_positions().into_iter().map(|n| {
            let value = c.node_value(n);
            let call = self.call_node(n, &quote!(v), &quote!(0));
            quote!(#value => #call,)
        });
        let begin = begin_main_search(c);
        quote! {
            /// The main search from the state's rules position and cell.
            fn dispatch<K: Sink>(st: &mut State, sc: &mut Scratch, k: &mut K) -> bool {
                let v = st.vertex;
                #begin
                match st.node {
                    #(#arms)*
                    _ => false,
                }
            }
        }
    }
}

/// What the main search does before entering its first node.
fn begin_main_search(c: &Ctx) -> TokenStream {
    if c.has_layers {
        quote!(begin_layer(sc, 0);)
    } else {
        TokenStream::new()
    }
}

/// The main search from rules position `n` (a block over `st`, `sc` and `k`, at the state's
/// cell), which the dispatch would choose for a state at `n`.
pub(crate) fn search_from(c: &Ctx, n: u32) -> TokenStream {
    let call = SearchGen { c, next_id: 0 }.call_node(n, &quote!(v), &quote!(0));
    let begin = begin_main_search(c);
    quote!({
        let v = st.vertex;
        #begin
        #call
    })
}

/// The code of a comparison inside the block `label`: breaks out of it with `false` when the
/// relation does not hold or a side cannot be computed.
pub(crate) fn compare_code(c: &Ctx, lhs: ExprId, rel: RelOp, rhs: ExprId, label: &Lifetime) -> TokenStream {
    let st = quote!(st);
    let op = match rel {
        RelOp::Eq => quote!(==),
        RelOp::Ne => quote!(!=),
        RelOp::Lt => quote!(<),
        RelOp::Le => quote!(<=),
        RelOp::Gt => quote!(>),
        RelOp::Ge => quote!(>=),
    };
    match (exprs::value(c, lhs, &st), exprs::value(c, rhs, &st)) {
        (Value::Invalid, _) | (_, Value::Invalid) => quote!(break #label false;),
        (Value::Total(a), Value::Total(b)) => quote!(if !(#a #op #b) { break #label false; }),
        (a, b) => {
            let a = optional(a);
            let b = optional(b);
            quote! {
                match (#a, #b) {
                    (Some(a), Some(b)) if a #op b => {}
                    _ => break #label false,
                }
            }
        }
    }
}

/// A value as an `Option<i64>` expression.
fn optional(v: Value) -> TokenStream {
    match v {
        Value::Total(x) => quote!(Some(#x)),
        Value::Partial(x) => x,
        Value::Invalid => quote!(None::<i64>),
    }
}

/// The red zone constant and the out-of-line move to a new stack segment, if any node checks.
fn stack_helpers(stack: &StackPlan) -> TokenStream {
    if !stack.any() {
        return TokenStream::new();
    }
    let red_zone = lit(stack.red_zone as u64);
    quote! {
        /// Bytes of stack a search keeps in reserve: the longest chain of node calls without a
        /// stack check, at a generous frame size.
        const STACK_RED_ZONE: usize = #red_zone;

        /// Runs `f` on a fresh stack segment, with the scratch's stack mark set for it.
        #[cold]
        #[inline(never)]
        fn grow_stack(sc: &mut Scratch, f: impl FnOnce(&mut Scratch) -> bool) -> bool {
            ::rbg_core::stack::on_new_segment(4 * STACK_RED_ZONE, move || {
                let saved = sc.stack_low;
                sc.stack_low = ::rbg_core::stack::low_water_mark(STACK_RED_ZONE);
                let stop = f(sc);
                sc.stack_low = if sc.aborted { usize::MAX } else { saved };
                stop
            })
        }

        /// Ends the search early without a test on its hot path: every checked node now fails
        /// its stack check, and its out-of-line half returns at once. What runs between checks
        /// is bounded, so the search unwinds quickly. Used when the move list overflows (the
        /// caller reports `TooManyMoves`).
        #[cold]
        #[inline(never)]
        fn abort_search(sc: &mut Scratch) {
            sc.aborted = true;
            sc.stack_low = usize::MAX;
        }
    }
}

/// The `Scratch` field holding the lowest stack address the search may reach before it moves
/// to a new segment (empty when no node checks).
pub(crate) fn stack_scratch_field(c: &Ctx) -> TokenStream {
    if c.stack.any() {
        quote!(stack_low: usize, aborted: bool,)
    } else {
        TokenStream::new()
    }
}

/// Sets the stack mark at the start of a search, for the stack it runs on.
pub(crate) fn stack_prologue(c: &Ctx) -> TokenStream {
    if c.stack.any() {
        quote! {
            sc.stack_low = ::rbg_core::stack::low_water_mark(STACK_RED_ZONE);
            sc.aborted = false;
        }
    } else {
        TokenStream::new()
    }
}

/// A node's edges in the order its function tries them.
pub(crate) fn ordered_edges(c: &Ctx, n: u32) -> Vec<Edge> {
    let mut edges = c.p.node_edges(NodeId::new(n)).to_vec();
    if c.is_pattern(n) && c.o.pattern_order {
        // A pattern only asks whether an accepting node is reachable, so the order of its
        // alternatives is free: try the ones closest to acceptance first.
        // Among those, first a memoised pattern that the rules ask again before a piece
        // changes: its set then serves both.
        let owner = c.a.owner(NodeId::new(n));
        let not_asked_again = |e: &Edge| {
            let again = |op: &Op| match (*op, owner) {
                (Op::Pattern { automaton, .. }, Some(owner)) => {
                    c.board.reads_memo(n, automaton) && c.board.is_asked_again(owner, automaton)
                }
                _ => false,
            };
            !c.p.edge_ops(e).first().is_some_and(again)
        };
        edges.sort_by_key(|e| (c.a.accept_distance(e.target()).unwrap_or(u32::MAX), not_asked_again(e)));
    }
    edges
}

/// Whether node `n`'s function ends by entering `n` again with nothing left to do afterwards:
/// its last edge leads back to `n` and applies no modifier (whose undo would follow the call)
/// and no switch. The function is then a loop over the cells of the chain, not a recursion.
pub(crate) fn loops_to_itself(c: &Ctx, n: u32) -> bool {
    let node = c.p.node(NodeId::new(n));
    if node.is_fan() || (c.is_pattern(n) && node.is_accepting()) {
        return false;
    }
    let edges = ordered_edges(c, n);
    let Some(last) = edges.last() else { return false };
    let ops = c.p.edge_ops(last);
    last.target().get() == n
        && !ops.iter().any(|op| op.is_modifier() || matches!(op, Op::Switch { .. } | Op::Fail))
}
