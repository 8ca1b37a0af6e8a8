//! `rbg bench --suite DIR`: every game of a directory on each engine asked for, against the
//! reference speed table (`reference-speed.csv`: the C++ compiler rbg2cpp, the C++ interpreter
//! rbggamemanager, Regular Games).
//!
//! For each game and engine: perft at the reference table's depth (or, when the game is not in
//! the table or that depth would take far too long, the deepest depth expected to take about a
//! second, and for a game in the table one of the reference depth's parity, so that both trees
//! end on the same kind of ply), flat Monte Carlo for S seconds with and without monotonic-class move caching, the
//! compile time of the compiled engine, and the peak memory of the measuring processes.
//!
//! # Like for like
//!
//! rbg2cpp's flat Monte Carlo figures come from its simulation driver, which caches the moves of
//! monotonic classes where a game has them (`monotonic_classes=N` in `reference-mc.csv`, read
//! from beside the speed table). So the headline MC ratio against a reference compares our figure
//! with caching where the reference cached and without it elsewhere; both plain ratios are kept
//! in the CSV. The interpreters' figures (rbggamemanager, Regular Games) use no caching.
//!
//! # Measuring in child processes
//!
//! Every measurement runs in a child process: `rbg perft|mc FILE --json` for the interpreter,
//! the compiled engine's own binary for the compiled one. Its peak resident set comes from
//! `getrusage(RUSAGE_CHILDREN)`, which is a running maximum over all the children a process has
//! reaped; so each measurement is started through a fresh `rbg measure-child` wrapper whose only
//! child is the measurement, and the wrapper reports that figure (and enforces a time limit).
//! The suite itself never reads its own `RUSAGE_CHILDREN`. On systems without `getrusage` the
//! memory column stays empty.

use std::collections::HashMap;
use std::ffi::OsString;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::compile::{build_engine, CompileFlags};
use crate::Failure;

/// The options of `rbg bench --suite` (besides `--seconds`, shared with `rbg bench FILE`).
#[derive(clap::Args, Clone, Debug)]
pub struct SuiteArgs {
    /// Benchmark every .rbg game under this directory (recursively) instead of one game.
    #[arg(long, value_name = "DIR", conflicts_with = "depth")]
    pub suite: Option<PathBuf>,
    /// With --suite: the engines to measure, separated by commas.
    #[arg(long, value_enum, value_delimiter = ',')]
    pub engines: Vec<SuiteEngine>,
    /// With --suite: only these games (paths below DIR without .rbg, e.g. chess or
    /// nsplit/amazons_nsplit), separated by commas, measured in this order.
    #[arg(long, value_delimiter = ',')]
    pub games: Vec<String>,
    /// With --suite: start no new game after this many minutes; the games left are listed as
    /// not measured, and the outputs are written for the games measured.
    #[arg(long, value_name = "MINUTES")]
    pub stop_after: Option<f64>,
    /// With --suite: write one CSV row per game and engine with every figure to this file.
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,
    /// With --suite: write the results as Markdown tables to this file.
    #[arg(long, value_name = "FILE")]
    pub markdown: Option<PathBuf>,
    /// With --suite: the reference speed table [default: DIR/../conformance/reference-speed.csv
    /// if it exists].
    #[arg(long, value_name = "FILE")]
    pub reference: Option<PathBuf>,
    /// With --suite: rebuild every compiled engine in a temporary cache (deleted afterwards), so
    /// compile times are not cache hits. The first build then also compiles the dependencies.
    #[arg(long)]
    pub fresh: bool,
    /// With --suite: measure nothing; take the figures from this CSV of an earlier run (as
    /// --csv writes it) and write the Markdown, the summary and the README section from them
    /// with the current reference tables.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["csv", "fresh", "stop_after"])]
    pub from_csv: Option<PathBuf>,
    /// With --suite: rewrite the part of this Markdown file between the lines
    /// `<!-- bench-suite:begin -->` and `<!-- bench-suite:end -->` (the README's speed summary).
    #[arg(long, value_name = "FILE")]
    pub readme: Option<PathBuf>,
}

impl SuiteArgs {
    /// The first suite-only option given, for the error of `rbg bench FILE` with it (checked
    /// here rather than by clap's `requires`, which the flattened options do not trigger).
    pub fn suite_only_option(&self) -> Option<&'static str> {
        let given = [
            (!self.engines.is_empty(), "--engines"),
            (!self.games.is_empty(), "--games"),
            (self.stop_after.is_some(), "--stop-after"),
            (self.csv.is_some(), "--csv"),
            (self.markdown.is_some(), "--markdown"),
            (self.reference.is_some(), "--reference"),
            (self.fresh, "--fresh"),
            (self.from_csv.is_some(), "--from-csv"),
            (self.readme.is_some(), "--readme"),
        ];
        given.into_iter().find(|(on, _)| *on).map(|(_, flag)| flag)
    }
}

/// An engine the suite measures.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum SuiteEngine {
    #[value(alias = "interp")]
    Interpreter,
    Compiled,
}

impl SuiteEngine {
    fn name(self) -> &'static str {
        match self {
            SuiteEngine::Interpreter => "interpreter",
            SuiteEngine::Compiled => "compiled",
        }
    }

    /// The reference tool the headline ratio compares this engine with (the same kind of tool).
    fn headline_tool(self) -> &'static str {
        match self {
            SuiteEngine::Interpreter => "rbggamemanager",
            SuiteEngine::Compiled => "rbg2cpp",
        }
    }
}

/// The reference tools, in the order of the CSV's columns.
const TOOLS: [&str; 3] = ["rbg2cpp", "rbggamemanager", "rg"];

/// Flat Monte Carlo seconds when `--seconds` is not given.
const DEFAULT_MC_SECONDS: f64 = 2.0;
/// Probing goes on to the next depth while it is expected to take at most this long.
const PROBE_NEXT_SECONDS: f64 = 1.0;
/// The fallback depth may be expected to take up to this long ("about a second").
const ABOUT_A_SECOND: f64 = 2.0;
/// The reference depth is used unless it is expected to take longer than this.
const FAR_TOO_LONG_SECONDS: f64 = 20.0;
/// The deepest depth probed (games whose tree never ends and barely grows).
const MAX_PROBE_DEPTH: u32 = 40;
/// A probe gives up waiting for the next depth after this long (the estimate was wrong).
const PROBE_ROW_TIMEOUT: Duration = Duration::from_secs(30);
/// The first line of the wrapper's report on its standard error.
const PEAK_MARKER: &str = "rbg-measure-child: peak-rss-kib ";
/// Exit code of the wrapper when the measurement ran out of time (as `timeout(1)`).
const TIMEOUT_EXIT_CODE: u8 = 124;

// ---------------------------------------------------------------------------------------------
// The wrapper: `rbg measure-child --timeout-seconds T -- PROGRAM ARGS...`

/// The hidden `rbg measure-child` command: runs one program and reports its peak memory.
#[derive(clap::Args, Clone, Debug)]
pub struct MeasureArgs {
    /// Kill the program after this many seconds (exit code 124).
    #[arg(long)]
    pub timeout_seconds: f64,
    /// The program and its arguments.
    #[arg(required = true, trailing_var_arg = true, allow_hyphen_values = true)]
    pub command: Vec<OsString>,
}

/// Runs the program with this process's standard streams, then prints the peak resident set of
/// its only child (this process reaps no other) to standard error and exits with its code.
pub fn measure_child(args: &MeasureArgs) -> Result<(), Failure> {
    let limit = rbg_runner::seconds_limit(args.timeout_seconds).map_err(Failure::from_run)?;
    let (program, rest) = args.command.split_first().ok_or_else(|| Failure::new("no program to run"))?;
    let mut child = Command::new(program)
        .args(rest)
        .spawn()
        .map_err(|e| Failure::new(format!("cannot run {}: {e}", Path::new(program).display())))?;
    let start = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) if start.elapsed() >= limit => break None,
            Ok(None) => std::thread::sleep(Duration::from_millis(5)),
            Err(e) => return Err(Failure::new(format!("cannot wait for the measured program: {e}"))),
        }
    };
    let Some(status) = status else {
        // Kill the child we started (by its handle) and reap it.
        let _ = child.kill();
        let _ = child.wait();
        crate::say!("measurement timed out after {} s", args.timeout_seconds);
        return Err(Failure::with_code(TIMEOUT_EXIT_CODE));
    };
    if let Some(kib) = children_peak_rss_kib() {
        crate::say!("{PEAK_MARKER}{kib}");
    }
    match status.code() {
        Some(0) => Ok(()),
        Some(code) => Err(Failure::with_code(u8::try_from(code).unwrap_or(1).max(1))),
        None => Err(Failure::new(format!("the measured program was killed ({status})"))),
    }
}

/// The largest peak resident set of the reaped children, in KiB (Linux reports KiB).
#[cfg(unix)]
fn children_peak_rss_kib() -> Option<u64> {
    use nix::sys::resource::{getrusage, UsageWho};
    let usage = getrusage(UsageWho::RUSAGE_CHILDREN).ok()?;
    u64::try_from(usage.max_rss()).ok().filter(|&kib| kib > 0)
}

#[cfg(not(unix))]
fn children_peak_rss_kib() -> Option<u64> {
    None
}

// ---------------------------------------------------------------------------------------------
// Inputs: the games and the reference table

/// One row of the reference table.
#[derive(Clone, Debug)]
struct Reference {
    tool: String,
    perft_depth: u32,
    nodes_per_s: Option<f64>,
    playouts_per_s: Option<f64>,
    /// Whether the reference's Monte Carlo cached the moves of monotonic classes.
    cached_mc: bool,
}

/// The reference table by game name.
type References = HashMap<String, Vec<Reference>>;

/// The rows of a reference table below its header, with their line numbers (from 1).
fn data_lines(path: &Path) -> Result<Vec<(usize, String)>, Failure> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Failure::new(format!("cannot read the reference table {}: {e}", path.display())))?;
    let rows = text.lines().enumerate().skip(1).filter(|(_, line)| !line.trim().is_empty());
    Ok(rows.map(|(i, line)| (i + 1, line.to_string())).collect())
}

fn malformed(path: &Path, number: usize, line: &str) -> Failure {
    Failure::new(format!("{}:{number}: malformed reference row: {line}", path.display()))
}

fn load_references(path: &Path) -> Result<References, Failure> {
    let mut table = References::new();
    for (number, line) in data_lines(path)? {
        let bad = || malformed(path, number, &line);
        let fields: Vec<&str> = line.split(',').map(str::trim).collect();
        let [game, tool, depth, nodes, playouts] = fields[..] else { return Err(bad()) };
        let rate = |s: &str| -> Result<Option<f64>, Failure> {
            if s.is_empty() {
                return Ok(None);
            }
            s.parse::<f64>().ok().filter(|r| r.is_finite() && *r >= 0.0).map(Some).ok_or_else(bad)
        };
        let reference = Reference {
            tool: tool.to_string(),
            perft_depth: depth.parse().map_err(|_| bad())?,
            nodes_per_s: rate(nodes)?,
            playouts_per_s: rate(playouts)?,
            cached_mc: false,
        };
        table.entry(game.to_string()).or_default().push(reference);
    }
    let mc_table = path.with_file_name("reference-mc.csv");
    if mc_table.is_file() {
        for game in games_with_cached_mc(&mc_table)? {
            for reference in table.get_mut(&game).into_iter().flatten().filter(|r| r.tool == "rbg2cpp") {
                reference.cached_mc = true;
            }
        }
    }
    Ok(table)
}

/// The games of rbg2cpp's Monte Carlo table (`game,seconds,playouts,playouts_per_s,avg_depth,extra`)
/// whose runs cached monotonic classes: `monotonic_classes=N` with N > 0 in `extra`.
fn games_with_cached_mc(path: &Path) -> Result<Vec<String>, Failure> {
    let mut games = Vec::new();
    for (number, line) in data_lines(path)? {
        let Some((game, rest)) = line.split_once(',') else { return Err(malformed(path, number, &line)) };
        let classes = rest
            .split([',', ';'])
            .find_map(|field| field.trim().strip_prefix("monotonic_classes="))
            .and_then(|n| n.parse::<u32>().ok());
        if classes.is_some_and(|n| n > 0) {
            games.push(game.trim().to_string());
        }
    }
    Ok(games)
}

/// A game file of the suite; `name` is its path below the suite's directory without `.rbg`,
/// with `/` between directories, as in the reference table (`chess`, `nsplit/amazons_nsplit`).
#[derive(Clone, Debug)]
struct GameFile {
    name: String,
    path: PathBuf,
}

fn find_games(dir: &Path, only: &[String]) -> Result<Vec<GameFile>, Failure> {
    if !dir.is_dir() {
        return Err(Failure::new(format!("--suite {}: not a directory", dir.display())));
    }
    let mut games = Vec::new();
    collect_games(dir, dir, &mut games)?;
    games.sort_by(|a, b| (&a.name, &a.path).cmp(&(&b.name, &b.path)));
    if !only.is_empty() {
        let missing: Vec<&str> =
            only.iter().filter(|n| !games.iter().any(|g| &g.name == *n)).map(String::as_str).collect();
        if !missing.is_empty() {
            return Err(Failure::new(format!(
                "--games: no game named {} under {}",
                missing.join(", "),
                dir.display()
            )));
        }
        // The order given (e.g. the most wanted games first, with --stop-after).
        games = only.iter().flat_map(|n| games.iter().filter(move |g| &g.name == n).cloned()).collect();
        games.dedup_by(|a, b| a.path == b.path);
    }
    if games.is_empty() {
        return Err(Failure::new(format!("--suite {}: no .rbg game found", dir.display())));
    }
    Ok(games)
}

fn collect_games(root: &Path, dir: &Path, games: &mut Vec<GameFile>) -> Result<(), Failure> {
    let entries =
        std::fs::read_dir(dir).map_err(|e| Failure::new(format!("cannot read {}: {e}", dir.display())))?;
    for entry in entries {
        let path = entry.map_err(|e| Failure::new(format!("cannot read {}: {e}", dir.display())))?.path();
        if path.is_dir() {
            collect_games(root, &path, games)?;
        } else if path.extension().is_some_and(|e| e == "rbg") {
            let relative = path.strip_prefix(root).unwrap_or(&path).with_extension("");
            let parts: Vec<String> =
                relative.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
            games.push(GameFile { name: parts.join("/"), path });
        }
    }
    Ok(())
}

/// The reference depth for an engine: its headline tool's, else rbg2cpp's, else any tool's.
fn reference_depth(references: &[Reference], engine: SuiteEngine) -> Option<u32> {
    let of = |tool: &str| references.iter().find(|r| r.tool == tool).map(|r| r.perft_depth);
    of(engine.headline_tool()).or_else(|| of("rbg2cpp")).or_else(|| references.first().map(|r| r.perft_depth))
}

// ---------------------------------------------------------------------------------------------
// Running an engine

/// How to run one engine's perft/mc commands on one game.
struct EngineCommand {
    program: PathBuf,
    /// The game file for `rbg perft FILE`; a compiled engine's binary takes none.
    file: Option<PathBuf>,
}

impl EngineCommand {
    fn args(&self, command: &str, rest: &[String]) -> Vec<OsString> {
        let mut v = vec![OsString::from(command)];
        v.extend(self.file.iter().map(|f| f.as_os_str().to_owned()));
        v.extend(rest.iter().map(OsString::from));
        v
    }
}

/// One perft row as printed with `--json`.
#[derive(Clone, Copy, Debug)]
struct PerftRow {
    depth: u32,
    leaves: u64,
    nodes: u64,
    seconds: f64,
}

fn perft_row(v: &Value) -> Option<PerftRow> {
    let nodes = v.get("nodes")?.as_u64()?;
    let rate = v.get("nodes_per_s")?.as_f64()?;
    let ms = v.get("ms")?.as_f64()?;
    // `ms` is rounded to whole milliseconds; the rate gives the time of short runs better.
    let seconds = if rate > 0.0 { nodes as f64 / rate } else { ms / 1000.0 };
    Some(PerftRow {
        depth: u32::try_from(v.get("depth")?.as_u64()?).ok()?,
        leaves: v.get("leaves")?.as_u64()?,
        nodes,
        seconds,
    })
}

/// Why a perft depth was chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum DepthRule {
    /// The reference table's depth.
    Reference,
    /// The deepest depth expected to take about a second.
    AboutASecond,
}

/// The depth to measure and its expected time.
#[derive(Clone, Copy, Debug)]
struct DepthChoice {
    depth: u32,
    rule: DepthRule,
    expected_seconds: f64,
}

/// Times perft at depth 1, 2, ... (one streaming child, killed once the next depth is expected
/// to take more than a second) and chooses the depth to measure.
fn choose_depth(engine: &EngineCommand, reference: Option<u32>) -> Result<DepthChoice, String> {
    let limit = reference.unwrap_or(MAX_PROBE_DEPTH).clamp(1, MAX_PROBE_DEPTH);
    let rows = probe_perft(engine, limit)?;
    Ok(depth_from_probe(&rows, reference))
}

/// Expected growth of the work from one depth to the next, from the last two node counts.
fn growth(rows: &[PerftRow]) -> f64 {
    let last = rows.last().map_or(1, |r| r.nodes);
    let before = if rows.len() >= 2 { rows[rows.len() - 2].nodes } else { 1 };
    (last as f64 / before.max(1) as f64).max(1.0)
}

/// The probe stops after the last row when the tree has ended or the next depth is expected to
/// take more than [`PROBE_NEXT_SECONDS`].
fn probe_should_stop(rows: &[PerftRow]) -> bool {
    match rows.last() {
        None => false,
        Some(last) => last.leaves == 0 || last.seconds * growth(rows) > PROBE_NEXT_SECONDS,
    }
}

/// The choice rule (see the module docs), given the probe's rows (at least one).
fn depth_from_probe(rows: &[PerftRow], reference: Option<u32>) -> DepthChoice {
    let Some(last) = rows.last().copied() else {
        return DepthChoice { depth: 1, rule: DepthRule::AboutASecond, expected_seconds: 0.0 };
    };
    let next = last.seconds * growth(rows);
    if let Some(depth) = reference {
        let expected = match rows.iter().find(|r| r.depth == depth) {
            Some(row) => row.seconds,
            None => {
                last.seconds
                    * growth(rows).powi(i32::try_from(depth.saturating_sub(last.depth)).unwrap_or(i32::MAX))
            }
        };
        if expected <= FAR_TOO_LONG_SECONDS {
            return DepthChoice { depth, rule: DepthRule::Reference, expected_seconds: expected };
        }
    }
    // The tree ended: the deepest depth with leaves.
    if last.leaves == 0 {
        let deepest = rows.iter().rev().find(|r| r.leaves > 0).copied().unwrap_or(last);
        return DepthChoice {
            depth: deepest.depth,
            rule: DepthRule::AboutASecond,
            expected_seconds: deepest.seconds,
        };
    }
    let stopped_for_time = next > PROBE_NEXT_SECONDS;
    let choice = if stopped_for_time && next <= ABOUT_A_SECOND && last.depth < MAX_PROBE_DEPTH {
        DepthChoice { depth: last.depth + 1, rule: DepthRule::AboutASecond, expected_seconds: next }
    } else {
        DepthChoice { depth: last.depth, rule: DepthRule::AboutASecond, expected_seconds: last.seconds }
    };
    // Nodes per second depend on the kind of the last ply (a placement's leaves are cheaper than
    // a rotation's, a capture's dearer than a quiet move's): keep the reference depth's parity,
    // one depth shallower if need be (a probed row, so its time is known).
    match (reference, rows.iter().find(|r| r.depth + 1 == choice.depth)) {
        (Some(depth), Some(shallower)) if depth % 2 != choice.depth % 2 => DepthChoice {
            depth: shallower.depth,
            rule: DepthRule::AboutASecond,
            expected_seconds: shallower.seconds,
        },
        _ => choice,
    }
}

/// Runs `perft --depth limit --json` and reads its rows as they come, killing it when
/// [`probe_should_stop`] says so.
fn probe_perft(engine: &EngineCommand, limit: u32) -> Result<Vec<PerftRow>, String> {
    let argv = engine.args("perft", &["--depth".into(), limit.to_string(), "--json".into()]);
    let mut child = Command::new(&engine.program)
        .args(&argv)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run {}: {e}", engine.program.display()))?;
    let (stdout, stderr) = (child.stdout.take(), child.stderr.take());
    let (send, lines) = mpsc::channel();
    if let Some(stdout) = stdout {
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if send.send(line).is_err() {
                    break;
                }
            }
        });
    }
    let errors = std::thread::spawn(move || {
        let mut text = String::new();
        if let Some(mut stderr) = stderr {
            let _ = stderr.read_to_string(&mut text);
        }
        text
    });
    let mut rows = Vec::new();
    let mut timed_out = false;
    while !probe_should_stop(&rows) {
        match lines.recv_timeout(PROBE_ROW_TIMEOUT) {
            Ok(line) => rows.extend(serde_json::from_str(&line).ok().as_ref().and_then(perft_row)),
            Err(mpsc::RecvTimeoutError::Timeout) => {
                timed_out = true;
                break;
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
        }
    }
    // Stop the probe we started (a no-op when it has finished) and reap it.
    let _ = child.kill();
    let status = child.wait();
    let errors = errors.join().unwrap_or_default();
    if !rows.is_empty() {
        return Ok(rows);
    }
    if timed_out {
        return Err(format!("perft depth 1 took over {} s", PROBE_ROW_TIMEOUT.as_secs()));
    }
    let status = status.map(|s| s.to_string()).unwrap_or_else(|e| e.to_string());
    Err(format!("perft failed ({status}): {}", last_lines(&errors)))
}

/// The last lines of a child's error output, on one line, for a table cell.
fn last_lines(text: &str) -> String {
    let lines: Vec<&str> =
        text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with(PEAK_MARKER)).collect();
    let tail = &lines[lines.len().saturating_sub(2)..];
    if tail.is_empty() {
        "no message".into()
    } else {
        tail.join(" / ")
    }
}

/// A measurement's last JSON line and the peak memory of its process.
struct Measured {
    json: Value,
    peak_rss_kib: Option<u64>,
}

/// Runs one measurement through the `rbg measure-child` wrapper.
fn run_measured(engine: &EngineCommand, argv: &[OsString], timeout_seconds: f64) -> Result<Measured, String> {
    let rbg = std::env::current_exe().map_err(|e| format!("cannot find the rbg binary: {e}"))?;
    let output = Command::new(rbg)
        .arg("measure-child")
        .arg("--timeout-seconds")
        .arg(format!("{timeout_seconds:.0}"))
        .arg("--")
        .arg(&engine.program)
        .args(argv)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("cannot run the measurement: {e}"))?;
    let errors = String::from_utf8_lossy(&output.stderr);
    if output.status.code() == Some(i32::from(TIMEOUT_EXIT_CODE)) {
        return Err(format!("timed out after {timeout_seconds:.0} s"));
    }
    if !output.status.success() {
        return Err(format!("failed ({}): {}", output.status, last_lines(&errors)));
    }
    let peak_rss_kib =
        errors.lines().find_map(|l| l.strip_prefix(PEAK_MARKER)).and_then(|n| n.trim().parse().ok());
    let stdout = String::from_utf8_lossy(&output.stdout);
    let line = stdout.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or("");
    let json = serde_json::from_str(line).map_err(|_| format!("printed no JSON line: {line}"))?;
    Ok(Measured { json, peak_rss_kib })
}

// ---------------------------------------------------------------------------------------------
// One game on one engine

/// Everything measured for one game and engine; `None` where a step failed or did not run.
#[derive(Clone, Debug, Default)]
struct Row {
    game: String,
    engine: String,
    headline_tool: String,
    compile_seconds: Option<f64>,
    compile_cached: Option<bool>,
    depth: Option<DepthChoice>,
    perft: Option<PerftRow>,
    nodes_per_s: Option<f64>,
    /// Flat Monte Carlo without monotonic-class move caching (comparable with the reference).
    playouts_per_s: Option<f64>,
    /// The same with caching (our default).
    monotonic_playouts_per_s: Option<f64>,
    peak_rss_kib: Option<u64>,
    /// The machine's 1-minute load average when the row's measurements started (Linux): how
    /// much else was running, to judge the noise.
    load_average: Option<f64>,
    references: Vec<Reference>,
    errors: Vec<String>,
}

impl Row {
    fn reference(&self, tool: &str) -> Option<&Reference> {
        self.references.iter().find(|r| r.tool == tool)
    }

    fn perft_ratio(&self, tool: &str) -> Option<f64> {
        ratio(self.nodes_per_s, self.reference(tool)?.nodes_per_s)
    }

    /// Like for like: with caching where the reference cached (see the module's notes).
    fn mc_ratio(&self, tool: &str) -> Option<f64> {
        let reference = self.reference(tool)?;
        let ours = if reference.cached_mc { self.monotonic_playouts_per_s } else { self.playouts_per_s };
        ratio(ours, reference.playouts_per_s)
    }

    fn uncached_mc_ratio(&self, tool: &str) -> Option<f64> {
        ratio(self.playouts_per_s, self.reference(tool)?.playouts_per_s)
    }

    fn monotonic_mc_ratio(&self, tool: &str) -> Option<f64> {
        ratio(self.monotonic_playouts_per_s, self.reference(tool)?.playouts_per_s)
    }

    fn add_peak(&mut self, kib: Option<u64>) {
        self.peak_rss_kib = self.peak_rss_kib.max(kib);
    }
}

/// The 1-minute load average from `/proc/loadavg` (None elsewhere).
fn load_average() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/loadavg").ok()?;
    text.split_whitespace().next()?.parse().ok()
}

/// `ours / reference` when both are measured and positive.
fn ratio(ours: Option<f64>, reference: Option<f64>) -> Option<f64> {
    match (ours, reference) {
        (Some(a), Some(b)) if a > 0.0 && b > 0.0 && a.is_finite() && b.is_finite() => Some(a / b),
        _ => None,
    }
}

/// The settings every game is measured with.
struct Settings {
    seconds: f64,
    flags: CompileFlags,
    /// Start no game after this long.
    stop_after: Option<Duration>,
}

fn measure(
    game: &GameFile,
    engine: SuiteEngine,
    references: &[Reference],
    settings: &Settings,
    bar: &indicatif::ProgressBar,
) -> Row {
    let mut row = Row {
        game: game.name.clone(),
        engine: engine.name().into(),
        headline_tool: engine.headline_tool().into(),
        references: references.to_vec(),
        ..Row::default()
    };
    row.load_average = load_average();
    let command = match engine {
        SuiteEngine::Interpreter => match std::env::current_exe() {
            Ok(program) => EngineCommand { program, file: Some(game.path.clone()) },
            Err(e) => {
                row.errors.push(format!("cannot find the rbg binary: {e}"));
                return row;
            }
        },
        SuiteEngine::Compiled => match compile(game, settings, bar, &mut row) {
            Some(command) => command,
            None => return row,
        },
    };
    measure_perft(&command, engine, &mut row);
    measure_mc(&command, settings.seconds, &mut row);
    row
}

/// Builds the compiled engine, recording the time and whether the cache already held it.
fn compile(
    game: &GameFile,
    settings: &Settings,
    bar: &indicatif::ProgressBar,
    row: &mut Row,
) -> Option<EngineCommand> {
    let clock = Instant::now();
    // cargo writes to the terminal: hide the bar meanwhile.
    let built = bar.suspend(|| build_engine(&game.path, &settings.flags));
    match built {
        Ok(engine) => {
            row.compile_seconds = Some(clock.elapsed().as_secs_f64());
            row.compile_cached = Some(engine.cached);
            Some(EngineCommand { program: engine.binary, file: None })
        }
        Err(failure) => {
            row.errors.push(format!("compile error: {}", failure_text(&failure)));
            None
        }
    }
}

fn failure_text(failure: &Failure) -> String {
    failure.message().unwrap_or("see the messages above").to_string()
}

fn measure_perft(command: &EngineCommand, engine: SuiteEngine, row: &mut Row) {
    let choice = match choose_depth(command, reference_depth(&row.references, engine)) {
        Ok(choice) => choice,
        Err(e) => {
            row.errors.push(format!("perft: {e}"));
            return;
        }
    };
    row.depth = Some(choice);
    let argv = command
        .args("perft", &["--depth".into(), choice.depth.to_string(), "--json".into(), "--only-last".into()]);
    let timeout = (choice.expected_seconds * 4.0).max(120.0);
    match run_measured(command, &argv, timeout) {
        Ok(measured) => match perft_row(&measured.json) {
            Some(perft) => {
                row.perft = Some(perft);
                row.nodes_per_s = (perft.seconds > 0.0).then(|| perft.nodes as f64 / perft.seconds);
                row.add_peak(measured.peak_rss_kib);
            }
            None => row.errors.push(format!("perft: malformed output {}", measured.json)),
        },
        Err(e) => row.errors.push(format!("perft depth {}: {e}", choice.depth)),
    }
}

fn measure_mc(command: &EngineCommand, seconds: f64, row: &mut Row) {
    let timeout = 60.0 + 4.0 * seconds;
    for monotonic in [false, true] {
        let mut rest = vec!["--seconds".to_string(), seconds.to_string(), "--json".into()];
        if !monotonic {
            rest.push("--no-monotonic".into());
        }
        let label = if monotonic { "mc" } else { "mc --no-monotonic" };
        match run_measured(command, &command.args("mc", &rest), timeout) {
            Ok(measured) => match measured.json.get("playouts_per_s").and_then(Value::as_f64) {
                Some(rate) => {
                    if monotonic {
                        row.monotonic_playouts_per_s = Some(rate);
                    } else {
                        row.playouts_per_s = Some(rate);
                    }
                    row.add_peak(measured.peak_rss_kib);
                }
                None => row.errors.push(format!("{label}: malformed output {}", measured.json)),
            },
            Err(e) => row.errors.push(format!("{label}: {e}")),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The command

/// `rbg bench --suite DIR`.
pub fn run(args: &SuiteArgs, dir: &Path, seconds: Option<f64>, flags: &CompileFlags) -> Result<(), Failure> {
    let seconds = seconds.unwrap_or(DEFAULT_MC_SECONDS);
    rbg_runner::seconds_limit(seconds).map_err(Failure::from_run)?;
    if seconds <= 0.0 {
        return Err(Failure::new("--seconds must be above 0 for the suite's Monte Carlo"));
    }
    if flags.compile_options() != Default::default() || flags.interp_options() != Default::default() {
        return Err(Failure::new("--suite measures the default engines: give no switches with it"));
    }
    let stop_after =
        match args.stop_after {
            Some(minutes) => Some(rbg_runner::seconds_limit(minutes * 60.0).map_err(|_| {
                Failure::new(format!("--stop-after {minutes}: give a number of minutes >= 0"))
            })?),
            None => None,
        };
    let games = find_games(dir, &args.games)?;
    let references = match reference_path(args, dir) {
        Some(path) => load_references(&path)?,
        None => {
            crate::say!("rbg bench: no reference table found (give --reference FILE): ratios left empty");
            References::new()
        }
    };
    let mut engines = if args.engines.is_empty() {
        vec![SuiteEngine::Interpreter, SuiteEngine::Compiled]
    } else {
        args.engines.clone()
    };
    engines.sort();
    engines.dedup();
    // Open the output files first, so a bad path fails before an hour of measuring.
    let mut csv = args.csv.as_deref().map(create_file).transpose()?;
    let mut markdown = args.markdown.as_deref().map(create_file).transpose()?;
    let fresh_cache =
        args.fresh.then(|| std::env::temp_dir().join(format!("rbg-bench-fresh-{}", std::process::id())));
    if let Some(cache) = &fresh_cache {
        // Read by `rbg::compile::cache_dir`; set before any thread starts.
        std::env::set_var("RBG_CACHE_DIR", cache);
    }
    let (rows, not_measured) = match &args.from_csv {
        Some(path) => rows_from_csv(path, &games, &engines, &references)?,
        None => {
            let settings = Settings { seconds, flags: flags.clone(), stop_after };
            let rows = measure_all(&games, &engines, &references, &settings);
            if let Some(cache) = &fresh_cache {
                let _ = std::fs::remove_dir_all(cache);
            }
            rows?
        }
    };
    let summary = summarize(&rows, &engines);
    print_summary(&summary)?;
    if let Some((file, path)) = csv.as_mut() {
        write_to(file, path, &csv_text(&rows))?;
    }
    if let Some((file, path)) = markdown.as_mut() {
        write_to(file, path, &markdown_text(&rows, &engines, &summary, seconds, &not_measured))?;
    }
    if let Some(path) = &args.readme {
        let full = args.markdown.as_deref();
        rewrite_readme(path, &readme_text(&rows, &engines, &summary, full, &not_measured))?;
    }
    Ok(())
}

fn reference_path(args: &SuiteArgs, dir: &Path) -> Option<PathBuf> {
    if let Some(path) = &args.reference {
        return Some(path.clone());
    }
    let beside = dir.join("..").join("conformance").join("reference-speed.csv");
    beside.is_file().then_some(beside)
}

fn create_file(path: &Path) -> Result<(std::fs::File, PathBuf), Failure> {
    std::fs::File::create(path)
        .map(|f| (f, path.to_path_buf()))
        .map_err(|e| Failure::new(format!("cannot create {}: {e}", path.display())))
}

fn write_to(file: &mut std::fs::File, path: &Path, text: &str) -> Result<(), Failure> {
    file.write_all(text.as_bytes()).map_err(|e| Failure::new(format!("cannot write {}: {e}", path.display())))
}

/// Measures every game on every engine, printing each row as it comes; also returns the games
/// left out by `--stop-after`.
fn measure_all(
    games: &[GameFile],
    engines: &[SuiteEngine],
    references: &References,
    settings: &Settings,
) -> Result<(Vec<Row>, Vec<String>), Failure> {
    let bar = progress_bar((games.len() * engines.len()) as u64);
    print_line(&bar, &table_header())?;
    let mut rows = Vec::new();
    let mut not_measured = Vec::new();
    let started = Instant::now();
    for (done, game) in games.iter().enumerate() {
        if settings.stop_after.is_some_and(|limit| started.elapsed() >= limit) {
            not_measured = games[done..].iter().map(|g| g.name.clone()).collect();
            let line = format!(
                "--stop-after reached: not measured ({}): {}",
                not_measured.len(),
                not_measured.join(", ")
            );
            print_line(&bar, &line)?;
            break;
        }
        let game_references = references.get(&game.name).map(Vec::as_slice).unwrap_or(&[]);
        for &engine in engines {
            bar.set_message(format!("{} ({})", game.name, engine.name()));
            let row = measure(game, engine, game_references, settings, &bar);
            print_line(&bar, &table_line(&row))?;
            rows.push(row);
            bar.inc(1);
        }
    }
    bar.finish_and_clear();
    Ok((rows, not_measured))
}

fn progress_bar(len: u64) -> indicatif::ProgressBar {
    use std::io::IsTerminal as _;
    let bar = if std::io::stderr().is_terminal() {
        indicatif::ProgressBar::new(len)
    } else {
        indicatif::ProgressBar::hidden()
    };
    let style = indicatif::ProgressStyle::with_template("[{elapsed_precise}] {wide_bar} {pos}/{len} {msg}")
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar());
    bar.set_style(style);
    bar
}

fn print_line(bar: &indicatif::ProgressBar, line: &str) -> Result<(), Failure> {
    bar.suspend(|| writeln!(std::io::stdout().lock(), "{line}")).map_err(Failure::output)
}

// ---------------------------------------------------------------------------------------------
// Reading an earlier run back

/// The rows of an earlier run's CSV for the games and engines asked for, with the current
/// reference tables attached (so ratios follow the tables, not the file's ratio columns), and
/// the games that have no row (not measured by that run).
fn rows_from_csv(
    path: &Path,
    games: &[GameFile],
    engines: &[SuiteEngine],
    references: &References,
) -> Result<(Vec<Row>, Vec<String>), Failure> {
    let cannot = |e: &dyn std::fmt::Display| Failure::new(format!("{}: {e}", path.display()));
    let mut reader = csv::Reader::from_path(path).map_err(|e| cannot(&e))?;
    let header = reader.headers().map_err(|e| cannot(&e))?.clone();
    let wanted: HashMap<&str, &GameFile> = games.iter().map(|g| (g.name.as_str(), g)).collect();
    // In the file's order (the order the run measured in).
    let mut rows: Vec<Row> = Vec::new();
    for record in reader.records() {
        let record = record.map_err(|e| cannot(&e))?;
        let line = record.position().map_or(0, |p| p.line());
        let mut row = row_from_record(&header, &record)
            .map_err(|e| Failure::new(format!("{}:{line}: {e}", path.display())))?;
        let Some(engine) = engines.iter().find(|e| e.name() == row.engine) else { continue };
        if !wanted.contains_key(row.game.as_str()) {
            continue;
        }
        row.references = references.get(&row.game).cloned().unwrap_or_default();
        row.headline_tool = engine.headline_tool().to_string();
        rows.retain(|r| (&r.game, &r.engine) != (&row.game, &row.engine));
        rows.push(row);
    }
    let not_measured =
        games.iter().filter(|g| !rows.iter().any(|r| r.game == g.name)).map(|g| g.name.clone()).collect();
    if rows.is_empty() {
        return Err(Failure::new(format!("{}: no row for the games and engines asked for", path.display())));
    }
    Ok((rows, not_measured))
}

fn row_from_record(header: &csv::StringRecord, record: &csv::StringRecord) -> Result<Row, String> {
    let field = |name: &str| -> Result<&str, String> {
        let i = header.iter().position(|h| h == name).ok_or_else(|| format!("no column {name}"))?;
        Ok(record.get(i).unwrap_or(""))
    };
    fn parsed<T: std::str::FromStr>(name: &str, text: &str) -> Result<Option<T>, String> {
        if text.is_empty() {
            return Ok(None);
        }
        text.parse().map(Some).map_err(|_| format!("column {name}: not a number: {text}"))
    }
    let number = |name: &str| -> Result<Option<f64>, String> {
        parsed::<f64>(name, field(name)?).map(|x| x.filter(|x| x.is_finite() && *x >= 0.0))
    };
    let depth = match (parsed::<u32>("perft_depth", field("perft_depth")?)?, field("perft_depth_rule")?) {
        (Some(depth), "reference") => {
            Some(DepthChoice { depth, rule: DepthRule::Reference, expected_seconds: 0.0 })
        }
        (Some(depth), _) => Some(DepthChoice { depth, rule: DepthRule::AboutASecond, expected_seconds: 0.0 }),
        (None, _) => None,
    };
    let perft = match (
        depth,
        parsed::<u64>("perft_leaves", field("perft_leaves")?)?,
        parsed::<u64>("perft_nodes", field("perft_nodes")?)?,
        number("perft_seconds")?,
    ) {
        (Some(d), Some(leaves), Some(nodes), Some(seconds)) => {
            Some(PerftRow { depth: d.depth, leaves, nodes, seconds })
        }
        _ => None,
    };
    let errors = field("errors")?;
    Ok(Row {
        game: field("game")?.to_string(),
        engine: field("engine")?.to_string(),
        headline_tool: String::new(),
        compile_seconds: number("compile_seconds")?,
        compile_cached: parsed::<bool>("compile_cached", field("compile_cached")?)?,
        depth,
        perft,
        nodes_per_s: number("perft_nodes_per_s")?,
        playouts_per_s: number("mc_playouts_per_s")?,
        monotonic_playouts_per_s: number("mc_monotonic_playouts_per_s")?,
        peak_rss_kib: parsed::<u64>("peak_rss_kib", field("peak_rss_kib")?)?,
        load_average: number("load_average_1min")?,
        references: Vec::new(),
        errors: if errors.is_empty() { Vec::new() } else { errors.split("; ").map(String::from).collect() },
    })
}

// ---------------------------------------------------------------------------------------------
// Output

fn table_header() -> String {
    format!(
        "{:<28} {:<11} {:>9} {:>13} {:>8} {:>11} {:>8} {:>11} {:>13} {:>9} {:>5}  {}",
        "game",
        "engine",
        "depth",
        "nodes/s",
        "x ref",
        "playouts/s",
        "x ref",
        "monotonic",
        "compile",
        "peak MiB",
        "load",
        "notes"
    )
}

fn table_line(row: &Row) -> String {
    format!(
        "{:<28} {:<11} {:>9} {:>13} {:>8} {:>11} {:>8} {:>11} {:>13} {:>9} {:>5}  {}",
        row.game,
        row.engine,
        depth_cell(row),
        rate_cell(row.nodes_per_s, 0),
        ratio_cell(row.perft_ratio(&row.headline_tool)),
        rate_cell(row.playouts_per_s, 1),
        ratio_cell(row.mc_ratio(&row.headline_tool)),
        rate_cell(row.monotonic_playouts_per_s, 1),
        compile_cell(row),
        row.peak_rss_kib.map_or("-".into(), |k| format!("{:.1}", k as f64 / 1024.0)),
        rate_cell(row.load_average, 1),
        row.errors.join("; ")
    )
}

fn depth_cell(row: &Row) -> String {
    match row.depth {
        Some(DepthChoice { depth, rule: DepthRule::Reference, .. }) => format!("{depth}"),
        Some(DepthChoice { depth, rule: DepthRule::AboutASecond, .. }) => format!("{depth} (1s)"),
        None => "-".into(),
    }
}

fn rate_cell(rate: Option<f64>, decimals: usize) -> String {
    rate.map_or("-".into(), |r| format!("{r:.decimals$}"))
}

fn ratio_cell(ratio: Option<f64>) -> String {
    ratio.map_or("-".into(), |r| format!("{r:.2}x"))
}

fn compile_cell(row: &Row) -> String {
    match (row.compile_seconds, row.compile_cached) {
        (Some(_), Some(true)) => "cached".into(),
        (Some(s), _) => format!("{s:.1} s"),
        _ => "-".into(),
    }
}

/// The figures a summary is taken over.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Figure {
    Perft,
    Mc,
    UncachedMc,
    MonotonicMc,
}

impl Figure {
    fn of(self, row: &Row, tool: &str) -> Option<f64> {
        match self {
            Figure::Perft => row.perft_ratio(tool),
            Figure::Mc => row.mc_ratio(tool),
            Figure::UncachedMc => row.uncached_mc_ratio(tool),
            Figure::MonotonicMc => row.monotonic_mc_ratio(tool),
        }
    }

    fn label(self) -> &'static str {
        match self {
            Figure::Perft => "perft nodes/s",
            Figure::Mc => "MC playouts/s (like for like)",
            Figure::UncachedMc => "MC playouts/s (ours without caching)",
            Figure::MonotonicMc => "MC playouts/s (ours with caching)",
        }
    }
}

/// One ratio column's geometric mean over the games measured and the games below 1.0x.
#[derive(Clone, Debug)]
struct Summary {
    engine: SuiteEngine,
    tool: &'static str,
    figure: Figure,
    games: usize,
    geometric_mean: Option<f64>,
    below_one: Vec<String>,
}

fn summarize(rows: &[Row], engines: &[SuiteEngine]) -> Vec<Summary> {
    let mut out = Vec::new();
    for &engine in engines {
        for tool in TOOLS {
            for figure in [Figure::Perft, Figure::Mc, Figure::UncachedMc, Figure::MonotonicMc] {
                let ratios: Vec<(&str, f64)> = rows
                    .iter()
                    .filter(|r| r.engine == engine.name())
                    .filter_map(|r| figure.of(r, tool).map(|x| (r.game.as_str(), x)))
                    .collect();
                out.push(Summary {
                    engine,
                    tool,
                    figure,
                    games: ratios.len(),
                    geometric_mean: geometric_mean(ratios.iter().map(|(_, x)| *x)),
                    below_one: ratios.iter().filter(|(_, x)| *x < 1.0).map(|(g, _)| g.to_string()).collect(),
                });
            }
        }
    }
    out
}

fn geometric_mean(values: impl Iterator<Item = f64>) -> Option<f64> {
    let (sum, n) =
        values.filter(|x| *x > 0.0 && x.is_finite()).fold((0.0, 0usize), |(s, n), x| (s + x.ln(), n + 1));
    (n > 0).then(|| (sum / n as f64).exp())
}

fn print_summary(summary: &[Summary]) -> Result<(), Failure> {
    let mut text = String::from("\ngeometric means of the ratios (games measured; games below 1.0x)\n");
    for s in summary.iter().filter(|s| s.games > 0) {
        text.push_str(&format!(
            "{:<11} / {:<14} {:<38} {:>7} over {:>2} games; {} below 1.0x{}\n",
            s.engine.name(),
            s.tool,
            s.figure.label(),
            ratio_cell(s.geometric_mean),
            s.games,
            s.below_one.len(),
            if s.below_one.is_empty() { String::new() } else { format!(": {}", s.below_one.join(", ")) }
        ));
    }
    write!(std::io::stdout().lock(), "{text}").map_err(Failure::output)
}

/// A CSV field, quoted when it holds a separator, a quote or a line break.
fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}

/// Full precision (shortest round-trip form), so ratios can be recomputed from the file.
fn number<T: ToString>(x: Option<T>) -> String {
    x.map_or(String::new(), |x| x.to_string())
}

fn csv_text(rows: &[Row]) -> String {
    let mut header: Vec<String> = [
        "game",
        "engine",
        "status",
        "compile_seconds",
        "compile_cached",
        "perft_depth",
        "perft_depth_rule",
        "perft_leaves",
        "perft_nodes",
        "perft_seconds",
        "perft_nodes_per_s",
        "mc_playouts_per_s",
        "mc_monotonic_playouts_per_s",
        "peak_rss_kib",
        "load_average_1min",
        "headline_tool",
        "headline_perft_ratio",
        "headline_mc_ratio",
    ]
    .map(String::from)
    .to_vec();
    for tool in TOOLS {
        for column in [
            "perft_depth",
            "perft_nodes_per_s",
            "mc_playouts_per_s",
            "perft_ratio",
            "mc_ratio",
            "mc_uncached_ratio",
            "mc_monotonic_ratio",
            "mc_reference_cached",
        ] {
            header.push(format!("{tool}_{column}"));
        }
    }
    header.push("errors".into());
    let mut text = header.join(",") + "\n";
    for row in rows {
        text.push_str(&csv_row(row).join(","));
        text.push('\n');
    }
    text
}

fn csv_row(row: &Row) -> Vec<String> {
    let status = if row.errors.is_empty() { "ok" } else { "failed" };
    let rule = row.depth.map(|d| match d.rule {
        DepthRule::Reference => "reference",
        DepthRule::AboutASecond => "about_a_second",
    });
    let mut fields = vec![
        csv_field(&row.game),
        row.engine.clone(),
        status.into(),
        number(row.compile_seconds),
        number(row.compile_cached),
        number(row.depth.map(|d| d.depth)),
        number(rule),
        number(row.perft.map(|p| p.leaves)),
        number(row.perft.map(|p| p.nodes)),
        number(row.perft.map(|p| p.seconds)),
        number(row.nodes_per_s),
        number(row.playouts_per_s),
        number(row.monotonic_playouts_per_s),
        number(row.peak_rss_kib),
        number(row.load_average),
        row.headline_tool.clone(),
        number(row.perft_ratio(&row.headline_tool)),
        number(row.mc_ratio(&row.headline_tool)),
    ];
    for tool in TOOLS {
        let reference = row.reference(tool);
        fields.extend([
            number(reference.map(|r| r.perft_depth)),
            number(reference.and_then(|r| r.nodes_per_s)),
            number(reference.and_then(|r| r.playouts_per_s)),
            number(row.perft_ratio(tool)),
            number(row.mc_ratio(tool)),
            number(row.uncached_mc_ratio(tool)),
            number(row.monotonic_mc_ratio(tool)),
            number(reference.map(|r| r.cached_mc)),
        ]);
    }
    fields.push(csv_field(&row.errors.join("; ")));
    fields
}

fn markdown_text(
    rows: &[Row],
    engines: &[SuiteEngine],
    summary: &[Summary],
    seconds: f64,
    not_measured: &[String],
) -> String {
    let mut text = format!(
        "Produced by `rbg bench --suite` (single thread; flat Monte Carlo {seconds} s per figure). \
         Depth: the reference table's, or \"(1s)\" for the deepest depth expected to take about a \
         second. MC \"playouts/s\" is ours without monotonic-class caching and \"monotonic\" ours \
         with it; the MC ratio is like for like: rbg2cpp's figures come from its simulation \
         driver, which caches where a game has monotonic classes (marked *), and there the ratio \
         uses our cached figure. Measured on a shared 2-core machine: \
         noisy; \"load\" is the 1-minute load average when the game's measurements began.\n"
    );
    for &engine in engines {
        let tool = engine.headline_tool();
        text.push_str(&format!(
            "\n**{}** against {tool}:\n\n| game | depth | nodes/s | {tool} | ratio | playouts/s | {tool} | ratio | playouts/s monotonic | compile | peak memory | load | notes |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|\n",
            capitalised(engine.name())
        ));
        for row in rows.iter().filter(|r| r.engine == engine.name()) {
            let reference = row.reference(tool);
            text.push_str(&format!(
                "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
                row.game,
                depth_cell(row),
                rate_cell(row.nodes_per_s, 0),
                rate_cell(reference.and_then(|r| r.nodes_per_s), 0),
                ratio_cell(row.perft_ratio(tool)),
                rate_cell(row.playouts_per_s, 1),
                rate_cell(reference.and_then(|r| r.playouts_per_s), 1),
                ratio_cell(row.mc_ratio(tool))
                    + if reference.is_some_and(|r| r.cached_mc) { " *" } else { "" },
                rate_cell(row.monotonic_playouts_per_s, 1),
                if engine == SuiteEngine::Compiled { compile_cell(row) } else { "-".into() },
                row.peak_rss_kib.map_or("-".into(), |k| format!("{:.1} MiB", k as f64 / 1024.0)),
                rate_cell(row.load_average, 1),
                row.errors.join("; ").replace('|', "\\|")
            ));
        }
    }
    if !not_measured.is_empty() {
        text.push_str(&format!(
            "\nNot measured (the run's time limit): {} games: {}.\n",
            not_measured.len(),
            not_measured.join(", ")
        ));
    }
    text.push_str("\nGeometric means of the ratios over the games measured:\n\n");
    text.push_str(&summary_table(summary.iter().filter(|s| s.games > 0)));
    text
}

fn summary_table<'a>(summary: impl Iterator<Item = &'a Summary>) -> String {
    let mut text = String::from(
        "| engine | reference | figure | geometric mean | games | below 1.0x |\n|---|---|---|---|---|---|\n",
    );
    for s in summary {
        text.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} |\n",
            s.engine.name(),
            s.tool,
            s.figure.label(),
            ratio_cell(s.geometric_mean),
            s.games,
            if s.below_one.is_empty() {
                "0".into()
            } else {
                format!("{}: {}", s.below_one.len(), s.below_one.join(", "))
            }
        ));
    }
    text
}

/// The games of `cargo bench` and of the parallel and ceiling targets.
const BENCH_GAMES: [&str; 8] =
    ["breakthrough", "chess", "connect4", "englishDraughts", "go", "hex_9x9", "reversi", "amazons"];

const README_BEGIN: &str = "<!-- bench-suite:begin -->";
const README_END: &str = "<!-- bench-suite:end -->";

/// The README's speed summary: each engine against its own kind of reference tool (geometric
/// means, the games below 1.0x) and the eight bench games' figures.
fn readme_text(
    rows: &[Row],
    engines: &[SuiteEngine],
    summary: &[Summary],
    full: Option<&Path>,
    not_measured: &[String],
) -> String {
    let mut text = format!(
        "{README_BEGIN}\n<!-- Written by `rbg bench --suite ... --readme FILE`; edits between these markers are overwritten. -->\n\n"
    );
    let games =
        engines.iter().map(|&e| rows.iter().filter(|r| r.engine == e.name()).count()).max().unwrap_or(0);
    text.push_str(&format!(
        "`rbg bench --suite`, single thread, {games} games{}. Geometric means of our figure over the \
         reference tool's of the same kind (Monte Carlo like for like: with monotonic-class caching \
         where rbg2cpp's driver cached):\n\n",
        if not_measured.is_empty() {
            String::new()
        } else {
            format!(" ({} not measured)", not_measured.len())
        }
    ));
    let headline = summary.iter().filter(|s| s.games > 0 && s.tool == s.engine.headline_tool());
    text.push_str(&summary_table(headline.filter(|s| s.figure != Figure::MonotonicMc)));
    text.push_str("\nThe eight bench games (nodes/s at perft, playouts/s at flat Monte Carlo like for like; ratios to the reference tool):\n\n| game | engine | depth | nodes/s | ratio | playouts/s | ratio |\n|---|---|---|---|---|---|---|\n");
    for game in BENCH_GAMES {
        for row in rows.iter().filter(|r| r.game == game) {
            let cached = row.reference(&row.headline_tool).is_some_and(|r| r.cached_mc);
            let playouts = if cached { row.monotonic_playouts_per_s } else { row.playouts_per_s };
            text.push_str(&format!(
                "| {game} | {} (vs {}) | {} | {} | {} | {} | {} |\n",
                row.engine,
                row.headline_tool,
                depth_cell(row),
                rate_cell(row.nodes_per_s, 0),
                ratio_cell(row.perft_ratio(&row.headline_tool)),
                rate_cell(playouts, 1) + if cached { " *" } else { "" },
                ratio_cell(row.mc_ratio(&row.headline_tool)),
            ));
        }
    }
    text.push_str("\n\\* with monotonic-class caching, as rbg2cpp's figure.\n");
    if let Some(path) = full {
        let shown = path.to_string_lossy().replace('\\', "/");
        text.push_str(&format!("\nEvery game and figure: [`{shown}`]({shown}).\n"));
    }
    text.push_str(README_END);
    text
}

/// Replaces the marked section of `path` with `section` (which includes the markers).
fn rewrite_readme(path: &Path, section: &str) -> Result<(), Failure> {
    let old = std::fs::read_to_string(path)
        .map_err(|e| Failure::new(format!("--readme: cannot read {}: {e}", path.display())))?;
    let (Some(begin), Some(end)) = (old.find(README_BEGIN), old.find(README_END)) else {
        return Err(Failure::new(format!(
            "--readme: {} has no section between {README_BEGIN} and {README_END}",
            path.display()
        )));
    };
    if end < begin {
        return Err(Failure::new(format!(
            "--readme: {}: the end marker comes before the begin marker",
            path.display()
        )));
    }
    let new = format!("{}{section}{}", &old[..begin], &old[end + README_END.len()..]);
    std::fs::write(path, new)
        .map_err(|e| Failure::new(format!("--readme: cannot write {}: {e}", path.display())))
}

fn capitalised(word: &str) -> String {
    let mut chars = word.chars();
    chars.next().map_or(String::new(), |c| c.to_uppercase().chain(chars).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(depth: u32, leaves: u64, nodes: u64, seconds: f64) -> PerftRow {
        PerftRow { depth, leaves, nodes, seconds }
    }

    #[test]
    fn the_reference_depth_is_kept_when_affordable() {
        // Growth 10 per depth; depth 3 took 0.5 s, so depth 5 is expected at 50 s: too long.
        let rows = [row(1, 10, 11, 0.005), row(2, 100, 111, 0.05), row(3, 1000, 1111, 0.5)];
        let far = depth_from_probe(&rows, Some(5));
        assert_eq!(far.rule, DepthRule::AboutASecond);
        // Next depth expected at 0.5 * 1111/111 = 5 s > 2 s: stay at 3.
        assert_eq!(far.depth, 3);
        let near = depth_from_probe(&rows, Some(4));
        assert_eq!((near.depth, near.rule), (4, DepthRule::Reference));
        assert!((near.expected_seconds - 0.5 * 1111.0 / 111.0).abs() < 1e-9);
    }

    #[test]
    fn the_fallback_keeps_the_reference_depth_parity() {
        // As above, but the reference is at depth 6: depth 3 would end on the other kind of ply.
        let rows = [row(1, 10, 11, 0.005), row(2, 100, 111, 0.05), row(3, 1000, 1111, 0.5)];
        let choice = depth_from_probe(&rows, Some(6));
        assert_eq!((choice.depth, choice.rule), (2, DepthRule::AboutASecond));
        assert!((choice.expected_seconds - 0.05).abs() < 1e-12);
        // With only depth 1 probed there is nothing shallower: depth 1 stays.
        assert_eq!(depth_from_probe(&rows[..1], Some(1000)).depth, 1);
    }

    #[test]
    fn the_fallback_takes_a_next_depth_of_about_a_second() {
        // Growth 1.5: after 0.9 s the next depth is expected at 1.35 s, within "about a second".
        let rows = [row(1, 2, 2, 0.6), row(2, 3, 3, 0.9)];
        let choice = depth_from_probe(&rows, None);
        assert_eq!((choice.depth, choice.rule), (3, DepthRule::AboutASecond));
    }

    #[test]
    fn an_ended_tree_stops_at_its_deepest_leaves() {
        let rows = [row(1, 9, 10, 0.001), row(2, 72, 82, 0.001), row(3, 0, 82, 0.001)];
        assert!(probe_should_stop(&rows));
        assert_eq!(depth_from_probe(&rows, None).depth, 2);
    }

    #[test]
    fn geometric_means_and_ratios() {
        let mean = geometric_mean([2.0, 8.0].into_iter()).unwrap();
        assert!((mean - 4.0).abs() < 1e-12);
        assert_eq!(geometric_mean([0.0, f64::NAN].into_iter()), None);
        assert_eq!(ratio(Some(3.0), Some(0.0)), None);
        assert_eq!(ratio(Some(3.0), Some(2.0)), Some(1.5));
    }

    #[test]
    fn csv_fields_are_quoted_when_needed() {
        assert_eq!(csv_field("plain"), "plain");
        assert_eq!(csv_field("a, \"b\""), "\"a, \"\"b\"\"\"");
    }
}
