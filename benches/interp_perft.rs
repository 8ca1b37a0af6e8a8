//! Interpreter perft (single thread, the reference driver's counting) on the benchmark games.
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use rbg_core::perft::{perft, PerftOptions};

mod common;

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("interp_perft");
    group.sample_size(10);
    for (name, depth, _) in common::GAMES {
        let Some(interp) = common::interpreter(name) else {
            eprintln!("note: {name} not found, skipped");
            continue;
        };
        let nodes = perft(&interp, depth, &PerftOptions::default()).map(|c| c.nodes).unwrap_or(0);
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(format!("{name}/depth{depth}"), |b| {
            b.iter(|| perft(&interp, depth, &PerftOptions::default()).expect("perft"))
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
