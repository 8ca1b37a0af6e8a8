//! Helpers of the loopback tests: games from the corpus, a server and clients on threads, a
//! scripted raw client that misbehaves on purpose, and replaying the moves log.
#![allow(dead_code)]

use std::io::{ErrorKind, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use rbg_agents::AgentSpec;
use rbg_core::notation::{format_wire, parse_wire};
use rbg_core::perft::DEFAULT_KEEPER_LIMIT;
use rbg_core::{Action, Game, MoveList, Player};
use rbg_interp::{InterpOptions, Interpreter};
use rbg_manager::{
    Client, ClientConfig, ClientError, ClientReport, Server, ServerConfig, ServerError, ServerLogs,
    ServerReport,
};

/// How long any test socket waits for one message before the test fails (a bound, not a
/// measurement: nothing here should come close).
pub const PATIENCE: Duration = Duration::from_secs(60);

/// A corpus game's text, or `None` when the corpus is missing and the run asked to skip.
pub fn corpus_text(file: &str) -> Option<String> {
    let path = rbg_testdata::corpus_dir().join(file);
    if !rbg_testdata::available(&[&path]) {
        return None;
    }
    Some(std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display())))
}

/// The interpreter for a game text.
pub fn interpreter(text: &str) -> Result<Interpreter, String> {
    let output = rbg_parser::parse("game", text.as_bytes());
    let game = output.game.ok_or_else(|| {
        let first = output.diagnostics.iter().find(|d| d.is_error());
        format!("the game does not parse: {}", first.map_or("?", |d| d.message.as_str()))
    })?;
    Interpreter::new(&game, "game", InterpOptions::default()).map_err(|e| format!("{e:?}"))
}

/// A writer whose bytes the test reads afterwards.
#[derive(Clone, Default)]
pub struct SharedBuf(Arc<Mutex<Vec<u8>>>);

impl SharedBuf {
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().unwrap()).into_owned()
    }
}

impl Write for SharedBuf {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A server running on a thread, with its logs.
pub struct Running {
    pub addr: SocketAddr,
    pub handle: JoinHandle<Result<ServerReport, ServerError>>,
    pub results: SharedBuf,
    pub moves: SharedBuf,
    pub events: SharedBuf,
}

impl Running {
    pub fn join(self) -> (ServerReport, Vec<String>, String, String) {
        let report = self.handle.join().expect("the server thread does not panic").expect("the server runs");
        let lines = self.results.text().lines().map(str::to_string).collect();
        (report, lines, self.moves.text(), self.events.text())
    }
}

/// Starts a server for `text` (interpreted) on an ephemeral loopback port.
pub fn start_server(text: &str, config: ServerConfig) -> Running {
    let game = interpreter(text).expect("the game builds");
    let config = ServerConfig { accept_timeout: Some(PATIENCE), ..config };
    let server = Server::bind(game, text, "127.0.0.1:0", config).expect("the server binds");
    let addr = server.local_addr().expect("an address");
    let (results, moves, events) = (SharedBuf::default(), SharedBuf::default(), SharedBuf::default());
    let logs = ServerLogs {
        results: Some(Box::new(results.clone())),
        moves: Some(Box::new(moves.clone())),
        events: Some(Box::new(events.clone())),
    };
    let handle = std::thread::spawn(move || server.with_logs(logs).run());
    Running { addr, handle, results, moves, events }
}

/// Connects a client synchronously (so that seats are taken in call order) and plays on a
/// thread with the agent `spec`.
pub fn start_client(
    addr: SocketAddr,
    spec: &str,
    seed: u64,
) -> JoinHandle<Result<ClientReport, ClientError>> {
    let config = ClientConfig { seed, max_wait: Some(PATIENCE), ..ClientConfig::default() };
    let client = Client::connect(addr, config).expect("the client connects");
    let spec: AgentSpec = spec.parse().expect("a valid agent spec");
    std::thread::spawn(move || {
        client.play(interpreter, |game: &Interpreter| spec.build(game).map_err(|e| e.to_string()))
    })
}

/// A raw connection with exact-byte reads and writes.
pub struct Raw {
    pub stream: TcpStream,
}

impl Raw {
    pub fn connect(addr: SocketAddr) -> Raw {
        let stream = TcpStream::connect(addr).expect("connects");
        stream.set_read_timeout(Some(PATIENCE)).unwrap();
        Raw { stream }
    }

    /// The bytes of the next message, without its NUL; `None` at the end of the stream.
    pub fn read(&mut self) -> Option<Vec<u8>> {
        let mut out = Vec::new();
        let mut byte = [0u8];
        loop {
            match self.stream.read(&mut byte) {
                Ok(0) if out.is_empty() => return None,
                Ok(0) => panic!("the stream ended inside a message: {:?}", String::from_utf8_lossy(&out)),
                Ok(_) if byte[0] == 0 => return Some(out),
                Ok(_) => out.push(byte[0]),
                Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {
                    panic!("no message within {PATIENCE:?}")
                }
                // A reset connection (the server closed it with our bytes unread) ends it too.
                Err(_) => return None,
            }
        }
    }

    pub fn read_text(&mut self) -> String {
        let bytes = self.read().expect("a message, not the end of the stream");
        String::from_utf8(bytes).expect("text")
    }

    pub fn send_bytes(&mut self, bytes: &[u8]) {
        self.stream.write_all(bytes).expect("writes");
    }

    pub fn send(&mut self, text: &str) {
        let mut bytes = text.as_bytes().to_vec();
        bytes.push(0);
        self.send_bytes(&bytes);
    }
}

/// How the scripted client misbehaves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    /// Sends text that is not a move.
    Garbage,
    /// Sends bytes that are not UTF-8.
    NotText,
    /// Sends a well-formed move that is not legal.
    Illegal,
    /// Closes the connection instead of moving.
    Disconnect,
    /// Never answers (reads the next message instead).
    Silent,
    /// Sends a message longer than `len` bytes.
    TooLong { len: usize },
    /// Sleeps this long, then sends a legal move.
    Late { millis: u64 },
}

/// A client on raw TCP that plays the first legal move, except at its `turn`-th turn (from 1)
/// of each of its first `faulty_games` games, where it commits `fault`. Plays until the server
/// closes the connection; returns the number of `reset`s received.
pub fn scripted_client(addr: SocketAddr, fault: Fault, turn: u32, faulty_games: u32) -> JoinHandle<u32> {
    let mut raw = Raw::connect(addr);
    std::thread::spawn(move || {
        let _preparation = raw.read_text();
        let text = raw.read_text();
        let me: Player = raw.read_text().parse().expect("a player number");
        raw.send("ready");
        let game = interpreter(&text).expect("the game builds");
        let mut sc = game.new_scratch();
        let mut legal = MoveList::new();
        let mut resets = 0u32;
        'games: loop {
            let mut state = game.initial_state();
            game.complete_keeper(&mut state, &mut sc, DEFAULT_KEEPER_LIMIT).unwrap();
            let mut my_turns = 0u32;
            loop {
                game.legal_moves(&mut state, &mut sc, &mut legal).unwrap();
                let Some(message) = raw.read() else { break 'games };
                let message = String::from_utf8(message).expect("text from the server");
                if message == "reset" {
                    resets += 1;
                    continue 'games;
                }
                let mv: Vec<Action> = if game.current_player(&state) == me {
                    my_turns += 1;
                    let first = legal.get(0).to_vec();
                    if resets < faulty_games && my_turns == turn {
                        match fault {
                            Fault::Garbage => raw.send("hello, manager"),
                            Fault::NotText => raw.send_bytes(b"\xff\xfe\xfd\0"),
                            Fault::Illegal => {
                                // Twice a legal move: well-formed, never legal (a move ends with
                                // its switch).
                                let doubled: Vec<Action> = first.iter().chain(&first).copied().collect();
                                raw.send(&format_wire(&doubled));
                            }
                            Fault::Disconnect => break 'games,
                            Fault::Silent => {}
                            Fault::TooLong { len } => {
                                // The server may close the connection before it has all of it.
                                let _ = raw.stream.write_all("1 ".repeat(len / 2 + 1).as_bytes());
                            }
                            Fault::Late { millis } => {
                                std::thread::sleep(Duration::from_millis(millis));
                                raw.send(&format_wire(&first));
                            }
                        }
                        if !matches!(fault, Fault::Late { .. }) {
                            // The server forfeits us; the next message is `reset` (or the end).
                            continue;
                        }
                    } else {
                        raw.send(&format_wire(&first));
                    }
                    first
                } else {
                    parse_wire(game.info(), &message).expect("a move from the server")
                };
                assert!(legal.iter().any(|m| m == mv.as_slice()), "the server's move is legal");
                game.apply_move(&mut state, &mv);
                game.complete_keeper(&mut state, &mut sc, DEFAULT_KEEPER_LIMIT).unwrap();
            }
        }
        resets
    })
}

/// The numbers of a results line: seconds, moves, legal-move sum, scores; and its extra fields.
pub struct ResultLine {
    pub moves: u64,
    pub legal_moves: u64,
    pub scores: Vec<i64>,
    pub extra: Vec<String>,
}

pub fn parse_result_line(line: &str, players: usize) -> ResultLine {
    let fields: Vec<&str> = line.split(' ').collect();
    assert!(fields.len() >= 3 + players, "short results line '{line}'");
    let seconds: f64 = fields[0].parse().unwrap_or_else(|_| panic!("seconds in '{line}'"));
    assert!(seconds >= 0.0);
    let number = |s: &str| s.parse::<i64>().unwrap_or_else(|_| panic!("a number '{s}' in '{line}'"));
    ResultLine {
        moves: number(fields[1]) as u64,
        legal_moves: number(fields[2]) as u64,
        scores: fields[3..3 + players].iter().map(|s| number(s)).collect(),
        extra: fields[3 + players..].iter().map(|s| s.to_string()).collect(),
    }
}

/// Replays the moves log of game `number` on `game`: every move is legal and made by the
/// player to move; returns the move count, the legal-move sum, the final scores, and whether
/// the game is over.
pub fn replay(game: &Interpreter, moves_log: &str, number: u64) -> (u64, u64, Vec<i64>, bool) {
    let mut sc = game.new_scratch();
    let mut state = game.initial_state();
    let mut legal = MoveList::new();
    let mut ongoing = game.complete_keeper(&mut state, &mut sc, DEFAULT_KEEPER_LIMIT).unwrap();
    let (mut count, mut sum) = (0u64, 0u64);
    for line in moves_log.lines() {
        let (g, rest) = line.split_once(' ').expect("game number");
        if g.parse::<u64>().expect("game number") != number {
            continue;
        }
        let (player, text) = rest.split_once(' ').expect("player");
        assert!(ongoing, "a move after the end of game {number}");
        game.legal_moves(&mut state, &mut sc, &mut legal).unwrap();
        sum += legal.len() as u64;
        assert_eq!(
            player.parse::<Player>().unwrap(),
            game.current_player(&state),
            "the mover, game {number}"
        );
        let mv = parse_wire(game.info(), text).expect("a wire move");
        assert!(legal.iter().any(|m| m == mv.as_slice()), "move '{text}' of game {number} is legal");
        game.apply_move(&mut state, &mv);
        count += 1;
        ongoing = game.complete_keeper(&mut state, &mut sc, DEFAULT_KEEPER_LIMIT).unwrap();
    }
    let over = !ongoing || {
        game.legal_moves(&mut state, &mut sc, &mut legal).unwrap();
        sum += legal.len() as u64;
        legal.is_empty()
    };
    let scores = (1..=game.info().num_players() as Player).map(|p| game.score(&state, p)).collect();
    (count, sum, scores, over)
}
