//! Compiled flat Monte Carlo (fixed playouts from seed 1, monotonic classes on) on the
//! benchmark games.
use criterion::{criterion_group, criterion_main, BenchmarkGroup, Criterion, Throughput};
use rbg_core::playout::{flat_monte_carlo, McLimit, McOptions};
use rbg_core::Game;

mod common;
mod compiled;

struct Mc<'a, 'c>(&'a mut BenchmarkGroup<'c, criterion::measurement::WallTime>);

impl compiled::OnGame for Mc<'_, '_> {
    fn run<G: Game>(&mut self, name: &str, game: &G, _depth: u32, playouts: u64) {
        let opts = McOptions { limit: McLimit::Playouts(playouts), ..Default::default() };
        self.0.throughput(Throughput::Elements(playouts));
        self.0.bench_function(format!("{name}/{playouts}playouts"), |b| {
            b.iter(|| flat_monte_carlo(game, &opts, |_| {}).expect("playouts"))
        });
    }
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("compiled_mc");
    group.sample_size(10);
    compiled::each_game(&mut Mc(&mut group));
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
