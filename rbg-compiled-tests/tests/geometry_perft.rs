//! Games on boards of the `tiling` generator (`games/geometry/`): the compiled engine counts the
//! hand-derived perft of depths 1 and 2 (derivations in `rbg-cli/tests/geometry.rs`) and the
//! interpreter's counts deeper, depth by depth until a depth has at least 10^5 leaves.

use rbg_compiled_tests::{visit_geometry_game, GameVisitor, GEOMETRY_GAMES};
use rbg_core::perft::{perft, DriverError, PerftCounts, PerftOptions};
use rbg_core::Game;
use rbg_interp::{InterpOptions, Interpreter};

struct Perft(u32);

impl GameVisitor for Perft {
    type Output = Result<PerftCounts, DriverError>;
    fn visit<G: Game>(self, game: &G) -> Self::Output {
        perft(game, self.0, &PerftOptions::default())
    }
}

fn interpreter(name: &str) -> Interpreter {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../games/geometry")
        .join(format!("{name}.rbg"));
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let game = rbg_parser::parse(name, &bytes).game.unwrap_or_else(|| panic!("{name} does not parse"));
    Interpreter::new(&game, name, InterpOptions::default()).expect("interpreter")
}

#[test]
fn compiled_geometry_games_count_as_derived_and_as_the_interpreter() {
    // Leaves at depths 1 and 2, derived by hand (see rbg-cli/tests/geometry.rs).
    let by_hand = [("hexChess", [16, 253]), ("triKings", [10, 100]), ("walkers3464", [7, 49])];
    assert_eq!(GEOMETRY_GAMES, by_hand.map(|(name, _)| name));
    for (name, leaves) in by_hand {
        let interp = interpreter(name);
        for depth in 1..=8 {
            let compiled =
                visit_geometry_game(name, Perft(depth)).expect("compiled").expect("compiled perft");
            let expected = perft(&interp, depth, &PerftOptions::default()).expect("interpreter perft");
            assert_eq!(compiled, expected, "{name} at depth {depth}");
            if let Some(&hand) = leaves.get(depth as usize - 1) {
                assert_eq!(compiled.leaves, hand, "{name} at depth {depth}");
            }
            if expected.leaves == 0 || expected.leaves >= 100_000 {
                break;
            }
        }
    }
}
