//! `rbg play` (matches between agents, or a human against agents) and `rbg replay` (checking a
//! match log against the rules).
//!
//! # The log
//!
//! `rbg play --log FILE` writes one JSON object per game and line, in game order:
//!
//! | field         | value                                                                     |
//! |---------------|---------------------------------------------------------------------------|
//! | `game`        | the game's name                                                           |
//! | `file`        | the game file, as given on the command line                               |
//! | `index`       | the game's number in the match, from 0                                    |
//! | `seed`        | the game's seed                                                           |
//! | `agents`      | the agent of each seat (seat 1 plays the first player), as specifications |
//! | `players`     | the players, in seat order                                                |
//! | `moves`       | the moves, each in `index@vertex` notation with vertex names              |
//! | `scores`      | the scores of the last state reached, by seat                             |
//! | `termination` | `finished`, `move-limit`, `error` or `abandoned` (a human quit)           |
//! | `result`      | for a finished game: `win`, `draw` or `loss` by seat; otherwise null      |
//! | `error`       | why an `error` or `abandoned` game stopped; otherwise null                |
//! | `engine`      | the engine that played: `interp`, `compiled` or `sbg`                     |
//! | `notation`    | how `moves` are written: `rbg` (the RBG rules' action indices, as the     |
//! |               | interpreter, the compiled engine and the reference tools number them) or  |
//! |               | `sbg` (`1@from 2@to`, the direct Simplified Boardgames reasoner's)        |
//!
//! `rbg replay` needs `file` (unless `--game` is given), `index` and `moves`; it checks every
//! move against the rules, and for finished and move-limit games also the end of the game and
//! the scores. Moves in `sbg` notation are replayed on the SBG reasoner whatever `--engine`
//! says (no other engine numbers moves that way); a record without `notation` (an older log)
//! is `rbg`. A log with no game in it is an error.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{self, BufRead, BufWriter, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

use rbg_agents::matches::{game_seed, seating, FailedGame, Outcome, FAILED_SHOWN};
use rbg_agents::{
    stream_match, AgentSpec, Budget, GameResult, MatchConfig, MatchSummary, PlayLimits, Termination,
};
use rbg_core::dynamic::AnyGame;
use rbg_core::moves::check_listed;
use rbg_core::notation::{self, VertexStyle};
use rbg_core::{Game, MoveList, Player};

use crate::engine_choice::{EngineArgs, EngineChoice};
use crate::human::{play_interactive, Human, HumanGameEnd, Seat};
use crate::play::any_game;
use crate::Failure;

/// Options of `rbg play`.
#[derive(clap::Args, Clone, Debug)]
pub struct PlayArgs {
    /// The agents, one per player, separated by commas; an agent's own options follow its name
    /// (`mcts:c=0.4,iterations=2000,random` is two agents). `human` is you, at this terminal.
    #[arg(long, required = true)]
    pub agents: String,
    /// Number of games; game i seats agent (j + i) mod n in seat j.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
    pub games: u64,
    /// Games played at the same time (at most 4 per core); human games are played one by one.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Time per move for every agent, replacing their own budgets (e.g. 100ms, 1.5s).
    #[arg(long, conflicts_with = "iterations", value_parser = parse_time)]
    pub time: Option<std::time::Duration>,
    /// Iterations per move for every agent, replacing their own budgets.
    #[arg(long)]
    pub iterations: Option<u64>,
    /// Base seed; each game's seed is derived from it and the game's number.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Write every game to this file, one JSON object per line (see `rbg replay`).
    #[arg(long)]
    pub log: Option<PathBuf>,
    /// A game stops unfinished after this many moves.
    #[arg(long, default_value_t = PlayLimits::default().max_moves)]
    pub max_moves: u64,
}

fn parse_time(text: &str) -> Result<std::time::Duration, String> {
    rbg_agents::parse_time(text).map_err(|e| e.to_string())
}

/// An agent of the command line.
#[derive(Clone, Debug)]
pub(crate) enum Entrant {
    Human,
    Agent(AgentSpec),
}

impl Entrant {
    fn label(&self) -> String {
        match self {
            Entrant::Human => "human".into(),
            Entrant::Agent(spec) => spec.to_string(),
        }
    }
}

/// Splits `--agents` into agents: a comma starts a new agent unless what follows is an option
/// (`key=value` with no `:`) of the agent before it.
pub(crate) fn parse_agents(text: &str, budget: Option<Budget>) -> Result<Vec<Entrant>, Failure> {
    let mut texts: Vec<String> = Vec::new();
    for piece in text.split(',') {
        let piece = piece.trim();
        match texts.last_mut() {
            Some(last) if piece.contains('=') && !piece.contains(':') => {
                last.push(',');
                last.push_str(piece);
            }
            _ => texts.push(piece.to_string()),
        }
    }
    texts
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let (name, options) = t.split_once(':').unwrap_or((t, ""));
            if name.trim() == "human" {
                if !options.trim().is_empty() {
                    return Err(Failure::usage(format!(
                        "--agents: agent {} (`{t}`): the human agent takes no options",
                        i + 1
                    )));
                }
                return Ok(Entrant::Human);
            }
            let spec: AgentSpec = t
                .parse()
                .map_err(|e| Failure::usage(format!("--agents: agent {} (`{t}`): {e}; or `human`", i + 1)))?;
            Ok(Entrant::Agent(match budget {
                Some(b) => spec.with_budget(b),
                None => spec,
            }))
        })
        .collect()
}

pub use rbg::session::{GameLog as LogRecord, RBG_NOTATION, SBG_NOTATION};

/// What every record of one `rbg play` run shares.
struct LogContext<'a> {
    file: &'a Path,
    labels: &'a [String],
    engine: EngineChoice,
}

/// The notation of the moves an engine plays.
fn notation_of(engine: EngineChoice) -> &'static str {
    if engine == EngineChoice::Sbg {
        SBG_NOTATION
    } else {
        RBG_NOTATION
    }
}

fn log_record(
    info: &rbg_core::GameInfo,
    context: &LogContext<'_>,
    game: &GameResult,
    abandoned: Option<&str>,
) -> LogRecord {
    let LogContext { file, labels, engine } = *context;
    let (termination, error) = match (&game.termination, abandoned) {
        (_, Some(why)) => ("abandoned", Some(why.to_string())),
        (Termination::Error(e), None) => ("error", Some(e.clone())),
        (t, None) => (t.name(), None),
    };
    LogRecord {
        game: info.name.clone(),
        file: Some(file.display().to_string()),
        index: game.index,
        seed: game.seed,
        agents: game.seating.iter().map(|&a| labels[a].clone()).collect(),
        players: info.players.clone(),
        moves: game.moves.iter().map(|m| notation::format_move(info, &m.mv, VertexStyle::Name)).collect(),
        scores: Some(game.scores.clone()),
        termination: Some(termination.to_string()),
        result: if abandoned.is_none() {
            game.outcomes().map(|o| o.iter().map(|o| o.name().to_string()).collect())
        } else {
            None
        },
        error,
        engine: Some(engine.name()),
        notation: Some(notation_of(engine).to_string()),
    }
}

/// The log file, written in game order even when games end out of order.
struct Log {
    out: Option<BufWriter<File>>,
    path: PathBuf,
    next: u64,
    waiting: BTreeMap<u64, String>,
    error: Option<io::Error>,
}

impl Log {
    fn create(path: Option<&Path>) -> Result<Log, Failure> {
        let out = match path {
            Some(p) => Some(BufWriter::new(
                File::create(p)
                    .map_err(|e| Failure::new(format!("cannot create the log {}: {e}", p.display())))?,
            )),
            None => None,
        };
        Ok(Log {
            out,
            path: path.map(Path::to_path_buf).unwrap_or_default(),
            next: 0,
            waiting: BTreeMap::new(),
            error: None,
        })
    }

    fn push(&mut self, index: u64, record: &LogRecord) {
        if self.out.is_none() {
            return;
        }
        let line = serde_json::to_string(record).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"));
        self.waiting.insert(index, line);
        while let Some(line) = self.waiting.remove(&self.next) {
            if let (Some(out), None) = (&mut self.out, &self.error) {
                if let Err(e) = writeln!(out, "{line}").and_then(|_| out.flush()) {
                    self.error = Some(e);
                }
            }
            self.next += 1;
        }
    }

    fn finish(&mut self) -> Result<(), Failure> {
        if let Some(out) = &mut self.out {
            // Games that never reached the log (none, unless the match stopped early) go last.
            for line in std::mem::take(&mut self.waiting).into_values() {
                if let Err(e) = writeln!(out, "{line}") {
                    self.error.get_or_insert(e);
                }
            }
            if let Err(e) = out.flush() {
                self.error.get_or_insert(e);
            }
        }
        match self.error.take() {
            Some(e) => Err(Failure::new(format!("cannot write the log {}: {e}", self.path.display()))),
            None => Ok(()),
        }
    }
}

/// A progress bar of games on stderr, hidden when stderr is not a terminal.
fn progress_bar(games: u64) -> indicatif::ProgressBar {
    let bar = if io::stderr().is_terminal() {
        indicatif::ProgressBar::new(games)
    } else {
        indicatif::ProgressBar::hidden()
    };
    let style = indicatif::ProgressStyle::with_template("games [{elapsed_precise}] {wide_bar} {pos}/{len}")
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar());
    bar.set_style(style);
    bar
}

/// `rbg play`.
pub fn play(file: &Path, engine: &EngineArgs, args: &PlayArgs) -> Result<(), Failure> {
    let budget = match (args.time, args.iterations) {
        (Some(t), _) => Some(Budget::time(t)),
        (None, Some(n)) => Some(Budget::iterations(n)),
        (None, None) => None,
    };
    let entrants = parse_agents(&args.agents, budget)?;
    check_threads(args.threads)?;
    let game = any_game(file, engine)?;
    let players = game.info().num_players();
    if entrants.len() != players {
        return Err(Failure::usage(format!(
            "--agents: the game has {players} players ({}) but {} agents were given; give one per player",
            game.info().players.join(", "),
            entrants.len()
        )));
    }
    for (i, e) in entrants.iter().enumerate() {
        if let Entrant::Agent(spec) = e {
            spec.build(&game)
                .map_err(|err| Failure::usage(format!("--agents: agent {} ({spec}): {err}", i + 1)))?;
        }
    }
    let limits = PlayLimits { max_moves: args.max_moves, ..PlayLimits::default() };
    let labels: Vec<String> = entrants.iter().map(Entrant::label).collect();
    let context = LogContext { file, labels: &labels, engine: engine.engine };
    if entrants.iter().any(|e| matches!(e, Entrant::Human)) {
        if args.threads != 1 {
            return Err(Failure::usage(
                "--threads: games with a human are played one at a time; leave it out",
            ));
        }
        return play_with_human(&game, &context, &entrants, args, &limits);
    }
    let specs: Vec<AgentSpec> = entrants
        .iter()
        .filter_map(|e| match e {
            Entrant::Agent(s) => Some(s.clone()),
            Entrant::Human => None,
        })
        .collect();
    let config = MatchConfig {
        games: args.games,
        threads: args.threads,
        seed: args.seed,
        budget: None,
        limits: limits.clone(),
    };
    let so_far = Mutex::new(SoFar {
        summary: MatchSummary::new(labels.clone()),
        failed: Vec::new(),
        log: Log::create(args.log.as_deref())?,
    });
    let bar = progress_bar(args.games);
    let info = game.info();
    let done = AtomicBool::new(false);
    let _watch = rbg_runner::interrupt::InterruptWatch::start();
    let outcome = std::thread::scope(|scope| {
        scope.spawn(|| report_on_interrupt(&so_far, &done, &bar, info, &limits));
        // Set even if the match unwinds, so that the watcher ends and the scope can return.
        let _done_on_exit = SetOnDrop(&done);
        let outcome = stream_match(&game, &specs, &config, |result| {
            let record = log_record(info, &context, &result, None);
            if let Ok(mut so_far) = so_far.lock() {
                so_far.add(result, &record);
            }
            bar.inc(1);
        });
        outcome
    });
    bar.finish_and_clear();
    outcome.map_err(|e| Failure::new(e.to_string()))?;
    let mut so_far = so_far.into_inner().map_err(|_| Failure::new("the log writer failed"))?;
    so_far.log.finish()?;
    let mut out = io::stdout().lock();
    print_summary(&mut out, info, &so_far.summary, &so_far.failed, &limits).map_err(Failure::output)
}

/// Sets its flag when dropped (on return or unwinding alike).
struct SetOnDrop<'a>(&'a AtomicBool);

impl Drop for SetOnDrop<'_> {
    fn drop(&mut self) {
        self.0.store(true, Ordering::SeqCst);
    }
}

/// `--threads` of `rbg play`: from 1 to the most a match may use on this machine.
pub(crate) fn check_threads(threads: usize) -> Result<(), Failure> {
    let most = rbg_agents::matches::max_threads();
    if threads == 0 || threads > most {
        return Err(Failure::usage(format!(
            "--threads {threads}: give from 1 to {most} ({} per core on this machine)",
            rbg_agents::matches::MAX_THREADS_PER_CORE
        )));
    }
    Ok(())
}

/// The results of a match so far: what `rbg play` prints at the end, or on Ctrl-C.
struct SoFar {
    summary: MatchSummary,
    /// The first [`FAILED_SHOWN`] games that failed (their messages are printed).
    failed: Vec<GameResult>,
    log: Log,
}

impl SoFar {
    fn add(&mut self, result: GameResult, record: &LogRecord) {
        self.summary.add(&result);
        self.log.push(result.index, record);
        if matches!(result.termination, Termination::Error(_)) && self.failed.len() < FAILED_SHOWN {
            self.failed.push(result);
        }
    }
}

/// Waits for the match to end (`done`) or for Ctrl-C; on Ctrl-C prints the results of the
/// games finished so far (games still being played are left out, as `rbg mc` leaves out its
/// unfinished playouts), writes them to the log and exits with 130.
fn report_on_interrupt(
    so_far: &Mutex<SoFar>,
    done: &AtomicBool,
    bar: &indicatif::ProgressBar,
    info: &rbg_core::GameInfo,
    limits: &PlayLimits,
) {
    while !done.load(Ordering::SeqCst) {
        if rbg_runner::interrupt::interrupted() {
            bar.finish_and_clear();
            // Holding the lock to the end keeps finishing games from writing meanwhile.
            let mut so_far = so_far.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            let mut out = io::stdout().lock();
            let _ = writeln!(out, "interrupted: the games finished before Ctrl-C");
            let _ = print_summary(&mut out, info, &so_far.summary, &so_far.failed, limits);
            if let Err(failure) = so_far.log.finish() {
                crate::say!("error: {}", failure.message().unwrap_or_default());
            }
            std::process::exit(rbg_runner::INTERRUPTED_EXIT_CODE);
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// Human games: one after the other, seats rotated as in a match.
fn play_with_human(
    game: &AnyGame,
    context: &LogContext<'_>,
    entrants: &[Entrant],
    args: &PlayArgs,
    limits: &PlayLimits,
) -> Result<(), Failure> {
    let labels = context.labels;
    let info = game.info();
    let stdin = io::stdin();
    let echo = !stdin.is_terminal();
    let mut human = Human::new(stdin.lock(), io::stdout().lock(), echo);
    let mut log = Log::create(args.log.as_deref())?;
    let mut summary = MatchSummary::new(labels.to_vec());
    let mut failed = Vec::new();
    for index in 0..args.games {
        let seats_of = seating(index, entrants.len());
        let mut seats: Vec<Seat<'_, AnyGame>> = Vec::new();
        for &a in &seats_of {
            seats.push(match &entrants[a] {
                Entrant::Human => Seat::Human,
                Entrant::Agent(spec) => Seat::Agent {
                    label: labels[a].clone(),
                    agent: spec.build(game).map_err(|e| Failure::new(e.to_string()))?,
                },
            });
        }
        let out = human.out();
        let who: Vec<String> =
            seats_of.iter().zip(&info.players).map(|(&a, p)| format!("{p}: {}", labels[a])).collect();
        let n = args.games;
        writeln!(out, "game {} of {n} ({})", index + 1, who.join(", ")).map_err(Failure::output)?;
        let seed = game_seed(args.seed, index);
        let end = play_interactive(game, &mut seats, &mut human, index, seed, seats_of, limits)
            .map_err(Failure::output)?;
        match end {
            HumanGameEnd::Abandoned(result, why) => {
                log.push(index, &log_record(info, context, &result, Some(&why)));
                log.finish()?;
                let s = if result.moves.len() == 1 { "" } else { "s" };
                let out = human.out();
                writeln!(out, "{why}: game {} abandoned after {} move{s}", index + 1, result.moves.len())
                    .map_err(Failure::output)?;
                return Ok(());
            }
            HumanGameEnd::Played(result) => {
                log.push(index, &log_record(info, context, &result, None));
                let out = human.out();
                writeln!(out, "\nfinal position:").map_err(Failure::output)?;
                print_final(out, game, &result).map_err(Failure::output)?;
                summary.add(&result);
                if matches!(result.termination, Termination::Error(_)) && failed.len() < FAILED_SHOWN {
                    failed.push(result);
                }
            }
        }
    }
    log.finish()?;
    print_summary(human.out(), info, &summary, &failed, limits).map_err(Failure::output)
}

/// The final board (replayed from the moves) and the scores with the outcome.
fn print_final<W: Write>(out: &mut W, game: &AnyGame, result: &GameResult) -> io::Result<()> {
    let info = game.info();
    let mut state = game.initial_state();
    let mut sc = game.new_scratch();
    let keeper = PlayLimits::default().keeper_limit;
    let _ = game.complete_keeper(&mut state, &mut sc, keeper);
    for m in &result.moves {
        game.apply_move(&mut state, &m.mv);
        let _ = game.complete_keeper(&mut state, &mut sc, keeper);
    }
    writeln!(out)?;
    out.write_all(rbg_render::TextBoard::new(game).draw(game, &state).as_bytes())?;
    let scores: Vec<String> =
        info.players.iter().zip(&result.scores).map(|(p, s)| format!("{p} {s}")).collect();
    let verdict = match (&result.termination, result.outcomes()) {
        (_, Some(o)) => match o.iter().position(|&x| x == Outcome::Win) {
            Some(w) => format!("{} wins", info.players[w]),
            None => "a draw".to_string(),
        },
        (Termination::MoveLimit, _) => "stopped at the move limit".into(),
        (Termination::Error(e), _) => format!("stopped: {e}"),
        (Termination::Finished, None) => String::new(),
    };
    writeln!(out, "game over: {} ({verdict})", scores.join(", "))
}

/// The table of results, the Elo line and the games that did not finish.
fn print_summary<W: Write>(
    out: &mut W,
    info: &rbg_core::GameInfo,
    summary: &MatchSummary,
    failed: &[GameResult],
    limits: &PlayLimits,
) -> io::Result<()> {
    let failed: Vec<FailedGame> = failed.iter().filter_map(FailedGame::of).collect();
    out.write_all(summary.table(&info.name, &info.players, &failed, limits.max_moves).as_bytes())?;
    out.flush()
}

/// Options of `rbg replay`.
#[derive(clap::Args, Clone, Debug)]
pub struct ReplayArgs {
    /// The log written by `rbg play --log`.
    pub log: PathBuf,
    /// The game file (by default the one named in each log line).
    #[arg(long)]
    pub game: Option<PathBuf>,
}

/// `rbg replay`: every move of every game of the log, checked against the rules.
pub fn replay(args: &ReplayArgs, engine: &EngineArgs) -> Result<(), Failure> {
    let log_name = args.log.display().to_string();
    let reader = io::BufReader::new(
        File::open(&args.log).map_err(|e| Failure::new(format!("cannot open the log {log_name}: {e}")))?,
    );
    let mut games: Vec<(PathBuf, EngineChoice, AnyGame)> = Vec::new();
    let (mut count, mut moves) = (0u64, 0u64);
    for (n, line) in reader.lines().enumerate() {
        let line_no = n + 1;
        let line = line.map_err(|e| Failure::new(format!("{log_name}:{line_no}: cannot read: {e}")))?;
        if line.trim().is_empty() {
            continue;
        }
        let record: LogRecord = serde_json::from_str(&line)
            .map_err(|e| Failure::new(format!("{log_name}:{line_no}: not a game record of rbg play: {e}")))?;
        let path = match (&args.game, &record.file) {
            (Some(p), _) => p.clone(),
            (None, Some(f)) => locate(Path::new(f), &args.log),
            (None, None) => {
                return Err(Failure::new(format!(
                    "{log_name}:{line_no}: the record names no game file; give it with --game"
                )))
            }
        };
        let engine = replay_engine(engine, &record)
            .map_err(|why| Failure::new(format!("{log_name}:{line_no}: {why}")))?;
        let game = match games.iter().find(|(p, e, _)| *p == path && *e == engine.engine) {
            Some((_, _, g)) => g.clone(),
            None => {
                let g = any_game(&path, &engine).map_err(|f| f.about(&path))?;
                games.push((path.clone(), engine.engine, g.clone()));
                g
            }
        };
        moves += check_record(&game, &record)
            .map_err(|why| Failure::new(format!("{log_name}:{line_no}: game {}: {why}", record.index)))?;
        count += 1;
    }
    if count == 0 {
        return Err(Failure::new(format!("no games in {log_name}")));
    }
    let s = if count == 1 { "" } else { "s" };
    let m = if moves == 1 { "" } else { "s" };
    writeln!(io::stdout().lock(), "{count} game{s}, {moves} move{m}, all legal").map_err(Failure::output)
}

/// The engine that reads a record's moves: the SBG reasoner for `sbg` notation, else the one
/// chosen on the command line (also for a record without a notation, from an older log).
fn replay_engine(chosen: &EngineArgs, record: &LogRecord) -> Result<EngineArgs, String> {
    match record.notation.as_deref() {
        Some(RBG_NOTATION) if chosen.engine == EngineChoice::Sbg => Err(format!(
            "the moves are in {RBG_NOTATION} notation, which --engine sbg does not read; \
             replay with --engine interp"
        )),
        None | Some(RBG_NOTATION) => Ok(chosen.clone()),
        Some(SBG_NOTATION) => Ok(chosen.with_engine(EngineChoice::Sbg)),
        Some(other) => {
            Err(format!("unknown move notation {other:?} (this rbg reads {RBG_NOTATION} and {SBG_NOTATION})"))
        }
    }
}

/// The game file named in a log: as written, or else relative to the log's directory.
fn locate(file: &Path, log: &Path) -> PathBuf {
    if file.is_relative() && !file.exists() {
        if let Some(beside) = log.parent().map(|d| d.join(file)).filter(|p| p.exists()) {
            return beside;
        }
    }
    file.to_path_buf()
}

/// Replays one record; the number of moves, or why it does not hold.
fn check_record(game: &AnyGame, record: &LogRecord) -> Result<u64, String> {
    let info = game.info();
    let keeper = PlayLimits::default().keeper_limit;
    let mut sc = game.new_scratch();
    let mut state = game.initial_state();
    let mut ongoing = game.complete_keeper(&mut state, &mut sc, keeper).map_err(|e| e.to_string())?;
    let mut legal = MoveList::new();
    for (i, text) in record.moves.iter().enumerate() {
        let ply = i + 1;
        let at = format!("ply {ply}, move '{text}'");
        if !ongoing {
            return Err(format!("{at}: the game was already over"));
        }
        let mv = notation::parse_move(info, text).map_err(|e| format!("{at}: {e}"))?;
        game.legal_moves(&mut state, &mut sc, &mut legal).map_err(|e| format!("{at}: {e}"))?;
        if let Err(e) = check_listed(&legal, game.current_player(&state), &mv) {
            return Err(format!("{at}: not legal; {}", crate::position::not_one_of(info, e.player, &legal)));
        }
        game.apply_move(&mut state, &mv);
        ongoing = game.complete_keeper(&mut state, &mut sc, keeper).map_err(|e| format!("{at}: {e}"))?;
    }
    let n = record.moves.len();
    let over = !ongoing || {
        game.legal_moves(&mut state, &mut sc, &mut legal).map_err(|e| e.to_string())?;
        legal.is_empty()
    };
    match record.termination.as_deref() {
        Some("finished") if !over => {
            return Err(format!("the log says the game finished, but after its {n} moves it goes on"))
        }
        Some("move-limit") if over => {
            return Err(format!("the log says the game hit the move limit, but it ends after its {n} moves"))
        }
        _ => {}
    }
    if matches!(record.termination.as_deref(), Some("finished" | "move-limit")) {
        let scores: Vec<i64> = (1..=info.num_players() as Player).map(|p| game.score(&state, p)).collect();
        if let Some(logged) = record.scores.as_ref().filter(|s| **s != scores) {
            return Err(format!("the log gives the scores {logged:?}, but its {n} moves give {scores:?}"));
        }
    }
    Ok(n as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(entrants: &[Entrant]) -> Vec<String> {
        entrants.iter().map(Entrant::label).collect()
    }

    #[test]
    fn agents_split_at_commas_that_start_a_new_agent() {
        let e = parse_agents("mcts:c=0.4,iterations=2000,random", None).unwrap();
        assert_eq!(texts(&e), vec!["mcts:c=0.4,iterations=2000", "random"]);
        let e = parse_agents(" human , alphabeta:depth=3 ", None).unwrap();
        assert_eq!(texts(&e), vec!["human", "alphabeta:depth=3"]);
        let e = parse_agents("mcts,flatmc", Some(Budget::iterations(9))).unwrap();
        assert_eq!(texts(&e), vec!["mcts:iterations=9", "flatmc:iterations=9"]);
        assert!(parse_agents("human:fast,random", None).is_err());
        assert!(parse_agents("minimax,random", None).is_err());
        assert!(parse_agents("random,,random", None).is_err());
    }
}
