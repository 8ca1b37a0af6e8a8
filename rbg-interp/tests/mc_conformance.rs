//! Flat Monte Carlo conformance: with a fixed seed, the mean playout length and the mean score of
//! every player agree with `conformance/reference-mc.csv` (rbg2cpp's simulation driver) within
//! 4.5 standard errors of the difference of the two means. The standard error is estimated from
//! our own sample's variance, for both samples (the reference file has no variances).

mod common;

use rbg_core::playout::{flat_monte_carlo, McLimit, McOptions};
use rbg_core::Game;
use rbg_interp::InterpOptions;

use common::{conformance_dir, corpus_dir, data_available, interpreter, read_csv};

struct Reference {
    playouts: f64,
    avg_depth: f64,
    avg_scores: Vec<f64>,
}

fn reference(game: &str) -> Reference {
    let row = read_csv(&conformance_dir().join("reference-mc.csv"))
        .into_iter()
        .find(|r| r[0] == game)
        .unwrap_or_else(|| panic!("{game} missing from reference-mc.csv"));
    let extra: Vec<(String, String)> = row[5]
        .split(';')
        .filter_map(|kv| kv.split_once('=').map(|(k, v)| (k.to_string(), v.to_string())))
        .collect();
    let mut avg_scores = Vec::new();
    for p in 1.. {
        match extra.iter().find(|(k, _)| *k == format!("goal_p{p}_avg")) {
            Some((_, v)) => avg_scores.push(v.parse().expect("goal average")),
            None => break,
        }
    }
    Reference {
        playouts: row[2].parse().expect("playouts"),
        avg_depth: row[4].parse().expect("avg_depth"),
        avg_scores,
    }
}

/// Running mean and variance of one quantity.
#[derive(Default)]
struct Moments {
    n: f64,
    sum: f64,
    sum_sq: f64,
}

impl Moments {
    fn add(&mut self, x: f64) {
        self.n += 1.0;
        self.sum += x;
        self.sum_sq += x * x;
    }
    fn mean(&self) -> f64 {
        self.sum / self.n
    }
    fn variance(&self) -> f64 {
        ((self.sum_sq - self.sum * self.sum / self.n) / (self.n - 1.0)).max(0.0)
    }
}

/// Whether our mean is within 4.5 standard errors of the reference mean.
fn agrees(ours: &Moments, reference_mean: f64, reference_n: f64) -> (bool, f64) {
    let se = (ours.variance() / ours.n + ours.variance() / reference_n).sqrt();
    let diff = (ours.mean() - reference_mean).abs();
    (diff <= 4.5 * se + 1e-6, se)
}

fn check(game: &str, playouts: u64) {
    let interp = interpreter(game, InterpOptions::default());
    let reference = reference(game);
    let players = reference.avg_scores.len();
    assert_eq!(players, interp.info().num_players(), "{game}: goal averages in reference-mc.csv");
    let mut depth = Moments::default();
    let mut scores: Vec<Moments> = (0..players).map(|_| Moments::default()).collect();
    let (mut last_plies, mut last_sums) = (0u64, vec![0i64; players]);
    let opts = McOptions { seed: 2024, limit: McLimit::Playouts(playouts), ..Default::default() };
    flat_monte_carlo(&interp, &opts, |st| {
        depth.add((st.plies - last_plies) as f64);
        last_plies = st.plies;
        for (p, m) in scores.iter_mut().enumerate() {
            m.add((st.score_sum[p] - last_sums[p]) as f64);
            last_sums[p] = st.score_sum[p];
        }
    })
    .unwrap_or_else(|e| panic!("{game}: {e}"));
    let (ok, se) = agrees(&depth, reference.avg_depth, reference.playouts);
    println!("{game}: avg depth {:.3} (reference {:.3}, s.e. {se:.3})", depth.mean(), reference.avg_depth);
    assert!(ok, "{game}: mean playout length {} vs reference {}", depth.mean(), reference.avg_depth);
    for (p, m) in scores.iter().enumerate() {
        let (ok, se) = agrees(m, reference.avg_scores[p], reference.playouts);
        println!(
            "{game}: player {} score {:.3} (reference {:.3}, s.e. {se:.3})",
            p + 1,
            m.mean(),
            reference.avg_scores[p]
        );
        assert!(
            ok,
            "{game}: player {} mean score {} vs reference {}",
            p + 1,
            m.mean(),
            reference.avg_scores[p]
        );
    }
}

fn data() -> bool {
    data_available(&[
        conformance_dir().join("reference-mc.csv"),
        corpus_dir(),
        conformance_dir().join("lowered"),
    ])
}

#[test]
fn tic_tac_toe_playouts_match_reference() {
    if data() {
        check("ticTacToe", 4000);
    }
}

#[test]
fn breakthrough_playouts_match_reference() {
    if data() {
        check("breakthrough", 800);
    }
}

#[test]
fn connect4_playouts_match_reference() {
    if data() {
        check("connect4", 3000);
    }
}

#[test]
fn hex_playouts_match_reference() {
    if data() {
        check("hex_9x9", 600);
    }
}

#[test]
fn reversi_playouts_match_reference() {
    if data() {
        check("reversi", 300);
    }
}

#[test]
fn english_draughts_playouts_match_reference() {
    if data() {
        check("englishDraughts", 600);
    }
}
