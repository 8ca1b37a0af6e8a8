//! A flat Monte Carlo agent, written once and generic over `rbg_core::Game`, playing a game of
//! breakthrough against itself on both engines: the interpreter (the game read at run time) and
//! the compiled reasoner (`rbg_game!`, the game compiled into this binary at build time).
//!
//! The agent tries every legal move, plays `N` uniformly random playouts after each, and picks
//! the move with the best mean score for the player to move. Both engines generate the same
//! moves in the same order, so with the same seed they play exactly the same game; only the
//! time differs.
//!
//! ```sh
//! cargo run --release --example flat_mc_agent -- 20   # 20 playouts per legal move
//! ```

use std::time::Instant;

use rand::Rng;
use rand_core::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use rbg_core::{Action, Game, MoveList, SearchError};
use rbg_interp::{InterpOptions, Interpreter};

// The compiled reasoner: a unit struct `Breakthrough` implementing `rbg_core::Game`.
rbg_macros::rbg_game!("games/breakthrough.rbg");

const KEEPER_LIMIT: u64 = 100_000;
const SEED: u64 = 7;

/// Plays uniformly random moves from `s` to the end; the final score of `player`.
fn playout<G: Game>(
    game: &G,
    s: &mut G::State,
    sc: &mut G::Scratch,
    moves: &mut MoveList,
    rng: &mut impl Rng,
    player: u32,
) -> Result<i64, SearchError> {
    while game.complete_keeper(s, sc, KEEPER_LIMIT)? {
        game.legal_moves(s, sc, moves)?;
        if moves.is_empty() {
            break;
        }
        let pick = rng.gen_range(0..moves.len());
        game.apply_move(s, moves.get(pick));
    }
    Ok(game.score(s, player))
}

/// The legal move with the best mean playout score for the player to move (`None` if there is
/// no legal move).
fn choose_move<G: Game>(
    game: &G,
    state: &G::State,
    sc: &mut G::Scratch,
    playouts_per_move: u32,
    rng: &mut impl Rng,
) -> Result<Option<Vec<Action>>, SearchError> {
    let mover = game.current_player(state);
    let mut legal = MoveList::new();
    game.legal_moves(&mut state.clone(), sc, &mut legal)?;
    let mut buffer = MoveList::new();
    let mut best: Option<(f64, Vec<Action>)> = None;
    for m in legal.iter() {
        let mut total = 0;
        for _ in 0..playouts_per_move {
            let mut child = state.clone();
            game.apply_move(&mut child, m);
            total += playout(game, &mut child, sc, &mut buffer, rng, mover)?;
        }
        let mean = total as f64 / playouts_per_move.max(1) as f64;
        let better = match &best {
            Some((b, _)) => mean > *b,
            None => true,
        };
        if better {
            best = Some((mean, m.to_vec()));
        }
    }
    Ok(best.map(|(_, m)| m))
}

/// One game of the agent against itself: the moves played and the final scores.
fn self_play<G: Game>(game: &G, playouts_per_move: u32) -> Result<(Vec<Vec<Action>>, Vec<i64>), SearchError> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(SEED);
    let mut sc = game.new_scratch();
    let mut state = game.initial_state();
    let mut played = Vec::new();
    while game.complete_keeper(&mut state, &mut sc, KEEPER_LIMIT)? {
        let Some(m) = choose_move(game, &state, &mut sc, playouts_per_move, &mut rng)? else { break };
        game.apply_move(&mut state, &m);
        played.push(m);
    }
    let scores = (1..=game.info().num_players() as u32).map(|p| game.score(&state, p)).collect();
    Ok((played, scores))
}

fn report<G: Game>(label: &str, game: &G, playouts_per_move: u32) -> Result<Vec<Vec<Action>>, SearchError> {
    let start = Instant::now();
    let (moves, scores) = self_play(game, playouts_per_move)?;
    let players = &game.info().players;
    let scores: Vec<String> = players.iter().zip(&scores).map(|(p, s)| format!("{p} {s}")).collect();
    println!(
        "{label:<12} {} moves, scores: {}, {:.2} s",
        moves.len(),
        scores.join(", "),
        start.elapsed().as_secs_f64()
    );
    Ok(moves)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let playouts_per_move: u32 = std::env::args().nth(1).map(|a| a.parse()).transpose()?.unwrap_or(10);
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/games/breakthrough.rbg");
    let parsed = rbg_parser::parse(path, &std::fs::read(path)?);
    let ir = parsed.game.ok_or("games/breakthrough.rbg does not parse")?;
    let interpreter = Interpreter::new(&ir, "breakthrough", InterpOptions::default())?;

    println!("flat Monte Carlo self-play of breakthrough, {playouts_per_move} playouts per legal move, seed {SEED}");
    let compiled_moves = report("compiled", &Breakthrough, playouts_per_move)?;
    let interpreted_moves = report("interpreted", &interpreter, playouts_per_move)?;
    if compiled_moves == interpreted_moves {
        println!("both engines played the same game");
        Ok(())
    } else {
        Err("the engines played different games".into())
    }
}
