//! Where the generator plays a monotonic class's cached moves straight into the keeper's search
//! (`Game::play_class_move`), read off the generated source. That the moves play as
//! `apply_move` and `complete_keeper` would is tested on every corpus game with classes in
//! `rbg-compiled-tests/tests/differential.rs`.

mod common;

use common::{source, DROP_RULES};

/// The drop of `DROP_RULES`, with the column picked on the top row from wherever the last piece
/// fell (as connect4 does): the same cells at every turn, so each player's turn is a class.
fn rules() -> String {
    DROP_RULES.replace("->a (left* + right*)", "->a down* up^5 (left* + right*)")
}
use rbg_compiler::CompileOptions;

#[test]
fn a_class_switching_to_the_keeper_enters_its_search() {
    let code = source(7, 6, &rules(), &CompileOptions::default());
    assert!(code.contains("fn monotonic_class"), "{code}");
    assert!(code.contains("fn play_class_move"), "{code}");
    assert!(code.contains("&mut FirstSink"), "{code}");
}

#[test]
fn the_switch_or_checked_modifiers_turn_it_off() {
    for options in [
        CompileOptions { fused_class_moves: false, ..CompileOptions::default() },
        CompileOptions { unchecked_modifiers: false, ..CompileOptions::default() },
    ] {
        let code = source(7, 6, &rules(), &options);
        assert!(code.contains("fn monotonic_class"), "{code}");
        assert!(!code.contains("fn play_class_move"), "{code}");
    }
}

/// With every class a single switch (the drop's turn, as connect4's), `Game::random_playout` is the
/// generated loop over the classes' fixed caches; off, or without fused class moves or the
/// generated fill, rbg-core's generic loop.
#[test]
fn one_switch_classes_get_their_own_playout_loop() {
    let code = source(7, 6, &rules(), &CompileOptions::default());
    assert!(code.contains("fn random_playout"), "{code}");
    assert!(code.contains("draw_cached(") && code.contains("&mut cache_0,"), "{code}");
    for options in [
        CompileOptions { class_playouts: false, ..CompileOptions::default() },
        CompileOptions { fused_class_moves: false, ..CompileOptions::default() },
        CompileOptions { monotonic_fill: false, ..CompileOptions::default() },
    ] {
        let code = source(7, 6, &rules(), &options);
        assert!(code.contains("fn monotonic_class"), "{code}");
        assert!(!code.contains("fn random_playout"), "{code}");
    }
}
