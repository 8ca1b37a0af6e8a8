//! The generated cache of monotonic classes (design notes 2.15): at a class's rules position a
//! later visit filters the cached move list instead of searching again.

use proc_macro2::TokenStream;
use quote::quote;

use crate::ctx::Ctx;

pub(crate) fn monotonic(c: &Ctx) -> TokenStream {
    if c.p.monotonic().is_empty() {
        return TokenStream::new();
    }
    let classes = c.p.monotonic().iter().enumerate().map(|(i, class)| {
        let node = c.node_value(class.node().get());
        let i = i as u32;
        quote!(#node => Some(#i),)
    });
    let legal = c.p.monotonic().iter().flat_map(|class| class.switches().iter()).map(|(index, mask)| {
        let pieces = c.piece_pattern(|p| mask.get(p).copied().unwrap_or(false));
        quote!(#index => matches!(piece, #pieces),)
    });
    let count = c.p.monotonic().len() as u32;
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
