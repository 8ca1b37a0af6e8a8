//! The generated cache of monotonic classes (design notes 2.15): at a class's rules position a
//! later visit filters the cached move list instead of searching again. The cache is filled by a
//! scan of the class's cells ([`fill`]), and a move drawn from it is played straight into the
//! keeper's search that follows ([`play`]).

use proc_macro2::TokenStream;
use quote::quote;
use rbg_automaton::{Modifier, MonotonicClass};

use crate::ctx::Ctx;
use crate::tables::lit;

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
    let fill = if c.o.monotonic_fill { fill(c) } else { TokenStream::new() };
    let play = if c.o.fused_class_moves && c.o.unchecked_modifiers { play(c) } else { TokenStream::new() };
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

        #fill

        #play
    }
}

/// `Game::play_class_move`: a class's switch sets the player, rules position and cell, and when
/// it hands over to the keeper, the keeper's first step searches from the switch's target
/// directly; the driver's default would look the action up in `apply_move`'s `match`, then the
/// rules position up in the dispatch.
fn play(c: &Ctx) -> TokenStream {
    let rules_positions = c.rules_positions();
    let mut switches: Vec<u32> =
        c.p.monotonic().iter().flat_map(|class| class.switches().iter().map(|&(index, _)| index)).collect();
    switches.sort_unstable();
    switches.dedup();
    let arms = switches.into_iter().filter_map(|index| {
        let Some(&Modifier::Switch { player, target: Some(target) }) = c.p.modifiers().get(index as usize)
        else {
            return None;
        };
        let target = target.get();
        if !rules_positions.contains(&target) {
            return None;
        }
        let (player_value, node) = (c.l.player.lit(u64::from(player)), c.node_value(target));
        let switch = quote!(st.vertex = a.vertex as Cell; st.player = #player_value; st.node = #node;);
        Some(if player == 0 {
            let search = crate::search::search_from(c, target);
            let first = crate::fewer_searches::first_sink(c);
            quote!(#index => {
                #switch
                // The first of at most `keeper_limit` keeper steps.
                if keeper_limit == 0 {
                    return Err(SearchError::KeeperLoop { limit: 0 });
                }
                if !run_from(st, sc, &mut #first, |st, sc, k| #search)? {
                    return Ok(false);
                }
                return ::rbg_core::playout::complete_keeper_after(self, st, sc, 1, keeper_limit);
            })
        } else {
            quote!(#index => { #switch return Ok(true); })
        })
    });
    quote! {
        // Inlined into the playout loop, with the keeper's search it enters.
        #[inline]
        fn play_class_move(
            &self,
            st: &mut State,
            sc: &mut Scratch,
            _class: u32,
            a: Action,
            keeper_limit: u64,
        ) -> Result<bool, SearchError> {
            if (a.vertex as usize) < VERTICES {
                match a.index {
                    #(#arms)*
                    _ => {}
                }
            }
            apply_move(st, ::core::slice::from_ref(&a));
            self.complete_keeper(st, sc, keeper_limit)
        }
    }
}

/// `Game::monotonic_moves`: a class's moves listed straight from the state, in the search's
/// order, instead of by the move search the driver would otherwise run at the class's first
/// visit in every playout (in gomoku that search was a third of a playout's instructions).
fn fill(c: &Ctx) -> TokenStream {
    let arms = c.p.monotonic().iter().enumerate().map(|(i, class)| {
        let i = i as u32;
        let body = fill_class(c, class);
        quote!(#i => { #body })
    });
    quote! {
        fn monotonic_moves(&self, s: &State, class: u32, out: &mut Vec<Action>) -> bool {
            out.clear();
            match class {
                #(#arms)*
                _ => return false,
            }
            true
        }
    }
}

/// The statements pushing one class's moves onto `out`: cell by cell in the fan's row, and at
/// each cell the switches whose mask accepts its piece, in edge order (the search's order).
fn fill_class(c: &Ctx, class: &MonotonicClass) -> TokenStream {
    let cells = class.cells();
    let all_vertices = cells.len() == c.l.vertices && cells.iter().enumerate().all(|(i, &v)| i as u32 == v);
    // One switch over the whole board whose mask is a piece-location set the state keeps: its
    // bits are the moves (ascending, as the row and the search that iterates the set).
    if let ([(index, mask)], true) = (class.switches(), all_vertices) {
        let bits = mask_bits(mask);
        let set = bits.and_then(|m| c.a.tracked_masks().iter().position(|&t| t & piece_bits(c) == m));
        if let Some(set) = set {
            return quote!(::rbg_core::moves::push_set_bits(out, #index, &s.occ[#set]););
        }
    }
    let tests = class.switches().iter().map(|(index, mask)| {
        let pieces = c.piece_pattern(|p| mask.get(p).copied().unwrap_or(false));
        quote! {
            if matches!(piece, #pieces) {
                out.push(Action::new(#index, v as u32));
            }
        }
    });
    let body = quote! {
        let piece = s.pieces[v as usize];
        #(#tests)*
    };
    if all_vertices {
        quote! {
            for v in 0..VERTICES {
                #body
            }
        }
    } else {
        let n = cells.len();
        let cells = cells.iter().map(|&v| lit(u64::from(v)));
        quote! {
            static CELLS: [u32; #n] = [#(#cells),*];
            for &v in CELLS.iter() {
                #body
            }
        }
    }
}

/// A piece mask as the bits of a `u64` (`None` with more than 64 pieces).
fn mask_bits(mask: &[bool]) -> Option<u64> {
    if mask.len() > 64 {
        return None;
    }
    Some(mask.iter().enumerate().filter(|(_, &on)| on).fold(0, |m, (p, _)| m | 1 << p))
}

/// The bits of every piece id of the game (a tracked mask may have bits past them set).
fn piece_bits(c: &Ctx) -> u64 {
    match c.pieces.len() {
        n if n >= 64 => u64::MAX,
        n => (1u64 << n) - 1,
    }
}
