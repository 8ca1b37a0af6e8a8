//! The dynamic handle over the interpreter counts, plays and serialises exactly like the
//! interpreter called through static dispatch.

mod common;

use rbg_core::dynamic::AnyGame;
use rbg_core::perft::{perft, PerftOptions};
use rbg_core::playout::{flat_monte_carlo, McLimit, McOptions};
use rbg_core::{Game, MoveList};
use rbg_interp::{InterpOptions, Interpreter};

fn interpreter(file: &str) -> Interpreter {
    let name = file.trim_end_matches(".rbg");
    Interpreter::new(&common::game_ir(file), name, InterpOptions::default()).unwrap()
}

#[test]
fn perft_and_playouts_through_the_handle_equal_static_dispatch() {
    // (game, depth): small enough for a debug-free test run, deep enough to reach ends of games.
    for (file, depth) in
        [("ticTacToe.rbg", 6), ("connect4.rbg", 4), ("breakthrough.rbg", 3), ("foxAndHounds.rbg", 4)]
    {
        let game = interpreter(file);
        let expected = perft(&game, depth, &PerftOptions::default()).unwrap();
        let dynamic = AnyGame::new(interpreter(file));
        assert_eq!(perft(&dynamic, depth, &PerftOptions::default()).unwrap(), expected, "{file}");
        let parallel = PerftOptions { threads: 2, ..Default::default() };
        assert_eq!(perft(&dynamic, depth, &parallel).unwrap(), expected, "{file} in parallel");
        let opts = McOptions { limit: McLimit::Playouts(20), seed: 9, ..Default::default() };
        let a = flat_monte_carlo(&game, &opts, |_| {}).unwrap();
        let b = flat_monte_carlo(&dynamic, &opts, |_| {}).unwrap();
        assert_eq!((a.plies, a.moves, a.score_sum), (b.plies, b.moves, b.score_sum), "{file}");
    }
}

#[test]
fn the_handle_serialises_like_the_engine_and_states_of_other_interpreted_games_are_foreign() {
    let engine = interpreter("connect4.rbg");
    let dynamic = AnyGame::new(interpreter("connect4.rbg"));
    let (mut s, mut t) = (engine.initial_state(), dynamic.initial_state());
    let (mut sc, mut tc) = (engine.new_scratch(), dynamic.new_scratch());
    let mut moves = MoveList::new();
    for i in 0..6 {
        engine.complete_keeper(&mut s, &mut sc, 100).unwrap();
        dynamic.complete_keeper(&mut t, &mut tc, 100).unwrap();
        engine.legal_moves(&mut s, &mut sc, &mut moves).unwrap();
        let m = moves.get(i % moves.len()).to_vec();
        engine.apply_move(&mut s, &m);
        dynamic.try_apply_move(&mut t, &mut tc, &m).unwrap();
    }
    let mut expected = Vec::new();
    engine.encode_state(&s, &mut expected);
    assert_eq!(dynamic.try_encode_state(&t).unwrap(), expected);
    assert_eq!(t.downcast_ref::<rbg_interp::State>(), Some(&s));
    // Decoding goes to the engine: the same result through the handle as without it.
    match (engine.decode_state(&expected), dynamic.decode_state(&expected)) {
        (Ok(a), Ok(b)) => assert_eq!(b.downcast_ref::<rbg_interp::State>(), Some(&a)),
        (Err(a), Err(b)) => assert_eq!(a, b),
        (a, b) => panic!("the handle decoded differently: {a:?} vs {b:?}"),
    }
    // A state of another interpreted game has the same Rust type but is foreign.
    let other = AnyGame::new(interpreter("ticTacToe.rbg"));
    let mut foreign = other.initial_state();
    assert!(dynamic.check(&foreign).is_err());
    dynamic.legal_moves(&mut foreign, &mut tc, &mut moves).unwrap();
    assert!(moves.is_empty());
}
