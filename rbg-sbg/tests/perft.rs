//! Perft of the direct reasoner equals perft of the RBG translation run by the interpreter, on
//! every game of `games/sbg/`, to a depth of at least 10^5 leaves where that takes seconds;
//! some counts are also checked against values derived without our code (by hand, or the RBG
//! corpus's reference table for games with the same rules).

mod support;

use rbg_core::perft::{perft, PerftOptions};

/// Leaves per depth 1..=depth of both reasoners; asserts they agree at every depth.
fn agreeing_perft(file: &str, depth: u32) -> Vec<u64> {
    let (direct, interpreter) = support::both(file);
    let options = PerftOptions::default();
    (1..=depth)
        .map(|d| {
            let ours = perft(&direct, d, &options).expect("direct perft");
            let theirs = perft(&interpreter, d, &options).expect("interpreter perft");
            assert_eq!((ours.leaves, ours.nodes), (theirs.leaves, theirs.nodes), "{file} at depth {d}");
            ours.leaves
        })
        .collect()
}

/// Perft to `depth`, which must reach 10^5 leaves.
fn deep_agreeing_perft(file: &str, depth: u32) -> Vec<u64> {
    let leaves = agreeing_perft(file, depth);
    assert!(leaves.last().is_some_and(|&l| l >= 100_000), "{file}: {leaves:?} stays below 10^5 leaves");
    leaves
}

#[test]
fn gardner() {
    let leaves = deep_agreeing_perft("gardner.sbg", 6);
    // Depths 1 and 2 by hand, depth 3 from the reference table's chessGardner5x5_kingCapture
    // (521) less the 11 pawn double steps that game allows at ply 3 (see the file's header).
    assert_eq!(leaves[..3], [7, 53, 510]);
}

#[test]
fn breakthrough_five_equals_the_rbg_reference() {
    let leaves = deep_agreeing_perft("breakthrough5.sbg", 5);
    // /work/shared/conformance/reference-perft.csv, breakthrough_5x5 (same rules).
    assert_eq!(leaves, [13, 156, 1924, 23084, 289828]);
}

#[test]
fn breakthrough_six_equals_the_rbg_reference() {
    let leaves = deep_agreeing_perft("breakthrough6.sbg", 5);
    assert_eq!(leaves, [16, 256, 4308, 71478, 1248290]);
}

#[test]
fn nightriders() {
    let leaves = deep_agreeing_perft("nightriders.sbg", 4);
    eprintln!("nightriders {leaves:?}");
}

#[test]
fn grasshoppers() {
    let leaves = deep_agreeing_perft("grasshoppers.sbg", 5);
    eprintln!("grasshoppers {leaves:?}");
}

#[test]
fn cannibals() {
    let leaves = deep_agreeing_perft("cannibals.sbg", 6);
    eprintln!("cannibals {leaves:?}");
}

#[test]
fn silverman() {
    let leaves = deep_agreeing_perft("silverman.sbg", 7);
    // By hand (see the file's header).
    assert_eq!(leaves[..2], [4, 18]);
}

#[test]
fn los_alamos() {
    let leaves = deep_agreeing_perft("losalamos.sbg", 5);
    assert_eq!(leaves[0], 10);
}

#[test]
fn duel_ends_at_the_turn_limit() {
    let leaves = agreeing_perft("duel.sbg", 7);
    // By hand: 3 and 9; the limit of 6 half-moves leaves nothing at depth 7.
    assert_eq!(leaves[..2], [3, 9]);
    assert!(leaves[5] > 0);
    assert_eq!(leaves[6], 0);
}

/// Blockade's leaves per depth, counted without our code: only the pawns' rows matter (each
/// file holds one white pawn moving up and one black pawn moving down, never passing).
fn blockade_by_brute_force(depth: u32) -> Vec<u64> {
    fn count(white: [u32; 4], black: [u32; 4], white_to_move: bool, depth: u32, leaves: &mut [u64]) {
        if depth as usize == leaves.len() {
            return;
        }
        for file in 0..4 {
            if white[file] + 1 < black[file] {
                let (mut w, mut b) = (white, black);
                if white_to_move {
                    w[file] += 1;
                } else {
                    b[file] -= 1;
                }
                leaves[depth as usize] += 1;
                count(w, b, !white_to_move, depth + 1, leaves);
            }
        }
    }
    let mut leaves = vec![0; depth as usize];
    count([0; 4], [4; 4], true, 0, &mut leaves);
    leaves
}

#[test]
fn blockade_matches_a_brute_force_count() {
    // 4 files with 3 empty squares each: 12 moves in all, then the player to move is stuck.
    let expected = blockade_by_brute_force(13);
    assert_eq!(expected[12], 0);
    assert_eq!(agreeing_perft("blockade.sbg", 13), expected);
}

#[test]
fn fox_hunt_an_asymmetric_game() {
    let leaves = deep_agreeing_perft("foxhunt.sbg", 7);
    // By hand (see the file's header).
    assert_eq!(leaves[..2], [5, 25]);
}

#[test]
fn striders_powers_of_groups() {
    let leaves = deep_agreeing_perft("striders.sbg", 5);
    assert_eq!(leaves[0], 12);
}

#[test]
fn knight_race_ends_by_squares_only() {
    let leaves = deep_agreeing_perft("knightrace.sbg", 7);
    // By hand: 3 leaps per knight, and black's leaps land on empty squares or white knights.
    assert_eq!(leaves[..2], [6, 36]);
}

#[test]
fn rook_hunt_ends_by_counts_only() {
    let leaves = deep_agreeing_perft("rookhunt.sbg", 6);
    assert_eq!(leaves[..2], [7, 48]);
}

#[test]
fn leapfrog_chains_of_jumps_over_own_pieces() {
    let leaves = deep_agreeing_perft("leapfrog.sbg", 6);
    assert_eq!(leaves[0], 11);
}
