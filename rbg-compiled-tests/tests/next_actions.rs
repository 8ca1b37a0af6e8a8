//! The compiled reasoners' move-by-move interface (`Game::next_actions`, generated as a
//! search that skips modifiers disagreeing with the prefix and abandons a next action's
//! subtree at its first completion) gives, on every corpus game, optimised and unoptimised,
//! exactly the next actions derived from the whole move lists at every prefix of random walks
//! along random games.

use rayon::prelude::*;
use rbg_compiled_tests::{visit_baseline_game, visit_game, GameVisitor, BASELINE_GAMES, GAMES};
use rbg_core::Game;
use rbg_testdata::available;
use rbg_testdata::steps::check_next_actions;

struct Check<'a> {
    name: &'a str,
    seed: u64,
}

impl GameVisitor for Check<'_> {
    type Output = Result<usize, String>;

    fn visit<G: Game>(self, compiled: &G) -> Result<usize, String> {
        check_next_actions(compiled, self.seed, 24, 120).map_err(|e| format!("{}: {e}", self.name))
    }
}

fn failures(results: Vec<Result<usize, String>>) -> Vec<String> {
    results
        .into_iter()
        .filter_map(|r| match r {
            Ok(0) => Some("nothing compared".to_string()),
            Ok(_) => None,
            Err(e) => Some(e),
        })
        .collect()
}

#[test]
fn next_actions_agree_with_move_lists_on_every_game() {
    if !available(&[&rbg_testdata::corpus_dir()]) {
        return;
    }
    assert!(!GAMES.is_empty(), "no compiled games although the corpus exists");
    let results: Vec<_> = GAMES
        .par_iter()
        .map(|name| {
            visit_game(name, Check { name, seed: 7 }).unwrap_or_else(|| Err(format!("{name}: not compiled")))
        })
        .collect();
    let failed = failures(results);
    assert!(failed.is_empty(), "{}", failed.join("\n"));
    let results: Vec<_> = BASELINE_GAMES
        .par_iter()
        .map(|name| {
            visit_baseline_game(name, Check { name, seed: 8 })
                .unwrap_or_else(|| Err(format!("{name}: not compiled")))
        })
        .collect();
    let failed = failures(results);
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}
