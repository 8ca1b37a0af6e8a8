//! `rbg bench`: the interpreter and the compiled engine on one game, one after the other.
//!
//! With `--depth N` both count perft at depth N (single thread); with `--seconds S` both play
//! flat Monte Carlo for S seconds. Each figure is printed with the compiled/interpreted ratio.
//! Agreement: perft counts must be equal; for Monte Carlo both then play the same number of
//! playouts from the same seed, whose statistics (lengths, branching, scores) must be equal,
//! since both engines generate the same moves in the same order. A disagreement exits with 1.

use std::path::Path;
use std::process::Command;

use rbg_core::Game as _;
use rbg_runner::{McArgs, PerftArgs};
use serde_json::Value;

use crate::compile::{build_runner, CompileFlags};
use crate::play::{interpreter, mc_argv, perft_argv};
use crate::Failure;

/// `println!` that reports a failed write (a closed pipe) as a [`Failure`] instead of panicking.
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        writeln!(std::io::stdout().lock(), $($arg)*).map_err(Failure::output)
    }};
}

#[derive(clap::Args, Clone, Debug)]
// One of the two is required for one game (checked in `run`); the suite takes --seconds only.
#[command(group(clap::ArgGroup::new("bench_limit").args(["depth", "seconds"])))]
pub struct BenchLimit {
    /// Compare perft at this depth.
    #[arg(long, short = 'd')]
    pub depth: Option<u32>,
    /// Compare flat Monte Carlo for this many seconds per engine (with --suite: per figure,
    /// default 2).
    #[arg(long, short = 's')]
    pub seconds: Option<f64>,
}

/// Most playouts replayed by both engines to check that Monte Carlo agrees.
const CHECK_PLAYOUTS: u64 = 1000;

pub fn run(path: &Path, limit: &BenchLimit, flags: &CompileFlags) -> Result<(), Failure> {
    // The arguments are checked before the (long) build, so a typo fails at once.
    if limit.depth.is_none() && limit.seconds.is_none() {
        return Err(Failure::usage("give --depth N or --seconds S"));
    }
    if let Some(seconds) = limit.seconds {
        rbg_runner::seconds_limit(seconds).map_err(Failure::from_run)?;
    }
    // Build first, so compilation time never mixes with the measurements.
    let engine = build_runner(path, flags)?;
    let interp = interpreter(path, flags.interp_options())?;
    match (limit.depth, limit.seconds) {
        (Some(depth), _) => bench_perft(&interp, &engine, depth),
        (None, Some(seconds)) => bench_mc(&interp, &engine, seconds),
        (None, None) => Err(Failure::new("give --depth N or --seconds S")),
    }
}

/// `compiled / interpreted` as `1.23x`, or `n/a` when either rate is not measurable (no
/// playouts in the time given, or a run too short for the clock).
fn ratio(compiled: f64, interpreted: f64) -> String {
    if compiled > 0.0 && interpreted > 0.0 && compiled.is_finite() && interpreted.is_finite() {
        format!("{:.2}x", compiled / interpreted)
    } else {
        "n/a (too short to measure)".into()
    }
}

/// One engine's perft figures.
struct PerftFigures {
    leaves: u64,
    nodes: u64,
    ms: f64,
    nodes_per_second: f64,
}

fn bench_perft(interp: &rbg_interp::Interpreter, engine: &Path, depth: u32) -> Result<(), Failure> {
    let args = PerftArgs {
        depth,
        threads: 1,
        root_split: false,
        json: true,
        bulk: false,
        only_last: true,
        max_streamed_moves: rbg_core::perft::DEFAULT_MAX_STREAMED_MOVES,
    };
    out!("bench {}: perft depth {depth}, single thread", interp.info().name)?;
    let mut sink = Vec::new();
    let rows = rbg_runner::run_perft(interp, &args, &mut sink).map_err(Failure::from_run)?;
    let row = rows.last().ok_or_else(|| Failure::new("the interpreter printed no perft row"))?;
    let interpreted = PerftFigures {
        leaves: row.counts.leaves,
        nodes: row.counts.nodes,
        ms: row.seconds * 1000.0,
        nodes_per_second: row.nodes_per_second(),
    };
    let line = run_json(engine, "perft", &perft_argv(&args))?;
    let compiled = PerftFigures {
        leaves: field(&line, "leaves")?,
        nodes: field(&line, "nodes")?,
        ms: field(&line, "ms")?,
        nodes_per_second: field(&line, "nodes_per_s")?,
    };
    out!("{:<12} {:>16} {:>16} {:>10} {:>14}", "engine", "leaves", "nodes", "ms", "nodes/s")?;
    for (label, f) in [("interpreted", &interpreted), ("compiled", &compiled)] {
        out!("{label:<12} {:>16} {:>16} {:>10.0} {:>14.0}", f.leaves, f.nodes, f.ms, f.nodes_per_second)?;
    }
    out!(
        "ratio        {} (compiled / interpreted nodes/s)",
        ratio(compiled.nodes_per_second, interpreted.nodes_per_second)
    )?;
    if (interpreted.leaves, interpreted.nodes) == (compiled.leaves, compiled.nodes) {
        out!("counts       agree")?;
        Ok(())
    } else {
        out!("counts       DIFFER")?;
        Err(Failure::new("the engines' perft counts differ"))
    }
}

fn bench_mc(interp: &rbg_interp::Interpreter, engine: &Path, seconds: f64) -> Result<(), Failure> {
    out!("bench {}: flat Monte Carlo, {seconds} s per engine, seed 1", interp.info().name)?;
    let timed = McArgs {
        seconds: Some(seconds),
        playouts: None,
        seed: 1,
        threads: 1,
        json: true,
        no_monotonic: false,
        max_streamed_moves: rbg_core::perft::DEFAULT_MAX_STREAMED_MOVES,
        count_replay_from: rbg_core::count_replay::CountReplay::Auto,
    };
    let interpreted = interp_mc(interp, &timed)?;
    let compiled = run_json(engine, "mc", &mc_argv(&timed))?;
    out!("{:<12} {:>12} {:>10} {:>14}", "engine", "playouts", "seconds", "playouts/s")?;
    for (label, v) in [("interpreted", &interpreted), ("compiled", &compiled)] {
        out!(
            "{label:<12} {:>12} {:>10.3} {:>14.1}",
            field::<u64>(v, "playouts")?,
            field::<f64>(v, "seconds")?,
            field::<f64>(v, "playouts_per_s")?
        )?;
    }
    let ratio = ratio(field(&compiled, "playouts_per_s")?, field(&interpreted, "playouts_per_s")?);
    out!("ratio        {ratio} (compiled / interpreted playouts/s)")?;
    // Same playouts from the same seed: the statistics must be identical.
    let n =
        field::<u64>(&interpreted, "playouts")?.min(field(&compiled, "playouts")?).clamp(1, CHECK_PLAYOUTS);
    let fixed = McArgs { seconds: None, playouts: Some(n), ..timed };
    let a = without_timing(interp_mc(interp, &fixed)?);
    let b = without_timing(run_json(engine, "mc", &mc_argv(&fixed))?);
    if a == b {
        out!("statistics   agree on {n} playouts from seed 1")?;
        Ok(())
    } else {
        out!("statistics   DIFFER on {n} playouts from seed 1\n  interpreted: {a}\n  compiled:    {b}")?;
        Err(Failure::new("the engines' Monte Carlo statistics differ"))
    }
}

fn interp_mc(interp: &rbg_interp::Interpreter, args: &McArgs) -> Result<Value, Failure> {
    let mut sink = Vec::new();
    rbg_runner::run_mc(interp, args, &mut sink).map_err(Failure::from_run)?;
    last_json(&sink, "the interpreter")
}

fn without_timing(mut v: Value) -> Value {
    if let Some(map) = v.as_object_mut() {
        map.remove("seconds");
        map.remove("playouts_per_s");
    }
    v
}

/// Runs a command of the compiled engine with `--json` output and returns its last line.
fn run_json(engine: &Path, command: &str, argv: &[String]) -> Result<Value, Failure> {
    let output = Command::new(engine)
        .arg(command)
        .args(argv)
        .output()
        .map_err(|e| Failure::new(format!("cannot run {}: {e}", engine.display())))?;
    if !output.status.success() {
        return Err(Failure::new(format!(
            "the compiled engine failed ({}): {}",
            output.status,
            String::from_utf8_lossy(&output.stderr).trim()
        )));
    }
    last_json(&output.stdout, "the compiled engine")
}

fn last_json(bytes: &[u8], who: &str) -> Result<Value, Failure> {
    let text = String::from_utf8_lossy(bytes);
    let line = text.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or("");
    serde_json::from_str(line).map_err(|e| Failure::new(format!("{who} printed no JSON line ({e}): {line}")))
}

fn field<T: serde::de::DeserializeOwned>(v: &Value, name: &str) -> Result<T, Failure> {
    v.get(name)
        .cloned()
        .and_then(|x| serde_json::from_value(x).ok())
        .ok_or_else(|| Failure::new(format!("missing or malformed field '{name}' in {v}")))
}

#[cfg(test)]
mod tests {
    use super::ratio;

    #[test]
    fn a_ratio_needs_two_measured_rates() {
        assert_eq!(ratio(3.0, 2.0), "1.50x");
        assert!(ratio(0.0, 2.0).starts_with("n/a"));
        assert!(ratio(3.0, 0.0).starts_with("n/a"));
        assert!(ratio(f64::NAN, 1.0).starts_with("n/a"));
    }
}
