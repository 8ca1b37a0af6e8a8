//! `rbg perft`, `rbg mc` and `rbg moves`: running a game with a reasoner.

use std::io::Write;
use std::path::Path;

use rbg::open::Opened;
use rbg_core::dynamic::AnyGame;
use rbg_core::notation::{self, VertexStyle};
use rbg_core::{Game, MoveList};
use rbg_interp::{InterpOptions, Interpreter};
use rbg_runner::{McArgs, PerftArgs};

use crate::compile::build_runner;
use crate::diagnostics::Format;
use crate::engine_choice::{EngineArgs, EngineChoice, EngineSet};
use crate::load::{load, open_failure};
use crate::Failure;

/// Parses the game and builds the interpreter for it (the concrete type: the drivers run it
/// without dynamic dispatch).
pub fn interpreter(path: &Path, options: InterpOptions) -> Result<Interpreter, Failure> {
    let game = load(path, Format::Human, true)?;
    game.interpreter(options).map_err(|e| open_failure(e, Format::Human, true))
}

/// The game at `path` opened with the chosen engine (the compiled reasoner built, or found in
/// the cache, and loaded into this process as a library); diagnostics go to stderr.
pub fn open_game<S: EngineSet>(path: &Path, engine: &EngineArgs<S>) -> Result<Opened, Failure> {
    rbg::open(path, &engine.open_options()).map_err(|e| open_failure(e, Format::Human, true))
}

/// The game at `path` as a dynamic handle on the chosen engine.
pub fn any_game<S: EngineSet>(path: &Path, engine: &EngineArgs<S>) -> Result<AnyGame, Failure> {
    open_game(path, engine).map(|opened| opened.game)
}

pub fn perft(path: &Path, engine: &EngineArgs, args: &PerftArgs) -> Result<(), Failure> {
    args.check().map_err(Failure::from_run)?;
    if engine.engine == EngineChoice::Compiled {
        let binary = build_runner(path, &engine.flags)?;
        return run_compiled(&binary, "perft", &perft_argv(args));
    }
    let mut out = std::io::stdout().lock();
    let run = if engine.engine == EngineChoice::Sbg {
        rbg_runner::run_perft(&any_game(path, engine)?, args, &mut out).map(|_| ())
    } else {
        rbg_runner::run_perft(&interpreter(path, engine.flags.interp_options())?, args, &mut out).map(|_| ())
    };
    run.map_err(run_failure)
}

pub fn mc(path: &Path, engine: &EngineArgs, args: &McArgs) -> Result<(), Failure> {
    args.check().map_err(Failure::from_run)?;
    if engine.engine == EngineChoice::Compiled {
        let binary = build_runner(path, &engine.flags)?;
        return run_compiled(&binary, "mc", &mc_argv(args));
    }
    let mut out = std::io::stdout().lock();
    let run = if engine.engine == EngineChoice::Sbg {
        rbg_runner::run_mc(&any_game(path, engine)?, args, &mut out).map(|_| ())
    } else {
        rbg_runner::run_mc(&interpreter(path, engine.flags.interp_options())?, args, &mut out).map(|_| ())
    };
    run.map_err(run_failure)
}

/// Runs a compiled engine's command with its output shown as is.
fn run_compiled(binary: &Path, command: &str, argv: &[String]) -> Result<(), Failure> {
    let status = std::process::Command::new(binary)
        .arg(command)
        .args(argv)
        .status()
        .map_err(|e| Failure::new(format!("cannot run {}: {e}", binary.display())))?;
    match status.code() {
        Some(0) => Ok(()),
        // The compiled runner printed its own error; its exit code (a usage error, Ctrl-C)
        // is passed on.
        Some(code) => Err(Failure::with_code(u8::try_from(code).unwrap_or(1))),
        None => Err(Failure::silent()),
    }
}

/// The command-line flags that reproduce `args` (the destructuring is exhaustive, so a new
/// field is a compile error here until it is forwarded).
pub fn perft_argv(args: &PerftArgs) -> Vec<String> {
    let PerftArgs { depth, threads, root_split, json, bulk, only_last, max_streamed_moves } = args;
    let mut v = vec!["--depth".to_string(), depth.to_string(), "--threads".into(), threads.to_string()];
    v.extend(["--max-streamed-moves".into(), max_streamed_moves.to_string()]);
    for (on, flag) in
        [(root_split, "--root-split"), (json, "--json"), (bulk, "--bulk"), (only_last, "--only-last")]
    {
        if *on {
            v.push(flag.into());
        }
    }
    v
}

/// The command-line flags that reproduce `args` (exhaustive, as [`perft_argv`]).
pub fn mc_argv(args: &McArgs) -> Vec<String> {
    let McArgs {
        seconds,
        playouts,
        seed,
        threads,
        json,
        no_monotonic,
        max_streamed_moves,
        count_replay_from,
    } = args;
    let mut v = vec!["--seed".to_string(), seed.to_string(), "--threads".into(), threads.to_string()];
    v.extend(["--max-streamed-moves".into(), max_streamed_moves.to_string()]);
    v.extend(["--count-replay-from".into(), rbg_runner::count_replay_arg(*count_replay_from)]);
    if let Some(s) = seconds {
        v.extend(["--seconds".into(), s.to_string()]);
    }
    if let Some(n) = playouts {
        v.extend(["--playouts".into(), n.to_string()]);
    }
    for (on, flag) in [(json, "--json"), (no_monotonic, "--no-monotonic")] {
        if *on {
            v.push(flag.into());
        }
    }
    v
}

pub fn run_failure(e: rbg_runner::RunError) -> Failure {
    Failure::from_run(e)
}

/// Lists the legal moves after playing `after` (read and checked by
/// [`crate::position::play_after`]).
pub fn moves(path: &Path, after: Option<&str>, engine: &EngineArgs) -> Result<(), Failure> {
    let game = any_game(path, engine)?;
    let mut sc = game.new_scratch();
    let mut reached = crate::position::play_after(&game, &mut sc, after.unwrap_or(""))?;
    let mut legal = MoveList::new();
    game.legal_moves(&mut reached.state, &mut sc, &mut legal).map_err(|e| Failure::new(e.to_string()))?;
    print_moves(&game, &reached.state, &mut sc, &legal, reached.ongoing)
        .map_err(|e| Failure::new(e.to_string()))
}

fn print_moves<G: Game>(
    game: &G,
    state: &G::State,
    sc: &mut G::Scratch,
    legal: &MoveList,
    ongoing: bool,
) -> std::io::Result<()> {
    let info = game.info();
    let mut out = std::io::stdout().lock();
    let scores: Vec<String> = (1..=info.num_players() as u32)
        .map(|p| format!("{}={}", info.players[p as usize - 1], game.score(state, p)))
        .collect();
    let player = game.current_player(state);
    match info.players.get((player as usize).wrapping_sub(1)) {
        Some(who) if ongoing => writeln!(out, "to move: {who}; scores: {}", scores.join(" "))?,
        _ => writeln!(out, "game over; scores: {}", scores.join(" "))?,
    }
    writeln!(out, "{} legal moves", legal.len())?;
    let keeper_limit = rbg_core::perft::DEFAULT_KEEPER_LIMIT;
    for m in legal.iter() {
        let text = notation::format_move(info, m, VertexStyle::Name);
        match notation::describe_move(game, state, sc, m, keeper_limit) {
            Ok(changes) => writeln!(out, "{text:<40} {}", changes.display(info))?,
            Err(e) => writeln!(out, "{text:<40} (keeper fails: {e})")?,
        }
    }
    out.flush()
}
