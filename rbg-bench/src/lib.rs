//! The benchmark suite of `rbg bench --suite DIR`: every game of a directory on each engine
//! asked for, against the reference speed table (`reference-speed.csv`: the C++ compiler
//! rbg2cpp, the C++ interpreter rbggamemanager, Regular Games).
//!
//! For each game and engine: perft at the reference table's depth (or, when the game is not in
//! the table or that depth would take far too long, the deepest depth expected to take about a
//! second, and for a game in the table one of the reference depth's parity, so that both trees
//! end on the same kind of ply), flat Monte Carlo for S seconds with and without monotonic-class
//! move caching, the compile time of the compiled engine, and the peak memory of the measuring
//! processes. With `--instructions` it counts instructions under callgrind instead (see
//! [`instructions`]).
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
//! reaped; so each measurement is started through a fresh `rbg measure-child` wrapper (whose
//! work is [`child::run_child`]) whose only child is the measurement, and the wrapper reports
//! that figure (and enforces a time limit). The suite itself never reads its own
//! `RUSAGE_CHILDREN`. On systems without `getrusage` the memory column stays empty.
//!
//! # What the crate leaves to its caller
//!
//! The suite prints nothing and knows no command line: the [`Host`] (the `rbg` binary) names
//! the program that measures, builds compiled engines, and shows the rows and the progress.

#![forbid(unsafe_code)]

use std::path::{Path, PathBuf};
use std::time::Duration;

pub mod child;
mod depth;
mod inputs;
pub mod instructions;
pub mod machine;
mod measure;
mod report;

pub use report::{README_BEGIN, README_END};

/// An engine the suite measures.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Engine {
    Interpreter,
    Compiled,
}

impl Engine {
    /// The engine's name in the CSV and the tables.
    pub fn name(self) -> &'static str {
        match self {
            Engine::Interpreter => "interpreter",
            Engine::Compiled => "compiled",
        }
    }

    /// The reference tool the headline ratio compares this engine with (the same kind of tool).
    pub fn headline_tool(self) -> &'static str {
        match self {
            Engine::Interpreter => "rbggamemanager",
            Engine::Compiled => "rbg2cpp",
        }
    }
}

/// What to measure and where to write it (the options of `rbg bench --suite`, checked).
#[derive(Clone, Debug)]
pub struct SuiteOptions {
    /// The directory whose `.rbg` games (recursively) are measured.
    pub dir: PathBuf,
    /// Flat Monte Carlo seconds per figure (above 0).
    pub seconds: f64,
    /// The engines (empty: both).
    pub engines: Vec<Engine>,
    /// Only these games (names below `dir` without `.rbg`), in this order (empty: all).
    pub games: Vec<String>,
    /// Start no new game after this long.
    pub stop_after: Option<Duration>,
    /// Write one CSV row per game and engine here.
    pub csv: Option<PathBuf>,
    /// Write the Markdown tables here.
    pub markdown: Option<PathBuf>,
    /// The reference speed table (default: `dir/../conformance/reference-speed.csv` if it exists).
    pub reference: Option<PathBuf>,
    /// Measure nothing: read the figures from this CSV of an earlier run.
    pub from_csv: Option<PathBuf>,
    /// Rewrite the summary between [`README_BEGIN`] and [`README_END`] in this file.
    pub readme: Option<PathBuf>,
    /// Count instructions under callgrind instead of measuring speed.
    pub instructions: Option<instructions::InstructionOptions>,
}

/// What the suite needs from the program running it.
pub trait Host {
    /// The `rbg` binary: its `perft`/`mc` commands measure the interpreter and its hidden
    /// `measure-child` command wraps every measurement.
    fn rbg_program(&self) -> Result<PathBuf, String>;
    /// Builds (or finds cached) the compiled engine of a game; the path of its binary.
    fn build_compiled(&mut self, game: &Path) -> Result<PathBuf, String>;
    /// Like [`Host::build_compiled`], for plain x86-64 (the CPU valgrind decodes).
    fn build_portable(&mut self, game: &Path) -> Result<PathBuf, String>;
    /// Shows one line of results (the table's header and rows, the summary).
    fn line(&mut self, text: &str) -> std::io::Result<()>;
    /// Shows a note about the run (not a result).
    fn note(&mut self, text: &str);
    /// Progress: the measurements to come, and each as it starts and ends.
    fn progress(&mut self, event: Progress<'_>);
}

/// A step of the run, for a progress display.
#[derive(Clone, Copy, Debug)]
pub enum Progress<'a> {
    /// This many measurements (game and engine) are to come.
    Start { measurements: u64 },
    /// One begins.
    Measuring { game: &'a str, engine: Engine },
    /// One is done.
    Done,
    /// All are done.
    Finish,
}

/// Why the suite stopped.
#[derive(Debug)]
pub enum SuiteError {
    /// A bad option, file or table, in words.
    Message(String),
    /// The host could not show a line (e.g. the reader of the output went away).
    Output(std::io::Error),
}

impl SuiteError {
    fn new(message: impl Into<String>) -> Self {
        SuiteError::Message(message.into())
    }
}

impl std::fmt::Display for SuiteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SuiteError::Message(message) => f.write_str(message),
            SuiteError::Output(error) => write!(f, "cannot write the output: {error}"),
        }
    }
}

impl std::error::Error for SuiteError {}

/// Flat Monte Carlo seconds when the caller has no preference.
pub const DEFAULT_MC_SECONDS: f64 = 2.0;

/// Runs the suite: measures (or reads `from_csv`), shows the rows and the summary through the
/// host, and writes the files asked for.
pub fn run(options: &SuiteOptions, host: &mut dyn Host) -> Result<(), SuiteError> {
    if let Some(counting) = &options.instructions {
        return run_instructions(options, counting, host);
    }
    if !(options.seconds > 0.0 && options.seconds.is_finite()) {
        return Err(SuiteError::new("--seconds must be above 0 for the suite's Monte Carlo"));
    }
    let games = inputs::find_games(&options.dir, &options.games)?;
    let references = match reference_path(options) {
        Some(path) => inputs::load_references(&path)?,
        None => {
            host.note("rbg bench: no reference table found (give --reference FILE): ratios left empty");
            inputs::References::new()
        }
    };
    let engines = chosen_engines(options);
    // Open the output files first, so a bad path fails before an hour of measuring.
    let mut csv = options.csv.as_deref().map(create_file).transpose()?;
    let mut markdown = options.markdown.as_deref().map(create_file).transpose()?;
    let (rows, not_measured, provenance) = match &options.from_csv {
        Some(path) => {
            let (rows, not_measured) = report::rows_from_csv(path, &games, &engines, &references)?;
            (rows, not_measured, machine::Provenance::FromCsv(path.clone()))
        }
        None => {
            let machine = machine::Machine::this_one();
            let settings = measure::Settings { seconds: options.seconds, stop_after: options.stop_after };
            let (rows, not_measured) = measure::measure_all(&games, &engines, &references, &settings, host)?;
            (rows, not_measured, machine::Provenance::Measured(machine))
        }
    };
    let summary = report::summarize(&rows, &engines);
    host.line(&report::summary_text(&summary)).map_err(SuiteError::Output)?;
    if let Some((file, path)) = csv.as_mut() {
        write_to(file, path, &report::csv_text(&rows))?;
    }
    if let Some((file, path)) = markdown.as_mut() {
        let page = report::Page { engines: &engines, summary: &summary, not_measured: &not_measured };
        write_to(file, path, &report::markdown_text(&rows, &page, options.seconds, &provenance))?;
    }
    if let Some(path) = &options.readme {
        let page = report::Page { engines: &engines, summary: &summary, not_measured: &not_measured };
        let section = report::readme_text(&rows, &page, options.markdown.as_deref(), path);
        report::rewrite_readme(path, &section)?;
    }
    Ok(())
}

/// The suite's instruction-count mode: the counts shown, and written as CSV and Markdown.
fn run_instructions(
    options: &SuiteOptions,
    counting: &instructions::InstructionOptions,
    host: &mut dyn Host,
) -> Result<(), SuiteError> {
    let work = instructions::workloads(&options.games, counting)?;
    let names: Vec<String> = work.iter().map(|(name, _)| name.clone()).collect();
    let files = inputs::find_games(&options.dir, &names)?;
    let games: Vec<_> =
        work.into_iter().zip(files).map(|((name, workload), file)| (name, file.path, workload)).collect();
    let engines = chosen_engines(options);
    let baseline = match &counting.baseline {
        Some(path) => instructions::read_baseline(path)?,
        None => Default::default(),
    };
    let mut csv = options.csv.as_deref().map(create_file).transpose()?;
    let mut markdown = options.markdown.as_deref().map(create_file).transpose()?;
    let counts = instructions::count_all(&games, &engines, &baseline, host)?;
    if let Some((file, path)) = csv.as_mut() {
        write_to(file, path, &instructions::csv_text(&counts))?;
    }
    if let Some((file, path)) = markdown.as_mut() {
        write_to(file, path, &instructions::markdown_text(&counts, counting.baseline.as_deref()))?;
    }
    Ok(())
}

/// The engines asked for (none: both), in order, each once.
fn chosen_engines(options: &SuiteOptions) -> Vec<Engine> {
    let mut engines = if options.engines.is_empty() {
        vec![Engine::Interpreter, Engine::Compiled]
    } else {
        options.engines.clone()
    };
    engines.sort();
    engines.dedup();
    engines
}

fn reference_path(options: &SuiteOptions) -> Option<PathBuf> {
    if let Some(path) = &options.reference {
        return Some(path.clone());
    }
    let beside = options.dir.join("..").join("conformance").join("reference-speed.csv");
    beside.is_file().then_some(beside)
}

fn create_file(path: &Path) -> Result<(std::fs::File, PathBuf), SuiteError> {
    std::fs::File::create(path)
        .map(|f| (f, path.to_path_buf()))
        .map_err(|e| SuiteError::new(format!("cannot create {}: {e}", path.display())))
}

fn write_to(file: &mut std::fs::File, path: &Path, text: &str) -> Result<(), SuiteError> {
    use std::io::Write as _;
    file.write_all(text.as_bytes())
        .map_err(|e| SuiteError::new(format!("cannot write {}: {e}", path.display())))
}
