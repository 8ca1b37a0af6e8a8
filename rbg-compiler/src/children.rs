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

/// The `Game` method overridden by the switch (inside the impl); empty when it is off. With
/// `shared-visitor` it hands the caller's closure, as a `&mut dyn FnMut`, to
/// `visit_children_shared` (see [`shared`]).
pub(crate) fn methods(c: &Ctx) -> TokenStream {
    if !c.o.visit_children {
        return TokenStream::new();
    }
    let body = if c.o.shared_visitor {
        quote! {
            let mut visit = visit;
            visit_children_shared(s, sc, child, &mut visit)
        }
    } else {
        search_body(c)
    };
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

/// With `shared-visitor` (module items): the children's search for every visitor, compiled
/// once in the crate holding the module. A generic `visit_children` would instantiate the
/// search in each crate that calls it with a closure of its own (every perft driver, every
/// test binary: a copy of the whole search per game each time); behind a `&mut dyn FnMut` the
/// callers share this one copy, at an indirect call per child.
pub(crate) fn shared(c: &Ctx) -> TokenStream {
    if !c.o.visit_children || !c.o.shared_visitor {
        return TokenStream::new();
    }
    let body = search_body(c);
    quote! {
        /// `Game::visit_children`'s search, shared by every visitor (not inlined: callers in
        /// other crates call it rather than compile the search again).
        #[inline(never)]
        fn visit_children_shared(
            s: &mut State,
            sc: &mut Scratch,
            child: &mut State,
            visit: &mut dyn FnMut(&mut State) -> ControlFlow<()>,
        ) -> Result<Option<u64>, SearchError> {
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
