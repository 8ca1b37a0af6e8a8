//! The evolutionary loop (paper, section III.C), its statistics and its checkpoints.
//!
//! Generation 0 is the initial population, evaluated. Each later generation: the playable
//! individuals of the population are ordered by `B_M + B_R` and paired from the ends to the
//! centre (first with last, ...); each pair makes two offspring; every individual also makes one
//! mutant. Offspring and mutants are evaluated (in parallel; each evaluation seeded from the run
//! seed, the generation and its index in the batch) and the unplayable ones dropped. The next
//! population is the best `n` of parents, offspring and mutants; with only `k < n` playable,
//! the best `n - k` are duplicated. When nothing at all is playable (possible only in the first
//! generations) the population keeps its best unplayable individuals, so that mutation can
//! still repair them: the paper does not say what to do then.
//!
//! Ties in fitness keep the earlier individual (parents before offspring before mutants), so a
//! run is a function of its seed. After each generation the whole state can be written as a
//! JSON [`Checkpoint`], from which [`Evolution::resume`] continues exactly as if never stopped.

use std::time::Instant;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::blocks::BlockPools;
use crate::config::EvolveConfig;
use crate::fitness::{evaluate, EvalSettings, ExtraScore, Features};
use crate::genome::Genome;
use crate::operators::{crossover, mutate};
use crate::seeds::{derive_seed, rng_for, Purpose};

/// The format version of checkpoints.
pub const CHECKPOINT_VERSION: u32 = 1;

/// An evaluated individual.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Individual {
    pub genome: Genome,
    pub features: Features,
}

impl Individual {
    pub fn fitness(&self) -> f64 {
        self.features.fitness
    }
}

/// Statistics of one generation's population (after selection).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GenerationStats {
    pub generation: u32,
    pub best: f64,
    pub mean: f64,
    pub min: f64,
    /// Playable individuals among those selected from (parents, offspring and mutants; the
    /// initial population for generation 0), before duplication.
    pub playable: usize,
    /// Wall time of the generation (not part of the deterministic result).
    pub seconds: f64,
}

/// The whole state of a run after a generation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Checkpoint {
    pub version: u32,
    pub config: EvolveConfig,
    pub pools: BlockPools,
    /// The last generation completed.
    pub generation: u32,
    /// Best first.
    pub population: Vec<Individual>,
    pub history: Vec<GenerationStats>,
}

/// A run in progress.
pub struct Evolution {
    state: Checkpoint,
    settings: EvalSettings,
}

/// The name of individual `index` of generation `generation` in its SBG text.
fn game_name(generation: u32, index: usize) -> String {
    format!("Evolved g{generation} i{index}")
}

/// Evaluates `genomes` in parallel, each seeded from (run seed, generation, index).
fn evaluate_all(
    genomes: Vec<Genome>,
    config: &EvolveConfig,
    settings: &EvalSettings,
    generation: u32,
) -> Vec<Individual> {
    genomes
        .into_par_iter()
        .enumerate()
        .map(|(index, genome)| {
            let seed = derive_seed(config.seed, Purpose::Evaluation, u64::from(generation), index as u64);
            let features = match genome.to_game(config, &game_name(generation, index)) {
                Ok(game) => evaluate(&game, settings, seed),
                Err(e) => Features::unplayable(e),
            };
            Individual { genome, features }
        })
        .collect()
}

/// The next population from `candidates` (in priority order for ties), and how many of them
/// were playable.
fn select(mut candidates: Vec<Individual>, n: usize) -> (Vec<Individual>, usize) {
    let playable = candidates.iter().filter(|i| i.features.playable).count();
    if playable > 0 {
        candidates.retain(|i| i.features.playable);
    }
    // A stable sort keeps earlier candidates first among equals.
    candidates.sort_by(|a, b| b.fitness().total_cmp(&a.fitness()));
    candidates.truncate(n);
    let kept = candidates.len();
    for i in 0..n.saturating_sub(kept) {
        let copy = candidates[i % kept].clone();
        candidates.push(copy);
    }
    (candidates, playable)
}

fn stats_of(generation: u32, population: &[Individual], playable: usize, seconds: f64) -> GenerationStats {
    let fitness: Vec<f64> = population.iter().map(Individual::fitness).collect();
    GenerationStats {
        generation,
        best: fitness.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        mean: fitness.iter().sum::<f64>() / fitness.len() as f64,
        min: fitness.iter().copied().fold(f64::INFINITY, f64::min),
        playable,
        seconds,
    }
}

impl Evolution {
    /// Draws the building blocks and the initial population and evaluates it (generation 0).
    pub fn start(config: EvolveConfig, extra: Option<ExtraScore>) -> Result<Evolution, String> {
        config.validate()?;
        let started = Instant::now();
        let pools = BlockPools::random(&mut rng_for(config.seed, Purpose::Blocks, 0, 0));
        let mut rng = rng_for(config.seed, Purpose::Population, 0, 0);
        let genomes: Vec<Genome> =
            (0..config.population).map(|_| Genome::random(&config, &pools, &mut rng)).collect();
        let settings = EvalSettings::from_config(&config, extra);
        let evaluated = evaluate_all(genomes, &config, &settings, 0);
        let (population, playable) = select(evaluated, config.population as usize);
        let history = vec![stats_of(0, &population, playable, started.elapsed().as_secs_f64())];
        let state =
            Checkpoint { version: CHECKPOINT_VERSION, config, pools, generation: 0, population, history };
        Ok(Evolution { state, settings })
    }

    /// Continues from a checkpoint (its settings; `generations` may be raised to run longer).
    pub fn resume(checkpoint: Checkpoint, extra: Option<ExtraScore>) -> Result<Evolution, String> {
        if checkpoint.version != CHECKPOINT_VERSION {
            return Err(format!(
                "the checkpoint has format version {}, this program reads version {CHECKPOINT_VERSION}",
                checkpoint.version
            ));
        }
        checkpoint.config.validate()?;
        let n = checkpoint.config.population as usize;
        if checkpoint.population.len() != n || checkpoint.history.len() != checkpoint.generation as usize + 1
        {
            return Err("the checkpoint is inconsistent (population or history size)".into());
        }
        let shape = (checkpoint.config.width, checkpoint.config.height, checkpoint.config.kinds() as usize);
        if checkpoint.population.iter().any(|i| {
            (i.genome.width, i.genome.height, i.genome.rules.len()) != shape
                || i.genome.cells.len() != (shape.0 * shape.1) as usize
                || i.genome.cells.iter().flatten().any(|p| p.kind >= shape.2)
                || i.genome.conditions.iter().any(|c| c.kind >= shape.2)
        }) {
            return Err("the checkpoint holds a game that does not fit its settings".into());
        }
        let settings = EvalSettings::from_config(&checkpoint.config, extra);
        Ok(Evolution { state: checkpoint, settings })
    }

    pub fn config(&self) -> &EvolveConfig {
        &self.state.config
    }

    /// Sets the number of generations to run (e.g. more after a resume).
    pub fn set_generations(&mut self, generations: u32) {
        self.state.config.generations = generations;
    }

    /// The last generation completed.
    pub fn generation(&self) -> u32 {
        self.state.generation
    }

    pub fn finished(&self) -> bool {
        self.state.generation >= self.state.config.generations
    }

    /// The population, best first.
    pub fn population(&self) -> &[Individual] {
        &self.state.population
    }

    pub fn history(&self) -> &[GenerationStats] {
        &self.state.history
    }

    pub fn checkpoint(&self) -> &Checkpoint {
        &self.state
    }

    /// Runs one generation; returns its statistics.
    pub fn step(&mut self) -> &GenerationStats {
        let started = Instant::now();
        let generation = self.state.generation + 1;
        let config = &self.state.config;
        let mut rng = rng_for(config.seed, Purpose::Operators, u64::from(generation), 0);
        let parents: Vec<&Individual> = self.state.population.iter().collect();
        let mut ordered: Vec<&Individual> = parents.iter().copied().filter(|i| i.features.playable).collect();
        ordered
            .sort_by(|a, b| (a.features.b_m + a.features.b_r).total_cmp(&(b.features.b_m + b.features.b_r)));
        let mut fresh = Vec::new();
        for i in 0..ordered.len() / 2 {
            let (first, second) =
                crossover(&ordered[i].genome, &ordered[ordered.len() - 1 - i].genome, &mut rng);
            fresh.push(first);
            fresh.push(second);
        }
        for parent in &parents {
            fresh.push(mutate(&parent.genome, &parent.features, config, &self.state.pools, &mut rng).0);
        }
        let evaluated = evaluate_all(fresh, config, &self.settings, generation);
        let mut candidates: Vec<Individual> = self.state.population.clone();
        candidates.extend(evaluated);
        let (population, playable) = select(candidates, config.population as usize);
        self.state.population = population;
        self.state.generation = generation;
        let stats = stats_of(generation, &self.state.population, playable, started.elapsed().as_secs_f64());
        self.state.history.push(stats);
        self.state.history.last().expect("just pushed")
    }
}
