//! Choosing between listing moves and count and replay in flat Monte Carlo (see
//! [`crate::playout`]). Which is faster depends on the game: counting and replaying searches one
//! and a half times on average but stores no move, which pays where generation is cheap next to
//! storing and applying moves (breakthrough: 1.49x playouts per second) and costs where it is dear
//! (chess: 0.70x). Both play the same games, so a driver may time them on its first playouts and
//! keep the faster without changing any result.

use std::time::Duration;

use crate::playout::COUNT_REPLAY_MIN_MOVES;

/// When a flat Monte Carlo run counts and replays instead of listing moves.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum CountReplay {
    /// Time listing, counting from [`COUNT_REPLAY_MIN_MOVES`] moves and counting always on the
    /// first playouts, then keep the fastest.
    #[default]
    Auto,
    /// Count from this many moves in the previous state on (`u64::MAX`: always list).
    From(u64),
}

/// The thresholds timed by [`CountReplay::Auto`]: list always, count in states with many moves,
/// count always.
const CANDIDATES: [u64; 3] = [u64::MAX, COUNT_REPLAY_MIN_MOVES, 0];
/// Each candidate is timed this many times, in turn (interleaved, so a change of the machine's
/// load hits them alike), and keeps its best trial: the first trial also pays for the run's
/// warm-up (first touches of buffers and tables), and any trial may be slowed by another
/// process, but neither makes a candidate faster.
const ROUNDS: usize = 2;
/// A trial lasts at least this long, and at least one playout.
const TRIAL: Duration = Duration::from_millis(5);

/// Picks the threshold of each playout of one thread (see [`CountReplay`]).
#[derive(Clone, Debug)]
pub(crate) struct Tuner {
    chosen: Option<u64>,
    /// Trials finished so far; the current one times `CANDIDATES[trial % CANDIDATES.len()]`.
    trial: usize,
    trial_start: Duration,
    /// Plies played in the current trial.
    trial_plies: u64,
    /// Each candidate's best trial, in plies per second.
    best: [f64; CANDIDATES.len()],
}

impl Tuner {
    /// A tuner for a run set to `setting` whose first playout starts at `now` (time since the run
    /// began).
    pub(crate) fn new(setting: CountReplay, now: Duration) -> Self {
        let chosen = match setting {
            CountReplay::Auto => None,
            CountReplay::From(n) => Some(n),
        };
        Tuner { chosen, trial: 0, trial_start: now, trial_plies: 0, best: [0.0; CANDIDATES.len()] }
    }

    /// The threshold for the next playout.
    pub(crate) fn threshold(&self) -> u64 {
        self.chosen.unwrap_or(CANDIDATES[self.trial % CANDIDATES.len()])
    }

    /// Records a playout of `plies` player moves that ended at `now()`. The clock is read only
    /// while the ways are being timed (it shows in the profile of short playouts).
    pub(crate) fn played(&mut self, plies: u64, now: impl FnOnce() -> Duration) {
        if self.chosen.is_some() {
            return;
        }
        let now = now();
        let k = self.trial % CANDIDATES.len();
        self.trial_plies += plies;
        let took = now.saturating_sub(self.trial_start);
        if took < TRIAL {
            return;
        }
        let rate = self.trial_plies as f64 / took.as_secs_f64();
        self.best[k] = self.best[k].max(rate);
        self.trial_plies = 0;
        self.trial += 1;
        self.trial_start = now;
        if self.trial == ROUNDS * CANDIDATES.len() {
            self.chosen = Some(self.fastest());
        }
    }

    /// The candidate with the most plies per second in its best trial (the middle one if
    /// nothing was played).
    fn fastest(&self) -> u64 {
        if self.best.iter().all(|&rate| rate == 0.0) {
            return COUNT_REPLAY_MIN_MOVES;
        }
        let best = (0..CANDIDATES.len()).max_by(|&a, &b| self.best[a].total_cmp(&self.best[b])).unwrap_or(1);
        CANDIDATES[best]
    }

    /// The threshold chosen, once timing is over.
    pub(crate) fn chosen(&self) -> Option<u64> {
        self.chosen
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn a_fixed_setting_is_kept() {
        let mut t = Tuner::new(CountReplay::From(7), ms(0));
        t.played(10, || panic!("the clock is not read"));
        assert_eq!(t.threshold(), 7);
    }

    #[test]
    fn the_candidate_with_the_most_plies_per_second_is_kept() {
        let mut t = Tuner::new(CountReplay::Auto, ms(0));
        // Each trial lasts 10 ms; the candidate "count always" (third) plays 3x the plies.
        let mut now = 0;
        for trial in 0..ROUNDS * CANDIDATES.len() {
            assert_eq!(t.chosen(), None);
            assert_eq!(t.threshold(), CANDIDATES[trial % 3]);
            now += 10;
            t.played(if trial % 3 == 2 { 300 } else { 100 }, || ms(now));
        }
        assert_eq!(t.chosen(), Some(0));
        assert_eq!(t.threshold(), 0);
        // Later playouts change nothing.
        t.played(1_000_000, || ms(now + 1000));
        assert_eq!(t.threshold(), 0);
    }

    #[test]
    fn a_slow_first_trial_does_not_lose_its_candidate_the_choice() {
        let mut t = Tuner::new(CountReplay::Auto, ms(0));
        // 10 ms trials. Listing (first) plays 30 plies in its first trial (the warm-up) and 400
        // in its second; counting always plays 300 in each: 40 against 30 plies per ms at best,
        // although listing's total (430 against 600) is the smaller.
        let plies = [[30, 100, 300], [400, 100, 300]];
        let mut now = 0;
        for trial in 0..ROUNDS * CANDIDATES.len() {
            now += 10;
            t.played(plies[trial / 3][trial % 3], || ms(now));
        }
        assert_eq!(t.chosen(), Some(u64::MAX));
    }

    #[test]
    fn short_playouts_add_up_to_a_trial() {
        let mut t = Tuner::new(CountReplay::Auto, ms(0));
        for i in 1..5 {
            t.played(10, || ms(i));
            assert_eq!(t.threshold(), u64::MAX, "still the first trial after {i} ms");
        }
        t.played(10, || ms(5));
        assert_eq!(t.threshold(), COUNT_REPLAY_MIN_MOVES);
    }

    #[test]
    fn playouts_without_plies_choose_the_middle() {
        let mut t = Tuner::new(CountReplay::Auto, ms(0));
        for i in 1..=6 {
            t.played(0, || ms(10 * i));
        }
        assert_eq!(t.chosen(), Some(COUNT_REPLAY_MIN_MOVES));
    }
}
