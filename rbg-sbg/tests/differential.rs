//! Random games played by the direct reasoner and the interpreter of the translation side by
//! side: at every step both must offer the same set of (from, to) moves, hold the same board and
//! the same scores, and end at the same time.

mod support;

use std::collections::BTreeSet;

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use rbg_core::{Game, MoveList, KEEPER};
use rbg_sbg::{rbg_move_squares, SbgReasoner};

const GAMES: &[&str] = &[
    "gardner.sbg",
    "breakthrough5.sbg",
    "breakthrough6.sbg",
    "nightriders.sbg",
    "grasshoppers.sbg",
    "cannibals.sbg",
    "silverman.sbg",
    "losalamos.sbg",
    "blockade.sbg",
    "duel.sbg",
    "foxhunt.sbg",
    "striders.sbg",
    "knightrace.sbg",
    "rookhunt.sbg",
    "leapfrog.sbg",
];

fn play_side_by_side(file: &str, games: u32, seed: u64) {
    let (direct, interpreter) = support::both(file);
    assert_eq!(direct.info().pieces, interpreter.info().pieces, "{file}: piece names and ids");
    assert_eq!(direct.info().vertices, interpreter.info().vertices, "{file}: vertices");
    assert_eq!(direct.info().edges, interpreter.info().edges, "{file}: edges");
    assert_eq!(direct.info().positions, interpreter.info().positions, "{file}: positions");
    assert_eq!(direct.info().variables, interpreter.info().variables, "{file}: variables");
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let (mut dsc, mut isc) = (direct.new_scratch(), interpreter.new_scratch());
    let (mut dlist, mut ilist) = (MoveList::new(), MoveList::new());
    let mut endings = BTreeSet::new();
    for game in 0..games {
        let mut ds = direct.initial_state();
        let mut is = interpreter.initial_state();
        interpreter.complete_keeper(&mut is, &mut isc, 1000).expect("keeper");
        for ply in 0.. {
            let at = format!("{file}, game {game}, ply {ply}");
            direct.legal_moves(&mut ds, &mut dsc, &mut dlist).expect("direct moves");
            interpreter.legal_moves(&mut is, &mut isc, &mut ilist).expect("interpreter moves");
            let ours: BTreeSet<_> = dlist.iter().filter_map(SbgReasoner::move_squares).collect();
            let theirs: BTreeSet<_> = ilist.iter().filter_map(rbg_move_squares).collect();
            assert_eq!(ours.len(), dlist.len(), "{at}: the direct moves are distinct pairs");
            assert_eq!(theirs.len(), ilist.len(), "{at}: each RBG move is one (from, to)");
            assert_eq!(ours, theirs, "{at}: move sets");
            for v in 0..direct.info().vertices.len() as u32 {
                assert_eq!(direct.piece(&ds, v), interpreter.piece(&is, v), "{at}: vertex {v}");
            }
            for var in 0..3 {
                assert_eq!(direct.variable(&ds, var), interpreter.variable(&is, var), "{at}: variable {var}");
            }
            assert_eq!(
                direct.current_player(&ds) == KEEPER,
                interpreter.current_player(&is) == KEEPER,
                "{at}: ended by a rule"
            );
            if dlist.is_empty() {
                endings.insert((direct.variable(&ds, 0), direct.current_player(&ds) == KEEPER));
                break;
            }
            let (from, to) =
                SbgReasoner::move_squares(dlist.get(rng.gen_range(0..dlist.len()))).expect("a move");
            let rbg_move = ilist
                .iter()
                .find(|m| rbg_move_squares(m) == Some((from, to)))
                .expect("the same move")
                .to_vec();
            direct.apply_move(&mut ds, &SbgReasoner::move_of_squares(from, to));
            interpreter.apply_move(&mut is, &rbg_move);
            interpreter.complete_keeper(&mut is, &mut isc, 1000).expect("keeper");
        }
    }
    eprintln!("{file}: endings (white's score, ended by a rule) {endings:?}");
}

#[test]
fn random_games_agree_move_by_move() {
    for (i, file) in GAMES.iter().enumerate() {
        play_side_by_side(file, 40, 7 + i as u64);
    }
}

#[test]
fn every_game_of_the_directory_is_played() {
    let mut listed: Vec<String> = std::fs::read_dir(support::game_path(""))
        .expect("games/sbg")
        .map(|entry| entry.expect("an entry").file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".sbg"))
        .collect();
    listed.sort();
    let mut played: Vec<&str> = GAMES.to_vec();
    played.sort();
    assert_eq!(listed, played);
}
