//! Flat Monte Carlo: random playouts after each legal move, best mean reward for the mover.

use rand_core::SeedableRng;
use rbg_core::moves::DEFAULT_MAX_ACTIONS;
use rbg_core::perft::{DEFAULT_KEEPER_LIMIT, DEFAULT_MAX_STREAMED_MOVES};
use rbg_core::playout::{PlayoutBuffers, PlayoutLimits};
use rbg_core::{Game, MoveList, PlayoutRng, SearchError};

use crate::agent::{mover, rewards_into, sort_root, Agent, AgentError, Decision, RootMove, SearchStats};
use crate::budget::{Budget, Meter};

/// Settings of [`FlatMonteCarlo`].
#[derive(Clone, Debug, PartialEq)]
pub struct FlatMcConfig {
    /// Playouts per legal move when the budget sets no limit.
    pub playouts_per_move: u64,
    /// The budget used by [`play_game`](crate::play_game); without a time or iteration limit,
    /// `playouts_per_move` playouts after each legal move.
    pub budget: Budget,
    /// A playout longer than this many player moves is stopped and scored where it stands
    /// (scores are defined in every state), so that games without a reachable end still
    /// produce decisions.
    pub max_playout_plies: u64,
}

impl Default for FlatMcConfig {
    fn default() -> Self {
        FlatMcConfig { playouts_per_move: 100, budget: Budget::default(), max_playout_plies: 10_000 }
    }
}

/// Flat Monte Carlo: the playouts go round-robin over the legal moves (one after each move in
/// turn), so that any budget leaves the moves with equal counts (±1); the move with the best
/// mean reward for the mover wins, the first such move on ties.
pub struct FlatMonteCarlo<G: Game> {
    config: FlatMcConfig,
    scratch: G::Scratch,
    moves: MoveList,
    playout: PlayoutBuffers,
    rewards: Vec<f64>,
    rng: PlayoutRng,
}

impl<G: Game> FlatMonteCarlo<G> {
    pub fn new(game: &G, config: FlatMcConfig, seed: u64) -> Self {
        FlatMonteCarlo {
            config,
            scratch: game.new_scratch(),
            moves: MoveList::new(),
            playout: PlayoutBuffers::new(game, DEFAULT_MAX_ACTIONS),
            rewards: vec![0.0; game.info().num_players()],
            rng: PlayoutRng::seed_from_u64(seed),
        }
    }
}

/// Plays uniformly random moves from `s` (keeper completed) until the game ends or
/// `max_plies` player moves were made; returns the number of moves made. The playout is the
/// reasoner's own ([`Game::random_playout`]): its fast paths (cached move lists of monotonic
/// classes), and one call for the whole playout in a library loaded at run time. A playout
/// stopped at `max_plies` is scored where it stands.
pub(crate) fn random_playout<G: Game>(
    game: &G,
    s: &mut G::State,
    sc: &mut G::Scratch,
    buffers: &mut PlayoutBuffers,
    rng: &mut PlayoutRng,
    max_plies: u64,
) -> Result<u64, SearchError> {
    let limits = PlayoutLimits {
        max_plies,
        keeper_limit: DEFAULT_KEEPER_LIMIT,
        monotonic: true,
        max_streamed_moves: DEFAULT_MAX_STREAMED_MOVES,
        ..PlayoutLimits::default()
    };
    match game.random_playout(s, sc, buffers, rng, &limits) {
        Ok(outcome) => Ok(outcome.plies),
        Err(SearchError::PlayoutTooLong { limit }) => Ok(limit),
        Err(e) => Err(e),
    }
}

impl<G: Game> Agent<G> for FlatMonteCarlo<G> {
    fn name(&self) -> String {
        format!("flatmc:playouts={}", self.config.playouts_per_move)
    }

    fn reset(&mut self, seed: u64) {
        self.rng = PlayoutRng::seed_from_u64(seed);
    }

    fn budget(&self) -> Budget {
        self.config.budget
    }

    fn select_move(&mut self, game: &G, state: &G::State, budget: &Budget) -> Result<Decision, AgentError> {
        let player = mover(game, state)?;
        let mut root = state.clone();
        game.legal_moves(&mut root, &mut self.scratch, &mut self.moves)?;
        let n = self.moves.len();
        if n == 0 {
            return Err(AgentError::NoLegalMove);
        }
        let default_playouts = self.config.playouts_per_move.saturating_mul(n as u64);
        let meter = Meter::start(Budget { depth: None, ..budget.with_default_iterations(default_playouts) });
        let mut sums = vec![0.0f64; n];
        let mut counts = vec![0u64; n];
        let mut stats = SearchStats { depth: 1, ..SearchStats::default() };
        let mut s = root.clone();
        // A single legal move needs no search.
        while n > 1 && !meter.exhausted(stats.iterations) {
            let i = (stats.iterations % n as u64) as usize;
            s.clone_from(&root);
            game.apply_move(&mut s, self.moves.get(i));
            stats.nodes += 1;
            if game.complete_keeper(&mut s, &mut self.scratch, DEFAULT_KEEPER_LIMIT)? {
                stats.nodes += random_playout(
                    game,
                    &mut s,
                    &mut self.scratch,
                    &mut self.playout,
                    &mut self.rng,
                    self.config.max_playout_plies,
                )?;
            }
            rewards_into(game, &s, &mut self.rewards);
            sums[i] += self.rewards[player as usize - 1];
            counts[i] += 1;
            stats.iterations += 1;
        }
        let mean = |i: usize| if counts[i] == 0 { f64::NEG_INFINITY } else { sums[i] / counts[i] as f64 };
        let mut best = 0;
        for i in 1..n {
            if mean(i) > mean(best) {
                best = i;
            }
        }
        stats.value = (counts[best] > 0).then(|| mean(best));
        stats.elapsed = meter.elapsed();
        stats.root = (0..n)
            .map(|i| RootMove {
                mv: self.moves.get(i).to_vec(),
                visits: counts[i],
                value: (counts[i] > 0).then(|| mean(i)),
            })
            .collect();
        sort_root(&mut stats.root);
        Ok(Decision { mv: self.moves.get(best).to_vec(), stats })
    }
}
