//! Flat Monte Carlo on several threads: [`flat_monte_carlo`](crate::playout::flat_monte_carlo)
//! with [`McOptions::threads`] above 1.
//!
//! Every thread plays until the limit on its own: under a time limit each one starts playouts
//! until the deadline; under a playout count each one claims the next playout from a shared
//! counter before starting it, so no thread stops early because its share was smaller than its
//! speed (a count split in advance leaves one thread idle while the other finishes its share).
//! The threads report their statistics to the calling thread, which calls `progress`.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use rand_core::SeedableRng;

use crate::count_replay::Tuner;
use crate::game::Game;
use crate::perft::{root_state, DriverError, MAX_THREADS};
use crate::playout::{McLimit, McOptions, McStats, PlayoutBuffers};
use crate::rng::PlayoutRng;

/// How often a thread reports its statistics, and the calling thread calls `progress`.
const REPORT_EVERY: Duration = Duration::from_millis(20);

/// The seed of thread `i`'s generator: thread 0 has the run's seed, so the other threads' are
/// spread over the seed space by a multiplication with an odd constant (the golden ratio's,
/// as splitmix64 uses), which gives every thread a different one.
fn thread_seed(seed: u64, i: usize) -> u64 {
    seed.wrapping_add((i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15))
}

/// Adds the statistics of `b` (playouts played elsewhere) to `a`.
fn merge(a: &mut McStats, b: &McStats) {
    if b.playouts == 0 {
        return;
    }
    let first = a.playouts == 0;
    a.min_plies = if first { b.min_plies } else { a.min_plies.min(b.min_plies) };
    a.max_plies = if first { b.max_plies } else { a.max_plies.max(b.max_plies) };
    for i in 0..a.score_sum.len().min(b.score_sum.len()) {
        a.score_sum[i] += b.score_sum[i];
        a.score_min[i] = if first { b.score_min[i] } else { a.score_min[i].min(b.score_min[i]) };
        a.score_max[i] = if first { b.score_max[i] } else { a.score_max[i].max(b.score_max[i]) };
    }
    a.moves_exact &= b.moves_exact;
    a.count_replay_from = a.count_replay_from.or(b.count_replay_from);
    a.playouts += b.playouts;
    a.plies += b.plies;
    a.moves += b.moves;
}

/// The stack of a playing thread: the default plus room for the states it keeps in its frames
/// (a compiled state holds every cell inline, as in perft's workers).
fn stack_bytes<G: Game>() -> usize {
    const DEFAULT_STACK: usize = 2 << 20;
    const STATE_COPIES: usize = 4;
    DEFAULT_STACK.saturating_add(STATE_COPIES.saturating_mul(core::mem::size_of::<G::State>()))
}

/// Counts a playing thread as finished and wakes the calling thread, which waits for all of
/// them, when the thread's work ends, by a return or a panic (so the caller never waits for a
/// thread that is gone).
struct Finished<'a> {
    count: &'a AtomicUsize,
    caller: &'a std::thread::Thread,
}

impl Drop for Finished<'_> {
    fn drop(&mut self) {
        self.count.fetch_add(1, Ordering::Release);
        self.caller.unpark();
    }
}

/// See the module documentation. `opts.threads` is above 1.
pub(crate) fn flat_monte_carlo_threads<G: Game>(
    game: &G,
    opts: &McOptions,
    mut progress: impl FnMut(&McStats),
) -> Result<McStats, DriverError> {
    let start = Instant::now();
    let mut sc = game.new_scratch();
    let root = root_state(game, &mut sc, opts.keeper_limit)?;
    let players = game.info().num_players();
    let empty = McStats {
        score_sum: vec![0; players],
        score_min: vec![0; players],
        score_max: vec![0; players],
        moves_exact: true,
        ..Default::default()
    };
    let limits = opts.playout_limits();
    let threads = opts.threads.min(MAX_THREADS);
    // Playouts started so far, under a playout count.
    let claimed = AtomicU64::new(0);
    // Set when a thread fails, so the others stop too.
    let failed = AtomicBool::new(false);
    let reports: Vec<Mutex<McStats>> = (0..threads).map(|_| Mutex::new(empty.clone())).collect();
    let finished = AtomicUsize::new(0);
    let caller = std::thread::current();

    let play = |i: usize| -> Result<McStats, DriverError> {
        let _done = Finished { count: &finished, caller: &caller };
        let mut sc = game.new_scratch();
        let mut rng = PlayoutRng::seed_from_u64(thread_seed(opts.seed, i));
        let mut buffers = PlayoutBuffers::new(game, opts.max_move_actions);
        let mut limits = limits;
        let mut tuner = Tuner::new(opts.count_replay, start.elapsed());
        let mut state = root.clone();
        let mut stats = empty.clone();
        let mut reported = Duration::ZERO;
        let mut clock = crate::playout::SparseClock::new(start);
        let result = loop {
            let elapsed = clock.elapsed();
            let done = failed.load(Ordering::Relaxed)
                || match opts.limit {
                    McLimit::Playouts(n) => claimed.fetch_add(1, Ordering::Relaxed) >= n,
                    McLimit::Time(d) => elapsed >= d,
                };
            if done {
                break Ok(());
            }
            if elapsed.saturating_sub(reported) >= REPORT_EVERY {
                if let Ok(mut r) = reports[i].lock() {
                    r.clone_from(&stats);
                }
                reported = elapsed;
            }
            state.clone_from(&root);
            limits.count_replay_min_moves = tuner.threshold();
            match game.random_playout(&mut state, &mut sc, &mut buffers, &mut rng, &limits) {
                Ok(outcome) => {
                    tuner.played(outcome.plies, || start.elapsed());
                    stats.moves += outcome.moves_seen;
                    stats.moves_exact &= outcome.moves_exact;
                    stats.record(outcome.plies, (1..=players as u32).map(|p| game.score(&state, p)));
                }
                Err(e) => break Err(e),
            }
        };
        if result.is_err() {
            failed.store(true, Ordering::Relaxed);
        }
        stats.count_replay_from = tuner.chosen();
        result.map(|()| stats).map_err(DriverError::from)
    };

    std::thread::scope(|scope| {
        let mut handles = Vec::with_capacity(threads);
        for i in 0..threads {
            let spawned = std::thread::Builder::new()
                .name(format!("rbg-mc-{i}"))
                .stack_size(stack_bytes::<G>())
                .spawn_scoped(scope, move || play(i));
            match spawned {
                Ok(h) => handles.push(h),
                Err(e) => {
                    // The threads already started stop at their next playout and are joined
                    // when the scope ends.
                    failed.store(true, Ordering::Relaxed);
                    return Err(DriverError::Threads(e.to_string()));
                }
            }
        }
        while finished.load(Ordering::Acquire) < handles.len() {
            std::thread::park_timeout(REPORT_EVERY);
            let mut sum = empty.clone();
            for r in &reports {
                if let Ok(r) = r.lock() {
                    merge(&mut sum, &r);
                }
            }
            sum.elapsed = start.elapsed();
            progress(&sum);
        }
        let mut total = empty.clone();
        let mut first_error = None;
        for h in handles {
            match h.join() {
                Ok(Ok(stats)) => merge(&mut total, &stats),
                Ok(Err(e)) => {
                    first_error.get_or_insert(e);
                }
                // A panic in a reasoner is the reasoner's bug; it is passed on as it is.
                Err(panic) => std::panic::resume_unwind(panic),
            }
        }
        if let Some(e) = first_error {
            return Err(e);
        }
        total.elapsed = start.elapsed();
        Ok(total)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::playout::flat_monte_carlo;
    use crate::toy::Nim;

    #[test]
    fn a_playout_count_is_played_exactly_on_any_number_of_threads() {
        let game = Nim::new(9);
        for threads in [2, 3, 8] {
            for n in [0, 1, 2, 5, 1000] {
                let opts = McOptions { limit: McLimit::Playouts(n), threads, ..Default::default() };
                let stats = flat_monte_carlo(&game, &opts, |_| {}).unwrap();
                assert_eq!(stats.playouts, n, "threads {threads}");
                // Whoever takes the last stone scores 1: one point per playout.
                assert_eq!(stats.score_sum.iter().sum::<i64>(), n as i64);
                if n > 0 {
                    // From 9 stones: at least 5 moves (taking 2, 2, 2, 2, 1), at most 9.
                    assert!(5 <= stats.min_plies && stats.max_plies <= 9, "{stats:?}");
                    assert!(stats.plies >= 5 * n && stats.plies <= 9 * n);
                    assert!(stats.moves_exact);
                }
            }
        }
    }

    #[test]
    fn a_time_limit_is_played_to_the_end() {
        let game = Nim::new(9);
        let limit = Duration::from_millis(60);
        let opts = McOptions { limit: McLimit::Time(limit), threads: 2, ..Default::default() };
        let mut reports = 0;
        let stats = flat_monte_carlo(&game, &opts, |_| reports += 1).unwrap();
        assert!(stats.elapsed >= limit && stats.playouts > 0, "{stats:?}");
        assert!(reports >= 1, "progress is reported while the threads play");
    }

    #[test]
    fn a_failure_on_one_thread_stops_the_run() {
        // One ply allowed: every Nim(9) playout is too long.
        let game = Nim::new(9);
        let opts = McOptions {
            limit: McLimit::Time(Duration::from_secs(3600)),
            max_plies: 1,
            threads: 2,
            ..Default::default()
        };
        let serial = flat_monte_carlo(&game, &McOptions { threads: 1, ..opts.clone() }, |_| {}).unwrap_err();
        assert_eq!(flat_monte_carlo(&game, &opts, |_| {}).unwrap_err(), serial);
    }

    #[test]
    fn thread_seeds_differ() {
        let seeds: std::collections::HashSet<u64> = (0..256).map(|i| thread_seed(1, i)).collect();
        assert_eq!(seeds.len(), 256);
        assert_eq!(thread_seed(7, 0), 7);
    }
}
