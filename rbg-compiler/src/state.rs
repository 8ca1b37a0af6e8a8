//! The generated `State` (a `Copy` struct of fixed-size arrays: pieces with the off-board
//! sentinel cell last, variables, optional piece counts and piece-location sets, plus cell, player
//! and rules position), its initial value and `set_piece`.

use proc_macro2::TokenStream;
use quote::quote;
use rbg_automaton::Op;

use crate::ctx::Ctx;
use crate::packed;
use crate::tables::lit;

pub(crate) fn state(c: &Ctx) -> TokenStream {
    let l = &c.l;
    let pieces =
        c.p.initial_pieces().iter().map(|&x| lit(x as u64)).chain(std::iter::once(lit(l.piece_sentinel())));
    let start = c.node_value(c.p.start().get());
    let (counts_field, counts_init, counts_update) = if c.p.counts_pieces() {
        let mut counts = vec![0u64; c.g.pieces.len()];
        c.p.initial_pieces().iter().for_each(|&x| counts[x as usize] += 1);
        let counts = counts.into_iter().map(lit);
        (
            quote!(counts: [Count; PIECES],),
            quote!(counts: [#(#counts),*],),
            quote! {
                let old = st.pieces[at as usize];
                st.counts[old as usize] = st.counts[old as usize].wrapping_sub(1);
                st.counts[piece as usize] = st.counts[piece as usize].wrapping_add(1);
            },
        )
    } else {
        (TokenStream::new(), TokenStream::new(), TokenStream::new())
    };
    let PieceSets { field: occ_field, init: occ_init, update: occ_update, consts: occ_consts, packed_init } =
        piece_sets(c);
    // The initial state's fields after `pieces`, written once for both forms.
    let words = crate::word_tests::state_words(c);
    let (words_field, words_init, words_update, words_consts) =
        (&words.field, &words.init, &words.update, &words.consts);
    let rest =
        quote!(vars: [0; VARIABLES], #counts_init #occ_init #words_init vertex: 0, player: 0, node: #start,);
    let initial = if l.packed {
        // Decoded on first use: as a literal, a large board's state is a token per cell.
        let pieces = packed::pack(c.p.initial_pieces().iter().map(|&x| x as u64), 1);
        quote! {
            /// The initial state, before keeper completion (decoded on first use: a large board).
            pub static INITIAL: ::std::sync::LazyLock<State> = ::std::sync::LazyLock::new(|| {
                let mut st = State { pieces: [NO_PIECE; VERTICES + 1], #rest };
                for (slot, x) in st.pieces.iter_mut().take(VERTICES).zip(unpack(#pieces, 1)) {
                    *slot = x as Piece;
                }
                #packed_init
                st
            });
        }
    } else {
        quote! {
            /// The initial state, before keeper completion.
            pub const INITIAL: State = State { pieces: [#(#pieces),*], #rest };
        }
    };
    quote! {
        #occ_consts
        #words_consts

        /// A game state: board, variables, current cell, player and rules position.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub struct State {
            /// The piece on each cell; the last entry is the off-board sentinel's [`NO_PIECE`].
            pieces: [Piece; VERTICES + 1],
            vars: [Var; VARIABLES],
            #counts_field
            #occ_field
            #words_field
            vertex: Cell,
            player: PlayerId,
            node: NodeId,
        }

        #initial

        /// Puts `piece` on cell `at` (never the sentinel), keeping piece counts and
        /// piece-location sets.
        #[inline(always)]
        fn set_piece(st: &mut State, at: Cell, piece: Piece) {
            #counts_update
            #occ_update
            #words_update
            st.pieces[at as usize] = piece;
        }
    }
}

/// The state's piece-location sets, as tokens for its field, its initial value, its update in
/// `set_piece`, and its constants.
struct PieceSets {
    field: TokenStream,
    init: TokenStream,
    update: TokenStream,
    consts: TokenStream,
    /// Statements filling the sets of the packed initial state (empty for small boards, whose
    /// `init` holds the values).
    packed_init: TokenStream,
}

/// The expression of a copy of the initial state.
pub(crate) fn initial(c: &Ctx) -> TokenStream {
    if c.l.packed {
        quote!(*INITIAL)
    } else {
        quote!(INITIAL)
    }
}

fn piece_sets(c: &Ctx) -> PieceSets {
    if c.a.tracked_masks().is_empty() {
        let none = TokenStream::new;
        return PieceSets {
            field: none(),
            init: none(),
            update: none(),
            consts: none(),
            packed_init: none(),
        };
    }
    let words = c.l.vertices.div_ceil(64);
    let sets = lit(c.a.tracked_masks().len() as u64);
    let bits = |mask: u64| {
        let mut bits = vec![0u64; words];
        for (v, &piece) in c.p.initial_pieces().iter().enumerate() {
            if piece < 64 && (mask >> piece) & 1 == 1 {
                bits[v / 64] |= 1 << (v % 64);
            }
        }
        bits
    };
    let (init, packed_init) = if c.l.packed {
        let texts = c.a.tracked_masks().iter().map(|&mask| packed::pack(bits(mask), 1));
        let sets = lit(c.a.tracked_masks().len() as u64);
        (
            quote!(occ: [[0; OCC_WORDS]; #sets],),
            quote! {
                for (set, text) in st.occ.iter_mut().zip([#(#texts),*]) {
                    for (word, x) in set.iter_mut().zip(unpack(text, 1)) {
                        *word = x;
                    }
                }
            },
        )
    } else {
        let init = c.a.tracked_masks().iter().map(|&mask| {
            let bits = bits(mask);
            quote!([#(#bits),*])
        });
        (quote!(occ: [#(#init),*],), TokenStream::new())
    };
    let masks = c.a.tracked_masks().iter();
    let described: Vec<String> = c.a.tracked_masks().iter().map(|&m| c.describe_op(&Op::On(m))).collect();
    let masks_doc =
        format!("The piece masks of the piece-location sets (design notes 6.2): {}.", described.join(", "));
    let words = lit(words as u64);
    PieceSets {
        field: quote!(
            /// Bit `v` of `occ[k]` is set when cell `v` holds a piece of `OCC_MASKS[k]`.
            occ: [[u64; OCC_WORDS]; #sets],
        ),
        init,
        update: quote! {
            let (word, bit) = (at as usize / 64, 1u64 << (at as usize % 64));
            for (set, mask) in st.occ.iter_mut().zip(OCC_MASKS) {
                let holds = (mask >> piece) & 1;
                set[word] = (set[word] & !bit) | (bit * holds);
            }
        },
        consts: quote! {
            /// Words of a piece-location set.
            const OCC_WORDS: usize = #words;
            #[doc = #masks_doc]
            const OCC_MASKS: [u64; #sets] = [#(#masks),*];
        },
        packed_init,
    }
}
