//! `rbg manager` and `rbg client`: matches over TCP in the RBG project's game-manager protocol
//! (the protocol, the forfeit rule and the log formats are documented in the rbg-manager crate).

use std::fs::File;
use std::io::Write;
use std::path::Path;
use std::time::Duration;

use rbg::open::OpenError;
use rbg_agents::AgentSpec;
use rbg_core::dynamic::AnyGame;
use rbg_manager::{Client, ClientConfig, Server, ServerConfig, ServerLogs, StopReason};

use crate::diagnostics::{emit, Format};
use crate::play::{open_game, EngineArgs, EngineKind};
use crate::Failure;

/// Options of `rbg manager` (named after the reference's `start_server` options).
#[derive(clap::Args, Clone, Debug)]
pub struct ManagerArgs {
    /// Port to listen on; 0 picks a free port (the address bound is printed on stderr).
    #[arg(long)]
    pub port: u16,
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,
    /// Time for one move, in milliseconds. Without it the clients get no deadline (the largest
    /// double is sent, as the reference does) and only --max-wait bounds a move.
    #[arg(long, value_name = "MS")]
    pub deadline: Option<u64>,
    /// Preparation time sent to the clients, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 5000)]
    pub preparation: u64,
    /// How much later than the deadline a move is still accepted (counted in `timeouts=`); a
    /// later move, like an illegal or malformed one or a disconnect, forfeits the game: the
    /// offender scores 0, the others their declared maximum.
    #[arg(long, value_name = "MS", default_value_t = 1000)]
    pub grace: u64,
    /// Stop after this many games (default: until a client disconnects).
    #[arg(long, value_name = "N")]
    pub games: Option<u64>,
    /// Write one line per game (`<seconds> <moves> <legal-move sum> <scores...>
    /// [timeouts=...] [forfeit=pN:reason]`) to this file, or to standard output.
    #[arg(long, value_name = "FILE|stdout")]
    pub log_results: Option<String>,
    /// Write one line per move (`<game> <player> <wire move>`) to this file, or to standard
    /// output.
    #[arg(long, value_name = "FILE|stdout")]
    pub log_moves: Option<String>,
    /// The longest wait for a `ready`, or for a move when there is no deadline, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 3_600_000)]
    pub max_wait: u64,
    /// Do not report connections, forfeits and game ends on stderr.
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

/// Options of `rbg client` (the reference's clients take HOST PORT; we take HOST:PORT).
#[derive(clap::Args, Clone, Debug)]
pub struct ClientArgs {
    /// The manager's address, HOST:PORT.
    pub address: String,
    /// The agent, e.g. `random`, `mcts:time=1s`, `alphabeta:depth=4` (its budget is capped at
    /// the deadline minus --margin; an agent without a budget thinks until then).
    #[arg(long)]
    pub agent: String,
    /// Seed of the first game (default: the agent spec's `seed`, else 0); each game reseeds.
    #[arg(long)]
    pub seed: Option<u64>,
    /// How long before the deadline the agent must have answered, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 100)]
    pub margin: u64,
    /// The longest wait for any message from the manager, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 3_600_000)]
    pub max_wait: u64,
    /// Do not report moves and game ends on stderr.
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

/// A log destination: `stdout` or a file (created or truncated).
fn log_target(target: &Option<String>) -> Result<Option<Box<dyn Write + Send>>, Failure> {
    match target.as_deref() {
        None => Ok(None),
        Some("stdout") => Ok(Some(Box::new(std::io::stdout()))),
        Some(path) => {
            let file = File::create(path).map_err(|e| Failure::new(format!("cannot create {path}: {e}")))?;
            Ok(Some(Box::new(std::io::BufWriter::new(file))))
        }
    }
}

/// The engines that can play the game-manager protocol: its games travel as RBG text, whose
/// moves the direct SBG reasoner does not number (so `sbg` is not offered).
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ProtocolEngine {
    /// The interpreter, in this process.
    #[default]
    #[value(alias = "interpreter")]
    Interp,
    /// The game compiled into a Rust crate (cached), built in release and loaded.
    Compiled,
}

/// `--engine` and the switches of `rbg manager` and `rbg client`.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct ProtocolEngineArgs {
    /// Which engine runs the game.
    #[arg(long, value_enum, default_value_t)]
    pub engine: ProtocolEngine,
    #[command(flatten)]
    pub flags: crate::compile::CompileFlags,
}

impl ProtocolEngineArgs {
    /// The same choice as the engine arguments of the other commands.
    pub fn engine_args(&self) -> EngineArgs {
        let engine = match self.engine {
            ProtocolEngine::Interp => EngineKind::Interp,
            ProtocolEngine::Compiled => EngineKind::Compiled,
        };
        EngineArgs { engine, flags: self.flags.clone() }
    }
}

/// Why the game-manager commands have no `--engine sbg`.
const NO_SBG_ENGINE: &str = "--engine sbg cannot serve the game-manager protocol: the game is \
    sent as RBG text, whose moves the direct SBG reasoner does not write (use interp or compiled)";

/// `rbg manager`.
pub fn serve(path: &Path, engine: &EngineArgs, args: &ManagerArgs) -> Result<(), Failure> {
    if engine.engine == EngineKind::Sbg {
        return Err(Failure::new(NO_SBG_ENGINE));
    }
    // Clients speak RBG: an SBG game is sent as its translation, which the engine runs too.
    let opened = open_game(path, engine)?;
    let (game, text) = (opened.game, opened.file.rbg_text);
    let config = ServerConfig {
        deadline: args.deadline.map(Duration::from_millis),
        preparation: Duration::from_millis(args.preparation),
        grace: Duration::from_millis(args.grace),
        games: args.games,
        max_wait: Duration::from_millis(args.max_wait),
        ..ServerConfig::default()
    };
    let logs = ServerLogs {
        results: log_target(&args.log_results)?,
        moves: log_target(&args.log_moves)?,
        events: if args.quiet { None } else { Some(Box::new(std::io::stderr())) },
    };
    let server = Server::bind(game, text, (args.host.as_str(), args.port), config)
        .map_err(|e| Failure::new(format!("cannot start the manager on {}:{}: {e}", args.host, args.port)))?;
    if args.quiet {
        // The address is always reported: with --port 0 nothing else tells it.
        let addr = server.local_addr().map_err(|e| Failure::new(e.to_string()))?;
        crate::say!("rbg manager: listening on {addr}");
    }
    let report = server.with_logs(logs).run().map_err(|e| Failure::new(e.to_string()))?;
    if !args.quiet {
        let why = match report.stop {
            StopReason::GamesPlayed => "the game limit was reached".to_string(),
            StopReason::Disconnected { player } => format!("player {player} is gone"),
        };
        let forfeits = report.games.iter().filter(|g| g.forfeit.is_some()).count();
        crate::say!(
            "rbg manager: {} games played ({forfeits} forfeited); stopped because {why}",
            report.games.len()
        );
    }
    Ok(())
}

/// `rbg client`.
pub fn client(args: &ClientArgs, engine: &EngineArgs) -> Result<(), Failure> {
    let spec: AgentSpec = args.agent.parse().map_err(|e| Failure::new(format!("--agent: {e}")))?;
    let config = ClientConfig {
        seed: args.seed.unwrap_or(spec.seed),
        safety_margin: Duration::from_millis(args.margin),
        max_wait: Some(Duration::from_millis(args.max_wait)),
        ..ClientConfig::default()
    };
    let mut client = Client::connect(args.address.as_str(), config)
        .map_err(|e| Failure::new(format!("{}: {e}", args.address)))?;
    if !args.quiet {
        client = client.with_log(Box::new(std::io::stderr()));
    }
    let report = client
        .play(
            |text| received_game(text, engine),
            |game: &AnyGame| spec.build(game).map_err(|e| e.to_string()),
        )
        .map_err(|e| Failure::new(format!("{}: {e}", args.address)))?;
    if !args.quiet {
        crate::say!("rbg client: {} games played as player {}", report.games.len(), report.player);
    }
    Ok(())
}

/// The game the manager sent, on the chosen engine. Parse errors are printed as `rbg check`
/// prints them.
fn received_game(text: &str, engine: &EngineArgs) -> Result<AnyGame, String> {
    if engine.engine == EngineKind::Sbg {
        return Err(NO_SBG_ENGINE.into());
    }
    let path = Path::new("received.rbg");
    match rbg::open_bytes(path, text.as_bytes().to_vec(), &engine.open_options()) {
        Ok(opened) => Ok(opened.game),
        Err(OpenError::Invalid { source, diagnostics }) => {
            let errors: Vec<_> = diagnostics.into_iter().filter(|d| d.is_error()).collect();
            emit(&source, &errors, Format::Human);
            Err("the game text does not parse".into())
        }
        Err(other) => Err(other.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use clap::{CommandFactory, Parser};

    use crate::{Cli, Command};

    #[test]
    fn the_command_line_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn manager_options_parse() {
        let cli = Cli::try_parse_from([
            "rbg",
            "manager",
            "g.rbg",
            "--port",
            "0",
            "--deadline",
            "250",
            "--games",
            "3",
            "--log-results",
            "stdout",
            "--engine",
            "compiled",
            "-q",
        ])
        .unwrap();
        let Command::Manager { file, args, engine } = cli.command else { panic!("not the manager") };
        assert_eq!(file.to_str(), Some("g.rbg"));
        assert_eq!(
            (args.port, args.host.as_str(), args.deadline, args.games),
            (0, "127.0.0.1", Some(250), Some(3))
        );
        assert_eq!((args.preparation, args.grace, args.quiet), (5000, 1000, true));
        assert_eq!(args.log_results.as_deref(), Some("stdout"));
        assert_eq!(engine.engine_args().engine, crate::play::EngineKind::Compiled);
        let sbg = Cli::try_parse_from(["rbg", "manager", "g.rbg", "--port", "0", "--engine", "sbg"]);
        assert!(sbg.is_err(), "--engine sbg is not offered");
        assert!(Cli::try_parse_from(["rbg", "manager", "g.rbg"]).is_err(), "--port is required");
    }

    #[test]
    fn client_options_parse() {
        let cli = Cli::try_parse_from([
            "rbg",
            "client",
            "localhost:8000",
            "--agent",
            "mcts:time=1s",
            "--seed",
            "7",
        ])
        .unwrap();
        let Command::Client { args, engine } = cli.command else { panic!("not the client") };
        assert_eq!(
            (args.address.as_str(), args.agent.as_str(), args.seed),
            ("localhost:8000", "mcts:time=1s", Some(7))
        );
        assert_eq!((args.margin, engine.engine_args().engine), (100, crate::play::EngineKind::Interp));
        assert!(Cli::try_parse_from(["rbg", "client", "localhost:8000"]).is_err(), "--agent is required");
    }
}
