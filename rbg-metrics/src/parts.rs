//! An analysis in parts, so that its games can be played anywhere (one per Ray task in
//! `rbg.cluster`) and folded into the report a single run gives.
//!
//! Every part is computed alone from the configuration and its game's number: a self-play game
//! ([`self_play_game`]: its trace, and its moves when it is a sample game), a sample game's
//! value estimates ([`sample_game`]) and a strength-test game ([`strength_game`]). The records
//! are plain data (serde both ways). [`assemble`] folds them, in game order, into the
//! [`Analysis`]; [`crate::analyze`] builds its report from the same records through the same
//! function, so a report put together from parts computed on many machines is the report of
//! one run, number for number.

use rbg_agents::matches::{game_seed, match_game, Termination};
use rbg_agents::{AgentSpec, GameResult, MatchError, MatchSummary};
use rbg_core::{Action, Game, GameInfo};
use serde::{Deserialize, Serialize};

use crate::analyze::{Analysis, AnalysisConfig, AnalysisError, Gap, Stage, StrengthGap, StrengthTest};
use crate::measures::Measures;
use crate::stats::Rate;
use crate::trace::{replay, End, GameTrace, Recorder};
use crate::values::{
    estimates_values, first_player_values, positions, smooth, Drama, DramaSummary, SampleGame,
};

/// Mixed into the seed of the sample positions' searches, so they differ from the games'.
const SAMPLE_SEED: u64 = 0x5a4d_504c_4553;
/// Mixed into the seed of the strength test.
const STRENGTH_SEED: u64 = 0x5354_5245_4e47;

/// A self-play game as the report needs it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlayedGame {
    /// The game's number in the analysis (from 0).
    pub index: u64,
    pub trace: GameTrace,
    /// The moves, as `(action index, vertex)` pairs, of a sample game (one of the first
    /// `samples`): its positions get value estimates.
    pub moves: Option<Vec<Vec<(u32, u32)>>>,
}

impl PlayedGame {
    /// The record of a played match game.
    pub fn of<G: Game>(game: &G, config: &AnalysisConfig, result: &GameResult) -> PlayedGame {
        let trace = replay(game, result, &mut Recorder::new(game, true), config.limits.keeper_limit);
        let moves = (result.index < config.samples).then(|| {
            result.moves.iter().map(|m| m.mv.iter().map(|a| (a.index, a.vertex)).collect()).collect()
        });
        PlayedGame { index: result.index, trace, moves }
    }

    /// The moves of a sample game.
    pub fn move_list(&self) -> Option<Vec<Vec<Action>>> {
        let moves = self.moves.as_ref()?;
        Some(
            moves
                .iter()
                .map(|m| m.iter().map(|&(index, vertex)| Action::new(index, vertex)).collect())
                .collect(),
        )
    }
}

/// A game of the strength test: who sat where, the scores and how it ended.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StrengthGame {
    pub index: u64,
    pub seating: Vec<usize>,
    pub scores: Vec<i64>,
    pub end: End,
}

impl StrengthGame {
    pub(crate) fn of(result: &GameResult) -> StrengthGame {
        StrengthGame {
            index: result.index,
            seating: result.seating.clone(),
            scores: result.scores.clone(),
            end: End::from(&result.termination),
        }
    }

    /// The game as a match result without its moves (what a match summary counts).
    fn result(&self) -> GameResult {
        let termination = match &self.end {
            End::Finished => Termination::Finished,
            End::MoveLimit => Termination::MoveLimit,
            End::Error(e) => Termination::Error(e.clone()),
        };
        GameResult {
            index: self.index,
            seed: 0,
            seating: self.seating.clone(),
            moves: Vec::new(),
            scores: self.scores.clone(),
            termination,
        }
    }
}

/// Checks what a run of the analysis would refuse before any game: the evaluator, the number
/// of agents and that every agent can be built.
pub fn check<G: Game>(game: &G, config: &AnalysisConfig) -> Result<(), AnalysisError> {
    if !estimates_values(&config.evaluator) {
        return Err(AnalysisError::Evaluator(format!(
            "{} gives no value estimates; use flatmc, mcts or split-mcts",
            config.evaluator
        )));
    }
    config.evaluator.build(game).map_err(|e| AnalysisError::Evaluator(e.to_string()))?;
    let players = game.info().num_players();
    let mut matches = vec![(Stage::SelfPlay, config.agents.clone())];
    if let Some(test) = strength_test(game.info(), config) {
        matches.push((Stage::Strength, strength_specs(players, test)));
    }
    for (stage, specs) in matches {
        if specs.len() != players {
            let error = MatchError::AgentCount { players, agents: specs.len() };
            return Err(AnalysisError::Match { stage, error });
        }
        for (agent, spec) in specs.iter().enumerate() {
            spec.build(game)
                .map_err(|error| AnalysisError::Match { stage, error: MatchError::Build { agent, error } })?;
        }
    }
    Ok(())
}

/// Self-play game `index` of the analysis.
pub fn self_play_game<G: Game>(game: &G, config: &AnalysisConfig, index: u64) -> PlayedGame {
    let result = match_game(game, &config.agents, config.seed, index, &config.limits);
    PlayedGame::of(game, config, &result)
}

/// Why the sample games get no value estimates, when they get none though some were asked for.
pub fn samples_note(info: &GameInfo, config: &AnalysisConfig) -> Option<String> {
    (config.samples.min(config.games) > 0 && info.num_players() != 2)
        .then(|| "value estimates are made for two-player games only".to_string())
}

/// The value estimates of a sample game (`played` with its moves), each position searched with
/// a seed of the analysis' seed, the game's number and the position's (in parallel on the
/// current rayon pool; the same values on any number of threads).
pub fn sample_game<G: Game>(
    game: &G,
    config: &AnalysisConfig,
    played: &PlayedGame,
) -> Result<SampleGame, AnalysisError> {
    let index = played.index;
    let moves = played
        .move_list()
        .ok_or_else(|| AnalysisError::Evaluator(format!("game {index} is not a sample game")))?;
    let states = positions(game, &moves, config.limits.keeper_limit)
        .map_err(|e| AnalysisError::Evaluator(format!("replaying sample game {index}: {e}")))?;
    let seed = game_seed(config.seed ^ SAMPLE_SEED, index);
    let raw =
        first_player_values(game, &config.evaluator, &states, seed).map_err(AnalysisError::Evaluator)?;
    let first = smooth(&raw);
    let winner = played.trace.winner();
    let drama = Drama::of(&first, winner);
    Ok(SampleGame { index, first, raw, winner, drama })
}

/// The strength test the analysis runs, if any: one with games, in a game of several players
/// (alone, a player has nobody to be stronger than).
pub fn strength_test<'c>(info: &GameInfo, config: &'c AnalysisConfig) -> Option<&'c StrengthTest> {
    config.strength.as_ref().filter(|test| test.games > 0 && info.num_players() > 1)
}

/// The strength test's agents: the strong one in the first seat, the weak one in all others.
pub fn strength_specs(players: usize, test: &StrengthTest) -> Vec<AgentSpec> {
    let mut specs = vec![test.strong.clone()];
    specs.extend(std::iter::repeat_n(test.weak.clone(), players.saturating_sub(1)));
    specs
}

/// The strength test's match seed.
pub fn strength_seed(config: &AnalysisConfig) -> u64 {
    config.seed ^ STRENGTH_SEED
}

/// Game `index` of the strength test.
pub fn strength_game<G: Game>(
    game: &G,
    config: &AnalysisConfig,
    test: &StrengthTest,
    index: u64,
) -> StrengthGame {
    let specs = strength_specs(game.info().num_players(), test);
    StrengthGame::of(&match_game(game, &specs, strength_seed(config), index, &config.limits))
}

/// The parts of an analysis, each in game order.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Parts {
    pub games: Vec<PlayedGame>,
    pub samples: Vec<SampleGame>,
    /// The strength test's games (empty without a test).
    pub strength: Vec<StrengthGame>,
}

/// The report from its parts (sorted into game order first, so they may come in any order).
pub fn assemble(info: &GameInfo, config: &AnalysisConfig, mut parts: Parts) -> Analysis {
    parts.games.sort_by_key(|g| g.index);
    parts.samples.sort_by_key(|s| s.index);
    parts.strength.sort_by_key(|s| s.index);
    let agents: Vec<String> = config.agents.iter().map(AgentSpec::to_string).collect();
    let traces: Vec<GameTrace> = parts.games.into_iter().map(|g| g.trace).collect();
    let measures = Measures::of(info, &agents, &traces, true);
    let drama = (!parts.samples.is_empty()).then(|| DramaSummary::of(&parts.samples));
    let strength = strength_test(info, config).map(|test| strength_gap(info, test, &parts.strength));
    Analysis {
        game: info.name.clone(),
        players: info.players.clone(),
        agents,
        games: config.games,
        seed: config.seed,
        max_moves: config.limits.max_moves,
        measures,
        evaluator: config.evaluator.to_string(),
        samples: parts.samples,
        drama,
        samples_note: samples_note(info, config),
        strength,
    }
}

/// The strength gap from the test's games.
fn strength_gap(info: &GameInfo, test: &StrengthTest, games: &[StrengthGame]) -> StrengthGap {
    let players = info.num_players();
    let labels = strength_specs(players, test).iter().map(AgentSpec::to_string).collect();
    let mut summary = MatchSummary::new(labels);
    for game in games {
        summary.add(&game.result());
    }
    let strong = summary.per_agent.first().cloned().unwrap_or_default();
    let strong_score = Rate::of(strong.wins as f64 + strong.draws as f64 / 2.0, strong.games());
    let fair = 1.0 / players.max(1) as f64;
    StrengthGap {
        weak: test.weak.to_string(),
        strong: test.strong.to_string(),
        games: test.games,
        finished: summary.finished,
        strong_score,
        gap: strong_score.map(|r| Gap { value: r.rate - fair, low: r.low - fair, high: r.high - fair }),
    }
}
