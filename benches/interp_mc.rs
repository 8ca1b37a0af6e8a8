//! Interpreter flat Monte Carlo (single thread, fixed seed, monotonic classes on) on the
//! benchmark games; throughput is in playouts.
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use rbg_core::playout::{flat_monte_carlo, McLimit, McOptions};

mod common;

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("interp_mc");
    group.sample_size(10);
    for (name, _, playouts) in common::GAMES {
        let Some(interp) = common::interpreter(name) else {
            eprintln!("note: {name} not found, skipped");
            continue;
        };
        let opts = McOptions { limit: McLimit::Playouts(playouts), ..Default::default() };
        group.throughput(Throughput::Elements(playouts));
        group.bench_function(format!("{name}/{playouts}playouts"), |b| {
            b.iter(|| flat_monte_carlo(&interp, &opts, |_| {}).expect("playouts"))
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
