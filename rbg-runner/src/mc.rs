//! `mc`: flat Monte Carlo playouts with statistics per player.

use std::io::Write;
use std::time::Duration;

use rbg_core::playout::{flat_monte_carlo, McLimit, McOptions, McStats};
use rbg_core::Game;
use serde_json::json;

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
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
    /// Do not use monotonic classes (cached move lists) even if the reasoner has them.
    #[arg(long)]
    pub no_monotonic: bool,
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

pub fn run_mc<G: Game>(game: &G, args: &McArgs, out: &mut dyn Write) -> Result<McReport, RunError> {
    let limit = match (args.seconds, args.playouts) {
        (Some(s), None) if s.is_finite() && s >= 0.0 => McLimit::Time(Duration::from_secs_f64(s)),
        (None, Some(n)) => McLimit::Playouts(n),
        _ => return Err(RunError::Usage("give exactly one of --seconds S (S >= 0) or --playouts N".into())),
    };
    let opts = McOptions { seed: args.seed, limit, monotonic: !args.no_monotonic, ..Default::default() };
    let bar = match limit {
        McLimit::Playouts(n) => progress_bar(n, "playouts".into()),
        McLimit::Time(d) => progress_bar(d.as_millis() as u64, "ms".into()),
    };
    // Redrawing is throttled by indicatif, but even a hidden bar's update costs about 1% of a
    // short playout (connect4), so a piped run skips it.
    let shown = !bar.is_hidden();
    let stats = flat_monte_carlo(game, &opts, |s| {
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
        print_json(game, &report, out)?;
    } else {
        print_text(game, &report, out)?;
    }
    Ok(report)
}

fn print_text<G: Game>(game: &G, r: &McReport, out: &mut dyn Write) -> Result<(), RunError> {
    let s = &r.stats;
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

fn print_json<G: Game>(game: &G, r: &McReport, out: &mut dyn Write) -> Result<(), RunError> {
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
    let line = json!({
        "game": game.info().name,
        "playouts": s.playouts,
        "seconds": s.elapsed.as_secs_f64(),
        "playouts_per_s": r.playouts_per_second(),
        "length_mean": s.mean_plies(),
        "length_min": s.min_plies,
        "length_max": s.max_plies,
        "branching_mean": s.moves_exact.then(|| s.moves as f64 / s.plies.max(1) as f64),
        "scores": scores,
    });
    writeln!(out, "{line}")?;
    out.flush()?;
    Ok(())
}
