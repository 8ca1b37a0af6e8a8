//! The data of the C ABI: the `#[repr(C)]` types that cross it, the status codes, and the
//! byte encoding of [`GameInfo`].
//!
//! The functions themselves are declared once, in [`crate::declaration`]; their exported halves
//! are in [`crate::export`], their calling halves in the loader ([`crate::LibGame`]).
//!
//! States and scratch are opaque pointers owned by the library (made by `rbg_state_initial`,
//! `rbg_state_clone`, `rbg_state_decode`, `rbg_scratch_new`; released by `rbg_state_free`,
//! `rbg_scratch_free`). Moves are arrays of [`Action`] (`#[repr(C)]`: two `u32`). Fallible
//! functions return an [`AbiStatus`]. Every function catches panics (when the library is built
//! with `panic = "unwind"`) and reports [`AbiStatus::PANIC`] or a null pointer instead of
//! unwinding into the caller.
//!
//! A change here that keeps the types' sizes (a reordered field, a new status code, another
//! encoding of the game information) must bump [`LAYOUT_REVISION`]; sizes and the functions'
//! signatures enter [`ABI_VERSION`](crate::ABI_VERSION) by themselves.

pub use core::ffi::c_void;
use rbg_core::perft::PerftOptions;
use rbg_core::playout::{PlayoutLimits, PlayoutOutcome};
pub use rbg_core::Action;
use rbg_core::{GameInfo, MoveList, SearchError, StateCodecError, VertexPosition};

/// The revision of what [`ABI_VERSION`](crate::ABI_VERSION) cannot see by itself: field order,
/// status codes, the encoding of [`GameInfo`]. Bump it with any such change.
pub const LAYOUT_REVISION: u32 = 7;

/// The sizes of the types that cross the ABI, part of [`ABI_VERSION`](crate::ABI_VERSION).
pub(crate) const LAYOUT_SIZES: [usize; 8] = [
    core::mem::size_of::<Action>(),
    core::mem::size_of::<AbiStatus>(),
    core::mem::size_of::<AbiMoves>(),
    core::mem::size_of::<AbiPlayoutLimits>(),
    core::mem::size_of::<AbiPlayoutOutcome>(),
    core::mem::size_of::<AbiPerftOptions>(),
    core::mem::size_of::<AbiPerftCounts>(),
    core::mem::size_of::<usize>(),
];

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

/// [`PlayoutLimits`] and the move-list bound of the caller's [`PlayoutBuffers`](rbg_core::playout::PlayoutBuffers), across the ABI.
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct AbiPlayoutLimits {
    /// [`PlayoutLimits::max_plies`].
    pub max_plies: u64,
    /// [`PlayoutLimits::keeper_limit`].
    pub keeper_limit: u64,
    /// Nonzero: use monotonic classes ([`PlayoutLimits::monotonic`]).
    pub monotonic: u32,
    /// The bound of stored move lists ([`PlayoutBuffers::max_actions`](rbg_core::playout::PlayoutBuffers::max_actions)).
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
            split: rbg_core::perft::PerftSplit::default(),
            bulk_last_ply: self.bulk_last_ply != 0,
            keeper_limit: self.keeper_limit,
            max_move_actions: usize::try_from(self.max_move_actions).unwrap_or(usize::MAX),
            max_streamed_moves: self.max_streamed_moves,
            stop: None,
        }
    }
}

/// [`PerftCounts`](rbg_core::perft::PerftCounts) across the ABI.
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

#[cfg(test)]
mod tests {
    use super::*;
    use rbg_core::toy::Nim;
    use rbg_core::Game;

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
