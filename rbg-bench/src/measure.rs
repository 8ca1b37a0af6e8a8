//! One game on one engine: the row of figures, and the loop over every game and engine.

use std::time::{Duration, Instant, SystemTime};

use serde_json::Value;

use crate::child::{run_measured, EngineCommand};
use crate::depth::{choose_depth, perft_row, DepthChoice, PerftRow};
use crate::inputs::{compile_reference, reference_depth, GameFile, Reference, References};
use crate::report::{table_header, table_line};
use crate::{Engine, Host, Progress, SuiteError};

/// Everything measured for one game and engine; `None` where a step failed or did not run.
#[derive(Clone, Debug, Default)]
pub(crate) struct Row {
    pub(crate) game: String,
    pub(crate) engine: String,
    pub(crate) headline_tool: String,
    pub(crate) compile_seconds: Option<f64>,
    pub(crate) compile_cached: Option<bool>,
    pub(crate) depth: Option<DepthChoice>,
    pub(crate) perft: Option<PerftRow>,
    pub(crate) nodes_per_s: Option<f64>,
    /// Flat Monte Carlo without monotonic-class move caching (comparable with the reference).
    pub(crate) playouts_per_s: Option<f64>,
    /// The same with caching (our default).
    pub(crate) monotonic_playouts_per_s: Option<f64>,
    pub(crate) peak_rss_kib: Option<u64>,
    /// The machine's 1-minute load average when the row's measurements started (Linux): how
    /// much else was running, to judge the noise.
    pub(crate) load_average: Option<f64>,
    pub(crate) references: Vec<Reference>,
    pub(crate) errors: Vec<String>,
}

impl Row {
    pub(crate) fn reference(&self, tool: &str) -> Option<&Reference> {
        self.references.iter().find(|r| r.tool == tool)
    }

    pub(crate) fn perft_ratio(&self, tool: &str) -> Option<f64> {
        ratio(self.nodes_per_s, self.reference(tool)?.nodes_per_s)
    }

    /// Like for like: with caching where the reference cached (see the module's notes).
    pub(crate) fn mc_ratio(&self, tool: &str) -> Option<f64> {
        let reference = self.reference(tool)?;
        let ours = if reference.cached_mc { self.monotonic_playouts_per_s } else { self.playouts_per_s };
        ratio(ours, reference.playouts_per_s)
    }

    /// The reference compile time of the game (rbg2cpp plus g++; see `reference-compile.csv`),
    /// for the compiled engine's row only.
    pub(crate) fn compile_reference(&self) -> Option<f64> {
        (self.engine == Engine::Compiled.name()).then(|| compile_reference(&self.game)).flatten()
    }

    /// Our compile time over the reference's (above 1: slower); none for a cache hit.
    pub(crate) fn compile_ratio(&self) -> Option<f64> {
        let built = self.compile_seconds.filter(|_| self.compile_cached != Some(true));
        ratio(built, self.compile_reference())
    }

    pub(crate) fn uncached_mc_ratio(&self, tool: &str) -> Option<f64> {
        ratio(self.playouts_per_s, self.reference(tool)?.playouts_per_s)
    }

    pub(crate) fn monotonic_mc_ratio(&self, tool: &str) -> Option<f64> {
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
pub(crate) fn ratio(ours: Option<f64>, reference: Option<f64>) -> Option<f64> {
    match (ours, reference) {
        (Some(a), Some(b)) if a > 0.0 && b > 0.0 && a.is_finite() && b.is_finite() => Some(a / b),
        _ => None,
    }
}

/// The settings every game is measured with.
pub(crate) struct Settings {
    pub(crate) seconds: f64,
    /// Start no game after this long.
    pub(crate) stop_after: Option<Duration>,
}

/// Measures every game on every engine, showing each row as it comes; also returns the games
/// left out by `stop_after`.
pub(crate) fn measure_all(
    games: &[GameFile],
    engines: &[Engine],
    references: &References,
    settings: &Settings,
    host: &mut dyn Host,
) -> Result<(Vec<Row>, Vec<String>), SuiteError> {
    host.progress(Progress::Start { measurements: (games.len() * engines.len()) as u64 });
    host.line(&table_header()).map_err(SuiteError::Output)?;
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
            host.line(&line).map_err(SuiteError::Output)?;
            break;
        }
        let game_references = references.get(&game.name).map(Vec::as_slice).unwrap_or(&[]);
        for &engine in engines {
            host.progress(Progress::Measuring { game: &game.name, engine });
            let row = measure(game, engine, game_references, settings, host);
            host.line(&table_line(&row)).map_err(SuiteError::Output)?;
            rows.push(row);
            host.progress(Progress::Done);
        }
    }
    host.progress(Progress::Finish);
    Ok((rows, not_measured))
}

fn measure(
    game: &GameFile,
    engine: Engine,
    references: &[Reference],
    settings: &Settings,
    host: &mut dyn Host,
) -> Row {
    let mut row = Row {
        game: game.name.clone(),
        engine: engine.name().into(),
        headline_tool: engine.headline_tool().into(),
        references: references.to_vec(),
        ..Row::default()
    };
    row.load_average = load_average();
    let rbg = match host.rbg_program() {
        Ok(program) => program,
        Err(e) => {
            row.errors.push(format!("cannot find the rbg binary: {e}"));
            return row;
        }
    };
    let command = match engine {
        Engine::Interpreter => EngineCommand { program: rbg.clone(), file: Some(game.path.clone()) },
        Engine::Compiled => match compile(game, host, &mut row) {
            Some(command) => command,
            None => return row,
        },
    };
    measure_perft(&rbg, &command, engine, &mut row);
    measure_mc(&rbg, &command, settings.seconds, &mut row);
    row
}

/// Builds the compiled engine, recording the time and whether the cache already held it.
fn compile(game: &GameFile, host: &mut dyn Host, row: &mut Row) -> Option<EngineCommand> {
    let started = SystemTime::now();
    let clock = Instant::now();
    match host.build_compiled(&game.path) {
        Ok(binary) => {
            row.compile_seconds = Some(clock.elapsed().as_secs_f64());
            // A binary older than this build was found up to date by cargo: a cache hit.
            let modified = std::fs::metadata(&binary).and_then(|m| m.modified()).ok();
            row.compile_cached = modified.map(|m| m < started);
            Some(EngineCommand { program: binary, file: None })
        }
        Err(message) => {
            row.errors.push(format!("compile error: {message}"));
            None
        }
    }
}

fn measure_perft(rbg: &std::path::Path, command: &EngineCommand, engine: Engine, row: &mut Row) {
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
    match run_measured(rbg, command, &argv, timeout) {
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

fn measure_mc(rbg: &std::path::Path, command: &EngineCommand, seconds: f64, row: &mut Row) {
    let timeout = 60.0 + 4.0 * seconds;
    for monotonic in [false, true] {
        let mut rest = vec!["--seconds".to_string(), seconds.to_string(), "--json".into()];
        if !monotonic {
            rest.push("--no-monotonic".into());
        }
        let label = if monotonic { "mc" } else { "mc --no-monotonic" };
        match run_measured(rbg, command, &command.args("mc", &rest), timeout) {
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
