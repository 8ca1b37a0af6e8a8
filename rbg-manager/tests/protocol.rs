//! The manager on the wire: the exact bytes of the set-up, the turns and `reset`, and what
//! happens when a client misbehaves. Loopback only; every wait is bounded (`common::PATIENCE`).

mod common;

use std::time::Duration;

use common::*;
use rbg_core::notation::format_wire;
use rbg_core::perft::DEFAULT_KEEPER_LIMIT;
use rbg_core::{Game, MoveList};
use rbg_manager::{ForfeitReason, ServerConfig, StopReason};

/// What the reference's `std::to_string` prints for the largest double, the deadline sent when
/// there is none.
const LARGEST_DOUBLE: &str = "179769313486231570814527423731704356798070567525844996598917476803157260780028538760\
589558632766878171540458953514382464234321326889464182768467546703537516986049910576551282076245490090389328944\
075868508455133942304583236903222948165808559332123348274797826204144723168738177180919299881250404026184124858\
368.000000";

#[test]
fn set_up_turns_and_reset_are_exact_bytes() {
    let Some(text) = corpus_text("ticTacToe.rbg") else { return };
    let config = ServerConfig {
        deadline: Some(Duration::from_millis(1500)),
        preparation: Duration::from_millis(2500),
        games: Some(2),
        ..ServerConfig::default()
    };
    let server = start_server(&text, config);
    // Connected in this order, so `a` plays player 1 and `b` player 2.
    let mut seats = [Raw::connect(server.addr), Raw::connect(server.addr)];
    for (i, raw) in seats.iter_mut().enumerate() {
        assert_eq!(raw.read().unwrap(), b"2.500000");
        assert_eq!(raw.read().unwrap(), text.as_bytes(), "the game text exactly as read");
        assert_eq!(raw.read().unwrap(), (i + 1).to_string().as_bytes());
    }
    for raw in &mut seats {
        raw.send("ready");
    }
    let game = interpreter(&text).unwrap();
    let mut sc = game.new_scratch();
    let mut legal = MoveList::new();
    let mut expected_lines = Vec::new();
    for _ in 0..2 {
        let mut state = game.initial_state();
        let mut moves = 0;
        let mut sum = 0;
        let mut ongoing = game.complete_keeper(&mut state, &mut sc, DEFAULT_KEEPER_LIMIT).unwrap();
        while ongoing {
            game.legal_moves(&mut state, &mut sc, &mut legal).unwrap();
            if legal.is_empty() {
                break;
            }
            sum += legal.len();
            let mover = game.current_player(&state) as usize - 1;
            // The mover alone gets the deadline.
            assert_eq!(seats[mover].read().unwrap(), b"1.500000");
            let mv = legal.get(legal.len() / 2).to_vec();
            let wire = format_wire(&mv);
            seats[mover].send(&wire);
            // The other gets the move's text, nothing else.
            assert_eq!(seats[1 - mover].read().unwrap(), wire.as_bytes());
            game.apply_move(&mut state, &mv);
            moves += 1;
            ongoing = game.complete_keeper(&mut state, &mut sc, DEFAULT_KEEPER_LIMIT).unwrap();
        }
        for raw in &mut seats {
            assert_eq!(raw.read().unwrap(), b"reset");
        }
        expected_lines.push(format!("{moves} {sum} {} {}", game.score(&state, 1), game.score(&state, 2)));
    }
    // After the last game the server closes the connections.
    for raw in &mut seats {
        assert_eq!(raw.read(), None);
    }
    let (report, lines, moves_log, _) = server.join();
    assert_eq!(report.stop, StopReason::GamesPlayed);
    assert_eq!(lines.len(), 2);
    for (line, expected) in lines.iter().zip(&expected_lines) {
        let (seconds, rest) = line.split_once(' ').unwrap();
        assert!(seconds.parse::<f64>().is_ok(), "{line}");
        assert_eq!(rest, expected);
    }
    assert_eq!(moves_log.lines().count() as u64, report.games.iter().map(|g| g.moves).sum::<u64>());
}

#[test]
fn without_a_deadline_the_largest_double_is_sent() {
    let Some(text) = corpus_text("ticTacToe.rbg") else { return };
    let server = start_server(&text, ServerConfig { games: Some(3), ..ServerConfig::default() });
    let mut a = Raw::connect(server.addr);
    let mut b = Raw::connect(server.addr);
    for raw in [&mut a, &mut b] {
        assert_eq!(raw.read().unwrap(), b"5.000000", "the default preparation time");
        raw.read().unwrap();
        raw.read().unwrap();
        raw.send("anything counts as ready");
    }
    let deadline = a.read_text();
    assert_eq!(deadline, LARGEST_DOUBLE);
    assert_eq!(deadline, format!("{:.6}", f64::MAX));
    assert_eq!(deadline.parse::<f64>().unwrap(), f64::MAX);
    // Player 1 leaves: a forfeit, and the server stops after this game.
    drop(a);
    assert_eq!(b.read().unwrap(), b"reset");
    assert_eq!(b.read(), None);
    let (report, lines, _, _) = server.join();
    assert_eq!(
        lines,
        vec![format!("{} 0 9 0 100 forfeit=p1:disconnect", lines[0].split(' ').next().unwrap())]
    );
    assert_eq!(report.stop, StopReason::Disconnected { player: 1 });
}

/// Runs ticTacToe with the scripted client as player 1 (committing `fault` at its `turn`-th
/// turn of game 1) and one of our clients as player 2; returns the server's report and results
/// lines, and checks what is common to every fault.
fn faulty_match(
    fault: Fault,
    turn: u32,
    config: ServerConfig,
) -> Option<(rbg_manager::ServerReport, Vec<String>, String)> {
    let text = corpus_text("ticTacToe.rbg")?;
    let games = config.games.expect("a game limit");
    let server = start_server(&text, config);
    let scripted = scripted_client(server.addr, fault, turn, 1);
    let ours = start_client(server.addr, "random", 7);
    let resets = scripted.join().expect("the scripted client does not panic");
    let client = ours.join().expect("our client does not panic").expect("our client ends cleanly");
    let (report, lines, moves_log, events) = server.join();
    assert_eq!(lines.len(), report.games.len());
    assert_eq!(client.games.len(), report.games.len(), "our client saw every reset");
    assert!(resets as usize <= report.games.len());
    assert!(report.games.len() as u64 <= games);
    // Game 1 is forfeited by player 1: 0 for it, the declared maximum for player 2.
    let first = parse_result_line(&lines[0], 2);
    assert_eq!(first.scores, vec![0, 100], "{}", lines[0]);
    let forfeit = report.games[0].forfeit.clone().expect("a forfeit");
    assert_eq!(forfeit.player, 1);
    assert_eq!(first.extra.last().unwrap(), &format!("forfeit=p1:{}", forfeit.reason.token()));
    assert!(events.contains("forfeits"), "the reason is logged:\n{events}");
    assert!(!client.games[0].finished);
    // Every other game is complete and legal.
    let game = interpreter(&text).unwrap();
    for (n, line) in lines.iter().enumerate().skip(1) {
        let parsed = parse_result_line(line, 2);
        assert!(parsed.extra.is_empty(), "{line}");
        let (moves, sum, scores, over) = replay(&game, &moves_log, n as u64 + 1);
        assert!(over);
        assert_eq!((moves, sum, &scores), (parsed.moves, parsed.legal_moves, &parsed.scores), "{line}");
        assert_eq!(client.games[n].scores, scores);
    }
    Some((report, lines, events))
}

fn patient() -> ServerConfig {
    ServerConfig { deadline: Some(Duration::from_secs(20)), games: Some(3), ..ServerConfig::default() }
}

#[test]
fn garbage_is_a_forfeit_and_the_server_goes_on() {
    let Some((report, lines, _)) = faulty_match(Fault::Garbage, 2, patient()) else { return };
    assert!(matches!(report.games[0].forfeit.as_ref().unwrap().reason, ForfeitReason::Garbage { .. }));
    assert_eq!((lines.len(), report.stop), (3, StopReason::GamesPlayed));
}

#[test]
fn bytes_that_are_not_text_are_a_forfeit() {
    let Some((report, lines, _)) = faulty_match(Fault::NotText, 1, patient()) else { return };
    assert!(matches!(report.games[0].forfeit.as_ref().unwrap().reason, ForfeitReason::Garbage { .. }));
    assert_eq!((lines.len(), report.stop), (3, StopReason::GamesPlayed));
}

#[test]
fn an_illegal_move_is_a_forfeit_and_the_server_goes_on() {
    let Some((report, lines, _)) = faulty_match(Fault::Illegal, 2, patient()) else { return };
    assert!(matches!(report.games[0].forfeit.as_ref().unwrap().reason, ForfeitReason::Illegal { .. }));
    assert!(lines[0].ends_with(" 0 100 forfeit=p1:illegal"), "{}", lines[0]);
    assert_eq!((lines.len(), report.stop), (3, StopReason::GamesPlayed));
}

#[test]
fn a_disconnect_mid_game_is_a_forfeit_and_the_last_game() {
    let Some((report, lines, _)) = faulty_match(Fault::Disconnect, 3, patient()) else { return };
    assert!(report.games[0].moves >= 4, "mid-game: {}", lines[0]);
    assert!(lines[0].ends_with(" 0 100 forfeit=p1:disconnect"), "{}", lines[0]);
    assert_eq!((lines.len(), report.stop), (1, StopReason::Disconnected { player: 1 }));
}

#[test]
fn an_over_long_message_is_a_forfeit_and_closes_the_seat() {
    let config = ServerConfig { max_message: 1024, ..patient() };
    let Some((report, lines, _)) = faulty_match(Fault::TooLong { len: 1100 }, 1, config) else { return };
    assert!(lines[0].ends_with(" 0 100 forfeit=p1:too-long"), "{}", lines[0]);
    assert_eq!((lines.len(), report.stop), (1, StopReason::Disconnected { player: 1 }));
}

#[test]
fn silence_past_deadline_and_grace_is_a_forfeit_and_the_server_goes_on() {
    // Player 1 is silent at its first turn of both games, so player 2 (ours) never has to
    // move in time: nothing here depends on the machine's speed.
    let config = ServerConfig {
        deadline: Some(Duration::from_millis(200)),
        grace: Duration::from_millis(100),
        games: Some(2),
        ..ServerConfig::default()
    };
    let Some(text) = corpus_text("ticTacToe.rbg") else { return };
    let server = start_server(&text, config);
    let scripted = scripted_client(server.addr, Fault::Silent, 1, 2);
    let ours = start_client(server.addr, "random", 3);
    assert_eq!(scripted.join().unwrap(), 2);
    let client = ours.join().unwrap().unwrap();
    assert_eq!(client.games.len(), 2);
    let (report, lines, _, events) = server.join();
    assert_eq!(lines.len(), 2);
    for line in &lines {
        assert!(line.ends_with(" 0 9 0 100 forfeit=p1:timeout"), "{line}");
    }
    assert!(matches!(report.games[0].forfeit.as_ref().unwrap().reason, ForfeitReason::Timeout { .. }));
    assert!(events.contains("no move within"), "{events}");
    assert_eq!(report.stop, StopReason::GamesPlayed);
}

#[test]
fn a_late_move_within_the_grace_period_is_counted_not_forfeited() {
    // The move comes after a sleep longer than the deadline (so it is late whatever the
    // machine's speed) and far within deadline + grace.
    let config = ServerConfig {
        deadline: Some(Duration::from_millis(100)),
        grace: Duration::from_secs(20),
        games: Some(1),
        ..ServerConfig::default()
    };
    let Some(text) = corpus_text("ticTacToe.rbg") else { return };
    let server = start_server(&text, config);
    let scripted = scripted_client(server.addr, Fault::Late { millis: 300 }, 1, 1);
    let ours = start_client(server.addr, "random", 5);
    scripted.join().unwrap();
    ours.join().unwrap().unwrap();
    let (report, lines, _, _) = server.join();
    assert_eq!(report.games[0].forfeit, None);
    // At least the slept move (another could be late too on a stalled machine).
    assert!(report.games[0].timeouts[0] >= 1);
    assert!(lines[0].contains(" timeouts="), "{}", lines[0]);
    assert!(!lines[0].contains("forfeit"), "{}", lines[0]);
}
