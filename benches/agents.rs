//! Agent speed on both engines: MCTS and split-move MCTS iterations (steps from sorted move
//! lists or from the reasoners' move-by-move interface; whole-move or step-by-step playouts),
//! flat Monte Carlo playouts
//! (the same playouts without a tree, so the ratio to MCTS is the tree's cost) and alpha-beta
//! nodes per second, from the initial states of breakthrough, chess, connect4 and amazons.
//!
//! Criterion reports throughput in elements per second: an element is an iteration, a playout
//! or an alpha-beta node. `benches/scripts/agents-table.py` turns the medians into the docs/results.md
//! table.
//!
//! ```sh
//! cargo bench --bench agents
//! ```
use criterion::measurement::WallTime;
use criterion::{criterion_group, criterion_main, BenchmarkGroup, Criterion, Throughput};
use rbg_agents::{
    Agent, AlphaBeta, AlphaBetaConfig, Budget, FlatMcConfig, FlatMonteCarlo, Mcts, MctsConfig, SplitMcts,
    SplitMctsConfig, SplitPlayout, StepSource,
};
use rbg_core::playout::{flat_monte_carlo, McLimit, McOptions};
use rbg_core::Game;

mod common;
mod compiled;

/// The games of the table with iterations per measured run (sized for 10-300 ms on the
/// interpreter) and the alpha-beta depth.
const AGENT_GAMES: [(&str, u64, u32); 4] =
    [("breakthrough", 200, 3), ("chess", 10, 2), ("connect4", 500, 5), ("amazons", 10, 1)];

fn plan(name: &str) -> Option<(u64, u32)> {
    AGENT_GAMES.iter().find(|g| g.0 == name).map(|g| (g.1, g.2))
}

struct Agents<'a, 'c> {
    group: &'a mut BenchmarkGroup<'c, WallTime>,
    engine: &'static str,
}

impl Agents<'_, '_> {
    fn run<G: Game>(&mut self, name: &str, game: &G) {
        let Some((iterations, depth)) = plan(name) else { return };
        let mut sc = game.new_scratch();
        let mut root = game.initial_state();
        assert!(game.complete_keeper(&mut root, &mut sc, 1000).expect("keeper"));
        let id = |what: &str| format!("{what}/{name}/{}", self.engine);
        let budget = Budget::iterations(iterations);
        self.group.throughput(Throughput::Elements(iterations));

        let mut mcts = Mcts::new(game, MctsConfig { reuse_tree: false, ..MctsConfig::default() }, 1);
        self.group.bench_function(id("mcts_iterations"), |b| {
            b.iter(|| mcts.select_move(game, &root, &budget).expect("mcts"))
        });
        // Steps from sorted move lists or from the reasoner's move-by-move interface, and
        // playouts that choose whole moves or step by step.
        let variants = [
            ("split_mcts_iterations", StepSource::Listed, SplitPlayout::Full),
            ("split_mcts_generated_iterations", StepSource::Generated, SplitPlayout::Full),
            ("split_mcts_split_playout_iterations", StepSource::Listed, SplitPlayout::Split),
            ("split_mcts_generated_split_playout_iterations", StepSource::Generated, SplitPlayout::Split),
        ];
        for (what, steps, playout) in variants {
            let config = SplitMctsConfig { reuse_tree: false, steps, playout, ..SplitMctsConfig::default() };
            let mut split = SplitMcts::new(game, config, 1);
            self.group.bench_function(id(what), |b| {
                b.iter(|| split.select_move(game, &root, &budget).expect("split-mcts"))
            });
        }
        let mut flat = FlatMonteCarlo::new(game, FlatMcConfig::default(), 1);
        self.group.bench_function(id("flatmc_playouts"), |b| {
            b.iter(|| flat.select_move(game, &root, &budget).expect("flat mc"))
        });
        // The reasoner's own playout driver from the same root, for comparison.
        let opts = McOptions { limit: McLimit::Playouts(iterations), ..McOptions::default() };
        self.group.bench_function(id("driver_playouts"), |b| {
            b.iter(|| flat_monte_carlo(game, &opts, |_| {}).expect("playouts"))
        });

        // Alpha-beta is deterministic: one search tells how many nodes every run visits (the
        // table is cleared before each run, so that all runs do the same work).
        let mut ab = AlphaBeta::new(game, AlphaBetaConfig::default()).expect("alpha-beta");
        let nodes = ab.select_move(game, &root, &Budget::depth(depth)).expect("alpha-beta").stats.nodes;
        self.group.throughput(Throughput::Elements(nodes));
        self.group.bench_function(id(&format!("alphabeta_nodes_depth{depth}")), |b| {
            b.iter(|| {
                ab.reset(0);
                ab.select_move(game, &root, &Budget::depth(depth)).expect("alpha-beta")
            })
        });
    }
}

impl compiled::OnGame for Agents<'_, '_> {
    fn run<G: Game>(&mut self, name: &str, game: &G, _depth: u32, _playouts: u64) {
        Agents::run(self, name, game);
    }
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("agents");
    group.sample_size(10).warm_up_time(std::time::Duration::from_millis(500));
    group.measurement_time(std::time::Duration::from_secs(2));
    for (name, _, _) in AGENT_GAMES {
        if let Some(game) = common::interpreter(name) {
            Agents { group: &mut group, engine: "interpreter" }.run(name, &game);
        }
    }
    compiled::each_game(&mut Agents { group: &mut group, engine: "compiled" });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
