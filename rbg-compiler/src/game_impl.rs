//! The generated `impl rbg_core::Game for Reasoner`, where `Reasoner` is a unit struct, with
//! state decoding (`state_from_parts`, checking (player, rules position) pairs against the
//! program) and the rules fingerprint computed here, at generation time.

use proc_macro2::TokenStream;
use quote::quote;
use rbg_automaton::{Modifier, NodeId};

use crate::ctx::Ctx;
use crate::layout::Layout;
use crate::monotonic;
use crate::packed;

pub(crate) fn game_impl(c: &Ctx) -> TokenStream {
    let monotonic = monotonic::monotonic(c);
    let count_replay = crate::count_replay::methods(c);
    let children = crate::children::methods(c);
    let label_names = c.g.board.labels.iter();
    // Board data as statics: on large boards a `vec![...]` of every edge made one enormous
    // function for the compiler (a 60,000-cell board took over ten minutes to build).
    let edges =
        c.g.board
            .vertices
            .iter()
            .enumerate()
            .flat_map(|(v, vertex)| vertex.edges.iter().map(move |e| (v as u32, e.label, e.target)));
    let board_edges = if c.l.packed {
        let text = packed::pack(edges.flat_map(|(v, l, t)| [v, l, t].map(u64::from)), 3);
        quote! {
            /// The board's edges: (from vertex, label, to vertex). Packed (a large board).
            static BOARD_EDGES: ::std::sync::LazyLock<Vec<(u32, u32, u32)>> = ::std::sync::LazyLock::new(|| {
                unpack(#text, 3).chunks_exact(3).map(|e| (e[0] as u32, e[1] as u32, e[2] as u32)).collect()
            });
        }
    } else {
        let each: Vec<TokenStream> = edges.map(|(v, label, target)| quote!((#v, #label, #target))).collect();
        let edge_count = each.len();
        quote! {
            /// The board's edges: (from vertex, label, to vertex).
            static BOARD_EDGES: [(u32, u32, u32); #edge_count] = [#(#each),*];
        }
    };
    let stack_prologue = crate::search::stack_prologue(c);
    let (position_table, positions) = match &c.g.board.positions {
        Some(positions) => {
            let table = if c.l.packed {
                // Coordinates packed; drawing points as decimal text, which `f64`'s `Display`
                // writes so that parsing gives the same value back.
                let coords =
                    packed::pack(positions.iter().flat_map(|p| p.coords.map(|x| x as i64 as u64)), 3);
                let points: Vec<String> =
                    positions.iter().flat_map(|p| p.point.map(|x| x.to_string())).collect();
                let points = points.join(" ");
                quote! {
                    /// Each vertex's grid coordinates and drawing point. Packed (a large board).
                    static VERTEX_POSITIONS: ::std::sync::LazyLock<Vec<([i32; 3], [f64; 2])>> =
                        ::std::sync::LazyLock::new(|| {
                            let mut points = #points.split(' ').map(|x| x.parse::<f64>().unwrap_or(0.0));
                            unpack(#coords, 3)
                                .chunks_exact(3)
                                .map(|c| {
                                    let coords = [c[0] as i32, c[1] as i32, c[2] as i32];
                                    let x = points.next().unwrap_or(0.0);
                                    (coords, [x, points.next().unwrap_or(0.0)])
                                })
                                .collect()
                        });
                }
            } else {
                let count = positions.len();
                let each = positions.iter().map(|p| {
                    let ([x, y, z], [px, py]) = (p.coords, p.point);
                    quote!(([#x, #y, #z], [#px, #py]))
                });
                quote! {
                    /// Each vertex's grid coordinates and drawing point.
                    static VERTEX_POSITIONS: [([i32; 3], [f64; 2]); #count] = [#(#each),*];
                }
            };
            (
                table,
                quote!(Some(
                    VERTEX_POSITIONS
                        .iter()
                        .map(|&(coords, point)| ::rbg_core::VertexPosition { coords, point })
                        .collect()
                )),
            )
        }
        None => (TokenStream::new(), quote!(None)),
    };
    let new_epoch = crate::board_sets::new_epoch(c);
    let (reset_guard, check_guard) = if c.a.needs_guard() {
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
    let rules_fingerprint = rules_fingerprint(c);
    let visit_moves_search = visit_moves_search(c);
    let next_actions_sink = crate::fewer_searches::next_actions_sink(c);
    let first_sink = crate::fewer_searches::first_sink(c);
    let initial = crate::state::initial(c);
    let position_pairs = rules_positions(c).into_iter().map(|(player, node)| quote!((#player, #node)));
    quote! {
        #board_edges

        #position_table

        /// The (player, rules position) pairs a state can have, sorted: the keeper at the start
        /// and, for every switch, its player at its target.
        const RULES_POSITIONS: &[(u32, u32)] = &[#(#position_pairs),*];

        /// Runs the main search; `Ok(true)` if the sink stopped it.
        #[inline]
        fn run<K: Sink>(st: &mut State, sc: &mut Scratch, k: &mut K) -> Result<bool, SearchError> {
            run_from(st, sc, k, dispatch)
        }

        /// Runs the main search by `search`: the dispatch on the rules position, or the node
        /// function of a rules position the caller knows.
        #[inline(always)]
        fn run_from<K: Sink>(
            st: &mut State,
            sc: &mut Scratch,
            k: &mut K,
            search: impl FnOnce(&mut State, &mut Scratch, &mut K) -> bool,
        ) -> Result<bool, SearchError> {
            sc.path.clear();
            #new_epoch
            #reset_guard
            #stack_prologue
            let stop = search(st, sc, k);
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
                edges: BOARD_EDGES.to_vec(),
                positions: #positions,
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
                #initial
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
                #visit_moves_search
                Ok(if stop { ControlFlow::Break(()) } else { ControlFlow::Continue(()) })
            }

            // Not `#[inline]`: the search is instantiated once, in the crate holding this module
            // (LTO still inlines across crates in release builds of generated crates).
            fn legal_moves(&self, s: &mut State, sc: &mut Scratch, out: &mut MoveList) -> Result<(), SearchError> {
                out.clear();
                // Past its bound the list dropped moves: an error, not a partial list.
                run(s, sc, &mut ListSink(out))?;
                out.check()
            }

            fn next_actions(&self, s: &mut State, sc: &mut Scratch, prefix: &[Action], out: &mut Vec<Action>) -> Result<(), SearchError> {
                run(s, sc, &mut #next_actions_sink)?;
                Ok(())
            }

            fn rules_fingerprint(&self) -> u64 {
                #rules_fingerprint
            }

            fn state_from_parts(&self, parts: &::rbg_core::StateParts) -> Result<State, ::rbg_core::StateCodecError> {
                state_from_parts(parts)
            }

            fn apply_move(&self, s: &mut State, m: &[Action]) {
                apply_move(s, m)
            }

            fn keeper_step(&self, s: &mut State, sc: &mut Scratch) -> Result<bool, SearchError> {
                if s.player != 0 {
                    return Ok(false);
                }
                run(s, sc, &mut #first_sink)
            }

            #monotonic

            #count_replay

            #children
        }

        /// Builds a state from its parts, checking every value against the game and rebuilding
        /// the derived data through `set_piece` (starting from the consistent `INITIAL`).
        fn state_from_parts(parts: &::rbg_core::StateParts) -> Result<State, ::rbg_core::StateCodecError> {
            let out_of_range = |what: &'static str, value: i128| ::rbg_core::StateCodecError::OutOfRange { what, value };
            if RULES_POSITIONS.binary_search(&(parts.player, parts.rules_state)).is_err() {
                return Err(out_of_range("rules state", i128::from(parts.rules_state)));
            }
            if parts.pieces.len() != VERTICES {
                return Err(out_of_range("vertex count", parts.pieces.len() as i128));
            }
            if parts.variables.len() != VARIABLES {
                return Err(out_of_range("variable count", parts.variables.len() as i128));
            }
            if parts.vertex as usize >= VERTICES {
                return Err(out_of_range("current vertex", i128::from(parts.vertex)));
            }
            let mut st = #initial;
            for (v, &piece) in parts.pieces.iter().enumerate() {
                if piece as usize >= PIECES {
                    return Err(out_of_range("piece id", i128::from(piece)));
                }
                set_piece(&mut st, v as Cell, piece as Piece);
            }
            for (slot, (&value, &bound)) in st.vars.iter_mut().zip(parts.variables.iter().zip(BOUNDS.iter())) {
                if value < 0 || value > bound {
                    return Err(out_of_range("variable value", i128::from(value)));
                }
                *slot = value as Var;
            }
            st.vertex = parts.vertex as Cell;
            st.player = parts.player as PlayerId;
            st.node = parts.rules_state as NodeId;
            Ok(st)
        }
    }
}

/// The statements of `visit_moves` that run the search with its visitor `visit` and set
/// `stop`. With `shared-visitor` they hand the visitor, as a `&mut dyn FnMut`, to
/// [`shared_visit_moves`]'s function, so every caller's closure reaches the one `VisitSink`
/// search, compiled once in the crate holding the module instead of once per closure (and per
/// crate calling it). Its callers are the cold paths (streaming when a list would overflow, the
/// C ABI, `has_legal_move`), so the indirect call per move costs little, while a copy of the
/// whole search per closure was a quarter or more of the build.
fn visit_moves_search(c: &Ctx) -> TokenStream {
    if !c.o.shared_visitor {
        let sink = crate::fewer_searches::visit_sink(c);
        return quote!(let stop = run(s, sc, &mut #sink)?;);
    }
    quote! {
        let mut visit = visit;
        let stop = visit_moves_shared(s, sc, &mut visit)?;
    }
}

/// With `shared-visitor` (module items): `visit_moves`'s search for every visitor.
pub(crate) fn shared_visit_moves(c: &Ctx) -> TokenStream {
    if !c.o.shared_visitor {
        return TokenStream::new();
    }
    let sink = crate::fewer_searches::visit_sink(c);
    quote! {
        /// `Game::visit_moves`'s search, shared by every visitor (not inlined: callers in other
        /// crates call it rather than compile the search again).
        #[inline(never)]
        fn visit_moves_shared(
            s: &mut State,
            sc: &mut Scratch,
            visit: &mut dyn FnMut(&[Action]) -> ControlFlow<()>,
        ) -> Result<bool, SearchError> {
            run(s, sc, &mut #sink)
        }
    }
}

/// The (player, rules position) pairs of states, as stored in `State`: the keeper at the start
/// and each switch's player at its target (the dead position when the target is unreachable).
fn rules_positions(c: &Ctx) -> Vec<(u32, u32)> {
    let dead = Layout::dead_node(c.p) as u32;
    let mut out: Vec<(u32, u32)> =
        c.p.modifiers()
            .iter()
            .filter_map(|m| match *m {
                Modifier::Switch { player, target } => Some((player, target.map_or(dead, NodeId::get))),
                _ => None,
            })
            .chain([(0, c.p.start().get())])
            .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// A fingerprint of the generated code's numbering of rules positions: the shape of the
/// automaton it numbers (nodes, each node's edge targets), the start, the dead position and
/// where each switch leads. The tag keeps it apart from the interpreter's numbering.
fn rules_fingerprint(c: &Ctx) -> u64 {
    // FNV-1a, 64 bit, as rbg-core's state codec uses (fixed by its definition, so the value
    // does not depend on the machine or on std's hasher).
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut feed = |bytes: &[u8]| {
        for &b in bytes {
            h = (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
        }
    };
    feed(b"rbg-compiler nodes");
    feed(&(c.p.nodes().len() as u64).to_le_bytes());
    feed(&u64::from(c.p.start().get()).to_le_bytes());
    feed(&Layout::dead_node(c.p).to_le_bytes());
    for n in 0..c.p.nodes().len() as u32 {
        let edges = c.p.node_edges(NodeId::new(n));
        feed(&(edges.len() as u64).to_le_bytes());
        for e in edges {
            feed(&u64::from(e.target().get()).to_le_bytes());
        }
    }
    for (player, node) in rules_positions(c) {
        feed(&u64::from(player).to_le_bytes());
        feed(&u64::from(node).to_le_bytes());
    }
    h
}

#[cfg(test)]
mod tests {
    use crate::{generate_source, CompileOptions};

    fn source(options: &CompileOptions) -> String {
        let text = "#players = a(1), b(1)\n#pieces = e, x\n#variables =\n\
                    #board = rectangle(up, down, left, right, [e, e][e, e])\n\
                    #rules = (->a (up* + down*)(left* + right*) {e} [x] ->b (up* + down*) {x} [e])*\n";
        let out = rbg_parser::parse("test.rbg", text.as_bytes());
        let game = out.game.unwrap_or_else(|| panic!("{:?}", out.diagnostics));
        let code = generate_source(&game, "test", options).expect("generates");
        // The header names the options; the rest is the code.
        code.replace(&options.fingerprint(), "")
    }

    /// With `shared-visitor`, `visit_moves` hands the caller's closure, as a `&mut dyn FnMut`,
    /// to one non-generic search (`#[inline(never)]`, so a crate calling it with its own
    /// closure does not compile the search again); off, it runs the search with the caller's
    /// own closure type. `visit_children` (perft's inner loop) runs its search with the
    /// caller's closure either way: no indirect call per child.
    #[test]
    fn the_visitors_are_shared_only_with_the_switch() {
        let shared = source(&CompileOptions::default());
        let own = source(&CompileOptions { shared_visitor: false, ..CompileOptions::default() });
        let (function, sink) = ("visit_moves_shared(", "run(s, sc, &mut VisitSink(visit))");
        let definition = format!("#[inline(never)]\nfn {function}");
        assert_eq!(shared.matches(&definition).count(), 1, "{shared}");
        // Defined once and called once (from the generic method).
        assert_eq!(shared.matches(function).count(), 2, "{shared}");
        assert_eq!(shared.matches(sink).count(), 1, "{shared}");
        assert_eq!(own.matches(sink).count(), 1, "{own}");
        assert!(!own.contains(function), "{own}");
        assert_eq!(shared.matches("dyn FnMut").count(), 1, "{shared}");
        assert!(!own.contains("dyn FnMut"), "{own}");
        // The generic `visit_moves` is thin: the search is not in it.
        let visit_moves = method(&shared, "fn visit_moves<F>");
        assert!(
            visit_moves.contains("visit_moves_shared(s, sc, &mut visit)") && !visit_moves.contains("run(")
        );
        // `visit_children` is the same search, in the generic method, with the switch or not.
        assert!(!shared.contains("visit_children_shared"), "{shared}");
        let children = method(&shared, "fn visit_children<F>");
        assert_eq!(children, method(&own, "fn visit_children<F>"));
        assert!(children.contains("run(s, sc, &mut sink)"), "{children}");
    }

    /// The text of the function starting at `head`, up to its closing brace at its indentation.
    fn method<'a>(code: &'a str, head: &str) -> &'a str {
        let start = code.find(head).unwrap_or_else(|| panic!("no {head} in {code}"));
        let indent = code[..start].rsplit('\n').next().map_or(0, str::len);
        let close = format!("\n{}}}", " ".repeat(indent));
        let end = code[start..].find(&close).map_or(code.len(), |e| start + e + close.len());
        &code[start..end]
    }
}
