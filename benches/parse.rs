//! Front-end speed: reading all corpus games (lex, expand, declarations, board, rules, typing,
//! lowering, straightness), and printing their low-level form.
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

mod common;

fn bench(c: &mut Criterion) {
    let games = common::corpus_files();
    if games.is_empty() {
        eprintln!("note: corpus not found, parse benchmark skipped");
        return;
    }
    let mut group = c.benchmark_group("parse");
    group.throughput(Throughput::Elements(games.len() as u64));
    group.bench_function(format!("all {} corpus games", games.len()), |b| {
        b.iter(|| {
            for (name, bytes) in &games {
                let game = rbg_parser::parse(name, bytes).game.expect("corpus games parse");
                criterion::black_box(rbg_parser::print::print_game(&game));
            }
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
