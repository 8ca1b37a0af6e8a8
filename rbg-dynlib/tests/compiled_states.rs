//! The compiled engine's state decoding and bounded move lists, exercised through compiled
//! libraries: states survive an encode/decode round trip after random play (same moves, same
//! subtree, equal derived data: piece counts and piece-location sets), altered bytes and impossible values are refused, states of the interpreter (which
//! numbers rules positions its own way) are refused as another reasoner's, and a move list
//! past its bound ends the search with `TooManyMoves`.

mod common;

use std::path::PathBuf;
use std::sync::OnceLock;

use rbg_core::moves::DEFAULT_MAX_ACTIONS;
use rbg_core::{state_codec, Game, MoveList, SearchError, StateCodecError};
use rbg_dynlib::LibGame;
use rbg_interp::{InterpOptions, Interpreter};

fn library(file: &'static str, name: &'static str, cell: &'static OnceLock<PathBuf>) -> LibGame {
    let path = cell.get_or_init(|| common::compiled_library(file, name));
    LibGame::open(path).unwrap()
}

fn tic_tac_toe() -> LibGame {
    static LIB: OnceLock<PathBuf> = OnceLock::new();
    library("ticTacToe.rbg", "ticTacToe", &LIB)
}

fn breakthrough() -> LibGame {
    static LIB: OnceLock<PathBuf> = OnceLock::new();
    library("breakthrough.rbg", "breakthrough", &LIB)
}

/// The rules fingerprint field of encoded bytes (after the magic, the version byte and the
/// game fingerprint; see `rbg_core::state_codec`). A library handle does not report its
/// reasoner's fingerprint, its encoded states do.
fn rules_fingerprint_of(bytes: &[u8]) -> u64 {
    u64::from_le_bytes(bytes[13..21].try_into().unwrap())
}

fn chess_gardner() -> LibGame {
    static LIB: OnceLock<PathBuf> = OnceLock::new();
    library("chessGardner.rbg", "chessGardner", &LIB)
}

fn moves_of<G: Game>(game: &G, s: &G::State) -> Vec<Vec<rbg_core::Action>> {
    let (mut s, mut sc) = (s.clone(), game.new_scratch());
    let mut list = MoveList::new();
    game.legal_moves(&mut s, &mut sc, &mut list).unwrap();
    list.iter().map(<[_]>::to_vec).collect()
}

/// Leaves of the game tree `depth` player moves below `s` (keeper moves completed first).
fn leaves<G: Game>(game: &G, s: &G::State, depth: u32) -> u64 {
    let (mut s, mut sc) = (s.clone(), game.new_scratch());
    if !game.complete_keeper(&mut s, &mut sc, 100).unwrap() {
        return 0;
    }
    if depth == 0 {
        return 1;
    }
    let mut total = 0;
    for m in moves_of(game, &s) {
        let mut next = s.clone();
        game.apply_move(&mut next, &m);
        total += leaves(game, &next, depth - 1);
    }
    total
}

fn round_trip<G: Game>(game: &G, s: &G::State) -> G::State {
    let mut bytes = Vec::new();
    game.encode_state(s, &mut bytes);
    let decoded = game.decode_state(&bytes).unwrap_or_else(|e| panic!("decoding failed: {e}"));
    let mut again = Vec::new();
    game.encode_state(&decoded, &mut again);
    assert_eq!(again, bytes, "the decoded state encodes differently");
    decoded
}

/// Plays random games, checking at every state (keeper states included) that the decoded state
/// equals the original, lists the same moves and has the same depth-2 subtree.
fn check_round_trips_in_random_play<G: Game>(game: &G, games: u64, max_plies: usize) {
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut states_checked = 0;
    for _ in 0..games {
        let (mut s, mut sc) = (game.initial_state(), game.new_scratch());
        let decoded = round_trip(game, &s);
        assert!(decoded == s, "the initial state changed in the round trip");
        for _ in 0..max_plies {
            if !game.complete_keeper(&mut s, &mut sc, 100).unwrap() {
                break;
            }
            let decoded = round_trip(game, &s);
            assert!(decoded == s);
            let moves = moves_of(game, &s);
            assert_eq!(moves_of(game, &decoded), moves);
            assert_eq!(leaves(game, &decoded, 2), leaves(game, &s, 2));
            states_checked += 1;
            if moves.is_empty() {
                break;
            }
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            let m = &moves[(seed >> 33) as usize % moves.len()];
            game.apply_move(&mut s, m);
        }
    }
    assert!(states_checked as u64 > games, "the games ended at once");
}

#[test]
fn compiled_tic_tac_toe_states_round_trip_during_random_play() {
    check_round_trips_in_random_play(&tic_tac_toe(), 20, 12);
}

#[test]
fn compiled_breakthrough_states_round_trip_during_random_play() {
    // Breakthrough keeps piece-location sets and lands in varied positions: the rebuilt derived
    // data must give the same moves as the data kept by play.
    check_round_trips_in_random_play(&breakthrough(), 3, 40);
}

#[test]
fn compiled_chess_gardner_states_round_trip_during_random_play() {
    // Gardner chess keeps piece counts as well as piece-location sets; the state equality checked
    // inside the library compares them too.
    check_round_trips_in_random_play(&chess_gardner(), 2, 30);
}

#[test]
fn altered_or_truncated_bytes_and_impossible_values_are_refused() {
    let game = tic_tac_toe();
    let (mut s, mut sc) = (game.initial_state(), game.new_scratch());
    assert!(game.complete_keeper(&mut s, &mut sc, 100).unwrap());
    let m = moves_of(&game, &s)[3].clone();
    game.apply_move(&mut s, &m);
    let mut bytes = Vec::new();
    game.encode_state(&s, &mut bytes);
    for i in 0..bytes.len() {
        let mut altered = bytes.clone();
        altered[i] ^= 0x5a;
        assert!(game.decode_state(&altered).is_err(), "byte {i} altered");
        assert!(game.decode_state(&bytes[..i]).is_err(), "cut to {i} bytes");
    }
    // Well-formed bytes (valid checksum and fingerprints) of impossible states.
    let parts = game.state_parts(&s);
    let forge = |change: &dyn Fn(&mut rbg_core::StateParts)| {
        let mut p = parts.clone();
        change(&mut p);
        let mut out = Vec::new();
        state_codec::encode(game.info(), rules_fingerprint_of(&bytes), &p, &mut out);
        game.decode_state(&out)
    };
    assert!(forge(&|_| {}).is_ok());
    for rules_state in [1_000_000, u32::MAX] {
        match forge(&|p| p.rules_state = rules_state) {
            Err(StateCodecError::Rejected { message }) => {
                assert!(message.contains("rules state"), "{message}")
            }
            other => panic!("an impossible rules position was accepted: {other:?}"),
        }
    }
}

#[test]
fn interpreter_states_are_refused_as_another_reasoners() {
    let game = tic_tac_toe();
    let interp =
        Interpreter::new(&common::game_ir("ticTacToe.rbg"), "ticTacToe", InterpOptions::default()).unwrap();
    let (mut s, mut sc) = (interp.initial_state(), interp.new_scratch());
    assert!(interp.complete_keeper(&mut s, &mut sc, 100).unwrap());
    let mut bytes = Vec::new();
    interp.encode_state(&s, &mut bytes);
    let mut compiled_bytes = Vec::new();
    game.encode_state(&game.initial_state(), &mut compiled_bytes);
    assert_eq!(game.info(), interp.info());
    assert_eq!(rules_fingerprint_of(&bytes), interp.rules_fingerprint());
    assert_ne!(rules_fingerprint_of(&compiled_bytes), interp.rules_fingerprint());
    // Same magic, version and game fingerprint: only the rules fingerprint differs.
    assert_eq!(bytes[..13], compiled_bytes[..13]);
    match game.decode_state(&bytes) {
        Err(StateCodecError::Rejected { message }) => {
            assert!(message.contains("another rules numbering"), "{message}")
        }
        other => panic!("an interpreter state was accepted: {other:?}"),
    }
}

#[test]
fn a_compiled_move_list_past_its_bound_stops_with_too_many_moves() {
    // One move marks any ordered selection of distinct cells of a 2×5 board: 9,864,101 moves of
    // up to 11 actions, far more than the list's bound of actions.
    let text = "#players = a(1)\n#pieces = e, x\n#variables =\n\
                #board = rectangle(up, down, left, right, [e,e,e,e,e][e,e,e,e,e])\n\
                #rules = ->a ((up + down + left + right)* {e} [x])* ->>\n";
    static LIB: OnceLock<PathBuf> = OnceLock::new();
    let game = LibGame::open(LIB.get_or_init(|| common::compiled_library_of_text(text, "marking"))).unwrap();
    let (mut s, mut sc) = (game.initial_state(), game.new_scratch());
    assert!(game.complete_keeper(&mut s, &mut sc, 100).unwrap());
    // The buffered call runs the library's own `legal_moves` (its generated sink).
    let mut list = MoveList::new();
    assert_eq!(
        game.legal_moves_buffered(&mut s, &mut sc, &mut list),
        Err(SearchError::TooManyMoves { limit: DEFAULT_MAX_ACTIONS })
    );
    // The visitor path with a small bound stops as soon as the list is full.
    let mut small = MoveList::with_limit(1000);
    assert_eq!(game.legal_moves(&mut s, &mut sc, &mut small), Err(SearchError::TooManyMoves { limit: 1000 }));
    assert!(small.iter().map(<[_]>::len).sum::<usize>() <= 1000);
}
