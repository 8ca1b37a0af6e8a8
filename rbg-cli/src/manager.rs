//! `rbg manager` and `rbg client`: matches over TCP in the RBG project's game-manager protocol
//! (the protocol, the forfeit rule and the log formats are documented in the rbg-manager crate).

use std::cell::RefCell;
use std::fs::File;
use std::io::Write;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use rbg::background::{Build, Builder, Progress};

use rbg::open::OpenError;
use rbg_agents::AgentSpec;
use rbg_core::dynamic::AnyGame;
use rbg_manager::{Client, ClientConfig, Server, ServerConfig, ServerLogs, StopReason};

use crate::diagnostics::{emit, Format};
use crate::engine_choice::{EngineArgs, EngineChoice, RbgText, Switching};
use crate::play::open_game;
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

/// `rbg manager`.
pub fn serve(path: &Path, engine: &EngineArgs<RbgText>, args: &ManagerArgs) -> Result<(), Failure> {
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
pub fn client(args: &ClientArgs, engine: &EngineArgs<Switching>) -> Result<(), Failure> {
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
    let report = play_seat(client, &spec, engine, compiled_later(engine, args.quiet))
        .map_err(|e| Failure::new(format!("{}: {e}", args.address)))?;
    if !args.quiet {
        crate::say!("rbg client: {} games played as player {}", report.games.len(), report.player);
    }
    Ok(())
}

/// Plays the client's seat with `spec`'s agent on the `start` engine, switching to the engine
/// `later` builds (`--engine auto`) when it is ready.
fn play_seat(
    client: Client,
    spec: &AgentSpec,
    start: &EngineArgs<Switching>,
    later: Option<CompiledLater>,
) -> Result<rbg_manager::ClientReport, rbg_manager::ClientError> {
    // Both closures below reach the build: the first starts it, the last asks for it.
    let later = RefCell::new(later);
    client.play_switching(
        |text| {
            if let Some(later) = later.borrow_mut().as_mut() {
                later.start(text);
            }
            received_game(text, start)
        },
        |game: &AnyGame| spec.build(game).map_err(|e| e.to_string()),
        |wait| later.borrow_mut().as_mut().and_then(|later| later.ready(wait)),
    )
}

/// The background build of `--engine auto`, when cargo runs (else the interpreter plays, as
/// said on stderr even with -q: the player is weaker than asked).
fn compiled_later(engine: &EngineArgs<Switching>, quiet: bool) -> Option<CompiledLater> {
    if engine.engine != EngineChoice::Auto {
        return None;
    }
    let options = engine.open_options();
    if !rbg::background::cargo_runs(&options.build) {
        crate::say!("rbg client: cargo was not found: the interpreter plays (no compiled engine)");
        return None;
    }
    Some(CompiledLater::new(rbg::background::compiling(&options), quiet))
}

/// The compiled engine of `--engine auto`, built in the background from the text received.
struct CompiledLater {
    builder: Builder,
    build: Option<Build>,
    quiet: bool,
}

impl CompiledLater {
    fn new(builder: Builder, quiet: bool) -> Self {
        CompiledLater { builder, build: None, quiet }
    }

    /// Starts the build of the game received.
    fn start(&mut self, text: &str) {
        let builder = Arc::clone(&self.builder);
        self.build = Some(Build::start(builder, RECEIVED_NAME.into(), text.into()));
    }

    /// The compiled engine, once, when it is ready within `wait`. A failed build is said once
    /// on stderr (even with -q: the player is weaker than asked) and the interpreter plays on.
    fn ready(&mut self, wait: Duration) -> Option<AnyGame> {
        match self.build.as_mut()?.wait(wait) {
            Progress::Ready { game, took } => {
                if !self.quiet {
                    crate::say!(
                        "rbg client: the compiled engine is ready ({:.1} s after the game arrived)",
                        took.as_secs_f64()
                    );
                }
                Some(game)
            }
            Progress::Failed(message) => {
                let first = message.lines().next().unwrap_or_default();
                crate::say!(
                    "rbg client: the compiled engine could not be built; the interpreter plays on: {first}"
                );
                None
            }
            Progress::Pending | Progress::Over => None,
        }
    }
}

/// The name the game received is read under (an RBG text).
const RECEIVED_NAME: &str = "received.rbg";

/// The game the manager sent, on the chosen engine. Parse errors are printed as `rbg check`
/// prints them.
fn received_game(text: &str, engine: &EngineArgs<Switching>) -> Result<AnyGame, String> {
    let path = Path::new(RECEIVED_NAME);
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
    use std::sync::Mutex;
    use std::time::Instant;

    use clap::{CommandFactory, Parser};
    use rbg_manager::ClientReport;
    use rbg_manager::ServerReport;

    use super::*;
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
        assert_eq!(engine.engine, EngineChoice::Compiled);
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
        assert_eq!((args.margin, engine.engine), (100, EngineChoice::Auto));
        assert!(Cli::try_parse_from(["rbg", "client", "localhost:8000"]).is_err(), "--agent is required");
    }
    /// A stand-in for the compiled build (editor.rs's kind): the interpreter after `delay`, or
    /// a failure.
    fn stand_in(delay: Duration, fail: bool) -> Builder {
        Arc::new(move |name: &str, text: &str| {
            std::thread::sleep(delay);
            if fail {
                return Err("error: no cargo here (a stand-in that fails)".into());
            }
            let options = rbg::OpenOptions::new(rbg::Engine::Interpreter);
            rbg::open_bytes(Path::new(name), text.as_bytes().to_vec(), &options)
                .map(|opened| opened.game)
                .map_err(|e| e.to_string())
        })
    }

    /// A manager (interpreter) on tic-tac-toe and two clients on threads: player 1 `auto` with
    /// `builder` and the agent `agent`, player 2 random. The server's report, player 1's
    /// report and its log.
    fn auto_match(
        builder: Builder,
        agent: &str,
        games: u64,
        deadline: Duration,
        preparation: Duration,
    ) -> (ServerReport, ClientReport, String, Duration) {
        let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../games/ticTacToe.rbg"))
            .expect("games/ticTacToe.rbg");
        let game = received_game(&text, &interp_args()).expect("tic-tac-toe opens");
        let config = ServerConfig {
            deadline: Some(deadline),
            preparation,
            games: Some(games),
            max_wait: Duration::from_secs(60),
            ..ServerConfig::default()
        };
        let server = Server::bind(game, text, "127.0.0.1:0", config).expect("the manager binds");
        let address = server.local_addr().expect("an address");
        let server = std::thread::spawn(move || server.run().expect("the manager runs"));
        let log = SharedBuf::default();
        let (auto_log, spec) = (log.clone(), agent.parse::<AgentSpec>().expect("an agent"));
        let auto = std::thread::spawn(move || {
            let started = Instant::now();
            let client = Client::connect(address, ClientConfig::default())
                .expect("connects")
                .with_log(Box::new(auto_log));
            let report = play_seat(client, &spec, &interp_args(), Some(CompiledLater::new(builder, false)));
            (report.expect("player 1 plays"), started.elapsed())
        });
        // Player 1 connects first (seats go by arrival).
        std::thread::sleep(Duration::from_millis(200));
        let random = std::thread::spawn(move || {
            let client = Client::connect(address, ClientConfig::default()).expect("connects");
            let spec: AgentSpec = "random".parse().expect("random");
            play_seat(client, &spec, &interp_args(), None).expect("player 2 plays")
        });
        let report = server.join().expect("the manager's thread");
        let (auto, took) = auto.join().expect("player 1's thread");
        random.join().expect("player 2's thread");
        (report, auto, log.text(), took)
    }

    fn interp_args() -> EngineArgs<Switching> {
        EngineArgs::new(EngineChoice::Interp)
    }

    /// Every game ended by the rules, no move late, and player 1 saw the scores the manager
    /// saw (its position was the manager's all along).
    fn assert_clean(server: &ServerReport, auto: &ClientReport) {
        assert_eq!(server.games.len(), auto.games.len());
        for (theirs, ours) in server.games.iter().zip(&auto.games) {
            assert_eq!(theirs.forfeit, None, "{theirs:?}");
            assert!(theirs.timeouts.iter().all(|&t| t == 0), "a late move: {theirs:?}");
            assert!(ours.finished);
            assert_eq!(theirs.scores, ours.scores);
        }
    }

    /// The moves after `switched to the new engine after N moves` in the log, N > 0: the
    /// switch came in the middle of a game.
    #[test]
    fn a_build_ready_during_a_game_takes_over_with_the_same_position() {
        // Player 1's moves take 200 ms each (player 2's none): the build, ready 300 ms after
        // the set-up, arrives before its third move.
        let builder = stand_in(Duration::from_millis(300), false);
        let deadline = Duration::from_millis(400);
        let (server, auto, log, _) = auto_match(builder, "mcts:time=200ms", 2, deadline, Duration::ZERO);
        assert_clean(&server, &auto);
        let switched = log.lines().find_map(|l| l.split("switched to the new engine after ").nth(1));
        let moves: u64 = switched.and_then(|rest| rest.split(' ').next()?.parse().ok()).expect(&log);
        assert!(moves > 0, "the switch was mid-game: {log}");
        assert_eq!(log.matches("switched").count(), 1, "{log}");
    }

    #[test]
    fn a_failed_build_keeps_the_interpreter() {
        let builder = stand_in(Duration::ZERO, true);
        let (server, auto, log, _) =
            auto_match(builder, "random", 2, Duration::from_millis(200), Duration::from_millis(500));
        assert_clean(&server, &auto);
        assert!(!log.contains("switched") && !log.contains("ready within"), "{log}");
        assert_eq!(auto.games.len(), 2);
    }

    /// A build within the preparation time plays from the first move, and `ready` is sent
    /// as soon as it is built, not at the end of the preparation time.
    #[test]
    fn a_build_within_the_preparation_time_plays_from_the_start() {
        let builder = stand_in(Duration::from_millis(100), false);
        let preparation = Duration::from_secs(20);
        let (server, auto, log, took) =
            auto_match(builder, "random", 1, Duration::from_millis(200), preparation);
        assert_clean(&server, &auto);
        assert!(log.contains("ready within the preparation time"), "{log}");
        assert!(!log.contains("switched"), "{log}");
        assert!(took < preparation / 2, "ready was sent after {took:?}");
    }

    /// A writer whose bytes the test reads afterwards.
    #[derive(Clone, Default)]
    struct SharedBuf(Arc<Mutex<Vec<u8>>>);

    impl SharedBuf {
        fn text(&self) -> String {
            String::from_utf8_lossy(&self.0.lock().unwrap()).into_owned()
        }
    }

    impl std::io::Write for SharedBuf {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
}
