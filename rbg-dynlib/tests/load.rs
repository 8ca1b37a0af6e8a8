//! Loading reasoner libraries: refusal of wrong files and versions, the toy Nim through the
//! ABI, and a compiled game whose perft and playouts must match the reference and the
//! interpreter.

mod common;

use std::path::PathBuf;
use std::sync::OnceLock;

use rbg_core::dynamic::{AnyGame, DynError};
use rbg_core::perft::{perft, PerftOptions};
use rbg_core::playout::{flat_monte_carlo, McLimit, McOptions};
use rbg_core::toy::Nim;
use rbg_core::{Action, Game, MoveList, SearchError};
use rbg_dynlib::{load, LibGame, LoadError, ABI_VERSION};
use rbg_interp::{InterpOptions, Interpreter};

fn nim_library() -> &'static PathBuf {
    static LIB: OnceLock<PathBuf> = OnceLock::new();
    LIB.get_or_init(common::nim_library)
}

fn tic_tac_toe_library() -> &'static PathBuf {
    static LIB: OnceLock<PathBuf> = OnceLock::new();
    LIB.get_or_init(|| common::compiled_library("ticTacToe.rbg", "ticTacToe"))
}

#[test]
fn a_library_of_another_abi_version_is_refused_with_both_versions_named() {
    // Another hash, and 6: what every library built before the version became a hash of the
    // declaration returns.
    for other in [ABI_VERSION.wrapping_add(1), 6] {
        let path = common::rustc_cdylib(
            &format!("rbg_fake_version_{other}"),
            &format!("#[no_mangle]\npub extern \"C\" fn rbg_abi_version() -> u32 {{ {other} }}\n"),
        );
        match LibGame::open(&path) {
            Err(e @ LoadError::VersionMismatch { found, expected, .. }) => {
                assert_eq!((found, expected), (other, ABI_VERSION));
                let text = e.to_string();
                assert!(
                    text.contains(&format!("version {other:#010x}"))
                        && text.contains(&format!("version {ABI_VERSION:#010x}"))
                        && text.contains("rebuild the library"),
                    "{text}"
                );
            }
            other => panic!("expected a version mismatch, got {other:?}"),
        }
    }
}

/// The `rbg_` symbols a built library exports, from `nm` (binutils).
#[cfg(target_os = "linux")]
fn exported_rbg_symbols(library: &std::path::Path) -> Vec<String> {
    let out = std::process::Command::new("nm")
        .args(["--dynamic", "--defined-only"])
        .arg(library)
        .output()
        .expect("this test needs nm (binutils)");
    assert!(out.status.success(), "nm failed on {}", library.display());
    let mut names: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|line| line.split_whitespace().last())
        .filter(|name| name.starts_with("rbg_"))
        .map(String::from)
        .collect();
    names.sort_unstable();
    names
}

/// The export macro makes exactly the declared functions, in the toy library and in a crate
/// the compiler wrote; the loader looks up the same list.
#[cfg(target_os = "linux")]
#[test]
fn libraries_export_exactly_the_declared_functions() {
    let mut declared: Vec<String> = rbg_dynlib::SYMBOLS.iter().map(|s| s.to_string()).collect();
    declared.sort_unstable();
    // The 31 functions of the C ABI, counted in the declaration by hand.
    assert_eq!(declared.len(), 31);
    for library in [nim_library(), tic_tac_toe_library()] {
        assert_eq!(exported_rbg_symbols(library), declared, "{}", library.display());
    }
}

#[test]
fn files_that_are_not_complete_reasoner_libraries_are_refused() {
    let missing = common::work_dir().join("no-such-library.so");
    assert!(matches!(load(&missing), Err(LoadError::Open { .. })));

    let unrelated = common::rustc_cdylib(
        "rbg_fake_unrelated",
        "#[no_mangle]\npub extern \"C\" fn answer() -> u32 { 42 }\n",
    );
    let e = load(&unrelated).unwrap_err();
    assert!(matches!(e, LoadError::NotAReasoner { .. }), "{e:?}");
    assert!(e.to_string().contains("not an RBG reasoner library"));

    // The right version but nothing else: the first missing function is named.
    let partial = common::rustc_cdylib(
        "rbg_fake_partial",
        &format!("#[no_mangle]\npub extern \"C\" fn rbg_abi_version() -> u32 {{ {ABI_VERSION} }}\n"),
    );
    match load(&partial) {
        Err(LoadError::MissingSymbol { symbol, .. }) => assert_eq!(symbol, "rbg_game_info"),
        other => panic!("expected a missing symbol, got {other:?}"),
    }
}

#[test]
fn nim_through_the_abi_counts_and_plays_like_the_static_reasoner() {
    let lib = LibGame::open(nim_library()).unwrap();
    let dynamic = AnyGame::new(lib.clone());
    let reference = Nim::new(7);
    assert_eq!(lib.info(), reference.info());
    for depth in 0..9 {
        let expected = perft(&reference, depth, &PerftOptions::default()).unwrap();
        assert_eq!(perft(&lib, depth, &PerftOptions::default()).unwrap(), expected, "depth {depth}");
        let parallel = PerftOptions { threads: 2, ..Default::default() };
        assert_eq!(perft(&dynamic, depth, &parallel).unwrap(), expected, "depth {depth}");
    }
    let opts = McOptions { limit: McLimit::Playouts(200), seed: 11, ..Default::default() };
    let a = flat_monte_carlo(&reference, &opts, |_| {}).unwrap();
    let b = flat_monte_carlo(&dynamic, &opts, |_| {}).unwrap();
    assert_eq!((a.plies, a.moves, a.score_sum), (b.plies, b.moves, b.score_sum));
    // Playouts and subtrees run inside the library; their bounds come back as the same errors.
    // Nim(7) takes at least 4 moves (2+2+2+1), so a one-move bound is hit.
    let short = McOptions { max_plies: 1, ..opts };
    let expected = flat_monte_carlo(&reference, &short, |_| {}).unwrap_err();
    assert_eq!(expected, rbg_core::perft::DriverError::Search(SearchError::PlayoutTooLong { limit: 1 }));
    assert_eq!(flat_monte_carlo(&lib, &short, |_| {}).unwrap_err(), expected);
    assert_eq!(flat_monte_carlo(&dynamic, &short, |_| {}).unwrap_err(), expected);
}

#[test]
fn nim_states_cross_the_abi_as_bytes_and_back() {
    let lib = LibGame::open(nim_library()).unwrap();
    let reference = Nim::new(7);
    let mut sc = lib.new_scratch();
    let mut s = lib.initial_state();
    let mut expected = reference.initial_state();
    let mut moves = MoveList::new();
    for take in [2, 1, 2] {
        assert!(lib.complete_keeper(&mut s, &mut sc, 10).unwrap());
        reference.complete_keeper(&mut expected, &mut (), 10).unwrap();
        lib.legal_moves(&mut s, &mut sc, &mut moves).unwrap();
        let m: Vec<Action> = moves.iter().find(|m| m[0].index == take).unwrap().to_vec();
        lib.apply_move(&mut s, &m);
        reference.apply_move(&mut expected, &m);
    }
    let mut bytes = Vec::new();
    lib.encode_state(&s, &mut bytes);
    let mut expected_bytes = Vec::new();
    reference.encode_state(&expected, &mut expected_bytes);
    assert_eq!(bytes, expected_bytes);
    // Loaded again (a second handle, as another run would): the state decodes, equals the
    // original and plays on identically.
    let again = LibGame::open(nim_library()).unwrap();
    let mut decoded = again.decode_state(&bytes).unwrap();
    let mut decoded_bytes = Vec::new();
    again.encode_state(&decoded, &mut decoded_bytes);
    assert_eq!(decoded_bytes, bytes);
    assert_eq!(format!("{decoded:?}"), format!("{expected:?}"));
    let mut sc2 = again.new_scratch();
    assert!(again.complete_keeper(&mut decoded, &mut sc2, 10).unwrap());
    let mut list = MoveList::new();
    again.legal_moves(&mut decoded, &mut sc2, &mut list).unwrap();
    assert_eq!(list.len(), 2); // 7 - 5 = 2 stones left: take 1 or 2
                               // Truncated bytes are an error, not a state.
    assert!(again.decode_state(&bytes[..bytes.len() - 1]).is_err());
    assert!(again.decode_state(&[]).is_err());
}

#[test]
fn foreign_states_and_panics_inside_the_library_do_not_reach_the_caller() {
    let one = LibGame::open(nim_library()).unwrap();
    let other = LibGame::open(nim_library()).unwrap();
    let mut mine = one.initial_state();
    let mut sc = one.new_scratch();
    assert!(one.complete_keeper(&mut mine, &mut sc, 10).unwrap());
    // A state of another handle reads as a finished game; a scratch of another handle is
    // replaced.
    let mut theirs = other.initial_state();
    assert!(!one.complete_keeper(&mut theirs, &mut sc, 10).unwrap());
    let mut their_scratch = other.new_scratch();
    let mut moves = MoveList::new();
    one.legal_moves(&mut mine, &mut their_scratch, &mut moves).unwrap();
    assert_eq!(moves.len(), 2);
    // Nim's apply_move indexes the move's first action: an empty move panics inside the library,
    // which reports it instead of unwinding into this process.
    let before = mine.clone();
    one.apply_move(&mut mine, &[]);
    assert_eq!(mine, before);
    // Out-of-range queries answer 0.
    assert_eq!((one.piece(&mine, 5), one.variable(&mine, 9), one.score(&mine, 3)), (0, 0, 0));
    // Through the dynamic handle the same, with an error for the foreign state.
    let dynamic = AnyGame::new(one);
    let foreign = AnyGame::new(other).initial_state();
    assert_eq!(dynamic.check(&foreign), Err(DynError::ForeignState));
}

#[test]
fn compiled_tic_tac_toe_loaded_at_run_time_gives_the_reference_perft() {
    let game = load(tic_tac_toe_library()).unwrap();
    assert_eq!(game.info().name, "ticTacToe");
    // Games that last all nine moves: 127872 (reference-perft.csv of the corpus game, whose
    // rules games/ticTacToe.rbg restates; of the well-known 255168 finished games, the others
    // end earlier with a line).
    let counts = perft(&game, 9, &PerftOptions::default()).unwrap();
    assert_eq!(counts.leaves, 127_872);
    let interp =
        Interpreter::new(&common::game_ir("ticTacToe.rbg"), "ticTacToe", InterpOptions::default()).unwrap();
    assert_eq!(counts, perft(&interp, 9, &PerftOptions::default()).unwrap());
    assert_eq!(game.info(), interp.info());
    // Both engines walk the same program in the same order, so seeded playouts agree exactly.
    let opts = McOptions { limit: McLimit::Playouts(300), seed: 3, ..Default::default() };
    let a = flat_monte_carlo(&interp, &opts, |_| {}).unwrap();
    let b = flat_monte_carlo(&game, &opts, |_| {}).unwrap();
    assert_eq!((a.plies, a.moves, a.score_sum), (b.plies, b.moves, b.score_sum));
    // The compiled state's encoding agrees with the interpreter's for the same position.
    let (mut s, mut t) = (game.initial_state(), interp.initial_state());
    let (mut sc, mut tc) = (game.new_scratch(), interp.new_scratch());
    game.complete_keeper(&mut s, &mut sc, 10).unwrap();
    interp.complete_keeper(&mut t, &mut tc, 10).unwrap();
    let mut moves = MoveList::new();
    game.legal_moves(&mut s, &mut sc, &mut moves).unwrap();
    let m = moves.get(4).to_vec();
    game.apply_move(&mut s, &m);
    interp.apply_move(&mut t, &m);
    for v in 0..9 {
        assert_eq!(game.piece(&s, v), interp.piece(&t, v), "vertex {v}");
    }
    // The caller-buffer export lists the same moves as the visitor path, growing its buffers
    // from empty on the first call.
    let lib = LibGame::open(tic_tac_toe_library()).unwrap();
    let (mut u, mut uc) = (lib.initial_state(), lib.new_scratch());
    lib.complete_keeper(&mut u, &mut uc, 10).unwrap();
    let (mut visited, mut buffered) = (MoveList::new(), MoveList::new());
    for _ in 0..2 {
        lib.legal_moves(&mut u, &mut uc, &mut visited).unwrap();
        lib.legal_moves_buffered(&mut u, &mut uc, &mut buffered).unwrap();
        assert_eq!(buffered.len(), 9);
        assert_eq!(visited, buffered);
    }
    // The move-by-move interface crosses the ABI (`rbg_next_actions`): on the empty board the
    // first actions are the nine cells, and along random games every prefix agrees with the
    // move lists, through the library and through the dynamic handle.
    let mut next = Vec::new();
    lib.next_actions(&mut u, &mut uc, &[], &mut next).unwrap();
    let mut cells: Vec<u32> = next.iter().map(|a| a.vertex).collect();
    cells.sort_unstable();
    assert_eq!(cells, (0..9).collect::<Vec<u32>>());
    for seed in 0..3 {
        assert!(rbg_testdata::steps::check_next_actions(&lib, seed, 9, 200).unwrap() > 9);
        assert!(rbg_testdata::steps::check_next_actions(&game, seed, 9, 200).unwrap() > 9);
    }
    let bytes = game.try_encode_state(&s).unwrap();
    assert!(!bytes.is_empty());
    // The compiled reasoner decodes its own states back to equal states.
    let decoded = game.decode_state(&bytes).unwrap();
    assert_eq!(decoded, s);
}

/// `rbg_random_playout` called with null pointers (a caller outside Rust could pass them)
/// answers the null-argument status and touches nothing, whichever argument is null.
#[test]
fn a_playout_export_called_with_null_arguments_answers_a_status() {
    use core::ffi::c_void;
    use rbg_core::playout::PlayoutLimits;
    use rbg_dynlib::abi::{AbiPlayoutLimits, AbiPlayoutOutcome, AbiStatus};
    type Playout = unsafe extern "C" fn(
        *mut c_void,
        *mut c_void,
        *mut u64,
        *const AbiPlayoutLimits,
        *mut AbiPlayoutOutcome,
    ) -> AbiStatus;
    type Alloc = unsafe extern "C" fn() -> *mut c_void;
    // SAFETY: the test's own Nim library, built for this ABI version; the symbols have the
    // signatures above, and every pointer passed is null or a live local.
    unsafe {
        let lib = libloading::Library::new(nim_library()).unwrap();
        let playout: libloading::Symbol<Playout> = lib.get(b"rbg_random_playout").unwrap();
        let new_state: libloading::Symbol<Alloc> = lib.get(b"rbg_state_initial").unwrap();
        let new_scratch: libloading::Symbol<Alloc> = lib.get(b"rbg_scratch_new").unwrap();
        let (s, sc) = (new_state(), new_scratch());
        let limits = AbiPlayoutLimits::new(&PlayoutLimits::default(), 1 << 20);
        let mut words = [1u64, 2, 3, 4];
        let mut out = AbiPlayoutOutcome::default();
        use core::ptr::null_mut;
        let cases = [
            playout(s, sc, null_mut(), &limits, &mut out),
            playout(null_mut(), sc, words.as_mut_ptr(), &limits, &mut out),
            playout(s, null_mut(), words.as_mut_ptr(), &limits, &mut out),
            playout(s, sc, words.as_mut_ptr(), core::ptr::null(), &mut out),
            playout(s, sc, words.as_mut_ptr(), &limits, null_mut()),
        ];
        for status in cases {
            assert_eq!(status.code, AbiStatus::NULL_ARGUMENT);
        }
        assert_eq!(words, [1, 2, 3, 4], "the generator's state was not touched");
        let free: libloading::Symbol<unsafe extern "C" fn(*mut c_void)> = lib.get(b"rbg_state_free").unwrap();
        free(s);
        let free: libloading::Symbol<unsafe extern "C" fn(*mut c_void)> =
            lib.get(b"rbg_scratch_free").unwrap();
        free(sc);
    }
}
