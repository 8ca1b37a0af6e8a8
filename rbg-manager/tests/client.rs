//! Our client against a scripted raw server: what it answers, and that every message the
//! protocol does not allow is an error value.

mod common;

use std::net::{SocketAddr, TcpListener};
use std::thread::JoinHandle;

use common::{interpreter, Raw, PATIENCE};
use rbg_agents::AgentSpec;
use rbg_core::notation::{format_wire, parse_wire};
use rbg_core::perft::DEFAULT_KEEPER_LIMIT;
use rbg_core::{Game, MoveList};
use rbg_interp::Interpreter;
use rbg_manager::{Client, ClientConfig, ClientError, ClientReport};

fn tic_tac_toe() -> String {
    let path = rbg_testdata::workspace_root().join("games/ticTacToe.rbg");
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// A listener and our client (random agent) connecting to it on a thread.
fn client() -> (TcpListener, JoinHandle<Result<ClientReport, ClientError>>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr: SocketAddr = listener.local_addr().unwrap();
    let handle = std::thread::spawn(move || {
        let config = ClientConfig { seed: 1, max_wait: Some(PATIENCE), ..ClientConfig::default() };
        let spec: AgentSpec = "random".parse().unwrap();
        Client::connect(addr, config)?
            .play(interpreter, |g: &Interpreter| spec.build(g).map_err(|e| e.to_string()))
    });
    (listener, handle)
}

fn accept(listener: &TcpListener) -> Raw {
    let (stream, _) = listener.accept().unwrap();
    stream.set_read_timeout(Some(PATIENCE)).unwrap();
    Raw { stream }
}

/// Sends the set-up and reads `ready`.
fn set_up(raw: &mut Raw, preparation: &str, text: &str, player: &str) {
    raw.send(preparation);
    raw.send(text);
    raw.send(player);
    assert_eq!(raw.read_text(), "ready");
}

#[test]
fn plays_both_turn_kinds_and_resets() {
    let text = tic_tac_toe();
    let (listener, handle) = client();
    let mut raw = accept(&listener);
    set_up(&mut raw, "1.000000", &text, "2");
    let game = interpreter(&text).unwrap();
    let mut sc = game.new_scratch();
    let mut legal = MoveList::new();
    for _ in 0..2 {
        let mut state = game.initial_state();
        let mut ongoing = game.complete_keeper(&mut state, &mut sc, DEFAULT_KEEPER_LIMIT).unwrap();
        while ongoing {
            game.legal_moves(&mut state, &mut sc, &mut legal).unwrap();
            if legal.is_empty() {
                break;
            }
            let mv = if game.current_player(&state) == 2 {
                // Our client's turn: a deadline, then its move, a legal one in wire notation.
                raw.send("0.500000");
                let answer = raw.read_text();
                let mv = parse_wire(game.info(), &answer).expect("a wire move");
                assert_eq!(format_wire(&mv), answer, "written as the protocol writes it");
                mv
            } else {
                let mv = legal.get(0).to_vec();
                raw.send(&format_wire(&mv));
                mv
            };
            assert!(legal.iter().any(|m| m == mv.as_slice()));
            game.apply_move(&mut state, &mv);
            ongoing = game.complete_keeper(&mut state, &mut sc, DEFAULT_KEEPER_LIMIT).unwrap();
        }
        raw.send("reset");
    }
    drop(raw);
    let report = handle.join().unwrap().expect("a clean end when the server closes");
    assert_eq!(report.player, 2);
    assert_eq!(report.games.len(), 2);
    assert!(report.games.iter().all(|g| g.finished));
}

/// Plays the first legal move, records the time budget of each move, and takes `observe` long
/// to take in a move.
struct SlowObserver {
    budgets: std::sync::Arc<std::sync::Mutex<Vec<std::time::Duration>>>,
    observe: std::time::Duration,
}

impl<G: Game> rbg_agents::Agent<G> for SlowObserver {
    fn name(&self) -> String {
        "slow observer".into()
    }
    fn reset(&mut self, _seed: u64) {}
    fn budget(&self) -> rbg_agents::Budget {
        rbg_agents::Budget::default()
    }
    fn select_move(
        &mut self,
        game: &G,
        state: &G::State,
        budget: &rbg_agents::Budget,
    ) -> Result<rbg_agents::Decision, rbg_agents::AgentError> {
        self.budgets.lock().unwrap().extend(budget.time);
        let mut moves = MoveList::new();
        game.legal_moves(&mut state.clone(), &mut game.new_scratch(), &mut moves).unwrap();
        Ok(rbg_agents::Decision { mv: moves.get(0).to_vec(), stats: Default::default() })
    }
    fn observe(
        &mut self,
        _game: &G,
        _before: &G::State,
        _mv: &[rbg_core::Action],
    ) -> Result<(), rbg_agents::AgentError> {
        std::thread::sleep(self.observe);
        Ok(())
    }
}

#[test]
fn the_time_spent_taking_in_the_opponents_move_counts_against_the_deadline() {
    // The manager starts our clock right after sending the opponent's move; the client then
    // spends 300 ms in `observe` before it reads the deadline (0.6 s): the agent may think at
    // most 0.6 - 0.3 - 0.1 (the safety margin) = 0.2 s, not 0.5 s.
    let text = tic_tac_toe();
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr: SocketAddr = listener.local_addr().unwrap();
    let budgets = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let observe = std::time::Duration::from_millis(300);
    let agent_budgets = budgets.clone();
    let handle = std::thread::spawn(move || {
        let config = ClientConfig { seed: 1, max_wait: Some(PATIENCE), ..ClientConfig::default() };
        Client::connect(addr, config)?.play(interpreter, |_: &Interpreter| {
            Ok::<_, String>(SlowObserver { budgets: agent_budgets.clone(), observe })
        })
    });
    let mut raw = accept(&listener);
    set_up(&mut raw, "1.000000", &text, "2");
    let game = interpreter(&text).unwrap();
    let mut state = game.initial_state();
    let mut sc = game.new_scratch();
    assert!(game.complete_keeper(&mut state, &mut sc, DEFAULT_KEEPER_LIMIT).unwrap());
    let mut legal = MoveList::new();
    game.legal_moves(&mut state, &mut sc, &mut legal).unwrap();
    // The opponent's move and, at once, our deadline.
    raw.send(&format_wire(legal.get(0)));
    raw.send("0.600000");
    let answer = raw.read_text();
    assert!(parse_wire(game.info(), &answer).is_ok(), "{answer}");
    drop(raw);
    let _ = handle.join().unwrap();
    let budgets = budgets.lock().unwrap().clone();
    assert_eq!(budgets.len(), 1, "{budgets:?}");
    assert!(budgets[0] <= std::time::Duration::from_millis(250), "{budgets:?}");
}

#[test]
fn a_close_in_the_middle_of_a_game_is_a_clean_end() {
    let text = tic_tac_toe();
    let (listener, handle) = client();
    let mut raw = accept(&listener);
    set_up(&mut raw, "5.000000", &text, "1");
    raw.send("1.000000");
    let _ = raw.read_text();
    drop(raw);
    let report = handle.join().unwrap().unwrap();
    assert_eq!((report.games.len(), report.unfinished_moves), (0, 1));
}

#[test]
fn a_close_right_after_set_up_is_a_clean_end() {
    let (listener, handle) = client();
    let mut raw = accept(&listener);
    set_up(&mut raw, "5.000000", &tic_tac_toe(), "1");
    drop(raw);
    let report = handle.join().unwrap().unwrap();
    assert_eq!((report.games.len(), report.unfinished_moves), (0, 0));
}

/// Runs the client against a server that sends `messages` after the set-up (as player
/// `player`), then closes; returns the client's error.
fn error_after(player: &str, messages: &[&str]) -> ClientError {
    let (listener, handle) = client();
    let mut raw = accept(&listener);
    set_up(&mut raw, "5.000000", &tic_tac_toe(), player);
    for m in messages {
        raw.send(m);
    }
    let result = handle.join().unwrap();
    drop(raw);
    result.expect_err("the client reports an error")
}

#[test]
fn malformed_server_messages_are_errors() {
    // Player 2 waits for player 1's move and gets a deadline.
    assert!(matches!(error_after("2", &["1.000000"]), ClientError::Malformed { expected: "a move", .. }));
    // Player 1 is to move and gets a move.
    assert!(matches!(error_after("1", &["5 4"]), ClientError::Malformed { expected: "a deadline", .. }));
    // A move out of range, and a well-formed move that is not legal (twice a legal move).
    assert!(matches!(error_after("2", &["99 4"]), ClientError::Malformed { .. }));
    let game = interpreter(&tic_tac_toe()).unwrap();
    let mut state = game.initial_state();
    let mut sc = game.new_scratch();
    game.complete_keeper(&mut state, &mut sc, DEFAULT_KEEPER_LIMIT).unwrap();
    let mut legal = MoveList::new();
    game.legal_moves(&mut state, &mut sc, &mut legal).unwrap();
    let first = legal.get(0);
    let doubled: Vec<_> = first.iter().chain(first).copied().collect();
    assert!(matches!(error_after("2", &[&format_wire(&doubled)]), ClientError::IllegalMove { .. }));
}

#[test]
fn malformed_set_up_is_an_error() {
    for (preparation, text, player, expected) in [
        ("soon", "x", "1", "a preparation time"),
        ("5.000000", &tic_tac_toe(), "one", "a player number"),
        ("5.000000", &tic_tac_toe(), "3", "a player number of the game"),
    ] {
        let (listener, handle) = client();
        let mut raw = accept(&listener);
        raw.send(preparation);
        raw.send(text);
        raw.send(player);
        let error = handle.join().unwrap().unwrap_err();
        assert!(matches!(error, ClientError::Malformed { expected: e, .. } if e == expected), "{error}");
    }
    let (listener, handle) = client();
    let mut raw = accept(&listener);
    raw.send("5.000000");
    raw.send("#players = broken");
    raw.send("1");
    assert!(matches!(handle.join().unwrap().unwrap_err(), ClientError::Game(_)));
}
