//! Whole runs: determinism for a seed, resuming from a checkpoint, selection, and the checks of
//! every output game (it parses again from its written text; perft of the direct reasoner
//! equals perft of its RBG translation run by the interpreter at depth 2).

use rbg_evolve::output::{check_game, generations_csv, read_checkpoint, write_best, write_checkpoint};
use rbg_evolve::{evaluate_candidate, Checkpoint, Evolution, EvolveConfig};

fn tiny(seed: u64, generations: u32) -> EvolveConfig {
    EvolveConfig {
        width: 5,
        height: 5,
        weak_pieces: 1,
        light_pieces: 1,
        strong_pieces: 1,
        population: 6,
        generations,
        playouts: 4,
        turn_limit: 30,
        depth: 2,
        nodes_per_move: 500,
        seed,
        ..EvolveConfig::default()
    }
}

fn run(config: EvolveConfig) -> Evolution {
    let mut evolution = Evolution::start(config, None).expect("valid settings");
    while !evolution.finished() {
        evolution.step();
    }
    evolution
}

/// A checkpoint without its wall-clock times, which are the only non-deterministic part.
fn timeless(checkpoint: &Checkpoint) -> Checkpoint {
    let mut c = checkpoint.clone();
    c.history.iter_mut().for_each(|g| g.seconds = 0.0);
    c
}

fn scratch_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("rbg-evolve-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    dir
}

#[test]
fn two_runs_with_one_seed_are_identical_on_any_thread_count_and_another_seed_differs() {
    let a = run(tiny(7, 3));
    let b = run(tiny(7, 3));
    assert_eq!(timeless(a.checkpoint()), timeless(b.checkpoint()));
    // The same on one thread as on all cores: seeds never depend on scheduling.
    let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().expect("a thread pool");
    let single = pool.install(|| run(tiny(7, 3)));
    assert_eq!(timeless(a.checkpoint()), timeless(single.checkpoint()));
    let c = run(tiny(8, 3));
    assert_ne!(a.population()[0].genome, c.population()[0].genome);
}

#[test]
fn a_resumed_run_equals_an_uninterrupted_one() {
    let whole = run(tiny(11, 3));
    let dir = scratch_dir("resume");
    let path = dir.join("checkpoint.json");
    let first = run(tiny(11, 1));
    write_checkpoint(&path, first.checkpoint()).expect("written");
    let mut resumed = Evolution::resume(read_checkpoint(&path).expect("read"), None).expect("valid");
    resumed.set_generations(3);
    while !resumed.finished() {
        resumed.step();
    }
    assert_eq!(timeless(resumed.checkpoint()), timeless(whole.checkpoint()));
    // A damaged checkpoint is an error, not a panic.
    std::fs::write(&path, "{\"version\": 1}").expect("written");
    assert!(read_checkpoint(&path).is_err());
    let mut bad = first.checkpoint().clone();
    bad.population.truncate(2);
    assert!(Evolution::resume(bad, None).is_err());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_run_of_separate_steps_evaluated_out_of_order_equals_step() {
    let whole = run(tiny(13, 2));
    let (start, proposal) = Evolution::begin(tiny(13, 2), None).expect("valid settings");
    assert_eq!(proposal.generation, 0);
    let (config, settings) = (start.config().clone(), start.settings().clone());
    // Each candidate alone, last first: a fitness depends on (seed, generation, index) alone.
    let evaluate = |proposal: &rbg_evolve::Proposal| {
        let mut features: Vec<_> = (0..proposal.genomes.len())
            .rev()
            .map(|i| evaluate_candidate(&config, &settings, proposal.generation, i, &proposal.genomes[i]))
            .collect();
        features.reverse();
        features
    };
    let features = evaluate(&proposal);
    let mut stepped = start.complete(proposal, features).expect("one evaluation per candidate");
    while !stepped.finished() {
        let proposal = stepped.propose();
        assert_eq!(proposal.generation, stepped.generation() + 1);
        let features = evaluate(&proposal);
        // The features of another generation's candidates, or too few, are refused.
        let mut early = proposal.clone();
        early.generation += 1;
        assert!(stepped.complete(early, features.clone()).is_err());
        assert!(stepped.complete(proposal.clone(), features[1..].to_vec()).is_err());
        stepped.complete(proposal, features).expect("one evaluation per candidate");
    }
    assert_eq!(timeless(stepped.checkpoint()), timeless(whole.checkpoint()));
}

#[test]
fn selection_keeps_the_population_size_and_never_lowers_the_best() {
    let evolution = run(tiny(5, 4));
    let history = evolution.history();
    assert_eq!(history.len(), 5);
    for pair in history.windows(2) {
        assert!(pair[1].best >= pair[0].best, "{history:?}");
        assert!(pair[1].mean >= pair[0].min - 1e-12);
    }
    for g in history {
        assert!(g.min <= g.mean && g.mean <= g.best && g.best <= 1.0 && g.min >= 0.0, "{g:?}");
    }
    assert_eq!(evolution.population().len(), 6);
    // Best first.
    let fitness: Vec<f64> = evolution.population().iter().map(|i| i.fitness()).collect();
    assert!(fitness.windows(2).all(|w| w[0] >= w[1]), "{fitness:?}");
    let csv = generations_csv(history);
    assert_eq!(csv.lines().count(), 6);
    assert!(csv.starts_with("generation,best,mean,min,playable,seconds\n"));
}

#[test]
fn every_output_game_parses_again_and_both_reasoners_agree() {
    let evolution = run(tiny(3, 2));
    let dir = scratch_dir("output");
    let written = write_best(&dir, evolution.checkpoint(), evolution.population(), 3).expect("written");
    assert!(!written.is_empty());
    for path in &written {
        let text = std::fs::read_to_string(path).expect("the .sbg file");
        let game = rbg_sbg::parse("again.sbg", text.as_bytes()).expect("parses again");
        assert_eq!((game.width, game.height), (5, 5));
        let file = path.file_name().and_then(|f| f.to_str()).expect("a file name");
        let (rbg, counts) = check_game(file, &text).expect("agreeing reasoners");
        assert_eq!(counts.len(), 2);
        assert_eq!(std::fs::read_to_string(path.with_extension("rbg")).expect("the .rbg file"), rbg);
        let json: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(path.with_extension("json")).expect("the .json file"),
        )
        .expect("JSON");
        assert!(json["fitness"].as_f64().is_some_and(|f| (0.0..=1.0).contains(&f)));
        assert!(json["features"]["b_m"].is_number());
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_settings_are_errors() {
    for bad in [
        EvolveConfig { width: 1, ..tiny(1, 1) },
        EvolveConfig { population: 1, ..tiny(1, 1) },
        EvolveConfig { playouts: 1, ..tiny(1, 1) },
        EvolveConfig { weak_pieces: 0, light_pieces: 0, strong_pieces: 0, ..tiny(1, 1) },
        EvolveConfig { expected_branching: f64::NAN, ..tiny(1, 1) },
        EvolveConfig { turn_limit: 0, ..tiny(1, 1) },
        EvolveConfig { light_pieces: 9, ..tiny(1, 1) },
    ] {
        assert!(Evolution::start(bad, None).is_err());
    }
}
