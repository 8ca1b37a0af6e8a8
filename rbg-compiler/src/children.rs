//! Children from the search (`visit_children`): a search whose sink, at each move it finds,
//! copies the working state (which then holds the move's modifications, kept exact by
//! `Sink::DERIVED`) and sets what the move's switch sets. Perft (`rbg_core::perft`) counts
//! every ply from it instead of listing the moves and applying each: no list, and no second
//! pass over a move's actions.

use proc_macro2::TokenStream;
use quote::quote;

use crate::ctx::Ctx;

/// The sink of the search (module items); empty when the switch is off.
pub(crate) fn sinks(c: &Ctx) -> TokenStream {
    if !c.o.visit_children {
        return TokenStream::new();
    }
    quote! {
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
                self.child.clone_from(st);
                self.child.vertex = vertex;
                self.child.player = player;
                self.child.node = node;
                self.visited += 1;
                (self.visit)(self.child).is_break()
            }
        }
    }
}

/// The `Game` method overridden by the switch (inside the impl); empty when it is off.
pub(crate) fn methods(c: &Ctx) -> TokenStream {
    if !c.o.visit_children {
        return TokenStream::new();
    }
    let sets = crate::set_moves::children_arms(c);
    let search = crate::fewer_searches::visit_children_body(c);
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
            let mut visit = visit;
            #sets
            #search
        }
    }
}
