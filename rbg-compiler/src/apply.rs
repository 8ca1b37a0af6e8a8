//! The generated `apply_move`: a `match` on the action index per action (design notes 2.11), so
//! moves are applied without searching.

use proc_macro2::TokenStream;
use quote::quote;
use rbg_automaton::Modifier;

use crate::ctx::Ctx;
use crate::exprs::{self, Value};

pub(crate) fn apply(c: &Ctx) -> TokenStream {
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
    let arms = c.p.modifiers().iter().enumerate().filter_map(|(index, m)| {
        let index = index as u32;
        let body = match *m {
            Modifier::None => return None,
            Modifier::Off { piece } => {
                let name = &c.pieces[piece as usize];
                if c.o.lean_apply {
                    // The vertex test only where a piece is written (the others ignore it).
                    quote!(if (a.vertex as usize) < VERTICES { set_piece(st, at, #name) })
                } else {
                    quote!(set_piece(st, at, #name))
                }
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
                let node = c.target_value(target);
                quote!({ st.player = #player; st.node = #node; })
            }
        };
        Some(quote!(#index => #body,))
    });
    let skip = if c.o.lean_apply {
        TokenStream::new()
    } else {
        quote! {
            if a.vertex as usize >= VERTICES {
                continue;
            }
        }
    };
    quote! {
        /// Applies a legal move without checking it: one `match` arm per action index
        /// (assignments are recomputed in order, so later ones see earlier ones).
        fn apply_move(st: &mut State, m: &[Action]) {
            for a in m {
                #skip
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
