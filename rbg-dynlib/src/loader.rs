//! The calling half of the C ABI (feature `loader`, on by default): opening a library with
//! libloading, checking its version, looking up the declared functions, and [`LibGame`], which
//! implements [`Game`] by calling them.

use core::ffi::c_void;
use core::fmt;
use core::ops::ControlFlow;
use core::ptr::NonNull;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::abi::{
    decode_info, AbiMoves, AbiPerftCounts, AbiPerftOptions, AbiPlayoutLimits, AbiPlayoutOutcome, AbiStatus,
    AbiVisitor,
};
use crate::ABI_VERSION;
use rbg_core::dynamic::AnyGame;
use rbg_core::perft::{PerftCounts, PerftOptions};
use rbg_core::playout::{PlayoutBuffers, PlayoutLimits, PlayoutOutcome};
use rbg_core::PlayoutRng;
use rbg_core::{Action, Game, GameInfo, MoveList, Player, SearchError, StateCodecError, KEEPER};

/// Why a library could not be loaded.
#[derive(Debug)]
pub enum LoadError {
    /// The dynamic loader could not open the file.
    Open { path: PathBuf, message: String },
    /// The library does not export `rbg_abi_version`: it is not a reasoner library.
    NotAReasoner { path: PathBuf },
    /// The library was built for another version of the ABI.
    VersionMismatch { path: PathBuf, found: u32, expected: u32 },
    /// The library's version matches but a function is missing.
    MissingSymbol { path: PathBuf, symbol: &'static str },
    /// The library's game information is malformed.
    BadInfo { path: PathBuf },
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::Open { path, message } => write!(f, "cannot load {}: {message}", path.display()),
            LoadError::NotAReasoner { path } => {
                write!(f, "{} is not an RBG reasoner library (no rbg_abi_version symbol)", path.display())
            }
            LoadError::VersionMismatch { path, found, expected } => write!(
                f,
                "{} implements reasoner ABI version {found:#010x}, but this program needs version \
                 {expected:#010x}; rebuild the library with this version of rbg",
                path.display()
            ),
            LoadError::MissingSymbol { path, symbol } => {
                write!(f, "{} is a damaged reasoner library: it lacks {symbol}", path.display())
            }
            LoadError::BadInfo { path } => {
                write!(
                    f,
                    "{} is a damaged reasoner library: its game information is malformed",
                    path.display()
                )
            }
        }
    }
}

impl std::error::Error for LoadError {}

/// Loads a reasoner library as a dynamic game handle.
pub fn load(path: impl AsRef<Path>) -> Result<AnyGame, LoadError> {
    Ok(AnyGame::new(LibGame::open(path)?))
}

/// The callback that makes the loader's table of the declared functions
/// ([`crate::rbg_abi_functions!`]): one function pointer per function, and the lookup that
/// fills it.
macro_rules! function_table {
    ([] $(fn $name:ident($($arg:ident: $ty:ty),* $(,)?) $(-> $ret:ty)?;)*) => {
        /// The library's functions, named as exported.
        // `rbg_abi_version` is looked up too, though only its first call, by name before the
        // lookup of the rest, is needed.
        #[allow(dead_code)]
        struct Functions {
            $($name: unsafe extern "C" fn($($ty),*) $(-> $ret)?,)*
        }

        impl Functions {
            /// Looks every function up; `Err` names the first one missing.
            ///
            /// # Safety
            ///
            /// The library must export the functions with the declared signatures (it reported
            /// this ABI version), and the pointers must not outlive it.
            unsafe fn look_up(library: &libloading::Library) -> Result<Self, &'static str> {
                Ok(Functions {
                    $($name: *library
                        .get(concat!(stringify!($name), "\0").as_bytes())
                        .map_err(|_| stringify!($name))?,)*
                })
            }
        }
    };
}

crate::rbg_abi_functions!(function_table []);

/// A loaded library: its game information and functions.
struct Api {
    info: GameInfo,
    f: Functions,
    /// Dropped last (fields drop in order): the function pointers above point into it.
    _library: libloading::Library,
}

/// A reasoner library loaded into this process; implements [`Game`] by calling it.
/// Cheap to clone (clones share the library).
#[derive(Clone)]
pub struct LibGame {
    api: Arc<Api>,
    path: PathBuf,
}

impl fmt::Debug for LibGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LibGame").field("name", &self.api.info.name).field("path", &self.path).finish()
    }
}

/// A state owned by a loaded library.
pub struct LibState {
    ptr: NonNull<c_void>,
    api: Arc<Api>,
}

// SAFETY: the pointer is a `Box<G::State>` of the library, with `G::State: Send + Sync` (a
// bound of `Game::State`); the library reads it only through `*const` functions, mutates it
// only through `&mut LibState` here, and frees it only on drop.
unsafe impl Send for LibState {}
unsafe impl Sync for LibState {}

/// Search scratch owned by a loaded library, plus buffers for move lists.
pub struct LibScratch {
    ptr: NonNull<c_void>,
    api: Arc<Api>,
    actions: Vec<Action>,
    ends: Vec<u32>,
}

// SAFETY: the pointer is a box of the library's `AbiScratch<G>`, which is `Send` because
// `G::Scratch: Send` (a bound of `Game::Scratch`); it is used only through `&mut LibScratch`.
unsafe impl Send for LibScratch {}

/// Calls a library function that returns a fresh pointer; a null pointer is the library's
/// report that it panicked (or ran out of memory) while making it.
fn non_null(p: *mut c_void, what: &str) -> NonNull<c_void> {
    match NonNull::new(p) {
        Some(p) => p,
        // A library built from this project only returns null after an internal panic, which
        // would be a bug of the library; there is no state to return.
        None => panic!("the reasoner library failed to create {what}"),
    }
}

impl LibGame {
    /// Loads the library at `path`, checking its ABI version and symbols.
    pub fn open(path: impl AsRef<Path>) -> Result<Self, LoadError> {
        let path = path.as_ref().to_path_buf();
        // SAFETY: loading runs the library's initialisers; the module documentation restricts
        // loading to reasoner libraries built from this project, whose initialisers are Rust's.
        let library = unsafe { libloading::Library::new(&path) }
            .map_err(|e| LoadError::Open { path: path.clone(), message: e.to_string() })?;
        // SAFETY: `rbg_abi_version` has had this signature in every version of the ABI.
        let version = unsafe {
            let f = library
                .get::<unsafe extern "C" fn() -> u32>(b"rbg_abi_version\0")
                .map_err(|_| LoadError::NotAReasoner { path: path.clone() })?;
            f()
        };
        if version != ABI_VERSION {
            return Err(LoadError::VersionMismatch { path, found: version, expected: ABI_VERSION });
        }
        // SAFETY: the version matches, so the symbols have the declared signatures; `Api` keeps
        // the library loaded while the pointers live.
        let f = unsafe { Functions::look_up(&library) }
            .map_err(|symbol| LoadError::MissingSymbol { path: path.clone(), symbol })?;
        let info = read_sized(|buf, cap| {
            // SAFETY: `buf` has room for `cap` bytes.
            unsafe { (f.rbg_game_info)(buf, cap) }
        })
        .and_then(|bytes| decode_info(&bytes))
        .ok_or_else(|| LoadError::BadInfo { path: path.clone() })?;
        let api = Api { info, f, _library: library };
        Ok(LibGame { api: Arc::new(api), path })
    }

    /// Like [`Game::legal_moves`], through the library's caller-buffer export
    /// (`rbg_legal_moves`, then `rbg_last_moves` when the buffers were too small), the path
    /// that callers in other languages use. [`Game::legal_moves`] takes the faster visitor
    /// path; both give the same list.
    pub fn legal_moves_buffered(
        &self,
        s: &mut LibState,
        sc: &mut LibScratch,
        out: &mut MoveList,
    ) -> Result<(), SearchError> {
        out.clear();
        let Some((state, _)) = self.parts(s, sc) else { return Ok(()) };
        let mut buf = moves_buffer(sc);
        // SAFETY: state and scratch of this library; the buffers have the stated capacities.
        let mut status = unsafe { (self.api.f.rbg_legal_moves)(state, sc.ptr.as_ptr(), &mut buf) };
        if status.code == AbiStatus::BUFFER_TOO_SMALL {
            // Grow to the sizes the library reported and fetch the list it kept, without a
            // second search.
            sc.actions.resize(buf.actions_len.max(sc.actions.len()), Action::default());
            sc.ends.resize(buf.moves_len.max(sc.ends.len()), 0);
            buf = moves_buffer(sc);
            // SAFETY: as above.
            status = unsafe { (self.api.f.rbg_last_moves)(sc.ptr.as_ptr(), &mut buf) };
        }
        search_status(status)?;
        let mut start = 0;
        for &end in &sc.ends[..buf.moves_len.min(sc.ends.len())] {
            let end = end as usize;
            match sc.actions.get(start..end) {
                Some(m) => out.push(m),
                // Inconsistent ends would be a bug of the library; list no further.
                None => break,
            }
            start = end;
        }
        Ok(())
    }

    /// The file the library was loaded from.
    pub fn path(&self) -> &Path {
        &self.path
    }

    fn owns_state(&self, s: &LibState) -> bool {
        Arc::ptr_eq(&self.api, &s.api)
    }

    /// The library pointers of a state and a scratch of this library, or `None` for a foreign
    /// state. A foreign scratch is replaced (it holds no game data).
    fn parts(&self, s: &mut LibState, sc: &mut LibScratch) -> Option<(*mut c_void, *mut c_void)> {
        if !self.owns_state(s) {
            return None;
        }
        if !Arc::ptr_eq(&self.api, &sc.api) {
            *sc = self.new_scratch();
        }
        Some((s.ptr.as_ptr(), sc.ptr.as_ptr()))
    }

    fn state_ptr(&self, s: &LibState) -> Option<*const c_void> {
        self.owns_state(s).then_some(s.ptr.as_ptr() as *const c_void)
    }
}

fn moves_buffer(sc: &mut LibScratch) -> AbiMoves {
    AbiMoves {
        actions: sc.actions.as_mut_ptr(),
        actions_cap: sc.actions.len(),
        actions_len: 0,
        ends: sc.ends.as_mut_ptr(),
        ends_cap: sc.ends.len(),
        moves_len: 0,
    }
}

/// The bytes a size-reporting export writes: asks with an empty buffer, then with one of the
/// reported size. `None` if the size changes between the calls.
fn read_sized(mut call: impl FnMut(*mut u8, usize) -> usize) -> Option<Vec<u8>> {
    let size = call(core::ptr::null_mut(), 0);
    let mut buf = vec![0u8; size];
    (call(buf.as_mut_ptr(), size) == size).then_some(buf)
}

/// A status as a search result. Statuses that are not search errors cannot come from the calls
/// this is used for except after a panic in the library, reported as the closest search error.
fn search_status(status: AbiStatus) -> Result<(), SearchError> {
    match status.code {
        AbiStatus::OK => Ok(()),
        _ => Err(status.search_error().unwrap_or(SearchError::SearchTooLarge { limit: 0 })),
    }
}

impl Drop for LibState {
    fn drop(&mut self) {
        // SAFETY: the pointer was made by this library and is freed once, here.
        unsafe { (self.api.f.rbg_state_free)(self.ptr.as_ptr()) }
    }
}

impl Drop for LibScratch {
    fn drop(&mut self) {
        // SAFETY: the pointer was made by this library and is freed once, here.
        unsafe { (self.api.f.rbg_scratch_free)(self.ptr.as_ptr()) }
    }
}

impl Clone for LibState {
    fn clone(&self) -> Self {
        // SAFETY: a live state of this library.
        let ptr = unsafe { (self.api.f.rbg_state_clone)(self.ptr.as_ptr()) };
        LibState { ptr: non_null(ptr, "a copy of a state"), api: self.api.clone() }
    }

    fn clone_from(&mut self, source: &Self) {
        if Arc::ptr_eq(&self.api, &source.api) {
            // SAFETY: two live states of the same library; `&mut self` excludes aliasing.
            unsafe { (self.api.f.rbg_state_copy)(self.ptr.as_ptr(), source.ptr.as_ptr()) }
        } else {
            *self = source.clone();
        }
    }
}

impl PartialEq for LibState {
    fn eq(&self, other: &Self) -> bool {
        // SAFETY: two live states of the same library.
        Arc::ptr_eq(&self.api, &other.api)
            && unsafe { (self.api.f.rbg_state_eq)(self.ptr.as_ptr(), other.ptr.as_ptr()) != 0 }
    }
}

impl Eq for LibState {}

impl fmt::Debug for LibState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = read_sized(|buf, cap| {
            // SAFETY: a live state of this library; `buf` has room for `cap` bytes.
            unsafe { (self.api.f.rbg_state_debug)(self.ptr.as_ptr(), buf, cap) }
        });
        match text {
            Some(bytes) => f.write_str(&String::from_utf8_lossy(&bytes)),
            None => f.write_str("LibState(?)"),
        }
    }
}

/// The state of a `visit_moves` call through the ABI: the caller's visitor, and a panic it
/// raised, held until the library has returned (a panic must not unwind through the library).
struct VisitContext<'a> {
    visit: &'a mut dyn FnMut(&[Action]) -> ControlFlow<()>,
    panic: Option<Box<dyn std::any::Any + Send>>,
}

unsafe extern "C" fn visit_trampoline(ctx: *mut c_void, actions: *const Action, len: usize) -> u32 {
    // SAFETY: `ctx` is the `VisitContext` passed to `rbg_visit_moves` by `visit_moves` below,
    // alive for the whole call; the library passes a valid move of `len` actions.
    let ctx = unsafe { &mut *(ctx as *mut VisitContext<'_>) };
    let m = if len == 0 || actions.is_null() {
        &[][..]
    } else {
        unsafe { core::slice::from_raw_parts(actions, len) }
    };
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| (ctx.visit)(m))) {
        Ok(flow) => flow.is_break() as u32,
        Err(panic) => {
            ctx.panic = Some(panic);
            1
        }
    }
}

unsafe extern "C" fn extend_trampoline(ctx: *mut c_void, actions: *const Action, len: usize) -> u32 {
    // SAFETY: `ctx` is the `Vec<Action>` passed by `next_actions`, alive and not otherwise
    // borrowed during the call; the library passes `len` valid actions.
    let out = unsafe { &mut *(ctx as *mut Vec<Action>) };
    if len != 0 && !actions.is_null() {
        out.extend_from_slice(unsafe { core::slice::from_raw_parts(actions, len) });
    }
    0
}

unsafe extern "C" fn push_trampoline(ctx: *mut c_void, actions: *const Action, len: usize) -> u32 {
    // SAFETY: `ctx` is the `MoveList` passed by `legal_moves` below, alive and not otherwise
    // borrowed during the call; the library passes a valid move of `len` actions.
    let out = unsafe { &mut *(ctx as *mut MoveList) };
    let m = if len == 0 || actions.is_null() {
        &[][..]
    } else {
        unsafe { core::slice::from_raw_parts(actions, len) }
    };
    // Pushing only allocates; an allocation failure aborts rather than unwinds, so nothing
    // here can unwind into the library. A full list stops the enumeration.
    out.push(m);
    u32::from(out.overflowed())
}

impl Game for LibGame {
    type State = LibState;
    type Scratch = LibScratch;

    fn info(&self) -> &GameInfo {
        &self.api.info
    }

    fn new_scratch(&self) -> LibScratch {
        // SAFETY: no arguments.
        let ptr = unsafe { (self.api.f.rbg_scratch_new)() };
        LibScratch {
            ptr: non_null(ptr, "a scratch"),
            api: self.api.clone(),
            actions: Vec::new(),
            ends: Vec::new(),
        }
    }

    fn initial_state(&self) -> LibState {
        // SAFETY: no arguments.
        let ptr = unsafe { (self.api.f.rbg_state_initial)() };
        LibState { ptr: non_null(ptr, "the initial state"), api: self.api.clone() }
    }

    fn current_player(&self, s: &LibState) -> Player {
        // SAFETY (this and the accessors below): a live state of this library.
        self.state_ptr(s).map_or(KEEPER, |p| unsafe { (self.api.f.rbg_current_player)(p) })
    }

    fn current_vertex(&self, s: &LibState) -> u32 {
        self.state_ptr(s).map_or(0, |p| unsafe { (self.api.f.rbg_current_vertex)(p) })
    }

    fn piece(&self, s: &LibState, vertex: u32) -> u32 {
        self.state_ptr(s).map_or(0, |p| unsafe { (self.api.f.rbg_piece)(p, vertex) })
    }

    fn variable(&self, s: &LibState, var: usize) -> i64 {
        self.state_ptr(s).map_or(0, |p| unsafe { (self.api.f.rbg_variable)(p, var as u64) })
    }

    fn rules_state(&self, s: &LibState) -> u32 {
        self.state_ptr(s).map_or(0, |p| unsafe { (self.api.f.rbg_rules_state)(p) })
    }

    fn score(&self, s: &LibState, player: Player) -> i64 {
        self.state_ptr(s).map_or(0, |p| unsafe { (self.api.f.rbg_score)(p, player) })
    }

    fn visit_moves<F>(
        &self,
        s: &mut LibState,
        sc: &mut LibScratch,
        mut visit: F,
    ) -> Result<ControlFlow<()>, SearchError>
    where
        F: FnMut(&[Action]) -> ControlFlow<()>,
    {
        let Some((s, sc)) = self.parts(s, sc) else { return Ok(ControlFlow::Continue(())) };
        let mut ctx = VisitContext { visit: &mut visit, panic: None };
        let mut stopped = 0u32;
        // SAFETY: state and scratch of this library; `ctx` outlives the call and is what
        // `visit_trampoline` expects.
        let status = unsafe {
            (self.api.f.rbg_visit_moves)(
                s,
                sc,
                visit_trampoline,
                &mut ctx as *mut VisitContext<'_> as *mut c_void,
                &mut stopped,
            )
        };
        if let Some(panic) = ctx.panic {
            std::panic::resume_unwind(panic);
        }
        search_status(status)?;
        Ok(if stopped != 0 { ControlFlow::Break(()) } else { ControlFlow::Continue(()) })
    }

    fn apply_move(&self, s: &mut LibState, m: &[Action]) {
        if self.owns_state(s) {
            // SAFETY: a live state of this library and a valid slice. The status only reports
            // a panic inside the library, after which the state is whatever it left.
            let _ = unsafe { (self.api.f.rbg_apply_move)(s.ptr.as_ptr(), m.as_ptr(), m.len()) };
        }
    }

    fn keeper_step(&self, s: &mut LibState, sc: &mut LibScratch) -> Result<bool, SearchError> {
        let Some((s, sc)) = self.parts(s, sc) else { return Ok(false) };
        let mut stepped = 0u32;
        // SAFETY: state and scratch of this library.
        search_status(unsafe { (self.api.f.rbg_keeper_step)(s, sc, &mut stepped) })?;
        Ok(stepped != 0)
    }

    fn legal_moves(
        &self,
        s: &mut LibState,
        sc: &mut LibScratch,
        out: &mut MoveList,
    ) -> Result<(), SearchError> {
        out.clear();
        let Some((s, sc)) = self.parts(s, sc) else { return Ok(()) };
        let mut stopped = 0u32;
        // The library pushes each move straight into `out` through `push_trampoline`: one
        // indirect call per move costs fewer instructions than copying the list into a buffer
        // and from there into `out` (callgrind, compiled breakthrough playouts).
        // SAFETY: state and scratch of this library; `out` outlives the call and is what
        // `push_trampoline` expects.
        let status = unsafe {
            (self.api.f.rbg_visit_moves)(
                s,
                sc,
                push_trampoline,
                out as *mut MoveList as *mut c_void,
                &mut stopped,
            )
        };
        search_status(status)?;
        out.check()
    }

    fn next_actions(
        &self,
        s: &mut LibState,
        sc: &mut LibScratch,
        prefix: &[Action],
        out: &mut Vec<Action>,
    ) -> Result<(), SearchError> {
        out.clear();
        let Some((s, sc)) = self.parts(s, sc) else { return Ok(()) };
        // SAFETY: state and scratch of this library; `prefix` is valid for its length during
        // the call; `out` outlives it and is what `extend_trampoline` expects.
        let status = unsafe {
            (self.api.f.rbg_next_actions)(
                s,
                sc,
                prefix.as_ptr(),
                prefix.len(),
                extend_trampoline,
                out as *mut Vec<Action> as *mut c_void,
            )
        };
        search_status(status)
    }

    fn has_legal_move(&self, s: &mut LibState, sc: &mut LibScratch) -> Result<bool, SearchError> {
        let Some((s, sc)) = self.parts(s, sc) else { return Ok(false) };
        let mut has = 0u32;
        // SAFETY: state and scratch of this library.
        search_status(unsafe { (self.api.f.rbg_has_legal_move)(s, sc, &mut has) })?;
        Ok(has != 0)
    }

    fn complete_keeper(
        &self,
        s: &mut LibState,
        sc: &mut LibScratch,
        limit: u64,
    ) -> Result<bool, SearchError> {
        let Some((s, sc)) = self.parts(s, sc) else { return Ok(false) };
        let mut player_to_move = 0u32;
        // SAFETY: state and scratch of this library.
        search_status(unsafe { (self.api.f.rbg_complete_keeper)(s, sc, limit, &mut player_to_move) })?;
        Ok(player_to_move != 0)
    }

    /// The whole playout runs in the library: one call instead of several per ply.
    fn random_playout(
        &self,
        s: &mut LibState,
        sc: &mut LibScratch,
        buffers: &mut PlayoutBuffers,
        rng: &mut PlayoutRng,
        limits: &PlayoutLimits,
    ) -> Result<PlayoutOutcome, SearchError> {
        let finished = PlayoutOutcome { moves_exact: true, ..Default::default() };
        let Some((s, sc)) = self.parts(s, sc) else { return Ok(finished) };
        // The library keeps its own buffers; `buffers` only tells their move-list bound.
        let limits = AbiPlayoutLimits::new(limits, buffers.max_actions());
        let mut out = AbiPlayoutOutcome::default();
        // The library plays with a copy of the generator's state and writes it back, so `rng`
        // goes on as if the playout had drawn from it here.
        let mut words = rng.state();
        // SAFETY: state and scratch of this library; `words`, `limits` and `out` are live
        // locals for the call.
        let status = unsafe { (self.api.f.rbg_random_playout)(s, sc, words.as_mut_ptr(), &limits, &mut out) };
        *rng = PlayoutRng::from_state(words);
        search_status(status)?;
        Ok(out.into())
    }

    /// The whole subtree is counted in the library.
    fn perft_subtree(
        &self,
        s: &mut LibState,
        sc: &mut LibScratch,
        depth: u32,
        opts: &PerftOptions,
    ) -> Result<PerftCounts, SearchError> {
        let finished = PerftCounts { leaves: (depth == 0) as u64, nodes: 1 };
        let Some((s, sc)) = self.parts(s, sc) else { return Ok(finished) };
        let opts = AbiPerftOptions::new(opts);
        let mut out = AbiPerftCounts::default();
        // SAFETY: state and scratch of this library; `opts` and `out` are live locals.
        search_status(unsafe { (self.api.f.rbg_perft_subtree)(s, sc, depth, &opts, &mut out) })?;
        Ok(PerftCounts { leaves: out.leaves, nodes: out.nodes })
    }

    fn monotonic_class(&self, s: &LibState) -> Option<u32> {
        // SAFETY: a live state of this library.
        let class = self.state_ptr(s).map_or(-1, |p| unsafe { (self.api.f.rbg_monotonic_class)(p) });
        u32::try_from(class).ok()
    }

    fn is_still_legal(&self, s: &LibState, m: &[Action]) -> bool {
        // SAFETY: a live state of this library and a valid slice.
        self.state_ptr(s)
            .is_some_and(|p| unsafe { (self.api.f.rbg_is_still_legal)(p, m.as_ptr(), m.len()) != 0 })
    }

    fn monotonic_classes(&self) -> u32 {
        // SAFETY: no arguments.
        unsafe { (self.api.f.rbg_monotonic_classes)() }
    }

    fn encode_state(&self, s: &LibState, out: &mut Vec<u8>) {
        let Some(p) = self.state_ptr(s) else { return };
        let mut len = 0usize;
        // SAFETY: a live state of this library; the buffer is empty and said so.
        let status = unsafe { (self.api.f.rbg_state_encode)(p, core::ptr::null_mut(), 0, &mut len) };
        if status.code != AbiStatus::BUFFER_TOO_SMALL && status.code != AbiStatus::OK {
            return;
        }
        let start = out.len();
        out.resize(start + len, 0);
        let mut written = 0usize;
        // SAFETY: `out[start..]` has room for `len` bytes.
        let status =
            unsafe { (self.api.f.rbg_state_encode)(p, out[start..].as_mut_ptr(), len, &mut written) };
        if status.code != AbiStatus::OK || written != len {
            out.truncate(start);
        }
    }

    fn decode_state(&self, bytes: &[u8]) -> Result<LibState, StateCodecError> {
        let mut state: *mut c_void = core::ptr::null_mut();
        // Room for the library's error message; a longer one is cut (its full length is
        // reported but not needed).
        let mut message = [0u8; 256];
        let mut message_len = 0usize;
        // SAFETY: `bytes` is valid for its length; `message` has room for its length.
        let status = unsafe {
            (self.api.f.rbg_state_decode)(
                bytes.as_ptr(),
                bytes.len(),
                &mut state,
                message.as_mut_ptr(),
                message.len(),
                &mut message_len,
            )
        };
        match (status.code, NonNull::new(state)) {
            (AbiStatus::OK, Some(ptr)) => Ok(LibState { ptr, api: self.api.clone() }),
            _ => {
                let text = String::from_utf8_lossy(&message[..message_len.min(message.len())]).into_owned();
                Err(status
                    .codec_error(text.clone())
                    .unwrap_or(StateCodecError::Rejected { message: format!("decoding failed: {text}") }))
            }
        }
    }
}
