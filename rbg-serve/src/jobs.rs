//! Long runs started from the page: perft depth by depth, flat Monte Carlo for a time, and the
//! analysis of a game by self-play (rbg-metrics, as `rbg analyze`). Each runs on a blocking
//! thread and writes its progress where requests can read it; a job can be cancelled at any
//! moment: perft's count sees the flag once per subtree ([`PerftOptions::stop`]), Monte Carlo
//! between playouts, and the analysis runs on a [`Stoppable`] game whose every search fails once
//! the flag is raised, so each ends within a fraction of a second.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rand_core::SeedableRng;
use rbg_core::dynamic::{AnyGame, DynState};
use rbg_core::moves::DEFAULT_MAX_ACTIONS;
use rbg_core::perft::PerftOptions;
use rbg_core::playout::{PlayoutBuffers, PlayoutLimits};
use rbg_core::stoppable::Stoppable;
use rbg_core::{Game, PlayoutRng};
use rbg_metrics::analyze::{AnalysisConfig, Stage};
use rbg_metrics::{Analysis, Row};
use serde::Serialize;

/// What a job has done so far.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Progress {
    pub kind: String,
    pub done: bool,
    pub cancelled: bool,
    pub error: Option<String>,
    /// Perft: one line per finished depth.
    pub perft: Vec<PerftRow>,
    /// Monte Carlo: the totals so far.
    pub playouts: u64,
    pub playouts_per_s: f64,
    pub mean_length: f64,
    pub mean_scores: Vec<f64>,
    pub seconds: f64,
    /// Analysis: the stage running (`self-play`, `samples`, `strength`), with its units
    /// (games, or positions for `samples`) done and in all.
    pub stage: Option<&'static str>,
    pub stage_done: u64,
    pub stage_total: u64,
    /// Analysis: the result, once done.
    pub analysis: Option<AnalysisView>,
}

/// A finished analysis as the page shows it.
#[derive(Clone, Debug, Serialize)]
pub struct AnalysisView {
    /// The measures as a table (what `rbg analyze` prints).
    pub rows: Vec<Row>,
    /// The report's SVG charts (rbg-metrics' `html::charts`).
    pub charts: String,
    /// Everything measured (what `rbg analyze --json` writes).
    pub analysis: Analysis,
}

#[derive(Clone, Debug, Serialize)]
pub struct PerftRow {
    pub depth: u32,
    pub leaves: u64,
    pub nodes: u64,
    pub ms: f64,
}

/// A running or finished job.
pub struct Job {
    pub progress: Mutex<Progress>,
    pub cancel: Arc<AtomicBool>,
}

impl Job {
    pub fn new(kind: &str) -> Arc<Job> {
        Arc::new(Job {
            progress: Mutex::new(Progress { kind: kind.to_string(), ..Progress::default() }),
            cancel: Arc::new(AtomicBool::new(false)),
        })
    }

    pub fn snapshot(&self) -> Progress {
        self.progress.lock().map(|p| p.clone()).unwrap_or_default()
    }

    fn update(&self, f: impl FnOnce(&mut Progress)) {
        if let Ok(mut p) = self.progress.lock() {
            f(&mut p);
        }
    }

    /// Cancels the job for the reason `why` (shown as its error). A finished job stays as it is.
    pub fn expire(&self, why: String) {
        self.update(|p| {
            if !p.done && !self.cancel.swap(true, Ordering::Relaxed) {
                p.error = Some(why);
            }
        });
    }

    fn finish(&self, error: Option<String>) {
        let cancelled = self.cancel.load(Ordering::Relaxed);
        self.update(|p| {
            p.done = true;
            p.cancelled = cancelled;
            // An error said before (the time limit, [`Job::expire`]) stays.
            p.error = error.or(p.error.take());
        });
    }
}

/// Perft from `state`, depth 1 to `depth`, a row per depth.
pub fn run_perft(job: &Job, game: &AnyGame, state: &DynState, depth: u32) {
    let mut error = None;
    for d in 1..=depth {
        if job.cancel.load(Ordering::Relaxed) {
            break;
        }
        let started = Instant::now();
        let (mut s, mut sc) = (state.clone(), game.new_scratch());
        // rbg-core's count over the engine, which sees the stop flag whatever the engine.
        let opts = PerftOptions { stop: Some(Arc::clone(&job.cancel)), ..PerftOptions::default() };
        match rbg_core::perft::perft_subtree(game, &mut s, &mut sc, d, &opts) {
            Ok(_) if job.cancel.load(Ordering::Relaxed) => break,
            Ok(counts) => {
                let ms = started.elapsed().as_secs_f64() * 1000.0;
                job.update(|p| {
                    p.perft.push(PerftRow { depth: d, leaves: counts.leaves, nodes: counts.nodes, ms })
                });
            }
            Err(e) => {
                error = Some(e.to_string());
                break;
            }
        }
    }
    job.finish(error);
}

/// Flat Monte Carlo from `state` (a player to move) for `seconds`: uniformly random playouts
/// through the reasoner's own playout loop, progress after each.
pub fn run_mc(job: &Job, game: &AnyGame, state: &DynState, seconds: f64, seed: u64) {
    let started = Instant::now();
    let total = Duration::from_secs_f64(seconds);
    let players = game.info().num_players() as u32;
    let mut rng = PlayoutRng::seed_from_u64(seed);
    let mut buffers = PlayoutBuffers::new(game, DEFAULT_MAX_ACTIONS);
    let mut sc = game.new_scratch();
    let limits = PlayoutLimits::default();
    let (mut playouts, mut plies) = (0u64, 0u64);
    let mut score_sums = vec![0f64; players as usize];
    let mut error = None;
    let mut s = state.clone();
    let mut last_report = Instant::now();
    while started.elapsed() < total && !job.cancel.load(Ordering::Relaxed) {
        s.clone_from(state);
        match game.random_playout(&mut s, &mut sc, &mut buffers, &mut rng, &limits) {
            Ok(outcome) => plies += outcome.plies,
            Err(e) => {
                error = Some(e.to_string());
                break;
            }
        }
        playouts += 1;
        for (p, sum) in (1..=players).zip(score_sums.iter_mut()) {
            *sum += game.score(&s, p) as f64;
        }
        if last_report.elapsed() >= Duration::from_millis(100) || started.elapsed() >= total {
            last_report = Instant::now();
            report(job, started, playouts, plies, &score_sums);
        }
    }
    report(job, started, playouts, plies, &score_sums);
    job.finish(error);
}

fn report(job: &Job, started: Instant, playouts: u64, plies: u64, score_sums: &[f64]) {
    let elapsed = started.elapsed().as_secs_f64();
    let per = |x: f64| if playouts > 0 { x / playouts as f64 } else { 0.0 };
    job.update(|p| {
        p.playouts = playouts;
        p.seconds = elapsed;
        p.playouts_per_s = if elapsed > 0.0 { playouts as f64 / elapsed } else { 0.0 };
        p.mean_length = per(plies as f64);
        p.mean_scores = score_sums.iter().map(|&s| per(s)).collect();
    });
}

/// The name of a stage in the progress.
fn stage_name(stage: Stage) -> &'static str {
    match stage {
        Stage::SelfPlay => "self-play",
        Stage::Samples => "samples",
        Stage::Strength => "strength",
    }
}

impl rbg_metrics::Progress for Job {
    fn start(&self, stage: Stage, total: u64) {
        self.update(|p| {
            p.stage = Some(stage_name(stage));
            p.stage_done = 0;
            p.stage_total = total;
        });
    }

    fn advance(&self, stage: Stage, done: u64) {
        // Threads report out of order: the count only grows.
        self.update(|p| {
            if p.stage == Some(stage_name(stage)) {
                p.stage_done = p.stage_done.max(done);
            }
        });
    }
}

/// The analysis of `game` by self-play (`config`, as `rbg analyze`) on all cores. It runs on
/// the game with the job's cancel flag, so a cancel ends every search at once.
pub fn run_analysis(job: &Job, game: &AnyGame, config: &AnalysisConfig) {
    let started = Instant::now();
    let stoppable = Stoppable::with_flag(game, Arc::clone(&job.cancel));
    let result = rbg_metrics::analyze(&stoppable, config, job);
    let seconds = started.elapsed().as_secs_f64();
    let error = match result {
        // A stopped run's error says nothing more than "cancelled".
        _ if job.cancel.load(Ordering::Relaxed) => None,
        Ok(analysis) => {
            let view = AnalysisView {
                rows: rbg_metrics::rows(&analysis),
                charts: rbg_metrics::html::charts(&analysis),
                analysis,
            };
            job.update(|p| p.analysis = Some(view));
            None
        }
        Err(e) => Some(e.to_string()),
    };
    job.update(|p| p.seconds = seconds);
    job.finish(error);
}
