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
//!
//! A generation is three public steps, so its evaluations can run anywhere (`rbg.cluster`
//! runs each as a Ray task): [`Evolution::propose`] (or [`Evolution::begin`] for generation
//! 0) draws the candidates as a [`Proposal`]; [`evaluate_candidate`] computes one candidate's
//! features from the run seed, the generation and its index alone; [`Evolution::complete`]
//! (or [`Start::complete`]) folds the features into the next population. [`Evolution::step`]
//! is the three on this machine's cores, as `rbg evolve` runs them.

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

/// The candidates of one generation, to be evaluated (here or elsewhere, in any order) and
/// folded back by [`Evolution::complete`] (generation 0 by [`Start::complete`]).
#[derive(Clone, Debug)]
pub struct Proposal {
    /// The generation these candidates are for.
    pub generation: u32,
    /// Candidate `i` is evaluated by [`evaluate_candidate`] with `index` `i`.
    pub genomes: Vec<Genome>,
    /// When the generation began (for its wall time in the statistics).
    started: Instant,
}

impl Proposal {
    fn new(generation: u32, genomes: Vec<Genome>, started: Instant) -> Proposal {
        Proposal { generation, genomes, started }
    }

    /// Evaluates every candidate on this machine's cores (rayon).
    pub fn evaluate_here(&self, config: &EvolveConfig, settings: &EvalSettings) -> Vec<Features> {
        self.genomes
            .par_iter()
            .enumerate()
            .map(|(index, genome)| evaluate_candidate(config, settings, self.generation, index, genome))
            .collect()
    }
}

/// The fitness features of candidate `index` of `generation`, seeded from (run seed,
/// generation, index) alone: the same wherever and whenever it is computed.
pub fn evaluate_candidate(
    config: &EvolveConfig,
    settings: &EvalSettings,
    generation: u32,
    index: usize,
    genome: &Genome,
) -> Features {
    let seed = derive_seed(config.seed, Purpose::Evaluation, u64::from(generation), index as u64);
    match genome.to_game(config, &game_name(generation, index)) {
        Ok(game) => evaluate(&game, settings, seed),
        Err(e) => Features::unplayable(e),
    }
}

/// Pairs `genomes` with their `features`, which must be one per genome, in order.
fn individuals(genomes: Vec<Genome>, features: Vec<Features>) -> Result<Vec<Individual>, String> {
    if genomes.len() != features.len() {
        return Err(format!("{} candidates but {} evaluations", genomes.len(), features.len()));
    }
    Ok(genomes.into_iter().zip(features).map(|(genome, features)| Individual { genome, features }).collect())
}

/// A run before its initial population is evaluated: [`Evolution::begin`] draws it.
pub struct Start {
    config: EvolveConfig,
    pools: BlockPools,
    settings: EvalSettings,
}

impl Start {
    pub fn config(&self) -> &EvolveConfig {
        &self.config
    }

    pub fn settings(&self) -> &EvalSettings {
        &self.settings
    }

    /// Generation 0 from its candidates' features (one per candidate of `proposal`, in order).
    pub fn complete(self, proposal: Proposal, features: Vec<Features>) -> Result<Evolution, String> {
        let evaluated = individuals(proposal.genomes, features)?;
        let (population, playable) = select(evaluated, self.config.population as usize);
        let history = vec![stats_of(0, &population, playable, proposal.started.elapsed().as_secs_f64())];
        let state = Checkpoint {
            version: CHECKPOINT_VERSION,
            config: self.config,
            pools: self.pools,
            generation: 0,
            population,
            history,
        };
        Ok(Evolution { state, settings: self.settings })
    }
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
        let (start, proposal) = Evolution::begin(config, extra)?;
        let features = proposal.evaluate_here(&start.config, &start.settings);
        start.complete(proposal, features)
    }

    /// Draws the building blocks and the initial population (generation 0's candidates), not
    /// yet evaluated.
    pub fn begin(config: EvolveConfig, extra: Option<ExtraScore>) -> Result<(Start, Proposal), String> {
        config.validate()?;
        let started = Instant::now();
        let pools = BlockPools::random(&mut rng_for(config.seed, Purpose::Blocks, 0, 0));
        let mut rng = rng_for(config.seed, Purpose::Population, 0, 0);
        let genomes: Vec<Genome> =
            (0..config.population).map(|_| Genome::random(&config, &pools, &mut rng)).collect();
        let settings = EvalSettings::from_config(&config, extra);
        Ok((Start { config, pools, settings }, Proposal::new(0, genomes, started)))
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
        if checkpoint.population.iter().any(|i| i.genome.check_fits(&checkpoint.config).is_err()) {
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

    /// How candidates are evaluated in this run.
    pub fn settings(&self) -> &EvalSettings {
        &self.settings
    }

    /// Runs one generation; returns its statistics.
    pub fn step(&mut self) -> &GenerationStats {
        let proposal = self.propose();
        let features = proposal.evaluate_here(&self.state.config, &self.settings);
        self.complete(proposal, features).expect("one evaluation per candidate")
    }

    /// The candidates of the next generation: offspring of the playable individuals paired by
    /// `B_M + B_R` from the ends to the centre, then one mutant of every individual; drawn
    /// from the run seed and the generation alone.
    pub fn propose(&self) -> Proposal {
        let started = Instant::now();
        let generation = self.state.generation + 1;
        let config = &self.state.config;
        let mut rng = rng_for(config.seed, Purpose::Operators, u64::from(generation), 0);
        let parents = &self.state.population;
        let mut ordered: Vec<&Individual> = parents.iter().filter(|i| i.features.playable).collect();
        ordered
            .sort_by(|a, b| (a.features.b_m + a.features.b_r).total_cmp(&(b.features.b_m + b.features.b_r)));
        let mut fresh = Vec::new();
        for i in 0..ordered.len() / 2 {
            let (first, second) =
                crossover(&ordered[i].genome, &ordered[ordered.len() - 1 - i].genome, &mut rng);
            fresh.push(first);
            fresh.push(second);
        }
        for parent in parents {
            fresh.push(mutate(&parent.genome, &parent.features, config, &self.state.pools, &mut rng).0);
        }
        Proposal::new(generation, fresh, started)
    }

    /// Folds the features of `proposal`'s candidates (one each, in order) into the next
    /// population; returns the generation's statistics. A proposal of another generation is
    /// refused.
    pub fn complete(
        &mut self,
        proposal: Proposal,
        features: Vec<Features>,
    ) -> Result<&GenerationStats, String> {
        let generation = self.state.generation + 1;
        if proposal.generation != generation {
            return Err(format!(
                "the candidates are of generation {}, the run expects generation {generation}",
                proposal.generation
            ));
        }
        let started = proposal.started;
        let mut candidates: Vec<Individual> = self.state.population.clone();
        candidates.extend(individuals(proposal.genomes, features)?);
        let (population, playable) = select(candidates, self.state.config.population as usize);
        self.state.population = population;
        self.state.generation = generation;
        let stats = stats_of(generation, &self.state.population, playable, started.elapsed().as_secs_f64());
        self.state.history.push(stats);
        Ok(self.state.history.last().expect("just pushed"))
    }
}
