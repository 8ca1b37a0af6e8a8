//! Matches on real games (the interpreter): reproducibility across thread counts and the
//! strength criteria of the issue, measured with [`play_match`]. Fixed seeds and iteration
//! budgets only, so every result here is deterministic.

use rbg_agents::{play_match, AgentSpec, Budget, MatchConfig, MatchOutcome, Termination};
use rbg_interp::{InterpOptions, Interpreter};

fn interpreter(file: &str) -> Interpreter {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../games").join(file);
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let game = rbg_parser::parse(file, &bytes).game.unwrap_or_else(|| panic!("{file} does not parse"));
    Interpreter::new(&game, file, InterpOptions::default()).unwrap_or_else(|e| panic!("{file}: {e:?}"))
}

fn specs(texts: &[&str]) -> Vec<AgentSpec> {
    texts.iter().map(|t| t.parse().unwrap_or_else(|e| panic!("{t}: {e}"))).collect()
}

fn play(file: &str, agents: &[&str], games: u64, threads: usize, seed: u64) -> MatchOutcome {
    let game = interpreter(file);
    let config = MatchConfig { games, threads, seed, ..MatchConfig::default() };
    let outcome = play_match(&game, &specs(agents), &config, |_| {}).unwrap();
    let s = &outcome.summary;
    eprintln!("{agents:?} on {file}: {:?}, Elo {:?}", s.per_agent, s.elo().map(|e| e.to_string()));
    outcome
}

#[test]
fn a_match_gives_the_same_games_on_one_and_on_two_threads() {
    let agents = ["mcts:iterations=100", "flatmc:playouts=3"];
    let one = play("connect4.rbg", &agents, 6, 1, 77);
    let two = play("connect4.rbg", &agents, 6, 2, 77);
    assert_eq!(one.summary, two.summary);
    // Same games, move for move (the statistics hold elapsed times, so only moves are compared).
    let moves = |o: &MatchOutcome| {
        o.games.iter().map(|g| (g.index, g.seating.clone(), g.move_list())).collect::<Vec<_>>()
    };
    assert_eq!(moves(&one), moves(&two));
    assert_eq!(
        one.games.iter().map(|g| &g.scores).collect::<Vec<_>>(),
        two.games.iter().map(|g| &g.scores).collect::<Vec<_>>()
    );
    // A different base seed plays other games.
    let other = play("connect4.rbg", &agents, 6, 2, 78);
    assert_ne!(moves(&one), moves(&other));
}

#[test]
fn a_budget_override_applies_to_every_agent() {
    let game = interpreter("ticTacToe.rbg");
    let config = MatchConfig { games: 2, budget: Some(Budget::iterations(7)), ..MatchConfig::default() };
    let outcome = play_match(&game, &specs(&["mcts:iterations=500", "flatmc"]), &config, |_| {}).unwrap();
    assert_eq!(
        outcome.summary.agents,
        vec!["mcts:iterations=7".to_string(), "flatmc:iterations=7".to_string()]
    );
    for g in &outcome.games {
        assert_eq!(g.termination, Termination::Finished);
        assert!(g.moves.iter().all(|m| m.stats.iterations <= 7), "{:?}", g.moves);
    }
}

/// The criterion: full-depth alpha-beta never loses tic-tac-toe, in either seat,
/// against random play or against MCTS.
#[test]
fn alpha_beta_never_loses_tic_tac_toe_in_a_match() {
    for (opponent, games) in [("random", 20), ("mcts:iterations=500", 10)] {
        let outcome = play("ticTacToe.rbg", &["alphabeta:depth=9", opponent], games, 2, 31);
        let s = &outcome.summary;
        assert_eq!(s.finished, games);
        assert_eq!(s.per_agent[0].losses, 0, "{opponent}: {:?}", s.per_agent);
        assert_eq!(s.per_seat[0].iter().map(|t| t.games()).collect::<Vec<_>>(), vec![games / 2, games / 2]);
    }
}

/// The criterion: MCTS (1000 iterations) beats random in at least 95% of 100
/// tic-tac-toe games, seats rotated. (Not every game can be won: as second player even perfect
/// play only wins if the random player errs, and sometimes it does not.)
#[test]
fn mcts_beats_random_at_tic_tac_toe_in_95_percent_of_the_games() {
    let outcome = play("ticTacToe.rbg", &["mcts:iterations=1000", "random"], 100, 2, 2024);
    let s = &outcome.summary;
    assert_eq!(s.finished, 100);
    assert!(s.per_agent[0].wins >= 95, "{:?}", s.per_agent[0]);
    let elo = s.elo().unwrap();
    assert!(elo.difference > 400.0, "{elo:?}");
}
