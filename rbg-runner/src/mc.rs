//! `mc`: flat Monte Carlo playouts with statistics per player.
//!
//! Ctrl-C during a run prints the statistics of the playouts finished so far (marked as
//! interrupted) and exits with 130; the driver's progress callback polls the flag of
//! [`crate::interrupt`], so the playout loop itself is unchanged.

use std::io::Write;
use std::time::Duration;

use rbg_core::count_replay::CountReplay;
use rbg_core::playout::{flat_monte_carlo, McLimit, McOptions, McStats};
use rbg_core::Game;
use serde_json::json;

use crate::interrupt::{interrupted, InterruptWatch, INTERRUPTED_EXIT_CODE};
use crate::{per_second, progress_bar, RunError};

#[derive(clap::Args, Clone, Debug)]
#[command(group(clap::ArgGroup::new("limit").required(true).args(["seconds", "playouts"])))]
pub struct McArgs {
    /// Play for this many seconds.
    #[arg(long, short = 's')]
    pub seconds: Option<f64>,
    /// Play exactly this many playouts.
    #[arg(long, short = 'n')]
    pub playouts: Option<u64>,
    /// Seed of the random generator (xoshiro256++).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Threads playing at once, each until the time is up or no playout is left to start.
    /// Each thread has its own generator (the first one seeded with --seed), so the playouts
    /// differ from a single thread's, and from run to run.
    #[arg(long, short = 't', default_value_t = 1)]
    pub threads: usize,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
    /// Do not use monotonic classes (cached move lists) even if the reasoner has them.
    #[arg(long)]
    pub no_monotonic: bool,
    /// Most moves of one state sampled one by one when they are too many to list (an error
    /// past it; the game has too many moves to play).
    #[arg(long, default_value_t = rbg_core::perft::DEFAULT_MAX_STREAMED_MOVES)]
    pub max_streamed_moves: u64,
    /// From how many moves (in the previous state) on a playout counts the moves and replays the
    /// search to the drawn one instead of listing them, where the reasoner can (compiled
    /// engines built with `count-replay`): a number, `never`, or `auto` (time listing, counting
    /// from 256 moves and counting always on the first playouts, keep the fastest). The same
    /// games either way; only the speed differs.
    #[arg(long, default_value = "auto", value_parser = parse_count_replay)]
    pub count_replay_from: CountReplay,
}

/// `auto`, `never` or a number of moves (`--count-replay-from`).
fn parse_count_replay(text: &str) -> Result<CountReplay, String> {
    match text {
        "auto" => Ok(CountReplay::Auto),
        "never" => Ok(CountReplay::From(u64::MAX)),
        n => n
            .parse()
            .map(CountReplay::From)
            .map_err(|_| format!("expected auto, never or a number of moves, not {n:?}")),
    }
}

/// The text `--count-replay-from` takes for `setting` (the inverse of its parser).
pub fn count_replay_arg(setting: CountReplay) -> String {
    match setting {
        CountReplay::Auto => "auto".into(),
        CountReplay::From(u64::MAX) => "never".into(),
        CountReplay::From(n) => n.to_string(),
    }
}

/// The statistics printed by `mc`.
#[derive(Clone, Debug)]
pub struct McReport {
    pub stats: McStats,
}

impl McReport {
    pub fn playouts_per_second(&self) -> f64 {
        per_second(self.stats.playouts, self.stats.elapsed.as_secs_f64())
    }
}

/// The longest `--seconds` accepted: a year; longer is surely a typo (and `1e300` does not fit
/// in a `Duration`).
pub const MAX_SECONDS: f64 = 365.0 * 24.0 * 3600.0;

/// The duration of `--seconds S`, or why `S` is not one.
pub fn seconds_limit(seconds: f64) -> Result<Duration, RunError> {
    if !(0.0..=MAX_SECONDS).contains(&seconds) {
        return Err(RunError::Usage(format!(
            "--seconds {seconds:?}: give a number of seconds from 0 to {MAX_SECONDS} (a year)"
        )));
    }
    Duration::try_from_secs_f64(seconds).map_err(|e| RunError::Usage(format!("--seconds {seconds:?}: {e}")))
}

impl McArgs {
    /// Whether the arguments make sense (checked before a game is loaded or compiled).
    pub fn check(&self) -> Result<(), RunError> {
        self.limit()?;
        crate::perft::check_threads(self.threads, crate::perft::available_cores())
    }

    /// The run's limit: a time or a number of playouts.
    fn limit(&self) -> Result<McLimit, RunError> {
        match (self.seconds, self.playouts) {
            (Some(s), None) => Ok(McLimit::Time(seconds_limit(s)?)),
            (None, Some(n)) => Ok(McLimit::Playouts(n)),
            _ => Err(RunError::Usage("give exactly one of --seconds S or --playouts N".into())),
        }
    }
}

pub fn run_mc<G: Game>(game: &G, args: &McArgs, out: &mut dyn Write) -> Result<McReport, RunError> {
    args.check()?;
    let limit = args.limit()?;
    let opts = McOptions {
        threads: args.threads,
        seed: args.seed,
        limit,
        monotonic: !args.no_monotonic,
        max_streamed_moves: args.max_streamed_moves,
        count_replay: args.count_replay_from,
        ..Default::default()
    };
    let bar = match limit {
        McLimit::Playouts(n) => progress_bar(n, "playouts".into()),
        McLimit::Time(d) => progress_bar(d.as_millis() as u64, "ms".into()),
    };
    // Redrawing is throttled by indicatif, but even a hidden bar's update costs about 1% of a
    // short playout (connect4), so a piped run skips it.
    let shown = !bar.is_hidden();
    // Without monotonic classes every ply's moves are counted, so the branching factor of an
    // interrupted run (whose `moves_exact` the driver has not set yet) is still exact.
    let moves_exact_so_far = !opts.monotonic || game.monotonic_classes() == 0;
    let _watch = InterruptWatch::start();
    let stats = flat_monte_carlo(game, &opts, |s| {
        if interrupted() {
            bar.finish_and_clear();
            let stats = McStats { moves_exact: moves_exact_so_far, ..s.clone() };
            let report = McReport { stats };
            let printed = if args.json {
                print_json(game, &report, &mut *out, true)
            } else {
                print_text(game, &report, &mut *out, true)
            };
            // Nothing is left to report a failed write to: the run ends either way.
            let _ = printed;
            std::process::exit(INTERRUPTED_EXIT_CODE);
        }
        if shown {
            bar.set_position(match limit {
                McLimit::Playouts(_) => s.playouts,
                McLimit::Time(_) => s.elapsed.as_millis() as u64,
            });
        }
    })?;
    bar.finish_and_clear();
    let report = McReport { stats };
    if args.json {
        print_json(game, &report, out, false)?;
    } else {
        print_text(game, &report, out, false)?;
    }
    Ok(report)
}

fn print_text<G: Game>(
    game: &G,
    r: &McReport,
    out: &mut dyn Write,
    interrupted: bool,
) -> Result<(), RunError> {
    let s = &r.stats;
    if interrupted {
        writeln!(out, "interrupted    statistics of the playouts finished before Ctrl-C")?;
    }
    writeln!(out, "playouts       {}", s.playouts)?;
    writeln!(out, "seconds        {:.3}", s.elapsed.as_secs_f64())?;
    writeln!(out, "playouts/s     {:.1}", r.playouts_per_second())?;
    writeln!(out, "length         mean {:.4}  min {}  max {}", s.mean_plies(), s.min_plies, s.max_plies)?;
    if s.moves_exact {
        writeln!(out, "branching      mean {:.4}", s.moves as f64 / s.plies.max(1) as f64)?;
    } else {
        writeln!(out, "branching      n/a (moves drawn from monotonic caches; --no-monotonic counts them)")?;
    }
    for (i, name) in game.info().players.iter().enumerate() {
        writeln!(
            out,
            "score {name:<8} mean {:.4}  min {}  max {}",
            s.mean_score(i),
            s.score_min[i],
            s.score_max[i]
        )?;
    }
    out.flush()?;
    Ok(())
}

fn print_json<G: Game>(
    game: &G,
    r: &McReport,
    out: &mut dyn Write,
    interrupted: bool,
) -> Result<(), RunError> {
    let s = &r.stats;
    let scores: Vec<serde_json::Value> = game
        .info()
        .players
        .iter()
        .enumerate()
        .map(|(i, name)| {
            json!({ "player": name, "mean": s.mean_score(i), "min": s.score_min[i], "max": s.score_max[i] })
        })
        .collect();
    let mut line = json!({
        "game": game.info().name,
        "playouts": s.playouts,
        "seconds": s.elapsed.as_secs_f64(),
        "playouts_per_s": r.playouts_per_second(),
        "length_mean": s.mean_plies(),
        "length_min": s.min_plies,
        "length_max": s.max_plies,
        "branching_mean": s.moves_exact.then(|| s.moves as f64 / s.plies.max(1) as f64),
        "count_replay_from": s.count_replay_from.map(|n| count_replay_arg(CountReplay::From(n))),
        "scores": scores,
    });
    if interrupted {
        line["interrupted"] = json!(true);
    }
    writeln!(out, "{line}")?;
    out.flush()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seconds_must_fit_a_duration_and_be_sensible() {
        assert_eq!(seconds_limit(1.5).expect("valid"), Duration::from_millis(1500));
        assert_eq!(seconds_limit(0.0).expect("valid"), Duration::ZERO);
        for bad in [1e300, f64::NAN, f64::INFINITY, -1.0, MAX_SECONDS * 2.0] {
            let err = seconds_limit(bad).expect_err("rejected").to_string();
            assert!(err.starts_with("--seconds"), "{err}");
        }
    }
}
