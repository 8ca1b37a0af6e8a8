//! Compiled perft equals the reference (rbg2cpp's perft driver) on every row of
//! `reference-perft.csv` with at most `$RBG_PERFT_MAX_LEAVES` leaves (default 10^6), for every
//! corpus game, through the rbg-core perft driver.

mod common;

use rayon::prelude::*;
use rbg_compiled_tests::{visit_baseline_game, visit_game, GameVisitor, BASELINE_GAMES, GAMES};
use rbg_core::perft::{perft, DriverError, PerftCounts, PerftOptions};
use rbg_core::Game;

use common::{conformance_dir, corpus_dir, data_available, read_csv};

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

struct Perft(u32);

impl GameVisitor for Perft {
    type Output = Result<PerftCounts, DriverError>;
    fn visit<G: Game>(self, game: &G) -> Self::Output {
        perft(game, self.0, &PerftOptions::default())
    }
}

#[test]
fn compiled_perft_matches_reference() {
    let csv = conformance_dir().join("reference-perft.csv");
    if !data_available(&[csv, corpus_dir()]) {
        return;
    }
    let max_leaves: u64 =
        std::env::var("RBG_PERFT_MAX_LEAVES").ok().and_then(|v| v.parse().ok()).unwrap_or(1_000_000);
    let rows = reference_rows(max_leaves);
    let mut games: Vec<String> = rows.iter().map(|r| r.game.clone()).collect();
    games.dedup();
    let failures: Vec<String> = games
        .par_iter()
        .flat_map_iter(|game| {
            let mut failures = Vec::new();
            for row in rows.iter().filter(|r| &r.game == game) {
                match visit_game(game, Perft(row.depth)) {
                    None => failures.push(format!("{game}: not compiled")),
                    Some(Ok(c)) if c.leaves == row.leaves && c.nodes == row.nodes => {}
                    Some(Ok(c)) => failures.push(format!(
                        "{game} depth {}: got leaves {} nodes {}, reference {} {}",
                        row.depth, c.leaves, c.nodes, row.leaves, row.nodes
                    )),
                    Some(Err(e)) => failures.push(format!("{game} depth {}: {e}", row.depth)),
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
    assert_eq!(GAMES.len(), games.len(), "every compiled game has reference rows");
}

/// The games compiled with every optimisation off agree with the reference too (on the smaller
/// rows: moves are applied by replaying the search, which is slow by design).
#[test]
fn unoptimised_compiled_perft_matches_reference() {
    let csv = conformance_dir().join("reference-perft.csv");
    if !data_available(&[csv, corpus_dir()]) {
        return;
    }
    let rows = reference_rows(3_000);
    let mut checked = 0;
    for row in rows.iter().filter(|r| BASELINE_GAMES.contains(&r.game.as_str())) {
        let c = visit_baseline_game(&row.game, Perft(row.depth)).expect("compiled").expect("perft");
        assert_eq!((c.leaves, c.nodes), (row.leaves, row.nodes), "{} depth {}", row.game, row.depth);
        checked += 1;
    }
    assert!(checked >= 2 * BASELINE_GAMES.len(), "only {checked} rows checked");
}
