//! `rbg`: the command-line front of rbg-rs.
//!
//! Exit codes: 0 success; 1 a game is invalid or a run failed; 2 a usage error (clap's).

mod bench;
mod check;
mod compile;
mod diagnostics;
mod load;
mod play;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use diagnostics::Format;

#[derive(Parser)]
#[command(
    name = "rbg",
    version,
    about = "Regular Boardgames toolkit: check, lower, play and count RBG games"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Check game descriptions; exit 0 if all are valid, 1 if one is not.
    Check {
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Also print the four straightness figures of each valid game.
        #[arg(long)]
        straightness: bool,
        /// Treat warnings as errors.
        #[arg(long)]
        deny_warnings: bool,
        /// Do not print warnings.
        #[arg(long, short = 'q')]
        quiet: bool,
        #[arg(long, value_enum, default_value_t)]
        format: Format,
    },
    /// Print the low-level RBG form of a game (as the reference parser writes it).
    Lower {
        file: PathBuf,
        /// Write to this file instead of standard output.
        #[arg(long, short = 'o')]
        output: Option<PathBuf>,
        #[arg(long, value_enum, default_value_t)]
        format: Format,
    },
    /// Count the game tree (leaves and nodes) for each depth from 1.
    Perft {
        file: PathBuf,
        #[command(flatten)]
        engine: play::EngineArgs,
        #[command(flatten)]
        args: rbg_runner::PerftArgs,
    },
    /// Flat Monte Carlo: uniformly random playouts with statistics.
    Mc {
        file: PathBuf,
        #[command(flatten)]
        engine: play::EngineArgs,
        #[command(flatten)]
        args: rbg_runner::McArgs,
    },
    /// Compile a game into a standalone Rust crate (a reasoner library and a perft/mc binary).
    Compile {
        file: PathBuf,
        /// Directory to write the crate to (created if missing).
        #[arg(long, short = 'o')]
        output: PathBuf,
        #[command(flatten)]
        flags: compile::CompileFlags,
    },
    /// Run the interpreter and the compiled engine one after the other: speeds, ratio, and
    /// whether their counts agree.
    Bench {
        file: PathBuf,
        #[command(flatten)]
        limit: bench::BenchLimit,
        #[command(flatten)]
        flags: compile::CompileFlags,
    },
    /// List the legal moves (as index@vertex pairs, with what each changes).
    Moves {
        file: PathBuf,
        /// Moves to play first, separated by ';', each as space-separated index@vertex pairs.
        #[arg(long)]
        after: Option<String>,
    },
}

/// A command failed; its message (if any) is printed by `main`.
#[derive(Debug)]
pub struct Failure {
    message: Option<String>,
}

impl Failure {
    pub fn new(message: impl Into<String>) -> Self {
        Failure { message: Some(message.into()) }
    }

    /// A failure whose explanation was already printed (e.g. parser diagnostics).
    pub fn silent() -> Self {
        Failure { message: None }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Check { files, straightness, deny_warnings, quiet, format } => {
            check::run(&files, &check::CheckOptions { straightness, deny_warnings, quiet, format })
        }
        Command::Lower { file, output, format } => check::lower(&file, output.as_deref(), format),
        Command::Perft { file, engine, args } => play::perft(&file, &engine, &args),
        Command::Mc { file, engine, args } => play::mc(&file, &engine, &args),
        Command::Compile { file, output, flags } => compile::compile(&file, &output, &flags),
        Command::Bench { file, limit, flags } => bench::run(&file, &limit, &flags),
        Command::Moves { file, after } => play::moves(&file, after.as_deref()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => {
            if let Some(message) = failure.message {
                eprintln!("error: {message}");
            }
            ExitCode::from(1)
        }
    }
}
