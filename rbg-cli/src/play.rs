//! `rbg perft`, `rbg mc` and `rbg moves`: running a game with a reasoner.

use std::io::Write;
use std::path::Path;

use rbg_core::perft::root_state;
use rbg_core::{Action, Game, MoveList, KEEPER};
use rbg_interp::{InterpOptions, Interpreter};
use rbg_runner::{McArgs, PerftArgs};

use crate::compile::{build_engine, CompileFlags};
use crate::diagnostics::Format;
use crate::load::{load, Loaded};
use crate::Failure;

/// Parses the game and builds the interpreter for it.
pub fn interpreter(path: &Path, options: InterpOptions) -> Result<Interpreter, Failure> {
    let Loaded { name, game, .. } = load(path, Format::Human, true)?;
    Interpreter::new(&game, &name, options).map_err(|e| Failure::new(format!("{}: {e}", path.display())))
}

/// Which reasoner runs a command.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum EngineKind {
    /// The interpreter, in this process.
    #[default]
    Interp,
    /// The game compiled into a Rust crate (cached), built in release and run.
    Compiled,
}

/// Engine selection and the options of the program both engines share.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct EngineArgs {
    #[arg(long, value_enum, default_value_t)]
    pub engine: EngineKind,
    #[command(flatten)]
    pub flags: CompileFlags,
}

impl EngineArgs {
    fn interp_options(&self) -> InterpOptions {
        InterpOptions { program: self.flags.program_options(), ..Default::default() }
    }
}

pub fn perft(path: &Path, engine: &EngineArgs, args: &PerftArgs) -> Result<(), Failure> {
    if engine.engine == EngineKind::Compiled {
        let built = build_engine(path, &engine.flags)?;
        return run_compiled(&built.binary, "perft", &perft_argv(args));
    }
    let game = interpreter(path, engine.interp_options())?;
    rbg_runner::run_perft(&game, args, &mut std::io::stdout().lock()).map(|_| ()).map_err(run_failure)
}

pub fn mc(path: &Path, engine: &EngineArgs, args: &McArgs) -> Result<(), Failure> {
    if engine.engine == EngineKind::Compiled {
        let built = build_engine(path, &engine.flags)?;
        return run_compiled(&built.binary, "mc", &mc_argv(args));
    }
    let game = interpreter(path, engine.interp_options())?;
    rbg_runner::run_mc(&game, args, &mut std::io::stdout().lock()).map(|_| ()).map_err(run_failure)
}

/// Runs a compiled engine's command with its output shown as is.
fn run_compiled(binary: &Path, command: &str, argv: &[String]) -> Result<(), Failure> {
    let status = std::process::Command::new(binary)
        .arg(command)
        .args(argv)
        .status()
        .map_err(|e| Failure::new(format!("cannot run {}: {e}", binary.display())))?;
    if status.success() {
        Ok(())
    } else {
        // The compiled runner printed its own error.
        Err(Failure::silent())
    }
}

/// The command-line flags that reproduce `args` (the destructuring is exhaustive, so a new
/// field is a compile error here until it is forwarded).
pub fn perft_argv(args: &PerftArgs) -> Vec<String> {
    let PerftArgs { depth, threads, json, bulk, only_last } = args;
    let mut v = vec!["--depth".to_string(), depth.to_string(), "--threads".into(), threads.to_string()];
    for (on, flag) in [(json, "--json"), (bulk, "--bulk"), (only_last, "--only-last")] {
        if *on {
            v.push(flag.into());
        }
    }
    v
}

/// The command-line flags that reproduce `args` (exhaustive, as [`perft_argv`]).
pub fn mc_argv(args: &McArgs) -> Vec<String> {
    let McArgs { seconds, playouts, seed, json, no_monotonic } = args;
    let mut v = vec!["--seed".to_string(), seed.to_string()];
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

/// Lists the legal moves after playing `after` (moves separated by `;`, each a space-separated
/// list of `index@vertex` pairs; vertices by name or number).
pub fn moves(path: &Path, after: Option<&str>) -> Result<(), Failure> {
    let game = interpreter(path, InterpOptions::default())?;
    let mut sc = game.new_scratch();
    let limit = rbg_core::perft::DEFAULT_KEEPER_LIMIT;
    let mut state = root_state(&game, &mut sc, limit).map_err(|e| Failure::new(e.to_string()))?;
    let mut legal = MoveList::new();
    for (n, text) in after.unwrap_or("").split(';').map(str::trim).filter(|t| !t.is_empty()).enumerate() {
        let wanted = parse_move(&game, text)?;
        game.legal_moves(&mut state, &mut sc, &mut legal).map_err(|e| Failure::new(e.to_string()))?;
        if !legal.iter().any(|m| m == wanted.as_slice()) {
            return Err(Failure::new(format!("move {} ('{text}') is not legal in that state", n + 1)));
        }
        game.apply_move(&mut state, &wanted);
        let ongoing =
            game.complete_keeper(&mut state, &mut sc, limit).map_err(|e| Failure::new(e.to_string()))?;
        if !ongoing {
            break;
        }
    }
    game.legal_moves(&mut state, &mut sc, &mut legal).map_err(|e| Failure::new(e.to_string()))?;
    print_moves(&game, &state, &mut sc, &legal).map_err(|e| Failure::new(e.to_string()))
}

fn print_moves<G: Game>(
    game: &G,
    state: &G::State,
    sc: &mut G::Scratch,
    legal: &MoveList,
) -> std::io::Result<()> {
    let info = game.info();
    let mut out = std::io::stdout().lock();
    let player = game.current_player(state);
    let who = if player == KEEPER {
        "keeper (stuck)".to_string()
    } else {
        info.players[player as usize - 1].clone()
    };
    let scores: Vec<String> = (1..=info.num_players() as u32)
        .map(|p| format!("{}={}", info.players[p as usize - 1], game.score(state, p)))
        .collect();
    writeln!(out, "to move: {who}; scores: {}", scores.join(" "))?;
    writeln!(out, "{} legal moves", legal.len())?;
    for m in legal.iter() {
        writeln!(out, "{:<40} {}", format_move(info, m), describe_move(game, state, sc, m))?;
    }
    out.flush()
}

/// `index@vertex` pairs separated by spaces.
pub fn format_move(info: &rbg_core::GameInfo, m: &[Action]) -> String {
    let pairs: Vec<String> = m
        .iter()
        .map(|a| format!("{}@{}", a.index, info.vertices.get(a.vertex as usize).map_or("?", |v| v.as_str())))
        .collect();
    pairs.join(" ")
}

/// What the move changes, keeper completion included: pieces on vertices and variable values.
fn describe_move<G: Game>(game: &G, state: &G::State, sc: &mut G::Scratch, m: &[Action]) -> String {
    let info = game.info();
    let mut after = state.clone();
    game.apply_move(&mut after, m);
    let ended = match game.complete_keeper(&mut after, sc, rbg_core::perft::DEFAULT_KEEPER_LIMIT) {
        Ok(ongoing) => !ongoing,
        Err(e) => return format!("(keeper fails: {e})"),
    };
    let mut changes = Vec::new();
    for v in 0..info.vertices.len() as u32 {
        let (old, new) = (game.piece(state, v), game.piece(&after, v));
        if old != new {
            changes.push(format!(
                "{}: {}→{}",
                info.vertices[v as usize], info.pieces[old as usize], info.pieces[new as usize]
            ));
        }
    }
    for (i, name) in info.variables.iter().enumerate() {
        let (old, new) = (game.variable(state, i), game.variable(&after, i));
        if old != new {
            changes.push(format!("{name}: {old}→{new}"));
        }
    }
    if ended {
        changes.push("game over".into());
    }
    if changes.is_empty() {
        "(no piece or variable changes)".into()
    } else {
        changes.join(", ")
    }
}

fn parse_move<G: Game>(game: &G, text: &str) -> Result<Vec<Action>, Failure> {
    let info = game.info();
    text.split_whitespace()
        .map(|pair| {
            let bad = || Failure::new(format!("'{pair}' is not an index@vertex pair"));
            let (index, vertex) = pair.split_once('@').ok_or_else(bad)?;
            let index: u32 = index.parse().map_err(|_| bad())?;
            let vertex = match info.vertex_id(vertex) {
                Some(v) => v,
                None => vertex
                    .parse::<u32>()
                    .ok()
                    .filter(|&v| (v as usize) < info.vertices.len())
                    .ok_or_else(|| Failure::new(format!("no vertex '{vertex}' in this game")))?,
            };
            Ok(Action::new(index, vertex))
        })
        .collect()
}
