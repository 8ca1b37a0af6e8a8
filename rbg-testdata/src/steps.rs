//! A check of a reasoner's move-by-move interface ([`Game::next_actions`] and the
//! [`StepGenerator`] built on it) against its whole move lists, for the engines' test suites.
//!
//! The expected next actions of a partial move are derived here from the full list of legal
//! moves, independently of the engines' pruned searches: the distinct actions that follow the
//! prefix in the moves beginning with it, in the order of their first occurrence.

use rand::Rng;
use rand_core::SeedableRng;
use rbg_core::split::{SplitMoves, StepGenerator};
use rbg_core::{Action, Game, MoveList, PlayoutRng};

/// States with more legal moves than this skip the comparison of compressed steps.
const MAX_MOVES_FOR_STEPS: usize = 300;

/// The next actions of `prefix` by the definition: from the whole move list.
pub fn expected_next_actions(moves: &MoveList, prefix: &[Action]) -> Vec<Action> {
    let mut out: Vec<Action> = Vec::new();
    for m in moves.iter().filter(|m| m.len() > prefix.len() && m.starts_with(prefix)) {
        if !out.contains(&m[prefix.len()]) {
            out.push(m[prefix.len()]);
        }
    }
    out
}

/// Plays one random game of at most `max_plies` player moves. At every state it walks from the
/// empty prefix to a whole move, one random next action at a time, and requires
/// `Game::next_actions` to equal [`expected_next_actions`] at every prefix (and to be empty at
/// the whole move and at a prefix no move begins with); it also requires the compressed steps
/// of [`StepGenerator`] at the empty prefix to be those of [`SplitMoves`]. Stops once `budget`
/// prefixes were compared; returns how many were.
pub fn check_next_actions<G: Game>(
    game: &G,
    seed: u64,
    max_plies: usize,
    budget: usize,
) -> Result<usize, String> {
    let mut rng = PlayoutRng::seed_from_u64(seed);
    let mut sc = game.new_scratch();
    let mut s = game.initial_state();
    let mut moves = MoveList::new();
    let (mut next, mut prefix, mut compared) = (Vec::new(), Vec::new(), 0usize);
    let mut generator = StepGenerator::new();
    let mut split = SplitMoves::new();
    for ply in 0..max_plies {
        if !game.complete_keeper(&mut s, &mut sc, 100_000).map_err(|e| e.to_string())? {
            break;
        }
        game.legal_moves(&mut s, &mut sc, &mut moves).map_err(|e| e.to_string())?;
        if moves.is_empty() || compared >= budget {
            break;
        }
        let before = s.clone();
        prefix.clear();
        loop {
            game.next_actions(&mut s, &mut sc, &prefix, &mut next).map_err(|e| e.to_string())?;
            let expected = expected_next_actions(&moves, &prefix);
            compared += 1;
            if next != expected {
                return Err(format!(
                    "ply {ply}, prefix {prefix:?}: next actions {next:?}, expected {expected:?}"
                ));
            }
            if s != before {
                return Err(format!("ply {ply}: next_actions changed the state"));
            }
            if next.is_empty() {
                break;
            }
            prefix.push(next[rng.gen_range(0..next.len())]);
        }
        if !moves.iter().any(|m| m == prefix.as_slice()) {
            return Err(format!("ply {ply}: the walk ended at {prefix:?}, which is not a legal move"));
        }
        let dead = [Action::new(u32::MAX, 0)];
        game.next_actions(&mut s, &mut sc, &dead, &mut next).map_err(|e| e.to_string())?;
        if !next.is_empty() {
            return Err(format!("ply {ply}: a prefix of no move has next actions {next:?}"));
        }
        // Compressed steps cost a search per forced action: compared where the list is short.
        if moves.len() <= MAX_MOVES_FOR_STEPS {
            compare_steps(game, &mut s, &mut sc, &mut generator, &mut split)
                .map_err(|e| format!("ply {ply}: {e}"))?;
        }
        let m = moves.get(rng.gen_range(0..moves.len()));
        game.apply_move(&mut s, m);
    }
    Ok(compared)
}

/// The compressed steps of the empty prefix, generated and listed, as sets.
fn compare_steps<G: Game>(
    game: &G,
    s: &mut G::State,
    sc: &mut G::Scratch,
    generator: &mut StepGenerator,
    split: &mut SplitMoves,
) -> Result<(), String> {
    generator.generate(game, s, sc, &[], true).map_err(|e| e.to_string())?;
    game.split_moves(s, sc, split).map_err(|e| e.to_string())?;
    let mut generated: Vec<(Vec<Action>, bool)> =
        generator.iter().map(|step| (step.actions.to_vec(), step.complete)).collect();
    let mut listed: Vec<(Vec<Action>, bool)> = split
        .steps(split.root(), true)
        .map(|step| (step.actions.to_vec(), split.is_complete(step.next)))
        .collect();
    generated.sort();
    listed.sort();
    if generated != listed {
        return Err(format!("generated steps {generated:?}, listed {listed:?}"));
    }
    Ok(())
}
