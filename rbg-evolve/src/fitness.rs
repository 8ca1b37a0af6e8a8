//! The fitness of a game from simulated playouts (paper, section III.B).
//!
//! Two kinds of playouts are run, `playouts` of each: min-max against min-max, and min-max
//! against a uniformly random player (min-max white in the even-numbered ones, black in the
//! odd). Min-max is our alpha-beta agent at a small depth, with a per-move node budget (a count,
//! not a time, so results do not depend on the machine) and the evaluation "score difference,
//! then material" with every piece worth 1. Alpha-beta is deterministic, so the first two
//! half-moves of a min-max-against-min-max playout are random (one opening move per side):
//! without it all those playouts would be the same game. Those two moves are not min-max
//! moves, so they do not count for usefulness.
//!
//! The features, as the paper defines them (`l` lengths are in half-moves divided by the turn
//! limit):
//!
//! * `P`: 0 if some playout did not end within the turn limit (or the reasoner failed on a
//!   bound), else 1. Generated games carry the turn limit as a rule, so they always end; a game
//!   whose own limit is longer may not.
//! * `L_M = 2 l_mm` below one half, else 1.
//! * `L_D`: with `z = l_mm - l_rm`, 1 above one quarter, 0 below 0, else `4z`.
//! * `W = exp(-(x - mu)^2 / (2 sigma^2))`, `mu` the expected branching factor, `sigma = mu/4`,
//!   `x` the mean number of legal moves over every state where a player moved, in all playouts.
//! * `B_M = (white wins - black wins) / playouts`, min-max against min-max.
//! * `B_R = (min-max-as-white wins - min-max-as-black wins) / playouts`, against random.
//! * `S`: min-max's wins against random divided by those playouts.
//! * `C`: the same Gaussian as `W` with `mu` the desired size of the rules, `x` their size (the
//!   letters written in all rules; see [`crate::blocks::PieceClass::desired_rule_size`]).
//! * `R = sum over the k piece types of (1/k - u_i)^2`, `u_i` the share of the min-max players'
//!   moves made with pieces of type `i` (all zero, so `R = 1/k`, when min-max never moved).
//!
//! The playouts are recorded and measured by rbg-metrics (the lengths, the branching factor,
//! the winners and the pieces used are its [`GameTrace`]s, [`Branching`], [`mean_length`] and
//! [`piece_moves`]), the same code that measures games for `rbg analyze`; only the choice of
//! moves and the formula are here.
//!
//! Fitness: `P/15 (L_M + L_D + 2|W| + 3S + 2C + (6 - 3|B_M| - |B_R| - 2R))`. With an extra
//! scoring function `e` (clamped to [0, 1]) of weight `w`: `P/(15 + w) (... + w e)`, so the
//! fitness stays in [0, 1].

use rand::Rng as _;
use rbg_agents::{Agent, AlphaBeta, AlphaBetaConfig, Budget};
use rbg_core::{Game, MoveList, SearchError};
use rbg_metrics::measures::{mean_length, piece_moves, Branching};
use rbg_metrics::{End, GameTrace, Recorder};
use rbg_sbg::{SbgGame, SbgReasoner};
use serde::{Deserialize, Serialize};

use crate::seeds::Rng;

/// The NLD paper's game score (equation (3): how hard the pieces are to learn, from
/// `rbg_nld::game_complexity`) turned into an ease in (0, 1]: `100 / (100 + score)`, 1 for a
/// game of trivially described pieces, one half at a score of 100 (a game of queens scores
/// 6, one of griffons 858). Used as the extra term by `rbg evolve --nld-weight W`.
pub fn nld_ease(game: &SbgGame) -> f64 {
    let score = rbg_nld::game_complexity(game);
    if score.is_finite() && score >= 0.0 {
        100.0 / (100.0 + score)
    } else {
        0.0
    }
}

/// An optional extra fitness term computed from the rules alone, expected in [0, 1].
pub type ExtraScore = fn(&SbgGame) -> f64;

/// Half-moves of a min-max-against-min-max playout played at random (one per side).
pub const RANDOM_OPENING: u64 = 2;

/// How a game is evaluated.
#[derive(Clone, Debug)]
pub struct EvalSettings {
    /// Playouts of each kind.
    pub playouts: u32,
    /// Every playout must end within this many half-moves; lengths are divided by it.
    pub turn_limit: u64,
    pub depth: u32,
    pub nodes_per_move: u64,
    pub expected_branching: f64,
    pub desired_rules_size: f64,
    pub extra: Option<ExtraScore>,
    pub extra_weight: f64,
}

impl EvalSettings {
    pub fn from_config(config: &crate::EvolveConfig, extra: Option<ExtraScore>) -> EvalSettings {
        EvalSettings {
            playouts: config.playouts,
            turn_limit: config.turn_limit,
            depth: config.depth,
            nodes_per_move: config.nodes_per_move,
            expected_branching: config.expected_branching,
            desired_rules_size: config.desired_rules_size(),
            extra,
            extra_weight: config.extra_weight,
        }
    }
}

/// The features of a game and its fitness.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Features {
    /// `P`.
    pub playable: bool,
    /// Why the game is unplayable, if it is.
    pub unplayable_reason: Option<String>,
    pub l_m: f64,
    pub l_d: f64,
    pub w: f64,
    pub b_m: f64,
    pub b_r: f64,
    pub s: f64,
    pub c: f64,
    pub r: f64,
    /// The extra term's value, when a scoring function was given.
    pub extra: Option<f64>,
    /// Mean playout lengths divided by the turn limit: min-max against min-max, against random.
    pub minmax_length: f64,
    pub random_length: f64,
    /// The mean branching factor (`x` of `W`).
    pub mean_branching: f64,
    /// The size of the rules (`x` of `C`).
    pub rules_size: f64,
    /// Per piece type (its letter): the share of min-max moves made with it.
    pub usefulness: Vec<(char, f64)>,
    pub fitness: f64,
}

/// The Gaussian `exp(-(x - mu)^2 / (2 sigma^2))` with `sigma = mu / 4` (1 at `x = mu`).
pub fn bell(x: f64, mu: f64) -> f64 {
    let sigma = mu / 4.0;
    if sigma <= 0.0 {
        return if x == mu { 1.0 } else { 0.0 };
    }
    (-(x - mu).powi(2) / (2.0 * sigma * sigma)).exp()
}

/// `L_M` from `l_mm`.
pub fn minmax_length_feature(l_mm: f64) -> f64 {
    if l_mm < 0.5 {
        2.0 * l_mm
    } else {
        1.0
    }
}

/// `L_D` from `l_mm` and `l_rm`.
pub fn length_difference_feature(l_mm: f64, l_rm: f64) -> f64 {
    let z = l_mm - l_rm;
    if z > 0.25 {
        1.0
    } else if z < 0.0 {
        0.0
    } else {
        4.0 * z
    }
}

/// `R` from the usefulness of each of the `k` piece types.
pub fn reducibility(usefulness: &[f64]) -> f64 {
    let k = usefulness.len() as f64;
    usefulness.iter().map(|u| (1.0 / k - u).powi(2)).sum()
}

impl Features {
    /// The features of an unplayable game (fitness 0).
    pub fn unplayable(reason: impl Into<String>) -> Features {
        Features { unplayable_reason: Some(reason.into()), ..Features::default() }
    }

    /// The paper's formula on these features (plus the extra term of weight `extra_weight` when
    /// `extra` is set).
    pub fn formula(&self, extra_weight: f64) -> f64 {
        if !self.playable {
            return 0.0;
        }
        let paper = self.l_m
            + self.l_d
            + 2.0 * self.w.abs()
            + 3.0 * self.s
            + 2.0 * self.c
            + (6.0 - 3.0 * self.b_m.abs() - self.b_r.abs() - 2.0 * self.r);
        match self.extra {
            Some(e) => (paper + extra_weight * e) / (15.0 + extra_weight),
            None => paper / 15.0,
        }
    }
}

/// Who plays a seat.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Seat {
    MinMax,
    Random,
}

/// One recorded playout and who played it.
struct Playout {
    trace: GameTrace,
    seats: [Seat; 2],
    /// Its first plies were played at random (see [`RANDOM_OPENING`]).
    random_opening: u64,
}

impl Playout {
    /// The plies chosen by min-max (not in the random opening).
    fn minmax_plies(&self) -> impl Iterator<Item = &rbg_metrics::Ply> {
        self.trace.plies.iter().enumerate().filter_map(move |(i, ply)| {
            let seat = (ply.player as usize).clamp(1, 2) - 1;
            (i as u64 >= self.random_opening && self.seats[seat] == Seat::MinMax).then_some(ply)
        })
    }
}

/// Why an evaluation stopped early.
enum Unplayable {
    TooLong,
    Search(String),
}

impl From<SearchError> for Unplayable {
    fn from(e: SearchError) -> Self {
        Unplayable::Search(e.to_string())
    }
}

/// Everything one evaluation works with.
struct Simulator<'a> {
    game: &'a SbgReasoner,
    settings: &'a EvalSettings,
    budget: Budget,
    searchers: [AlphaBeta<SbgReasoner>; 2],
    scratch: rbg_sbg::SbgScratch,
    moves: MoveList,
    rng: Rng,
    recorder: Recorder,
}

impl Simulator<'_> {
    fn playout(&mut self, seats: [Seat; 2], random_opening: u64, seed: u64) -> Result<Playout, Unplayable> {
        let game = self.game;
        for (i, searcher) in self.searchers.iter_mut().enumerate() {
            searcher.reset(seed.wrapping_add(i as u64));
        }
        let mut state = game.initial_state();
        let mut length = 0u64;
        loop {
            game.legal_moves(&mut state, &mut self.scratch, &mut self.moves)?;
            if self.moves.is_empty() {
                break;
            }
            if length >= self.settings.turn_limit {
                return Err(Unplayable::TooLong);
            }
            let seat = (game.current_player(&state) as usize).clamp(1, 2) - 1;
            let chosen = if seats[seat] == Seat::Random || length < random_opening {
                self.moves.get(self.rng.gen_range(0..self.moves.len())).to_vec()
            } else {
                self.searchers[seat]
                    .select_move(game, &state, &self.budget)
                    .map_err(|e| Unplayable::Search(e.to_string()))?
                    .mv
            };
            self.recorder.play(game, &mut state, self.moves.len(), &chosen);
            length += 1;
        }
        let scores = vec![game.score(&state, 1), game.score(&state, 2)];
        let trace = self.recorder.finish(scores, End::Finished, vec![0, 1]);
        Ok(Playout { trace, seats, random_opening })
    }
}

/// The piece type index (into `game.kinds()`) of every piece id of the reasoner.
fn kinds_of_pieces(game: &SbgGame, reasoner: &SbgReasoner) -> Vec<Option<usize>> {
    let kinds = game.kinds();
    reasoner
        .info()
        .pieces
        .iter()
        .map(|name| {
            let side_prefix = name.strip_prefix("white").or_else(|| name.strip_prefix("black"))?;
            let &[letter] = side_prefix.as_bytes() else { return None };
            kinds.iter().position(|&k| k == letter)
        })
        .collect()
}

/// The letters written in all rules of `game`.
pub fn rules_size(game: &SbgGame) -> usize {
    let mut letters = 0;
    for rule in &game.rules {
        rule.regex.for_each_letter(&mut |_| letters += 1);
    }
    letters
}

/// Evaluates `game` by playouts seeded from `seed` (see the module documentation).
pub fn evaluate(game: &SbgGame, settings: &EvalSettings, seed: u64) -> Features {
    let reasoner = SbgReasoner::new(game);
    let config = AlphaBetaConfig { tt_bits: 12, material: 1, ..AlphaBetaConfig::default() };
    let searcher = || AlphaBeta::new(&reasoner, config.clone());
    let (Ok(first), Ok(second)) = (searcher(), searcher()) else {
        return Features::unplayable("the min-max player cannot be built");
    };
    let mut sim = Simulator {
        game: &reasoner,
        settings,
        budget: Budget { depth: Some(settings.depth), iterations: Some(settings.nodes_per_move), time: None },
        searchers: [first, second],
        scratch: reasoner.new_scratch(),
        moves: MoveList::new(),
        rng: <Rng as rand_core::SeedableRng>::seed_from_u64(seed),
        recorder: Recorder::new(&reasoner, false),
    };
    match simulate(&mut sim) {
        Ok(playouts) => features_of(game, &reasoner, settings, &playouts),
        Err(Unplayable::TooLong) => Features::unplayable(format!(
            "a playout did not end within the turn limit of {} half-moves",
            settings.turn_limit
        )),
        Err(Unplayable::Search(e)) => Features::unplayable(format!("the reasoner stopped: {e}")),
    }
}

/// All playouts of one evaluation: `settings.playouts` of min-max against min-max, then as many
/// of min-max against random (min-max white in the even-numbered ones).
struct Playouts {
    minmax: Vec<Playout>,
    against_random: Vec<Playout>,
}

fn simulate(sim: &mut Simulator) -> Result<Playouts, Unplayable> {
    let n = sim.settings.playouts;
    let mut minmax = Vec::with_capacity(n as usize);
    for i in 0..n {
        minmax.push(sim.playout([Seat::MinMax, Seat::MinMax], RANDOM_OPENING, u64::from(i))?);
    }
    let mut against_random = Vec::with_capacity(n as usize);
    for i in 0..n {
        let seats = if i % 2 == 0 { [Seat::MinMax, Seat::Random] } else { [Seat::Random, Seat::MinMax] };
        against_random.push(sim.playout(seats, 0, u64::from(n + i))?);
    }
    Ok(Playouts { minmax, against_random })
}

/// Playouts won by the player in `seat` (from 0).
fn wins_of<'p>(playouts: impl IntoIterator<Item = &'p Playout>, seat: usize) -> u64 {
    playouts.into_iter().filter(|p| p.trace.winner() == Some(seat)).count() as u64
}

/// Min-max's moves per piece type (index into `game.kinds()`) over all playouts.
fn minmax_moves_by_kind(game: &SbgGame, reasoner: &SbgReasoner, playouts: &Playouts) -> Vec<u64> {
    let all = playouts.minmax.iter().chain(&playouts.against_random);
    let by_piece = piece_moves(all.flat_map(Playout::minmax_plies), reasoner.info().pieces.len());
    let mut by_kind = vec![0; game.kinds().len()];
    for (kind, moves) in kinds_of_pieces(game, reasoner).into_iter().zip(by_piece) {
        if let Some(k) = kind {
            by_kind[k] += moves;
        }
    }
    by_kind
}

fn features_of(
    game: &SbgGame,
    reasoner: &SbgReasoner,
    settings: &EvalSettings,
    playouts: &Playouts,
) -> Features {
    let kinds = game.kinds();
    let n = f64::from(settings.playouts);
    let limit = settings.turn_limit as f64;
    let minmax_traces = || playouts.minmax.iter().map(|p| &p.trace);
    let l_mm = mean_length(minmax_traces()) / limit;
    let l_rm = mean_length(playouts.against_random.iter().map(|p| &p.trace)) / limit;
    let mean_branching =
        Branching::of(minmax_traces().chain(playouts.against_random.iter().map(|p| &p.trace))).mean;
    let (white_wins, black_wins) = (wins_of(&playouts.minmax, 0), wins_of(&playouts.minmax, 1));
    let minmax_white = || playouts.against_random.iter().filter(|p| p.seats[0] == Seat::MinMax);
    let minmax_black = || playouts.against_random.iter().filter(|p| p.seats[1] == Seat::MinMax);
    let (minmax_white_wins, minmax_black_wins) = (wins_of(minmax_white(), 0), wins_of(minmax_black(), 1));
    let minmax_moves = minmax_moves_by_kind(game, reasoner, playouts);
    let total_moves: u64 = minmax_moves.iter().sum();
    let usefulness: Vec<f64> = minmax_moves
        .iter()
        .map(|&m| if total_moves == 0 { 0.0 } else { m as f64 / total_moves as f64 })
        .collect();
    let size = rules_size(game) as f64;
    let extra = settings.extra.map(|f| {
        let e = f(game);
        if e.is_finite() {
            e.clamp(0.0, 1.0)
        } else {
            0.0
        }
    });
    let mut features = Features {
        playable: true,
        unplayable_reason: None,
        l_m: minmax_length_feature(l_mm),
        l_d: length_difference_feature(l_mm, l_rm),
        w: bell(mean_branching, settings.expected_branching),
        b_m: (white_wins as f64 - black_wins as f64) / n,
        b_r: (minmax_white_wins as f64 - minmax_black_wins as f64) / n,
        s: (minmax_white_wins + minmax_black_wins) as f64 / n,
        c: bell(size, settings.desired_rules_size),
        r: reducibility(&usefulness),
        extra,
        minmax_length: l_mm,
        random_length: l_rm,
        mean_branching,
        rules_size: size,
        usefulness: kinds.iter().map(|&k| k as char).zip(usefulness).collect(),
        fitness: 0.0,
    };
    features.fitness = features.formula(settings.extra_weight);
    features
}
