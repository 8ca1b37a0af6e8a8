//! `rbg evolve`: procedural generation of Simplified Boardgames by evolution (rbg-evolve).
//!
//! Writes to `--out`: `checkpoint.json` and `generations.csv` after every generation, and at the
//! end the best games as `best-<rank>.sbg`, `.rbg` and `.json` (each checked: it parses again
//! and both reasoners' perft agree to depth 2). Evaluations use all cores (rayon; set
//! `RAYON_NUM_THREADS` to use fewer); the result depends only on the options and the seed.

use std::path::{Path, PathBuf};

use rbg_evolve::output::{generation_line, resume_from, save_run, write_best};
use rbg_evolve::{Evolution, EvolveConfig};

use crate::{say, Failure};

/// Options of `rbg evolve` (unset ones take the defaults shown, or the checkpoint's on resume).
#[derive(clap::Args)]
pub struct EvolveArgs {
    /// Directory for the checkpoint, the CSV and the best games (created if missing).
    #[arg(long)]
    out: PathBuf,
    /// Continue the run saved in this checkpoint (its settings; only --generations may change).
    #[arg(long)]
    resume: Option<PathBuf>,
    /// Board width [default: 6].
    #[arg(long)]
    width: Option<u32>,
    /// Board height [default: 6].
    #[arg(long)]
    height: Option<u32>,
    /// Weak piece types [default: 2].
    #[arg(long)]
    weak: Option<u32>,
    /// Light piece types [default: 2].
    #[arg(long)]
    light: Option<u32>,
    /// Strong piece types [default: 1].
    #[arg(long)]
    strong: Option<u32>,
    /// Population size [default: 50].
    #[arg(long)]
    population: Option<u32>,
    /// Generations after the initial population [default: 30].
    #[arg(long)]
    generations: Option<u32>,
    /// Playouts of each kind (min-max vs min-max, min-max vs random) per evaluation [default: 20].
    #[arg(long)]
    playouts: Option<u32>,
    /// Expected branching factor (the width feature's peak) [default: 16].
    #[arg(long, allow_negative_numbers = true)]
    branching: Option<f64>,
    /// Turn limit of the generated games, in half-moves [default: 60].
    #[arg(long)]
    turn_limit: Option<u64>,
    /// Depth of the min-max player [default: 3].
    #[arg(long)]
    depth: Option<u32>,
    /// Search nodes of the min-max player per move [default: 4000].
    #[arg(long)]
    nodes_per_move: Option<u64>,
    /// Add the ease of learning the pieces (from the NLD complexity score, `100 / (100 +
    /// score)`) to the fitness as a further term of this weight (the paper's terms weigh 15).
    #[arg(long)]
    nld_weight: Option<f64>,
    /// Random seed [default: 1].
    #[arg(long)]
    seed: Option<u64>,
    /// How many of the best distinct games to write.
    #[arg(long, default_value_t = 3)]
    best: usize,
}

impl EvolveArgs {
    /// The settings of a new run: the defaults with the options given.
    fn config(&self) -> EvolveConfig {
        let d = EvolveConfig::default();
        EvolveConfig {
            width: self.width.unwrap_or(d.width),
            height: self.height.unwrap_or(d.height),
            weak_pieces: self.weak.unwrap_or(d.weak_pieces),
            light_pieces: self.light.unwrap_or(d.light_pieces),
            strong_pieces: self.strong.unwrap_or(d.strong_pieces),
            population: self.population.unwrap_or(d.population),
            generations: self.generations.unwrap_or(d.generations),
            playouts: self.playouts.unwrap_or(d.playouts),
            expected_branching: self.branching.unwrap_or(d.expected_branching),
            turn_limit: self.turn_limit.unwrap_or(d.turn_limit),
            depth: self.depth.unwrap_or(d.depth),
            nodes_per_move: self.nodes_per_move.unwrap_or(d.nodes_per_move),
            seed: self.seed.unwrap_or(d.seed),
            nld_term: self.nld_weight.is_some(),
            extra_weight: self.nld_weight.unwrap_or(d.extra_weight),
        }
    }

    /// The options that fix a run's settings, by name, when given (not allowed on resume).
    fn settings_given(&self) -> Vec<&'static str> {
        let given = [
            ("--width", self.width.is_some()),
            ("--height", self.height.is_some()),
            ("--weak", self.weak.is_some()),
            ("--light", self.light.is_some()),
            ("--strong", self.strong.is_some()),
            ("--population", self.population.is_some()),
            ("--playouts", self.playouts.is_some()),
            ("--branching", self.branching.is_some()),
            ("--turn-limit", self.turn_limit.is_some()),
            ("--depth", self.depth.is_some()),
            ("--nodes-per-move", self.nodes_per_move.is_some()),
            ("--seed", self.seed.is_some()),
            ("--nld-weight", self.nld_weight.is_some()),
        ];
        given.into_iter().filter(|(_, g)| *g).map(|(name, _)| name).collect()
    }
}

/// A progress bar of generations on stderr, hidden when stderr is not a terminal.
fn progress_bar(done: u32, generations: u32) -> indicatif::ProgressBar {
    use std::io::IsTerminal as _;
    let bar = if std::io::stderr().is_terminal() {
        indicatif::ProgressBar::new(u64::from(generations))
    } else {
        indicatif::ProgressBar::hidden()
    };
    let style = indicatif::ProgressStyle::with_template(
        "generations [{elapsed_precise}] {wide_bar} {pos}/{len} {msg}",
    )
    .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar());
    bar.set_style(style);
    bar.set_position(u64::from(done));
    bar
}

fn start_or_resume(args: &EvolveArgs) -> Result<Evolution, Failure> {
    match &args.resume {
        Some(path) => {
            let given = args.settings_given();
            if !given.is_empty() {
                return Err(Failure::usage(format!(
                    "{} cannot change on --resume: the checkpoint's settings are used (only --generations may be given)",
                    given.join(", ")
                )));
            }
            let mut run = resume_from(path).map_err(Failure::new)?;
            if let Some(generations) = args.generations {
                run.set_generations(generations);
            }
            Ok(run)
        }
        None => {
            let config = args.config();
            if let Some((field, why)) = config.invalid_setting() {
                return Err(Failure::usage(format!("{}: {why}", flag_of_setting(field))));
            }
            say!("evolve: generation 0 (the initial population of {})", config.population);
            let extra = config.extra_term();
            Evolution::start(config, extra).map_err(Failure::new)
        }
    }
}

/// The flag that sets a field of [`EvolveConfig`] (as named by `invalid_setting`).
fn flag_of_setting(field: &str) -> &'static str {
    match field {
        "width" => "--width",
        "height" => "--height",
        "weak_pieces" => "--weak",
        "light_pieces" => "--light",
        "strong_pieces" => "--strong",
        "kinds" => "--weak, --light, --strong",
        "population" => "--population",
        "playouts" => "--playouts",
        "expected_branching" => "--branching",
        "turn_limit" => "--turn-limit",
        "depth" => "--depth",
        "nodes_per_move" => "--nodes-per-move",
        "extra_weight" => "--nld-weight",
        _ => "invalid option",
    }
}

/// Writes the checkpoint and the CSV of the run so far.
fn save(run: &Evolution, out: &Path) -> Result<(), Failure> {
    save_run(out, run.checkpoint()).map_err(Failure::new)
}

/// `rbg evolve`.
pub fn run(args: &EvolveArgs) -> Result<(), Failure> {
    if args.best == 0 {
        return Err(Failure::usage("invalid option: --best must be at least 1"));
    }
    std::fs::create_dir_all(&args.out)
        .map_err(|e| Failure::new(format!("cannot create {}: {e}", args.out.display())))?;
    let mut run = start_or_resume(args)?;
    save(&run, &args.out)?;
    if let Some(last) = run.history().last() {
        say!("{}", generation_line(last));
    }
    let bar = progress_bar(run.generation(), run.config().generations);
    while !run.finished() {
        let stats = run.step().clone();
        bar.set_position(u64::from(stats.generation));
        bar.set_message(format!("best {:.4} mean {:.4}", stats.best, stats.mean));
        bar.suspend(|| say!("{}", generation_line(&stats)));
        save(&run, &args.out)?;
    }
    bar.finish_and_clear();
    let written =
        write_best(&args.out, run.checkpoint(), run.population(), args.best).map_err(Failure::new)?;
    for path in written {
        say!("wrote {} (and .rbg, .json)", path.display());
    }
    Ok(())
}
