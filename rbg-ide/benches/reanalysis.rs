//! Re-analysis after a one-character edit, for each of the 75 corpus games: the time an
//! editor waits for fresh diagnostics while typing (target: under 50 ms per game).
//!
//! `cargo bench -p rbg-ide --bench reanalysis`; each game is one criterion benchmark
//! (`reanalysis/<game>`), the edit inserting a space before the `#rules` directive's body.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use rbg_ide::Analysis;
use rbg_parser::source::Span;

fn reanalysis(c: &mut Criterion) {
    let Some(dir) = rbg_testdata::corpus() else { return };
    let mut group = c.benchmark_group("reanalysis");
    group.sample_size(10);
    for game in rbg_testdata::corpus_games(&dir) {
        let text = String::from_utf8_lossy(&game.bytes()).into_owned();
        let analysis = Analysis::new(&format!("{}.rbg", game.name), &text);
        let at = text.find("#rules").map_or(0, |i| i + "#rules =".len()) as u32;
        group.bench_function(&game.name, |b| {
            b.iter(|| black_box(analysis.edited(Span::new(at, at), " ").diagnostics()))
        });
    }
    group.finish();
}

criterion_group!(benches, reanalysis);
criterion_main!(benches);
