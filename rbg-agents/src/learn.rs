//! A learned evaluation: piece values and mobility weights fitted per game from random
//! self-play, with no hand-written knowledge of the game.
//!
//! RBG knows no piece ownership and no piece values, so nothing here reads names. The method:
//!
//! 1. **Self-play.** Up to [`LearnConfig::games`] uniformly random games are played from the
//!    initial position (keeper completed), seeded by [`LearnConfig::seed`]. Every state in which
//!    a real player is to move is a sample; a game longer than [`LearnConfig::max_plies`] moves
//!    is stopped and scored where it stands (scores exist in every state).
//! 2. **Features** of a sample: for each piece type, how many vertices hold it (empty cells are
//!    a piece like any other); with [`LearnConfig::mobility`], also the number of legal moves of
//!    the player to move, as one feature per player (the count when that player is to move, 0
//!    otherwise), so that "many moves for me" and "many moves for you" get their own weights.
//! 3. **Targets**: each player's final reward, the score divided by its declared bound (in
//!    [0, 1]), the same for every sample of a game.
//! 4. **Fit**: for each player separately, a ridge-regularised least-squares linear model
//!    predicting its reward from the features. Features are standardised (constant features get
//!    weight 0) and the penalty is [`RIDGE`] times the number of samples in standardised units,
//!    which keeps the normal equations solvable when features are collinear (the piece counts
//!    always sum to the board size). Only the sums `Σx`, `Σxxᵀ`, `Σxy`, `Σy` are kept, so memory
//!    does not grow with the samples.
//!
//! So the regression finds by itself that white pawns are good for white: white's weight on a
//! white pawn comes out positive, black's negative. [`Evaluation::learned`](crate::Evaluation)
//! turns the per-player weights into the alpha-beta evaluation.
//!
//! Bounds: learning stops starting games once [`LearnConfig::max_samples`] samples were taken
//! or [`LearnConfig::time`] has passed (a game cut by the time limit is dropped). Without the
//! time limit being reached the weights depend only on the game and the configuration (the
//! same on both engines, which generate the same moves in the same order). A game with more
//! than [`MAX_PIECE_FEATURES`] piece types learns no piece weights; a game that ends at once,
//! has no samples or only constant features learns all-zero weights.
//!
//! Learned weights are cached for the process ([`learn_cached`]): agents are built once per
//! match game and once per move on the page, and learning again each time would cost the
//! same work for the same answer. The cache key is the game's [`GameInfo`], its initial state
//! and legal moves there, and the configuration; two games alike in all of these but with
//! other rules would share weights, which changes only the strength of play, never its
//! legality.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rand::Rng;
use rand_core::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use rbg_core::perft::DEFAULT_KEEPER_LIMIT;
use rbg_core::{Game, GameInfo, MoveList, SearchError};

use crate::agent::{rewards_into, splitmix};

/// The ridge penalty per sample, on standardised features.
pub const RIDGE: f64 = 1e-3;
/// Games with more piece types than this learn no piece weights (the normal equations grow
/// with the square of the features).
pub const MAX_PIECE_FEATURES: usize = 256;

/// How to learn (see the module documentation).
#[derive(Clone, Debug, PartialEq)]
pub struct LearnConfig {
    /// Random self-play games (at most).
    pub games: u64,
    /// Samples (states) after which no new game is started.
    pub max_samples: u64,
    /// Wall time after which no new game is started (a game in progress is dropped).
    pub time: Duration,
    /// Moves after which a self-play game is stopped and scored where it stands.
    pub max_plies: u64,
    /// Learn mobility weights too (the evaluation then counts the legal moves at every leaf).
    pub mobility: bool,
    pub seed: u64,
}

impl Default for LearnConfig {
    fn default() -> Self {
        LearnConfig {
            games: 200,
            max_samples: 100_000,
            time: Duration::from_secs(2),
            max_plies: 1000,
            mobility: false,
            seed: 0,
        }
    }
}

/// Per-player linear weights predicting each player's reward (in [0, 1]) from the features.
#[derive(Clone, Debug, PartialEq)]
pub struct LearnedWeights {
    /// `pieces[p - 1][piece id]`: the change of player `p`'s predicted reward per piece of that
    /// type on the board.
    pub pieces: Vec<Vec<f64>>,
    /// `mobility[p - 1][q - 1]`: the change of player `p`'s predicted reward per legal move when
    /// player `q` is to move (all zero without [`LearnConfig::mobility`]).
    pub mobility: Vec<Vec<f64>>,
    /// `intercept[p - 1]`: the prediction with all features 0.
    pub intercept: Vec<f64>,
    /// Self-play games that gave samples.
    pub games: u64,
    pub samples: u64,
    /// Whether the time limit stopped the learning (the weights then depend on the speed).
    pub timed_out: bool,
    /// Per player, the share of the variance of its reward over the self-play samples that
    /// the weights explain (R²; see [`Fit::explained`]).
    pub explained: Vec<f64>,
    /// Of the [`Self::games`], those that ended with every player's reward the same, or were
    /// stopped unfinished after [`LearnConfig::max_plies`] moves: random games that tell the
    /// players apart no more than a coin would.
    pub draws: u64,
}

impl LearnedWeights {
    fn zero(info: &GameInfo) -> Self {
        let n = info.num_players();
        LearnedWeights {
            pieces: vec![vec![0.0; info.pieces.len()]; n],
            mobility: vec![vec![0.0; n]; n],
            intercept: vec![0.0; n],
            games: 0,
            samples: 0,
            timed_out: false,
            explained: vec![0.0; n],
            draws: 0,
        }
    }

    /// The share of the self-play games that were [`Self::draws`]; `None` when fewer than
    /// `min_games` games were played.
    pub fn draw_share(&self, min_games: u64) -> Option<f64> {
        (self.games >= min_games.max(1)).then(|| self.draws as f64 / self.games as f64)
    }

    /// The predicted reward of each player in a state with these piece counts (per piece id)
    /// and `moves` legal moves of player `mover + 1`.
    pub fn predict(&self, pieces: &[u32], mover: usize, moves: u64) -> Vec<f64> {
        let mut out = vec![0.0; self.intercept.len()];
        self.predict_into(pieces, mover, moves, &mut out);
        out
    }

    /// [`LearnedWeights::predict`] into `out` (one entry per player; extra entries untouched).
    pub fn predict_into(&self, pieces: &[u32], mover: usize, moves: u64, out: &mut [f64]) {
        for (p, prediction) in out.iter_mut().enumerate().take(self.intercept.len()) {
            let material: f64 = self.pieces[p].iter().zip(pieces).map(|(w, &c)| w * c as f64).sum();
            let mobility = self.mobility[p].get(mover).map_or(0.0, |w| w * moves as f64);
            *prediction = self.intercept[p] + material + mobility;
        }
    }
}

/// Streaming least squares with several targets: the sums that the normal equations need.
#[derive(Clone, Debug)]
pub struct Regression {
    features: usize,
    targets: usize,
    count: f64,
    sum_x: Vec<f64>,
    /// Row-major `features × features`.
    sum_xx: Vec<f64>,
    /// Row-major `features × targets`.
    sum_xy: Vec<f64>,
    sum_y: Vec<f64>,
    sum_yy: Vec<f64>,
}

/// A fitted linear model: `y[t] ≈ intercept[t] + Σ weights[t][j] · x[j]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Fit {
    pub weights: Vec<Vec<f64>>,
    pub intercept: Vec<f64>,
    /// Per target, the share of its variance over the samples that the model explains (R²,
    /// at most 1; 0 for a constant target or no samples).
    pub explained: Vec<f64>,
}

impl Regression {
    pub fn new(features: usize, targets: usize) -> Self {
        Regression {
            features,
            targets,
            count: 0.0,
            sum_x: vec![0.0; features],
            sum_xx: vec![0.0; features * features],
            sum_xy: vec![0.0; features * targets],
            sum_y: vec![0.0; targets],
            sum_yy: vec![0.0; targets],
        }
    }

    pub fn samples(&self) -> u64 {
        self.count as u64
    }

    /// Adds one sample (`x` has `features` entries, `y` has `targets`).
    pub fn add(&mut self, x: &[f64], y: &[f64]) {
        debug_assert_eq!((x.len(), y.len()), (self.features, self.targets));
        self.count += 1.0;
        for (j, &xj) in x.iter().enumerate() {
            if xj == 0.0 {
                continue;
            }
            self.sum_x[j] += xj;
            let row = &mut self.sum_xx[j * self.features..(j + 1) * self.features];
            for (r, &xk) in row.iter_mut().zip(x) {
                *r += xj * xk;
            }
            let row = &mut self.sum_xy[j * self.targets..(j + 1) * self.targets];
            for (r, &yt) in row.iter_mut().zip(y) {
                *r += xj * yt;
            }
        }
        for ((s, ss), &yt) in self.sum_y.iter_mut().zip(&mut self.sum_yy).zip(y) {
            *s += yt;
            *ss += yt * yt;
        }
    }

    /// Ridge regression with penalty `ridge · samples` on standardised features (see the module
    /// documentation). No samples give all-zero weights.
    pub fn fit(&self, ridge: f64) -> Fit {
        let (d, t, n) = (self.features, self.targets, self.count);
        let mut fit =
            Fit { weights: vec![vec![0.0; d]; t], intercept: vec![0.0; t], explained: vec![0.0; t] };
        if n == 0.0 {
            return fit;
        }
        let mean_x: Vec<f64> = self.sum_x.iter().map(|s| s / n).collect();
        let mean_y: Vec<f64> = self.sum_y.iter().map(|s| s / n).collect();
        let covariance = |j: usize, k: usize| self.sum_xx[j * d + k] / n - mean_x[j] * mean_x[k];
        // Features that vary; the others cannot explain anything and keep weight 0.
        let active: Vec<usize> = (0..d).filter(|&j| covariance(j, j) > 1e-12).collect();
        let std: Vec<f64> = active.iter().map(|&j| covariance(j, j).sqrt()).collect();
        let m = active.len();
        let mut a = vec![0.0; m * m];
        for (r, &j) in active.iter().enumerate() {
            for (c, &k) in active.iter().enumerate() {
                a[r * m + c] = covariance(j, k) / (std[r] * std[c]) + if r == c { ridge } else { 0.0 };
            }
        }
        for (target, (weights, intercept)) in fit.weights.iter_mut().zip(&mut fit.intercept).enumerate() {
            let b: Vec<f64> = active
                .iter()
                .zip(&std)
                .map(|(&j, s)| (self.sum_xy[j * t + target] / n - mean_x[j] * mean_y[target]) / s)
                .collect();
            let z = solve(a.clone(), b.clone(), m).unwrap_or_else(|| vec![0.0; m]);
            // Residual variance in standardised units: var(y) - 2 z·b + zᵀ C z (C without the
            // ridge term).
            let var_y = self.sum_yy[target] / n - mean_y[target] * mean_y[target];
            if var_y > 1e-12 {
                let zb: f64 = z.iter().zip(&b).map(|(zi, bi)| zi * bi).sum();
                let ridge_part: f64 = z.iter().map(|zi| ridge * zi * zi).sum();
                let zcz: f64 =
                    (0..m).map(|r| (0..m).map(|c| z[r] * a[r * m + c] * z[c]).sum::<f64>()).sum::<f64>()
                        - ridge_part;
                fit.explained[target] = (1.0 - (var_y - 2.0 * zb + zcz) / var_y).clamp(0.0, 1.0);
            }
            *intercept = mean_y[target];
            for ((&j, s), zj) in active.iter().zip(&std).zip(&z) {
                weights[j] = zj / s;
                *intercept -= weights[j] * mean_x[j];
            }
        }
        fit
    }
}

/// Solves `a · x = b` (`a` row-major `m × m`) by Gaussian elimination with partial pivoting;
/// `None` when `a` is singular.
fn solve(mut a: Vec<f64>, mut b: Vec<f64>, m: usize) -> Option<Vec<f64>> {
    for col in 0..m {
        let pivot = (col..m).max_by(|&r, &s| a[r * m + col].abs().total_cmp(&a[s * m + col].abs()))?;
        if a[pivot * m + col].abs() < 1e-12 {
            return None;
        }
        if pivot != col {
            for k in 0..m {
                a.swap(pivot * m + k, col * m + k);
            }
            b.swap(pivot, col);
        }
        for row in col + 1..m {
            let factor = a[row * m + col] / a[col * m + col];
            if factor == 0.0 {
                continue;
            }
            for k in col..m {
                a[row * m + k] -= factor * a[col * m + k];
            }
            b[row] -= factor * b[col];
        }
    }
    let mut x = vec![0.0; m];
    for row in (0..m).rev() {
        let tail: f64 = (row + 1..m).map(|k| a[row * m + k] * x[k]).sum();
        x[row] = (b[row] - tail) / a[row * m + row];
    }
    x.iter().all(|v| v.is_finite()).then_some(x)
}

/// The piece counts of `s` into `counts` (one entry per piece type).
pub fn piece_counts<G: Game>(game: &G, s: &G::State, counts: &mut Vec<u32>) {
    counts.clear();
    counts.resize(game.info().pieces.len(), 0);
    for vertex in 0..game.info().vertices.len() as u32 {
        if let Some(c) = counts.get_mut(game.piece(s, vertex) as usize) {
            *c += 1;
        }
    }
}

/// The feature layout: the piece counts (when the game has at most [`MAX_PIECE_FEATURES`]
/// piece types), then with mobility one legal-move count per player (that of the player to
/// move, the others 0).
struct Layout {
    pieces: usize,
    players: usize,
    mobility: bool,
}

impl Layout {
    fn new(info: &GameInfo, mobility: bool) -> Self {
        let pieces = if info.pieces.len() <= MAX_PIECE_FEATURES { info.pieces.len() } else { 0 };
        Layout { pieces, players: info.num_players(), mobility }
    }

    fn len(&self) -> usize {
        self.pieces + if self.mobility { self.players } else { 0 }
    }

    fn write(&self, counts: &[u32], mover: usize, moves: usize, out: &mut Vec<f64>) {
        out.extend(counts.iter().take(self.pieces).map(|&c| c as f64));
        if self.mobility {
            out.extend((0..self.players).map(|q| if q == mover { moves as f64 } else { 0.0 }));
        }
    }
}

/// Learns the weights by random self-play (see the module documentation). Fails only when the
/// reasoner fails (an improper game description).
pub fn learn<G: Game>(game: &G, config: &LearnConfig) -> Result<LearnedWeights, SearchError> {
    let info = game.info();
    let mut learned = LearnedWeights::zero(info);
    let players = info.num_players();
    if players == 0 {
        return Ok(learned);
    }
    let layout = Layout::new(info, config.mobility);
    let mut regression = Regression::new(layout.len(), players);
    let mut sc = game.new_scratch();
    let mut start = game.initial_state();
    if !game.complete_keeper(&mut start, &mut sc, DEFAULT_KEEPER_LIMIT)? {
        return Ok(learned);
    }
    let clock = Instant::now();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(splitmix(config.seed));
    let mut moves = MoveList::new();
    let mut counts = Vec::new();
    let mut rows: Vec<f64> = Vec::new();
    let mut rewards = vec![0.0; players];
    let mut s = start.clone();
    for _ in 0..config.games {
        if regression.samples() >= config.max_samples || clock.elapsed() >= config.time {
            learned.timed_out = clock.elapsed() >= config.time;
            break;
        }
        s.clone_from(&start);
        rows.clear();
        let (mut finished, mut ended) = (true, false);
        for _ in 0..config.max_plies {
            if clock.elapsed() >= config.time {
                finished = false;
                break;
            }
            game.legal_moves(&mut s, &mut sc, &mut moves)?;
            if moves.is_empty() {
                ended = true;
                break;
            }
            piece_counts(game, &s, &mut counts);
            let mover = (game.current_player(&s) as usize).saturating_sub(1);
            layout.write(&counts, mover, moves.len(), &mut rows);
            let pick = rng.gen_range(0..moves.len());
            game.apply_move(&mut s, moves.get(pick));
            if !game.complete_keeper(&mut s, &mut sc, DEFAULT_KEEPER_LIMIT)? {
                ended = true;
                break;
            }
        }
        if !finished {
            learned.timed_out = true;
            break;
        }
        rewards_into(game, &s, &mut rewards);
        if !ended || rewards.iter().all(|&r| r == rewards[0]) {
            learned.draws += 1;
        }
        for row in rows.chunks_exact(layout.len().max(1)) {
            if layout.len() > 0 {
                regression.add(row, &rewards);
            }
        }
        learned.games += 1;
    }
    let fit = regression.fit(RIDGE);
    learned.samples = regression.samples();
    for p in 0..players {
        learned.pieces[p][..layout.pieces].copy_from_slice(&fit.weights[p][..layout.pieces]);
        if layout.mobility {
            learned.mobility[p].copy_from_slice(&fit.weights[p][layout.pieces..]);
        }
        learned.intercept[p] = fit.intercept[p];
    }
    learned.explained = fit.explained;
    Ok(learned)
}

/// What identifies a learning run for the cache: the game's description and start, and the
/// configuration.
#[derive(Clone, Debug, PartialEq)]
struct CacheKey {
    info: GameInfo,
    start: Vec<u8>,
    start_moves: Vec<Vec<(u32, u32)>>,
    config: LearnConfig,
}

/// Most learning runs kept by [`learn_cached`] (the oldest is forgotten first).
const CACHE_SIZE: usize = 8;

type Cache = Vec<(CacheKey, Arc<LearnedWeights>)>;

static CACHE: Mutex<Cache> = Mutex::new(Vec::new());

/// [`learn`], or the weights of an earlier run for the same game and configuration in this
/// process (see the module documentation).
pub fn learn_cached<G: Game>(game: &G, config: &LearnConfig) -> Result<Arc<LearnedWeights>, SearchError> {
    let key = cache_key(game, config)?;
    let lock = || CACHE.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some((_, weights)) = lock().iter().find(|(k, _)| *k == key) {
        return Ok(Arc::clone(weights));
    }
    let weights = Arc::new(learn(game, config)?);
    let mut cache = lock();
    // Another thread may have learned the same meanwhile: keep one entry.
    if let Some((_, earlier)) = cache.iter().find(|(k, _)| *k == key) {
        return Ok(Arc::clone(earlier));
    }
    if cache.len() >= CACHE_SIZE {
        cache.remove(0);
    }
    cache.push((key, Arc::clone(&weights)));
    Ok(weights)
}

fn cache_key<G: Game>(game: &G, config: &LearnConfig) -> Result<CacheKey, SearchError> {
    let mut sc = game.new_scratch();
    let mut s = game.initial_state();
    let mut start_moves = Vec::new();
    if game.complete_keeper(&mut s, &mut sc, DEFAULT_KEEPER_LIMIT)? {
        let mut moves = MoveList::new();
        game.legal_moves(&mut s, &mut sc, &mut moves)?;
        start_moves = moves.iter().map(|m| m.iter().map(|a| (a.index, a.vertex)).collect()).collect();
    }
    let mut start = Vec::new();
    game.encode_state(&s, &mut start);
    Ok(CacheKey { info: game.info().clone(), start, start_moves, config: config.clone() })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regression_recovers_known_weights() {
        // y0 = 0.1 + 0.3 x0 - 0.2 x1, y1 = 1 - y0, from inputs spread by a fixed recurrence (no
        // noise), so the fit must match up to the small ridge shrinkage.
        let mut r = Regression::new(3, 2);
        let mut state = 7u64;
        for _ in 0..500 {
            let mut next = || {
                state = splitmix(state);
                (state % 11) as f64
            };
            let (x0, x1) = (next(), next());
            // x2 is constant: it cannot be learned and must get weight 0.
            let y0 = 0.1 + 0.3 * x0 - 0.2 * x1;
            r.add(&[x0, x1, 4.0], &[y0, 1.0 - y0]);
        }
        let fit = r.fit(1e-9);
        let close = |a: f64, b: f64| (a - b).abs() < 1e-6;
        let w = &fit.weights;
        assert!(close(w[0][0], 0.3) && close(w[0][1], -0.2) && w[0][2] == 0.0, "{fit:?}");
        assert!(close(w[1][0], -0.3) && close(w[1][1], 0.2) && w[1][2] == 0.0, "{fit:?}");
        assert!(close(fit.intercept[0], 0.1) && close(fit.intercept[1], 0.9), "{fit:?}");
        // Without noise the model explains all of each target's variance.
        assert!(fit.explained.iter().all(|&e| close(e, 1.0)), "{fit:?}");
        // The ridge shrinks the weights towards 0 but keeps their signs.
        let shrunk = r.fit(1.0);
        assert!(shrunk.weights[0][0] > 0.0 && shrunk.weights[0][0] < 0.3);
    }

    #[test]
    fn collinear_and_empty_data_give_finite_weights() {
        let fit = Regression::new(2, 1).fit(RIDGE);
        assert_eq!(fit.weights, vec![vec![0.0, 0.0]]);
        let mut r = Regression::new(2, 1);
        for i in 0..20 {
            let x = i as f64;
            // x1 = 10 - x0: the two features say the same.
            r.add(&[x, 10.0 - x], &[x / 10.0]);
        }
        let fit = r.fit(RIDGE);
        assert!(fit.weights[0].iter().all(|w| w.is_finite()));
        let predicted = fit.intercept[0] + fit.weights[0][0] * 5.0 + fit.weights[0][1] * 5.0;
        assert!((predicted - 0.5).abs() < 1e-2, "{fit:?}");
    }

    /// A target that is half a feature and half noise independent of it: the model explains
    /// about half of its variance (var(x/2) = var(noise/2) here, worked out by hand), and a
    /// target unrelated to the feature nothing.
    #[test]
    fn the_explained_share_is_that_of_the_signal() {
        let mut r = Regression::new(1, 2);
        // x and noise take the four combinations of {0, 1} equally often: independent, with
        // equal variances.
        for i in 0..400 {
            let (x, noise) = ((i % 2) as f64, ((i / 2) % 2) as f64);
            r.add(&[x], &[(x + noise) / 2.0, noise]);
        }
        let fit = r.fit(1e-9);
        assert!((fit.explained[0] - 0.5).abs() < 1e-6, "{fit:?}");
        assert!(fit.explained[1].abs() < 1e-6, "{fit:?}");
    }

    #[test]
    fn solve_refuses_a_singular_system() {
        assert_eq!(solve(vec![1.0, 2.0, 2.0, 4.0], vec![1.0, 2.0], 2), None);
        assert_eq!(solve(vec![2.0, 0.0, 0.0, 4.0], vec![1.0, 2.0], 2), Some(vec![0.5, 0.5]));
    }
}
