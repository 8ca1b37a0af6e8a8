//! `rbg analyze`: measures of a game by self-play (rbg-metrics), printed as a table, as JSON
//! (`--json`) or as an HTML report with charts (`--html`).

use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use rbg_agents::{AgentSpec, Budget, PlayLimits};
use rbg_core::Game;
use rbg_metrics::analyze::{self, AnalysisConfig, Progress, Stage, StrengthTest};
use rbg_metrics::{Analysis, AnalysisError, Row};

use crate::arena::{check_threads, parse_agents, Entrant};
use crate::engine_choice::EngineArgs;
use crate::play::any_game;
use crate::Failure;

/// Options of `rbg analyze`.
#[derive(clap::Args, Clone, Debug)]
pub struct AnalyzeArgs {
    /// The agents: one for self-play in every seat, or one per player, separated by commas (as
    /// `rbg play --agents` takes them; seats rotate from game to game).
    #[arg(long, default_value = "mcts:iterations=100")]
    pub agents: String,
    /// Number of self-play games.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..))]
    pub games: u64,
    /// Base seed; every game, sample position and strength-test game is seeded from it.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Worker threads (default: one per core); the numbers do not depend on it.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Iterations per move for every agent of the self-play games, replacing their own budgets.
    #[arg(long)]
    pub iterations: Option<u64>,
    /// A game stops unfinished after this many moves (and does not count as completed).
    #[arg(long, default_value_t = PlayLimits::default().max_moves)]
    pub max_moves: u64,
    /// The first N games get a value estimate of every position (decisiveness, lead changes,
    /// drama; two-player games); 0 for none.
    #[arg(long, default_value_t = analyze::DEFAULT_SAMPLES)]
    pub samples: u64,
    /// The agent whose value estimates the sample games get (flatmc, mcts or split-mcts).
    #[arg(long, default_value = analyze::DEFAULT_EVALUATOR)]
    pub evaluator: String,
    /// The strength test's weak and strong agents, `WEAK,STRONG` (default: random against the
    /// first agent of --agents, unless that is random).
    #[arg(long)]
    pub strength: Option<String>,
    /// Games of the strength test; 0 for none.
    #[arg(long, default_value_t = analyze::DEFAULT_STRENGTH_GAMES)]
    pub strength_games: u64,
    /// Print the whole analysis as JSON instead of the table.
    #[arg(long)]
    pub json: bool,
    /// Write an HTML report with charts to this file.
    #[arg(long, value_name = "REPORT")]
    pub html: Option<PathBuf>,
}

/// `rbg analyze`.
pub fn run(file: &Path, engine: &EngineArgs, args: &AnalyzeArgs) -> Result<(), Failure> {
    let threads = args.threads.unwrap_or_else(analyze::default_threads);
    check_threads(threads)?;
    let agents = agent_specs("--agents", &args.agents, args.iterations.map(Budget::iterations))?;
    let evaluator = agent_specs("--evaluator", &args.evaluator, None)?;
    let [evaluator] =
        <[AgentSpec; 1]>::try_from(evaluator).map_err(|_| Failure::usage("--evaluator: give one agent"))?;
    if !rbg_metrics::values::estimates_values(&evaluator) {
        return Err(Failure::usage(format!(
            "--evaluator {evaluator}: gives no value estimates; use flatmc, mcts or split-mcts"
        )));
    }
    let game = any_game(file, engine)?;
    let config = config(&game, args, agents, evaluator, threads)?;
    let bar = Bar::default();
    let analysis = analyze::analyze(&game, &config, &bar).map_err(analysis_failure)?;
    bar.finish();
    if let Some(path) = &args.html {
        std::fs::write(path, rbg_metrics::html::report(&analysis))
            .map_err(|e| Failure::new(format!("cannot write the report {}: {e}", path.display())))?;
    }
    let mut out = io::stdout().lock();
    if args.json {
        let text = serde_json::to_string_pretty(&analysis).map_err(|e| Failure::new(e.to_string()))?;
        writeln!(out, "{text}").map_err(Failure::output)
    } else {
        print_table(&mut out, &analysis).map_err(Failure::output)
    }
}

/// The agents of `text` (an option's value); `human` is refused.
fn agent_specs(option: &str, text: &str, budget: Option<Budget>) -> Result<Vec<AgentSpec>, Failure> {
    parse_agents(text, budget)
        .map_err(|f| Failure::usage(f.message().unwrap_or_default().replacen("--agents", option, 1)))?
        .into_iter()
        .map(|e| match e {
            Entrant::Agent(spec) => Ok(spec),
            Entrant::Human => {
                Err(Failure::usage(format!("{option}: a human cannot take part in an analysis")))
            }
        })
        .collect()
}

/// The analysis settings: one agent is repeated in every seat; every agent is built once here
/// so that a bad one is a usage error naming its option.
fn config<G: Game>(
    game: &G,
    args: &AnalyzeArgs,
    agents: Vec<AgentSpec>,
    evaluator: AgentSpec,
    threads: usize,
) -> Result<AnalysisConfig, Failure> {
    let info = game.info();
    let players = info.num_players();
    let agents = match agents.len() {
        1 => vec![agents[0].clone(); players],
        n if n == players => agents,
        n => {
            return Err(Failure::usage(format!(
                "--agents: the game has {players} players ({}) but {n} agents were given; give one, or one per player",
                info.players.join(", ")
            )))
        }
    };
    build_all(game, "--agents", &agents)?;
    build_all(game, "--evaluator", std::slice::from_ref(&evaluator))?;
    let strength = match agents.first() {
        Some(first) => strength_test(args, first)?,
        None => None,
    };
    if let Some(test) = &strength {
        build_all(game, "--strength", &[test.weak.clone(), test.strong.clone()])?;
    }
    Ok(AnalysisConfig {
        agents,
        games: args.games,
        seed: args.seed,
        threads,
        limits: PlayLimits { max_moves: args.max_moves, ..PlayLimits::default() },
        samples: args.samples,
        evaluator,
        strength,
    })
}

fn build_all<G: Game>(game: &G, option: &str, specs: &[AgentSpec]) -> Result<(), Failure> {
    for (i, spec) in specs.iter().enumerate() {
        spec.build(game).map_err(|e| Failure::usage(format!("{option}: agent {} ({spec}): {e}", i + 1)))?;
    }
    Ok(())
}

/// `--strength WEAK,STRONG`, or random against `first` by default.
fn strength_test(args: &AnalyzeArgs, first: &AgentSpec) -> Result<Option<StrengthTest>, Failure> {
    if args.strength_games == 0 {
        return Ok(None);
    }
    let (weak, strong) = match &args.strength {
        Some(text) => match <[AgentSpec; 2]>::try_from(agent_specs("--strength", text, None)?) {
            Ok([weak, strong]) => (weak, strong),
            Err(_) => return Err(Failure::usage("--strength: give two agents, WEAK,STRONG")),
        },
        None => {
            let random: AgentSpec = AgentSpec { kind: rbg_agents::AgentKind::Random, seed: 0 };
            if first.kind == random.kind {
                return Ok(None);
            }
            (random, first.clone())
        }
    };
    Ok(Some(StrengthTest { weak, strong, games: args.strength_games }))
}

fn analysis_failure(error: AnalysisError) -> Failure {
    match error {
        AnalysisError::Match { error: rbg_agents::MatchError::Threads { .. }, .. } => {
            Failure::usage(format!("--threads: {error}"))
        }
        other => Failure::new(other.to_string()),
    }
}

/// The table: one measure a line, with its interval and the games it is based on.
fn print_table(out: &mut impl Write, a: &Analysis) -> io::Result<()> {
    writeln!(
        out,
        "analysis of {}: {} games, agents {} (seats rotate), seed {}",
        a.game,
        a.games,
        a.agents.join(", "),
        a.seed
    )?;
    let rows = rbg_metrics::rows(a);
    let width = rows.iter().map(|r| r.measure.chars().count()).max().unwrap_or(0);
    for Row { measure, value, low, high, n } in &rows {
        let interval = match (low, high) {
            (Some(low), Some(high)) => format!(" [{low:.3}, {high:.3}]"),
            _ => String::new(),
        };
        let n = n.map_or(String::new(), |n| format!("  (n = {n})"));
        writeln!(out, "{measure:<width$}  {value:.3}{interval}{n}")?;
    }
    for note in a.measures.notes.iter().chain(&a.samples_note) {
        writeln!(out, "note: {note}")?;
    }
    Ok(())
}

/// The progress bar of the current stage, on stderr when it is a terminal.
#[derive(Default)]
struct Bar {
    bar: Mutex<Option<indicatif::ProgressBar>>,
}

impl Bar {
    fn finish(&self) {
        if let Some(bar) = self.bar.lock().ok().and_then(|mut b| b.take()) {
            bar.finish_and_clear();
        }
    }
}

impl Progress for Bar {
    fn start(&self, stage: Stage, total: u64) {
        self.finish();
        if !io::stderr().is_terminal() {
            return;
        }
        let what = match stage {
            Stage::SelfPlay => "self-play games",
            Stage::Samples => "sample positions",
            Stage::Strength => "strength games",
        };
        let template = format!("{what} [{{elapsed_precise}}] {{wide_bar}} {{pos}}/{{len}}");
        let style = indicatif::ProgressStyle::with_template(&template)
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar());
        let bar = indicatif::ProgressBar::new(total).with_style(style);
        if let Ok(mut slot) = self.bar.lock() {
            *slot = Some(bar);
        }
    }

    fn advance(&self, _stage: Stage, done: u64) {
        if let Some(bar) = self.bar.lock().ok().as_ref().and_then(|b| b.as_ref()) {
            bar.set_position(bar.position().max(done));
        }
    }
}
