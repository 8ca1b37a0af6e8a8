//! Fuzz target for the macro expander alone (lexer + directives + expansion), which runs much
//! faster than the whole pipeline and so explores expansion more deeply: no panic, no hang, and
//! every produced token and trail frame points inside the input.

#![no_main]

use libfuzzer_sys::fuzz_target;
use rbg_parser::expand::{expand, SectionKind, MAX_EXPANSION_STEPS};
use rbg_parser::source::Span;

fuzz_target!(|data: &[u8]| {
    let Ok(lexed) = rbg_parser::lexer::lex(data) else { return };
    let mut warnings = Vec::new();
    let Ok(expanded) = expand(lexed.tokens, &mut warnings) else { return };
    let inside = |span: Span| span.start <= span.end && span.end as usize <= data.len();
    for kind in SectionKind::ALL {
        let section = expanded.section(kind);
        assert!(section.tokens.len() as u64 <= MAX_EXPANSION_STEPS);
        assert!(inside(section.end));
        assert!(section.tokens.iter().all(|token| inside(token.span)));
        // Trails can be deep; checking the ends of each section is enough to catch bad links.
        for token in section.tokens.first().into_iter().chain(section.tokens.last()) {
            assert!(expanded.trails.frames(token.trail).iter().all(|frame| inside(frame.span())));
        }
        if let Some(error) = &section.error {
            assert!(error.span.is_some_and(inside));
            assert!(error.trail.iter().all(|frame| inside(frame.span())));
        }
    }
});
