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
//! Fitness: `P/15 (L_M + L_D + 2|W| + 3S + 2C + (6 - 3|B_M| - |B_R| - 2R))`. With an extra
//! scoring function `e` (clamped to [0, 1]) of weight `w`: `P/(15 + w) (... + w e)`, so the
//! fitness stays in [0, 1].

use rand::Rng as _;
use rbg_agents::{Agent, AlphaBeta, AlphaBetaConfig, Budget};
use rbg_core::{Game, MoveList, SearchError};
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

/// How one playout ended: its length in half-moves and the winner (player 1 or 2), if any.
struct Outcome {
    length: u64,
    winner: Option<usize>,
}

/// Counts gathered over all playouts of an evaluation.
struct Tally {
    branching_sum: u64,
    states: u64,
    /// Min-max moves per piece type (index into the game's sorted kinds).
    minmax_moves: Vec<u64>,
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
    /// Per piece id: its type's index into `kinds`, if it is a piece of a type.
    kind_of_piece: Vec<Option<usize>>,
    searchers: [AlphaBeta<SbgReasoner>; 2],
    scratch: rbg_sbg::SbgScratch,
    moves: MoveList,
    rng: Rng,
    tally: Tally,
}

impl Simulator<'_> {
    fn playout(&mut self, seats: [Seat; 2], random_opening: u64, seed: u64) -> Result<Outcome, Unplayable> {
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
            self.tally.branching_sum += self.moves.len() as u64;
            self.tally.states += 1;
            let chosen = if seats[seat] == Seat::Random || length < random_opening {
                self.moves.get(self.rng.gen_range(0..self.moves.len())).to_vec()
            } else {
                let decision = self.searchers[seat]
                    .select_move(game, &state, &self.budget)
                    .map_err(|e| Unplayable::Search(e.to_string()))?;
                let from = decision.mv.first().map_or(0, |a| a.vertex);
                let piece = game.piece(&state, from) as usize;
                if let Some(Some(kind)) = self.kind_of_piece.get(piece) {
                    self.tally.minmax_moves[*kind] += 1;
                }
                decision.mv
            };
            game.apply_move(&mut state, &chosen);
            length += 1;
        }
        let (white, black) = (game.score(&state, 1), game.score(&state, 2));
        let winner = match white.cmp(&black) {
            std::cmp::Ordering::Greater => Some(1),
            std::cmp::Ordering::Less => Some(2),
            std::cmp::Ordering::Equal => None,
        };
        Ok(Outcome { length, winner })
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
    let kinds = game.kinds();
    let mut sim = Simulator {
        game: &reasoner,
        settings,
        budget: Budget { depth: Some(settings.depth), iterations: Some(settings.nodes_per_move), time: None },
        kind_of_piece: kinds_of_pieces(game, &reasoner),
        searchers: [first, second],
        scratch: reasoner.new_scratch(),
        moves: MoveList::new(),
        rng: <Rng as rand_core::SeedableRng>::seed_from_u64(seed),
        tally: Tally { branching_sum: 0, states: 0, minmax_moves: vec![0; kinds.len()] },
    };
    match simulate(&mut sim) {
        Ok(counts) => features_of(game, settings, &sim.tally, &counts, &kinds),
        Err(Unplayable::TooLong) => Features::unplayable(format!(
            "a playout did not end within the turn limit of {} half-moves",
            settings.turn_limit
        )),
        Err(Unplayable::Search(e)) => Features::unplayable(format!("the reasoner stopped: {e}")),
    }
}

/// Results of all playouts of one evaluation.
struct Counts {
    minmax_lengths: u64,
    random_lengths: u64,
    /// Min-max against min-max: white's and black's wins.
    white_wins: u64,
    black_wins: u64,
    /// Min-max against random: min-max's wins as white and as black.
    minmax_white_wins: u64,
    minmax_black_wins: u64,
}

fn simulate(sim: &mut Simulator) -> Result<Counts, Unplayable> {
    let mut counts = Counts {
        minmax_lengths: 0,
        random_lengths: 0,
        white_wins: 0,
        black_wins: 0,
        minmax_white_wins: 0,
        minmax_black_wins: 0,
    };
    let n = sim.settings.playouts;
    for i in 0..n {
        let outcome = sim.playout([Seat::MinMax, Seat::MinMax], RANDOM_OPENING, u64::from(i))?;
        counts.minmax_lengths += outcome.length;
        match outcome.winner {
            Some(1) => counts.white_wins += 1,
            Some(_) => counts.black_wins += 1,
            None => {}
        }
    }
    for i in 0..n {
        let minmax_white = i % 2 == 0;
        let seats = if minmax_white { [Seat::MinMax, Seat::Random] } else { [Seat::Random, Seat::MinMax] };
        let outcome = sim.playout(seats, 0, u64::from(n + i))?;
        counts.random_lengths += outcome.length;
        match (outcome.winner, minmax_white) {
            (Some(1), true) => counts.minmax_white_wins += 1,
            (Some(2), false) => counts.minmax_black_wins += 1,
            _ => {}
        }
    }
    Ok(counts)
}

fn features_of(
    game: &SbgGame,
    settings: &EvalSettings,
    tally: &Tally,
    counts: &Counts,
    kinds: &[u8],
) -> Features {
    let n = f64::from(settings.playouts);
    let limit = settings.turn_limit as f64;
    let l_mm = counts.minmax_lengths as f64 / n / limit;
    let l_rm = counts.random_lengths as f64 / n / limit;
    let mean_branching =
        if tally.states == 0 { 0.0 } else { tally.branching_sum as f64 / tally.states as f64 };
    let total_moves: u64 = tally.minmax_moves.iter().sum();
    let usefulness: Vec<f64> = tally
        .minmax_moves
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
        b_m: (counts.white_wins as f64 - counts.black_wins as f64) / n,
        b_r: (counts.minmax_white_wins as f64 - counts.minmax_black_wins as f64) / n,
        s: (counts.minmax_white_wins + counts.minmax_black_wins) as f64 / n,
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
