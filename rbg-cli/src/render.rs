//! `rbg render`: a picture of a position (SVG, or PNG when built with the `png` feature).
//!
//! The position is the initial one (keeper-completed), after the moves of `--after` (pair
//! notation as `rbg moves` prints it, moves separated by `;`) or after `--random-moves N`
//! uniformly random moves drawn with `--seed`. Every move of `--after` is read and checked;
//! the first that cannot be read, is not legal, or comes after the end of the game stops the
//! command with an error naming it. The last move's changed cells and the current vertex are
//! highlighted (see `rbg_render`).

use std::io::Write;
use std::path::{Path, PathBuf};

use rand_core::{RngCore, SeedableRng};
use rbg_core::dynamic::AnyGame;
use rbg_core::moves::{apply_if_legal, CheckedMoveError};
use rbg_core::{notation, Game, MoveList, PlayoutRng, SearchError};
use rbg_render::RenderOptions;

use crate::play::{any_game, EngineArgs};
use crate::Failure;

/// The options of `rbg render`.
#[derive(clap::Args, Clone, Debug)]
pub struct RenderArgs {
    /// Moves to play first, separated by ';', each as space-separated index@vertex pairs
    /// (as `rbg moves` prints them).
    #[arg(long, conflicts_with = "random_moves")]
    pub after: Option<String>,
    /// Play this many uniformly random moves first (fewer if the game ends).
    #[arg(long, value_name = "N")]
    pub random_moves: Option<u64>,
    /// Seed of the random moves.
    #[arg(long, default_value_t = 0, requires = "random_moves")]
    pub seed: u64,
    /// Where to write the picture (standard output if not given).
    #[arg(long, short = 'o')]
    pub output: Option<PathBuf>,
    /// Write a PNG instead of SVG (also chosen by an output name ending in .png).
    #[arg(long)]
    pub png: bool,
    /// Side of a cell in pixels.
    #[arg(long, default_value_t = 48.0)]
    pub cell_size: f64,
    /// Write each vertex's name in its cell.
    #[arg(long)]
    pub vertex_names: bool,
    /// Do not highlight the last move and the current vertex.
    #[arg(long)]
    pub no_highlight: bool,
}

/// A position reached by playing moves from the start.
struct Reached {
    state: <AnyGame as Game>::State,
    /// The state before the last move, if any move was played.
    previous: Option<<AnyGame as Game>::State>,
}

pub fn run(path: &Path, engine: &EngineArgs, args: &RenderArgs) -> Result<(), Failure> {
    let as_png = args.png
        || args.output.as_ref().is_some_and(|o| o.extension().is_some_and(|e| e.eq_ignore_ascii_case("png")));
    let game = any_game(path, engine)?;
    let reached = match args.random_moves {
        Some(count) => play_random(&game, count, args.seed)?,
        None => play_listed(&game, args.after.as_deref().unwrap_or(""))?,
    };
    let options = RenderOptions {
        cell_size: args.cell_size,
        show_vertex_names: args.vertex_names,
        highlight: !args.no_highlight,
        ..RenderOptions::default()
    };
    let svg = rbg_render::render_svg(&game, &reached.state, reached.previous.as_ref(), &options);
    let bytes = if as_png { png_bytes(&svg)? } else { svg.into_bytes() };
    write_output(args.output.as_deref(), &bytes)
}

#[cfg(feature = "png")]
fn png_bytes(svg: &str) -> Result<Vec<u8>, Failure> {
    rbg_render::render_png(svg).map_err(|e| Failure::new(e.to_string()))
}

#[cfg(not(feature = "png"))]
fn png_bytes(_svg: &str) -> Result<Vec<u8>, Failure> {
    Err(Failure::new(
        "this rbg was built without PNG support (the `png` feature of rbg-cli); write SVG instead",
    ))
}

fn write_output(output: Option<&Path>, bytes: &[u8]) -> Result<(), Failure> {
    match output {
        Some(path) => std::fs::write(path, bytes)
            .map_err(|e| Failure::new(format!("cannot write {}: {e}", path.display()))),
        None => {
            let mut out = std::io::stdout().lock();
            out.write_all(bytes).and_then(|()| out.flush()).map_err(Failure::output)
        }
    }
}

const KEEPER_LIMIT: u64 = rbg_core::perft::DEFAULT_KEEPER_LIMIT;

fn search_failure(e: SearchError) -> Failure {
    Failure::new(e.to_string())
}

/// The initial state, keeper-completed, and whether a player is to move.
fn start(
    game: &AnyGame,
    sc: &mut <AnyGame as Game>::Scratch,
) -> Result<(<AnyGame as Game>::State, bool), Failure> {
    let mut state = game.initial_state();
    let ongoing = game.complete_keeper(&mut state, sc, KEEPER_LIMIT).map_err(search_failure)?;
    Ok((state, ongoing))
}

/// Plays the moves of `text` (separated by `;`), checking each.
fn play_listed(game: &AnyGame, text: &str) -> Result<Reached, Failure> {
    let mut sc = game.new_scratch();
    let (mut state, mut ongoing) = start(game, &mut sc)?;
    let mut previous = None;
    let moves = text.split(';').map(str::trim).filter(|t| !t.is_empty());
    for (n, move_text) in moves.enumerate() {
        let which = format!("move {} ('{move_text}')", n + 1);
        if !ongoing {
            return Err(Failure::new(format!("{which} comes after the end of the game")));
        }
        let wanted = notation::parse_move(game.info(), move_text)
            .map_err(|e| Failure::new(format!("{which} cannot be read: {e}")))?;
        let before = state.clone();
        apply_if_legal(game, &mut state, &mut sc, &wanted).map_err(|e| match e {
            CheckedMoveError::Illegal(e) => Failure::new(format!(
                "{which} is not legal in that position ({} legal moves there; `rbg moves` with \
                 --after set to the moves before it lists them)",
                e.legal
            )),
            CheckedMoveError::Search(e) => search_failure(e),
        })?;
        previous = Some(before);
        ongoing = game.complete_keeper(&mut state, &mut sc, KEEPER_LIMIT).map_err(search_failure)?;
    }
    Ok(Reached { state, previous })
}

/// Plays up to `count` uniformly random moves (stopping early at the end of the game).
fn play_random(game: &AnyGame, count: u64, seed: u64) -> Result<Reached, Failure> {
    let mut sc = game.new_scratch();
    let (mut state, mut ongoing) = start(game, &mut sc)?;
    let mut previous = None;
    let mut legal = MoveList::new();
    let mut rng = PlayoutRng::seed_from_u64(seed);
    for played in 0..count {
        if ongoing {
            game.legal_moves(&mut state, &mut sc, &mut legal).map_err(search_failure)?;
        }
        if !ongoing || legal.is_empty() {
            crate::say!("the game ended after {played} of the {count} random moves");
            break;
        }
        // The modulo's bias is below 2^-40 for any realistic number of moves.
        let pick = (rng.next_u64() % legal.len() as u64) as usize;
        let chosen = legal.get(pick).to_vec();
        previous = Some(state.clone());
        game.apply_move(&mut state, &chosen);
        ongoing = game.complete_keeper(&mut state, &mut sc, KEEPER_LIMIT).map_err(search_failure)?;
    }
    Ok(Reached { state, previous })
}
