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
