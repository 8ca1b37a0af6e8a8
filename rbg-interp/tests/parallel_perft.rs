//! Parallel perft gives the reference's counts (conformance/reference-perft.csv) with any number
//! of threads and either split, and the balanced split gives every thread many work items even
//! when the root has a single move.

mod common;

use std::sync::atomic::{AtomicUsize, Ordering};

use rbg_core::perft::{perft, perft_with_progress, PerftCounts, PerftOptions, PerftSplit, ITEMS_PER_THREAD};
use rbg_core::{Game, MoveList};
use rbg_interp::{InterpOptions, Interpreter};
use rbg_testdata::{reference_perft, PerftRow};

use common::{conformance_dir, corpus_dir, data_available, interpreter, read_game};

/// The games checked and the most leaves of the rows checked (seconds in a release build).
const GAMES: [(&str, u64); 8] = [
    ("breakthrough", 20_000),
    ("chess", 10_000),
    ("connect4", 20_000),
    ("englishDraughts", 10_000),
    ("go", 400),
    ("hex_9x9", 7_000),
    ("reversi", 10_000),
    ("amazons", 3_000),
];

fn data() -> bool {
    data_available(&[conformance_dir().join("reference-perft.csv"), corpus_dir()])
}

/// The reference rows of `game` with at most `max_leaves` leaves.
fn rows(game: &str, max_leaves: u64) -> Vec<PerftRow> {
    let rows: Vec<PerftRow> = reference_perft(&conformance_dir())
        .into_iter()
        .filter(|r| r.game == game && r.leaves <= max_leaves)
        .collect();
    assert!(!rows.is_empty(), "{game}: no reference rows");
    rows
}

fn options(threads: usize, split: PerftSplit) -> PerftOptions {
    PerftOptions { threads, split, ..Default::default() }
}

/// The work items a run reports through its progress callback.
fn work_items<G: Game>(game: &G, depth: u32, opts: &PerftOptions) -> (PerftCounts, usize) {
    let total = AtomicUsize::new(0);
    let counts = perft_with_progress(game, depth, opts, &|_, t| total.store(t, Ordering::Relaxed)).unwrap();
    (counts, total.into_inner())
}

#[test]
fn parallel_counts_equal_the_reference() {
    if !data() {
        return;
    }
    for (name, max_leaves) in GAMES {
        let game = interpreter(name, InterpOptions::default());
        for row in rows(name, max_leaves) {
            let expected = PerftCounts { leaves: row.leaves, nodes: row.nodes };
            for threads in [1, 2, 3] {
                for split in [PerftSplit::Root, PerftSplit::Balanced] {
                    let got = perft(&game, row.depth, &options(threads, split)).unwrap();
                    assert_eq!(got, expected, "{name} depth {} threads {threads} {split:?}", row.depth);
                }
            }
        }
    }
}

/// Connect4 with a forced first move: yellow sets its own score before red's first turn. Its
/// tree is connect4's one ply deeper, so perft(d + 1) has connect4's leaves at depth d and one
/// more node.
fn forced_first_move_connect4() -> Interpreter {
    let text = std::fs::read_to_string(rbg_testdata::corpus_game("connect4")).unwrap();
    let rules = "#rules = [$ red=50] [$ yellow=50] (";
    assert!(text.contains(rules), "connect4.rbg changed: the test's edit no longer applies");
    let text = text.replace(rules, "#rules = [$ red=50] ->yellow [$ yellow=50] ->> (");
    let game = read_game(text.as_bytes()).unwrap();
    Interpreter::new(&game, "connect4_forced", InterpOptions::default()).unwrap()
}

#[test]
fn a_root_with_one_move_is_split_below_it() {
    if !data() {
        return;
    }
    let game = forced_first_move_connect4();
    let mut sc = game.new_scratch();
    let mut root = rbg_core::perft::root_state(&game, &mut sc, 100).unwrap();
    let mut moves = MoveList::new();
    game.legal_moves(&mut root, &mut sc, &mut moves).unwrap();
    assert_eq!(moves.len(), 1, "the root has one move");
    for row in rows("connect4", 20_000) {
        let expected = PerftCounts { leaves: row.leaves, nodes: row.nodes + 1 };
        let depth = row.depth + 1;
        assert_eq!(perft(&game, depth, &options(1, PerftSplit::Root)).unwrap(), expected, "depth {depth}");
        for threads in [2, 3] {
            let (counts, items) = work_items(&game, depth, &options(threads, PerftSplit::Balanced));
            assert_eq!(counts, expected, "depth {depth} threads {threads}");
            // Split to the first ply of at least the target (7^k moves), unless the tree is too
            // shallow for that: then down to the items with one ply to go.
            let plies_below_root = (depth - 1) as usize;
            let deepest = 7usize.pow(plies_below_root.saturating_sub(1) as u32);
            assert!(
                items >= ITEMS_PER_THREAD * threads || items == deepest,
                "depth {depth} threads {threads}: {items} items"
            );
            let (_, root_items) = work_items(&game, depth, &options(threads, PerftSplit::Root));
            assert_eq!(root_items, 1);
        }
    }
}

#[test]
fn few_root_moves_give_many_items() {
    if !data() {
        return;
    }
    // Reversi's root has 4 moves, connect4's and English draughts' 7.
    for (name, depth) in [("reversi", 6), ("connect4", 5), ("englishDraughts", 5)] {
        let game = interpreter(name, InterpOptions::default());
        let row = rows(name, u64::MAX).into_iter().find(|r| r.depth == depth).unwrap();
        let (counts, items) = work_items(&game, depth, &options(2, PerftSplit::Balanced));
        assert_eq!(counts, PerftCounts { leaves: row.leaves, nodes: row.nodes }, "{name}");
        assert!(items >= 2 * ITEMS_PER_THREAD, "{name}: {items} items");
    }
}

#[test]
fn nodes_whose_moves_do_not_fit_are_streamed_inside_the_split() {
    if !data() {
        return;
    }
    // Lists hold exactly the root's moves' actions, so the root and its children fit (black has
    // as many replies as white has first moves) but most positions after two plies have more
    // moves: the split keeps those nodes whole and their counts stream the moves.
    let game = interpreter("chess", InterpOptions::default());
    let mut sc = game.new_scratch();
    let mut root = rbg_core::perft::root_state(&game, &mut sc, 100).unwrap();
    let mut moves = MoveList::new();
    game.legal_moves(&mut root, &mut sc, &mut moves).unwrap();
    let max_move_actions = moves.iter().map(<[_]>::len).sum();
    let row = rows("chess", u64::MAX).into_iter().find(|r| r.depth == 4).unwrap();
    let expected = PerftCounts { leaves: row.leaves, nodes: row.nodes };
    // 24 threads aim at 768 items: more than the 400 after two plies, so the split tries the
    // third ply.
    for threads in [2, 24] {
        let opts = PerftOptions { threads, max_move_actions, ..Default::default() };
        let (counts, items) = work_items(&game, 4, &opts);
        assert_eq!(counts, expected, "threads {threads}");
        if threads == 24 {
            // Some of the 400 positions were expanded (their moves fit), not all (8902 items).
            assert!(items > 400 && items < 8902, "{items} items");
        }
    }
}
