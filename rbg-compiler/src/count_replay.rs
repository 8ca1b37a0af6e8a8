//! Count and replay (`count_replay`): two searches that record no move, so that a playout can
//! draw a move without storing the move list. One counts the legal moves; the other stops at
//! the drawn move's number and keeps it applied, as a keeper move is applied (`Sink::KEEP`).
//! The playout driver (`rbg_core::playout`) chooses between them and listing per state.

use proc_macro2::TokenStream;
use quote::quote;

use crate::ctx::Ctx;

/// The sinks of the two searches (module items); empty when the switch is off.
pub(crate) fn sinks(c: &Ctx) -> TokenStream {
    if !c.o.count_replay {
        return TokenStream::new();
    }
    quote! {
        /// Counts the moves. Like `ListSink` it never stops the search (a constant `false`
        /// compiles every stop test away); the search itself is finite.
        struct CountSink(u64);

        impl Sink for CountSink {
            const KEEP: bool = false;
            const RECORD: bool = false;
            #[inline(always)]
            fn found(&mut self, _path: &[Action]) -> bool {
                self.0 += 1;
                false
            }
            const SKIPS: bool = true;
            #[inline(always)]
            fn skip_moves(&mut self, n: u64) -> u64 {
                self.0 += n;
                n
            }
        }

        /// Stops at the move with the given number (from 0) and keeps it applied.
        struct NthSink(u64);

        impl Sink for NthSink {
            const KEEP: bool = true;
            const RECORD: bool = false;
            #[inline(always)]
            fn found(&mut self, _path: &[Action]) -> bool {
                if self.0 == 0 {
                    return true;
                }
                self.0 -= 1;
                false
            }
            const SKIPS: bool = true;
            /// The moves before the wanted one.
            #[inline(always)]
            fn skip_moves(&mut self, n: u64) -> u64 {
                let skipped = n.min(self.0);
                self.0 -= skipped;
                skipped
            }
        }
    }
}

/// The `Game` methods overridden by the switch (inside the impl); empty when it is off.
pub(crate) fn methods(c: &Ctx) -> TokenStream {
    if !c.o.count_replay {
        return TokenStream::new();
    }
    let set_count = crate::set_moves::count_arms(c);
    let set_nth = crate::set_moves::nth_arms(c);
    let nth = crate::fewer_searches::nth_sink(c, quote!(n));
    quote! {
        fn count_moves(&self, s: &mut State, sc: &mut Scratch) -> Result<Option<u64>, SearchError> {
            #set_count
            let mut count = CountSink(0);
            run(s, sc, &mut count)?;
            Ok(Some(count.0))
        }

        fn apply_nth_move(&self, s: &mut State, sc: &mut Scratch, n: u64) -> Result<bool, SearchError> {
            #set_nth
            run(s, sc, &mut #nth)
        }
    }
}
