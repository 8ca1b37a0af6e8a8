//! Compiled perft equals the reference (rbg2cpp's perft driver) on every row of
//! `reference-perft.csv` with at most `$RBG_PERFT_MAX_LEAVES` leaves (default 10^6 in release), for every
//! corpus game, through the rbg-core perft driver.

use rayon::prelude::*;
use rbg_compiled_tests::{visit_baseline_game, visit_game, GameVisitor, BASELINE_GAMES, GAMES};
use rbg_core::perft::{perft, DriverError, PerftCounts, PerftOptions};
use rbg_core::Game;

use rbg_testdata::{available, conformance_dir, corpus_dir, perft_max_leaves, reference_perft, PerftRow};

/// The finished reference rows with at most `max_leaves` leaves.
fn reference_rows(max_leaves: u64) -> Vec<PerftRow> {
    reference_perft(&conformance_dir()).into_iter().filter(|r| r.leaves <= max_leaves).collect()
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
    if !available(&[&conformance_dir().join("reference-perft.csv"), &corpus_dir()]) {
        return;
    }
    let max_leaves = perft_max_leaves();
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
    if !available(&[&conformance_dir().join("reference-perft.csv"), &corpus_dir()]) {
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
