//! A versioned C ABI for reasoner libraries.
//!
//! A crate with a reasoner (a compiled game, say) exports it with one macro call,
//!
//! ```ignore
//! rbg_core::export_c_abi!(Reasoner);              // `Reasoner: Game + Default`
//! rbg_core::export_c_abi!(Nim = Nim::new(7));     // or any constant expression
//! ```
//!
//! and, built as a `cdylib`, can be loaded into a running process (crate `rbg-dynlib`), which
//! then reasons at compiled speed without a subprocess.
//!
//! # The interface
//!
//! Every exported symbol starts with `rbg_`. [`ABI_VERSION`] is returned by
//! `rbg_abi_version`, the one function whose signature never changes; a loader must refuse a
//! library of another version before looking up anything else. The version is bumped whenever
//! any exported signature, [`AbiStatus`] code, [`AbiMoves`] layout or the game-information
//! encoding ([`encode_info`]) changes.
//!
//! States and scratch are opaque pointers owned by the library (made by `rbg_state_initial`,
//! `rbg_state_clone`, `rbg_state_decode`, `rbg_scratch_new`; released by `rbg_state_free`,
//! `rbg_scratch_free`). Moves are arrays of [`Action`] (`#[repr(C)]`: two `u32`). Fallible
//! functions return an [`AbiStatus`]. Each function catches panics (when the library is built
//! with `panic = "unwind"`) and reports [`AbiStatus::PANIC`] or a null pointer instead of
//! unwinding into the caller.
//!
//! # Safety
//!
//! The unsafe code (raw pointers, `#[no_mangle]`) lives only in the expansion of
//! [`export_c_abi!`](crate::export_c_abi), in the exporting crate; this module holds the safe halves the expansion
//! calls. The caller of the exported functions must pass pointers made by the same library and
//! not yet freed, and buffers of at least the capacity it states.

use crate::game::{Game, GameInfo, SearchError, VertexPosition};
use crate::moves::{Action, MoveList};
use crate::perft::PerftOptions;
use crate::playout::{PlayoutBuffers, PlayoutLimits, PlayoutOutcome};
use crate::rng::PlayoutRng;
use crate::state_codec::StateCodecError;

/// Version of the exported interface. See the module documentation for when it changes.
pub const ABI_VERSION: u32 = 6;

/// Result of a fallible exported function: a code and a detail (a search bound, a size).
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct AbiStatus {
    /// One of the constants of this type.
    pub code: u32,
    /// The bound of a search error, the required size for [`AbiStatus::BUFFER_TOO_SMALL`].
    pub detail: u64,
}

impl AbiStatus {
    /// Success.
    pub const OK: u32 = 0;
    /// [`SearchError::MoveTooLong`].
    pub const MOVE_TOO_LONG: u32 = 1;
    /// [`SearchError::SearchTooLarge`].
    pub const SEARCH_TOO_LARGE: u32 = 2;
    /// [`SearchError::KeeperLoop`].
    pub const KEEPER_LOOP: u32 = 3;
    /// [`SearchError::PlayoutTooLong`].
    pub const PLAYOUT_TOO_LONG: u32 = 4;
    /// [`SearchError::AmbiguousKeeper`].
    pub const AMBIGUOUS_KEEPER: u32 = 5;
    /// [`SearchError::TooManyMoves`].
    pub const TOO_MANY_MOVES: u32 = 6;
    /// [`SearchError::TooManyStreamedMoves`].
    pub const TOO_MANY_STREAMED_MOVES: u32 = 7;
    /// The library panicked; the state passed in may be partly updated.
    pub const PANIC: u32 = 100;
    /// An output buffer is too small; `detail` is the size needed. Nothing was written.
    pub const BUFFER_TOO_SMALL: u32 = 101;
    /// A required pointer was null.
    pub const NULL_ARGUMENT: u32 = 102;
    /// The bytes are not a state of this game (the message says why).
    pub const DECODE_INVALID: u32 = 103;
    /// The reasoner cannot decode states ([`StateCodecError::Unsupported`]).
    pub const DECODE_UNSUPPORTED: u32 = 104;

    /// Success.
    pub const fn ok() -> Self {
        AbiStatus { code: Self::OK, detail: 0 }
    }

    /// A status with no detail.
    pub const fn code(code: u32) -> Self {
        AbiStatus { code, detail: 0 }
    }

    /// The status of a search result.
    pub fn of_search(r: Result<(), SearchError>) -> Self {
        let (code, detail) = match r {
            Ok(()) => (Self::OK, 0),
            Err(SearchError::MoveTooLong { limit }) => (Self::MOVE_TOO_LONG, limit as u64),
            Err(SearchError::SearchTooLarge { limit }) => (Self::SEARCH_TOO_LARGE, limit),
            Err(SearchError::KeeperLoop { limit }) => (Self::KEEPER_LOOP, limit),
            Err(SearchError::PlayoutTooLong { limit }) => (Self::PLAYOUT_TOO_LONG, limit),
            Err(SearchError::AmbiguousKeeper) => (Self::AMBIGUOUS_KEEPER, 0),
            Err(SearchError::TooManyMoves { limit }) => (Self::TOO_MANY_MOVES, limit as u64),
            Err(SearchError::TooManyStreamedMoves { limit }) => (Self::TOO_MANY_STREAMED_MOVES, limit),
        };
        AbiStatus { code, detail }
    }

    /// The search error this status reports, if it reports one.
    pub fn search_error(self) -> Option<SearchError> {
        let limit = self.detail;
        Some(match self.code {
            Self::MOVE_TOO_LONG => {
                SearchError::MoveTooLong { limit: usize::try_from(limit).unwrap_or(usize::MAX) }
            }
            Self::SEARCH_TOO_LARGE => SearchError::SearchTooLarge { limit },
            Self::KEEPER_LOOP => SearchError::KeeperLoop { limit },
            Self::PLAYOUT_TOO_LONG => SearchError::PlayoutTooLong { limit },
            Self::AMBIGUOUS_KEEPER => SearchError::AmbiguousKeeper,
            Self::TOO_MANY_STREAMED_MOVES => SearchError::TooManyStreamedMoves { limit },
            Self::TOO_MANY_MOVES => {
                SearchError::TooManyMoves { limit: usize::try_from(limit).unwrap_or(usize::MAX) }
            }
            _ => return None,
        })
    }

    /// The status of a failed decode.
    pub fn of_codec_error(e: &StateCodecError) -> Self {
        match e {
            StateCodecError::Unsupported => Self::code(Self::DECODE_UNSUPPORTED),
            _ => Self::code(Self::DECODE_INVALID),
        }
    }

    /// The decode error this status reports, if it reports one, with the library's message
    /// (see `rbg_state_decode`).
    pub fn codec_error(self, message: String) -> Option<StateCodecError> {
        match self.code {
            Self::DECODE_UNSUPPORTED => Some(StateCodecError::Unsupported),
            Self::DECODE_INVALID => Some(StateCodecError::Rejected { message }),
            _ => None,
        }
    }
}

/// A caller-owned buffer for a list of moves: the actions of all moves back to back, and the
/// end (exclusive action offset) of each move.
#[repr(C)]
#[derive(Debug)]
pub struct AbiMoves {
    /// Room for `actions_cap` actions.
    pub actions: *mut Action,
    /// Capacity of `actions`.
    pub actions_cap: usize,
    /// Set by the library: the number of actions of the list.
    pub actions_len: usize,
    /// Room for `ends_cap` move ends.
    pub ends: *mut u32,
    /// Capacity of `ends`.
    pub ends_cap: usize,
    /// Set by the library: the number of moves of the list.
    pub moves_len: usize,
}

/// A visitor of moves passed across the ABI: called with the context pointer and one move;
/// returns nonzero to stop the enumeration. It must not unwind.
pub type AbiVisitor =
    unsafe extern "C" fn(ctx: *mut core::ffi::c_void, actions: *const Action, len: usize) -> u32;

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

/// [`PlayoutLimits`] and the move-list bound of the caller's [`PlayoutBuffers`], across the ABI.
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct AbiPlayoutLimits {
    /// [`PlayoutLimits::max_plies`].
    pub max_plies: u64,
    /// [`PlayoutLimits::keeper_limit`].
    pub keeper_limit: u64,
    /// Nonzero: use monotonic classes ([`PlayoutLimits::monotonic`]).
    pub monotonic: u32,
    /// The bound of stored move lists ([`PlayoutBuffers::max_actions`]).
    pub max_move_actions: u64,
    /// [`PlayoutLimits::max_streamed_moves`].
    pub max_streamed_moves: u64,
    /// [`PlayoutLimits::count_replay_min_moves`].
    pub count_replay_min_moves: u64,
}

impl AbiPlayoutLimits {
    /// The limits of a playout with buffers bounded at `max_actions`.
    pub fn new(limits: &PlayoutLimits, max_actions: usize) -> Self {
        AbiPlayoutLimits {
            max_plies: limits.max_plies,
            keeper_limit: limits.keeper_limit,
            monotonic: limits.monotonic as u32,
            max_move_actions: max_actions as u64,
            max_streamed_moves: limits.max_streamed_moves,
            count_replay_min_moves: limits.count_replay_min_moves,
        }
    }

    /// The playout limits.
    pub fn limits(&self) -> PlayoutLimits {
        PlayoutLimits {
            max_plies: self.max_plies,
            keeper_limit: self.keeper_limit,
            monotonic: self.monotonic != 0,
            max_streamed_moves: self.max_streamed_moves,
            count_replay_min_moves: self.count_replay_min_moves,
        }
    }
}

/// [`PlayoutOutcome`] across the ABI.
#[repr(C)]
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct AbiPlayoutOutcome {
    /// [`PlayoutOutcome::plies`].
    pub plies: u64,
    /// [`PlayoutOutcome::moves_seen`].
    pub moves_seen: u64,
    /// Nonzero: `moves_seen` is exact.
    pub moves_exact: u32,
}

impl From<PlayoutOutcome> for AbiPlayoutOutcome {
    fn from(o: PlayoutOutcome) -> Self {
        AbiPlayoutOutcome { plies: o.plies, moves_seen: o.moves_seen, moves_exact: o.moves_exact as u32 }
    }
}

impl From<AbiPlayoutOutcome> for PlayoutOutcome {
    fn from(o: AbiPlayoutOutcome) -> Self {
        PlayoutOutcome { plies: o.plies, moves_seen: o.moves_seen, moves_exact: o.moves_exact != 0 }
    }
}

/// The options of a perft subtree ([`PerftOptions`] without the thread count) across the ABI.
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct AbiPerftOptions {
    /// Nonzero: count the last ply's moves without applying them.
    pub bulk_last_ply: u32,
    /// [`PerftOptions::keeper_limit`].
    pub keeper_limit: u64,
    /// [`PerftOptions::max_move_actions`].
    pub max_move_actions: u64,
    /// [`PerftOptions::max_streamed_moves`].
    pub max_streamed_moves: u64,
}

impl AbiPerftOptions {
    /// The options of `o` that matter to one subtree.
    pub fn new(o: &PerftOptions) -> Self {
        AbiPerftOptions {
            bulk_last_ply: o.bulk_last_ply as u32,
            keeper_limit: o.keeper_limit,
            max_move_actions: o.max_move_actions as u64,
            max_streamed_moves: o.max_streamed_moves,
        }
    }

    /// Single-threaded perft options.
    pub fn options(&self) -> PerftOptions {
        PerftOptions {
            threads: 1,
            split: crate::perft::PerftSplit::default(),
            bulk_last_ply: self.bulk_last_ply != 0,
            keeper_limit: self.keeper_limit,
            max_move_actions: usize::try_from(self.max_move_actions).unwrap_or(usize::MAX),
            max_streamed_moves: self.max_streamed_moves,
        }
    }
}

/// [`PerftCounts`](crate::perft::PerftCounts) across the ABI.
#[repr(C)]
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct AbiPerftCounts {
    /// Leaves of the subtree.
    pub leaves: u64,
    /// Nodes of the subtree.
    pub nodes: u64,
}

/// Copies `list` into the caller's buffers if they are large enough; returns the sizes needed
/// (actions, moves) and whether the copy was made (a partial copy may have been written when
/// it was not).
pub fn copy_moves(list: &MoveList, actions: &mut [Action], ends: &mut [u32]) -> (usize, usize, bool) {
    let count = list.len();
    let mut fits = count <= ends.len();
    let mut at = 0usize;
    // One pass that copies while the buffers last and only counts afterwards. Moves are short
    // (a few actions), so a plain loop beats a `memcpy` call per move (measured with
    // callgrind: the copy was a fifth of a compiled playout's instructions with `memcpy`).
    for (i, m) in list.iter().enumerate() {
        let end = at + m.len();
        if fits && end <= actions.len() {
            for (slot, a) in actions[at..end].iter_mut().zip(m) {
                *slot = *a;
            }
            ends[i] = end as u32;
        } else {
            fits = false;
        }
        at = end;
    }
    (at, count, fits && u32::try_from(at).is_ok())
}

/// The encoding of [`GameInfo`] that crosses the ABI: little-endian `u32` counts and
/// length-prefixed UTF-8 strings, in field order.
pub fn encode_info(info: &GameInfo) -> Vec<u8> {
    fn put_u32(out: &mut Vec<u8>, x: u32) {
        out.extend_from_slice(&x.to_le_bytes());
    }
    fn put_str(out: &mut Vec<u8>, s: &str) {
        put_u32(out, s.len() as u32);
        out.extend_from_slice(s.as_bytes());
    }
    fn put_strs(out: &mut Vec<u8>, v: &[String]) {
        put_u32(out, v.len() as u32);
        v.iter().for_each(|s| put_str(out, s));
    }
    let mut out = Vec::new();
    put_str(&mut out, &info.name);
    put_strs(&mut out, &info.players);
    put_strs(&mut out, &info.pieces);
    put_strs(&mut out, &info.variables);
    put_u32(&mut out, info.bounds.len() as u32);
    info.bounds.iter().for_each(|b| out.extend_from_slice(&b.to_le_bytes()));
    put_strs(&mut out, &info.vertices);
    put_u32(&mut out, info.modifiers);
    put_u32(&mut out, info.switches.len() as u32);
    info.switches.iter().for_each(|&s| put_u32(&mut out, s));
    // The board's labels and edges (covered by the state codec's game fingerprint, so a host
    // checking encoded states needs them) and the optional drawing positions.
    put_strs(&mut out, &info.labels);
    put_u32(&mut out, info.edges.len() as u32);
    for &(from, label, to) in &info.edges {
        [from, label, to].into_iter().for_each(|x| put_u32(&mut out, x));
    }
    match &info.positions {
        None => put_u32(&mut out, 0),
        Some(positions) => {
            put_u32(&mut out, 1);
            put_u32(&mut out, positions.len() as u32);
            for p in positions {
                p.coords.iter().for_each(|c| out.extend_from_slice(&c.to_le_bytes()));
                p.point.iter().for_each(|x| out.extend_from_slice(&x.to_le_bytes()));
            }
        }
    }
    out
}

/// Reads [`encode_info`]'s output; `None` if the bytes are malformed.
pub fn decode_info(bytes: &[u8]) -> Option<GameInfo> {
    struct Reader<'a>(&'a [u8]);
    impl Reader<'_> {
        fn take(&mut self, n: usize) -> Option<&[u8]> {
            let (head, tail) = self.0.split_at_checked(n)?;
            self.0 = tail;
            Some(head)
        }
        fn u32(&mut self) -> Option<u32> {
            Some(u32::from_le_bytes(self.take(4)?.try_into().ok()?))
        }
        fn i64(&mut self) -> Option<i64> {
            Some(i64::from_le_bytes(self.take(8)?.try_into().ok()?))
        }
        fn string(&mut self) -> Option<String> {
            let n = self.u32()? as usize;
            String::from_utf8(self.take(n)?.to_vec()).ok()
        }
        /// `n` items read by `item`; the count is checked against the bytes left (every item
        /// takes at least `min_size` bytes) before anything is allocated.
        fn many<T>(&mut self, min_size: usize, item: impl Fn(&mut Self) -> Option<T>) -> Option<Vec<T>> {
            let n = self.u32()? as usize;
            if n.checked_mul(min_size)? > self.0.len() {
                return None;
            }
            (0..n).map(|_| item(self)).collect()
        }
    }
    let mut r = Reader(bytes);
    let name = r.string()?;
    let players = r.many(4, Reader::string)?;
    let pieces = r.many(4, Reader::string)?;
    let variables = r.many(4, Reader::string)?;
    let bounds = r.many(8, Reader::i64)?;
    let vertices = r.many(4, Reader::string)?;
    let modifiers = r.u32()?;
    let switches = r.many(4, Reader::u32)?;
    let labels = r.many(4, Reader::string)?;
    let edges = r.many(12, |r| Some((r.u32()?, r.u32()?, r.u32()?)))?;
    let positions = match r.u32()? {
        0 => None,
        1 => Some(r.many(28, |r| {
            let coord = |r: &mut Reader| Some(i32::from_le_bytes(r.take(4)?.try_into().ok()?));
            let float = |r: &mut Reader| Some(f64::from_le_bytes(r.take(8)?.try_into().ok()?));
            Some(VertexPosition { coords: [coord(r)?, coord(r)?, coord(r)?], point: [float(r)?, float(r)?] })
        })?),
        _ => return None,
    };
    if !r.0.is_empty() {
        return None;
    }
    Some(GameInfo {
        name,
        players,
        pieces,
        variables,
        bounds,
        vertices,
        modifiers,
        switches,
        labels,
        edges,
        positions,
    })
}

/// Exports `$ty` (a [`Game`](crate::Game)) through the C ABI of [`crate::abi`]. Invoke once,
/// at the root of a crate built as a `cdylib`. `export_c_abi!(T)` needs `T: Default`;
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
            use ::core::ffi::c_void;
            use ::core::panic::AssertUnwindSafe;
            use ::std::panic::catch_unwind;
            use $crate::abi::{AbiMoves, AbiScratch, AbiStatus, AbiVisitor};
            use $crate::{Action, Game};

            type G = $ty;
            type S = <$ty as Game>::State;

            fn game() -> &'static G {
                static GAME: ::std::sync::OnceLock<G> = ::std::sync::OnceLock::new();
                GAME.get_or_init(|| $init)
            }

            /// Runs `f`, turning a panic into `fallback`.
            fn guard<T>(fallback: T, f: impl FnOnce() -> T) -> T {
                catch_unwind(AssertUnwindSafe(f)).unwrap_or(fallback)
            }

            unsafe fn state<'a>(p: *const c_void) -> Option<&'a S> {
                (p as *const S).as_ref()
            }
            unsafe fn state_mut<'a>(p: *mut c_void) -> Option<&'a mut S> {
                (p as *mut S).as_mut()
            }
            unsafe fn scratch<'a>(p: *mut c_void) -> Option<&'a mut AbiScratch<G>> {
                (p as *mut AbiScratch<G>).as_mut()
            }
            unsafe fn actions<'a>(p: *const Action, len: usize) -> &'a [Action] {
                if len == 0 || p.is_null() {
                    &[]
                } else {
                    ::core::slice::from_raw_parts(p, len)
                }
            }
            fn boxed(s: S) -> *mut c_void {
                ::std::boxed::Box::into_raw(::std::boxed::Box::new(s)) as *mut c_void
            }
            const NULL: AbiStatus = AbiStatus::code(AbiStatus::NULL_ARGUMENT);
            const PANIC: AbiStatus = AbiStatus::code(AbiStatus::PANIC);

            #[no_mangle]
            pub extern "C" fn rbg_abi_version() -> u32 {
                $crate::abi::ABI_VERSION
            }

            /// Writes the encoded game information if it fits in `cap` bytes; returns its size.
            #[no_mangle]
            pub unsafe extern "C" fn rbg_game_info(out: *mut u8, cap: usize) -> usize {
                guard(0, || {
                    let bytes = $crate::abi::encode_info(game().info());
                    if bytes.len() <= cap && !out.is_null() {
                        ::core::ptr::copy_nonoverlapping(bytes.as_ptr(), out, bytes.len());
                    }
                    bytes.len()
                })
            }

            #[no_mangle]
            pub extern "C" fn rbg_scratch_new() -> *mut c_void {
                guard(::core::ptr::null_mut(), || {
                    ::std::boxed::Box::into_raw(::std::boxed::Box::new(AbiScratch::new(game())))
                        as *mut c_void
                })
            }

            #[no_mangle]
            pub unsafe extern "C" fn rbg_scratch_free(sc: *mut c_void) {
                if !sc.is_null() {
                    guard((), || drop(::std::boxed::Box::from_raw(sc as *mut AbiScratch<G>)));
                }
            }

            #[no_mangle]
            pub extern "C" fn rbg_state_initial() -> *mut c_void {
                guard(::core::ptr::null_mut(), || boxed(game().initial_state()))
            }

            #[no_mangle]
            pub unsafe extern "C" fn rbg_state_clone(s: *const c_void) -> *mut c_void {
                guard(::core::ptr::null_mut(), || {
                    state(s).map_or(::core::ptr::null_mut(), |s| boxed(s.clone()))
                })
            }

            #[no_mangle]
            pub unsafe extern "C" fn rbg_state_copy(dst: *mut c_void, src: *const c_void) {
                guard((), || {
                    if let (Some(d), Some(s)) = (state_mut(dst), state(src)) {
                        d.clone_from(s);
                    }
                })
            }

            #[no_mangle]
            pub unsafe extern "C" fn rbg_state_free(s: *mut c_void) {
                if !s.is_null() {
                    guard((), || drop(::std::boxed::Box::from_raw(s as *mut S)));
                }
            }

            #[no_mangle]
            pub unsafe extern "C" fn rbg_state_eq(a: *const c_void, b: *const c_void) -> u32 {
                guard(0, || match (state(a), state(b)) {
                    (Some(a), Some(b)) => (a == b) as u32,
                    _ => 0,
                })
            }

            /// Writes the state's `Debug` text if it fits in `cap` bytes; returns its size.
            #[no_mangle]
            pub unsafe extern "C" fn rbg_state_debug(s: *const c_void, out: *mut u8, cap: usize) -> usize {
                guard(0, || {
                    let Some(s) = state(s) else { return 0 };
                    let text = ::std::format!("{s:?}");
                    if text.len() <= cap && !out.is_null() {
                        ::core::ptr::copy_nonoverlapping(text.as_ptr(), out, text.len());
                    }
                    text.len()
                })
            }

            #[no_mangle]
            pub unsafe extern "C" fn rbg_current_player(s: *const c_void) -> u32 {
                guard(0, || state(s).map_or(0, |s| game().current_player(s)))
            }

            #[no_mangle]
            pub unsafe extern "C" fn rbg_current_vertex(s: *const c_void) -> u32 {
                guard(0, || state(s).map_or(0, |s| game().current_vertex(s)))
            }

            #[no_mangle]
            pub unsafe extern "C" fn rbg_rules_state(s: *const c_void) -> u32 {
                guard(0, || state(s).map_or(0, |s| game().rules_state(s)))
            }

            /// The piece on a vertex; 0 for a vertex out of range.
            #[no_mangle]
            pub unsafe extern "C" fn rbg_piece(s: *const c_void, vertex: u32) -> u32 {
                guard(0, || match state(s) {
                    Some(s) if (vertex as usize) < game().info().vertices.len() => game().piece(s, vertex),
                    _ => 0,
                })
            }

            /// A variable's value; 0 for a variable out of range.
            #[no_mangle]
            pub unsafe extern "C" fn rbg_variable(s: *const c_void, var: u64) -> i64 {
                guard(0, || match state(s) {
                    Some(s) if var < game().info().variables.len() as u64 => game().variable(s, var as usize),
                    _ => 0,
                })
            }

            /// A real player's score; 0 for a player out of range.
            #[no_mangle]
            pub unsafe extern "C" fn rbg_score(s: *const c_void, player: u32) -> i64 {
                guard(0, || match state(s) {
                    Some(s) if player >= 1 && player as usize <= game().info().num_players() => {
                        game().score(s, player)
                    }
                    _ => 0,
                })
            }

            /// Generates the legal moves into the scratch and copies them to `out` if they fit;
            /// otherwise reports `BUFFER_TOO_SMALL` with the sizes set in `out` (fetch them
            /// with `rbg_last_moves` after growing the buffers).
            #[no_mangle]
            pub unsafe extern "C" fn rbg_legal_moves(
                s: *mut c_void,
                sc: *mut c_void,
                out: *mut AbiMoves,
            ) -> AbiStatus {
                guard(PANIC, || {
                    let (Some(s), Some(sc)) = (state_mut(s), scratch(sc)) else { return NULL };
                    let r = game().legal_moves(s, &mut sc.scratch, &mut sc.moves);
                    if r.is_err() {
                        return AbiStatus::of_search(r);
                    }
                    rbg_last_moves(sc as *mut AbiScratch<G> as *mut c_void, out)
                })
            }

            /// Copies the moves of the last `rbg_legal_moves` call on this scratch to `out`.
            #[no_mangle]
            pub unsafe extern "C" fn rbg_last_moves(sc: *mut c_void, out: *mut AbiMoves) -> AbiStatus {
                guard(PANIC, || {
                    let (Some(sc), Some(out)) = (scratch(sc), out.as_mut()) else { return NULL };
                    let actions: &mut [Action] = if out.actions.is_null() {
                        &mut []
                    } else {
                        ::core::slice::from_raw_parts_mut(out.actions, out.actions_cap)
                    };
                    let ends: &mut [u32] = if out.ends.is_null() {
                        &mut []
                    } else {
                        ::core::slice::from_raw_parts_mut(out.ends, out.ends_cap)
                    };
                    let (total, count, copied) = $crate::abi::copy_moves(&sc.moves, actions, ends);
                    out.actions_len = total;
                    out.moves_len = count;
                    if copied {
                        AbiStatus::ok()
                    } else {
                        AbiStatus { code: AbiStatus::BUFFER_TOO_SMALL, detail: total as u64 }
                    }
                })
            }

            /// The next actions of the partial move `prefix` (`Game::next_actions`), passed to
            /// one call of `visit(ctx, actions)` (its answer is ignored).
            #[no_mangle]
            pub unsafe extern "C" fn rbg_next_actions(
                s: *mut c_void,
                sc: *mut c_void,
                prefix: *const Action,
                prefix_len: usize,
                visit: AbiVisitor,
                ctx: *mut c_void,
            ) -> AbiStatus {
                guard(PANIC, || {
                    let (Some(s), Some(sc)) = (state_mut(s), scratch(sc)) else { return NULL };
                    let prefix: &[Action] = if prefix.is_null() || prefix_len == 0 {
                        &[]
                    } else {
                        ::core::slice::from_raw_parts(prefix, prefix_len)
                    };
                    let r = game().next_actions(s, &mut sc.scratch, prefix, &mut sc.next);
                    if r.is_ok() {
                        visit(ctx, sc.next.as_ptr(), sc.next.len());
                    }
                    AbiStatus::of_search(r)
                })
            }

            /// Calls `visit(ctx, move)` for each legal move until it returns nonzero; `stopped`
            /// is set to 1 if it did.
            #[no_mangle]
            pub unsafe extern "C" fn rbg_visit_moves(
                s: *mut c_void,
                sc: *mut c_void,
                visit: AbiVisitor,
                ctx: *mut c_void,
                stopped: *mut u32,
            ) -> AbiStatus {
                guard(PANIC, || {
                    let (Some(s), Some(sc), Some(stopped)) = (state_mut(s), scratch(sc), stopped.as_mut())
                    else {
                        return NULL;
                    };
                    let r = game().visit_moves(s, &mut sc.scratch, |m| {
                        if visit(ctx, m.as_ptr(), m.len()) != 0 {
                            ::core::ops::ControlFlow::Break(())
                        } else {
                            ::core::ops::ControlFlow::Continue(())
                        }
                    });
                    *stopped = matches!(r, Ok(::core::ops::ControlFlow::Break(()))) as u32;
                    AbiStatus::of_search(r.map(|_| ()))
                })
            }

            /// Applies a move without checking it (as [`Game::apply_move`]).
            #[no_mangle]
            pub unsafe extern "C" fn rbg_apply_move(
                s: *mut c_void,
                m: *const Action,
                len: usize,
            ) -> AbiStatus {
                guard(PANIC, || {
                    let Some(s) = state_mut(s) else { return NULL };
                    game().apply_move(s, actions(m, len));
                    AbiStatus::ok()
                })
            }

            #[no_mangle]
            pub unsafe extern "C" fn rbg_keeper_step(
                s: *mut c_void,
                sc: *mut c_void,
                stepped: *mut u32,
            ) -> AbiStatus {
                guard(PANIC, || {
                    let (Some(s), Some(sc), Some(out)) = (state_mut(s), scratch(sc), stepped.as_mut()) else {
                        return NULL;
                    };
                    let r = game().keeper_step(s, &mut sc.scratch);
                    *out = matches!(r, Ok(true)) as u32;
                    AbiStatus::of_search(r.map(|_| ()))
                })
            }

            #[no_mangle]
            pub unsafe extern "C" fn rbg_has_legal_move(
                s: *mut c_void,
                sc: *mut c_void,
                has: *mut u32,
            ) -> AbiStatus {
                guard(PANIC, || {
                    let (Some(s), Some(sc), Some(out)) = (state_mut(s), scratch(sc), has.as_mut()) else {
                        return NULL;
                    };
                    let r = game().has_legal_move(s, &mut sc.scratch);
                    *out = matches!(r, Ok(true)) as u32;
                    AbiStatus::of_search(r.map(|_| ()))
                })
            }

            #[no_mangle]
            pub unsafe extern "C" fn rbg_complete_keeper(
                s: *mut c_void,
                sc: *mut c_void,
                limit: u64,
                player_to_move: *mut u32,
            ) -> AbiStatus {
                guard(PANIC, || {
                    let (Some(s), Some(sc), Some(out)) = (state_mut(s), scratch(sc), player_to_move.as_mut())
                    else {
                        return NULL;
                    };
                    let r = game().complete_keeper(s, &mut sc.scratch, limit);
                    *out = matches!(r, Ok(true)) as u32;
                    AbiStatus::of_search(r.map(|_| ()))
                })
            }

            /// One random playout from `s` to the end of the game, run here (see
            /// `Game::random_playout`) with the caller's generator, whose four state words
            /// `rng` points to (read, then written back), with buffers kept in the scratch.
            #[no_mangle]
            pub unsafe extern "C" fn rbg_random_playout(
                s: *mut c_void,
                sc: *mut c_void,
                rng: *mut u64,
                limits: *const $crate::abi::AbiPlayoutLimits,
                out: *mut $crate::abi::AbiPlayoutOutcome,
            ) -> AbiStatus {
                guard(PANIC, || {
                    let (Some(s), Some(sc), Some(limits), Some(out)) =
                        (state_mut(s), scratch(sc), limits.as_ref(), out.as_mut())
                    else {
                        return NULL;
                    };
                    if rng.is_null() {
                        return NULL;
                    }
                    // SAFETY: the caller passes four words, live for the call (the contract).
                    let words = unsafe { core::slice::from_raw_parts_mut(rng, 4) };
                    let state = [words[0], words[1], words[2], words[3]];
                    let mut rng = $crate::PlayoutRng::from_state(state);
                    let r = sc.random_playout(game(), s, &mut rng, limits);
                    words.copy_from_slice(&rng.state());
                    if let Ok(o) = r {
                        *out = o.into();
                    }
                    AbiStatus::of_search(r.map(|_| ()))
                })
            }

            /// Counts the perft subtree of `s` (see `Game::perft_subtree`), run here.
            #[no_mangle]
            pub unsafe extern "C" fn rbg_perft_subtree(
                s: *mut c_void,
                sc: *mut c_void,
                depth: u32,
                opts: *const $crate::abi::AbiPerftOptions,
                out: *mut $crate::abi::AbiPerftCounts,
            ) -> AbiStatus {
                guard(PANIC, || {
                    let (Some(s), Some(sc), Some(opts), Some(out)) =
                        (state_mut(s), scratch(sc), opts.as_ref(), out.as_mut())
                    else {
                        return NULL;
                    };
                    let r = game().perft_subtree(s, &mut sc.scratch, depth, &opts.options());
                    if let Ok(c) = r {
                        *out = $crate::abi::AbiPerftCounts { leaves: c.leaves, nodes: c.nodes };
                    }
                    AbiStatus::of_search(r.map(|_| ()))
                })
            }

            #[no_mangle]
            pub extern "C" fn rbg_monotonic_classes() -> u32 {
                guard(0, || game().monotonic_classes())
            }

            /// The state's monotonic class, or -1.
            #[no_mangle]
            pub unsafe extern "C" fn rbg_monotonic_class(s: *const c_void) -> i64 {
                guard(-1, || state(s).and_then(|s| game().monotonic_class(s)).map_or(-1, i64::from))
            }

            #[no_mangle]
            pub unsafe extern "C" fn rbg_is_still_legal(
                s: *const c_void,
                m: *const Action,
                len: usize,
            ) -> u32 {
                guard(0, || state(s).is_some_and(|s| game().is_still_legal(s, actions(m, len))) as u32)
            }

            /// Writes the state's encoding if it fits in `cap` bytes; `len` gets its size.
            #[no_mangle]
            pub unsafe extern "C" fn rbg_state_encode(
                s: *const c_void,
                out: *mut u8,
                cap: usize,
                len: *mut usize,
            ) -> AbiStatus {
                guard(PANIC, || {
                    let (Some(s), Some(len)) = (state(s), len.as_mut()) else { return NULL };
                    let mut bytes = ::std::vec::Vec::new();
                    game().encode_state(s, &mut bytes);
                    *len = bytes.len();
                    if bytes.len() > cap || out.is_null() {
                        return AbiStatus { code: AbiStatus::BUFFER_TOO_SMALL, detail: bytes.len() as u64 };
                    }
                    ::core::ptr::copy_nonoverlapping(bytes.as_ptr(), out, bytes.len());
                    AbiStatus::ok()
                })
            }

            /// Decodes a state into `*out`; on failure writes as much of the error message as
            /// fits in `msg_cap` bytes of `msg` and its full size to `msg_len`.
            #[no_mangle]
            pub unsafe extern "C" fn rbg_state_decode(
                bytes: *const u8,
                len: usize,
                out: *mut *mut c_void,
                msg: *mut u8,
                msg_cap: usize,
                msg_len: *mut usize,
            ) -> AbiStatus {
                guard(PANIC, || {
                    let Some(out) = out.as_mut() else { return NULL };
                    let bytes = if len == 0 || bytes.is_null() {
                        &[][..]
                    } else {
                        ::core::slice::from_raw_parts(bytes, len)
                    };
                    match game().decode_state(bytes) {
                        Ok(s) => {
                            *out = boxed(s);
                            AbiStatus::ok()
                        }
                        Err(e) => {
                            let text = ::std::string::ToString::to_string(&e);
                            if !msg.is_null() {
                                let n = text.len().min(msg_cap);
                                ::core::ptr::copy_nonoverlapping(text.as_ptr(), msg, n);
                            }
                            if let Some(msg_len) = msg_len.as_mut() {
                                *msg_len = text.len();
                            }
                            AbiStatus::of_codec_error(&e)
                        }
                    }
                })
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::toy::Nim;

    #[test]
    fn game_info_round_trips_and_malformed_bytes_are_refused() {
        let mut info = Nim::new(3).info().clone();
        // Board data as a compiled game has it (Nim has none).
        info.labels = vec!["up".into(), "down".into()];
        info.edges = vec![(0, 0, 1), (1, 1, 0)];
        info.positions = Some(vec![
            VertexPosition { coords: [0, 0, 0], point: [0.0, 0.0] },
            VertexPosition { coords: [0, 1, 0], point: [0.0, 1.5] },
        ]);
        let bytes = encode_info(&info);
        assert_eq!(decode_info(&bytes), Some(info.clone()));
        for cut in 0..bytes.len() {
            assert_eq!(decode_info(&bytes[..cut]), None, "prefix of {cut} bytes");
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert_eq!(decode_info(&longer), None);
        // A huge count does not allocate: it is checked against the bytes left.
        let mut huge = bytes.clone();
        let name_len = 4 + info.name.len();
        huge[name_len..name_len + 4].copy_from_slice(&u32::MAX.to_le_bytes());
        assert_eq!(decode_info(&huge), None);
    }

    #[test]
    fn moves_are_copied_only_when_they_fit() {
        let mut list = MoveList::new();
        list.push(&[Action::new(1, 2), Action::new(3, 4)]);
        list.push(&[Action::new(5, 6)]);
        let mut actions = [Action::default(); 3];
        let mut ends = [0u32; 2];
        assert_eq!(copy_moves(&list, &mut actions[..2], &mut ends), (3, 2, false));
        assert_eq!(copy_moves(&list, &mut actions, &mut ends[..1]), (3, 2, false));
        assert_eq!(copy_moves(&list, &mut actions, &mut ends), (3, 2, true));
        assert_eq!(actions, [Action::new(1, 2), Action::new(3, 4), Action::new(5, 6)]);
        assert_eq!(ends, [2, 3]);
    }

    #[test]
    fn search_errors_survive_the_status_codes() {
        let errors = [
            SearchError::MoveTooLong { limit: 7 },
            SearchError::SearchTooLarge { limit: 8 },
            SearchError::KeeperLoop { limit: 9 },
            SearchError::PlayoutTooLong { limit: 10 },
            SearchError::AmbiguousKeeper,
        ];
        for e in errors {
            assert_eq!(AbiStatus::of_search(Err(e.clone())).search_error(), Some(e));
        }
        assert_eq!(AbiStatus::of_search(Ok(())), AbiStatus::ok());
        assert_eq!(AbiStatus::ok().search_error(), None);
    }
}
