//! The generated `Scratch` (the move path being built and, only when some node needs a visited
//! check, the stack of stamped visited layers, design notes 2.7) and the search sinks.

use proc_macro2::TokenStream;
use quote::quote;

use crate::ctx::Ctx;
use crate::tables::lit;

pub(crate) fn scratch(c: &Ctx) -> TokenStream {
    let mut guard_fields =
        if c.a.needs_guard() { quote!(mods: u32, failed: bool,) } else { TokenStream::new() };
    guard_fields.extend(crate::search::stack_scratch_field(c));
    guard_fields.extend(crate::board_sets::scratch_fields(c));
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
    let slots = lit(c.p.visited_slots() as u64);
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

pub(crate) fn sinks() -> TokenStream {
    quote! {
        /// Receives the moves of the main search.
        trait Sink {
            /// Keep the modifications of the move that stopped the search (keeper moves).
            const KEEP: bool;
            /// Record the move's actions in `Scratch::path` (not needed to apply a keeper move).
            const RECORD: bool = true;
            /// Keep piece counts and piece-location sets in step with the board while the
            /// search modifies it (a kept move's state must be exact; a listed move is applied
            /// again later, so its search may leave them behind).
            const DERIVED: bool = Self::KEEP;
            /// The sink takes the state after each move (`found_child`) instead of its
            /// actions (`found`).
            const CHILD: bool = false;
            /// A complete move whose switch would set `vertex`, `player` and `node`; `st`
            /// holds the move's other modifications. `true` stops the search.
            #[inline(always)]
            fn found_child(&mut self, _st: &State, _vertex: Cell, _player: PlayerId, _node: NodeId) -> bool {
                false
            }
            /// A complete move (its last action is the switch); `true` stops the search.
            fn found(&mut self, path: &[Action]) -> bool;
            /// The sink takes runs of moves by their number alone (`skip_moves`).
            const SKIPS: bool = false;
            /// The next `n` moves of the search are complete moves without modifications of
            /// their own (one per cell of a fan's whole-board set, design notes 6.3): returns
            /// how many of them, from the first, the sink takes as found without seeing them.
            /// None of those may stop the search; the search finds the rest one by one.
            #[inline(always)]
            fn skip_moves(&mut self, _n: u64) -> u64 {
                0
            }
            /// The sink dropped moves: the search may end early.
            #[inline(always)]
            fn overflowed(&self) -> bool {
                false
            }
            /// The sink looks at modifiers before a move is complete (`admit`, `resume`);
            /// `false` compiles those calls away.
            const FILTER: bool = false;
            /// Whether the move's action number `position` may be `action` (`false` prunes).
            #[inline(always)]
            fn admit(&mut self, _position: usize, _action: Action) -> bool {
                true
            }
            /// After `found` asked to stop: `Some(p)` abandons only the branches below the
            /// move's action number `p`, `None` stops the whole search.
            #[inline(always)]
            fn resume(&mut self) -> Option<usize> {
                None
            }
        }

        /// Reports a move whose length differs from the statically known one (never happens).
        #[cold]
        #[inline(never)]
        fn found_cold<K: Sink>(k: &mut K, path: &[Action]) -> bool {
            k.found(path)
        }

        /// Collects every move. It never stops the search: a constant `false` lets the compiler
        /// drop every stop test on the way back up (asking the list whether it overflowed cost
        /// compiled breakthrough playouts 15% of their instructions). Past its bound the list
        /// drops moves, so memory stays bounded, and `legal_moves` reports the overflow.
        struct ListSink<'a>(&'a mut MoveList);

        impl Sink for ListSink<'_> {
            const KEEP: bool = false;
            #[inline(always)]
            fn found(&mut self, path: &[Action]) -> bool {
                self.0.push(path);
                false
            }
            #[inline(always)]
            fn overflowed(&self) -> bool {
                self.0.overflowed()
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

        /// The next actions of a partial move (`Game::next_actions`): prunes modifiers that
        /// disagree with the prefix and abandons a next action's subtree at its first
        /// completion.
        struct NextActionsSink<'a>(::rbg_core::split::NextActionsFilter<'a>);

        impl Sink for NextActionsSink<'_> {
            const KEEP: bool = false;
            const FILTER: bool = true;
            #[inline(always)]
            fn found(&mut self, path: &[Action]) -> bool {
                self.0.found(path)
            }
            #[inline(always)]
            fn admit(&mut self, position: usize, action: Action) -> bool {
                self.0.admit(position, action)
            }
            #[inline(always)]
            fn resume(&mut self) -> Option<usize> {
                Some(self.0.resume_position())
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
