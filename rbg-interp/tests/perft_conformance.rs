//! Perft conformance: leaves and nodes equal the reference's (rbg2cpp's perft driver) for every
//! row of `conformance/reference-perft.csv` with at most `$RBG_PERFT_MAX_LEAVES` leaves
//! (default 10^6 in release builds; 2·10^4 in unoptimised builds, which are ~20x slower), on all
//! games, through the rbg-core perft driver. Run it with `cargo test --release`.

mod common;

use rayon::prelude::*;
use rbg_core::perft::{perft, PerftOptions};
use rbg_interp::InterpOptions;

use common::{conformance_dir, corpus_dir, data_available, interpreter};
use rbg_testdata::{perft_max_leaves, reference_perft, PerftRow};

/// The finished reference rows with at most `max_leaves` leaves.
fn reference_rows(max_leaves: u64) -> Vec<PerftRow> {
    reference_perft(&conformance_dir()).into_iter().filter(|r| r.leaves <= max_leaves).collect()
}

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
    let rows = reference_rows(max_leaves);
    let mut games: Vec<String> = rows.iter().map(|r| r.game.clone()).collect();
    games.dedup();
    // One game per task; the biggest rows dominate, so games run in parallel.
    let failures: Vec<String> = games
        .par_iter()
        .flat_map_iter(|game| {
            let interp = interpreter(game, InterpOptions::default());
            let mut failures = Vec::new();
            for row in rows.iter().filter(|r| &r.game == game) {
                match perft(&interp, row.depth, &PerftOptions::default()) {
                    Ok(c) if c.leaves == row.leaves && c.nodes == row.nodes => {}
                    Ok(c) => failures.push(format!(
                        "{game} depth {}: got leaves {} nodes {}, reference {} {}",
                        row.depth, c.leaves, c.nodes, row.leaves, row.nodes
                    )),
                    Err(e) => failures.push(format!("{game} depth {}: {e}", row.depth)),
                }
            }
            failures
        })
        .collect();
    println!("{} reference rows over {} games checked", rows.len(), games.len());
    assert!(failures.is_empty(), "{} perft mismatches:\n{}", failures.len(), failures.join("\n"));
    assert!(
        games.len() >= 75 || max_leaves < 1_000,
        "expected rows for all 75 corpus games, got {}",
        games.len()
    );
}
