//! The compiled engine on the RBG translation of every Simplified Boardgame of `games/sbg/`
//! counts the same game tree as the direct SBG reasoner (rbg-sbg), depth by depth until a depth
//! has at least 10^5 leaves (or none, or depth 13: blockade's whole tree).

use rbg_compiled_tests::{visit_sbg_game, GameVisitor, SBG_GAMES};
use rbg_core::perft::{perft, DriverError, PerftCounts, PerftOptions};
use rbg_core::Game;

struct Perft(u32);

impl GameVisitor for Perft {
    type Output = Result<PerftCounts, DriverError>;
    fn visit<G: Game>(self, game: &G) -> Self::Output {
        perft(game, self.0, &PerftOptions::default())
    }
}

fn direct_reasoner(name: &str) -> rbg_sbg::SbgReasoner {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../games/sbg").join(format!("{name}.sbg"));
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let game = rbg_sbg::parse(name, &bytes).unwrap_or_else(|ds| panic!("{name}: {ds:?}"));
    rbg_sbg::SbgReasoner::new(&game)
}

#[test]
fn compiled_translations_count_as_the_direct_reasoner() {
    assert!(SBG_GAMES.len() >= 15, "games/sbg/ holds {} games", SBG_GAMES.len());
    for name in SBG_GAMES {
        let direct = direct_reasoner(name);
        for depth in 1..=13 {
            let expected = perft(&direct, depth, &PerftOptions::default()).expect("direct perft");
            let compiled = visit_sbg_game(name, Perft(depth)).expect("compiled").expect("compiled perft");
            assert_eq!(
                (compiled.leaves, compiled.nodes),
                (expected.leaves, expected.nodes),
                "{name} at depth {depth}"
            );
            if expected.leaves == 0 || expected.leaves >= 100_000 {
                break;
            }
        }
    }
}
