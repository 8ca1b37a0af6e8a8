//! Perft conformance: leaves and nodes equal the reference's (rbg2cpp's perft driver) for every
//! row of `conformance/reference-perft.csv` with at most `$RBG_PERFT_MAX_LEAVES` leaves
//! (default 10^6 in release builds; 2·10^4 in unoptimised builds, which are ~20x slower), on all
//! games, through the rbg-core perft driver. Run it with `cargo test --release`.

mod common;

use rayon::prelude::*;
use rbg_core::perft::{perft, PerftOptions};
use rbg_interp::InterpOptions;

use common::{conformance_dir, corpus_dir, data_available, interpreter, read_csv};

struct Row {
    game: String,
    depth: u32,
    leaves: u64,
    nodes: u64,
}

fn reference_rows(max_leaves: u64) -> Vec<Row> {
    read_csv(&conformance_dir().join("reference-perft.csv"))
        .into_iter()
        .filter(|r| r.len() >= 4 && !r[2].is_empty())
        .map(|r| Row {
            game: r[0].clone(),
            depth: r[1].parse().expect("depth"),
            leaves: r[2].parse().expect("leaves"),
            nodes: r[3].parse().expect("states"),
        })
        .filter(|r| r.leaves <= max_leaves)
        .collect()
}

#[test]
fn perft_matches_reference() {
    let csv = conformance_dir().join("reference-perft.csv");
    if !data_available(&[csv, corpus_dir(), conformance_dir().join("lowered")]) {
        return;
    }
    let default_max = if cfg!(debug_assertions) { 20_000 } else { 1_000_000 };
    let max_leaves: u64 =
        std::env::var("RBG_PERFT_MAX_LEAVES").ok().and_then(|v| v.parse().ok()).unwrap_or(default_max);
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
