//! The generated cache of monotonic classes (design notes 2.15): at a class's rules position a
//! later visit filters the cached move list instead of searching again. The cache is filled by a
//! scan of the class's cells ([`fill`]), and a move drawn from it is played straight into the
//! keeper's search that follows ([`play`]). Where every class has one switch, the playout loop
//! itself is generated ([`playout`]): caches in fixed arrays of cells, no driver calls per ply.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
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
    let fused = c.o.fused_class_moves && c.o.unchecked_modifiers;
    let play = if fused { play(c) } else { TokenStream::new() };
    let playout =
        if fused && c.o.monotonic_fill && c.o.class_playouts { playout(c) } else { TokenStream::new() };
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

        #playout
    }
}

/// `Game::play_class_move`: a class's switch sets the player, rules position and cell, and when
/// it hands over to the keeper, the keeper's first step searches from the switch's target
/// directly; the driver's default would look the action up in `apply_move`'s `match`, then the
/// rules position up in the dispatch.
fn play(c: &Ctx) -> TokenStream {
    let mut switches: Vec<u32> =
        c.p.monotonic().iter().flat_map(|class| class.switches().iter().map(|&(index, _)| index)).collect();
    switches.sort_unstable();
    switches.dedup();
    let arms = switches.into_iter().filter_map(|index| {
        let first = crate::fewer_searches::first_sink(c);
        let body = class_move(c, index, &quote!(a.vertex as Cell), &first)?;
        Some(quote!(#index => return #body,))
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

/// The class switch `index` played at the cell `vertex` (an on-board `Cell` expression) and the
/// keeper completed, as a block of type `Result<bool, SearchError>` (`Game::play_class_move`'s
/// result), the keeper's first step searching into `sink` (a sink like `FirstSink`); `None`
/// when the switch is not a class move that can be fused (no target, or the target is not a
/// rules position).
fn class_move(c: &Ctx, index: u32, vertex: &TokenStream, sink: &TokenStream) -> Option<TokenStream> {
    let Some(&Modifier::Switch { player, target: Some(target) }) = c.p.modifiers().get(index as usize) else {
        return None;
    };
    let target = target.get();
    if !c.rules_positions().contains(&target) {
        return None;
    }
    let (player_value, node) = (c.l.player.lit(u64::from(player)), c.node_value(target));
    let switch = quote!(st.vertex = #vertex; st.player = #player_value; st.node = #node;);
    if player != 0 {
        return Some(quote!({ #switch Ok(true) }));
    }
    let search = crate::search::search_from(c, target);
    Some(quote!({
        #switch
        // The first of at most `keeper_limit` keeper steps.
        if keeper_limit == 0 {
            Err(SearchError::KeeperLoop { limit: 0 })
        } else if !run_from(st, sc, &mut #sink, |st, sc, k| #search)? {
            Ok(false)
        } else {
            ::rbg_core::playout::complete_keeper_after(self, st, sc, 1, keeper_limit)
        }
    }))
}

/// `Game::random_playout` for games whose every monotonic class has exactly one switch (every
/// corpus game with classes): rbg-core's loop with the class states' work inlined. Each class
/// keeps its moves as the cells of its switch in a fixed array (filled at the class's first
/// visit in the playout, in `monotonic_moves`' order), freshness is a bit of one word, the
/// draw is rbg-core's `draw_cached` (the generic driver's, so the same numbers and moves) and
/// the move is played as `play_class_move` plays it (with a sink type of its own, so that the
/// keeper's searches are inlined into the loop). States without a class take rbg-core's
/// `random_ply`. Empty where a class has several switches, there are more than 64 classes or
/// the board is packed (the arrays live on the stack).
fn playout(c: &Ctx) -> TokenStream {
    let classes = c.p.monotonic();
    if classes.len() > 64 || c.l.packed || classes.iter().any(|class| class.switches().len() != 1) {
        return TokenStream::new();
    }
    let mut caches = Vec::new();
    let mut arms = Vec::new();
    for (i, class) in classes.iter().enumerate() {
        let &[(index, ref mask)] = class.switches() else { return TokenStream::new() };
        let Some(play) = class_move(c, index, &quote!(v), &quote!(ClassSink)) else {
            return TokenStream::new();
        };
        let (cache, len) = (format_ident!("cache_{}", i), format_ident!("len_{}", i));
        let size = class.cells().len();
        caches.push(quote! {
            let mut #cache: [Cell; #size] = [0; #size];
            let mut #len: usize = 0;
        });
        let bit = 1u64 << i;
        let pieces = c.piece_pattern(|p| mask.get(p).copied().unwrap_or(false));
        let fill = fill_cells(c, class, &quote!({ #cache[#len] = v as Cell; #len += 1; }));
        let node = c.node_value(class.node().get());
        arms.push(quote! {
            #node => {
                if fresh & #bit == 0 {
                    fresh |= #bit;
                    #len = 0;
                    #fill
                    out.moves_seen += #len as u64;
                } else {
                    out.moves_exact = false;
                }
                let legal = |v: Cell| matches!(st.pieces[v as usize], #pieces);
                let Some(v) = draw_cached(&mut #cache, &mut #len, rng, legal) else {
                    return Ok(out);
                };
                count_ply(&mut out, limits)?;
                #play?
            }
        });
    }
    quote! {
        fn random_playout(
            &self,
            st: &mut State,
            sc: &mut Scratch,
            buffers: &mut ::rbg_core::playout::PlayoutBuffers,
            rng: &mut ::rbg_core::PlayoutRng,
            limits: &::rbg_core::playout::PlayoutLimits,
        ) -> Result<::rbg_core::playout::PlayoutOutcome, SearchError> {
            use ::rbg_core::playout::{count_ply, draw_cached, random_ply, PlayoutOutcome};
            /// `FirstSink` as a type of its own: the keeper's searches it runs are copies called
            /// from this loop alone, which the optimiser inlines into it (connect4: a tenth of
            /// a ply's instructions).
            struct ClassSink;
            impl Sink for ClassSink {
                const KEEP: bool = true;
                const RECORD: bool = false;
                #[inline(always)]
                fn found(&mut self, _path: &[Action]) -> bool {
                    true
                }
            }
            // A keeper limit of 0 fails at the first keeper step: the generic loop says so.
            if !limits.monotonic || limits.keeper_limit == 0 {
                return ::rbg_core::playout::random_playout(self, st, sc, buffers, rng, limits);
            }
            let keeper_limit = limits.keeper_limit;
            // The generator's words in a local for the loop, written back however it ends.
            let mut generator = rng.clone();
            let mut out = PlayoutOutcome { moves_exact: true, ..Default::default() };
            let mut fresh: u64 = 0;
            #(#caches)*
            let result = (|| loop {
                let rng = &mut generator;
                let ongoing = if st.player == 0 {
                    random_ply(self, st, sc, buffers, rng, limits, &mut out)?
                } else {
                    match st.node {
                        #(#arms)*
                        _ => random_ply(self, st, sc, buffers, rng, limits, &mut out)?,
                    }
                };
                if !ongoing {
                    return Ok(out);
                }
            })();
            *rng = generator;
            result
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
    if let (Some(set), [(index, _)]) = (class_set(c, class), class.switches()) {
        return quote!(::rbg_core::moves::push_set_bits(out, #index, &s.occ[#set]););
    }
    let all_vertices = whole_board(c, class);
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

/// Whether the class's cells are every vertex in order.
fn whole_board(c: &Ctx, class: &MonotonicClass) -> bool {
    let cells = class.cells();
    cells.len() == c.l.vertices && cells.iter().enumerate().all(|(i, &v)| i as u32 == v)
}

/// The piece-location set the state keeps whose bits are the class's moves: one switch over
/// the whole board whose mask is a tracked set (ascending, as the row and the search that
/// iterates the set).
fn class_set(c: &Ctx, class: &MonotonicClass) -> Option<usize> {
    let [(_, mask)] = class.switches() else { return None };
    if !whole_board(c, class) {
        return None;
    }
    let bits = mask_bits(mask)?;
    c.a.tracked_masks().iter().position(|&t| t & piece_bits(c) == bits)
}

/// Statements running `push` (a statement reading the cell `v: usize`) at each cell of a
/// one-switch class that holds a piece its switch accepts, in `fill_class`'s order: the bits of
/// its piece-location set, or a scan of its cells.
fn fill_cells(c: &Ctx, class: &MonotonicClass, push: &TokenStream) -> TokenStream {
    if let Some(set) = class_set(c, class) {
        return quote! {
            for (k, &word) in st.occ[#set].iter().enumerate() {
                let mut bits = word;
                while bits != 0 {
                    let v = k * 64 + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    #push
                }
            }
        };
    }
    let pieces =
        class.switches().iter().map(|(_, mask)| c.piece_pattern(|p| mask.get(p).copied().unwrap_or(false)));
    let n = class.cells().len();
    let cells = class.cells().iter().map(|&v| lit(u64::from(v)));
    quote! {
        static CELLS: [u32; #n] = [#(#cells),*];
        for &v in CELLS.iter() {
            let v = v as usize;
            if matches!(st.pieces[v], #(#pieces)|*) {
                #push
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
