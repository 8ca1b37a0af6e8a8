//! Assembling the generated module: constants named after the game's pieces, labels and
//! variables; the state; the scratch space; the search sinks; applying moves; monotonic classes;
//! and the `rbg_core::Game` implementation.
//!
//! # Generated module layout
//!
//! * constants and types: `VERTICES`, `Cell`, `OFF` (the off-board sentinel cell), `PIECE_*`,
//!   `LABEL_*`, `VAR_*`, the names of everything for `GameInfo`;
//! * tables (see [`crate::tables`]);
//! * `State`: a `Copy` struct of fixed-size arrays (pieces with the sentinel cell last,
//!   variables, optional piece counts) plus cell, player and rules position;
//! * `Scratch`: the move path being built and, only when some node needs a visited check, the
//!   stack of stamped visited layers (design notes 2.7);
//! * the node functions (see [`crate::search`]) and `dispatch`;
//! * `apply_move`: a `match` on the action index per action (design notes 2.11);
//! * `impl Game for Reasoner`, where `Reasoner` is a unit struct.

use proc_macro2::{Ident, TokenStream};
use quote::quote;
use rbg_interp::program::{Modifier, Op, NONE};
use rbg_interp::Program;
use rbg_parser::ir;

use crate::exprs::{self, Value};
use crate::layout::Layout;
use crate::names;
use crate::search;
use crate::tables::{self, lit};
use crate::{CompileError, CompileOptions, GENERATOR_VERSION};

/// Most modifiers on one search path of a game whose rules let moves grow without bound (the
/// interpreter's default bound).
const MAX_MODIFIERS: u32 = 10_000;

/// Everything the generators read.
pub(crate) struct Ctx<'a> {
    pub g: &'a ir::Game,
    pub p: &'a Program,
    pub o: &'a CompileOptions,
    pub l: Layout,
    pub pieces: Vec<Ident>,
    pub labels: Vec<Ident>,
    pub vars: Vec<Ident>,
    /// The automaton each node belongs to ([`NONE`] if unreachable).
    pub owner: Vec<u32>,
    /// Some node needs a visited check, so searches carry a layer depth.
    pub has_layers: bool,
    /// Modifiers can repeat without bound on one search path: count them and fail past
    /// [`MAX_MODIFIERS`] instead of recursing forever.
    pub guard: bool,
    /// For pattern nodes: the fewest edges to an accepting node ([`u32::MAX`] if none).
    pub accept_distance: Vec<u32>,
    /// For rules nodes: the number of actions on the move path whenever the search is there,
    /// if it is the same on every path.
    pub path_len: Vec<Option<u32>>,
    /// Piece masks whose cell sets the state maintains (design notes 6.2): the filters of fans
    /// over every cell.
    pub tracked: Vec<u64>,
    /// Whether the search, from each node until it ends (a switch or a pattern's acceptance),
    /// may read state derived from the board: piece-location sets or piece counts.
    pub reads_derived: Vec<bool>,
}

impl Ctx<'_> {
    /// Whether these ops (or the patterns they evaluate) read piece counts or piece-location
    /// sets.
    pub(crate) fn ops_read_derived(&self, ops: &[Op]) -> bool {
        ops_read(self.p, &self.reads_derived, ops)
    }

    /// Whether the state keeps anything derived from the board (piece counts, piece-location
    /// sets) that `set_piece` must update.
    pub(crate) fn has_derived_state(&self) -> bool {
        self.p.counts_pieces || !self.tracked.is_empty()
    }

    /// The piece-location set a fan node iterates instead of its row, if any.
    pub(crate) fn tracked_set(&self, n: u32) -> Option<usize> {
        let node = self.p.nodes[n as usize];
        if !node.is_fan() || !self.p.fan_tables[node.fan as usize].all_vertices {
            return None;
        }
        self.tracked.iter().position(|&m| m == node.filter)
    }

    pub(crate) fn is_pattern(&self, n: u32) -> bool {
        let a = self.owner[n as usize];
        a != NONE && self.p.automata[a as usize].is_pattern
    }

    /// A `matches!` pattern accepting the pieces whose bit is set in `mask`.
    pub(crate) fn piece_pattern_mask(&self, mask: u64) -> TokenStream {
        self.piece_pattern(|p| p < 64 && (mask >> p) & 1 == 1)
    }

    /// A `matches!` pattern accepting the pieces `accepts` selects (never the sentinel).
    pub(crate) fn piece_pattern(&self, accepts: impl Fn(usize) -> bool) -> TokenStream {
        let names: Vec<&Ident> =
            (0..self.pieces.len()).filter(|&p| accepts(p)).map(|p| &self.pieces[p]).collect();
        if names.is_empty() {
            return quote!(NO_PIECE);
        }
        quote!(#(#names)|*)
    }

    /// The literal stored in `State::node` for rules position `n` ([`NONE`] = dead).
    pub(crate) fn node_value(&self, n: u32) -> TokenStream {
        let v = if n == NONE { Layout::dead_node(self.p) } else { n as u64 };
        self.l.node.lit(v)
    }

    /// Rules nodes a state can be at: the start and every switch target.
    pub(crate) fn rules_positions(&self) -> Vec<u32> {
        let mut out = vec![self.p.start()];
        for e in &self.p.edges {
            if self.p.ends_move(e) && e.target != NONE {
                out.push(e.target);
            }
        }
        out.sort_unstable();
        out.dedup();
        out.retain(|&n| self.owner[n as usize] == 0);
        out
    }

    fn describe_op(&self, op: &Op) -> String {
        let pieces = |accept: &dyn Fn(usize) -> bool| {
            let names: Vec<&str> = self
                .g
                .pieces
                .iter()
                .enumerate()
                .filter(|(i, _)| accept(*i))
                .map(|(_, n)| n.as_str())
                .collect();
            format!("{{{}}}", names.join(","))
        };
        match *op {
            Op::Shift(l) => self.g.board.labels[l as usize].clone(),
            Op::Table(t) => format!("table{t}"),
            Op::On(mask) => pieces(&|p| p < 64 && (mask >> p) & 1 == 1),
            Op::OnSet(s) => pieces(&|p| self.p.piece_sets[s as usize].get(p).copied().unwrap_or(false)),
            Op::InSet(s) => format!("{{set{s}}}"),
            Op::Off { piece, index } => format!("[{}]#{index}", self.g.pieces[piece as usize]),
            Op::Assign { var, expr, index } => {
                format!("[${}={}]#{index}", self.g.var_name(var), exprs::describe_expr(self, expr))
            }
            Op::AssignConst { var, value, index } => format!("[${}={value}]#{index}", self.g.var_name(var)),
            Op::Compare { lhs, rel, rhs } => format!(
                "{{${} {} {}}}",
                exprs::describe_expr(self, lhs),
                rel.as_str(),
                exprs::describe_expr(self, rhs)
            ),
            Op::Pattern { automaton, positive } => {
                format!("{{{} pattern{automaton}}}", if positive { "?" } else { "!" })
            }
            Op::Switch { player: 0, index } => format!("->>#{index}"),
            Op::Switch { player, index } => {
                let name = self.g.players.get(player as usize - 1).map_or("?", |p| p.name.as_str());
                format!("->{name}#{index}")
            }
            Op::Fail => "{}".into(),
        }
    }

    /// The doc comment of a node function: what it does, in RBG-like syntax.
    pub(crate) fn describe_node(&self, n: u32) -> String {
        let node = self.p.nodes[n as usize];
        let a = self.owner[n as usize];
        let automaton =
            if self.is_pattern(n) { format!("pattern automaton {a}") } else { "the rules".into() };
        let mut doc = format!("Node {n} of {automaton}.");
        if node.slot != NONE {
            doc.push_str(&format!(" Visited slot {}.", node.slot));
        }
        if node.accepting {
            doc.push_str(" Accepting.");
            return doc;
        }
        if node.is_fan() {
            let t = &self.p.fan_tables[node.fan as usize];
            let kind = if t.all_vertices {
                "every cell".to_string()
            } else {
                format!("each cell of fan table {}", node.fan)
            };
            let filter = if node.filter == u64::MAX {
                String::new()
            } else {
                format!(" holding {}", self.describe_op(&Op::On(node.filter)))
            };
            doc.push_str(&format!("\n\nAt {kind}{filter}: node {}.", node.next));
            return doc;
        }
        doc.push_str(" Edges, tried in order:\n");
        for e in self.p.node_edges(n) {
            let ops: Vec<String> = self.p.edge_ops(e).iter().map(|op| self.describe_op(op)).collect();
            let text = if ops.is_empty() { "(empty)".to_string() } else { ops.join(" ") };
            doc.push_str(&format!("\n* `{text}` → node {}", e.target));
        }
        doc
    }
}

/// The whole module.
pub(crate) fn module(
    g: &ir::Game,
    p: &Program,
    name: &str,
    o: &CompileOptions,
) -> Result<TokenStream, CompileError> {
    let l = Layout::new(p, o.compact_state)?;
    let var_names: Vec<String> = (0..g.num_vars() as u32).map(|v| g.var_name(v).to_string()).collect();
    let owner = owners(p)?;
    let path_len = path_lengths(p, &owner);
    let c = Ctx {
        g,
        p,
        o,
        l,
        pieces: names::constants("PIECE", &g.pieces),
        labels: names::constants("LABEL", &g.board.labels),
        vars: names::constants("VAR", &var_names),
        owner,
        has_layers: p.visited_slots > 0,
        guard: needs_guard(p),
        accept_distance: accept_distances(p),
        path_len,
        tracked: if o.piece_sets { tracked_masks(p) } else { Vec::new() },
        reads_derived: Vec::new(),
    };
    let c = Ctx { reads_derived: reads_derived(&c), ..c };
    let header = header(&c, name);
    let constants = constants(&c, name, &var_names);
    let tables = tables::all(&c);
    let state = state(&c);
    let scratch = scratch(&c);
    let sinks = sinks();
    let exprs = exprs::functions(&c)?;
    let search = search::functions(&c);
    let apply = apply(&c);
    let game = game_impl(&c);
    Ok(quote! {
        #header
        #constants
        #tables
        #state
        #scratch
        #sinks
        #exprs
        #search
        #apply
        #game
    })
}

fn header(c: &Ctx, name: &str) -> TokenStream {
    let doc = names::inner_doc(&format!(
        "The compiled reasoner of `{name}`, generated by rbg-compiler {GENERATOR_VERSION}; do not edit.\n\n\
         Options: {}.\n\nProgram: {}.",
        c.o.fingerprint(),
        c.p.summary()
    ));
    quote! {
        #doc
        #![allow(
            dead_code,
            unused_mut,
            unused_variables,
            unused_labels,
            unused_braces,
            unused_doc_comments,
            unused_parens,
            unreachable_code,
            unreachable_patterns,
            non_upper_case_globals,
            clippy::all,
            clippy::pedantic,
            clippy::nursery
        )]
        use ::core::ops::ControlFlow;
        use ::rbg_core::{Action, Game, GameInfo, MoveList, Player, SearchError};
    }
}

fn constants(c: &Ctx, name: &str, var_names: &[String]) -> TokenStream {
    let l = &c.l;
    let (cell, piece, var, count, node, player) = (
        l.cell.tokens(),
        l.piece.tokens(),
        l.var.tokens(),
        l.count.tokens(),
        l.node.tokens(),
        l.player.tokens(),
    );
    let vertices = lit(l.vertices as u64);
    let off = lit(l.off());
    let no_piece = lit(l.piece_sentinel());
    let num_pieces = lit(c.g.pieces.len() as u64);
    let num_vars = lit(var_names.len() as u64);
    let num_players = lit(c.g.players.len() as u64);
    let labels = lit(c.g.board.labels.len() as u64);
    let modifiers = c.g.modifiers;
    let automaton = lit(c.p.nodes.len() as u64);
    let piece_consts = c.pieces.iter().enumerate().map(|(i, id)| {
        let doc = format!("Piece `{}`.", c.g.pieces[i]);
        let v = lit(i as u64);
        quote!(#[doc = #doc] pub const #id: Piece = #v;)
    });
    let var_consts = c.vars.iter().enumerate().map(|(i, id)| {
        let what = if i < c.g.players.len() { "Score of player" } else { "Variable" };
        let doc = format!("{what} `{}` (0..={}).", var_names[i], c.p.bounds[i]);
        let v = lit(i as u64);
        quote!(#[doc = #doc] pub const #id: usize = #v;)
    });
    let player_names = c.g.players.iter().map(|p| &p.name);
    let piece_names = &c.g.pieces;
    let vertex_names = c.g.board.vertices.iter().map(|v| &v.name);
    let bounds = c.p.bounds.iter();
    let switches = c.g.switch_indices();
    let num_switches = lit(switches.len() as u64);
    let guard = if c.guard { quote!(const MAX_MODIFIERS: u32 = #MAX_MODIFIERS;) } else { TokenStream::new() };
    quote! {
        /// The game's name.
        pub const NAME: &str = #name;
        /// Number of board vertices; cells `0..VERTICES` are vertices.
        pub const VERTICES: usize = #vertices;
        /// Number of edge labels.
        pub const LABELS: usize = #labels;
        /// Number of pieces.
        pub const PIECES: usize = #num_pieces;
        /// Number of variables (players' scores first).
        pub const VARIABLES: usize = #num_vars;
        /// Number of real players (the keeper is player 0 and not counted).
        pub const PLAYERS: usize = #num_players;
        /// Number of modifiers (the largest action index).
        pub const MODIFIERS: u32 = #modifiers;
        /// Number of automaton nodes (rules and patterns).
        pub const AUTOMATON_SIZE: usize = #automaton;
        /// A cell id.
        pub type Cell = #cell;
        /// A piece id.
        pub type Piece = #piece;
        /// A variable value.
        pub type Var = #var;
        type Count = #count;
        type NodeId = #node;
        type PlayerId = #player;
        /// The off-board sentinel cell: shifts off the board lead here and stay here.
        pub const OFF: Cell = #off;
        /// The piece on the off-board cell; no on-test accepts it.
        const NO_PIECE: Piece = #no_piece;
        #guard
        #(#piece_consts)*
        #(#var_consts)*
        const PLAYER_NAMES: [&str; #num_players] = [#(#player_names),*];
        const PIECE_NAMES: [&str; #num_pieces] = [#(#piece_names),*];
        const VARIABLE_NAMES: [&str; #num_vars] = [#(#var_names),*];
        const BOUNDS: [i64; #num_vars] = [#(#bounds),*];
        static VERTEX_NAMES: [&str; #vertices] = [#(#vertex_names),*];
        /// Indices of the switch actions.
        const SWITCHES: [u32; #num_switches] = [#(#switches),*];
    }
}

fn state(c: &Ctx) -> TokenStream {
    let l = &c.l;
    let pieces =
        c.p.initial_pieces.iter().map(|&x| lit(x as u64)).chain(std::iter::once(lit(l.piece_sentinel())));
    let start = c.node_value(c.p.start());
    let (counts_field, counts_init, counts_update) = if c.p.counts_pieces {
        let mut counts = vec![0u64; c.g.pieces.len()];
        c.p.initial_pieces.iter().for_each(|&x| counts[x as usize] += 1);
        let counts = counts.into_iter().map(lit);
        (
            quote!(counts: [Count; PIECES],),
            quote!(counts: [#(#counts),*],),
            quote! {
                let old = st.pieces[at as usize];
                st.counts[old as usize] = st.counts[old as usize].wrapping_sub(1);
                st.counts[piece as usize] = st.counts[piece as usize].wrapping_add(1);
            },
        )
    } else {
        (TokenStream::new(), TokenStream::new(), TokenStream::new())
    };
    let PieceSets { field: occ_field, init: occ_init, update: occ_update, consts: occ_consts } =
        piece_sets(c);
    quote! {
        #occ_consts

        /// A game state: board, variables, current cell, player and rules position.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub struct State {
            /// The piece on each cell; the last entry is the off-board sentinel's [`NO_PIECE`].
            pieces: [Piece; VERTICES + 1],
            vars: [Var; VARIABLES],
            #counts_field
            #occ_field
            vertex: Cell,
            player: PlayerId,
            node: NodeId,
        }

        /// The initial state, before keeper completion.
        pub const INITIAL: State = State {
            pieces: [#(#pieces),*],
            vars: [0; VARIABLES],
            #counts_init
            #occ_init
            vertex: 0,
            player: 0,
            node: #start,
        };

        /// Puts `piece` on cell `at` (never the sentinel), keeping piece counts and
        /// piece-location sets.
        #[inline(always)]
        fn set_piece(st: &mut State, at: Cell, piece: Piece) {
            #counts_update
            #occ_update
            st.pieces[at as usize] = piece;
        }
    }
}

/// The state's piece-location sets, as tokens for its field, its initial value, its update in
/// `set_piece`, and its constants.
struct PieceSets {
    field: TokenStream,
    init: TokenStream,
    update: TokenStream,
    consts: TokenStream,
}

fn piece_sets(c: &Ctx) -> PieceSets {
    if c.tracked.is_empty() {
        let none = TokenStream::new;
        return PieceSets { field: none(), init: none(), update: none(), consts: none() };
    }
    let words = c.l.vertices.div_ceil(64);
    let sets = lit(c.tracked.len() as u64);
    let init = c.tracked.iter().map(|&mask| {
        let mut bits = vec![0u64; words];
        for (v, &piece) in c.p.initial_pieces.iter().enumerate() {
            if piece < 64 && (mask >> piece) & 1 == 1 {
                bits[v / 64] |= 1 << (v % 64);
            }
        }
        quote!([#(#bits),*])
    });
    let masks = c.tracked.iter();
    let described: Vec<String> = c.tracked.iter().map(|&m| c.describe_op(&Op::On(m))).collect();
    let masks_doc =
        format!("The piece masks of the piece-location sets (design notes 6.2): {}.", described.join(", "));
    let words = lit(words as u64);
    PieceSets {
        field: quote!(
            /// Bit `v` of `occ[k]` is set when cell `v` holds a piece of `OCC_MASKS[k]`.
            occ: [[u64; OCC_WORDS]; #sets],
        ),
        init: quote!(occ: [#(#init),*],),
        update: quote! {
            let (word, bit) = (at as usize / 64, 1u64 << (at as usize % 64));
            for (set, mask) in st.occ.iter_mut().zip(OCC_MASKS) {
                let holds = (mask >> piece) & 1;
                set[word] = (set[word] & !bit) | (bit * holds);
            }
        },
        consts: quote! {
            /// Words of a piece-location set.
            const OCC_WORDS: usize = #words;
            #[doc = #masks_doc]
            const OCC_MASKS: [u64; #sets] = [#(#masks),*];
        },
    }
}

fn scratch(c: &Ctx) -> TokenStream {
    let mut guard_fields = if c.guard { quote!(mods: u32, failed: bool,) } else { TokenStream::new() };
    guard_fields.extend(search::stack_scratch_field(c));
    if !c.has_layers {
        return quote! {
            /// Working memory of a search: the move being built.
            #[derive(Clone, Debug, Default)]
            pub struct Scratch {
                path: Vec<Action>,
                #guard_fields
            }
        };
    }
    let slots = lit(c.p.visited_slots as u64);
    quote! {
        /// Working memory of a search: the move being built and the visited layers, one per
        /// modifier depth, each a stamp per (slot, cell); a layer is cleared by bumping its
        /// generation.
        #[derive(Clone, Debug, Default)]
        pub struct Scratch {
            path: Vec<Action>,
            layers: Vec<Layer>,
            #guard_fields
        }

        #[derive(Clone, Debug)]
        struct Layer {
            generation: u32,
            stamps: Box<[u32]>,
        }

        /// Nodes with a visited check.
        const SLOTS: usize = #slots;

        /// Starts a fresh instance of visited layer `d`.
        #[inline(always)]
        fn begin_layer(sc: &mut Scratch, d: u32) {
            let d = d as usize;
            if d >= sc.layers.len() {
                grow_layers(sc, d);
            }
            let layer = &mut sc.layers[d];
            layer.generation = layer.generation.wrapping_add(1);
            if layer.generation == 0 {
                layer.stamps.fill(0);
                layer.generation = 1;
            }
        }

        #[cold]
        #[inline(never)]
        fn grow_layers(sc: &mut Scratch, d: usize) {
            while sc.layers.len() <= d {
                sc.layers.push(Layer { generation: 0, stamps: vec![0; SLOTS * VERTICES].into_boxed_slice() });
            }
        }

        /// Marks (slot, v) in layer `d`; `false` if it was already marked.
        #[inline(always)]
        fn visit(sc: &mut Scratch, slot: usize, v: Cell, d: u32) -> bool {
            let layer = &mut sc.layers[d as usize];
            let stamp = &mut layer.stamps[slot * VERTICES + v as usize];
            let fresh = *stamp != layer.generation;
            *stamp = layer.generation;
            fresh
        }
    }
}

fn sinks() -> TokenStream {
    quote! {
        /// Receives the moves of the main search.
        trait Sink {
            /// Keep the modifications of the move that stopped the search (keeper moves).
            const KEEP: bool;
            /// Record the move's actions in `Scratch::path` (not needed to apply a keeper move).
            const RECORD: bool = true;
            /// A complete move (its last action is the switch); `true` stops the search.
            fn found(&mut self, path: &[Action]) -> bool;
        }

        /// Reports a move whose length differs from the statically known one (never happens).
        #[cold]
        #[inline(never)]
        fn found_cold<K: Sink>(k: &mut K, path: &[Action]) -> bool {
            k.found(path)
        }

        /// Collects every move.
        struct ListSink<'a>(&'a mut MoveList);

        impl Sink for ListSink<'_> {
            const KEEP: bool = false;
            #[inline(always)]
            fn found(&mut self, path: &[Action]) -> bool {
                self.0.push(path);
                false
            }
        }

        /// Stops at the first move and keeps it applied.
        struct FirstSink;

        impl Sink for FirstSink {
            const KEEP: bool = true;
            const RECORD: bool = false;
            #[inline(always)]
            fn found(&mut self, _path: &[Action]) -> bool {
                true
            }
        }

        /// Streams moves to a visitor.
        struct VisitSink<F>(F);

        impl<F: FnMut(&[Action]) -> ControlFlow<()>> Sink for VisitSink<F> {
            const KEEP: bool = false;
            #[inline(always)]
            fn found(&mut self, path: &[Action]) -> bool {
                (self.0)(path).is_break()
            }
        }

        /// Stops at one given move and keeps it applied (applying a move by search).
        struct ReplaySink<'a>(&'a [Action]);

        impl Sink for ReplaySink<'_> {
            const KEEP: bool = true;
            #[inline(always)]
            fn found(&mut self, path: &[Action]) -> bool {
                path == self.0
            }
        }
    }
}

fn apply(c: &Ctx) -> TokenStream {
    if !c.o.unchecked_modifiers {
        return quote! {
            /// Applies a move by replaying the search until it finds this very move (checked
            /// application; leaves the state unchanged if the move is not legal).
            fn apply_move(st: &mut State, m: &[Action]) {
                let mut sc = Scratch::default();
                let _ = run(st, &mut sc, &mut ReplaySink(m));
            }
        };
    }
    let arms = c.p.modifiers.iter().enumerate().filter_map(|(index, m)| {
        let index = index as u32;
        let body = match *m {
            Modifier::None => return None,
            Modifier::Off { piece } => {
                let name = &c.pieces[piece as usize];
                quote!(set_piece(st, at, #name))
            }
            Modifier::Assign { var, expr } => {
                let var = &c.vars[var as usize];
                match exprs::value(c, expr, &quote!(st)) {
                    Value::Total(x) => quote!(st.vars[#var] = (#x) as Var),
                    Value::Partial(x) => quote!(if let Some(value) = #x { st.vars[#var] = value as Var; }),
                    Value::Invalid => quote!({}),
                }
            }
            Modifier::Switch { player, target } => {
                let player = c.l.player.lit(player as u64);
                let node = c.node_value(target);
                quote!({ st.player = #player; st.node = #node; })
            }
        };
        Some(quote!(#index => #body,))
    });
    quote! {
        /// Applies a legal move without checking it: one `match` arm per action index
        /// (assignments are recomputed in order, so later ones see earlier ones).
        fn apply_move(st: &mut State, m: &[Action]) {
            for a in m {
                if a.vertex as usize >= VERTICES {
                    continue;
                }
                let at = a.vertex as Cell;
                match a.index {
                    #(#arms)*
                    _ => {}
                }
            }
            if let Some(last) = m.last() {
                if (last.vertex as usize) < VERTICES {
                    st.vertex = last.vertex as Cell;
                }
            }
        }
    }
}

fn monotonic(c: &Ctx) -> TokenStream {
    if c.p.monotonic.is_empty() {
        return TokenStream::new();
    }
    let classes = c.p.monotonic.iter().enumerate().map(|(i, class)| {
        let node = c.node_value(class.node);
        let i = i as u32;
        quote!(#node => Some(#i),)
    });
    let legal = c.p.monotonic.iter().flat_map(|class| class.switches.iter()).map(|(index, mask)| {
        let pieces = c.piece_pattern(|p| mask.get(p).copied().unwrap_or(false));
        quote!(#index => matches!(piece, #pieces),)
    });
    let count = c.p.monotonic.len() as u32;
    quote! {
        fn monotonic_class(&self, s: &State) -> Option<u32> {
            if s.player == 0 {
                return None;
            }
            match s.node {
                #(#classes)*
                _ => None,
            }
        }

        fn is_still_legal(&self, s: &State, m: &[Action]) -> bool {
            let [a] = m else { return false };
            if a.vertex as usize >= VERTICES {
                return false;
            }
            let piece = s.pieces[a.vertex as usize];
            match a.index {
                #(#legal)*
                _ => false,
            }
        }

        fn monotonic_classes(&self) -> u32 {
            #count
        }
    }
}

fn game_impl(c: &Ctx) -> TokenStream {
    let monotonic = monotonic(c);
    let label_names = c.g.board.labels.iter();
    let board_edges = c.g.board.vertices.iter().enumerate().flat_map(|(v, vertex)| {
        let v = v as u32;
        vertex.edges.iter().map(move |e| {
            let (label, target) = (e.label, e.target);
            quote!((#v, #label, #target))
        })
    });
    let stack_prologue = search::stack_prologue(c);
    let (reset_guard, check_guard) = if c.guard {
        (
            quote!(sc.mods = 0; sc.failed = false;),
            quote! {
                if sc.failed {
                    sc.failed = false;
                    return Err(SearchError::MoveTooLong { limit: MAX_MODIFIERS as usize });
                }
            },
        )
    } else {
        (TokenStream::new(), TokenStream::new())
    };
    quote! {
        /// Runs the main search; `Ok(true)` if the sink stopped it.
        #[inline]
        fn run<K: Sink>(st: &mut State, sc: &mut Scratch, k: &mut K) -> Result<bool, SearchError> {
            sc.path.clear();
            #reset_guard
            #stack_prologue
            let stop = dispatch(st, sc, k);
            #check_guard
            Ok(stop)
        }

        /// Names and sizes of the game.
        pub fn info() -> &'static GameInfo {
            static INFO: ::std::sync::OnceLock<GameInfo> = ::std::sync::OnceLock::new();
            INFO.get_or_init(|| GameInfo {
                name: NAME.to_string(),
                players: PLAYER_NAMES.iter().map(|s| s.to_string()).collect(),
                pieces: PIECE_NAMES.iter().map(|s| s.to_string()).collect(),
                variables: VARIABLE_NAMES.iter().map(|s| s.to_string()).collect(),
                bounds: BOUNDS.to_vec(),
                vertices: VERTEX_NAMES.iter().map(|s| s.to_string()).collect(),
                modifiers: MODIFIERS,
                switches: SWITCHES.to_vec(),
                labels: [#(#label_names),*].iter().map(|s: &&str| s.to_string()).collect(),
                edges: vec![#(#board_edges),*],
                positions: None,
            })
        }

        /// The compiled reasoner: a unit struct, every table is static.
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub struct Reasoner;

        impl Game for Reasoner {
            type State = State;
            type Scratch = Scratch;

            fn info(&self) -> &GameInfo {
                info()
            }

            fn new_scratch(&self) -> Scratch {
                Scratch::default()
            }

            fn initial_state(&self) -> State {
                INITIAL
            }

            #[inline]
            fn current_player(&self, s: &State) -> Player {
                s.player as Player
            }

            fn current_vertex(&self, s: &State) -> u32 {
                s.vertex as u32
            }

            fn piece(&self, s: &State, vertex: u32) -> u32 {
                if (vertex as usize) < VERTICES { s.pieces[vertex as usize] as u32 } else { 0 }
            }

            fn variable(&self, s: &State, var: usize) -> i64 {
                s.vars.get(var).map_or(0, |&x| x as i64)
            }

            fn rules_state(&self, s: &State) -> u32 {
                s.node as u32
            }

            fn visit_moves<F>(&self, s: &mut State, sc: &mut Scratch, visit: F) -> Result<ControlFlow<()>, SearchError>
            where
                F: FnMut(&[Action]) -> ControlFlow<()>,
            {
                let stop = run(s, sc, &mut VisitSink(visit))?;
                Ok(if stop { ControlFlow::Break(()) } else { ControlFlow::Continue(()) })
            }

            // Not `#[inline]`: the search is instantiated once, in the crate holding this module
            // (LTO still inlines across crates in release builds of generated crates).
            fn legal_moves(&self, s: &mut State, sc: &mut Scratch, out: &mut MoveList) -> Result<(), SearchError> {
                out.clear();
                run(s, sc, &mut ListSink(out))?;
                Ok(())
            }

            fn apply_move(&self, s: &mut State, m: &[Action]) {
                apply_move(s, m)
            }

            fn keeper_step(&self, s: &mut State, sc: &mut Scratch) -> Result<bool, SearchError> {
                if s.player != 0 {
                    return Ok(false);
                }
                run(s, sc, &mut FirstSink)
            }

            #monotonic
        }
    }
}

/// The automaton each node belongs to; a node shared by two automata is not supported.
fn owners(p: &Program) -> Result<Vec<u32>, CompileError> {
    let mut owner = vec![NONE; p.nodes.len()];
    for (a, automaton) in p.automata.iter().enumerate() {
        for n in p.reachable(automaton.start) {
            match owner[n as usize] {
                NONE => owner[n as usize] = a as u32,
                other => {
                    return Err(CompileError::Unsupported(format!(
                        "node {n} belongs to automata {other} and {a}"
                    )))
                }
            }
        }
    }
    Ok(owner)
}

/// Whether an edge applying an off or assignment lies on a cycle of the search graph (switch
/// edges end the search, so they are not followed). Without such a cycle every search path
/// applies each modifier edge at most once and needs no modifier bound.
fn needs_guard(p: &Program) -> bool {
    let successors = |n: u32| -> Vec<u32> {
        let node = p.nodes[n as usize];
        if node.is_fan() {
            return vec![node.next];
        }
        p.node_edges(n).iter().filter(|e| !p.ends_move(e)).map(|e| e.target).collect()
    };
    for (n, node) in p.nodes.iter().enumerate() {
        if node.is_fan() {
            continue;
        }
        for e in p.node_edges(n as u32).iter().filter(|e| e.modifies) {
            if p.ends_move(e) {
                continue;
            }
            // Is n reachable from the edge's target?
            let mut seen = vec![false; p.nodes.len()];
            let mut stack = vec![e.target];
            while let Some(m) = stack.pop() {
                if m == n as u32 {
                    return true;
                }
                if std::mem::replace(&mut seen[m as usize], true) {
                    continue;
                }
                stack.extend(successors(m));
            }
        }
    }
    false
}

/// For each rules node, the number of actions recorded on the move path when the search is
/// there, if every path from a rules position gives the same number (`None`: it varies, or the
/// node is not in the rules).
fn path_lengths(p: &Program, owner: &[u32]) -> Vec<Option<u32>> {
    #[derive(Copy, Clone, PartialEq)]
    enum Len {
        Unknown,
        Known(u32),
        Varies,
    }
    let mut len = vec![Len::Unknown; p.nodes.len()];
    let mut work: Vec<(u32, Len)> = vec![(p.start(), Len::Known(0))];
    for e in &p.edges {
        if p.ends_move(e) && e.target != NONE {
            work.push((e.target, Len::Known(0)));
        }
    }
    while let Some((n, new)) = work.pop() {
        let slot = &mut len[n as usize];
        let merged = match (*slot, new) {
            (Len::Unknown, x) => x,
            (Len::Known(a), Len::Known(b)) if a == b => continue,
            (Len::Varies, _) => continue,
            _ => Len::Varies,
        };
        *slot = merged;
        let node = p.nodes[n as usize];
        if node.is_fan() {
            work.push((node.next, merged));
        }
        for e in p.node_edges(n) {
            let ops = p.edge_ops(e);
            if Op::ends_move(ops) {
                continue;
            }
            let added = ops.iter().filter(|op| op.is_modifier()).count() as u32;
            let next = match merged {
                Len::Known(k) => Len::Known(k + added),
                other => other,
            };
            work.push((e.target, next));
        }
    }
    len.iter()
        .zip(owner)
        .map(|(l, &a)| match l {
            Len::Known(k) if a == 0 => Some(*k),
            _ => None,
        })
        .collect()
}

/// Whether `ops` read piece counts, or evaluate a pattern whose start node reads derived state.
fn ops_read(p: &Program, reads: &[bool], ops: &[Op]) -> bool {
    ops.iter().any(|op| match *op {
        Op::Pattern { automaton, .. } => reads[p.automata[automaton as usize].start as usize],
        Op::Compare { lhs, rhs, .. } => {
            p.exprs[lhs as usize].reads_counts() || p.exprs[rhs as usize].reads_counts()
        }
        Op::Assign { expr, .. } => p.exprs[expr as usize].reads_counts(),
        _ => false,
    })
}

/// Fixpoint of [`Ctx::reads_derived`]: a node reads if it is a fan over a piece-location set,
/// or an edge reads in its ops or continues (no switch) to a node that reads.
fn reads_derived(c: &Ctx) -> Vec<bool> {
    let p = c.p;
    let mut reads = vec![false; p.nodes.len()];
    let mut changed = true;
    while changed {
        changed = false;
        for n in 0..p.nodes.len() {
            if reads[n] {
                continue;
            }
            let node = p.nodes[n];
            let now = c.tracked_set(n as u32).is_some()
                || (node.is_fan() && reads[node.next as usize])
                || p.node_edges(n as u32).iter().any(|e| {
                    let ops = p.edge_ops(e);
                    ops_read(p, &reads, ops) || (!Op::ends_move(ops) && reads[e.target as usize])
                });
            if now {
                reads[n] = true;
                changed = true;
            }
        }
    }
    reads
}

/// The distinct piece filters of fans over every cell (games with at most 64 pieces).
fn tracked_masks(p: &Program) -> Vec<u64> {
    let mut masks = Vec::new();
    for node in &p.nodes {
        let all = node.is_fan() && p.fan_tables[node.fan as usize].all_vertices;
        if all && node.filter != u64::MAX && !masks.contains(&node.filter) {
            masks.push(node.filter);
        }
    }
    masks
}

/// Breadth-first distances to the accepting nodes, against the edges.
fn accept_distances(p: &Program) -> Vec<u32> {
    let mut preds: Vec<Vec<u32>> = vec![Vec::new(); p.nodes.len()];
    for (n, node) in p.nodes.iter().enumerate() {
        if node.is_fan() {
            preds[node.next as usize].push(n as u32);
        }
        p.node_edges(n as u32).iter().for_each(|e| preds[e.target as usize].push(n as u32));
    }
    let mut dist = vec![u32::MAX; p.nodes.len()];
    let mut queue: std::collections::VecDeque<u32> = Default::default();
    for (n, node) in p.nodes.iter().enumerate() {
        if node.accepting {
            dist[n] = 0;
            queue.push_back(n as u32);
        }
    }
    while let Some(n) = queue.pop_front() {
        for &m in &preds[n as usize] {
            if dist[m as usize] == u32::MAX {
                dist[m as usize] = dist[n as usize] + 1;
                queue.push_back(m);
            }
        }
    }
    dist
}
