//! The uniformly random agent.

use rand::Rng;
use rand_core::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use rbg_core::{Game, MoveList};

use crate::agent::{mover, Agent, AgentError, Decision, SearchStats};
use crate::budget::{Budget, Meter};

/// Plays a uniformly random legal move; ignores the budget.
pub struct RandomAgent<G: Game> {
    scratch: G::Scratch,
    moves: MoveList,
    rng: Xoshiro256PlusPlus,
}

impl<G: Game> RandomAgent<G> {
    pub fn new(game: &G, seed: u64) -> Self {
        RandomAgent {
            scratch: game.new_scratch(),
            moves: MoveList::new(),
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
        }
    }
}

impl<G: Game> Agent<G> for RandomAgent<G> {
    fn name(&self) -> String {
        "random".into()
    }

    fn reset(&mut self, seed: u64) {
        self.rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    }

    fn budget(&self) -> Budget {
        Budget::default()
    }

    fn select_move(&mut self, game: &G, state: &G::State, _budget: &Budget) -> Result<Decision, AgentError> {
        let meter = Meter::start(Budget::default());
        mover(game, state)?;
        let mut s = state.clone();
        game.legal_moves(&mut s, &mut self.scratch, &mut self.moves)?;
        if self.moves.is_empty() {
            return Err(AgentError::NoLegalMove);
        }
        let i = self.rng.gen_range(0..self.moves.len() as u32) as usize;
        let stats = SearchStats { elapsed: meter.elapsed(), ..SearchStats::default() };
        Ok(Decision { mv: self.moves.get(i).to_vec(), stats })
    }
}
