//! Our manager and our clients (random agents, fixed seeds) play 20 games of corpus games over
//! loopback TCP; every game is replayed from the moves log and must agree with the results log
//! and with what each client saw.

mod common;

use std::time::Duration;

use common::*;
use rbg_core::Game;
use rbg_manager::{ServerConfig, StopReason};

fn play_games(file: &str, games: u64) {
    let Some(text) = corpus_text(file) else { return };
    let config = ServerConfig { games: Some(games), max_wait: PATIENCE, ..ServerConfig::default() };
    let server = start_server(&text, config);
    let game = interpreter(&text).unwrap();
    let players = game.info().num_players();
    let clients: Vec<_> = (0..players).map(|i| start_client(server.addr, "random", 11 + i as u64)).collect();
    let reports: Vec<_> = clients
        .into_iter()
        .map(|c| c.join().expect("the client does not panic").expect("the client ends cleanly"))
        .collect();
    let (report, lines, moves_log, events) = server.join();
    assert_eq!(report.stop, StopReason::GamesPlayed);
    assert_eq!(lines.len() as u64, games, "{events}");
    let bounds = &game.info().bounds;
    for (n, line) in lines.iter().enumerate() {
        let parsed = parse_result_line(line, players);
        assert!(parsed.extra.is_empty(), "no forfeit, no timeout: {line}");
        for (p, score) in parsed.scores.iter().enumerate() {
            assert!((0..=bounds[p]).contains(score), "score of player {} in '{line}'", p + 1);
        }
        let (moves, sum, scores, over) = replay(&game, &moves_log, n as u64 + 1);
        assert!(over, "game {} ended by the rules", n + 1);
        assert_eq!((moves, sum, &scores), (parsed.moves, parsed.legal_moves, &parsed.scores), "{line}");
        for (seat, client) in reports.iter().enumerate() {
            assert_eq!(client.player as usize, seat + 1);
            assert_eq!(client.games[n].scores, scores, "what player {} saw in game {}", seat + 1, n + 1);
            assert!(client.games[n].finished);
        }
    }
    for client in &reports {
        assert_eq!(client.games.len() as u64, games);
        assert_eq!(client.preparation, Duration::from_secs(5));
    }
    // Different seeds per game: not every game is the same.
    let distinct: std::collections::HashSet<&str> =
        lines.iter().map(|l| l.split_once(' ').unwrap().1).collect();
    assert!(distinct.len() > 1 || games == 1, "{lines:?}");
}

#[test]
fn tic_tac_toe_20_games() {
    play_games("ticTacToe.rbg", 20);
}

#[test]
fn connect4_20_games() {
    play_games("connect4.rbg", 20);
}

#[test]
fn breakthrough_20_games() {
    play_games("breakthrough.rbg", 20);
}
