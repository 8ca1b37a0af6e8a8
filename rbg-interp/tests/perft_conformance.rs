//! Perft conformance: leaves and nodes equal the reference's (rbg2cpp's perft driver) for every
//! row of `conformance/reference-perft.csv` with at most `$RBG_PERFT_MAX_LEAVES` leaves
//! (default 10^6 in release builds; 2·10^4 in unoptimised builds, which are ~20x slower), on all
//! games, through the rbg-core perft driver. Run it with `cargo test --release`.

mod common;

use rbg_core::perft::{perft, PerftOptions};
use rbg_interp::InterpOptions;

use common::{conformance_dir, corpus_dir, data_available, interpreter};
use rbg_testdata::{check_reference_perft, perft_max_leaves};

#[test]
fn perft_matches_reference() {
    let csv = conformance_dir().join("reference-perft.csv");
    if !data_available(&[csv, corpus_dir(), conformance_dir().join("lowered")]) {
        return;
    }
    let max_leaves = perft_max_leaves();
    if max_leaves < 1_000_000 {
        println!("note: checking rows with at most {max_leaves} leaves (use --release for the 10^6 subset)");
    }
    check_reference_perft(
        max_leaves,
        |game| Ok(interpreter(game, InterpOptions::default())),
        |interp, depth| {
            let c = perft(interp, depth, &PerftOptions::default()).map_err(|e| e.to_string())?;
            Ok((c.leaves, c.nodes))
        },
    );
}
