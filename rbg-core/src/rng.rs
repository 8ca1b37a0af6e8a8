//! The playout generator: xoshiro256++ with its state in the open.
//!
//! [`PlayoutRng`] draws exactly the numbers of `rand_xoshiro::Xoshiro256PlusPlus` (seeding
//! included: `seed_from_u64` expands the seed with SplitMix64 as that crate does), so every
//! seeded run plays the games it played before this type existed. It exists for one reason:
//! its four state words can cross the C ABI. A playout run inside a compiled library loaded at
//! run time then draws from the caller's generator with no call back per number (a callback per
//! draw cost about 9% of a connect4 playout); the library takes the words, plays, and writes
//! them back.

use rand_core::{RngCore, SeedableRng};
use rand_xoshiro::SplitMix64;

/// xoshiro256++, the generator of playouts and agents (see the module documentation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayoutRng {
    s: [u64; 4],
}

impl PlayoutRng {
    /// The generator with this state. An all-zero state (which xoshiro never leaves) is
    /// replaced as `SeedableRng::from_seed` replaces an all-zero seed.
    pub fn from_state(s: [u64; 4]) -> Self {
        if s == [0; 4] {
            return Self::seed_from_u64(0);
        }
        PlayoutRng { s }
    }

    /// The state words, to hand to a library that plays with this generator.
    pub fn state(&self) -> [u64; 4] {
        self.s
    }
}

impl SeedableRng for PlayoutRng {
    type Seed = [u8; 32];

    fn from_seed(seed: [u8; 32]) -> Self {
        let mut s = [0u64; 4];
        for (word, bytes) in s.iter_mut().zip(seed.chunks_exact(8)) {
            *word = u64::from_le_bytes(bytes.try_into().expect("chunks of 8 bytes"));
        }
        Self::from_state(s)
    }

    fn seed_from_u64(seed: u64) -> Self {
        // As rand_xoshiro: the 32 seed bytes are the first four outputs of SplitMix64.
        let mut expand = SplitMix64::seed_from_u64(seed);
        let mut bytes = [0u8; 32];
        expand.fill_bytes(&mut bytes);
        Self::from_seed(bytes)
    }
}

impl RngCore for PlayoutRng {
    #[inline]
    fn next_u32(&mut self) -> u32 {
        (self.next_u64() >> 32) as u32
    }

    #[inline]
    fn next_u64(&mut self) -> u64 {
        let s = &mut self.s;
        let result = s[0].wrapping_add(s[3]).rotate_left(23).wrapping_add(s[0]);
        let t = s[1] << 17;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = s[3].rotate_left(45);
        result
    }

    fn fill_bytes(&mut self, dest: &mut [u8]) {
        for chunk in dest.chunks_mut(8) {
            let bytes = self.next_u64().to_le_bytes();
            chunk.copy_from_slice(&bytes[..chunk.len()]);
        }
    }

    fn try_fill_bytes(&mut self, dest: &mut [u8]) -> Result<(), rand_core::Error> {
        self.fill_bytes(dest);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use rand::Rng;
    use rand_xoshiro::Xoshiro256PlusPlus;

    use super::*;

    /// The published first outputs of xoshiro256++ from the state (1, 2, 3, 4), as the
    /// algorithm's reference implementation prints them.
    #[test]
    fn reference_outputs() {
        let mut rng = PlayoutRng::from_state([1, 2, 3, 4]);
        let expected = [41943041, 58720359, 3588806011781223, 3591011842654386, 9228616714210784205];
        for e in expected {
            assert_eq!(rng.next_u64(), e);
        }
    }

    /// Same numbers as rand_xoshiro's generator for the same seeds, through every way the
    /// drivers and agents draw (bounded draws use `next_u32`, floats `next_u64`).
    #[test]
    fn same_sequence_as_rand_xoshiro() {
        for seed in [0, 1, 7, 42, u64::MAX] {
            let mut ours = PlayoutRng::seed_from_u64(seed);
            let mut theirs = Xoshiro256PlusPlus::seed_from_u64(seed);
            for n in 1..500u32 {
                assert_eq!(ours.gen_range(0..n), theirs.gen_range(0..n), "seed {seed}");
                assert_eq!(ours.next_u64(), theirs.next_u64(), "seed {seed}");
                assert_eq!(ours.gen::<f64>().to_bits(), theirs.gen::<f64>().to_bits(), "seed {seed}");
            }
            // A generator rebuilt from the state words goes on with the same numbers.
            let mut copy = PlayoutRng::from_state(ours.state());
            assert_eq!(copy.next_u64(), theirs.next_u64());
        }
        let mut bytes = [0u8; 32];
        bytes[0] = 9;
        let mut ours = PlayoutRng::from_seed(bytes);
        let mut theirs = Xoshiro256PlusPlus::from_seed(bytes);
        assert_eq!(ours.next_u64(), theirs.next_u64());
        assert_eq!(PlayoutRng::from_seed([0; 32]), PlayoutRng::seed_from_u64(0));
    }
}
