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
use rbg_core::{Game, MoveList, PlayoutRng, SearchError};
use rbg_render::RenderOptions;

use crate::engine_choice::{EngineArgs, Local};
use crate::play::any_game;
use crate::position::{play_after, Reached};
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
    /// Where to write the picture (standard output if not given); its name must end in .svg or
    /// .png (which chooses PNG).
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

pub fn run(path: &Path, engine: &EngineArgs, args: &RenderArgs) -> Result<(), Failure> {
    let as_png = wants_png(args)?;
    let game = any_game(path, engine)?;
    let reached = match args.random_moves {
        Some(count) => play_random(&game, count, args.seed)?,
        None => play_after(&game, &mut game.new_scratch(), args.after.as_deref().unwrap_or(""))?,
    };
    let options = RenderOptions {
        cell_size: args.cell_size,
        show_vertex_names: args.vertex_names,
        highlight: !args.no_highlight,
        ..RenderOptions::default()
    };
    let layout = rbg_render::Layout::with_hint(game.info(), &layout_hint(path));
    let svg = rbg_render::render_svg_with_layout(
        &game,
        &layout,
        &reached.state,
        reached.previous.as_ref(),
        &options,
    );
    let bytes = if as_png { png_bytes(&svg)? } else { svg.into_bytes() };
    write_output(args.output.as_deref(), &bytes)
}

/// `rbg board -o`: the initial position with every site's name, without highlights or
/// caption.
pub fn board_svg(path: &Path) -> Result<String, Failure> {
    let game = any_game(path, &EngineArgs::<Local>::default())?;
    let options = RenderOptions {
        show_vertex_names: true,
        highlight: false,
        show_caption: false,
        ..RenderOptions::default()
    };
    let layout = rbg_render::Layout::with_hint(game.info(), &layout_hint(path));
    Ok(rbg_render::render_svg_with_layout(&game, &layout, &game.initial_state(), None, &options))
}

/// The layout hints of the game file (`// @layout ...`); a hint that cannot be read is
/// reported and left out (the picture is still drawn).
fn layout_hint(path: &Path) -> rbg_render::LayoutHint {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    rbg_render::LayoutHint::from_source(&text).unwrap_or_else(|e| {
        eprintln!("warning: {}: {e}", path.display());
        rbg_render::LayoutHint::default()
    })
}

/// Whether to write PNG: `--png` or an output name ending in `.png`. An output name ending in
/// anything but `.svg` or `.png` is refused (a usage error) rather than filled with SVG.
fn wants_png(args: &RenderArgs) -> Result<bool, Failure> {
    let extension =
        args.output.as_deref().and_then(Path::extension).map(|e| e.to_string_lossy().to_lowercase());
    match extension.as_deref() {
        None => Ok(args.png),
        Some("png") => Ok(true),
        Some("svg") if !args.png => Ok(false),
        Some("svg") => {
            Err(Failure::usage("--png: the output name ends in .svg; name it .png or leave out --png"))
        }
        Some(other) => Err(Failure::usage(format!(
            "--output: rbg render writes SVG or PNG, not .{other}; name the file .svg or .png"
        ))),
    }
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

/// Plays up to `count` uniformly random moves (stopping early at the end of the game).
fn play_random(game: &AnyGame, count: u64, seed: u64) -> Result<Reached, Failure> {
    let mut sc = game.new_scratch();
    let Reached { mut state, mut previous, mut ongoing } = play_after(game, &mut sc, "")?;
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
    Ok(Reached { state, previous, ongoing })
}
