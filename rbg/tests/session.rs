//! `Session` on tic-tac-toe (the interpreter, behind `AnyGame` and as itself) and on Nim: a
//! game played to a known end, the bounded history, and random sequences of calls checked
//! against a model of the history.

use std::sync::Arc;

use proptest::prelude::*;
use rbg::session::{Session, SessionError, SessionOptions};
use rbg_agents::Outcome;
use rbg_core::dynamic::AnyGame;
use rbg_core::{Action, Game, MoveList};
use rbg_interp::{InterpOptions, Interpreter};

fn tic_tac_toe() -> Interpreter {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../games/ticTacToe.rbg");
    let bytes = std::fs::read(&path).expect("games/ticTacToe.rbg");
    let game = rbg_parser::parse("ticTacToe.rbg", &bytes).game.expect("tic-tac-toe parses");
    Interpreter::new(&game, "ticTacToe", InterpOptions::default()).expect("interpreter")
}

/// The legal moves at the session's position.
fn legal<G: Game, H: std::ops::Deref<Target = G>>(session: &Session<G, H>) -> Vec<Vec<Action>> {
    let game = session.game();
    let mut list = MoveList::new();
    let mut sc = game.new_scratch();
    game.legal_moves(&mut session.state().clone(), &mut sc, &mut list).unwrap();
    list.iter().map(<[Action]>::to_vec).collect()
}

/// The legal move that writes a mark on the cell named `cell` (every action of a
/// tic-tac-toe move is on that cell or is the keeper's).
fn mark<G: Game, H: std::ops::Deref<Target = G>>(session: &Session<G, H>, cell: &str) -> Vec<Action> {
    let v = session.game().info().vertex_id(cell).unwrap_or_else(|| panic!("no cell {cell}"));
    let found: Vec<Vec<Action>> =
        legal(session).into_iter().filter(|m| m.iter().any(|a| a.vertex == v)).collect();
    assert_eq!(found.len(), 1, "one move marks {cell}: {found:?}");
    found[0].clone()
}

/// Cross takes the top row while nought plays the middle row's first two cells: cross wins
/// with 100 against 0 (the game's comment: a win sets the winner to 100 and the loser to 0).
#[test]
fn a_game_played_to_a_win_has_the_winner_and_the_log() {
    let session_game = Arc::new(AnyGame::new(tic_tac_toe()));
    let mut s = Session::new(Arc::clone(&session_game), SessionOptions::default()).unwrap();
    let names = &s.game().info().vertices;
    let cell = |x: usize, y: usize| -> String {
        names.iter().find(|n| n.ends_with(&format!("x{x}y{y}"))).cloned().expect("rectangle names")
    };
    let (top, middle) = ([cell(0, 0), cell(1, 0), cell(2, 0)], [cell(0, 1), cell(1, 1)]);
    assert_eq!(s.to_move(), Some(1));
    assert_eq!(legal(&s).len(), 9);
    for (i, name) in [&top[0], &middle[0], &top[1], &middle[1], &top[2]].into_iter().enumerate() {
        assert!(!s.result().terminal, "before move {i}");
        let m = mark(&s, name);
        s.play(&m).unwrap();
    }
    let status = s.result();
    assert!(status.terminal);
    assert_eq!(status.scores, vec![100, 0]);
    assert_eq!(status.outcomes, Some(vec![Outcome::Win, Outcome::Loss]));
    assert_eq!(s.to_move(), None);
    assert_eq!(s.play(&[Action::new(1, 0)]), Err(SessionError::GameOver));
    let log = s.log(Some("ticTacToe.rbg".into()), vec!["human".into()], 0, 0);
    assert_eq!(log.moves.len(), 5);
    assert_eq!(log.players, vec!["cross".to_string(), "nought".to_string()]);
    assert_eq!(log.termination.as_deref(), Some("finished"));
    assert_eq!(log.result, Some(vec!["win".to_string(), "loss".to_string()]));
    // Undo goes back into the game, and the log follows the position shown.
    s.undo().unwrap();
    assert!(!s.result().terminal);
    assert_eq!(s.result().outcomes, None);
    assert_eq!(s.log(None, Vec::new(), 0, 0).termination.as_deref(), Some("unfinished"));
    assert_eq!(s.redoable().len(), 1);
}

#[test]
fn an_illegal_move_says_whose_turn_and_how_many_moves_are_legal() {
    let game = tic_tac_toe();
    let mut s = Session::new(&game, SessionOptions::default()).unwrap();
    let first = mark(&s, &game.info().vertices[4].clone());
    s.play(&first).unwrap();
    // The same cell again is not legal for nought, who has 8 cells to choose from.
    match s.play(&first) {
        Err(SessionError::Illegal(e)) => assert_eq!((e.player, e.legal), (2, 8)),
        other => panic!("{other:?}"),
    }
    assert_eq!(s.history().len(), 1);
}

#[test]
fn the_history_is_bounded() {
    let game = tic_tac_toe();
    let mut s = Session::new(&game, SessionOptions { max_history: 2, ..SessionOptions::default() }).unwrap();
    for _ in 0..2 {
        let m = legal(&s)[0].clone();
        s.play(&m).unwrap();
    }
    let m = legal(&s)[0].clone();
    assert_eq!(s.play(&m), Err(SessionError::HistoryFull { max: 2 }));
    // Undo makes room again, dropping the undone move.
    s.undo().unwrap();
    s.play(&m).unwrap_err();
    let other = legal(&s)[0].clone();
    s.play(&other).unwrap();
    assert_eq!(s.history().len(), 2);
    assert!(s.redoable().is_empty());
}

/// Nim behind a borrowed handle: a concrete engine, without `AnyGame`. Moves built step by
/// step; a step that is not offered is refused.
#[test]
fn steps_build_moves_on_a_concrete_engine() {
    let game = rbg_core::toy::Nim::new(3);
    let mut s = Session::new(&game, SessionOptions::default()).unwrap();
    assert_eq!(s.next_actions().unwrap(), vec![Action::new(1, 0), Action::new(2, 0)]);
    assert_eq!(s.step(Action::new(4, 0)), Err(SessionError::NotNext(Action::new(4, 0))));
    s.step(Action::new(2, 0)).unwrap();
    assert_eq!(s.history(), &[vec![Action::new(2, 0)]]);
    assert_eq!(s.to_move(), Some(2));
    s.step(Action::new(1, 0)).unwrap();
    assert_eq!(s.result().scores, vec![0, 1], "the second player took the last stone");
    assert_eq!(s.result().outcomes, Some(vec![Outcome::Loss, Outcome::Win]));
}

#[derive(Clone, Debug)]
enum Call {
    /// The `n`-th legal move (modulo their number), or a move that is not legal.
    Play(usize),
    Illegal,
    /// The `n`-th next action (modulo their number).
    Step(usize),
    Undo,
    Redo,
    Clear,
}

fn call() -> impl Strategy<Value = Call> {
    prop_oneof![
        3 => (0usize..16).prop_map(Call::Play),
        1 => Just(Call::Illegal),
        3 => (0usize..16).prop_map(Call::Step),
        2 => Just(Call::Undo),
        2 => Just(Call::Redo),
        1 => Just(Call::Clear),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    /// Random calls against a model: the moves of the timeline, the cursor and the partial
    /// move. Refused calls change nothing; undo after play shows the position before it (equal
    /// state); redo shows the position after it again; the history is the timeline up to the
    /// cursor; positions are one more than the moves played; a state is always the one reached
    /// by replaying the history from the start.
    #[test]
    fn random_calls_keep_the_history_consistent(calls in proptest::collection::vec(call(), 1..40)) {
        let game = tic_tac_toe();
        let mut s = Session::new(&game, SessionOptions { max_history: 6, ..SessionOptions::default() }).unwrap();
        let mut timeline: Vec<Vec<Action>> = Vec::new();
        let mut cursor = 0usize;
        let mut partial: Vec<Action> = Vec::new();
        for c in calls {
            let before = s.state().clone();
            let result = match c {
                Call::Play(n) => {
                    let moves = legal(&s);
                    let ongoing = s.ongoing();
                    let m = if moves.is_empty() { vec![Action::new(1, 0)] } else { moves[n % moves.len()].clone() };
                    let r = s.play(&m);
                    if ongoing && cursor < 6 {
                        prop_assert!(r.is_ok(), "{r:?}");
                        timeline.truncate(cursor);
                        timeline.push(m);
                        cursor += 1;
                        partial.clear();
                        s.undo().unwrap();
                        prop_assert_eq!(s.state(), &before);
                        s.redo().unwrap();
                    } else {
                        prop_assert!(r.is_err());
                    }
                    r.map(|_| ())
                }
                Call::Illegal => {
                    let r = s.play(&[Action::new(u32::MAX, 0)]);
                    prop_assert!(r.is_err());
                    r
                }
                Call::Step(n) => {
                    let next = s.next_actions().unwrap();
                    if next.is_empty() {
                        let r = s.step(Action::new(1, 0));
                        prop_assert!(r.is_err());
                        r
                    } else {
                        let a = next[n % next.len()];
                        let r = s.step(a);
                        if game.info().is_switch(a.index) {
                            if r.is_ok() {
                                partial.push(a);
                                timeline.truncate(cursor);
                                timeline.push(std::mem::take(&mut partial));
                                cursor += 1;
                            } else {
                                prop_assert_eq!(r.clone(), Err(SessionError::HistoryFull { max: 6 }));
                            }
                        } else {
                            prop_assert!(r.is_ok());
                            partial.push(a);
                        }
                        r
                    }
                }
                Call::Undo => {
                    let r = s.undo();
                    if !partial.is_empty() {
                        partial.clear();
                        prop_assert!(r.is_ok());
                    } else if cursor > 0 {
                        cursor -= 1;
                        prop_assert!(r.is_ok());
                    } else {
                        prop_assert_eq!(r.clone(), Err(SessionError::NothingToUndo));
                    }
                    r
                }
                Call::Redo => {
                    let r = s.redo();
                    if cursor < timeline.len() {
                        cursor += 1;
                        partial.clear();
                        prop_assert!(r.is_ok());
                    } else {
                        prop_assert_eq!(r.clone(), Err(SessionError::NothingToRedo));
                    }
                    r
                }
                Call::Clear => {
                    prop_assert_eq!(s.clear_partial(), !partial.is_empty());
                    partial.clear();
                    Ok(())
                }
            };
            if result.is_err() {
                // Refused: the position shown is the one before.
                prop_assert_eq!(s.state(), &before);
            }
            prop_assert_eq!(s.history(), &timeline[..cursor]);
            prop_assert_eq!(s.redoable(), &timeline[cursor..]);
            prop_assert_eq!(s.partial(), &partial[..]);
            prop_assert_eq!(s.positions().len(), s.history().len() + 1);
            // The position shown is the history replayed from the start.
            let mut replay = game.initial_state();
            let mut sc = game.new_scratch();
            game.complete_keeper(&mut replay, &mut sc, 1000).unwrap();
            for m in s.history() {
                game.apply_move(&mut replay, m);
                game.complete_keeper(&mut replay, &mut sc, 1000).unwrap();
            }
            prop_assert_eq!(s.state(), &replay);
        }
    }
}

/// A session moved to another engine keeps its history, its redoable moves and its cursor,
/// and every position reads the same (pieces, player, legal moves); a move the other game
/// refuses is named.
#[test]
fn a_session_replays_on_another_engine() {
    let first = AnyGame::new(tic_tac_toe());
    let mut s = Session::new(&first, SessionOptions::default()).unwrap();
    for cell in ["x1y1", "x0y0", "x2y2"] {
        let name = s.game().info().vertices.iter().find(|n| n.ends_with(cell)).cloned().unwrap();
        let m = mark(&s, &name);
        s.play(&m).unwrap();
    }
    s.undo().unwrap();
    let other = tic_tac_toe();
    let moved = s.replay_on(&other).unwrap();
    assert_eq!(moved.history(), s.history());
    assert_eq!(moved.redoable(), s.redoable());
    for (a, b) in s.positions().iter().zip(moved.positions()) {
        let pieces = |g: &dyn Fn(u32) -> u32| (0..9).map(g).collect::<Vec<u32>>();
        assert_eq!(pieces(&|v| first.piece(a, v)), pieces(&|v| other.piece(b, v)));
        assert_eq!(first.current_player(a), other.current_player(b));
    }
    assert_eq!(legal(&moved), legal(&s));
    // Nim's rules do not have tic-tac-toe's first move.
    let nim = rbg_core::toy::Nim::new(3);
    let refused = s.replay_on(&nim).err().expect("nim refuses tic-tac-toe's moves");
    assert_eq!(refused.replayed, 0);
    assert!(matches!(refused.error, SessionError::Illegal(_)), "{refused}");
}
