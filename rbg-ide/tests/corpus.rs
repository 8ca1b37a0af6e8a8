//! The 75 corpus games through the formatter and the analysis: formatting keeps the lowered
//! text (the reference parser's output, shared/conformance) and is idempotent; analysing a
//! game and the same game after random edits never panics.

use std::time::Instant;

use proptest::prelude::*;
use rbg_ide::format::format;
use rbg_ide::Analysis;
use rbg_parser::print::print_game;
use rbg_parser::source::Span;

const GAMES_IN_CORPUS: usize = 75;

fn corpus() -> Option<Vec<(String, String)>> {
    let dir = rbg_testdata::corpus()?;
    let games: Vec<(String, String)> = rbg_testdata::corpus_games(&dir)
        .into_iter()
        .map(|g| (g.name.clone(), String::from_utf8(g.bytes()).expect("corpus games are UTF-8")))
        .collect();
    assert_eq!(games.len(), GAMES_IN_CORPUS);
    Some(games)
}

fn lowered(name: &str, text: &str) -> Result<String, String> {
    let out = rbg_parser::parse(name, text.as_bytes());
    match &out.game {
        Some(game) => Ok(print_game(game)),
        None => {
            Err(out.diagnostics.iter().map(|d| d.reference_text(&out.source)).collect::<Vec<_>>().join("\n"))
        }
    }
}

#[test]
fn formatting_the_corpus_keeps_the_lowered_text_and_is_idempotent() {
    let Some(games) = corpus() else { return };
    let conformance = rbg_testdata::conformance();
    let mut failures = Vec::new();
    for (name, text) in &games {
        let formatted = match format(text) {
            Ok(formatted) => formatted,
            Err(e) => {
                failures.push(format!("{name}: {}", e.message));
                continue;
            }
        };
        let expected = match &conformance {
            Some(dir) => std::fs::read_to_string(dir.join("lowered").join(format!("{name}.rbg"))).unwrap(),
            None => lowered(name, text).unwrap(),
        };
        match lowered(name, &formatted) {
            Ok(got) if got == expected => {}
            Ok(_) => failures.push(format!("{name}: the formatted game lowers differently")),
            Err(e) => failures.push(format!("{name}: the formatted game does not parse: {e}")),
        }
        match format(&formatted) {
            Ok(again) if again == formatted => {}
            Ok(again) => {
                let line = formatted.lines().zip(again.lines()).position(|(a, b)| a != b);
                failures.push(format!("{name}: formatting twice changes line {line:?}"));
            }
            Err(e) => failures.push(format!("{name}: formatting the formatted text fails: {}", e.message)),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn corpus_games_analyse_without_diagnostics_and_quickly() {
    let Some(games) = corpus() else { return };
    let mut slowest = (0.0, String::new());
    for (name, text) in &games {
        let start = Instant::now();
        let analysis = Analysis::new(&format!("{name}.rbg"), text);
        let seconds = start.elapsed().as_secs_f64();
        if seconds > slowest.0 {
            slowest = (seconds, name.clone());
        }
        assert!(analysis.diagnostics().is_empty(), "{name}: {:?}", analysis.diagnostics());
        assert!(analysis.game().is_some(), "{name}");
        // Every written reference's span spells its symbol's name.
        for reference in analysis.symbols().references.iter().filter(|r| !r.pasted) {
            let symbol = &analysis.symbols().symbols[reference.symbol];
            let written = &text[reference.span.start as usize..reference.span.end as usize];
            assert_eq!(written, symbol.name, "{name}");
        }
    }
    eprintln!("slowest analysis: {} in {:.1} ms", slowest.1, slowest.0 * 1e3);
}
