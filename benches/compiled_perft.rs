//! Compiled perft (single thread, the reference driver's counting) on the benchmark games.
use criterion::{criterion_group, criterion_main, BenchmarkGroup, Criterion, Throughput};
use rbg_core::perft::{perft, PerftOptions};
use rbg_core::Game;

mod common;
mod compiled;

struct Perft<'a, 'c>(&'a mut BenchmarkGroup<'c, criterion::measurement::WallTime>);

impl compiled::OnGame for Perft<'_, '_> {
    fn run<G: Game>(&mut self, name: &str, game: &G, depth: u32, _playouts: u64) {
        let nodes = perft(game, depth, &PerftOptions::default()).map(|c| c.nodes).unwrap_or(0);
        self.0.throughput(Throughput::Elements(nodes));
        self.0.bench_function(format!("{name}/depth{depth}"), |b| {
            b.iter(|| perft(game, depth, &PerftOptions::default()).expect("perft"))
        });
    }
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("compiled_perft");
    group.sample_size(10);
    compiled::each_game(&mut Perft(&mut group));
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
