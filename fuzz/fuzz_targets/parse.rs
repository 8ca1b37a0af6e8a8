//! Fuzz target: `rbg_parser::parse` on arbitrary bytes must not panic, hang or exhaust memory,
//! and its output must be consistent (diagnostics inside the file, a game exactly when there is
//! no error).

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let output = rbg_parser::parse("fuzz.rbg", data);
    let inside = |span: rbg_parser::source::Span| span.start <= span.end && span.end as usize <= data.len();
    for diagnostic in &output.diagnostics {
        assert!(diagnostic.span.is_none_or(inside), "diagnostic outside the input: {diagnostic:?}");
        assert!(diagnostic.trail.iter().all(|frame| inside(frame.span())), "trail outside the input");
        let _ = diagnostic.reference_text(&output.source);
    }
    assert_eq!(output.game.is_some(), !output.has_errors());
});
