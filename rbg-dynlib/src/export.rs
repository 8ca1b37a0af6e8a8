//! The exporting half of the C ABI: what a reasoner crate built as a `cdylib` expands.
//!
//! ```ignore
//! rbg_dynlib::export_c_abi!(Reasoner);              // `Reasoner: Game + Default`
//! rbg_dynlib::export_c_abi!(Nim = Nim::new(7));     // or any expression
//! ```
//!
//! The macro defines the game's [`Exporter`] and expands the declaration
//! ([`crate::declaration`]) into one `#[no_mangle] extern "C"` shim per function, each a call of
//! the method of the same name of [`Exports`], where the bodies are written once for every
//! `G: Game`. The exporting crate needs `rbg-dynlib` without its default `loader` feature (so
//! without libloading).
//!
//! # Safety
//!
//! The bodies take raw pointers; the caller of an exported function must pass pointers made by
//! the same library and not yet freed (null is refused with [`AbiStatus::NULL_ARGUMENT`] or
//! ignored), and buffers of at least the capacity it states. Each body runs inside a panic
//! guard, so a panic of the reasoner becomes a status, never an unwind into the caller.

use core::ops::ControlFlow;
use core::panic::AssertUnwindSafe;
use std::panic::catch_unwind;

use rbg_core::playout::{PlayoutBuffers, PlayoutOutcome};
use rbg_core::{Game, MoveList, PlayoutRng, SearchError};

use crate::abi::{
    c_void, copy_moves, encode_info, AbiMoves, AbiPerftCounts, AbiPerftOptions, AbiPlayoutLimits,
    AbiPlayoutOutcome, AbiStatus, AbiVisitor, Action,
};

/// The reasoner a library exports: made once, on first use (see
/// [`export_c_abi!`](crate::export_c_abi), which implements this trait).
pub trait Exporter: 'static {
    /// The reasoner's type.
    type Game: Game;
    /// The reasoner, made on the first call.
    fn game() -> &'static Self::Game;
}

/// The library-side scratch: the reasoner's own plus the last move list generated and the
/// buffers of `rbg_random_playout`.
pub struct AbiScratch<G: Game> {
    /// The reasoner's scratch.
    pub scratch: G::Scratch,
    /// The moves of the last `rbg_legal_moves` call, kept so that a caller whose buffer was too
    /// small can fetch them with `rbg_last_moves` without a second search.
    pub moves: MoveList,
    /// Made by the first playout, remade when a playout asks for another move-list bound.
    pub playout: Option<PlayoutBuffers>,
    /// The next actions of the last `rbg_next_actions` call.
    pub next: Vec<Action>,
}

impl<G: Game> AbiScratch<G> {
    /// A fresh scratch for `game`.
    pub fn new(game: &G) -> Self {
        AbiScratch { scratch: game.new_scratch(), moves: MoveList::new(), playout: None, next: Vec::new() }
    }

    /// One random playout from `s` with the library's own buffers (`rbg_random_playout`).
    pub fn random_playout(
        &mut self,
        game: &G,
        s: &mut G::State,
        rng: &mut PlayoutRng,
        limits: &AbiPlayoutLimits,
    ) -> Result<PlayoutOutcome, SearchError> {
        let max_actions = usize::try_from(limits.max_move_actions).unwrap_or(usize::MAX);
        let buffers = match &mut self.playout {
            Some(b) if b.max_actions() == max_actions => b,
            slot => slot.insert(PlayoutBuffers::new(game, max_actions)),
        };
        game.random_playout(s, &mut self.scratch, buffers, rng, &limits.limits())
    }
}

/// The bodies of the exported functions for the reasoner of `E`, one method per declared
/// function, named like it (see the module documentation for the contract).
pub struct Exports<E>(core::marker::PhantomData<E>);

type State<E> = <<E as Exporter>::Game as Game>::State;

const NULL: AbiStatus = AbiStatus::code(AbiStatus::NULL_ARGUMENT);
const PANIC: AbiStatus = AbiStatus::code(AbiStatus::PANIC);

/// Runs `f`, turning a panic into `fallback`.
#[inline]
fn guard<T>(fallback: T, f: impl FnOnce() -> T) -> T {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or(fallback)
}

/// A slice from a pointer and a length; empty for a null pointer.
unsafe fn slice<'a, T>(p: *const T, len: usize) -> &'a [T] {
    if len == 0 || p.is_null() {
        &[]
    } else {
        core::slice::from_raw_parts(p, len)
    }
}

/// A mutable slice from a pointer and a length; empty for a null pointer.
unsafe fn slice_mut<'a, T>(p: *mut T, len: usize) -> &'a mut [T] {
    if len == 0 || p.is_null() {
        &mut []
    } else {
        core::slice::from_raw_parts_mut(p, len)
    }
}

/// Writes `bytes` to `out` if they fit in `cap`; returns their size (the size-reporting
/// convention of `rbg_game_info` and `rbg_state_debug`).
unsafe fn write_sized(bytes: &[u8], out: *mut u8, cap: usize) -> usize {
    if bytes.len() <= cap && !out.is_null() {
        core::ptr::copy_nonoverlapping(bytes.as_ptr(), out, bytes.len());
    }
    bytes.len()
}

fn flag(r: Result<bool, SearchError>, out: &mut u32) -> AbiStatus {
    *out = matches!(r, Ok(true)) as u32;
    AbiStatus::of_search(r.map(|_| ()))
}

#[allow(clippy::missing_safety_doc)] // the contract is the module's
impl<E: Exporter> Exports<E> {
    fn game() -> &'static E::Game {
        E::game()
    }

    unsafe fn state<'a>(p: *const c_void) -> Option<&'a State<E>> {
        (p as *const State<E>).as_ref()
    }

    unsafe fn state_mut<'a>(p: *mut c_void) -> Option<&'a mut State<E>> {
        (p as *mut State<E>).as_mut()
    }

    unsafe fn scratch<'a>(p: *mut c_void) -> Option<&'a mut AbiScratch<E::Game>> {
        (p as *mut AbiScratch<E::Game>).as_mut()
    }

    fn boxed(s: State<E>) -> *mut c_void {
        Box::into_raw(Box::new(s)) as *mut c_void
    }

    /// The state and scratch of a search, or `None` if either is null.
    unsafe fn search_args<'a>(
        s: *mut c_void,
        sc: *mut c_void,
    ) -> Option<(&'a mut State<E>, &'a mut AbiScratch<E::Game>)> {
        Some((Self::state_mut(s)?, Self::scratch(sc)?))
    }

    pub unsafe fn rbg_abi_version() -> u32 {
        crate::ABI_VERSION
    }

    /// Writes the encoded game information if it fits in `cap` bytes; returns its size.
    pub unsafe fn rbg_game_info(out: *mut u8, cap: usize) -> usize {
        guard(0, || write_sized(&encode_info(Self::game().info()), out, cap))
    }

    pub unsafe fn rbg_scratch_new() -> *mut c_void {
        guard(core::ptr::null_mut(), || Box::into_raw(Box::new(AbiScratch::new(Self::game()))) as *mut c_void)
    }

    pub unsafe fn rbg_scratch_free(sc: *mut c_void) {
        if !sc.is_null() {
            guard((), || drop(Box::from_raw(sc as *mut AbiScratch<E::Game>)));
        }
    }

    pub unsafe fn rbg_state_initial() -> *mut c_void {
        guard(core::ptr::null_mut(), || Self::boxed(Self::game().initial_state()))
    }

    pub unsafe fn rbg_state_clone(s: *const c_void) -> *mut c_void {
        guard(core::ptr::null_mut(), || {
            Self::state(s).map_or(core::ptr::null_mut(), |s| Self::boxed(s.clone()))
        })
    }

    pub unsafe fn rbg_state_copy(dst: *mut c_void, src: *const c_void) {
        guard((), || {
            if let (Some(d), Some(s)) = (Self::state_mut(dst), Self::state(src)) {
                d.clone_from(s);
            }
        })
    }

    pub unsafe fn rbg_state_free(s: *mut c_void) {
        if !s.is_null() {
            guard((), || drop(Box::from_raw(s as *mut State<E>)));
        }
    }

    pub unsafe fn rbg_state_eq(a: *const c_void, b: *const c_void) -> u32 {
        guard(0, || match (Self::state(a), Self::state(b)) {
            (Some(a), Some(b)) => (a == b) as u32,
            _ => 0,
        })
    }

    /// Writes the state's `Debug` text if it fits in `cap` bytes; returns its size.
    pub unsafe fn rbg_state_debug(s: *const c_void, out: *mut u8, cap: usize) -> usize {
        guard(0, || Self::state(s).map_or(0, |s| write_sized(format!("{s:?}").as_bytes(), out, cap)))
    }

    pub unsafe fn rbg_current_player(s: *const c_void) -> u32 {
        guard(0, || Self::state(s).map_or(0, |s| Self::game().current_player(s)))
    }

    pub unsafe fn rbg_current_vertex(s: *const c_void) -> u32 {
        guard(0, || Self::state(s).map_or(0, |s| Self::game().current_vertex(s)))
    }

    pub unsafe fn rbg_rules_state(s: *const c_void) -> u32 {
        guard(0, || Self::state(s).map_or(0, |s| Self::game().rules_state(s)))
    }

    /// The piece on a vertex; 0 for a vertex out of range.
    pub unsafe fn rbg_piece(s: *const c_void, vertex: u32) -> u32 {
        let game = Self::game();
        guard(0, || match Self::state(s) {
            Some(s) if (vertex as usize) < game.info().vertices.len() => game.piece(s, vertex),
            _ => 0,
        })
    }

    /// A variable's value; 0 for a variable out of range.
    pub unsafe fn rbg_variable(s: *const c_void, var: u64) -> i64 {
        let game = Self::game();
        guard(0, || match Self::state(s) {
            Some(s) if var < game.info().variables.len() as u64 => game.variable(s, var as usize),
            _ => 0,
        })
    }

    /// A real player's score; 0 for a player out of range.
    pub unsafe fn rbg_score(s: *const c_void, player: u32) -> i64 {
        let game = Self::game();
        guard(0, || match Self::state(s) {
            Some(s) if player >= 1 && player as usize <= game.info().num_players() => game.score(s, player),
            _ => 0,
        })
    }

    /// Generates the legal moves into the scratch and copies them to `out` if they fit;
    /// otherwise reports `BUFFER_TOO_SMALL` with the sizes set in `out` (fetch them with
    /// `rbg_last_moves` after growing the buffers).
    pub unsafe fn rbg_legal_moves(s: *mut c_void, sc: *mut c_void, out: *mut AbiMoves) -> AbiStatus {
        guard(PANIC, || {
            let Some((s, scratch)) = Self::search_args(s, sc) else { return NULL };
            let r = Self::game().legal_moves(s, &mut scratch.scratch, &mut scratch.moves);
            if r.is_err() {
                return AbiStatus::of_search(r);
            }
            Self::rbg_last_moves(sc, out)
        })
    }

    /// Copies the moves of the last `rbg_legal_moves` call on this scratch to `out`.
    pub unsafe fn rbg_last_moves(sc: *mut c_void, out: *mut AbiMoves) -> AbiStatus {
        guard(PANIC, || {
            let (Some(sc), Some(out)) = (Self::scratch(sc), out.as_mut()) else { return NULL };
            let actions = slice_mut(out.actions, out.actions_cap);
            let ends = slice_mut(out.ends, out.ends_cap);
            let (total, count, copied) = copy_moves(&sc.moves, actions, ends);
            out.actions_len = total;
            out.moves_len = count;
            if copied {
                AbiStatus::ok()
            } else {
                AbiStatus { code: AbiStatus::BUFFER_TOO_SMALL, detail: total as u64 }
            }
        })
    }

    /// The next actions of the partial move `prefix` (`Game::next_actions`), passed to one call
    /// of `visit(ctx, actions)` (its answer is ignored).
    pub unsafe fn rbg_next_actions(
        s: *mut c_void,
        sc: *mut c_void,
        prefix: *const Action,
        prefix_len: usize,
        visit: AbiVisitor,
        ctx: *mut c_void,
    ) -> AbiStatus {
        guard(PANIC, || {
            let Some((s, sc)) = Self::search_args(s, sc) else { return NULL };
            let r = Self::game().next_actions(s, &mut sc.scratch, slice(prefix, prefix_len), &mut sc.next);
            if r.is_ok() {
                visit(ctx, sc.next.as_ptr(), sc.next.len());
            }
            AbiStatus::of_search(r)
        })
    }

    /// Calls `visit(ctx, move)` for each legal move until it returns nonzero; `stopped` is set
    /// to 1 if it did.
    pub unsafe fn rbg_visit_moves(
        s: *mut c_void,
        sc: *mut c_void,
        visit: AbiVisitor,
        ctx: *mut c_void,
        stopped: *mut u32,
    ) -> AbiStatus {
        guard(PANIC, || {
            let (Some((s, sc)), Some(stopped)) = (Self::search_args(s, sc), stopped.as_mut()) else {
                return NULL;
            };
            let r = Self::game().visit_moves(s, &mut sc.scratch, |m| {
                if visit(ctx, m.as_ptr(), m.len()) != 0 {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            });
            *stopped = matches!(r, Ok(ControlFlow::Break(()))) as u32;
            AbiStatus::of_search(r.map(|_| ()))
        })
    }

    /// Applies a move without checking it (as `Game::apply_move`).
    pub unsafe fn rbg_apply_move(s: *mut c_void, m: *const Action, len: usize) -> AbiStatus {
        guard(PANIC, || {
            let Some(s) = Self::state_mut(s) else { return NULL };
            Self::game().apply_move(s, slice(m, len));
            AbiStatus::ok()
        })
    }

    pub unsafe fn rbg_keeper_step(s: *mut c_void, sc: *mut c_void, stepped: *mut u32) -> AbiStatus {
        guard(PANIC, || {
            let (Some((s, sc)), Some(out)) = (Self::search_args(s, sc), stepped.as_mut()) else {
                return NULL;
            };
            flag(Self::game().keeper_step(s, &mut sc.scratch), out)
        })
    }

    pub unsafe fn rbg_has_legal_move(s: *mut c_void, sc: *mut c_void, has: *mut u32) -> AbiStatus {
        guard(PANIC, || {
            let (Some((s, sc)), Some(out)) = (Self::search_args(s, sc), has.as_mut()) else { return NULL };
            flag(Self::game().has_legal_move(s, &mut sc.scratch), out)
        })
    }

    pub unsafe fn rbg_complete_keeper(
        s: *mut c_void,
        sc: *mut c_void,
        limit: u64,
        player_to_move: *mut u32,
    ) -> AbiStatus {
        guard(PANIC, || {
            let (Some((s, sc)), Some(out)) = (Self::search_args(s, sc), player_to_move.as_mut()) else {
                return NULL;
            };
            flag(Self::game().complete_keeper(s, &mut sc.scratch, limit), out)
        })
    }

    pub unsafe fn rbg_monotonic_classes() -> u32 {
        guard(0, || Self::game().monotonic_classes())
    }

    /// The state's monotonic class, or -1.
    pub unsafe fn rbg_monotonic_class(s: *const c_void) -> i64 {
        guard(-1, || Self::state(s).and_then(|s| Self::game().monotonic_class(s)).map_or(-1, i64::from))
    }

    pub unsafe fn rbg_is_still_legal(s: *const c_void, m: *const Action, len: usize) -> u32 {
        guard(0, || Self::state(s).is_some_and(|s| Self::game().is_still_legal(s, slice(m, len))) as u32)
    }

    /// Writes the state's encoding if it fits in `cap` bytes; `len` gets its size.
    pub unsafe fn rbg_state_encode(s: *const c_void, out: *mut u8, cap: usize, len: *mut usize) -> AbiStatus {
        guard(PANIC, || {
            let (Some(s), Some(len)) = (Self::state(s), len.as_mut()) else { return NULL };
            let mut bytes = Vec::new();
            Self::game().encode_state(s, &mut bytes);
            *len = bytes.len();
            if bytes.len() > cap || out.is_null() {
                return AbiStatus { code: AbiStatus::BUFFER_TOO_SMALL, detail: bytes.len() as u64 };
            }
            core::ptr::copy_nonoverlapping(bytes.as_ptr(), out, bytes.len());
            AbiStatus::ok()
        })
    }

    /// Decodes a state into `*out`; on failure writes as much of the error message as fits in
    /// `msg_cap` bytes of `msg` and its full size to `msg_len`.
    pub unsafe fn rbg_state_decode(
        bytes: *const u8,
        len: usize,
        out: *mut *mut c_void,
        msg: *mut u8,
        msg_cap: usize,
        msg_len: *mut usize,
    ) -> AbiStatus {
        guard(PANIC, || {
            let Some(out) = out.as_mut() else { return NULL };
            match Self::game().decode_state(slice(bytes, len)) {
                Ok(s) => {
                    *out = Self::boxed(s);
                    AbiStatus::ok()
                }
                Err(e) => {
                    let text = e.to_string();
                    if !msg.is_null() {
                        core::ptr::copy_nonoverlapping(text.as_ptr(), msg, text.len().min(msg_cap));
                    }
                    if let Some(msg_len) = msg_len.as_mut() {
                        *msg_len = text.len();
                    }
                    AbiStatus::of_codec_error(&e)
                }
            }
        })
    }

    /// One random playout from `s` to the end of the game, run here (see
    /// `Game::random_playout`) with the caller's generator, whose four state words `rng` points
    /// to (read, then written back), with buffers kept in the scratch.
    pub unsafe fn rbg_random_playout(
        s: *mut c_void,
        sc: *mut c_void,
        rng: *mut u64,
        limits: *const AbiPlayoutLimits,
        out: *mut AbiPlayoutOutcome,
    ) -> AbiStatus {
        guard(PANIC, || {
            let (Some((s, sc)), Some(limits), Some(out)) =
                (Self::search_args(s, sc), limits.as_ref(), out.as_mut())
            else {
                return NULL;
            };
            if rng.is_null() {
                return NULL;
            }
            let words = slice_mut(rng, 4);
            let mut generator = PlayoutRng::from_state([words[0], words[1], words[2], words[3]]);
            let r = sc.random_playout(Self::game(), s, &mut generator, limits);
            words.copy_from_slice(&generator.state());
            if let Ok(o) = r {
                *out = o.into();
            }
            AbiStatus::of_search(r.map(|_| ()))
        })
    }

    /// Counts the perft subtree of `s` (see `Game::perft_subtree`), run here.
    pub unsafe fn rbg_perft_subtree(
        s: *mut c_void,
        sc: *mut c_void,
        depth: u32,
        opts: *const AbiPerftOptions,
        out: *mut AbiPerftCounts,
    ) -> AbiStatus {
        guard(PANIC, || {
            let (Some((s, sc)), Some(opts), Some(out)) =
                (Self::search_args(s, sc), opts.as_ref(), out.as_mut())
            else {
                return NULL;
            };
            let r = Self::game().perft_subtree(s, &mut sc.scratch, depth, &opts.options());
            if let Ok(c) = r {
                *out = AbiPerftCounts { leaves: c.leaves, nodes: c.nodes };
            }
            AbiStatus::of_search(r.map(|_| ()))
        })
    }
}

/// Exports a reasoner (a [`Game`]) through the C ABI (see [`crate::export`]). Invoke once, at
/// the root of a crate built as a `cdylib`. `export_c_abi!(T)` needs `T: Default`;
/// `export_c_abi!(T = expr)` builds the game with `expr` on first use.
#[macro_export]
macro_rules! export_c_abi {
    ($ty:ty) => {
        $crate::export_c_abi!($ty = <$ty as ::core::default::Default>::default());
    };
    ($ty:ty = $init:expr) => {
        #[doc(hidden)]
        #[allow(unsafe_code, clippy::missing_safety_doc, missing_docs)]
        pub mod __rbg_c_abi {
            use super::*;
            #[allow(unused_imports)]
            use $crate::abi::{
                c_void, AbiMoves, AbiPerftCounts, AbiPerftOptions, AbiPlayoutLimits, AbiPlayoutOutcome,
                AbiStatus, AbiVisitor, Action,
            };

            /// The exported reasoner.
            pub struct Exported;

            impl $crate::Exporter for Exported {
                type Game = $ty;
                fn game() -> &'static $ty {
                    static GAME: ::std::sync::OnceLock<$ty> = ::std::sync::OnceLock::new();
                    GAME.get_or_init(|| $init)
                }
            }

            $crate::rbg_abi_functions!($crate::__rbg_export_shims[Exported]);
        }
    };
}

/// The callback of [`export_c_abi!`](crate::export_c_abi): one shim per declared function.
#[doc(hidden)]
#[macro_export]
macro_rules! __rbg_export_shims {
    ([$exporter:ty] $(fn $name:ident($($arg:ident: $ty:ty),* $(,)?) $(-> $ret:ty)?;)*) => {
        $(
            #[no_mangle]
            pub unsafe extern "C" fn $name($($arg: $ty),*) $(-> $ret)? {
                <$crate::Exports<$exporter>>::$name($($arg),*)
            }
        )*
    };
}
