//! Evolution driven from Python (`rbg.cluster.evolve`): rbg-evolve's generation loop in its
//! public steps, so the candidates' fitness can be computed anywhere (Ray tasks) while the
//! driver keeps the run, its checkpoints and its output files exactly as `rbg evolve` does.
//!
//! What crosses to the tasks is JSON text (the settings, a genome, its features): plain data
//! that pickles to any worker, whose round trip is exact (rbg-evolve parses floats with
//! serde_json's `float_roundtrip`), so a fitness computed on a worker is the one computed here.

use std::path::PathBuf;

use pyo3::exceptions::PyOSError;
use pyo3::prelude::*;
use rbg_evolve::output::{resume_from, save_run, write_best};
use rbg_evolve::{
    evaluate_candidate, EvalSettings, Evolution, EvolveConfig, Features, Genome, Proposal, Start,
};

use crate::errors::value_error;

/// Where a run is: its initial population drawn but not yet evaluated, or running.
enum Phase {
    Starting(Start),
    Running(Evolution),
}

/// A run of evolution held by the driver: `candidates()` gives the next generation's
/// candidates (as `(generation, index, genome JSON)`), `complete(features)` folds their
/// features (JSON, one per candidate, in order) into the run.
#[pyclass(name = "_Evolution", module = "rbg")]
pub struct PyEvolution {
    /// `None` only while a step moves it.
    phase: Option<Phase>,
    /// The candidates handed out and not yet completed.
    pending: Option<Proposal>,
}

fn os_error(text: String) -> PyErr {
    PyOSError::new_err(text)
}

impl PyEvolution {
    fn phase(&self) -> PyResult<&Phase> {
        self.phase.as_ref().ok_or_else(|| value_error("the run failed in an earlier step"))
    }

    fn running(&self) -> PyResult<&Evolution> {
        match self.phase()? {
            Phase::Running(run) => Ok(run),
            Phase::Starting(_) => Err(value_error("the initial population is not evaluated yet")),
        }
    }
}

#[pymethods]
impl PyEvolution {
    /// A new run with the settings `config` (the JSON of rbg-evolve's `EvolveConfig`; see
    /// `_evolve_defaults`): its initial population drawn, to be evaluated.
    #[staticmethod]
    fn begin(config: &str) -> PyResult<PyEvolution> {
        let config: EvolveConfig =
            serde_json::from_str(config).map_err(|e| value_error(format!("evolution settings: {e}")))?;
        let extra = config.extra_term();
        let (start, proposal) = Evolution::begin(config, extra).map_err(value_error)?;
        Ok(PyEvolution { phase: Some(Phase::Starting(start)), pending: Some(proposal) })
    }

    /// The run saved in the checkpoint at `path`, with `generations` replacing its number of
    /// generations when given (as `rbg evolve --resume PATH [--generations N]`).
    #[staticmethod]
    #[pyo3(signature = (path, generations = None))]
    fn resume(path: PathBuf, generations: Option<u32>) -> PyResult<PyEvolution> {
        let mut run = resume_from(&path).map_err(value_error)?;
        if let Some(generations) = generations {
            run.set_generations(generations);
        }
        Ok(PyEvolution { phase: Some(Phase::Running(run)), pending: None })
    }

    /// The settings of the run, as JSON (what every evaluation task needs).
    fn config(&self) -> PyResult<String> {
        let config = match self.phase()? {
            Phase::Starting(start) => start.config(),
            Phase::Running(run) => run.config(),
        };
        serde_json::to_string(config).map_err(|e| value_error(e.to_string()))
    }

    /// Whether every generation has run (never before the initial population is evaluated).
    fn finished(&self) -> PyResult<bool> {
        Ok(matches!(self.phase()?, Phase::Running(run) if run.finished()))
    }

    /// The last generation completed (`None` before the initial population is evaluated).
    fn generation(&self) -> PyResult<Option<u32>> {
        Ok(match self.phase()? {
            Phase::Running(run) => Some(run.generation()),
            Phase::Starting(_) => None,
        })
    }

    /// The generations the run is to make after the initial population.
    fn generations(&self) -> PyResult<u32> {
        Ok(match self.phase()? {
            Phase::Starting(start) => start.config().generations,
            Phase::Running(run) => run.config().generations,
        })
    }

    /// The next generation's candidates, `(generation, index, genome JSON)`; the same ones
    /// until they are completed.
    fn candidates(&mut self) -> PyResult<Vec<(u32, usize, String)>> {
        if self.pending.is_none() {
            let run = self.running()?;
            if run.finished() {
                return Err(value_error("the run has made all its generations"));
            }
            self.pending = Some(run.propose());
        }
        let proposal = self.pending.as_ref().ok_or_else(|| value_error("no candidates"))?;
        proposal
            .genomes
            .iter()
            .enumerate()
            .map(|(index, genome)| {
                let json = serde_json::to_string(genome).map_err(|e| value_error(e.to_string()))?;
                Ok((proposal.generation, index, json))
            })
            .collect()
    }

    /// Folds the features of the candidates (JSON from `_evaluate_candidate`, one per
    /// candidate, in order) into the run; returns the generation's statistics line, as
    /// `rbg evolve` prints it.
    fn complete(&mut self, features: Vec<String>) -> PyResult<String> {
        let proposal = self.pending.take().ok_or_else(|| value_error("no candidates were handed out"))?;
        let features = features
            .iter()
            .map(|text| serde_json::from_str::<Features>(text))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| value_error(format!("candidate features: {e}")))?;
        let run = match self.phase.take() {
            Some(Phase::Starting(start)) => start.complete(proposal, features),
            Some(Phase::Running(mut run)) => match run.complete(proposal, features) {
                Ok(_) => Ok(run),
                // A refusal changes nothing: the run goes on as it was.
                Err(e) => {
                    self.phase = Some(Phase::Running(run));
                    Err(e)
                }
            },
            None => Err("the run failed in an earlier step".to_string()),
        }
        .map_err(value_error)?;
        let line = run.history().last().map(rbg_evolve::output::generation_line).unwrap_or_default();
        self.phase = Some(Phase::Running(run));
        Ok(line)
    }

    /// Writes the checkpoint and the CSV into the directory `out` (as `rbg evolve --out`).
    fn save(&self, out: PathBuf) -> PyResult<()> {
        save_run(&out, self.running()?.checkpoint()).map_err(os_error)
    }

    /// Writes the best `count` distinct games into `out` (each checked first); their SBG paths.
    fn write_best(&self, out: PathBuf, count: usize) -> PyResult<Vec<PathBuf>> {
        let run = self.running()?;
        write_best(&out, run.checkpoint(), run.population(), count).map_err(os_error)
    }
}

/// The default settings of a run (`rbg evolve`'s), as JSON.
#[pyfunction]
pub fn _evolve_defaults() -> PyResult<String> {
    serde_json::to_string(&EvolveConfig::default()).map_err(|e| value_error(e.to_string()))
}

/// The features (JSON) of candidate `index` of `generation` (its genome as JSON) in the run
/// with the settings `config` (JSON): seeded from the run's seed, the generation and the
/// index alone. Runs without the GIL.
#[pyfunction]
pub fn _evaluate_candidate(
    py: Python<'_>,
    config: &str,
    generation: u32,
    index: usize,
    genome: &str,
) -> PyResult<String> {
    let config: EvolveConfig =
        serde_json::from_str(config).map_err(|e| value_error(format!("evolution settings: {e}")))?;
    config.validate().map_err(value_error)?;
    let genome: Genome = serde_json::from_str(genome).map_err(|e| value_error(format!("genome: {e}")))?;
    genome.check_fits(&config).map_err(value_error)?;
    let settings = EvalSettings::from_config(&config, config.extra_term());
    let features = py.allow_threads(|| evaluate_candidate(&config, &settings, generation, index, &genome));
    serde_json::to_string(&features).map_err(|e| value_error(e.to_string()))
}

/// Adds the class and functions above to the native module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyEvolution>()?;
    m.add_function(wrap_pyfunction!(_evolve_defaults, m)?)?;
    m.add_function(wrap_pyfunction!(_evaluate_candidate, m)?)?;
    Ok(())
}
