//! The generated `impl rbg_core::Game for Reasoner`, where `Reasoner` is a unit struct.

use proc_macro2::TokenStream;
use quote::quote;

use crate::ctx::Ctx;
use crate::monotonic;

pub(crate) fn game_impl(c: &Ctx) -> TokenStream {
    let monotonic = monotonic::monotonic(c);
    let label_names = c.g.board.labels.iter();
    let board_edges = c.g.board.vertices.iter().enumerate().flat_map(|(v, vertex)| {
        let v = v as u32;
        vertex.edges.iter().map(move |e| {
            let (label, target) = (e.label, e.target);
            quote!((#v, #label, #target))
        })
    });
    let stack_prologue = crate::search::stack_prologue(c);
    let positions = match &c.g.board.positions {
        Some(positions) => {
            let each = positions.iter().map(|p| {
                let ([x, y, z], [px, py]) = (p.coords, p.point);
                quote!(::rbg_core::VertexPosition { coords: [#x, #y, #z], point: [#px, #py] })
            });
            quote!(Some(vec![#(#each),*]))
        }
        None => quote!(None),
    };
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
