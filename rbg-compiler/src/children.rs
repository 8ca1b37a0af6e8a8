//! Children from the search (`visit_children`): a search whose sink, at each move it finds,
//! copies the working state (which then holds the move's modifications, kept exact by
//! `Sink::DERIVED`) and sets what the move's switch sets. Perft (`rbg_core::perft`) counts
//! every ply from it instead of listing the moves and applying each: no list, and no second
//! pass over a move's actions.

use proc_macro2::TokenStream;
use quote::quote;

use crate::ctx::Ctx;

/// The sink of the search and the child builder it shares with `fewer-searches`'s `StateSink`
/// (module items); empty when neither uses them.
pub(crate) fn sinks(c: &Ctx) -> TokenStream {
    let builder = if c.o.visit_children || c.fewer_searches { build_child() } else { TokenStream::new() };
    if !c.o.visit_children {
        return builder;
    }
    quote! {
        #builder

        /// Builds the state after each move in `child` and hands it to a visitor.
        struct ChildSink<'a, F> {
            child: &'a mut State,
            visit: F,
            visited: u64,
        }

        impl<F: FnMut(&mut State) -> ControlFlow<()>> Sink for ChildSink<'_, F> {
            const KEEP: bool = false;
            const RECORD: bool = false;
            const DERIVED: bool = true;
            const CHILD: bool = true;
            #[inline(always)]
            fn found(&mut self, _path: &[Action]) -> bool {
                false
            }
            #[inline(always)]
            fn found_child(&mut self, st: &State, vertex: Cell, player: PlayerId, node: NodeId) -> bool {
                build_child(self.child, st, vertex, player, node);
                self.visited += 1;
                (self.visit)(self.child).is_break()
            }
        }
    }
}

/// The function building a child (a module item), one definition for every sink that builds
/// children (`ChildSink`, `StateSink::Child`), so that what a child is stays in one place.
fn build_child() -> TokenStream {
    quote! {
        /// Builds in `child` the state after the move just found: `st` is the working state,
        /// which holds the move's modifications (kept exact by `Sink::DERIVED`), and the
        /// move's switch sets the rules position `vertex`, `player` and `node`.
        #[inline(always)]
        fn build_child(child: &mut State, st: &State, vertex: Cell, player: PlayerId, node: NodeId) {
            child.clone_from(st);
            child.vertex = vertex;
            child.player = player;
            child.node = node;
        }
    }
}

/// The `Game` method overridden by the switch (inside the impl); empty when it is off. The
/// search is generic over the caller's visitor, so perft's closure is called directly at each
/// child (no `&mut dyn FnMut`, whatever `shared-visitor` says): a user's crate calls it from
/// one place, where sharing would save no build time. Crates with many callers route them
/// through one non-generic function of their own (rbg-compiled-tests: `SharedChildren`).
pub(crate) fn methods(c: &Ctx) -> TokenStream {
    if !c.o.visit_children {
        return TokenStream::new();
    }
    let body = search_body(c);
    quote! {
        fn visit_children<F>(
            &self,
            s: &mut State,
            sc: &mut Scratch,
            child: &mut State,
            visit: F,
        ) -> Result<Option<u64>, SearchError>
        where
            F: FnMut(&mut State) -> ControlFlow<()>,
        {
            #body
        }
    }
}

/// The statements of the children's search, with the visitor in `visit`.
fn search_body(c: &Ctx) -> TokenStream {
    let sets = crate::set_moves::children_arms(c);
    let search = crate::fewer_searches::visit_children_body(c);
    quote! {
        let mut visit = visit;
        #sets
        #search
    }
}
