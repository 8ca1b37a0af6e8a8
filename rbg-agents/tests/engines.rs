//! The same agents with the same seed play the same games on the interpreter and on the
//! compiled reasoner: both generate the same moves in the same order, and agents only depend on
//! the move lists, the scores and their seed (iteration budgets, never time).

use rbg_agents::{play_game, AgentSpec, GameRecord, PlayLimits};
use rbg_core::Game;
use rbg_interp::{InterpOptions, Interpreter};

rbg_macros::rbg_game!(CompiledConnect4 = "../games/connect4.rbg");
rbg_macros::rbg_game!(CompiledTicTacToe = "../games/ticTacToe.rbg");

fn interpreter(file: &str) -> Interpreter {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../games").join(file);
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let game = rbg_parser::parse(file, &bytes).game.unwrap_or_else(|| panic!("{file} does not parse"));
    Interpreter::new(&game, file, InterpOptions::default()).unwrap_or_else(|e| panic!("{file}: {e:?}"))
}

fn play<G: Game>(game: &G, specs: [&str; 2], seed: u64) -> GameRecord {
    let mut agents: Vec<_> =
        specs.iter().map(|s| s.parse::<AgentSpec>().unwrap().build(game).unwrap()).collect();
    play_game(game, &mut agents, seed, &PlayLimits::default()).unwrap()
}

#[test]
fn agents_play_identically_on_both_engines() {
    let pairings = [
        ["mcts:iterations=150,mast=true", "alphabeta:depth=3"],
        ["flatmc:playouts=4", "random"],
        ["alphabeta:depth=2,material=1", "mcts:iterations=100,c=0.7"],
        ["mcts:iterations=100,playout=split", "mcts:iterations=100,rave=250,playout=split"],
    ];
    let interp = interpreter("connect4.rbg");
    for (i, specs) in pairings.iter().enumerate() {
        let a = play(&interp, *specs, i as u64);
        let b = play(&CompiledConnect4, *specs, i as u64);
        assert!(a.finished && !a.moves.is_empty());
        assert_eq!(a.move_list(), b.move_list(), "{specs:?}");
        assert_eq!(a.scores, b.scores, "{specs:?}");
    }
    let interp = interpreter("ticTacToe.rbg");
    let specs = ["alphabeta:depth=9", "mcts:iterations=300"];
    for seed in 0..4 {
        let (a, b) = (play(&interp, specs, seed), play(&CompiledTicTacToe, specs, seed));
        assert_eq!((a.move_list(), a.scores), (b.move_list(), b.scores));
    }
}
