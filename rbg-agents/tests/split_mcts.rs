//! Split-move MCTS and the move-by-move view of the reasoners ([`Game::split_moves`]): the
//! steps both engines offer (against hand derivations), legal play on every corpus game,
//! reproducibility, tree reuse, the choice of a forced move and strength against random play.
//! Fixed seeds and iteration budgets only, so every result here is deterministic.

use std::collections::BTreeSet;
use std::path::Path;
use std::time::Instant;

use rbg_agents::{
    play_game, play_match, Agent, AgentSpec, Budget, Expansion, MatchConfig, PlayLimits, SplitMcts,
    SplitMctsConfig, SplitPlayout, StepSource,
};
use rbg_core::dynamic::AnyGame;
use rbg_core::split::{PartialMove, SplitMoves};
use rbg_core::{Action, Game, MoveList};
use rbg_interp::{InterpOptions, Interpreter};

rbg_macros::rbg_game!(CompiledTicTacToe = "../games/ticTacToe.rbg");

fn interpreter_from(name: &str, bytes: &[u8]) -> Interpreter {
    let game = rbg_parser::parse(name, bytes).game.unwrap_or_else(|| panic!("{name} does not parse"));
    Interpreter::new(&game, name, InterpOptions::default()).unwrap_or_else(|e| panic!("{name}: {e:?}"))
}

fn interpreter(file: &str) -> Interpreter {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../games").join(file);
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    interpreter_from(file, &bytes)
}

/// The state where the first real player is to move.
fn start<G: Game>(game: &G) -> G::State {
    let mut s = game.initial_state();
    let mut sc = game.new_scratch();
    assert!(game.complete_keeper(&mut s, &mut sc, 1000).unwrap());
    s
}

/// Plays the legal move whose first action is at `vertex` (tic-tac-toe: the cell marked).
fn play_cell<G: Game>(game: &G, s: &mut G::State, vertex: u32) {
    let mut sc = game.new_scratch();
    let mut moves = MoveList::new();
    game.legal_moves(s, &mut sc, &mut moves).unwrap();
    let mv = moves.iter().find(|m| m[0].vertex == vertex).unwrap_or_else(|| panic!("no move at {vertex}"));
    let mv = mv.to_vec();
    game.apply_move(s, &mv);
    assert!(game.complete_keeper(s, &mut sc, 1000).unwrap());
}

/// The steps of `p` as (actions, number of completions, complete after the step).
fn steps_of(v: &SplitMoves, p: PartialMove, compress: bool) -> Vec<(Vec<Action>, usize, bool)> {
    v.steps(p, compress).map(|s| (s.actions.to_vec(), s.next.completions(), v.is_complete(s.next))).collect()
}

/// The whole tree of steps of a state, depth first, as (depth, actions, completions).
fn step_tree(v: &SplitMoves, compress: bool) -> Vec<(u32, Vec<Action>, usize)> {
    fn walk(v: &SplitMoves, p: PartialMove, compress: bool, out: &mut Vec<(u32, Vec<Action>, usize)>) {
        for s in v.steps(p, compress) {
            out.push((s.next.depth, s.actions.to_vec(), s.next.completions()));
            walk(v, s.next, compress, out);
        }
    }
    let mut out = Vec::new();
    walk(v, v.root(), compress, &mut out);
    out
}

fn split_moves_of<G: Game>(game: &G, s: &G::State) -> SplitMoves {
    let mut v = SplitMoves::new();
    let mut s = s.clone();
    game.split_moves(&mut s, &mut game.new_scratch(), &mut v).unwrap();
    v
}

/// A one-row game written for this test: player `one` lifts a piece (`[e]`), goes one or two
/// cells right to an empty cell and puts it there (`[p]`), then hands over to the keeper, who
/// is stuck (`{}` matches nothing). The row is `p p e e` (vertices 0 to 3).
const SLIDE: &str = "#players = one(1), two(1)
#pieces = e, p
#variables =
#board = rectangle(up, down, left, right, [p, p, e, e])
#rules = ->one (left* + right*) {p} [e] right ({e} + right {e}) [p] ->> {}
";

#[test]
fn split_moves_follow_a_hand_derivation() {
    // Modifiers are numbered in order of appearance: ->one 1, [e] 2, [p] 3, ->> 4. From 0 the
    // piece can only go to 2 (1 is taken); from 1 it goes to 2 or 3. By hand, the moves are
    // 2@0 3@2 4@2, 2@1 3@2 4@2 and 2@1 3@3 4@3.
    let a = Action::new;
    let interp = interpreter_from("slide", SLIDE.as_bytes());
    let any = AnyGame::new(interpreter_from("slide", SLIDE.as_bytes()));
    for v in [split_moves_of(&interp, &start(&interp)), split_moves_of(&any, &start(&any))] {
        assert_eq!(v.len(), 3);
        let root = v.root();
        assert_eq!(steps_of(&v, root, false), vec![(vec![a(2, 0)], 1, false), (vec![a(2, 1)], 2, false)]);
        assert_eq!(
            steps_of(&v, root, true),
            vec![(vec![a(2, 0), a(3, 2), a(4, 2)], 1, true), (vec![a(2, 1)], 2, false)]
        );
        let from1 = v.steps(root, true).nth(1).unwrap().next;
        assert_eq!(
            steps_of(&v, from1, true),
            vec![(vec![a(3, 2), a(4, 2)], 1, true), (vec![a(3, 3), a(4, 3)], 1, true)]
        );
        let from1 = v.steps(root, false).nth(1).unwrap().next;
        let to3 = v.steps(from1, false).nth(1).unwrap().next;
        assert_eq!(steps_of(&v, to3, false), vec![(vec![a(4, 3)], 1, true)]);
    }
}

#[test]
fn both_engines_offer_the_same_steps_at_tic_tac_toe() {
    let interp = interpreter("ticTacToe.rbg");
    let any = AnyGame::new(interpreter("ticTacToe.rbg"));
    let compiled = CompiledTicTacToe;
    // By hand: a move writes a mark on a free cell (one modifier) and hands over to the keeper
    // (the next modifier, at the same cell). At the start all nine cells are free.
    let v = split_moves_of(&interp, &start(&interp));
    let uncompressed = steps_of(&v, v.root(), false);
    assert_eq!(uncompressed.iter().map(|s| s.0[0].vertex).collect::<Vec<_>>(), (0..9).collect::<Vec<_>>());
    let mark = uncompressed[0].0[0].index;
    for (step, cell) in steps_of(&v, v.root(), false).into_iter().zip(0..) {
        assert_eq!(step, (vec![Action::new(mark, cell)], 1, false));
    }
    for (step, cell) in steps_of(&v, v.root(), true).into_iter().zip(0..) {
        assert_eq!(step, (vec![Action::new(mark, cell), Action::new(mark + 1, cell)], 1, true));
    }
    // Along a game, the three engines give the same tree of steps.
    let (mut si, mut sa, mut sc) = (start(&interp), start(&any), start(&compiled));
    for cell in [4, 0, 8, 2, 6] {
        for compress in [false, true] {
            let expected = step_tree(&split_moves_of(&interp, &si), compress);
            assert_eq!(step_tree(&split_moves_of(&any, &sa), compress), expected);
            assert_eq!(step_tree(&split_moves_of(&compiled, &sc), compress), expected);
        }
        play_cell(&interp, &mut si, cell);
        play_cell(&any, &mut sa, cell);
        play_cell(&compiled, &mut sc, cell);
    }
}

/// Checks the step tree of `v` against the legal moves, computed independently: its complete
/// partial moves are exactly the legal moves, each once; a step never leads to a dead end
/// (every node has a step or is complete); with compression every node below the root that
/// is not complete offers a choice of at least two steps.
fn check_step_tree(v: &SplitMoves, legal: &MoveList, name: &str) {
    let expected: BTreeSet<Vec<Action>> = legal.iter().map(<[Action]>::to_vec).collect();
    for compress in [false, true] {
        let mut reached = Vec::new();
        let mut todo = vec![v.root()];
        while let Some(p) = todo.pop() {
            if v.is_complete(p) {
                reached.push(v.complete_move(p).unwrap().to_vec());
                continue;
            }
            let count = v.step_count(p, compress);
            assert!(count > 0, "{name}: a dead end at {:?}", v.prefix(p));
            if compress && p != v.root() {
                assert!(count >= 2, "{name}: a compressed node without a choice at {:?}", v.prefix(p));
            }
            todo.extend(v.steps(p, compress).map(|s| s.next));
        }
        assert_eq!(reached.len(), legal.len(), "{name}");
        assert_eq!(reached.into_iter().collect::<BTreeSet<_>>(), expected, "{name}");
    }
}

/// (moves per game, plies per playout, iterations per move): small for the corpus games whose
/// moves are many or slow to generate with the interpreter (arimaa_fixedPosition has 20 652
/// moves in its first state, connect6 some 65 000: two stones anywhere; paperSoccer meets states
/// whose moves, long chains of bounces, are too many to list), so that the whole
/// test stays within about a minute.
fn bounds(name: &str, index: u64) -> (u64, u64, u64) {
    match name {
        "arimaa_fixedPosition" | "connect6" => (2, 0, 2),
        n if n.starts_with("arimaa") || n.contains("breakthru") => (6, 2, 4),
        "paperSoccer" => (16, 4, 4),
        _ => (30, 10, 4 + (index % 3) * 6),
    }
}

/// The criterion: split-move MCTS plays only legal moves on every corpus game. Each
/// game is played against random players to its end or to a ply cap; the options vary from
/// game to game so that every combination plays. Every move chosen is checked against the
/// legal moves here (as well as by `play_game`), and the step tree of every state reached is
/// checked against them too.
#[test]
fn split_mcts_plays_only_legal_moves_on_every_corpus_game() {
    let Some(corpus) = rbg_testdata::corpus() else { return };
    let games = rbg_testdata::corpus_games(&corpus);
    assert_eq!(games.len(), 75, "the corpus has 75 games");
    let started = Instant::now();
    for (i, g) in games.iter().enumerate() {
        let game_started = Instant::now();
        let game = interpreter_from(&g.name, &g.bytes());
        let (max_moves, playout_plies, iterations) = bounds(&g.name, i as u64);
        let config = SplitMctsConfig {
            budget: Budget::iterations(iterations),
            compress: i % 2 == 0,
            expansion: if i % 4 < 2 { Expansion::Nodal } else { Expansion::Single },
            playout: if i % 8 < 4 { SplitPlayout::Full } else { SplitPlayout::Split },
            steps: if i % 16 < 8 { StepSource::Listed } else { StepSource::Generated },
            mast: i % 5 == 0,
            nst: usize::from(i % 10 == 0),
            rave: if i % 3 == 0 { 250.0 } else { 0.0 },
            grave_ref: if i % 6 == 0 { 10 } else { 0 },
            rollup: if i % 7 < 3 { 1.0 } else { 0.0 },
            max_playout_plies: playout_plies,
            ..SplitMctsConfig::default()
        };
        let players = game.info().num_players();
        let mut agents: Vec<Box<dyn Agent<Interpreter> + '_>> = (0..players)
            .map(|seat| -> Box<dyn Agent<Interpreter>> {
                if seat % 2 == 0 {
                    Box::new(SplitMcts::new(&game, config.clone(), 0))
                } else {
                    "random".parse::<AgentSpec>().unwrap().build(&game).unwrap()
                }
            })
            .collect();
        let limits = PlayLimits { max_moves, ..PlayLimits::default() };
        let record =
            play_game(&game, &mut agents, i as u64, &limits).unwrap_or_else(|e| panic!("{}: {e}", g.name));
        assert!(!record.moves.is_empty(), "{}", g.name);
        // Replay: every move is legal where it was played.
        let mut sc = game.new_scratch();
        let mut s = start(&game);
        let mut legal = MoveList::new();
        for played in &record.moves {
            game.legal_moves(&mut s, &mut sc, &mut legal).unwrap();
            assert!(legal.iter().any(|m| m == played.mv.as_slice()), "{}: illegal {:?}", g.name, played.mv);
            check_step_tree(&split_moves_of(&game, &s), &legal, &g.name);
            game.apply_move(&mut s, &played.mv);
            if !game.complete_keeper(&mut s, &mut sc, 100_000).unwrap() {
                break;
            }
        }
        eprintln!(
            "{}: {} moves{} in {:.2?}",
            g.name,
            record.moves.len(),
            if record.finished { ", finished" } else { "" },
            game_started.elapsed()
        );
    }
    eprintln!("all corpus games in {:.2?}", started.elapsed());
}

#[test]
fn the_same_seed_plays_the_same_game() {
    let game = interpreter("connect4.rbg");
    let play = |seed: u64| {
        let mut agents: Vec<_> = [
            "split-mcts:iterations=60,steps=generated",
            "smcts:iterations=40,expansion=single,playout=split",
        ]
        .iter()
        .map(|s| s.parse::<AgentSpec>().unwrap().build(&game).unwrap())
        .collect();
        play_game(&game, &mut agents, seed, &PlayLimits::default()).unwrap()
    };
    let (a, b) = (play(5), play(5));
    assert!(a.finished);
    // Split MAST and NST too.
    let mast = |seed: u64| {
        let spec = "split-mcts:iterations=40,mast=true,nst=1,epsilon=0.4,decay=0.5";
        let mut agents: Vec<_> =
            [spec, "random"].iter().map(|s| s.parse::<AgentSpec>().unwrap().build(&game).unwrap()).collect();
        play_game(&game, &mut agents, seed, &PlayLimits::default()).unwrap()
    };
    assert_eq!(mast(3).move_list(), mast(3).move_list());
    // RAVE, GRAVE and roll-up too.
    let rave = |seed: u64| {
        let specs = [
            "split-mcts:iterations=40,rave=250,grave=5,rollup=1",
            "smcts:iterations=30,rave=50,compress=false",
        ];
        let mut agents: Vec<_> =
            specs.iter().map(|s| s.parse::<AgentSpec>().unwrap().build(&game).unwrap()).collect();
        play_game(&game, &mut agents, seed, &PlayLimits::default()).unwrap()
    };
    let (r, r_again) = (rave(8), rave(8));
    assert_eq!((r.move_list(), r.scores), (r_again.move_list(), r_again.scores));
    assert_eq!(a.move_list(), b.move_list());
    assert_eq!(a.scores, b.scores);
    let stats: Vec<_> = a.moves.iter().map(|m| (m.stats.iterations, m.stats.nodes, m.stats.depth)).collect();
    let again: Vec<_> = b.moves.iter().map(|m| (m.stats.iterations, m.stats.nodes, m.stats.depth)).collect();
    assert_eq!(stats, again);
    // The statistics are filled: every decision ran its iterations and visited states.
    assert!(a.moves.iter().all(|m| m.stats.iterations > 0 && m.stats.nodes > 0 && m.stats.value.is_some()));
}

#[test]
fn tree_reuse_keeps_the_subtree_of_the_move_played() {
    let game = interpreter("ticTacToe.rbg");
    let root = start(&game);
    let mut agent = SplitMcts::new(&game, SplitMctsConfig::default(), 3);
    let decision = agent.select_move(&game, &root, &Budget::iterations(300)).unwrap();
    assert_eq!(agent.root_visits(), 300);
    agent.observe(&game, &root, &decision.mv).unwrap();
    // With compression each of the 9 root children is a whole move, and each of the 300
    // iterations went through one of them: the robust child has at least ceil(300 / 9) = 34.
    let kept = agent.root_visits();
    assert!(kept >= 34, "{kept}");
    assert!(agent.tree_size() > 1);
    let mut next = root.clone();
    game.apply_move(&mut next, &decision.mv);
    assert!(game.complete_keeper(&mut next, &mut game.new_scratch(), 1000).unwrap());
    agent.select_move(&game, &next, &Budget::iterations(50)).unwrap();
    assert_eq!(agent.root_visits(), kept + 50);
    // Without reuse the tree is dropped.
    let config = SplitMctsConfig { reuse_tree: false, ..SplitMctsConfig::default() };
    let mut fresh = SplitMcts::new(&game, config, 3);
    let decision = fresh.select_move(&game, &root, &Budget::iterations(100)).unwrap();
    fresh.observe(&game, &root, &decision.mv).unwrap();
    assert_eq!(fresh.tree_size(), 0);
    // A move the tree has not seen (the agent searched another state) also drops it.
    let mut other = SplitMcts::new(&game, SplitMctsConfig::default(), 3);
    other.select_move(&game, &next, &Budget::iterations(20)).unwrap();
    other.observe(&game, &root, &decision.mv).unwrap();
    assert_eq!(other.tree_size(), 0);
}

#[test]
fn the_robust_child_is_the_only_good_move() {
    let game = interpreter("ticTacToe.rbg");
    // Cells are numbered row by row from the top left:  0 1 2 / 3 4 5 / 6 7 8.
    // X 0, O 3, X 1, O 4: X completes the top row at 2 (any other move lets O win at 5).
    let mut win = start(&game);
    for cell in [0, 3, 1, 4] {
        play_cell(&game, &mut win, cell);
    }
    // X 0, O 4, X 1: O must block at 2, or X wins there.
    let mut block = start(&game);
    for cell in [0, 4, 1] {
        play_cell(&game, &mut block, cell);
    }
    let variants = [
        SplitMctsConfig::default(),
        SplitMctsConfig { compress: false, ..SplitMctsConfig::default() },
        SplitMctsConfig {
            expansion: Expansion::Single,
            playout: SplitPlayout::Split,
            ..SplitMctsConfig::default()
        },
        SplitMctsConfig { steps: StepSource::Listed, ..SplitMctsConfig::default() },
        SplitMctsConfig {
            steps: StepSource::Generated,
            compress: false,
            expansion: Expansion::Single,
            playout: SplitPlayout::Split,
            ..SplitMctsConfig::default()
        },
        SplitMctsConfig { mast: true, mast_epsilon: 0.4, ..SplitMctsConfig::default() },
        SplitMctsConfig { nst: 2, steps: StepSource::Listed, ..SplitMctsConfig::default() },
        SplitMctsConfig { rave: 250.0, compress: false, ..SplitMctsConfig::default() },
        SplitMctsConfig {
            rave: 250.0,
            grave_ref: 20,
            playout: SplitPlayout::Split,
            ..SplitMctsConfig::default()
        },
        SplitMctsConfig { rollup: 1.0, compress: false, ..SplitMctsConfig::default() },
    ];
    for (state, what) in [(&win, "win"), (&block, "block")] {
        for (i, config) in variants.iter().enumerate() {
            let mut agent = SplitMcts::new(&game, config.clone(), 11 + i as u64);
            let decision = agent.select_move(&game, state, &Budget::iterations(2000)).unwrap();
            assert_eq!(decision.mv[0].vertex, 2, "{what}, {config:?}: {:?}", decision.mv);
        }
    }
}

/// The criterion for MCTS, met by split MCTS too: at least 95 wins in 100 tic-tac-toe
/// games against random play, seats rotated.
#[test]
fn split_mcts_beats_random_at_tic_tac_toe() {
    let game = interpreter("ticTacToe.rbg");
    let specs: Vec<AgentSpec> =
        ["split-mcts:iterations=1000", "random"].iter().map(|s| s.parse().unwrap()).collect();
    let config = MatchConfig { games: 100, threads: 2, seed: 2024, ..MatchConfig::default() };
    let outcome = play_match(&game, &specs, &config, |_| {}).unwrap();
    let s = &outcome.summary;
    eprintln!("split-mcts vs random: {:?}", s.per_agent);
    assert_eq!(s.finished, 100);
    assert_eq!(s.per_seat[0].iter().map(|t| t.games()).collect::<Vec<_>>(), vec![50, 50]);
    assert!(s.per_agent[0].wins >= 95, "{:?}", s.per_agent[0]);
}

/// Player `one` marks cell 0 or 1 of an empty row of five; then `two` marks any of the four
/// cells left. Every move is a mark and a switch (two actions), so the first state's moves hold
/// 4 actions and the second's 8.
const GROWING: &str = "#players = one(1), two(1)
#pieces = e, p
#variables =
#board = rectangle(up, down, left, right, [e, e, e, e, e])
#rules = ->one ({e} + right {e}) [p] ->two (left* + right*) {e} [p] ->> {}
";

#[test]
fn states_with_too_many_moves_to_list_are_left_to_playouts() {
    let game = interpreter_from("growing", GROWING.as_bytes());
    let root = start(&game);
    let mut legal = MoveList::new();
    game.legal_moves(&mut root.clone(), &mut game.new_scratch(), &mut legal).unwrap();
    assert_eq!(legal.len(), 2);
    for playout in [SplitPlayout::Full, SplitPlayout::Split] {
        // Room for the root's 4 actions but not for the 8 of the states below it: the tree
        // cannot grow past the root's children, which are scored by sampled playouts.
        let config = SplitMctsConfig {
            max_move_actions: 5,
            playout,
            steps: StepSource::Listed,
            ..SplitMctsConfig::default()
        };
        let mut agent = SplitMcts::new(&game, config.clone(), 1);
        let decision = agent.select_move(&game, &root, &Budget::iterations(20)).unwrap();
        assert!(legal.iter().any(|m| m == decision.mv.as_slice()), "{playout:?}: {:?}", decision.mv);
        assert_eq!(decision.stats.iterations, 20);
        assert_eq!(agent.tree_size(), 3, "{playout:?}");
        // Too small for the root's moves: nothing to choose from, an error and no panic.
        let mut agent = SplitMcts::new(&game, SplitMctsConfig { max_move_actions: 3, ..config }, 1);
        assert_eq!(
            agent.select_move(&game, &root, &Budget::iterations(20)),
            Err(rbg_agents::AgentError::Search(rbg_core::SearchError::TooManyMoves { limit: 3 }))
        );
        // Generated steps list no state's moves: the bound does not stop the tree, which
        // reaches the second player's steps (root, 2 first moves, then their replies).
        let config = SplitMctsConfig { steps: StepSource::Generated, max_move_actions: 3, ..config };
        let mut agent = SplitMcts::new(&game, config, 1);
        let decision = agent.select_move(&game, &root, &Budget::iterations(20)).unwrap();
        assert!(legal.iter().any(|m| m == decision.mv.as_slice()), "{playout:?}: {:?}", decision.mv);
        assert!(agent.tree_size() > 3, "{playout:?}: {}", agent.tree_size());
    }
}
