//! `rbg`: the command-line front of rbg-rs.
//!
//! Exit codes: 0 success (also when a human player quits `rbg play` or its input ends); 1 a
//! game is invalid or a run failed; 2 a usage error (clap's, or an argument found wrong later,
//! [`Failure::usage`], whose message names the argument, not the game file); 130 after Ctrl-C; 141 when
//! standard output is closed early (`rbg perft ... | head`), as a shell reports a C tool killed
//! by SIGPIPE (nothing is printed then).
//!
//! Nothing here panics on a closed stream: messages to stderr go through [`say`], whose write
//! errors are ignored (there is nowhere left to report them).

#![forbid(unsafe_code)]

mod analyze;
mod arena;
mod bench;
mod board;
mod check;
mod compile;
mod describe;
mod diagnostics;
mod engine_choice;
mod evolve;
mod excerpt;
mod fmt;
mod human;
mod load;
mod lsp;
mod manager;
mod play;
mod position;
mod render;
mod sbg;
mod serve;
mod suite;

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
        /// The game files (.rbg, or .sbg: Simplified Boardgames).
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
        /// How diagnostics are printed.
        #[arg(long, value_enum, default_value_t)]
        format: Format,
    },
    /// Describe the pieces of a Simplified Boardgames game in English, with their NLD
    /// complexities and the game's score (Kowalski et al.).
    Describe {
        /// The Simplified Boardgames game file (.sbg).
        file: PathBuf,
        /// Print the description as JSON.
        #[arg(long, conflicts_with = "markdown")]
        json: bool,
        /// Write a "How to play" page in Markdown.
        #[arg(long)]
        markdown: bool,
        /// Write to this file instead of standard output.
        #[arg(long, short = 'o')]
        output: Option<PathBuf>,
        /// How diagnostics are printed.
        #[arg(long, value_enum, default_value_t)]
        format: Format,
    },
    /// Print the low-level RBG form of a game (as the reference parser writes it).
    Lower {
        /// The game file (.rbg, or .sbg: Simplified Boardgames).
        file: PathBuf,
        /// Write to this file instead of standard output.
        #[arg(long, short = 'o')]
        output: Option<PathBuf>,
        /// How diagnostics are printed.
        #[arg(long, value_enum, default_value_t)]
        format: Format,
    },
    /// Translate a Simplified Boardgames description (.sbg) into RBG.
    Sbg2rbg {
        /// The Simplified Boardgames game file (.sbg).
        file: PathBuf,
        /// Write to this file instead of standard output.
        #[arg(long, short = 'o')]
        output: Option<PathBuf>,
        /// How diagnostics are printed.
        #[arg(long, value_enum, default_value_t)]
        format: Format,
    },
    /// Translate a Simplified Boardgames description (.sbg) into GDL (KIF).
    Sbg2gdl {
        /// The Simplified Boardgames game file (.sbg).
        file: PathBuf,
        /// Write to this file instead of standard output.
        #[arg(long, short = 'o')]
        output: Option<PathBuf>,
        /// How diagnostics are printed.
        #[arg(long, value_enum, default_value_t)]
        format: Format,
    },
    /// Count the game tree (leaves and nodes) for each depth from 1.
    Perft {
        /// The game file (.rbg, or .sbg: Simplified Boardgames).
        file: PathBuf,
        #[command(flatten)]
        engine: engine_choice::EngineArgs,
        #[command(flatten)]
        args: rbg_runner::PerftArgs,
    },
    /// Flat Monte Carlo: uniformly random playouts with statistics.
    Mc {
        /// The game file (.rbg, or .sbg: Simplified Boardgames).
        file: PathBuf,
        #[command(flatten)]
        engine: engine_choice::EngineArgs,
        #[command(flatten)]
        args: rbg_runner::McArgs,
    },
    /// Compile a game into a standalone Rust crate (a reasoner library and a perft/mc binary).
    Compile {
        /// The game file (.rbg, or .sbg: Simplified Boardgames).
        file: PathBuf,
        /// Directory to write the crate to (created if missing). A non-empty directory must
        /// hold a crate written by `rbg compile` before (or give --force).
        #[arg(long, short = 'o')]
        output: PathBuf,
        /// Write into a non-empty directory even if it is not a crate generated by rbg.
        #[arg(long)]
        force: bool,
        /// Build for this machine's CPU (`target-cpu=native` in the crate's .cargo/config.toml):
        /// faster here, but the binary may not run on another machine.
        #[arg(long)]
        native: bool,
        #[command(flatten)]
        flags: compile::CompileFlags,
    },
    /// Run the interpreter and the compiled engine one after the other: speeds, ratio, and
    /// whether their counts agree. With --suite DIR: every game of DIR on each engine against
    /// the reference speed table.
    Bench {
        /// The game file (.rbg, or .sbg: Simplified Boardgames).
        #[arg(required_unless_present = "suite", conflicts_with = "suite")]
        file: Option<PathBuf>,
        #[command(flatten)]
        limit: bench::BenchLimit,
        #[command(flatten)]
        suite: suite::SuiteArgs,
        #[command(flatten)]
        flags: compile::CompileFlags,
    },
    /// (internal, for `rbg bench --suite`) Run a program and report its peak memory.
    #[command(hide = true)]
    MeasureChild {
        #[command(flatten)]
        args: suite::MeasureArgs,
    },
    /// List the legal moves (as index@vertex pairs, with what each changes).
    Moves {
        /// The game file (.rbg, or .sbg: Simplified Boardgames).
        file: PathBuf,
        /// Moves to play first, separated by ';', each as space-separated index@vertex pairs.
        #[arg(long)]
        after: Option<String>,
        #[command(flatten)]
        engine: engine_choice::EngineArgs,
    },
    /// Run games between clients over TCP (the RBG game-manager protocol): one client per
    /// player, in connection order.
    Manager {
        /// The game file (.rbg, or .sbg: Simplified Boardgames).
        file: PathBuf,
        #[command(flatten)]
        args: manager::ManagerArgs,
        #[command(flatten)]
        engine: engine_choice::EngineArgs<engine_choice::RbgText>,
    },
    /// Play a game manager's games with an agent. By default (--engine auto) the interpreter
    /// plays while the compiled engine builds in the background, which then takes over: before
    /// `ready` if it builds within the preparation time, else at our next move after.
    /// --engine compiled builds before `ready` (a build can take longer than the preparation
    /// time).
    Client {
        #[command(flatten)]
        args: manager::ClientArgs,
        #[command(flatten)]
        engine: engine_choice::EngineArgs<engine_choice::Switching>,
    },
    /// Play games between agents (a match, seats rotated) and print the results; an agent
    /// named `human` is you, at this terminal.
    Play {
        /// The game file (.rbg, or .sbg: Simplified Boardgames).
        file: PathBuf,
        #[command(flatten)]
        args: arena::PlayArgs,
        #[command(flatten)]
        engine: engine_choice::EngineArgs,
    },
    /// Draw a position as a picture (SVG, or PNG with --png): the initial one, or after the
    /// moves of --after or --random-moves.
    Render {
        /// The game file (.rbg, or .sbg: Simplified Boardgames).
        file: PathBuf,
        #[command(flatten)]
        args: render::RenderArgs,
        #[command(flatten)]
        engine: engine_choice::EngineArgs,
    },
    /// Measure a game by self-play (results per seat with intervals, completion, length,
    /// branching, drama, piece usage, strength gap); --json for scripts, --html for a report.
    Analyze {
        /// The game file (.rbg, or .sbg: Simplified Boardgames).
        file: PathBuf,
        #[command(flatten)]
        args: analyze::AnalyzeArgs,
        #[command(flatten)]
        engine: engine_choice::EngineArgs,
    },
    /// Check every move of a log written by `rbg play --log` against the rules.
    Replay {
        #[command(flatten)]
        args: arena::ReplayArgs,
        #[command(flatten)]
        engine: engine_choice::EngineArgs,
    },
    /// Evolve Simplified Boardgames (a genetic algorithm, Kowalski and Szykuła) and write the
    /// best as .sbg and .rbg with their features.
    Evolve {
        #[command(flatten)]
        args: evolve::EvolveArgs,
    },
    /// Serve a local web page (and JSON API) to browse, play and study the games of a directory.
    Serve {
        #[command(flatten)]
        args: serve::ServeArgs,
    },
    /// Describe a game's board: sites, edges, cells, degrees, labels; -o draws it as SVG.
    Board {
        /// The game file (.rbg, or .sbg: Simplified Boardgames).
        file: PathBuf,
        /// Write an SVG drawing of the board (the initial position with the site names) to this file.
        #[arg(long, short = 'o')]
        output: Option<PathBuf>,
        /// How diagnostics are printed.
        #[arg(long, value_enum, default_value_t)]
        format: Format,
    },
    /// Format RBG and SBG files in one style (comments kept, meaning unchanged).
    Fmt(fmt::FmtArgs),
    /// Run the language server on standard input and output (for editors).
    Lsp(lsp::LspArgs),
}

/// Writes a line to stderr, ignoring write errors (stderr may be closed).
#[macro_export]
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr().lock(), $($arg)*);
    }};
}

/// A command failed; its message (if any) is printed by `main`.
#[derive(Debug)]
pub struct Failure {
    message: Option<String>,
    /// Standard output was closed by the reader: stop quietly.
    broken_pipe: bool,
    /// Exit code other than 1.
    code: Option<u8>,
    /// The command line is at fault, not the game file: the message names the argument, and
    /// [`Failure::about`] leaves it alone.
    usage: bool,
}

// The exit codes of usage errors (as clap's own) and of a closed standard output (128 +
// SIGPIPE), shared with the runners of compiled games.
pub use rbg_runner::{BROKEN_PIPE_EXIT_CODE, USAGE_EXIT_CODE};

impl Failure {
    pub fn new(message: impl Into<String>) -> Self {
        Failure { message: Some(message.into()), broken_pipe: false, code: None, usage: false }
    }

    /// A failure whose explanation was already printed (e.g. parser diagnostics).
    pub fn silent() -> Self {
        Failure { message: None, broken_pipe: false, code: None, usage: false }
    }

    /// A usage error (exit code 2): `message` names the argument at fault.
    pub fn usage(message: impl Into<String>) -> Self {
        Failure { code: Some(USAGE_EXIT_CODE), usage: true, ..Failure::new(message) }
    }

    /// A failed write to standard output.
    pub fn output(error: std::io::Error) -> Self {
        if error.kind() == std::io::ErrorKind::BrokenPipe {
            Failure { message: None, broken_pipe: true, code: Some(BROKEN_PIPE_EXIT_CODE), usage: false }
        } else {
            Failure::new(format!("cannot write to standard output: {error}"))
        }
    }

    /// A failed run of a runner command (perft, mc).
    pub fn from_run(error: rbg_runner::RunError) -> Self {
        match error {
            rbg_runner::RunError::Io(e) => Failure::output(e),
            rbg_runner::RunError::Usage(e) => Failure::usage(e),
            other => Failure::new(other.to_string()),
        }
    }

    /// The message, if the failure has one.
    pub fn message(&self) -> Option<&str> {
        self.message.as_deref()
    }

    /// A failure with this exit code and no message of its own (e.g. a child's code).
    pub fn with_code(code: u8) -> Self {
        Failure { message: None, broken_pipe: false, code: Some(code), usage: false }
    }

    /// Names the game file in the message unless it does already, so every error says which
    /// file it is about.
    fn about(mut self, file: &std::path::Path) -> Self {
        let name = file.display().to_string();
        if self.usage {
            return self;
        }
        if let Some(message) = &self.message {
            if !message.contains(&name) {
                self.message = Some(format!("{name}: {message}"));
            }
        }
        self
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Check { files, straightness, deny_warnings, quiet, format } => {
            check::run(&files, &check::CheckOptions { straightness, deny_warnings, quiet, format })
        }
        Command::Describe { file, json, markdown, output, format } => {
            let what = match (json, markdown) {
                (true, _) => describe::Output::Json,
                (_, true) => describe::Output::Markdown,
                _ => describe::Output::Text,
            };
            describe::run(&file, what, output.as_deref(), format).map_err(|f| f.about(&file))
        }
        Command::Lower { file, output, format } => {
            check::lower(&file, output.as_deref(), format).map_err(|f| f.about(&file))
        }
        Command::Sbg2rbg { file, output, format } => {
            sbg::sbg2rbg(&file, output.as_deref(), format).map_err(|f| f.about(&file))
        }
        Command::Sbg2gdl { file, output, format } => {
            sbg::sbg2gdl(&file, output.as_deref(), format).map_err(|f| f.about(&file))
        }
        Command::Perft { file, engine, args } => {
            play::perft(&file, &engine, &args).map_err(|f| f.about(&file))
        }
        Command::Mc { file, engine, args } => play::mc(&file, &engine, &args).map_err(|f| f.about(&file)),
        Command::Compile { file, output, force, native, flags } => {
            let how = compile::CompileTo { force, native };
            compile::compile(&file, &output, &how, &flags).map_err(|f| f.about(&file))
        }
        Command::Bench { file, limit, suite, flags } => match (&file, &suite.suite) {
            (_, Some(dir)) => suite::run(&suite, dir, &limit, &flags),
            (Some(_), None) if suite.suite_only_option().is_some() => Err(Failure::usage(format!(
                "{} goes with --suite DIR, not with one game",
                suite.suite_only_option().unwrap_or_default()
            ))),
            (Some(file), None) => bench::run(file, &limit, &flags).map_err(|f| f.about(file)),
            (None, None) => Err(Failure::usage("give a game FILE or --suite DIR")),
        },
        Command::MeasureChild { args } => suite::measure_child(&args),
        Command::Moves { file, after, engine } => {
            play::moves(&file, after.as_deref(), &engine).map_err(|f| f.about(&file))
        }
        Command::Manager { file, args, engine } => {
            manager::serve(&file, &engine, &args).map_err(|f| f.about(&file))
        }
        Command::Client { args, engine } => manager::client(&args, &engine),
        Command::Play { file, args, engine } => {
            arena::play(&file, &engine, &args).map_err(|f| f.about(&file))
        }
        Command::Analyze { file, args, engine } => {
            analyze::run(&file, &engine, &args).map_err(|f| f.about(&file))
        }
        Command::Replay { args, engine } => arena::replay(&args, &engine),
        Command::Evolve { args } => evolve::run(&args),
        Command::Serve { args } => serve::run(&args),
        Command::Board { file, output, format } => {
            board::run(&file, output.as_deref(), format).map_err(|f| f.about(&file))
        }
        Command::Render { file, args, engine } => {
            render::run(&file, &engine, &args).map_err(|f| f.about(&file))
        }
        Command::Fmt(args) => fmt::run(&args),
        Command::Lsp(args) => lsp::run(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => {
            if let Some(message) = &failure.message {
                if !failure.broken_pipe {
                    say!("error: {message}");
                }
            }
            ExitCode::from(failure.code.unwrap_or(1))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    /// Every argument of every visible command says what it is for in `--help`.
    #[test]
    fn every_argument_has_a_help_text() {
        let cli = Cli::command();
        let mut missing = Vec::new();
        for command in cli.get_subcommands().filter(|c| !c.is_hide_set()) {
            for arg in command.get_arguments().filter(|a| !a.is_hide_set()) {
                if arg.get_help().is_none() && arg.get_long_help().is_none() {
                    missing.push(format!("{} {}", command.get_name(), arg.get_id()));
                }
            }
        }
        assert!(missing.is_empty(), "arguments without help: {missing:?}");
    }
}
