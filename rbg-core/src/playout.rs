//! Flat Monte Carlo: uniformly random playouts from the initial state.
//!
//! The loop is the reference simulation driver's (rbg2cpp `test/simulation.cpp`, language
//! reference section 11.3): at each player state all legal moves are generated (or, in a
//! monotonic class, a move is drawn from the class's cached list by rejection), one is chosen
//! uniformly and applied, and the keeper is completed. Keeper states are never counted.
//!
//! The random generator is xoshiro256++ ([`PlayoutRng`]) seeded with [`McOptions::seed`]; moves are drawn with
//! `rand`'s unbiased bounded sampling of `u32`, so a seed gives the same playouts on every
//! platform for a given reasoner and move order.
//!
//! **Count and replay.** In a state with many moves, listing them is much of a playout's work
//! (breakthru: about 13,000 moves of four actions in an average state). Where the reasoner can
//! count its moves by a search that records none ([`Game::count_moves`], compiled engines), a
//! playout in a state following one with at least [`PlayoutLimits::count_replay_min_moves`]
//! moves counts them, draws a number, and replays the search up to that move
//! ([`Game::apply_nth_move`]). The number drawn is the one the list would have given, and the
//! move the same, so a seed plays the same games either way.
//!
//! Move lists are bounded ([`McOptions::max_move_actions`]). In a state whose moves do not fit,
//! the move is drawn by reservoir sampling over the streamed moves instead (uniform too, but
//! another random sequence); states within the bound (every corpus game's) keep the reference
//! sequence.

use core::ops::ControlFlow;
use std::time::{Duration, Instant};

use rand::Rng;
use rand_core::SeedableRng;
pub use rand_core::{Error as RandError, RngCore};

use crate::count_replay::{CountReplay, Tuner};
use crate::game::{Game, SearchError};
use crate::moves::{Action, MoveList, DEFAULT_MAX_ACTIONS};
use crate::perft::{root_state, DriverError, DEFAULT_KEEPER_LIMIT, DEFAULT_MAX_STREAMED_MOVES};
use crate::rng::PlayoutRng;

/// When to stop playing.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum McLimit {
    /// After this many playouts.
    Playouts(u64),
    /// When a playout ends after this much time.
    Time(Duration),
}

/// How the Monte Carlo driver runs.
#[derive(Clone, Debug)]
pub struct McOptions {
    /// Seed of the random generator.
    pub seed: u64,
    /// When to stop.
    pub limit: McLimit,
    /// Bound on the number of player moves in one playout.
    pub max_plies: u64,
    /// Bound on consecutive keeper moves.
    pub keeper_limit: u64,
    /// Use the reasoner's monotonic classes (cached move lists) when it has them.
    pub monotonic: bool,
    /// Most actions one stored move list holds ([`MoveList::with_limit`]); past it a move is
    /// drawn from the streamed moves (see the module documentation).
    pub max_move_actions: usize,
    /// Most moves one state's streamed sampling may meet ([`PlayoutLimits::max_streamed_moves`]).
    pub max_streamed_moves: u64,
    /// Threads playing at once (see [`flat_monte_carlo`]); 1 plays on the calling thread.
    pub threads: usize,
    /// When playouts count and replay instead of listing moves
    /// ([`PlayoutLimits::count_replay_min_moves`]); by default each thread times the ways on its
    /// first playouts and keeps the fastest. The games played are the same whatever is chosen.
    pub count_replay: CountReplay,
}

impl Default for McOptions {
    fn default() -> Self {
        McOptions {
            seed: 1,
            limit: McLimit::Playouts(1000),
            max_plies: 1_000_000,
            keeper_limit: DEFAULT_KEEPER_LIMIT,
            monotonic: true,
            max_move_actions: DEFAULT_MAX_ACTIONS,
            max_streamed_moves: DEFAULT_MAX_STREAMED_MOVES,
            threads: 1,
            count_replay: CountReplay::Auto,
        }
    }
}

/// Statistics of a Monte Carlo run.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct McStats {
    /// Playouts finished.
    pub playouts: u64,
    /// Player moves applied, summed over playouts (the reference's "states").
    pub plies: u64,
    /// Legal moves counted at every visited player state (the reference's "moves"). Only exact
    /// when `moves_exact`: plies played from a monotonic class's cached list are not counted.
    pub moves: u64,
    /// Whether `moves` counts every ply (no ply was played from a monotonic cache).
    pub moves_exact: bool,
    /// Fewest player moves in one playout.
    pub min_plies: u64,
    /// Most player moves in one playout.
    pub max_plies: u64,
    /// Per real player (index 0 = player 1): sum, minimum and maximum of the final score.
    pub score_sum: Vec<i64>,
    /// Per real player: the lowest final score.
    pub score_min: Vec<i64>,
    /// Per real player: the highest final score.
    pub score_max: Vec<i64>,
    /// Time spent so far.
    pub elapsed: Duration,
    /// The count-and-replay threshold the (first) thread chose or was given, once chosen
    /// ([`McOptions::count_replay`]); `u64::MAX` lists always.
    pub count_replay_from: Option<u64>,
}

impl McStats {
    /// Mean number of player moves per playout.
    pub fn mean_plies(&self) -> f64 {
        self.plies as f64 / self.playouts.max(1) as f64
    }

    /// Mean final score of a player (index 0 = player 1).
    pub fn mean_score(&self, player_index: usize) -> f64 {
        self.score_sum[player_index] as f64 / self.playouts.max(1) as f64
    }

    /// Playouts per second of elapsed time.
    pub fn playouts_per_second(&self) -> f64 {
        self.playouts as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }

    pub(crate) fn record(&mut self, plies: u64, scores: impl Iterator<Item = i64>) {
        if self.playouts == 0 {
            self.min_plies = plies;
            self.max_plies = plies;
        }
        self.min_plies = self.min_plies.min(plies);
        self.max_plies = self.max_plies.max(plies);
        let first = self.playouts == 0;
        for (i, v) in scores.enumerate() {
            self.score_sum[i] += v;
            self.score_min[i] = if first { v } else { self.score_min[i].min(v) };
            self.score_max[i] = if first { v } else { self.score_max[i].max(v) };
        }
        self.playouts += 1;
        self.plies += plies;
    }
}

/// Runs random playouts until the limit; `progress` is called after every playout.
///
/// With [`McOptions::threads`] above 1 the playouts are played on that many threads, each
/// until the time is up or no playout is left to start: each has its own generator, so the playouts differ from a
/// single-threaded run's and, as the threads share them out as they go, from one run to the
/// next; `progress` is then called on the calling thread about every 20 ms with the statistics
/// the threads have reported so far.
pub fn flat_monte_carlo<G: Game>(
    game: &G,
    opts: &McOptions,
    mut progress: impl FnMut(&McStats),
) -> Result<McStats, DriverError> {
    if opts.threads > 1 {
        return crate::mc_threads::flat_monte_carlo_threads(game, opts, progress);
    }
    let start = Instant::now();
    let mut sc = game.new_scratch();
    let root = root_state(game, &mut sc, opts.keeper_limit)?;
    let players = game.info().num_players();
    let mut stats = McStats {
        score_sum: vec![0; players],
        score_min: vec![0; players],
        score_max: vec![0; players],
        ..Default::default()
    };
    let mut rng = PlayoutRng::seed_from_u64(opts.seed);
    let mut buffers = PlayoutBuffers::new(game, opts.max_move_actions);
    let mut limits = opts.playout_limits();
    let mut tuner = Tuner::new(opts.count_replay, start.elapsed());
    let mut state = root.clone();
    let mut exact = true;
    let mut clock = SparseClock::new(start);
    loop {
        // `progress` sees the time of the last clock read, at most about
        // `SparseClock::GAP` old.
        stats.elapsed = clock.elapsed();
        let done = match opts.limit {
            McLimit::Playouts(n) => stats.playouts >= n,
            McLimit::Time(d) => stats.elapsed >= d,
        };
        if done {
            break;
        }
        state.clone_from(&root);
        limits.count_replay_min_moves = tuner.threshold();
        let outcome = game.random_playout(&mut state, &mut sc, &mut buffers, &mut rng, &limits)?;
        tuner.played(outcome.plies, || start.elapsed());
        stats.moves += outcome.moves_seen;
        exact &= outcome.moves_exact;
        stats.record(outcome.plies, (1..=players as u32).map(|p| game.score(&state, p)));
        progress(&stats);
    }
    stats.elapsed = start.elapsed();
    stats.moves_exact = exact;
    stats.count_replay_from = tuner.chosen();
    Ok(stats)
}

/// A clock read about every [`SparseClock::GAP`] of play instead of at every playout: a read
/// (`clock_gettime`) costs as much as a tenth of a short playout (connect4's, about 0.4 µs,
/// spent 5% of a run reading the clock). The reads come every `stride` calls, the stride
/// doubling while reads come sooner than the gap and halving when they come later. A deadline is
/// therefore seen about one gap late, and at most [`SparseClock::MAX_STRIDE`] calls late.
pub(crate) struct SparseClock {
    start: Instant,
    last: Duration,
    stride: u32,
    left: u32,
}

impl SparseClock {
    /// The time between reads the stride aims at.
    pub(crate) const GAP: Duration = Duration::from_micros(50);
    /// Most calls between reads: a deadline is seen at most this many playouts late, even when
    /// a long playout follows many short ones.
    pub(crate) const MAX_STRIDE: u32 = 16;

    pub(crate) fn new(start: Instant) -> Self {
        SparseClock { start, last: start.elapsed(), stride: 1, left: 0 }
    }

    /// The time since the start, as of the last read.
    pub(crate) fn elapsed(&mut self) -> Duration {
        if self.left > 0 {
            self.left -= 1;
            return self.last;
        }
        let now = self.start.elapsed();
        let gap = now.saturating_sub(self.last);
        if gap < Self::GAP && self.stride < Self::MAX_STRIDE {
            self.stride *= 2;
        } else if gap > 4 * Self::GAP && self.stride > 1 {
            self.stride /= 2;
        }
        self.left = self.stride - 1;
        self.last = now;
        now
    }
}

/// Bounds of one playout.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PlayoutLimits {
    /// Most player moves; one more is [`SearchError::PlayoutTooLong`].
    pub max_plies: u64,
    /// Bound on consecutive keeper moves.
    pub keeper_limit: u64,
    /// Use the reasoner's monotonic classes (cached move lists) when it has them.
    pub monotonic: bool,
    /// Most moves the sampling of one state whose moves do not fit in a list may meet; one more
    /// is [`SearchError::TooManyStreamedMoves`].
    pub max_streamed_moves: u64,
    /// From how many moves in the previous listed state on a playout counts the moves and
    /// replays the search to the drawn one instead of listing them, where the reasoner can
    /// ([`Game::count_moves`]); `u64::MAX` always lists. Either way the same move is drawn.
    pub count_replay_min_moves: u64,
}

impl Default for PlayoutLimits {
    fn default() -> Self {
        McOptions::default().playout_limits()
    }
}

impl McOptions {
    /// The bounds of each playout (with the default count-and-replay threshold; the drivers
    /// set each playout's from [`McOptions::count_replay`]).
    pub fn playout_limits(&self) -> PlayoutLimits {
        PlayoutLimits {
            max_plies: self.max_plies,
            keeper_limit: self.keeper_limit,
            monotonic: self.monotonic,
            max_streamed_moves: self.max_streamed_moves,
            count_replay_min_moves: COUNT_REPLAY_MIN_MOVES,
        }
    }
}

/// What one playout did.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct PlayoutOutcome {
    /// Player moves applied.
    pub plies: u64,
    /// Legal moves counted at the player states visited (see [`McStats::moves`]).
    pub moves_seen: u64,
    /// Whether `moves_seen` counts every ply (no ply was played from a monotonic cache).
    pub moves_exact: bool,
}

/// Buffers a playout reuses: the move list, the move drawn by streaming, the monotonic caches.
/// Make one per thread and pass it to every playout.
pub struct PlayoutBuffers {
    moves: MoveList,
    /// The move drawn by reservoir sampling when `moves` overflowed.
    streamed: Vec<Action>,
    /// Cached moves per monotonic class, valid for the current playout when `fresh[c]`. A class's
    /// moves are single actions (a switch), so one action per move: a draw reads one entry, with
    /// none of a [`MoveList`]'s span indirection.
    class_moves: Vec<Vec<Action>>,
    fresh: Vec<bool>,
    /// The number of moves of the last state whose moves were listed or counted (it decides
    /// between listing and counting, see [`PlayoutLimits::count_replay_min_moves`]).
    last_moves: u64,
}

/// Where [`PlayoutBuffers::pick_monotonic`] drew its move from.
enum ClassPick {
    /// The move drawn from the class's cache (`None`: no legal move).
    Cached(Option<Action>),
    /// Index into `moves`: the class's moves were not all single actions (a reasoner breaking
    /// the class contract), so this state was played without the cache.
    Listed(Option<usize>),
}

impl PlayoutBuffers {
    /// Buffers for playouts of `game` whose stored move lists hold at most `max_actions`
    /// actions ([`MoveList::with_limit`]; past it a move is drawn from the streamed moves).
    pub fn new<G: Game>(game: &G, max_actions: usize) -> Self {
        let classes = game.monotonic_classes() as usize;
        PlayoutBuffers {
            moves: MoveList::with_limit(max_actions),
            streamed: Vec::new(),
            class_moves: vec![Vec::new(); classes],
            fresh: vec![false; classes],
            last_moves: 0,
        }
    }

    /// The bound on stored move lists these buffers were made with.
    pub fn max_actions(&self) -> usize {
        self.moves.limit()
    }
}

/// The rest of [`Game::complete_keeper`] after `made` keeper steps (counted against `limit`),
/// by [`Game::keeper_step`]: a reasoner that made the first step its own way
/// ([`Game::play_class_move`]) completes the others, and fails at the same step, with the same
/// error.
pub fn complete_keeper_after<G: Game + ?Sized>(
    game: &G,
    s: &mut G::State,
    sc: &mut G::Scratch,
    made: u64,
    limit: u64,
) -> Result<bool, SearchError> {
    let mut steps = made;
    while game.current_player(s) == crate::KEEPER {
        if steps >= limit {
            return Err(SearchError::KeeperLoop { limit });
        }
        if !game.keeper_step(s, sc)? {
            return Ok(false);
        }
        steps += 1;
    }
    Ok(true)
}

/// Plays one uniformly random game from `s` (keeper-completed) to its end, drawing from `rng`:
/// the body of [`Game::random_playout`]'s default. `s` ends in the final state.
pub fn random_playout<G: Game + ?Sized, R: RngCore + ?Sized>(
    game: &G,
    s: &mut G::State,
    sc: &mut G::Scratch,
    buffers: &mut PlayoutBuffers,
    rng: &mut R,
    limits: &PlayoutLimits,
) -> Result<PlayoutOutcome, SearchError> {
    buffers.fresh.iter_mut().for_each(|f| *f = false);
    let mut out = PlayoutOutcome { moves_exact: true, ..Default::default() };
    while random_ply(game, s, sc, buffers, rng, limits, &mut out)? {}
    Ok(out)
}

/// One ply of [`random_playout`] in `s`: draws a move (from a monotonic class's cache where the
/// state has a class and `limits` allow it, else as [`PlayoutBuffers`] draws from the listed,
/// counted or streamed moves), plays it and completes the keeper, counting into `out`. `false`
/// when the game is over (no legal move, or the keeper stuck). A reasoner's own playout loop
/// ([`Game::random_playout`]) calls it for the states it does not handle itself.
pub fn random_ply<G: Game + ?Sized, R: RngCore + ?Sized>(
    game: &G,
    s: &mut G::State,
    sc: &mut G::Scratch,
    buffers: &mut PlayoutBuffers,
    rng: &mut R,
    limits: &PlayoutLimits,
    out: &mut PlayoutOutcome,
) -> Result<bool, SearchError> {
    let b = buffers;
    let class = if limits.monotonic { game.monotonic_class(s) } else { None };
    let picked = match class {
        Some(c) => match b.pick_monotonic(game, s, sc, rng, c as usize, out)? {
            ClassPick::Cached(picked) => picked.map(|a| Chosen::Cached(c, a)),
            ClassPick::Listed(picked) => picked.map(Chosen::Listed),
        },
        None => b.pick(game, s, sc, rng, limits, out)?,
    };
    let Some(chosen) = picked else { return Ok(false) };
    count_ply(out, limits)?;
    let keeper_limit = limits.keeper_limit;
    match chosen {
        Chosen::Cached(c, a) => game.play_class_move(s, sc, c, a, keeper_limit),
        chosen => {
            b.apply(game, s, sc, chosen)?;
            game.complete_keeper(s, sc, keeper_limit)
        }
    }
}

/// Counts a ply about to be played, failing with [`SearchError::PlayoutTooLong`] when the
/// playout already has [`PlayoutLimits::max_plies`].
#[inline(always)]
pub fn count_ply(out: &mut PlayoutOutcome, limits: &PlayoutLimits) -> Result<(), SearchError> {
    if out.plies == limits.max_plies {
        return Err(SearchError::PlayoutTooLong { limit: limits.max_plies });
    }
    out.plies += 1;
    Ok(())
}

/// Draws uniformly among the first `len` entries of a monotonic class's cache those that are
/// still `legal`, by rejection: a drawn entry that is no longer legal (it never becomes legal
/// again in the playout) is replaced by the last one and `len` shrinks, so the stale entries
/// cost O(1) each over a whole playout. `None` when none is legal. Each draw is
/// `rng.gen_range(0..len)`, so every cache of the same entries in the same order draws the same
/// moves from the same seed.
#[inline(always)]
pub fn draw_cached<C: Copy, R: RngCore + ?Sized>(
    cache: &mut [C],
    len: &mut usize,
    rng: &mut R,
    mut legal: impl FnMut(C) -> bool,
) -> Option<C> {
    while *len > 0 {
        let i = rng.gen_range(0..*len as u32) as usize;
        let entry = cache[i];
        if legal(entry) {
            return Some(entry);
        }
        *len -= 1;
        cache[i] = cache[*len];
    }
    None
}

/// The move a playout drew in one state.
enum Chosen {
    /// Index into the listed moves.
    Listed(usize),
    /// A move from a monotonic class's cache (the class and its switch).
    Cached(u32, Action),
    /// The move kept by reservoir sampling.
    Streamed,
    /// The move's number in the search order, to be found again by [`Game::apply_nth_move`].
    Nth(u64),
}

/// The default of [`PlayoutLimits::count_replay_min_moves`]. Counting searches the whole tree
/// and the replay half of it on average, so it pays only where storing the moves costs more than
/// half a search: in states with many moves.
pub const COUNT_REPLAY_MIN_MOVES: u64 = 256;

impl PlayoutBuffers {
    /// Applies a move drawn from the listed moves, the streamed one or by its number.
    fn apply<G: Game + ?Sized>(
        &self,
        game: &G,
        s: &mut G::State,
        sc: &mut G::Scratch,
        chosen: Chosen,
    ) -> Result<(), SearchError> {
        match chosen {
            Chosen::Listed(i) => game.apply_move(s, self.moves.get(i)),
            Chosen::Cached(_, a) => game.apply_move(s, core::slice::from_ref(&a)),
            Chosen::Streamed => game.apply_move(s, &self.streamed),
            Chosen::Nth(i) => {
                // Counted a moment ago in the same state, so the move exists.
                game.apply_nth_move(s, sc, i)?;
            }
        }
        Ok(())
    }

    /// Draws a uniformly random legal move of a state without a monotonic class: by count and
    /// replay where the previous state had many moves and the reasoner can count, else from the
    /// listed moves (or by reservoir sampling when they do not fit). Every way draws the same
    /// number from `rng` for the same move list, so a seed plays the same games.
    fn pick<G: Game + ?Sized, R: RngCore + ?Sized>(
        &mut self,
        game: &G,
        s: &mut G::State,
        sc: &mut G::Scratch,
        rng: &mut R,
        limits: &PlayoutLimits,
        out: &mut PlayoutOutcome,
    ) -> Result<Option<Chosen>, SearchError> {
        if self.last_moves >= limits.count_replay_min_moves {
            // A count past `u32::MAX` cannot be drawn from; the list then overflows and streams.
            if let Some(n) = game.count_moves(s, sc)?.filter(|&n| n <= u32::MAX as u64) {
                self.last_moves = n;
                out.moves_seen += n;
                return Ok((n > 0).then(|| Chosen::Nth(rng.gen_range(0..n as u32) as u64)));
            }
        }
        match game.legal_moves(s, sc, &mut self.moves) {
            Err(SearchError::TooManyMoves { .. }) => {
                self.moves.clear();
                let (picked, seen) = self.pick_streaming(game, s, sc, rng, limits.max_streamed_moves)?;
                self.last_moves = seen;
                out.moves_seen += seen;
                Ok(picked.map(|_| Chosen::Streamed))
            }
            other => {
                other?;
                let n = self.moves.len();
                self.last_moves = n as u64;
                out.moves_seen += n as u64;
                Ok((n > 0).then(|| Chosen::Listed(rng.gen_range(0..n as u32) as usize)))
            }
        }
    }

    /// Draws a uniformly random legal move into `self.streamed` without storing the move list
    /// (reservoir sampling: the `k`-th move replaces the kept one with probability `1/k`).
    /// Returns `Some(0)` if there is a move, and the number of legal moves.
    fn pick_streaming<G: Game + ?Sized, R: RngCore + ?Sized>(
        &mut self,
        game: &G,
        s: &mut G::State,
        sc: &mut G::Scratch,
        rng: &mut R,
        max_moves: u64,
    ) -> Result<(Option<usize>, u64), SearchError> {
        let mut seen = 0u64;
        let kept = &mut self.streamed;
        let _ = game.visit_moves(s, sc, |m| {
            if seen == max_moves {
                seen += 1;
                return ControlFlow::Break(());
            }
            seen += 1;
            if rng.gen_range(0..seen) == 0 {
                kept.clear();
                kept.extend_from_slice(m);
            }
            ControlFlow::Continue(())
        })?;
        if seen > max_moves {
            return Err(SearchError::TooManyStreamedMoves { limit: max_moves });
        }
        Ok(((seen > 0).then_some(0), seen))
    }

    /// Picks a uniformly random legal move from the class cache by rejection: a drawn entry that
    /// is no longer legal is removed and another is drawn, which stays uniform over the legal
    /// entries and costs O(stale entries) over a whole playout. `None` when no cached move is
    /// legal any more. The number of legal moves is not known exactly here.
    ///
    /// The cache is filled at the class's first visit in the playout, by the reasoner's
    /// [`Game::monotonic_moves`] when it has one, else from [`Game::legal_moves`] (the same
    /// moves in the same order either way, so a seed plays the same games).
    fn pick_monotonic<G: Game + ?Sized, R: RngCore + ?Sized>(
        &mut self,
        game: &G,
        s: &mut G::State,
        sc: &mut G::Scratch,
        rng: &mut R,
        class: usize,
        out: &mut PlayoutOutcome,
    ) -> Result<ClassPick, SearchError> {
        let list = &mut self.class_moves[class];
        if !self.fresh[class] {
            if !game.monotonic_moves(s, class as u32, list) {
                game.legal_moves(s, sc, &mut self.moves)?;
                list.clear();
                for m in self.moves.iter() {
                    let &[a] = m else {
                        // Not a class's moves after all: draw from the full list, as at any
                        // other state, and leave the cache stale.
                        out.moves_seen += self.moves.len() as u64;
                        let n = self.moves.len() as u32;
                        return Ok(ClassPick::Listed((n > 0).then(|| rng.gen_range(0..n) as usize)));
                    };
                    list.push(a);
                }
            }
            self.fresh[class] = true;
            out.moves_seen += list.len() as u64;
        } else {
            out.moves_exact = false;
        }
        let mut len = list.len();
        let picked = draw_cached(list, &mut len, rng, |a| game.is_still_legal(s, core::slice::from_ref(&a)));
        list.truncate(len);
        Ok(ClassPick::Cached(picked))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::toy::{Nim, SearchingNim};

    #[test]
    fn the_sparse_clock_reads_again_within_its_stride() {
        let start = Instant::now();
        let mut clock = SparseClock::new(start);
        let mut last = Duration::ZERO;
        // Quick calls: the stride grows to its bound; the times never go back.
        for _ in 0..1000 {
            let now = clock.elapsed();
            assert!(now >= last);
            last = now;
        }
        std::thread::sleep(Duration::from_millis(2));
        let seen = (0..SparseClock::MAX_STRIDE).map(|_| clock.elapsed()).max().unwrap_or_default();
        assert!(seen >= Duration::from_millis(2), "{seen:?}");
    }

    #[test]
    fn nim_playouts_are_reproducible_and_consistent() {
        let game = Nim::new(10);
        let opts = McOptions { limit: McLimit::Playouts(500), seed: 7, ..Default::default() };
        let a = flat_monte_carlo(&game, &opts, |_| {}).unwrap();
        let b = flat_monte_carlo(&game, &opts, |_| {}).unwrap();
        assert_eq!((a.plies, a.moves, a.score_sum.clone()), (b.plies, b.moves, b.score_sum.clone()));
        assert_eq!(a.playouts, 500);
        // A pile of 10 lasts between 5 (always take 2) and 10 (always take 1) moves.
        assert!(a.min_plies >= 5 && a.max_plies <= 10);
        // Exactly one player wins each playout with score 1.
        assert_eq!(a.score_sum.iter().sum::<i64>(), 500);
    }

    #[test]
    fn count_and_replay_plays_the_listed_games() {
        let game = SearchingNim::new(12);
        let run = |from: u64| {
            let opts = McOptions {
                limit: McLimit::Playouts(300),
                seed: 11,
                count_replay: CountReplay::From(from),
                ..Default::default()
            };
            let stats = flat_monte_carlo(&game, &opts, |_| {}).unwrap();
            (stats.plies, stats.moves, stats.score_sum, stats.min_plies, stats.max_plies)
        };
        let listed = run(u64::MAX);
        assert_eq!(game.searches(), 0, "never counted");
        // From 2 moves on: every state after the first of the run has 1 or 2 moves; those after a
        // 2-move state are counted.
        assert_eq!(run(2), listed);
        let counted = game.searches.swap(0, std::sync::atomic::Ordering::Relaxed);
        assert!(counted > 1000, "only {counted} states were counted");
        assert_eq!(run(0), listed);
    }

    #[test]
    fn overflowing_move_lists_fall_back_to_streamed_sampling() {
        let game = Nim::new(10);
        let opts =
            McOptions { limit: McLimit::Playouts(500), seed: 7, max_move_actions: 0, ..Default::default() };
        let a = flat_monte_carlo(&game, &opts, |_| {}).unwrap();
        assert_eq!(a.playouts, 500);
        assert!(a.min_plies >= 5 && a.max_plies <= 10);
        assert_eq!(a.score_sum.iter().sum::<i64>(), 500);
        // Every ply saw 2 moves except those with one stone left (exactly one per playout whose
        // last move took a single stone, at most one per playout).
        assert!(a.moves_exact);
        assert!(a.moves <= 2 * a.plies && a.moves >= 2 * a.plies - 500);
        // Both first moves are drawn (uniform over {1, 2}: 500 draws never all agree in practice
        // with this seed).
        assert!(a.min_plies < a.max_plies);
    }
}
