//! Matches: many games between the same agents, seats rotated, played in parallel, with
//! results per agent and per seat and an Elo estimate for two agents.
//!
//! # Seats
//!
//! A match needs one agent per player. Game `i` seats agent `(j + i) mod n` in seat `j` (seat
//! `j` plays player `j + 1`), so over `n` consecutive games every agent plays every seat once
//! ([`seating`]).
//!
//! # Seeds and threads
//!
//! Game `i` is played with seed [`game_seed`]`(seed, i)` by agents built afresh from their
//! specifications, so it does not depend on which thread plays it or on what was played before:
//! a match gives the same games with any number of threads (given iteration, not time,
//! budgets).
//!
//! # Results
//!
//! A game counts towards wins, draws and losses only if it ended by its rules. Then, from its
//! final scores, a player whose score is strictly higher than every other player's **wins**,
//! players tied for the highest score **draw**, and every other player **loses** (so in a game
//! of three, two players tied for first place both draw and the third loses). Mean scores are
//! the raw final scores of those games. Games stopped by the move limit and games that failed
//! (an agent's error, an illegal move, a reasoner error) are counted apart
//! ([`MatchSummary::move_limit`], [`MatchSummary::errors`]) and keep their moves and message in
//! their [`GameResult`].
//!
//! # Elo
//!
//! For two agents, [`MatchSummary::elo`] turns the first agent's score fraction `p` (a win 1, a
//! draw ½, a loss 0, averaged over the finished games) into a rating difference
//! `-400 log10(1/p - 1)`. Its 95% interval maps `p ± 1.96 s/sqrt(N)` the same way, `s` being the
//! standard deviation of the per-game scores (population form) over the `N` games; an end of
//! the interval outside (0, 1) is infinite. When `p` is 0 or 1 the difference is unbounded: it
//! is reported as a bound, computed as if one more game had been played and drawn (`p` of
//! `(N + 0.5)/(N + 1)`, or `0.5/(N + 1)`), e.g. "> +529" after winning 10 games out of 10,
//! and no interval is given.

use core::fmt;
use core::fmt::Write as _;

use rbg_core::{Action, Game, SearchError};

use crate::agent::{splitmix, Agent};
use crate::budget::Budget;
use crate::play::{play_recorded, PlayLimits, PlayedMove};
use crate::spec::{AgentSpec, BuildError};

/// Settings of a match.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchConfig {
    /// Number of games.
    pub games: u64,
    /// Worker threads, from 1 to [`max_threads`]; more threads than games are not started.
    pub threads: usize,
    /// The base seed; game `i` is seeded with [`game_seed`]`(seed, i)`.
    pub seed: u64,
    /// A budget that replaces every agent's own (see [`AgentSpec::with_budget`]).
    pub budget: Option<Budget>,
    /// The move limit of each game (and the keeper's bound).
    pub limits: PlayLimits,
}

impl Default for MatchConfig {
    fn default() -> Self {
        MatchConfig { games: 10, threads: 1, seed: 0, budget: None, limits: PlayLimits::default() }
    }
}

/// Most worker threads per core: more would only add scheduling overhead.
pub const MAX_THREADS_PER_CORE: usize = 4;

/// The most worker threads a match may use on this machine: [`MAX_THREADS_PER_CORE`] per core.
pub fn max_threads() -> usize {
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    MAX_THREADS_PER_CORE * cores
}

/// Why a match could not be played at all (failures of single games are in their results).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MatchError {
    /// There must be exactly one agent per player.
    AgentCount { players: usize, agents: usize },
    /// The number of threads is 0 or above [`max_threads`].
    Threads { requested: usize, max: usize },
    /// An agent could not be built for the game (`agent` counts from 0).
    Build { agent: usize, error: BuildError },
    /// The keeper has no move in the initial state: no player ever moves.
    GameOverAtStart,
    /// The reasoner failed while completing the keeper's moves of the initial state.
    Search(SearchError),
    /// The worker threads could not be started (the system's message).
    Pool(String),
}

impl fmt::Display for MatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MatchError::AgentCount { players, agents } => {
                write!(f, "the game has {players} players but {agents} agents were given (one per player)")
            }
            MatchError::Threads { requested: 0, .. } => write!(f, "a match needs at least 1 thread"),
            MatchError::Threads { requested, max } => write!(
                f,
                "{requested} threads is too many: at most {max} on this machine \
                 ({MAX_THREADS_PER_CORE} per core)"
            ),
            MatchError::Build { agent, error } => write!(f, "agent {}: {error}", agent + 1),
            MatchError::GameOverAtStart => write!(f, "the game is over before any player moves"),
            MatchError::Search(e) => e.fmt(f),
            MatchError::Pool(e) => write!(f, "cannot start the worker threads: {e}"),
        }
    }
}

impl std::error::Error for MatchError {}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Termination {
    /// By its rules: no legal move for the player to move, or the keeper stuck.
    Finished,
    /// Stopped unfinished at the move limit.
    MoveLimit,
    /// Stopped by a failure: an agent's error, an illegal move, a reasoner error (the message).
    Error(String),
}

impl Termination {
    /// A short name: `finished`, `move-limit` or `error`.
    pub fn name(&self) -> &'static str {
        match self {
            Termination::Finished => "finished",
            Termination::MoveLimit => "move-limit",
            Termination::Error(_) => "error",
        }
    }
}

/// A player's result in a finished game (see the module documentation).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    Win,
    Draw,
    Loss,
}

impl Outcome {
    /// `win`, `draw` or `loss`.
    pub fn name(self) -> &'static str {
        match self {
            Outcome::Win => "win",
            Outcome::Draw => "draw",
            Outcome::Loss => "loss",
        }
    }
}

/// Each player's outcome from the final scores: a strictly highest score wins, a tie for the
/// highest draws, anything lower loses.
pub fn outcomes(scores: &[i64]) -> Vec<Outcome> {
    let Some(&best) = scores.iter().max() else { return Vec::new() };
    let tied = scores.iter().filter(|&&s| s == best).count();
    scores
        .iter()
        .map(|&s| match (s == best, tied) {
            (true, 1) => Outcome::Win,
            (true, _) => Outcome::Draw,
            (false, _) => Outcome::Loss,
        })
        .collect()
}

/// Which agent sits in each seat in game `game` of a match of `agents` agents: seat `j` gets
/// agent `(j + game) mod agents`.
pub fn seating(game: u64, agents: usize) -> Vec<usize> {
    if agents == 0 {
        return Vec::new();
    }
    let shift = (game % agents as u64) as usize;
    (0..agents).map(|seat| (seat + shift) % agents).collect()
}

/// The seed of game `index` of a match with base seed `seed`.
pub fn game_seed(seed: u64, index: u64) -> u64 {
    splitmix(splitmix(seed) ^ index)
}

/// One game of a match.
#[derive(Clone, Debug, PartialEq)]
pub struct GameResult {
    /// The game's number in the match, from 0.
    pub index: u64,
    /// The seed it was played with.
    pub seed: u64,
    /// The agent in each seat (seat `j` plays player `j + 1`), as indices into the match's
    /// agents.
    pub seating: Vec<usize>,
    /// The moves played, in order (up to the failure for a failed game).
    pub moves: Vec<PlayedMove>,
    /// The scores of the last state reached, by seat.
    pub scores: Vec<i64>,
    pub termination: Termination,
}

impl GameResult {
    /// Each seat's outcome, for a finished game.
    pub fn outcomes(&self) -> Option<Vec<Outcome>> {
        (self.termination == Termination::Finished).then(|| outcomes(&self.scores))
    }

    /// The moves alone.
    pub fn move_list(&self) -> Vec<Vec<Action>> {
        self.moves.iter().map(|m| m.mv.clone()).collect()
    }
}

/// Wins, draws, losses and scores of finished games.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    /// Sum of the final scores.
    pub score_sum: i128,
}

impl Tally {
    /// Finished games counted.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// The mean final score, if any game was counted.
    pub fn mean_score(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| self.score_sum as f64 / n as f64)
    }

    fn add(&mut self, outcome: Outcome, score: i64) {
        match outcome {
            Outcome::Win => self.wins += 1,
            Outcome::Draw => self.draws += 1,
            Outcome::Loss => self.losses += 1,
        }
        self.score_sum += i128::from(score);
    }
}

/// The results of a match, by agent and by seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchSummary {
    /// The agents' names (e.g. their specifications), in match order.
    pub agents: Vec<String>,
    /// Each agent's results over all seats.
    pub per_agent: Vec<Tally>,
    /// `per_seat[agent][seat]`: each agent's results in each seat.
    pub per_seat: Vec<Vec<Tally>>,
    /// Games that ended by their rules (the ones tallied).
    pub finished: u64,
    /// Games stopped at the move limit.
    pub move_limit: u64,
    /// Games that failed.
    pub errors: u64,
}

impl MatchSummary {
    /// An empty summary for these agents, one per seat.
    pub fn new(agents: Vec<String>) -> Self {
        let n = agents.len();
        MatchSummary {
            agents,
            per_agent: vec![Tally::default(); n],
            per_seat: vec![vec![Tally::default(); n]; n],
            finished: 0,
            move_limit: 0,
            errors: 0,
        }
    }

    /// Counts one game. Its seating must name agents of this summary, one per seat.
    pub fn add(&mut self, game: &GameResult) {
        match &game.termination {
            Termination::MoveLimit => self.move_limit += 1,
            Termination::Error(_) => self.errors += 1,
            Termination::Finished => {
                self.finished += 1;
                for (seat, outcome) in outcomes(&game.scores).into_iter().enumerate() {
                    let Some(&agent) = game.seating.get(seat) else { continue };
                    let score = game.scores[seat];
                    if let Some(t) = self.per_agent.get_mut(agent) {
                        t.add(outcome, score);
                    }
                    if let Some(t) = self.per_seat.get_mut(agent).and_then(|s| s.get_mut(seat)) {
                        t.add(outcome, score);
                    }
                }
            }
        }
    }

    /// All games counted.
    pub fn games(&self) -> u64 {
        self.finished + self.move_limit + self.errors
    }

    /// The first agent's rating relative to the second, for a match of two agents with at least
    /// one finished game.
    pub fn elo(&self) -> Option<Elo> {
        match self.per_agent.as_slice() {
            [first, _] => Elo::from_results(first.wins, first.draws, first.losses),
            _ => None,
        }
    }
}

/// Rating difference for a score fraction `p` in (0, 1): `-400 log10(1/p - 1)`; ±infinity at
/// and beyond the ends.
pub fn elo_difference(p: f64) -> f64 {
    if p <= 0.0 {
        f64::NEG_INFINITY
    } else if p >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / p - 1.0).log10()
    }
}

/// What [`Elo::difference`] is.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum EloKind {
    /// An estimate, with an interval.
    Estimate,
    /// Every game was won: the difference is at least this (see the module documentation).
    AtLeast,
    /// Every game was lost: the difference is at most this.
    AtMost,
}

/// An Elo rating difference between two agents (see the module documentation).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Elo {
    /// Games it is based on.
    pub games: u64,
    /// The first agent's score fraction (draws count half).
    pub score: f64,
    /// The rating difference, or a bound on it.
    pub difference: f64,
    pub kind: EloKind,
    /// The 95% interval (an estimate only); its ends may be infinite.
    pub interval: Option<(f64, f64)>,
}

/// The normal quantile of a two-sided 95% interval.
const Z95: f64 = 1.96;

impl Elo {
    /// From one agent's wins, draws and losses against the other; `None` without games.
    pub fn from_results(wins: u64, draws: u64, losses: u64) -> Option<Elo> {
        let games = wins + draws + losses;
        if games == 0 {
            return None;
        }
        let n = games as f64;
        let points = wins as f64 + draws as f64 / 2.0;
        let score = points / n;
        if wins == games {
            let difference = elo_difference((n + 0.5) / (n + 1.0));
            return Some(Elo { games, score, difference, kind: EloKind::AtLeast, interval: None });
        }
        if losses == games {
            let difference = elo_difference(0.5 / (n + 1.0));
            return Some(Elo { games, score, difference, kind: EloKind::AtMost, interval: None });
        }
        let variance = (wins as f64 * (1.0 - score).powi(2)
            + draws as f64 * (0.5 - score).powi(2)
            + losses as f64 * score.powi(2))
            / n;
        let margin = Z95 * variance.sqrt() / n.sqrt();
        let interval = (elo_difference(score - margin), elo_difference(score + margin));
        Some(Elo {
            games,
            score,
            difference: elo_difference(score),
            kind: EloKind::Estimate,
            interval: Some(interval),
        })
    }
}

/// A signed rating with no decimals; infinities as `-inf`/`+inf`.
fn signed(x: f64) -> String {
    if x.is_infinite() {
        if x > 0.0 { "+inf" } else { "-inf" }.to_string()
    } else {
        // Adding 0 turns a negative zero (e.g. -0.3 rounded) into +0.
        format!("{:+.0}", x.round() + 0.0)
    }
}

/// `+147 (95%: -33 .. +504)`, `> +529`, `< -529`.
impl fmt::Display for Elo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.kind, self.interval) {
            (EloKind::AtLeast, _) => write!(f, "> {}", signed(self.difference)),
            (EloKind::AtMost, _) => write!(f, "< {}", signed(self.difference)),
            (EloKind::Estimate, Some((lo, hi))) => {
                write!(f, "{} (95%: {} .. {})", signed(self.difference), signed(lo), signed(hi))
            }
            (EloKind::Estimate, None) => write!(f, "{}", signed(self.difference)),
        }
    }
}

/// A played match: every game, in index order, and the summary.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchOutcome {
    pub games: Vec<GameResult>,
    pub summary: MatchSummary,
}

/// Plays a match of `config.games` games between the agents of `specs` (one per player), seats
/// rotated, on `config.threads` threads; `progress` is called once per game as it ends (from
/// the thread that played it, in no particular order). See the module documentation for seats,
/// seeds and how results are counted. Every game's result is kept (a `GameResult` per game);
/// for long matches [`stream_match`] hands each result over instead.
pub fn play_match<G, F>(
    game: &G,
    specs: &[AgentSpec],
    config: &MatchConfig,
    progress: F,
) -> Result<MatchOutcome, MatchError>
where
    G: Game,
    F: Fn(&GameResult) + Sync,
{
    let games = std::sync::Mutex::new(Vec::new());
    let summary = stream_match(game, specs, config, |result| {
        progress(&result);
        if let Ok(mut games) = games.lock() {
            games.push(result);
        }
    })?;
    let mut games = games.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner);
    games.sort_by_key(|g| g.index);
    Ok(MatchOutcome { games, summary })
}

/// Plays a match as [`play_match`] does, but keeps nothing per game: each result goes to
/// `on_result` as its game ends and the summary is returned, so memory does not grow with
/// `config.games` (any number, up to `u64::MAX`, is accepted; the match is as long as that).
pub fn stream_match<G, F>(
    game: &G,
    specs: &[AgentSpec],
    config: &MatchConfig,
    on_result: F,
) -> Result<MatchSummary, MatchError>
where
    G: Game,
    F: Fn(GameResult) + Sync,
{
    let players = game.info().num_players();
    if specs.len() != players {
        return Err(MatchError::AgentCount { players, agents: specs.len() });
    }
    let max = max_threads();
    if config.threads == 0 || config.threads > max {
        return Err(MatchError::Threads { requested: config.threads, max });
    }
    let specs: Vec<AgentSpec> = match config.budget {
        Some(b) => specs.iter().map(|s| s.clone().with_budget(b)).collect(),
        None => specs.to_vec(),
    };
    for (agent, spec) in specs.iter().enumerate() {
        spec.build(game).map_err(|error| MatchError::Build { agent, error })?;
    }
    let mut sc = game.new_scratch();
    let mut start = game.initial_state();
    if !game.complete_keeper(&mut start, &mut sc, config.limits.keeper_limit).map_err(MatchError::Search)? {
        return Err(MatchError::GameOverAtStart);
    }
    let summary = std::sync::Mutex::new(MatchSummary::new(specs.iter().map(AgentSpec::to_string).collect()));
    let play = |index: u64| {
        let result = match_game(game, &specs, config.seed, index, &config.limits);
        if let Ok(mut summary) = summary.lock() {
            summary.add(&result);
        }
        on_result(result);
    };
    let threads = config.threads.min(usize::try_from(config.games).unwrap_or(usize::MAX));
    if threads <= 1 {
        (0..config.games).for_each(play);
    } else {
        use rayon::prelude::*;
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .thread_name(|i| format!("rbg-match-{i}"))
            .build()
            .map_err(|e| MatchError::Pool(e.to_string()))?;
        // A u64 range is not an indexed parallel iterator; past `usize::MAX` games (never
        // reached in practice) the indices go on in chunks.
        let chunk = usize::MAX as u64;
        let mut first = 0u64;
        while first < config.games {
            let len = (config.games - first).min(chunk) as usize;
            pool.install(|| (0..len).into_par_iter().with_max_len(1).for_each(|i| play(first + i as u64)));
            first = first.saturating_add(len as u64);
        }
    }
    Ok(summary.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner))
}

/// Game `index` of a match of `specs` seeded `seed`, with fresh agents: the seats rotated
/// ([`seating`]) and the game seeded by [`game_seed`]. An agent that cannot be built or fails
/// makes a game that ended in an error (with the moves played before it). Every way of playing
/// a match game (`rbg play`, the analysis, `rbg.cluster`) plays it through this function.
pub fn match_game<G: Game>(
    game: &G,
    specs: &[AgentSpec],
    seed: u64,
    index: u64,
    limits: &PlayLimits,
) -> GameResult {
    let seating = seating(index, specs.len());
    let seed = game_seed(seed, index);
    let built: Result<Vec<Box<dyn Agent<G> + '_>>, BuildError> =
        seating.iter().map(|&a| specs[a].build(game)).collect();
    let (moves, scores, termination) = match built {
        Err(e) => (Vec::new(), Vec::new(), Termination::Error(e.to_string())),
        Ok(mut agents) => {
            // A panic in an agent or the engine is a bug, but it must not take the whole
            // match (and the threads waiting on it) down: the game ends in an error instead.
            let played = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                play_recorded(game, &mut agents, seed, limits)
            }));
            match played {
                Ok(played) => {
                    let termination = match played.outcome {
                        Ok(true) => Termination::Finished,
                        Ok(false) => Termination::MoveLimit,
                        Err(e) => Termination::Error(e.to_string()),
                    };
                    (played.moves, played.scores, termination)
                }
                Err(payload) => (Vec::new(), Vec::new(), Termination::Error(panic_message(payload.as_ref()))),
            }
        }
    };
    GameResult { index, seed, seating, moves, scores, termination }
}

/// The error of a game whose agent or engine panicked.
fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    let what = payload
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("no message");
    format!("internal error (a bug, please report it): the game panicked: {what}")
}

/// A game that failed, as the result table lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FailedGame {
    /// The game's number in the match.
    pub index: u64,
    /// The moves played before the error.
    pub moves: usize,
    /// The error.
    pub error: String,
}

impl FailedGame {
    /// The failure of a game that ended with an error, else `None`.
    pub fn of(game: &GameResult) -> Option<FailedGame> {
        match &game.termination {
            Termination::Error(error) => {
                Some(FailedGame { index: game.index, moves: game.moves.len(), error: error.clone() })
            }
            _ => None,
        }
    }
}

/// Most failed games listed under the result table.
pub const FAILED_SHOWN: usize = 10;

impl MatchSummary {
    /// The result table `rbg play` prints after a match (and `rbg.cluster` returns): per agent
    /// and per seat the games, wins/draws/losses and mean score, the Elo difference of two
    /// agents, the games stopped at the move limit and the first [`FAILED_SHOWN`] failures.
    pub fn table(&self, name: &str, players: &[String], failed: &[FailedGame], max_moves: u64) -> String {
        let summary = self;
        let mut out = String::new();
        let n = summary.games();
        let s = if n == 1 { "" } else { "s" };
        let _ = writeln!(out, "\n{name}: {n} game{s}, {} finished", summary.finished);
        let names: Vec<String> =
            summary.agents.iter().enumerate().map(|(i, a)| format!("{} {a}", i + 1)).collect();
        let agent_width = names.iter().map(|a| a.chars().count()).max().unwrap_or(0).max("agent".len());
        let seat_width = players.iter().map(|p| p.chars().count()).max().unwrap_or(0).max("seat".len());
        let wdl = |t: &Tally| format!("{}/{}/{}", t.wins, t.draws, t.losses);
        let wdl_width = summary.per_agent.iter().map(|t| wdl(t).len()).max().unwrap_or(0).max("W/D/L".len());
        let games_width =
            summary.per_agent.iter().map(|t| t.games().to_string().len()).max().unwrap_or(0).max(5);
        let _ = writeln!(
            out,
            "{:<agent_width$}  {:<seat_width$}  {:>games_width$}  {:>wdl_width$}  mean score",
            "agent", "seat", "games", "W/D/L"
        );
        let row = |out: &mut String, agent: &str, seat: &str, t: &Tally| {
            let mean = t.mean_score().map_or("-".to_string(), |m| format!("{m:.2}"));
            let line = format!(
                "{agent:<agent_width$}  {seat:<seat_width$}  {:>games_width$}  {:>wdl_width$}  {mean:>10}",
                t.games(),
                wdl(t)
            );
            let _ = writeln!(out, "{}", line.trim_end());
        };
        for (a, agent) in names.iter().enumerate() {
            row(&mut out, agent, "all", &summary.per_agent[a]);
            for (seat, player) in players.iter().enumerate() {
                row(&mut out, "", player, &summary.per_seat[a][seat]);
            }
        }
        if let Some(elo) = summary.elo() {
            let s = if elo.games == 1 { "" } else { "s" };
            let _ = writeln!(
                out,
                "Elo difference (1 minus 2): {elo}; score {:.3} over {} game{s}",
                elo.score, elo.games
            );
        }
        if summary.move_limit > 0 {
            let s = if summary.move_limit == 1 { "" } else { "s" };
            let _ = writeln!(
                out,
                "{} game{s} stopped at the move limit ({max_moves} moves), not counted above",
                summary.move_limit
            );
        }
        if summary.errors > 0 {
            let s = if summary.errors == 1 { "" } else { "s" };
            let _ = writeln!(out, "{} game{s} failed, not counted above:", summary.errors);
            for game in failed.iter().take(FAILED_SHOWN) {
                let _ = writeln!(out, "  game {} (ply {}): {}", game.index, game.moves + 1, game.error);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rbg_core::toy::Nim;

    #[test]
    fn seats_rotate_so_that_every_agent_plays_every_seat() {
        assert_eq!(seating(0, 2), vec![0, 1]);
        assert_eq!(seating(1, 2), vec![1, 0]);
        assert_eq!(seating(2, 2), vec![0, 1]);
        assert_eq!(seating(0, 3), vec![0, 1, 2]);
        assert_eq!(seating(1, 3), vec![1, 2, 0]);
        assert_eq!(seating(2, 3), vec![2, 0, 1]);
        assert_eq!(seating(3, 3), vec![0, 1, 2]);
        assert_eq!(seating(u64::MAX, 2), vec![1, 0]);
        assert!(seating(5, 0).is_empty());
        // Over n consecutive games each agent sits once in each seat.
        for n in 1..6 {
            for seat in 0..n {
                let mut agents: Vec<usize> = (0..n as u64).map(|g| seating(g + 7, n)[seat]).collect();
                agents.sort();
                assert_eq!(agents, (0..n).collect::<Vec<_>>());
            }
        }
    }

    #[test]
    fn a_strictly_highest_score_wins_and_a_tie_for_it_draws() {
        use Outcome::*;
        assert_eq!(outcomes(&[100, 0]), vec![Win, Loss]);
        assert_eq!(outcomes(&[50, 50]), vec![Draw, Draw]);
        assert_eq!(outcomes(&[3, 7, 7]), vec![Loss, Draw, Draw]);
        assert_eq!(outcomes(&[-1, -5, -2]), vec![Win, Loss, Loss]);
        assert_eq!(outcomes(&[4]), vec![Win]);
        assert!(outcomes(&[]).is_empty());
    }

    fn result(index: u64, seating: Vec<usize>, scores: Vec<i64>, termination: Termination) -> GameResult {
        GameResult { index, seed: 0, seating, moves: Vec::new(), scores, termination }
    }

    #[test]
    fn results_are_tallied_per_agent_and_per_seat() {
        let mut s = MatchSummary::new(vec!["a".into(), "b".into()]);
        // a wins as seat 0, draws as seat 1, wins as seat 1; one game hits the move limit and one
        // fails: neither is tallied.
        s.add(&result(0, vec![0, 1], vec![100, 0], Termination::Finished));
        s.add(&result(1, vec![1, 0], vec![50, 50], Termination::Finished));
        s.add(&result(2, vec![0, 1], vec![30, 20], Termination::MoveLimit));
        s.add(&result(3, vec![1, 0], vec![0, 100], Termination::Finished));
        s.add(&result(4, vec![0, 1], vec![], Termination::Error("boom".into())));
        assert_eq!((s.finished, s.move_limit, s.errors, s.games()), (3, 1, 1, 5));
        let a = &s.per_agent[0];
        assert_eq!((a.wins, a.draws, a.losses, a.score_sum), (2, 1, 0, 250));
        assert_eq!(a.mean_score(), Some(250.0 / 3.0));
        let b = &s.per_agent[1];
        assert_eq!((b.wins, b.draws, b.losses, b.score_sum), (0, 1, 2, 50));
        // Per seat: a played seat 0 once (a win, 100) and seat 1 twice (a draw and a win).
        assert_eq!(s.per_seat[0][0], Tally { wins: 1, draws: 0, losses: 0, score_sum: 100 });
        assert_eq!(s.per_seat[0][1], Tally { wins: 1, draws: 1, losses: 0, score_sum: 150 });
        assert_eq!(s.per_seat[1][0], Tally { wins: 0, draws: 1, losses: 1, score_sum: 50 });
        assert_eq!(s.per_seat[1][1], Tally { wins: 0, draws: 0, losses: 1, score_sum: 0 });
        assert_eq!(Tally::default().mean_score(), None);
        // Three agents: a tie for first place is a draw for both, a loss for the third.
        let mut three = MatchSummary::new(vec!["a".into(), "b".into(), "c".into()]);
        three.add(&result(1, vec![1, 2, 0], vec![7, 7, 3], Termination::Finished));
        let wdl = |t: &Tally| (t.wins, t.draws, t.losses);
        assert_eq!(
            three.per_agent.iter().map(wdl).collect::<Vec<_>>(),
            vec![(0, 0, 1), (0, 1, 0), (0, 1, 0)]
        );
        assert_eq!(three.elo(), None, "Elo is for two agents");
    }

    /// Agreement to the four decimals the expectations below are written with.
    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-3
    }

    #[test]
    fn elo_matches_numbers_computed_by_hand() {
        // 6 wins, 2 draws, 2 losses: p = (6 + 2/2)/10 = 0.7.
        // Elo = -400 log10(1/0.7 - 1) = 400 log10(7/3) = 400 * 0.3679768 = 147.1907.
        // Per-game scores 1 (x6), 0.5 (x2), 0 (x2): variance (6*0.09 + 2*0.04 + 2*0.49)/10
        // = 0.16, s = 0.4, standard error 0.4/sqrt(10) = 0.1264911, margin 1.96 * that
        // = 0.2479226. p - margin = 0.4520774: 1/p - 1 = 1.2120104, -400 log10 of it = -33.4025;
        // p + margin = 0.9479226: 1/p - 1 = 0.0549385, -400 log10 of it = +504.0493.
        let e = Elo::from_results(6, 2, 2).unwrap();
        assert_eq!((e.games, e.kind), (10, EloKind::Estimate));
        assert!(close(e.score, 0.7));
        assert!(close(e.difference, 147.1907), "{e:?}");
        let (lo, hi) = e.interval.unwrap();
        assert!(close(lo, -33.4025) && close(hi, 504.0493), "{e:?}");
        assert_eq!(e.to_string(), "+147 (95%: -33 .. +504)");
        // An even score is 0: 1 win, 1 loss: p = 0.5, s = 0.5, margin = 1.96 * 0.5 / sqrt(2)
        // = 0.6929646, so p - margin < 0 and p + margin > 1: the interval is unbounded.
        let even = Elo::from_results(1, 0, 1).unwrap();
        assert_eq!((even.difference, even.interval), (0.0, Some((f64::NEG_INFINITY, f64::INFINITY))));
        assert_eq!(even.to_string(), "+0 (95%: -inf .. +inf)");
        // 30 wins, 10 losses: p = 0.75, Elo = 400 log10(3) = 190.8485; s = sqrt(0.75 * 0.25)
        // = 0.4330127, margin = 1.96 * 0.4330127 / sqrt(40) = 0.1341920: p from 0.6158080
        // (1/p - 1 = 0.6238828, Elo 81.9588) to 0.8841920 (1/p - 1 = 0.1309760, Elo 353.1233).
        let e = Elo::from_results(30, 0, 10).unwrap();
        assert!(close(e.difference, 190.8485), "{e:?}");
        let (lo, hi) = e.interval.unwrap();
        assert!(close(lo, 81.9588) && close(hi, 353.1233), "{e:?}");
        // All won: p clamped to (10 + 0.5)/(10 + 1) = 21/22, 1/p - 1 = 1/21, so the bound is
        // 400 log10(21) = 528.8877. A single game won gives p = 0.75: 400 log10(3) = 190.8485.
        let all = Elo::from_results(10, 0, 0).unwrap();
        assert_eq!((all.kind, all.interval, all.score), (EloKind::AtLeast, None, 1.0));
        assert!(close(all.difference, 528.8877), "{all:?}");
        assert_eq!(all.to_string(), "> +529");
        assert!(close(Elo::from_results(1, 0, 0).unwrap().difference, 190.8485));
        let none = Elo::from_results(0, 0, 10).unwrap();
        assert_eq!((none.kind, none.to_string()), (EloKind::AtMost, "< -529".to_string()));
        // All drawn: p = 0.5 with no spread, an interval of one point.
        let drawn = Elo::from_results(0, 4, 0).unwrap();
        assert_eq!((drawn.difference, drawn.interval), (0.0, Some((0.0, 0.0))));
        assert_eq!(Elo::from_results(0, 0, 0), None);
        assert_eq!(elo_difference(0.0), f64::NEG_INFINITY);
        assert_eq!(elo_difference(1.5), f64::INFINITY);
    }

    #[test]
    fn game_seeds_differ_and_depend_only_on_the_base_and_the_index() {
        assert_eq!(game_seed(1, 5), game_seed(1, 5));
        let seeds: std::collections::HashSet<u64> =
            (0..3).flat_map(|base| (0..100).map(move |i| game_seed(base, i))).collect();
        assert_eq!(seeds.len(), 300);
    }

    #[test]
    fn a_match_checks_its_arguments() {
        let game = Nim::new(5);
        let random: AgentSpec = "random".parse().unwrap();
        let config = MatchConfig { games: 2, ..MatchConfig::default() };
        let one = play_match(&game, std::slice::from_ref(&random), &config, |_| {});
        assert_eq!(one.unwrap_err(), MatchError::AgentCount { players: 2, agents: 1 });
        let specs = [random.clone(), random.clone()];
        for threads in [0, max_threads() + 1] {
            let e =
                play_match(&game, &specs, &MatchConfig { threads, ..config.clone() }, |_| {}).unwrap_err();
            assert!(matches!(e, MatchError::Threads { .. }), "{e:?}");
            assert!(e.to_string().contains("thread"), "{e}");
        }
        let piece: AgentSpec = "alphabeta:piece.queen=9".parse().unwrap();
        let e = play_match(&game, &[random.clone(), piece], &config, |_| {}).unwrap_err();
        assert!(matches!(e, MatchError::Build { agent: 1, .. }), "{e:?}");
    }

    /// Nim whose third move applied, over all games, panics.
    struct PanickingNim {
        nim: Nim,
        applied: std::sync::atomic::AtomicU64,
    }

    impl Game for PanickingNim {
        type State = <Nim as Game>::State;
        type Scratch = ();
        fn info(&self) -> &rbg_core::GameInfo {
            self.nim.info()
        }
        fn new_scratch(&self) {}
        fn initial_state(&self) -> Self::State {
            self.nim.initial_state()
        }
        fn current_player(&self, s: &Self::State) -> rbg_core::Player {
            self.nim.current_player(s)
        }
        fn current_vertex(&self, s: &Self::State) -> u32 {
            self.nim.current_vertex(s)
        }
        fn piece(&self, s: &Self::State, vertex: u32) -> u32 {
            self.nim.piece(s, vertex)
        }
        fn variable(&self, s: &Self::State, var: usize) -> i64 {
            self.nim.variable(s, var)
        }
        fn rules_state(&self, s: &Self::State) -> u32 {
            self.nim.rules_state(s)
        }
        fn visit_moves<F>(
            &self,
            s: &mut Self::State,
            sc: &mut (),
            visit: F,
        ) -> Result<core::ops::ControlFlow<()>, SearchError>
        where
            F: FnMut(&[Action]) -> core::ops::ControlFlow<()>,
        {
            self.nim.visit_moves(s, sc, visit)
        }
        fn apply_move(&self, s: &mut Self::State, m: &[Action]) {
            if self.applied.fetch_add(1, std::sync::atomic::Ordering::SeqCst) == 2 {
                panic!("a test panic");
            }
            self.nim.apply_move(s, m)
        }
    }

    #[test]
    fn a_panicking_game_ends_in_an_error_and_the_match_goes_on() {
        let game = PanickingNim { nim: Nim::new(7), applied: std::sync::atomic::AtomicU64::new(0) };
        let specs: Vec<AgentSpec> = ["random", "random"].iter().map(|s| s.parse().unwrap()).collect();
        for threads in [1, 2] {
            game.applied.store(0, std::sync::atomic::Ordering::SeqCst);
            let config = MatchConfig { games: 4, threads, seed: 1, ..MatchConfig::default() };
            let outcome = play_match(&game, &specs, &config, |_| {}).unwrap();
            let failed: Vec<FailedGame> = outcome.games.iter().filter_map(FailedGame::of).collect();
            // Exactly one move panicked; the other three games were played to their end.
            assert_eq!(failed.len(), 1, "{threads} threads: {failed:?}");
            assert!(failed[0].error.contains("panicked: a test panic"), "{}", failed[0].error);
            let finished = outcome.games.iter().filter(|g| g.termination == Termination::Finished).count();
            assert_eq!(finished, 3);
        }
    }

    #[test]
    fn a_match_of_nim_is_played_and_counted() {
        // Nim with 7 stones is won by the first player with perfect play; alpha-beta finds it
        // and, as second player, wins whenever random leaves a multiple of 3.
        let game = Nim::new(7);
        let specs: Vec<AgentSpec> =
            ["alphabeta:depth=10", "random"].iter().map(|s| s.parse().unwrap()).collect();
        let calls = std::sync::atomic::AtomicU64::new(0);
        let config = MatchConfig { games: 6, threads: 2, seed: 9, ..MatchConfig::default() };
        let outcome = play_match(&game, &specs, &config, |_| {
            calls.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        })
        .unwrap();
        assert_eq!(calls.into_inner(), 6);
        assert_eq!(outcome.games.iter().map(|g| g.index).collect::<Vec<_>>(), (0..6).collect::<Vec<_>>());
        let s = &outcome.summary;
        assert_eq!(s.agents, vec!["alphabeta:depth=10".to_string(), "random".to_string()]);
        assert_eq!((s.finished, s.per_agent[0].games()), (6, 6));
        // As first player (games 0, 2, 4) alpha-beta always wins.
        assert_eq!(s.per_seat[0][0].wins, 3);
        for g in &outcome.games {
            assert_eq!(g.seating, seating(g.index, 2));
            assert_eq!(g.seed, game_seed(9, g.index));
        }
        // A move limit of 1 stops every game unfinished; nothing is tallied.
        let limited = MatchConfig { limits: PlayLimits { max_moves: 1, ..PlayLimits::default() }, ..config };
        let outcome = play_match(&game, &specs, &limited, |_| {}).unwrap();
        assert_eq!((outcome.summary.move_limit, outcome.summary.finished), (6, 0));
        assert!(outcome.games.iter().all(|g| g.moves.len() == 1 && g.termination == Termination::MoveLimit));
        assert_eq!(outcome.summary.elo(), None);
    }
}
