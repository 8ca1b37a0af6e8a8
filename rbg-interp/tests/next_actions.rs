//! The interpreter's move-by-move interface (`Game::next_actions`, a pruned search that stops
//! at the first completion of each next action) gives, on every corpus game, exactly the next
//! actions derived from the whole move lists, at every prefix of random walks along random
//! games; with every optimisation on and with all off.

mod common;

use rayon::prelude::*;
use rbg_interp::InterpOptions;
use rbg_testdata::steps::check_next_actions;

use common::{corpus_dir, data_available, interpreter, with_baseline};

#[test]
fn next_actions_agree_with_move_lists_on_every_corpus_game() {
    if !data_available(&[corpus_dir()]) {
        return;
    }
    let games = rbg_testdata::corpus_games(&corpus_dir());
    assert!(games.len() >= 75, "expected the whole corpus, found {}", games.len());
    let failures: Vec<String> = games
        .par_iter()
        .flat_map_iter(|g| {
            with_baseline(InterpOptions::default()).into_iter().enumerate().filter_map(move |(i, options)| {
                let interp = interpreter(&g.name, options);
                match check_next_actions(&interp, 7 + i as u64, 24, 120) {
                    Ok(compared) if compared > 0 => None,
                    Ok(_) => Some(format!("{}: nothing compared", g.name)),
                    Err(e) => Some(format!("{} (options {i}): {e}", g.name)),
                }
            })
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
