//! Fuzz target: `rbg_sbg::parse` on arbitrary bytes must not panic or hang; its diagnostics lie
//! inside the input; a game that parses translates into RBG the RBG parser accepts.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    match rbg_sbg::parse("fuzz.sbg", data) {
        Err(diagnostics) => {
            for d in &diagnostics {
                assert!(d.span.is_none_or(|s| s.start <= s.end && s.end as usize <= data.len()), "{d:?}");
            }
        }
        Ok(game) => {
            let generated = rbg_sbg::to_rbg_writer(&game).parse("fuzz.rbg");
            assert!(generated.game.is_some(), "translation rejected: {:?}", generated.parsed);
        }
    }
});
