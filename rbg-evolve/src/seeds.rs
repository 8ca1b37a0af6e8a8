//! Seeds of every random choice, derived from the run's seed and the place of the choice (the
//! generation, the individual, the purpose), never from thread timing: a run depends only on its
//! seed, whatever the number of threads and the order in which they finish.

use rand_core::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

/// The random generator used everywhere in the crate.
pub type Rng = Xoshiro256PlusPlus;

/// What a derived seed is for; distinct purposes give unrelated streams.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// The building blocks of piece movements (once per run).
    Blocks = 1,
    /// The initial population.
    Population = 2,
    /// Pairing, crossover and mutation of one generation.
    Operators = 3,
    /// The playouts of one individual's evaluation.
    Evaluation = 4,
}

/// The splitmix64 finaliser: spreads the bits of `x` over the whole word.
fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// The seed for `purpose` at (`generation`, `index`) of the run seeded `run_seed`.
pub fn derive_seed(run_seed: u64, purpose: Purpose, generation: u64, index: u64) -> u64 {
    let mut h = mix(run_seed);
    for part in [purpose as u64, generation, index] {
        h = mix(h ^ part);
    }
    h
}

/// A generator for `purpose` at (`generation`, `index`).
pub fn rng_for(run_seed: u64, purpose: Purpose, generation: u64, index: u64) -> Rng {
    Rng::seed_from_u64(derive_seed(run_seed, purpose, generation, index))
}
