//! Compiled perft equals the reference (rbg2cpp's perft driver) on every row of
//! `reference-perft.csv` with at most `$RBG_PERFT_MAX_LEAVES` leaves (default 10^6 in release), for every
//! corpus game, through the rbg-core perft driver.

use rbg_compiled_tests::{
    visit_baseline_game, visit_game, visit_switch_variant, GameVisitor, BASELINE_GAMES, GAMES, SWITCH_GAME,
    SWITCH_VARIANTS,
};
use rbg_core::count_replay::CountReplay;
use rbg_core::perft::{perft, DriverError, PerftCounts, PerftOptions};
use rbg_core::playout::{flat_monte_carlo, McLimit, McOptions};
use rbg_core::Game;

use rbg_testdata::{
    available, check_reference_perft, conformance_dir, corpus_dir, perft_max_leaves, reference_perft_up_to,
};

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
    let coverage = check_reference_perft(
        max_leaves,
        |game| if GAMES.contains(&game) { Ok(game.to_string()) } else { Err("not compiled".into()) },
        |game, depth| match visit_game(game, Perft(depth)) {
            Some(Ok(c)) => Ok((c.leaves, c.nodes)),
            Some(Err(e)) => Err(e.to_string()),
            None => Err("not compiled".into()),
        },
    );
    assert_eq!(GAMES.len(), coverage.games.len(), "every compiled game has reference rows");
}

/// The games compiled with every optimisation off agree with the reference too (on the smaller
/// rows: moves are applied by replaying the search, which is slow by design).
#[test]
fn unoptimised_compiled_perft_matches_reference() {
    if !available(&[&conformance_dir().join("reference-perft.csv"), &corpus_dir()]) {
        return;
    }
    let rows = reference_perft_up_to(3_000);
    let mut checked = 0;
    for row in rows.iter().filter(|r| BASELINE_GAMES.contains(&r.game.as_str())) {
        let c = visit_baseline_game(&row.game, Perft(row.depth)).expect("compiled").expect("perft");
        assert_eq!((c.leaves, c.nodes), (row.leaves, row.nodes), "{} depth {}", row.game, row.depth);
        checked += 1;
    }
    assert!(checked >= 2 * BASELINE_GAMES.len(), "only {checked} rows checked");
}

/// Each switch alone away from its default keeps the reference counts (the game compiled once
/// per switch by build.rs), on the rows of up to 10^5 leaves.
#[test]
fn each_switch_alone_keeps_the_compiled_perft() {
    if !available(&[&conformance_dir().join("reference-perft.csv"), &corpus_dir()]) {
        return;
    }
    // 11 switches of the shared program and 20 of the compiler (`rbg perft --help`).
    assert_eq!(SWITCH_VARIANTS.len(), 31, "{SWITCH_VARIANTS:?}");
    let rows: Vec<_> = reference_perft_up_to(100_000).into_iter().filter(|r| r.game == SWITCH_GAME).collect();
    assert!(rows.len() >= 4, "{SWITCH_GAME} has {} rows", rows.len());
    for (index, flag) in SWITCH_VARIANTS.iter().enumerate() {
        for row in &rows {
            let c = visit_switch_variant(index, Perft(row.depth)).expect("compiled").expect("perft");
            assert_eq!(
                (c.leaves, c.nodes),
                (row.leaves, row.nodes),
                "{SWITCH_GAME} --{flag} depth {}",
                row.depth
            );
        }
    }
}

struct Playouts(CountReplay);

impl GameVisitor for Playouts {
    type Output = (u64, u64, Vec<i64>);
    fn visit<G: Game>(self, game: &G) -> Self::Output {
        let options = McOptions {
            seed: 5,
            limit: McLimit::Playouts(300),
            count_replay: self.0,
            ..McOptions::default()
        };
        let stats = flat_monte_carlo(game, &options, |_| {}).expect("playouts");
        (stats.plies, stats.moves, stats.score_sum)
    }
}

/// Ray captures (reversi's flips as one loop per direction), bulk counts (its moves counted
/// by a popcount) and pattern tails (its keeper reading the move sets) play the same games from
/// the same seed as the searches they replace, whether the playouts count and replay or list
/// the moves.
#[test]
fn ray_captures_bulk_counts_and_pattern_tails_play_the_same_playouts() {
    for flag in ["no-ray-captures", "no-bulk-counts", "no-pattern-tails"] {
        let Some(index) = SWITCH_VARIANTS.iter().position(|f| *f == flag) else {
            continue;
        };
        for mode in [CountReplay::From(0), CountReplay::From(u64::MAX)] {
            let on = visit_game(SWITCH_GAME, Playouts(mode)).expect("compiled");
            let off = visit_switch_variant(index, Playouts(mode)).expect("compiled");
            assert_eq!(on, off, "{flag} {mode:?}");
            assert!(on.0 > 300 * 20, "{on:?}");
        }
    }
}
