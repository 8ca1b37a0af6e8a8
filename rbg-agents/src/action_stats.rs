//! Action statistics shared by the Monte Carlo agents: MAST and NST playout policies.
//!
//! An iteration records its *trail*: every move (or, for split-move MCTS, every action) made in
//! the tree and in the playout, in order, as (mover, hash). After the playout each trail entry
//! adds its mover's final reward to the statistics of its n-grams: the entry alone (MAST,
//! move-average sampling) and, with NST context `k`, the entry together with the 1..=k entries
//! before it (n-gram selection technique). A playout then scores each candidate by the mean of
//! the means of its n-grams seen so far (unseen everywhere: 0.5) and plays the best one (ties
//! at random), except with probability `epsilon`, when it plays a uniformly random one.
//!
//! The statistics live in one hashed table (collisions are rare and harmless: they only blur
//! the policy). `decay` multiplies every entry at the start of a search, so that what was
//! learned at earlier moves weighs less (1 keeps everything, 0 forgets it).
//!
//! The threads of a tree-parallel search read one table without a lock: each sum and count is
//! an atomic word read and written with relaxed ordering (plain loads and stores on x86-64),
//! so a reader may see a sum without its count, which only blurs the policy, like a collision.
//! Writers take the table's `writer` lock, once per batch, so no addition is lost. One thread
//! computes exactly what plain numbers would. Each thread keeps its iterations back
//! ([`DeferredUpdates`]) and adds [`DeferredUpdates::BATCH`] at a time: what
//! slows threads that share memory is a word written by one core and then read or written by
//! the other, which must move between their caches, and the entries of the moves played most
//! are read at every playout move. A read-write lock taken at every playout move wrote its
//! word at every move; without it, adding every iteration at once still moved the hot entries
//! at every iteration. Connect4's tree-parallel search on two cores, in iterations per second
//! against root parallelism (whose threads have tables of their own) in the same alternating
//! runs: with the lock 0.85, one iteration at a time 0.85 to 0.93, 64 at a time 0.89, 256 at a
//! time 0.92 to 0.95 (docs/results.md).

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::{Mutex, PoisonError};

use rand::Rng;
use rbg_core::{Player, PlayoutRng};

use crate::agent::splitmix;

/// One entry of a trail: the mover and the hash of the move or action.
pub(crate) type TrailEntry = (Player, u64);

/// Settings of the action statistics (see the module documentation).
#[derive(Copy, Clone, Debug, PartialEq)]
pub(crate) struct PolicySettings {
    pub epsilon: f64,
    /// Number of preceding trail entries an n-gram may span (0: MAST only).
    pub context: usize,
}

/// One slot of the table: a sum of rewards and a count, each an `f64` kept as its bits.
#[derive(Debug, Default)]
struct Slot {
    sum: AtomicU64,
    count: AtomicU64,
}

impl Slot {
    fn get(&self) -> (f64, f64) {
        (f64::from_bits(self.sum.load(Relaxed)), f64::from_bits(self.count.load(Relaxed)))
    }

    fn set(&self, (sum, count): (f64, f64)) {
        self.sum.store(sum.to_bits(), Relaxed);
        self.count.store(count.to_bits(), Relaxed);
    }
}

/// Hashed (sum of rewards, count) per n-gram of (mover, hashes).
#[derive(Debug)]
pub(crate) struct ActionStats {
    /// Empty until the first update after creation or a clear: an agent that is built and
    /// stopped at once (a cancelled analysis builds one per remaining game) then costs no more
    /// than one without statistics, and decay has nothing to sweep.
    table: Vec<Slot>,
    /// log2 of the table's entries once it is allocated; 0: the statistics are off.
    bits: u32,
    settings: PolicySettings,
    /// Held by a thread adding to statistics that other threads share: two threads adding to
    /// one entry at once would lose an addition.
    writer: Mutex<()>,
}

const TABLE_BITS: u32 = 16;
const NGRAM_TABLE_BITS: u32 = 18;

impl ActionStats {
    /// Empty statistics; no memory is taken until the first update, none at all when
    /// `enabled` is false.
    pub fn new(enabled: bool, settings: PolicySettings) -> Self {
        let bits = match (enabled, settings.context) {
            (false, _) => 0,
            (true, 0) => TABLE_BITS,
            (true, _) => NGRAM_TABLE_BITS,
        };
        ActionStats { table: Vec::new(), bits, settings, writer: Mutex::new(()) }
    }

    pub fn enabled(&self) -> bool {
        self.bits > 0
    }

    pub fn clear(&mut self) {
        self.table = Vec::new();
    }

    /// Multiplies every sum and count by `factor` (old statistics weigh less).
    pub fn decay(&mut self, factor: f64) {
        if factor != 1.0 {
            for slot in &self.table {
                let (sum, count) = slot.get();
                slot.set((sum * factor, count * factor));
            }
        }
    }

    /// Takes the table's memory now if the statistics are on, so that threads sharing them
    /// can add to them through a shared reference ([`Self::add`]).
    pub fn allocate(&mut self) {
        if self.enabled() && self.table.is_empty() {
            self.table = (0..1usize << self.bits).map(|_| Slot::default()).collect();
        }
    }

    /// The slot of the n-gram `context` followed by `(player, hash)`.
    fn slot(&self, player: Player, context: &[TrailEntry], hash: u64) -> usize {
        let mut h = splitmix(player as u64 ^ ((context.len() as u64) << 32));
        for &(p, x) in context {
            h = splitmix(h ^ x ^ p as u64);
        }
        h = splitmix(h ^ hash);
        (h as usize) & (self.table.len() - 1)
    }

    /// Adds each trail entry's mover's reward (`rewards[p - 1]`) to its n-grams.
    pub fn update(&mut self, trail: &[TrailEntry], rewards: &[f64]) {
        if !trail.is_empty() {
            self.allocate();
        }
        self.add(trail, rewards);
    }

    /// [`Self::update`] through a shared reference, for threads that share the statistics
    /// (they add under the `writer` lock, [`DeferredUpdates::flush`]): nothing is added before
    /// [`Self::allocate`].
    pub fn add(&self, trail: &[TrailEntry], rewards: &[f64]) {
        if self.table.is_empty() {
            return;
        }
        for (i, &(player, hash)) in trail.iter().enumerate() {
            let reward = rewards[player as usize - 1];
            for c in 0..=self.settings.context.min(i) {
                let slot = &self.table[self.slot(player, &trail[i - c..i], hash)];
                let (sum, count) = slot.get();
                slot.set((sum + reward, count + 1.0));
            }
        }
    }

    /// The statistics (sum, count) of `(player, hash)` after the last `context` entries of `trail`.
    pub fn entry(&self, trail: &[TrailEntry], context: usize, player: Player, hash: u64) -> (f64, f64) {
        if self.table.is_empty() {
            return (0.0, 0.0);
        }
        self.table[self.slot(player, &trail[trail.len() - context..], hash)].get()
    }

    /// The policy's score of playing `(player, hash)` after `trail`: the mean of the means of
    /// its n-grams seen so far, 0.5 if none was.
    pub fn score(&self, trail: &[TrailEntry], player: Player, hash: u64) -> f64 {
        let (mut total, mut seen) = (0.0, 0u32);
        for c in 0..=self.settings.context.min(trail.len()) {
            let (sum, count) = self.entry(trail, c, player, hash);
            if count > 0.0 {
                total += sum / count;
                seen += 1;
            }
        }
        if seen == 0 {
            0.5
        } else {
            total / seen as f64
        }
    }

    /// The index of the candidate to play among `hashes` (non-empty): with probability
    /// `epsilon` a uniformly random one, else the best scored (ties broken at random).
    pub fn pick(
        &self,
        rng: &mut PlayoutRng,
        trail: &[TrailEntry],
        player: Player,
        hashes: impl ExactSizeIterator<Item = u64>,
    ) -> usize {
        let n = hashes.len();
        if !self.enabled() || rng.gen_bool(self.settings.epsilon.clamp(0.0, 1.0)) {
            return rng.gen_range(0..n.max(1) as u32) as usize;
        }
        let (mut best, mut best_score, mut ties) = (0, f64::NEG_INFINITY, 0u32);
        for (i, hash) in hashes.enumerate() {
            let score = self.score(trail, player, hash);
            if score > best_score {
                (best, best_score, ties) = (i, score, 1);
            } else if score == best_score {
                ties += 1;
                if rng.gen_range(0..ties) == 0 {
                    best = i;
                }
            }
        }
        best
    }
}

/// The trails and rewards of a thread's iterations not yet added to statistics shared with
/// other threads (see the module documentation).
#[derive(Debug, Default)]
pub(crate) struct DeferredUpdates {
    entries: Vec<TrailEntry>,
    rewards: Vec<f64>,
    /// Per iteration: the end of its trail in `entries` and of its rewards in `rewards`.
    ends: Vec<(usize, usize)>,
}

impl DeferredUpdates {
    /// Iterations kept back before they are added.
    pub const BATCH: usize = 256;

    /// Keeps an iteration back; adds the kept ones to `stats` once there are [`Self::BATCH`].
    pub fn push(&mut self, stats: &ActionStats, trail: &[TrailEntry], rewards: &[f64]) {
        self.entries.extend_from_slice(trail);
        self.rewards.extend_from_slice(rewards);
        self.ends.push((self.entries.len(), self.rewards.len()));
        if self.ends.len() >= Self::BATCH {
            self.flush(stats);
        }
    }

    /// Adds every kept iteration to `stats`, in the order they were kept, holding its writer
    /// lock.
    pub fn flush(&mut self, stats: &ActionStats) {
        let _writing = stats.writer.lock().unwrap_or_else(PoisonError::into_inner);
        let (mut entry, mut reward) = (0, 0);
        for &(entries_end, rewards_end) in &self.ends {
            stats.add(&self.entries[entry..entries_end], &self.rewards[reward..rewards_end]);
            (entry, reward) = (entries_end, rewards_end);
        }
        self.entries.clear();
        self.rewards.clear();
        self.ends.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_core::SeedableRng;

    fn stats(context: usize) -> ActionStats {
        ActionStats::new(true, PolicySettings { epsilon: 0.0, context })
    }

    /// A toy iteration, worked out by hand: player 1 plays a, player 2 plays b, player 1 plays
    /// a again; player 1 scored 1, player 2 scored 0. MAST: a has sum 2 over 2, b 0 over 1.
    #[test]
    fn mast_adds_each_movers_reward_per_move() {
        let (a, b) = (11, 22);
        let mut s = stats(0);
        s.update(&[(1, a), (2, b), (1, a)], &[1.0, 0.0]);
        assert_eq!(s.entry(&[], 0, 1, a), (2.0, 2.0));
        assert_eq!(s.entry(&[], 0, 2, b), (0.0, 1.0));
        // Another player's statistics of the same move are apart.
        assert_eq!(s.entry(&[], 0, 2, a), (0.0, 0.0));
        // A second iteration, rewards swapped: a now 2 over 3, b 1 over 2.
        s.update(&[(1, a), (2, b)], &[0.0, 1.0]);
        assert_eq!(s.entry(&[], 0, 1, a), (2.0, 3.0));
        assert!((s.score(&[], 1, a) - 2.0 / 3.0).abs() < 1e-12);
        assert_eq!(s.score(&[], 2, b), 0.5);
        assert_eq!(s.score(&[], 1, 99), 0.5, "unseen moves score 0.5");
        s.decay(0.5);
        assert_eq!(s.entry(&[], 0, 1, a), (1.0, 1.5));
    }

    /// The table is taken at the first update and given back by a clear; decay and reads work
    /// before, between and after.
    #[test]
    fn the_table_is_taken_at_the_first_update_and_given_back_by_a_clear() {
        let mut s = stats(1);
        s.decay(0.2);
        s.clear();
        assert!(s.enabled() && s.table.is_empty() && s.entry(&[], 0, 1, 4) == (0.0, 0.0));
        assert_eq!(s.score(&[(2, 9)], 1, 4), 0.5);
        s.update(&[(1, 4)], &[1.0]);
        assert_eq!(s.table.len(), 1 << NGRAM_TABLE_BITS);
        s.decay(0.5);
        assert_eq!(s.entry(&[], 0, 1, 4), (0.5, 0.5));
        s.clear();
        assert!(s.table.is_empty() && s.entry(&[], 0, 1, 4) == (0.0, 0.0));
        assert!(!ActionStats::new(false, PolicySettings { epsilon: 0.1, context: 1 }).enabled());
        s.update(&[(1, 4)], &[0.0]);
        s.decay(0.5);
        assert_eq!(s.entry(&[], 0, 1, 4), (0.0, 0.5));
    }

    /// NST with one move of context: after (1,a),(2,b),(1,c) rewarded [0.25, 0.75], the bigram
    /// b→c of player 1 holds 0.25 over 1; c's score after b is the mean of its unigram (0.25)
    /// and its bigram (0.25); after another move only the unigram counts.
    #[test]
    fn nst_counts_ngrams_with_their_context() {
        let (a, b, c) = (1, 2, 3);
        let mut s = stats(1);
        let trail = [(1, a), (2, b), (1, c)];
        s.update(&trail, &[0.25, 0.75]);
        assert_eq!(s.entry(&trail[..2], 1, 1, c), (0.25, 1.0));
        assert_eq!(s.entry(&trail[..1], 1, 2, b), (0.75, 1.0));
        // Unigrams of the first entry only: no context before it.
        assert_eq!(s.entry(&[], 0, 1, a), (0.25, 1.0));
        s.update(&[(2, b), (1, c)], &[1.0, 0.0]);
        // Unigram c: (0.25 + 1) over 2; bigram b→c: the same two iterations.
        assert_eq!(s.entry(&[], 0, 1, c), (1.25, 2.0));
        assert_eq!(s.entry(&[(2, b)], 1, 1, c), (1.25, 2.0));
        // After a, c has no bigram: the score is its unigram mean.
        assert!((s.score(&[(2, a)], 1, c) - 0.625).abs() < 1e-12);
    }

    /// Iterations kept back are added only when a batch is full or at a flush, and then as
    /// the same updates made one by one would add them.
    #[test]
    fn deferred_updates_add_a_batch_at_a_time_as_single_updates_would() {
        let iterations: Vec<(Vec<TrailEntry>, [f64; 2])> = (0..DeferredUpdates::BATCH as u64 + 3)
            .map(|i| (vec![(1, i % 3), (2, 7), (1, i % 2)], [(i % 4) as f64 / 4.0, 0.5]))
            .collect();
        let mut one_by_one = stats(1);
        let mut shared = stats(1);
        shared.allocate();
        let mut deferred = DeferredUpdates::default();
        for (k, (trail, rewards)) in iterations.iter().enumerate() {
            one_by_one.update(trail, rewards);
            deferred.push(&shared, trail, rewards);
            let counted = shared.entry(&[], 0, 2, 7).1 as usize;
            let expected = if k + 1 < DeferredUpdates::BATCH { 0 } else { DeferredUpdates::BATCH };
            assert_eq!(counted, expected, "after {} iterations", k + 1);
        }
        deferred.flush(&shared);
        assert_eq!(shared.entry(&[], 0, 2, 7).1 as usize, iterations.len());
        for player in 1..=2 {
            for hash in 0..8 {
                for context in [&[][..], &[(1, 0)][..], &[(2, 7)][..]] {
                    let n = context.len();
                    assert_eq!(
                        shared.entry(context, n, player, hash),
                        one_by_one.entry(context, n, player, hash)
                    );
                }
            }
        }
    }

    #[test]
    fn the_greedy_pick_takes_the_best_and_epsilon_one_is_uniform() {
        let mut s = stats(0);
        s.update(&[(1, 5), (1, 6)], &[1.0]);
        s.update(&[(1, 7)], &[0.0]);
        let mut rng = PlayoutRng::seed_from_u64(3);
        // 7 scores 0, 8 unseen 0.5, 5 and 6 score 1: always one of 5 or 6, both seen.
        let mut picked = [0; 4];
        for _ in 0..200 {
            picked[s.pick(&mut rng, &[], 1, [7u64, 8, 5, 6].into_iter())] += 1;
        }
        assert_eq!((picked[0], picked[1]), (0, 0));
        assert!(picked[2] > 50 && picked[3] > 50, "{picked:?}");
        let uniform = ActionStats::new(true, PolicySettings { epsilon: 1.0, context: 0 });
        let mut counts = [0; 4];
        for _ in 0..400 {
            counts[uniform.pick(&mut rng, &[], 1, [7u64, 8, 5, 6].into_iter())] += 1;
        }
        assert!(counts.iter().all(|&c| c > 50), "{counts:?}");
    }
}
