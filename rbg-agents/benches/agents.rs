//! Agent speed on the interpreter: MCTS iterations, flat Monte Carlo playouts and alpha-beta
//! nodes per second from the initial states of breakthrough and connect4.
//!
//! Criterion reports the throughput in elements per second, where an element is an MCTS
//! iteration, a flat MC playout or an alpha-beta node respectively.
//!
//! ```sh
//! cargo bench -p rbg-agents --bench agents
//! ```

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use rbg_agents::{Agent, AlphaBeta, AlphaBetaConfig, Budget, FlatMcConfig, FlatMonteCarlo, Mcts, MctsConfig};
use rbg_core::Game;
use rbg_interp::{InterpOptions, Interpreter};

fn interpreter(file: &str) -> Interpreter {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../games").join(file);
    let bytes = std::fs::read(&path).expect("game file");
    let game = rbg_parser::parse(file, &bytes).game.expect("game parses");
    Interpreter::new(&game, file, InterpOptions::default()).expect("interpreter")
}

const ITERATIONS: u64 = 500;

fn agents(c: &mut Criterion) {
    let mut group = c.benchmark_group("agents");
    group.sample_size(10);
    for (file, depth) in [("breakthrough.rbg", 3), ("connect4.rbg", 5)] {
        let game = interpreter(file);
        let mut sc = game.new_scratch();
        let mut root = game.initial_state();
        assert!(game.complete_keeper(&mut root, &mut sc, 1000).unwrap());
        let name = file.trim_end_matches(".rbg");

        group.throughput(Throughput::Elements(ITERATIONS));
        let config = MctsConfig { reuse_tree: false, ..MctsConfig::default() };
        let mut mcts = Mcts::new(&game, config.clone(), 1);
        group.bench_function(BenchmarkId::new("mcts_iterations", name), |b| {
            b.iter(|| mcts.select_move(&game, &root, &Budget::iterations(ITERATIONS)).unwrap())
        });
        let mut mast = Mcts::new(&game, MctsConfig { mast: true, ..config }, 1);
        group.bench_function(BenchmarkId::new("mcts_mast_iterations", name), |b| {
            b.iter(|| mast.select_move(&game, &root, &Budget::iterations(ITERATIONS)).unwrap())
        });
        let mut flat = FlatMonteCarlo::new(&game, FlatMcConfig::default(), 1);
        group.bench_function(BenchmarkId::new("flatmc_playouts", name), |b| {
            b.iter(|| flat.select_move(&game, &root, &Budget::iterations(ITERATIONS)).unwrap())
        });

        // Alpha-beta is deterministic: one search tells how many nodes every run visits. The
        // table is cleared before each run (reset) so that all runs do the same work.
        let mut ab = AlphaBeta::new(&game, AlphaBetaConfig::default()).unwrap();
        let nodes = ab.select_move(&game, &root, &Budget::depth(depth)).unwrap().stats.nodes;
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(BenchmarkId::new(format!("alphabeta_nodes_depth{depth}"), name), |b| {
            b.iter(|| {
                ab.reset(0);
                ab.select_move(&game, &root, &Budget::depth(depth)).unwrap()
            })
        });
    }
    group.finish();
}

criterion_group!(benches, agents);
criterion_main!(benches);
