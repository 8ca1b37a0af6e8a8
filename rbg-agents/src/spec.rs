//! Agent specifications: `name[:key=value,key=value...]`.
//!
//! | agent       | keys (besides the budget keys)                                        |
//! |-------------|-----------------------------------------------------------------------|
//! | `random`    | none                                                                  |
//! | `flatmc`    | `playouts` (per legal move, when no budget key is given)              |
//! | `mcts`      | `c` (exploration, ≥ 0), `mast` (bool), `epsilon` (MAST/NST, 0..=1), `decay` (MAST/NST, 0..=1), `nst` (0, 1 or 2), `width` (the MAST/NST policy plays out only from roots with at most this many moves, else uniform playouts; default 256), `rave` (equivalence k ≥ 0), `grave` (reference visits), `rave-width` (RAVE only from roots with more than this many moves; 0: always), `split-width` (a game whose first position searched has more than this many moves is played by `split-mcts:c=0.4` with the same budget, on one thread; `off`: never; default 1000), `threads` (1..=256), `parallel` (`tree`, the default: all threads on one tree; or `root`: a tree per thread, root statistics summed), `reuse` (bool), `playout` (`full`, the default, or `split`: semi-split random walks; not with `mast` or `nst`, and without the default NST unless `nst` is given), `cutoff` (playouts stop after this many moves and the evaluation learned by self-play, as alpha-beta's `eval=learned`, predicts the rewards; 0 plays to the end; `auto`, the default: 10 in games whose random games mostly end level, else 0). Defaults: `c` 0.7, `nst` 1, `epsilon` 0.4, `decay` 0.2, no MAST, `rave` 250 with `grave` 30 from roots of more than 32 moves, split-move MCTS in games that open with more than 1000, playouts cut off after 10 moves in games whose random games mostly end level (chosen by the ladder of docs/results.md); the earlier default, UCB1 with sqrt 2 and random playouts, is `mcts:c=1.414,nst=0,rave=0,split-width=off,cutoff=0` |
//! | `split-mcts` (alias `smcts`) | `c`, `compress` (bool: steps are runs without a choice), `expansion` (`nodal` or `single`), `playout` (`full` or `split`), `steps` (`generated`, the default: by the reasoner's move-by-move interface; or `listed`: from sorted move lists), `reuse` (bool), `mast` (bool: split MAST, per action), `epsilon`, `decay`, `nst`, `rave`, `grave` (as for `mcts`, over actions), `rollup` (visits per child, ≥ 0; 0 off). Defaults: `c` 1.414, no MAST, NST or RAVE, epsilon 0.1, decay 1 |
//! | `alphabeta` | `tt` (log2 table size, ≤ 30), `material` (weight of owned pieces), `piece.NAME` (weight of piece NAME), `eval` (`material`, the default, or `learned`: weights from self-play), `learn` (self-play games, 1 to 1,000,000), `learn-time` (a duration), `mobility` (bool: learn and use mobility) |
//!
//! Budget keys, accepted by every agent (the random agent ignores them): `iterations` (a
//! count), `time` (a number with unit `us`, `ms` or `s`, e.g. `100ms`, `1.5s`), `depth`. Also
//! `seed` (the initial seed; [`play_game`](crate::play_game) reseeds agents anyway). Booleans
//! are `true`/`false`/`1`/`0`. A key may be given once.
//!
//! Parsing never panics; every error names the offending key or value (see [`SpecError`]).

use core::fmt;
use core::str::FromStr;
use std::time::Duration;

use rbg_core::Game;

use crate::agent::Agent;
use crate::alpha_beta::{AlphaBeta, AlphaBetaConfig};
use crate::budget::Budget;
use crate::eval::EvalKind;
use crate::flat_mc::{FlatMcConfig, FlatMonteCarlo};
use crate::learn::{learn_cached, LearnConfig};
use crate::mcts::{auto_cutoff, Mcts, MctsConfig, Parallelism, CUTOFF_AUTO, SPLIT_NEVER};
use crate::random::RandomAgent;
use crate::split_mcts::{Expansion, SplitMcts, SplitMctsConfig, SplitPlayout, StepSource};

/// Which agent, with its settings.
#[derive(Clone, Debug, PartialEq)]
pub enum AgentKind {
    Random,
    FlatMc(FlatMcConfig),
    Mcts(MctsConfig),
    SplitMcts(SplitMctsConfig),
    AlphaBeta(AlphaBetaConfig),
}

/// A parsed agent specification; [`AgentSpec::build`] makes the agent for a game.
#[derive(Clone, Debug, PartialEq)]
pub struct AgentSpec {
    pub kind: AgentKind,
    pub seed: u64,
}

/// Why an agent specification was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SpecError {
    Empty,
    UnknownAgent(String),
    UnknownKey { agent: &'static str, key: String, allowed: &'static str },
    MissingValue { key: String },
    BadValue { key: String, value: String, expected: &'static str },
    DuplicateKey(String),
}

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SpecError::Empty => write!(f, "empty agent specification; expected one of {AGENTS}"),
            SpecError::UnknownAgent(name) => write!(f, "unknown agent `{name}`; expected one of {AGENTS}"),
            SpecError::UnknownKey { agent, key, allowed } => {
                write!(f, "unknown option `{key}` for agent `{agent}`; allowed: {allowed}")
            }
            SpecError::MissingValue { key } => write!(f, "option `{key}` needs a value (`{key}=...`)"),
            SpecError::BadValue { key, value, expected } => {
                write!(f, "bad value `{value}` for option `{key}`: expected {expected}")
            }
            SpecError::DuplicateKey(key) => write!(f, "option `{key}` is given twice"),
        }
    }
}

impl std::error::Error for SpecError {}

/// Why an agent could not be built for a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BuildError {
    /// A piece weight names a piece the game does not have.
    UnknownPiece(String),
    /// Learning the evaluation by self-play failed (an improper game description).
    Learn(rbg_core::SearchError),
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BuildError::UnknownPiece(name) => write!(f, "the game has no piece named `{name}`"),
            BuildError::Learn(e) => write!(f, "learning the evaluation by self-play failed: {e}"),
        }
    }
}

impl std::error::Error for BuildError {}

const AGENTS: &str = "random, flatmc, mcts, split-mcts (or smcts), alphabeta";
const BUDGET_KEYS: &str = "iterations, time, depth, seed";

fn bad(key: &str, value: &str, expected: &'static str) -> SpecError {
    SpecError::BadValue { key: key.to_string(), value: value.to_string(), expected }
}

fn parse_u64(key: &str, value: &str) -> Result<u64, SpecError> {
    value.parse().map_err(|_| bad(key, value, "a non-negative integer"))
}

fn parse_i64(key: &str, value: &str) -> Result<i64, SpecError> {
    value.parse().map_err(|_| bad(key, value, "an integer"))
}

fn parse_u32(key: &str, value: &str) -> Result<u32, SpecError> {
    value.parse().map_err(|_| bad(key, value, "a non-negative integer below 2^32"))
}

/// A number of moves, or the word of `word` standing for a number, which is then not accepted
/// as a number: `split-width` (`off`, [`SPLIT_NEVER`]) and `cutoff` (`auto`, [`CUTOFF_AUTO`]).
fn parse_moves_or<T: FromStr + PartialEq + Copy>(
    key: &str,
    value: &str,
    word: NumberWord<T>,
) -> Result<T, SpecError> {
    let NumberWord { word, means: word_means, expected } = word;
    if value == word {
        return Ok(word_means);
    }
    value.parse().ok().filter(|&n| n != word_means).ok_or_else(|| bad(key, value, expected))
}

/// The text [`parse_moves_or`] reads back as `value`.
fn moves_or_name<T: fmt::Display + PartialEq>(value: T, word: NumberWord<T>) -> String {
    if value == word.means {
        word.word.to_string()
    } else {
        value.to_string()
    }
}

/// A word that a key's value may be instead of a number, and the number it stands for.
#[derive(Clone, Copy)]
struct NumberWord<T> {
    word: &'static str,
    means: T,
    /// What a bad value is told it should be.
    expected: &'static str,
}

const SPLIT_WORD: NumberWord<u32> =
    NumberWord { word: "off", means: SPLIT_NEVER, expected: "a number of moves or off" };
const CUTOFF_WORD: NumberWord<u64> =
    NumberWord { word: "auto", means: CUTOFF_AUTO, expected: "a number of moves or auto" };

fn parse_bool(key: &str, value: &str) -> Result<bool, SpecError> {
    match value {
        "true" | "1" => Ok(true),
        "false" | "0" => Ok(false),
        _ => Err(bad(key, value, "true or false")),
    }
}

fn parse_exploration(key: &str, value: &str) -> Result<f64, SpecError> {
    match value.parse::<f64>() {
        Ok(c) if c.is_finite() && c >= 0.0 => Ok(c),
        _ => Err(bad(key, value, "a finite number ≥ 0")),
    }
}

/// Most preceding moves an NST n-gram may span.
const MAX_NST: u64 = 2;
/// Most self-play games of a learned evaluation.
const MAX_LEARN_GAMES: u64 = 1_000_000;
/// Most threads one agent may run.
const MAX_THREADS: u64 = 256;

fn parse_at_most(key: &str, value: &str, max: u64, expected: &'static str) -> Result<u64, SpecError> {
    match value.parse::<u64>() {
        Ok(n) if n <= max => Ok(n),
        _ => Err(bad(key, value, expected)),
    }
}

fn parse_threads(key: &str, value: &str) -> Result<usize, SpecError> {
    match parse_at_most(key, value, MAX_THREADS, "a number of threads from 1 to 256")? {
        0 => Err(bad(key, value, "a number of threads from 1 to 256")),
        n => Ok(n as usize),
    }
}

fn parse_playout(key: &str, value: &str) -> Result<SplitPlayout, SpecError> {
    match value {
        "full" => Ok(SplitPlayout::Full),
        "split" => Ok(SplitPlayout::Split),
        _ => Err(bad(key, value, "full or split")),
    }
}

fn parse_parallel(key: &str, value: &str) -> Result<Parallelism, SpecError> {
    match value {
        "tree" => Ok(Parallelism::Tree),
        "root" => Ok(Parallelism::Root),
        _ => Err(bad(key, value, "tree or root")),
    }
}

fn parallel_name(parallel: Parallelism) -> &'static str {
    match parallel {
        Parallelism::Tree => "tree",
        Parallelism::Root => "root",
    }
}

fn playout_name(playout: SplitPlayout) -> &'static str {
    match playout {
        SplitPlayout::Full => "full",
        SplitPlayout::Split => "split",
    }
}

fn parse_unit_interval(key: &str, value: &str) -> Result<f64, SpecError> {
    match value.parse::<f64>() {
        Ok(x) if (0.0..=1.0).contains(&x) => Ok(x),
        _ => Err(bad(key, value, "a number from 0 to 1")),
    }
}

/// `100ms`, `1.5s`, `250us`.
fn parse_duration(key: &str, value: &str) -> Result<Duration, SpecError> {
    const EXPECTED: &str = "a duration such as 100ms, 2s or 500us";
    let (number, scale) = if let Some(n) = value.strip_suffix("ms") {
        (n, 1e-3)
    } else if let Some(n) = value.strip_suffix("us") {
        (n, 1e-6)
    } else if let Some(n) = value.strip_suffix('s') {
        (n, 1.0)
    } else {
        return Err(bad(key, value, EXPECTED));
    };
    let x: f64 = number.parse().map_err(|_| bad(key, value, EXPECTED))?;
    if !x.is_finite() || x < 0.0 {
        return Err(bad(key, value, EXPECTED));
    }
    Duration::try_from_secs_f64(x * scale).map_err(|_| bad(key, value, EXPECTED))
}

/// Reads a time budget as the `time` key does: a number with unit `us`, `ms` or `s` (`100ms`,
/// `1.5s`).
pub fn parse_time(text: &str) -> Result<Duration, SpecError> {
    parse_duration("time", text.trim())
}

/// The settings `mcts` and `split-mcts` share: the same keys with the same meaning, read and
/// written here once for both agents (each agent's own keys are handled where it is named).
#[derive(Clone, Copy, Debug, PartialEq)]
struct SharedMcts {
    c: f64,
    mast: bool,
    epsilon: f64,
    decay: f64,
    nst: usize,
    rave: f64,
    grave: u32,
    reuse: bool,
    playout: SplitPlayout,
}

impl SharedMcts {
    fn of_mcts(m: &MctsConfig) -> Self {
        SharedMcts {
            c: m.c,
            mast: m.mast,
            epsilon: m.mast_epsilon,
            decay: m.mast_decay,
            nst: m.nst,
            rave: m.rave,
            grave: m.grave_ref,
            reuse: m.reuse_tree,
            playout: m.playout,
        }
    }

    fn of_split(s: &SplitMctsConfig) -> Self {
        SharedMcts {
            c: s.c,
            mast: s.mast,
            epsilon: s.mast_epsilon,
            decay: s.mast_decay,
            nst: s.nst,
            rave: s.rave,
            grave: s.grave_ref,
            reuse: s.reuse_tree,
            playout: s.playout,
        }
    }

    fn apply_to_mcts(self, m: &mut MctsConfig) {
        (m.c, m.mast, m.mast_epsilon, m.mast_decay, m.nst) =
            (self.c, self.mast, self.epsilon, self.decay, self.nst);
        (m.rave, m.grave_ref, m.reuse_tree, m.playout) = (self.rave, self.grave, self.reuse, self.playout);
    }

    fn apply_to_split(self, s: &mut SplitMctsConfig) {
        (s.c, s.mast, s.mast_epsilon, s.mast_decay, s.nst) =
            (self.c, self.mast, self.epsilon, self.decay, self.nst);
        (s.rave, s.grave_ref, s.reuse_tree, s.playout) = (self.rave, self.grave, self.reuse, self.playout);
    }

    /// Reads `key=value` if `key` is a shared key (`Ok(false)`: not one of them).
    fn set(&mut self, key: &str, value: &str) -> Result<bool, SpecError> {
        match key {
            "c" => self.c = parse_exploration(key, value)?,
            "mast" => self.mast = parse_bool(key, value)?,
            "epsilon" => self.epsilon = parse_unit_interval(key, value)?,
            "decay" => self.decay = parse_unit_interval(key, value)?,
            "nst" => self.nst = parse_at_most(key, value, MAX_NST, "0, 1 or 2")? as usize,
            "rave" => self.rave = parse_exploration(key, value)?,
            "grave" => self.grave = parse_u32(key, value)?,
            "reuse" => self.reuse = parse_bool(key, value)?,
            "playout" => self.playout = parse_playout(key, value)?,
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// Adds `key=value` for every setting that differs from `default`'s.
    fn write_changed(&self, default: &SharedMcts, options: &mut Vec<String>) {
        let (o, d) = (options, default);
        changed(o, "c", self.c, d.c);
        changed(o, "mast", self.mast, d.mast);
        changed(o, "epsilon", self.epsilon, d.epsilon);
        changed(o, "decay", self.decay, d.decay);
        changed(o, "nst", self.nst, d.nst);
        changed(o, "rave", self.rave, d.rave);
        changed(o, "grave", self.grave, d.grave);
        changed(o, "reuse", self.reuse, d.reuse);
        changed(o, "playout", playout_name(self.playout), playout_name(d.playout));
    }
}

impl FromStr for AgentSpec {
    type Err = SpecError;

    fn from_str(text: &str) -> Result<Self, SpecError> {
        let text = text.trim();
        let (name, options) = match text.split_once(':') {
            Some((name, options)) => (name.trim(), Some(options)),
            None => (text, None),
        };
        if name.is_empty() {
            return Err(SpecError::Empty);
        }
        let (agent, allowed): (&'static str, &'static str) = match name {
            "random" => ("random", BUDGET_KEYS),
            "flatmc" => ("flatmc", "playouts, iterations, time, depth, seed"),
            "mcts" => (
                "mcts",
                "c, mast, epsilon, decay, nst, width, rave, grave, rave-width, split-width, threads, parallel, reuse, playout, cutoff, iterations, time, depth, seed",
            ),
            "split-mcts" | "smcts" => {
                (
                "split-mcts",
                "c, compress, expansion, playout, steps, reuse, mast, epsilon, decay, nst, rave, grave, rollup, \
                 iterations, time, depth, seed",
            )
            }
            "alphabeta" => (
                "alphabeta",
                "tt, material, piece.NAME, eval, learn, learn-time, mobility, iterations, time, depth, seed",
            ),
            _ => return Err(SpecError::UnknownAgent(name.to_string())),
        };
        let mut budget = Budget::default();
        let mut seed = 0;
        let mut flat = FlatMcConfig::default();
        let mut mcts = MctsConfig::default();
        let mut split = SplitMctsConfig::default();
        let mut ab = AlphaBetaConfig::default();
        let mut mcts_shared = SharedMcts::of_mcts(&mcts);
        let mut split_shared = SharedMcts::of_split(&split);
        let mut seen: Vec<&str> = Vec::new();
        for item in options.into_iter().flat_map(|o| o.split(',')) {
            let item = item.trim();
            if item.is_empty() {
                continue;
            }
            let (key, value) = match item.split_once('=') {
                Some((k, v)) => (k.trim(), v.trim()),
                None => return Err(SpecError::MissingValue { key: item.to_string() }),
            };
            if value.is_empty() {
                return Err(SpecError::MissingValue { key: key.to_string() });
            }
            if seen.contains(&key) {
                return Err(SpecError::DuplicateKey(key.to_string()));
            }
            seen.push(key);
            match (agent, key) {
                (_, "iterations") => budget.iterations = Some(parse_u64(key, value)?),
                (_, "time") => budget.time = Some(parse_duration(key, value)?),
                (_, "depth") => {
                    budget.depth = Some(
                        value.parse().map_err(|_| bad(key, value, "a non-negative integer below 2^32"))?,
                    )
                }
                (_, "seed") => seed = parse_u64(key, value)?,
                ("flatmc", "playouts") => flat.playouts_per_move = parse_u64(key, value)?,
                ("mcts", _) if mcts_shared.set(key, value)? => {}
                ("mcts", "threads") => mcts.threads = parse_threads(key, value)?,
                ("mcts", "parallel") => mcts.parallel = parse_parallel(key, value)?,
                ("mcts", "width") => mcts.policy_width = parse_u32(key, value)?,
                ("mcts", "rave-width") => mcts.rave_width = parse_u32(key, value)?,
                ("mcts", "split-width") => mcts.split_width = parse_moves_or(key, value, SPLIT_WORD)?,
                ("mcts", "cutoff") => mcts.cutoff = parse_moves_or(key, value, CUTOFF_WORD)?,
                ("split-mcts", _) if split_shared.set(key, value)? => {}
                ("split-mcts", "compress") => split.compress = parse_bool(key, value)?,
                ("split-mcts", "rollup") => split.rollup = parse_exploration(key, value)?,
                ("split-mcts", "expansion") => {
                    split.expansion = match value {
                        "nodal" => Expansion::Nodal,
                        "single" => Expansion::Single,
                        _ => return Err(bad(key, value, "nodal or single")),
                    }
                }
                ("split-mcts", "steps") => {
                    split.steps = match value {
                        "listed" => StepSource::Listed,
                        "generated" => StepSource::Generated,
                        _ => return Err(bad(key, value, "listed or generated")),
                    }
                }
                ("alphabeta", "tt") => {
                    ab.tt_bits = match value.parse::<u32>() {
                        Ok(b) if b <= 30 => b,
                        _ => return Err(bad(key, value, "an integer from 0 to 30")),
                    }
                }
                ("alphabeta", "material") => ab.material = parse_i64(key, value)?,
                ("alphabeta", "eval") => {
                    ab.eval = match value {
                        "material" => EvalKind::Material,
                        "learned" => EvalKind::Learned,
                        _ => return Err(bad(key, value, "material or learned")),
                    }
                }
                ("alphabeta", "learn") => {
                    ab.learn.games = match value.parse::<u64>() {
                        Ok(n) if (1..=MAX_LEARN_GAMES).contains(&n) => n,
                        _ => return Err(bad(key, value, "a number of games from 1 to 1000000")),
                    }
                }
                ("alphabeta", "learn-time") => ab.learn.time = parse_duration(key, value)?,
                ("alphabeta", "mobility") => ab.learn.mobility = parse_bool(key, value)?,
                ("alphabeta", k) if k.starts_with("piece.") && k.len() > "piece.".len() => {
                    ab.piece_weights.push((k["piece.".len()..].to_string(), parse_i64(key, value)?))
                }
                _ => return Err(SpecError::UnknownKey { agent, key: key.to_string(), allowed }),
            }
        }
        mcts_shared.apply_to_mcts(&mut mcts);
        split_shared.apply_to_split(&mut split);
        if mcts.playout == SplitPlayout::Split && !seen.iter().any(|k| matches!(*k, "mast" | "nst")) {
            // The default NST policy ranks listed moves; semi-split playouts do without it.
            (mcts.mast, mcts.nst) = (false, 0);
        }
        if mcts.playout == SplitPlayout::Split && (mcts.mast || mcts.nst > 0) {
            return Err(bad(
                "playout",
                "split",
                "full with mast or nst (their policy ranks whole listed moves)",
            ));
        }
        if ab.eval == EvalKind::Learned && (ab.material != 0 || !ab.piece_weights.is_empty()) {
            return Err(bad("eval", "learned", "material when `material` or `piece.NAME` weights are given"));
        }
        let kind = match agent {
            "random" => AgentKind::Random,
            "flatmc" => AgentKind::FlatMc(FlatMcConfig { budget, ..flat }),
            "mcts" => AgentKind::Mcts(MctsConfig { budget, ..mcts }),
            "split-mcts" => AgentKind::SplitMcts(SplitMctsConfig { budget, ..split }),
            _ => AgentKind::AlphaBeta(AlphaBetaConfig { budget, ..ab }),
        };
        Ok(AgentSpec { kind, seed })
    }
}

impl AgentSpec {
    /// The same agent with its budget replaced by `budget` (the random agent has none).
    pub fn with_budget(mut self, budget: Budget) -> Self {
        match &mut self.kind {
            AgentKind::Random => {}
            AgentKind::FlatMc(c) => c.budget = budget,
            AgentKind::Mcts(c) => c.budget = budget,
            AgentKind::SplitMcts(c) => c.budget = budget,
            AgentKind::AlphaBeta(c) => c.budget = budget,
        }
        self
    }

    /// The budget the agent is configured with (empty for the random agent).
    pub fn budget(&self) -> Budget {
        match &self.kind {
            AgentKind::Random => Budget::default(),
            AgentKind::FlatMc(c) => c.budget,
            AgentKind::Mcts(c) => c.budget,
            AgentKind::SplitMcts(c) => c.budget,
            AgentKind::AlphaBeta(c) => c.budget,
        }
    }

    /// The agent for `game`.
    pub fn build<'a, G: Game + 'a>(&self, game: &G) -> Result<Box<dyn Agent<G> + 'a>, BuildError> {
        Ok(match &self.kind {
            AgentKind::Random => Box::new(RandomAgent::new(game, self.seed)),
            AgentKind::FlatMc(c) => Box::new(FlatMonteCarlo::new(game, c.clone(), self.seed)),
            AgentKind::Mcts(c) => {
                let cutoff = match c.cutoff {
                    CUTOFF_AUTO => auto_cutoff(game).map_err(BuildError::Learn)?,
                    moves => moves,
                };
                let config = MctsConfig { cutoff, ..c.clone() };
                if cutoff > 0 {
                    // Learned here, before any move, as for alpha-beta's `eval=learned`.
                    let weights = learn_cached(game, &LearnConfig::default()).map_err(BuildError::Learn)?;
                    Box::new(Mcts::new(game, config, self.seed).with_evaluation(weights))
                } else {
                    Box::new(Mcts::new(game, config, self.seed))
                }
            }
            AgentKind::SplitMcts(c) => Box::new(SplitMcts::new(game, c.clone(), self.seed)),
            AgentKind::AlphaBeta(c) => Box::new(AlphaBeta::new(game, c.clone())?),
        })
    }
}

/// Writes a duration in the form [`AgentSpec`] parsing reads: whole seconds, milliseconds or
/// microseconds when exact, seconds with a fraction otherwise.
fn format_duration(d: Duration) -> String {
    let nanos = d.as_nanos();
    if nanos.is_multiple_of(1_000_000_000) {
        format!("{}s", d.as_secs())
    } else if nanos.is_multiple_of(1_000_000) {
        format!("{}ms", d.as_millis())
    } else if nanos.is_multiple_of(1_000) {
        format!("{}us", d.as_micros())
    } else {
        format!("{}s", d.as_secs_f64())
    }
}

/// Adds `key=value` to `options` when the value differs from the default.
fn changed<T: PartialEq + fmt::Display>(options: &mut Vec<String>, key: &str, value: T, default: T) {
    if value != default {
        options.push(format!("{key}={value}"));
    }
}

/// The specification as text that parses back to it: the agent's name, then the options that
/// differ from their defaults, then the budget keys and the seed (if not 0).
impl fmt::Display for AgentSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut options: Vec<String> = Vec::new();
        let name = match &self.kind {
            AgentKind::Random => "random",
            AgentKind::FlatMc(c) => {
                changed(
                    &mut options,
                    "playouts",
                    c.playouts_per_move,
                    FlatMcConfig::default().playouts_per_move,
                );
                "flatmc"
            }
            AgentKind::Mcts(c) => {
                let d = MctsConfig::default();
                SharedMcts::of_mcts(c).write_changed(&SharedMcts::of_mcts(&d), &mut options);
                changed(&mut options, "threads", c.threads, d.threads);
                changed(&mut options, "parallel", parallel_name(c.parallel), parallel_name(d.parallel));
                changed(&mut options, "width", c.policy_width, d.policy_width);
                changed(&mut options, "rave-width", c.rave_width, d.rave_width);
                changed(
                    &mut options,
                    "split-width",
                    moves_or_name(c.split_width, SPLIT_WORD),
                    moves_or_name(d.split_width, SPLIT_WORD),
                );
                changed(
                    &mut options,
                    "cutoff",
                    moves_or_name(c.cutoff, CUTOFF_WORD),
                    moves_or_name(d.cutoff, CUTOFF_WORD),
                );
                "mcts"
            }
            AgentKind::SplitMcts(c) => {
                let d = SplitMctsConfig::default();
                let expansion = |e: &Expansion| match e {
                    Expansion::Nodal => "nodal",
                    Expansion::Single => "single",
                };
                let steps = |s: &StepSource| match s {
                    StepSource::Listed => "listed",
                    StepSource::Generated => "generated",
                };
                SharedMcts::of_split(c).write_changed(&SharedMcts::of_split(&d), &mut options);
                let o = &mut options;
                changed(o, "compress", c.compress, d.compress);
                changed(o, "expansion", expansion(&c.expansion), expansion(&d.expansion));
                changed(o, "steps", steps(&c.steps), steps(&d.steps));
                changed(o, "rollup", c.rollup, d.rollup);
                "split-mcts"
            }
            AgentKind::AlphaBeta(c) => {
                let d = AlphaBetaConfig::default();
                changed(&mut options, "tt", c.tt_bits, d.tt_bits);
                let eval = |e: &EvalKind| match e {
                    EvalKind::Material => "material",
                    EvalKind::Learned => "learned",
                };
                changed(&mut options, "eval", eval(&c.eval), eval(&d.eval));
                changed(&mut options, "learn", c.learn.games, d.learn.games);
                if c.learn.time != d.learn.time {
                    options.push(format!("learn-time={}", format_duration(c.learn.time)));
                }
                changed(&mut options, "mobility", c.learn.mobility, d.learn.mobility);
                changed(&mut options, "material", c.material, d.material);
                for (piece, weight) in &c.piece_weights {
                    options.push(format!("piece.{piece}={weight}"));
                }
                "alphabeta"
            }
        };
        let budget = self.budget();
        if let Some(n) = budget.iterations {
            options.push(format!("iterations={n}"));
        }
        if let Some(t) = budget.time {
            options.push(format!("time={}", format_duration(t)));
        }
        if let Some(d) = budget.depth {
            options.push(format!("depth={d}"));
        }
        if self.seed != 0 {
            options.push(format!("seed={}", self.seed));
        }
        if options.is_empty() {
            write!(f, "{name}")
        } else {
            write!(f, "{name}:{}", options.join(","))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(s: &str) -> Result<AgentSpec, SpecError> {
        s.parse()
    }

    #[test]
    fn accepts_the_documented_forms() {
        assert_eq!(parse("random").unwrap().kind, AgentKind::Random);
        let AgentKind::Mcts(m) = parse("mcts:c=0.4,iterations=2000").unwrap().kind else {
            panic!("not mcts")
        };
        assert_eq!((m.c, m.budget.iterations, m.mast), (0.4, Some(2000), false));
        let AgentKind::AlphaBeta(a) = parse("alphabeta:depth=3").unwrap().kind else {
            panic!("not alphabeta")
        };
        assert_eq!(a.budget, Budget::depth(3));
        let AgentKind::FlatMc(f) = parse("flatmc:playouts=100").unwrap().kind else { panic!("not flatmc") };
        assert_eq!((f.playouts_per_move, f.budget), (100, Budget::default()));
        let AgentKind::Mcts(m) = parse(" mcts : time=100ms, mast=true ").unwrap().kind else {
            panic!("not mcts")
        };
        assert_eq!((m.budget.time, m.mast), (Some(Duration::from_millis(100)), true));
        let AgentKind::Mcts(m) = parse("mcts:nst=1,decay=0.2,rave=250,grave=30,threads=2").unwrap().kind
        else {
            panic!("not mcts")
        };
        assert_eq!((m.nst, m.mast_decay, m.rave, m.grave_ref, m.threads), (1, 0.2, 250.0, 30, 2));
        assert_eq!(m.parallel, Parallelism::Tree);
        let AgentKind::Mcts(m) = parse("mcts:threads=2,parallel=root").unwrap().kind else {
            panic!("not mcts")
        };
        assert_eq!((m.threads, m.parallel), (2, Parallelism::Root));
        let AgentKind::Mcts(m) = parse("mcts:playout=split").unwrap().kind else { panic!("not mcts") };
        assert_eq!(m.playout, SplitPlayout::Split);
        // Semi-split playouts drop the default NST policy, which ranks listed moves.
        assert_eq!((m.mast, m.nst), (false, 0));
        assert_eq!(MctsConfig::default().playout, SplitPlayout::Full);
        // The documented defaults: c 0.7, NST over one move with epsilon 0.4 and decay 0.2,
        // GRAVE (250, 30) from roots of more than 32 moves, one thread.
        let d = MctsConfig::default();
        assert_eq!((d.c, d.mast, d.mast_epsilon, d.mast_decay, d.nst), (0.7, false, 0.4, 0.2, 1));
        assert_eq!((d.rave, d.grave_ref, d.rave_width, d.threads), (250.0, 30, 32, 1));
        // The earlier default, by the specification the documentation gives for it.
        let AgentKind::Mcts(classic) =
            parse("mcts:c=1.4142135623730951,nst=0,epsilon=0.1,decay=1,rave=0,split-width=off,cutoff=0")
                .unwrap()
                .kind
        else {
            panic!("not mcts")
        };
        assert_eq!(classic, MctsConfig::classic());
        assert_eq!(
            (classic.c, classic.mast, classic.nst, classic.rave),
            (std::f64::consts::SQRT_2, false, 0, 0.0)
        );
        let AgentKind::AlphaBeta(a) = parse("alphabeta:time=1.5s,piece.wPawn=3,material=1").unwrap().kind
        else {
            panic!("not alphabeta")
        };
        assert_eq!(a.budget.time, Some(Duration::from_millis(1500)));
        assert_eq!((a.material, a.piece_weights), (1, vec![("wPawn".to_string(), 3)]));
        let AgentKind::AlphaBeta(a) =
            parse("alphabeta:eval=learned,learn=30,learn-time=1s,mobility=true").unwrap().kind
        else {
            panic!("not alphabeta")
        };
        assert_eq!(
            (a.eval, a.learn.games, a.learn.time, a.learn.mobility),
            (EvalKind::Learned, 30, Duration::from_secs(1), true)
        );
        // The documented defaults of a learned evaluation.
        let d = AlphaBetaConfig::default();
        assert_eq!(
            (d.eval, d.learn.games, d.learn.time, d.learn.mobility),
            (EvalKind::Material, 200, Duration::from_secs(2), false)
        );
        assert_eq!(parse("random:seed=9").unwrap().seed, 9);
        let AgentKind::SplitMcts(s) = parse(
            "split-mcts:c=0.4,compress=false,expansion=single,playout=split,steps=listed,iterations=50",
        )
        .unwrap()
        .kind
        else {
            panic!("not split-mcts")
        };
        assert_eq!(
            (s.c, s.compress, s.expansion, s.playout, s.steps, s.budget.iterations),
            (0.4, false, Expansion::Single, SplitPlayout::Split, StepSource::Listed, Some(50))
        );
        // The alias names the same agent, with the documented defaults.
        let AgentKind::SplitMcts(s) = parse("smcts").unwrap().kind else { panic!("not split-mcts") };
        assert_eq!(s, SplitMctsConfig::default());
        assert_eq!(
            (s.compress, s.expansion, s.playout, s.steps, s.reuse_tree),
            (true, Expansion::Nodal, SplitPlayout::Full, StepSource::Generated, true)
        );
        assert_eq!((s.rave, s.grave_ref, s.rollup), (0.0, 0, 0.0));
        let AgentKind::SplitMcts(s) = parse("smcts:rave=250,grave=30,rollup=1").unwrap().kind else {
            panic!("not split-mcts")
        };
        assert_eq!((s.rave, s.grave_ref, s.rollup), (250.0, 30, 1.0));
    }

    #[test]
    fn rejects_with_the_right_error() {
        assert_eq!(parse(""), Err(SpecError::Empty));
        assert_eq!(parse("minimax"), Err(SpecError::UnknownAgent("minimax".into())));
        assert!(matches!(parse("mcts:depht=3"), Err(SpecError::UnknownKey { key, .. }) if key == "depht"));
        assert!(matches!(parse("random:c=1"), Err(SpecError::UnknownKey { .. })));
        assert!(matches!(parse("flatmc:c=1"), Err(SpecError::UnknownKey { .. })));
        assert!(matches!(parse("mcts:c"), Err(SpecError::MissingValue { .. })));
        assert!(matches!(parse("mcts:c="), Err(SpecError::MissingValue { .. })));
        for bad_value in [
            "mcts:c=-1",
            "mcts:c=nan",
            "mcts:c=inf",
            "mcts:iterations=-5",
            "mcts:time=5",
            "mcts:time=-1s",
            "mcts:time=1e300s",
            "mcts:mast=yes",
            "mcts:epsilon=2",
            "mcts:decay=1.5",
            "mcts:nst=3",
            "mcts:rave=-1",
            "mcts:grave=-2",
            "mcts:threads=0",
            "mcts:threads=257",
            "mcts:parallel=leaf",
            "mcts:width=wide",
            "mcts:width=-1",
            "mcts:rave-width=some",
            "mcts:split-width=x",
            "mcts:split-width=-1",
            "mcts:split-width=4294967295",
            "mcts:cutoff=x",
            "mcts:cutoff=-1",
            "mcts:cutoff=18446744073709551615",
            "mcts:rave-width=-3",
            "alphabeta:tt=31",
            "split-mcts:c=-0.1",
            "split-mcts:compress=maybe",
            "split-mcts:expansion=full",
            "split-mcts:playout=nodal",
            "split-mcts:steps=some",
            "smcts:reuse=2",
            "alphabeta:depth=99999999999",
            "alphabeta:eval=neural",
            "alphabeta:learn=0",
            "alphabeta:learn=1000001",
            "alphabeta:learn=many",
            "alphabeta:learn-time=5",
            "alphabeta:mobility=maybe",
            "alphabeta:eval=learned,material=1",
            "alphabeta:piece.wPawn=3,eval=learned",
        ] {
            assert!(matches!(parse(bad_value), Err(SpecError::BadValue { .. })), "{bad_value}");
        }
        assert_eq!(parse("mcts:c=1,c=2"), Err(SpecError::DuplicateKey("c".into())));
        assert!(matches!(parse("alphabeta:piece.=3"), Err(SpecError::UnknownKey { .. })));
        // Every error has a message that names what was wrong.
        assert!(parse("mcts:depht=3").unwrap_err().to_string().contains("depht"));
        assert!(matches!(parse("mcts:eval=learned"), Err(SpecError::UnknownKey { .. })));
        let message = parse("alphabeta:eval=learned,material=2").unwrap_err().to_string();
        assert!(message.contains("eval") && message.contains("piece.NAME"), "{message}");
        let message = parse("alphabeta:learn=0").unwrap_err().to_string();
        assert!(message.contains("learn") && message.contains("1 to 1000000"), "{message}");
        assert!(matches!(parse("split-mcts:threads=2"), Err(SpecError::UnknownKey { .. })));
        for bad_value in [
            "split-mcts:rave=-1",
            "split-mcts:rave=nan",
            "split-mcts:grave=-3",
            "split-mcts:grave=1.5",
            "split-mcts:rollup=-0.5",
            "split-mcts:rollup=inf",
        ] {
            assert!(matches!(parse(bad_value), Err(SpecError::BadValue { .. })), "{bad_value}");
        }
        let message = parse("split-mcts:rollup=x").unwrap_err().to_string();
        assert!(message.contains("`x`") && message.contains("rollup"), "{message}");
        assert!(matches!(parse("split-mcts:nst=5"), Err(SpecError::BadValue { .. })));
        // MAST and NST rank listed whole moves: semi-split playouts cannot follow them.
        for text in ["mcts:mast=true,playout=split", "mcts:playout=split,nst=1"] {
            let message = parse(text).unwrap_err().to_string();
            assert!(message.contains("playout") && message.contains("mast or nst"), "{text}: {message}");
        }
        let message = parse("mcts:playout=walk").unwrap_err().to_string();
        assert!(message.contains("full or split"), "{message}");
        let message = parse("split-mcts:expansion=deep").unwrap_err().to_string();
        assert!(message.contains("deep") && message.contains("nodal or single"), "{message}");
    }

    #[test]
    fn display_writes_what_parses_back() {
        for text in [
            "random",
            "random:seed=3",
            "flatmc:playouts=7",
            "mcts:c=0.4,iterations=2000",
            "mcts:mast=true,epsilon=0.25,reuse=false,time=100ms,depth=5",
            "mcts:c=0.4,mast=true,epsilon=0.3,decay=0.5,nst=2,rave=100,grave=20,threads=2,iterations=100",
            "mcts:time=1500us",
            "mcts:nst=0,rave=100,playout=split",
            "mcts:c=1.4142135623730951,epsilon=0.1,decay=1,nst=0",
            "mcts:time=2s",
            "mcts:nst=2,threads=2,width=5000",
            "mcts:threads=2,parallel=root",
            "mcts:rave=100,grave=5,rave-width=40",
            "mcts:split-width=off",
            "mcts:threads=2,split-width=64",
            "mcts:cutoff=0",
            "mcts:threads=2,cutoff=12",
            "split-mcts",
            "split-mcts:c=0.5,reuse=false,playout=split,compress=false,expansion=single,iterations=9",
            "split-mcts:c=0.4,mast=true,epsilon=0.4,decay=0.2,nst=1",
            "split-mcts:rave=250,grave=30,rollup=1.5,iterations=20,seed=4",
            "split-mcts:rave=0.5,playout=split,rollup=1",
            "alphabeta:tt=10,material=2,piece.wPawn=3,depth=3",
            "alphabeta:eval=learned,learn=50,learn-time=500ms,mobility=true,depth=3",
            "alphabeta:learn=10,time=100ms",
        ] {
            let spec = parse(text).unwrap();
            assert_eq!(spec.to_string(), text);
            assert_eq!(parse(&spec.to_string()).unwrap(), spec);
        }
        // Defaults are left out; odd durations keep their value.
        assert_eq!(
            parse("mcts:c=0.7,nst=1,epsilon=0.4,decay=0.2,rave=250,grave=30,rave-width=32,reuse=true")
                .unwrap()
                .to_string(),
            "mcts"
        );
        assert_eq!(parse("mcts:playout=split").unwrap().to_string(), "mcts:nst=0,playout=split");
        assert_eq!(
            parse("smcts:expansion=nodal,playout=full,compress=true").unwrap().to_string(),
            "split-mcts"
        );
        assert_eq!(
            parse("alphabeta:eval=material,learn=200,learn-time=2s,mobility=false").unwrap().to_string(),
            "alphabeta"
        );
        let odd = parse("mcts:time=0.0000015s").unwrap();
        assert_eq!(parse(&odd.to_string()).unwrap(), odd);
    }

    #[test]
    fn a_budget_override_replaces_the_whole_budget() {
        let spec = parse("alphabeta:depth=9,tt=12").unwrap().with_budget(Budget::iterations(50));
        assert_eq!(spec.budget(), Budget::iterations(50));
        assert_eq!(spec.to_string(), "alphabeta:tt=12,iterations=50");
        let random = parse("random").unwrap().with_budget(Budget::iterations(50));
        assert_eq!(random.budget(), Budget::default());
    }

    proptest::proptest! {
        #[test]
        fn arbitrary_text_never_panics(text in "\\PC{0,40}") {
            let _ = parse(&text);
        }

        #[test]
        fn arbitrary_options_never_panic(name in "(random|flatmc|mcts|split-mcts|smcts|alphabeta|x)", options in "[a-z.=,0-9ms-]{0,30}") {
            if let Err(e) = parse(&format!("{name}:{options}")) {
                proptest::prop_assert!(!e.to_string().is_empty());
            }
        }
    }
}
