//! `rbg bench --suite DIR` and the hidden `rbg measure-child`: the command line of the
//! benchmark suite, whose work is the `rbg-bench` crate. Here are only the options, the progress
//! bar, the printing, and the one call into the compile pipeline that builds a compiled engine.

use std::ffi::OsString;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use rbg_bench::child::{run_child, ChildEnd, PEAK_MARKER, TIMEOUT_EXIT_CODE};
use rbg_bench::instructions::InstructionOptions;
use rbg_bench::{Engine, Host, Progress, SuiteError, SuiteOptions};

use crate::bench::BenchLimit;
use crate::compile::{build_runner_for, CompileFlags};
use crate::engine_choice::{offered, EngineChoice, EngineSet, RbgText};
use crate::Failure;

/// The options of `rbg bench --suite` (besides `--seconds`, shared with `rbg bench FILE`).
#[derive(clap::Args, Clone, Debug)]
pub struct SuiteArgs {
    /// Benchmark every .rbg game under this directory (recursively) instead of one game.
    #[arg(long, value_name = "DIR")]
    pub suite: Option<PathBuf>,
    /// With --suite: the engines to measure, separated by commas.
    #[arg(long, value_parser = offered(RbgText::OFFERED), value_delimiter = ',')]
    pub engines: Vec<EngineChoice>,
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
    /// --csv writes it) and write the Markdown, the summary and the --readme section from them
    /// with the current reference tables.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["csv", "fresh", "stop_after"])]
    pub from_csv: Option<PathBuf>,
    /// With --suite: rewrite the part of this Markdown file between the lines
    /// `<!-- bench-suite:begin -->` and `<!-- bench-suite:end -->` (the speed summary of
    /// docs/results.md).
    #[arg(long, value_name = "FILE")]
    pub readme: Option<PathBuf>,
    /// With --suite: count instructions under valgrind's callgrind instead of measuring speed:
    /// perft at a fixed depth and Monte Carlo with fixed playouts from seed 7 (by default the
    /// eight bench games with the work of docs/results.md; --depth N and --playouts N set it
    /// for every game). --csv and --markdown write the counts.
    #[arg(long)]
    pub instructions: bool,
    /// With --instructions: Monte Carlo playouts of every game.
    #[arg(long, value_name = "N", requires = "instructions")]
    pub playouts: Option<u64>,
    /// With --instructions: an earlier run's CSV (from --instructions --csv); each count gets
    /// its ratio to the earlier one.
    #[arg(long, value_name = "FILE", requires = "instructions")]
    pub baseline: Option<PathBuf>,
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
            (self.instructions, "--instructions"),
        ];
        given.into_iter().find(|(on, _)| *on).map(|(_, flag)| flag)
    }
}

/// The suite's name of an engine `--engines` offers (the suite runs RBG text only).
fn suite_engine(choice: EngineChoice) -> Engine {
    match choice.engine() {
        rbg::Engine::Compiled => Engine::Compiled,
        rbg::Engine::Interpreter | rbg::Engine::Sbg => Engine::Interpreter,
    }
}

/// `rbg bench --suite DIR`.
pub fn run(args: &SuiteArgs, dir: &Path, limit: &BenchLimit, flags: &CompileFlags) -> Result<(), Failure> {
    let instructions = instruction_options(args, limit)?;
    let seconds = limit.seconds.unwrap_or(rbg_bench::DEFAULT_MC_SECONDS);
    rbg_runner::seconds_limit(seconds).map_err(Failure::from_run)?;
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
    let options = SuiteOptions {
        dir: dir.to_path_buf(),
        seconds,
        engines: args.engines.iter().map(|&e| suite_engine(e)).collect(),
        games: args.games.clone(),
        stop_after,
        csv: args.csv.clone(),
        markdown: args.markdown.clone(),
        reference: args.reference.clone(),
        from_csv: args.from_csv.clone(),
        readme: args.readme.clone(),
        instructions,
    };
    let fresh_cache =
        args.fresh.then(|| std::env::temp_dir().join(format!("rbg-bench-fresh-{}", std::process::id())));
    if let Some(cache) = &fresh_cache {
        // Read by `compile::cache_dir`; set before any thread starts.
        std::env::set_var("RBG_CACHE_DIR", cache);
    }
    let mut host = CliHost { flags: flags.clone(), bar: indicatif::ProgressBar::hidden() };
    let result = rbg_bench::run(&options, &mut host);
    if let Some(cache) = &fresh_cache {
        let _ = std::fs::remove_dir_all(cache);
    }
    result.map_err(|error| match error {
        SuiteError::Message(message) => Failure::new(message),
        SuiteError::Output(error) => Failure::output(error),
    })
}

/// The options of `--instructions`, refusing those of the speed suite with it (and --depth
/// without it).
fn instruction_options(args: &SuiteArgs, limit: &BenchLimit) -> Result<Option<InstructionOptions>, Failure> {
    if !args.instructions {
        return match limit.depth {
            Some(_) => {
                Err(Failure::usage("--depth goes with one game FILE or with --suite DIR --instructions"))
            }
            None => Ok(None),
        };
    }
    let speed_only = [
        (limit.seconds.is_some(), "--seconds"),
        (args.stop_after.is_some(), "--stop-after"),
        (args.reference.is_some(), "--reference"),
        (args.fresh, "--fresh"),
        (args.from_csv.is_some(), "--from-csv"),
        (args.readme.is_some(), "--readme"),
    ];
    if let Some((_, flag)) = speed_only.into_iter().find(|(on, _)| *on) {
        return Err(Failure::usage(format!("{flag} does not go with --instructions")));
    }
    if limit.depth == Some(0) || args.playouts == Some(0) {
        return Err(Failure::usage("--depth and --playouts must be at least 1 with --instructions"));
    }
    Ok(Some(InstructionOptions {
        depth: limit.depth,
        playouts: args.playouts,
        baseline: args.baseline.clone(),
    }))
}

/// The suite's host: this binary, its compile cache, a progress bar on a terminal and the
/// result lines on standard output.
struct CliHost {
    flags: CompileFlags,
    bar: indicatif::ProgressBar,
}

impl CliHost {
    fn build(&mut self, game: &Path, portable: bool) -> Result<PathBuf, String> {
        // cargo writes to the terminal: hide the bar meanwhile.
        let built = self.bar.suspend(|| build_runner_for(game, &self.flags, portable));
        built.map_err(|failure| failure.message().unwrap_or("see the messages above").to_string())
    }
}

impl Host for CliHost {
    fn rbg_program(&self) -> Result<PathBuf, String> {
        std::env::current_exe().map_err(|e| e.to_string())
    }

    fn build_compiled(&mut self, game: &Path) -> Result<PathBuf, String> {
        self.build(game, false)
    }

    fn build_portable(&mut self, game: &Path) -> Result<PathBuf, String> {
        self.build(game, true)
    }

    fn line(&mut self, text: &str) -> std::io::Result<()> {
        self.bar.suspend(|| writeln!(std::io::stdout().lock(), "{text}"))
    }

    fn note(&mut self, text: &str) {
        crate::say!("{text}");
    }

    fn progress(&mut self, event: Progress<'_>) {
        match event {
            Progress::Start { measurements } => self.bar = progress_bar(measurements),
            Progress::Measuring { game, engine } => {
                self.bar.set_message(format!("{game} ({})", engine.name()))
            }
            Progress::Done => self.bar.inc(1),
            Progress::Finish => self.bar.finish_and_clear(),
        }
    }
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
    match run_child(program, rest, limit).map_err(Failure::new)? {
        ChildEnd::TimedOut => {
            crate::say!("measurement timed out after {} s", args.timeout_seconds);
            Err(Failure::with_code(TIMEOUT_EXIT_CODE))
        }
        ChildEnd::Exited { status, peak_rss_kib } => {
            if let Some(kib) = peak_rss_kib {
                crate::say!("{PEAK_MARKER}{kib}");
            }
            match status.code() {
                Some(0) => Ok(()),
                Some(code) => Err(Failure::with_code(u8::try_from(code).unwrap_or(1).max(1))),
                None => Err(Failure::new(format!("the measured program was killed ({status})"))),
            }
        }
    }
}
