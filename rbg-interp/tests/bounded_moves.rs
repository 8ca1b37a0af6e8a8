//! One move generation holds a bounded number of moves: a game whose single move may mark any
//! set of empty cells in any order ends with an error (or an exact count) in bounded memory
//! instead of growing its move list until the machine runs out of memory.

use rbg_core::perft::{perft, DriverError, PerftCounts, PerftOptions};
use rbg_core::playout::{flat_monte_carlo, McLimit, McOptions};
use rbg_core::{Game, MoveList, SearchError};
use rbg_interp::{InterpOptions, Interpreter};

mod common;
use common::read_game;

/// One move of player a marks any set of empty cells, in any order, then the game ends.
fn marking_game(rows: usize, columns: usize, options: InterpOptions) -> Interpreter {
    let row = format!("[{}]", vec!["e"; columns].join(","));
    let board = vec![row; rows].join("");
    let text = format!(
        "#players = a(1)\n#pieces = e, x\n#variables =\n\
         #board = rectangle(up, down, left, right, {board})\n\
         #rules = ->a ((up + down + left + right)* {{e}} [x])* ->>\n"
    );
    let game = read_game(text.as_bytes()).expect("parses");
    Interpreter::new(&game, "marking", options).expect("builds")
}

#[test]
fn listing_too_many_moves_is_an_error() {
    let game = marking_game(3, 6, InterpOptions::default());
    let mut s = game.initial_state();
    let mut sc = game.new_scratch();
    assert!(game.complete_keeper(&mut s, &mut sc, 100).unwrap());
    let mut list = MoveList::with_limit(10_000);
    assert_eq!(
        game.legal_moves(&mut s, &mut sc, &mut list),
        Err(SearchError::TooManyMoves { limit: 10_000 })
    );
    assert!(list.iter().map(|m| m.len()).sum::<usize>() <= 10_000);
}

#[test]
fn perft_and_playouts_past_the_list_bound_end_with_the_search_bound() {
    let options = InterpOptions { max_search_nodes: 100_000, ..Default::default() };
    let game = marking_game(3, 6, options);
    for threads in [1, 2] {
        let opts = PerftOptions { max_move_actions: 1000, threads, ..Default::default() };
        let err = perft(&game, 1, &opts).unwrap_err();
        assert_eq!(err, DriverError::Search(SearchError::SearchTooLarge { limit: 100_000 }));
    }
    let opts = McOptions { limit: McLimit::Playouts(3), max_move_actions: 1000, ..Default::default() };
    let err = flat_monte_carlo(&game, &opts, |_| {}).unwrap_err();
    assert_eq!(err, DriverError::Search(SearchError::SearchTooLarge { limit: 100_000 }));
}

#[test]
fn small_boards_are_counted_exactly_past_the_list_bound() {
    // On a strip of 3 cells a move marks an ordered selection of distinct cells: 1 + 3 + 3·2 +
    // 3·2·1 = 16 moves, after each of which the game is over.
    let game = marking_game(1, 3, InterpOptions::default());
    for max_move_actions in [0, 5, usize::MAX] {
        for threads in [1, 3] {
            let opts = PerftOptions { max_move_actions, threads, ..Default::default() };
            assert_eq!(perft(&game, 1, &opts).unwrap(), PerftCounts { leaves: 16, nodes: 17 });
            assert_eq!(perft(&game, 2, &opts).unwrap(), PerftCounts { leaves: 0, nodes: 17 });
        }
        let opts = McOptions { limit: McLimit::Playouts(200), max_move_actions, ..Default::default() };
        let stats = flat_monte_carlo(&game, &opts, |_| {}).unwrap();
        assert_eq!((stats.playouts, stats.plies, stats.moves), (200, 200, 200 * 16));
    }
}
