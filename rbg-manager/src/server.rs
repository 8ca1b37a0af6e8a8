//! The game manager: seats one client per real player and runs games between them.

use core::fmt;
use std::io::{self, Write};
use std::net::{SocketAddr, TcpListener, TcpStream, ToSocketAddrs};
use std::time::{Duration, Instant};

use rbg_core::moves::check_listed;
use rbg_core::notation::{format_wire, parse_wire};
use rbg_core::perft::DEFAULT_KEEPER_LIMIT;
use rbg_core::{Action, Game, MoveList, Player, SearchError};

use crate::framing::{into_text, Connection, FrameError, DEFAULT_MAX_MESSAGE, TERMINATOR};

/// The message that ends a game.
pub const RESET: &str = "reset";

/// Settings of a [`Server`].
#[derive(Clone, Debug, PartialEq)]
pub struct ServerConfig {
    /// Time for one move, sent to the mover before each of its moves. `None`: no deadline (the
    /// largest double is sent, as the reference does, and only [`ServerConfig::max_wait`]
    /// bounds the wait).
    pub deadline: Option<Duration>,
    /// Preparation time, sent first to each client. A `ready` later than this is only logged.
    pub preparation: Duration,
    /// How much later than the deadline a move is still accepted (and counted in `timeouts=`).
    /// A move later than deadline + grace is a forfeit.
    pub grace: Duration,
    /// Stop after this many games (`None`: play until a client disconnects).
    pub games: Option<u64>,
    /// The longest message accepted from a client, in bytes.
    pub max_message: usize,
    /// The longest the server waits for any answer that no deadline bounds: a `ready` (at least
    /// the preparation time plus the grace period is always allowed) or a move when there is no
    /// deadline. A client silent for longer forfeits (or, during set-up, is treated as gone).
    pub max_wait: Duration,
    /// A write to a client that makes no progress for this long fails (the client is gone).
    pub write_timeout: Duration,
    /// Give up when the seats are not all taken after this long (`None`: wait for ever, as the
    /// reference does).
    pub accept_timeout: Option<Duration>,
    /// Bound on consecutive keeper moves (improper games only).
    pub keeper_limit: u64,
}

impl Default for ServerConfig {
    fn default() -> Self {
        ServerConfig {
            deadline: None,
            preparation: Duration::from_secs(5),
            grace: Duration::from_secs(1),
            games: None,
            max_message: DEFAULT_MAX_MESSAGE,
            max_wait: Duration::from_secs(3600),
            write_timeout: Duration::from_secs(60),
            accept_timeout: None,
            keeper_limit: DEFAULT_KEEPER_LIMIT,
        }
    }
}

/// Where the server writes. Every log is optional.
#[derive(Default)]
pub struct ServerLogs {
    /// One line per game (see [`GameResult::results_line`]).
    pub results: Option<Box<dyn Write + Send>>,
    /// One line per player move: `<game number> <player number> <move in wire notation>`.
    pub moves: Option<Box<dyn Write + Send>>,
    /// What happens, for people: connections, late answers, forfeits and their reasons.
    pub events: Option<Box<dyn Write + Send>>,
}

/// Why the server could not run (a misbehaving client is never one of these).
#[derive(Debug)]
pub enum ServerError {
    /// Binding, accepting, or writing a log failed.
    Io(io::Error),
    /// The game text cannot be sent (it holds a NUL byte).
    GameText,
    /// The game has no real players.
    NoPlayers,
    /// The game is over before any player moves.
    GameOverAtStart,
    /// The reasoner stopped on a bound (improper game descriptions only).
    Search(SearchError),
    /// Not every seat was taken within [`ServerConfig::accept_timeout`].
    AcceptTimeout {
        /// Clients that did connect.
        connected: usize,
        /// Clients needed.
        needed: usize,
    },
}

impl From<io::Error> for ServerError {
    fn from(e: io::Error) -> Self {
        ServerError::Io(e)
    }
}

impl From<SearchError> for ServerError {
    fn from(e: SearchError) -> Self {
        ServerError::Search(e)
    }
}

impl fmt::Display for ServerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ServerError::Io(e) => write!(f, "{e}"),
            ServerError::GameText => write!(f, "the game text contains a NUL byte and cannot be sent"),
            ServerError::NoPlayers => write!(f, "the game has no players"),
            ServerError::GameOverAtStart => write!(f, "the game is over before any player moves"),
            ServerError::Search(e) => e.fmt(f),
            ServerError::AcceptTimeout { connected, needed } => {
                write!(f, "only {connected} of {needed} clients connected in time")
            }
        }
    }
}

impl std::error::Error for ServerError {}

/// Why a player lost a game by forfeit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ForfeitReason {
    /// A well-formed move that is not legal.
    Illegal {
        /// The move as received.
        text: String,
    },
    /// A message that is not a move (not text, not `v m` pairs of numbers in range).
    Garbage {
        /// What was wrong.
        detail: String,
    },
    /// The client closed the connection or it failed.
    Disconnected {
        /// What happened.
        detail: String,
    },
    /// No move within deadline + grace (or within the maximum wait when there is no deadline).
    Timeout {
        /// How long the server waited.
        waited: Duration,
    },
    /// A message over the length limit (the connection is closed afterwards).
    TooLong {
        /// The limit in bytes.
        limit: usize,
    },
}

impl ForfeitReason {
    /// The one-word name used in the results log.
    pub fn token(&self) -> &'static str {
        match self {
            ForfeitReason::Illegal { .. } => "illegal",
            ForfeitReason::Garbage { .. } => "garbage",
            ForfeitReason::Disconnected { .. } => "disconnect",
            ForfeitReason::Timeout { .. } => "timeout",
            ForfeitReason::TooLong { .. } => "too-long",
        }
    }
}

impl fmt::Display for ForfeitReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ForfeitReason::Illegal { text } => write!(f, "illegal move '{}'", shorten(text)),
            ForfeitReason::Garbage { detail } => write!(f, "not a move: {detail}"),
            ForfeitReason::Disconnected { detail } => write!(f, "disconnected: {detail}"),
            ForfeitReason::Timeout { waited } => {
                write!(f, "no move within {:.3} s", waited.as_secs_f64())
            }
            ForfeitReason::TooLong { limit } => write!(f, "a message over {limit} bytes"),
        }
    }
}

/// A forfeited game: who and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Forfeit {
    /// The offender.
    pub player: Player,
    pub reason: ForfeitReason,
}

/// The outcome of one game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameResult {
    /// Wall time of the game in seconds.
    pub seconds: f64,
    /// Player moves made (keeper moves not counted).
    pub moves: u64,
    /// The sum over the game's states where a player was to move of the number of legal moves.
    pub legal_moves: u64,
    /// Scores, index `p - 1` for player `p`: the final state's, or after a forfeit 0 for the
    /// offender and the declared maximum for everyone else.
    pub scores: Vec<i64>,
    /// Moves accepted after the deadline (within the grace period), per player.
    pub timeouts: Vec<u64>,
    /// The forfeit that ended the game, if one did.
    pub forfeit: Option<Forfeit>,
}

impl GameResult {
    /// The game's line in the results log: `<seconds> <moves> <legal-move sum> <score p1> ...`,
    /// then ` timeouts=<n1>,<n2>,...` (late moves per player) if any move was late, then
    /// ` forfeit=p<N>:<reason>` if the game was forfeited. No newline.
    pub fn results_line(&self) -> String {
        let mut line = format!("{:.6} {} {}", self.seconds, self.moves, self.legal_moves);
        for s in &self.scores {
            line.push_str(&format!(" {s}"));
        }
        if self.timeouts.iter().any(|&t| t > 0) {
            let counts: Vec<String> = self.timeouts.iter().map(u64::to_string).collect();
            line.push_str(&format!(" timeouts={}", counts.join(",")));
        }
        if let Some(f) = &self.forfeit {
            line.push_str(&format!(" forfeit=p{}:{}", f.player, f.reason.token()));
        }
        line
    }
}

/// Why the server stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StopReason {
    /// The configured number of games was played.
    GamesPlayed,
    /// A client was gone at the end of a game.
    Disconnected {
        /// Its player number.
        player: Player,
    },
}

/// What a server run did.
#[derive(Clone, Debug, PartialEq)]
pub struct ServerReport {
    /// The games, in order.
    pub games: Vec<GameResult>,
    pub stop: StopReason,
}

/// One client's seat.
struct Seat {
    conn: Connection,
    /// Why the client is gone, once it is.
    gone: Option<String>,
}

impl Seat {
    fn leave(&mut self, why: String) {
        if self.gone.is_none() {
            self.conn.shutdown();
            self.gone = Some(why);
        }
    }
}

/// The game manager for one game `G` (the interpreter, a compiled reasoner, or an
/// [`AnyGame`](rbg_core::dynamic::AnyGame)). See the crate documentation for the protocol and
/// the forfeit rule.
pub struct Server<G: Game> {
    game: G,
    text: Vec<u8>,
    listener: TcpListener,
    config: ServerConfig,
    logs: ServerLogs,
}

impl<G: Game> Server<G> {
    /// A server for `game`, whose description `text` is sent to the clients exactly as given,
    /// listening on `addr` (port 0: any free port, see [`Server::local_addr`]).
    pub fn bind(
        game: G,
        text: impl Into<Vec<u8>>,
        addr: impl ToSocketAddrs,
        config: ServerConfig,
    ) -> Result<Self, ServerError> {
        let text = text.into();
        if text.contains(&TERMINATOR) {
            return Err(ServerError::GameText);
        }
        if game.info().num_players() == 0 {
            return Err(ServerError::NoPlayers);
        }
        // A game over before anyone moves would make every game empty (and an unlimited run
        // an endless loop).
        let mut state = game.initial_state();
        let mut sc = game.new_scratch();
        if !game.complete_keeper(&mut state, &mut sc, config.keeper_limit)?
            || !game.has_legal_move(&mut state, &mut sc)?
        {
            return Err(ServerError::GameOverAtStart);
        }
        let listener = TcpListener::bind(addr)?;
        Ok(Server { game, text, listener, config, logs: ServerLogs::default() })
    }

    /// Sets the logs.
    pub fn with_logs(mut self, logs: ServerLogs) -> Self {
        self.logs = logs;
        self
    }

    /// The address the server listens on.
    pub fn local_addr(&self) -> io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    /// Seats the clients, sends the set-up, and plays games until the configured number is
    /// reached or a client is gone at the end of a game.
    pub fn run(mut self) -> Result<ServerReport, ServerError> {
        let mut seats = self.accept_clients()?;
        self.set_up(&mut seats);
        let mut games = Vec::new();
        let stop = loop {
            let number = games.len() as u64 + 1;
            let result = self.play_game(&mut seats, number)?;
            self.record(number, &result)?;
            games.push(result);
            for (i, seat) in seats.iter_mut().enumerate() {
                if seat.gone.is_none() {
                    if let Err(e) = seat.conn.send(RESET) {
                        self.event(format_args!("player {}: cannot send reset: {e}", i + 1));
                        seat.leave(e.to_string());
                    }
                }
            }
            self.check_seats(&mut seats);
            if self.config.games.is_some_and(|n| games.len() as u64 >= n) {
                break StopReason::GamesPlayed;
            }
            if let Some(i) = seats.iter().position(|s| s.gone.is_some()) {
                let player = i as Player + 1;
                self.event(format_args!("player {player} is gone; stopping after {} games", games.len()));
                break StopReason::Disconnected { player };
            }
        };
        for seat in &seats {
            seat.conn.shutdown();
        }
        Ok(ServerReport { games, stop })
    }

    /// Writes a line to the event log.
    fn event(&mut self, args: fmt::Arguments<'_>) {
        event(&mut self.logs.events, args);
    }

    fn player_name(&self, player: Player) -> &str {
        self.game.info().players.get(player as usize - 1).map_or("?", String::as_str)
    }

    fn accept_clients(&mut self) -> Result<Vec<Seat>, ServerError> {
        let needed = self.game.info().num_players();
        let addr = self.listener.local_addr()?;
        self.event(format_args!("listening on {addr}, waiting for {needed} clients"));
        let give_up = self.config.accept_timeout.map(|t| Instant::now() + t);
        self.listener.set_nonblocking(give_up.is_some())?;
        let mut seats = Vec::with_capacity(needed);
        while seats.len() < needed {
            let stream = match self.listener.accept() {
                Ok((stream, _)) => stream,
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                    if give_up.is_some_and(|t| Instant::now() >= t) {
                        return Err(ServerError::AcceptTimeout { connected: seats.len(), needed });
                    }
                    std::thread::sleep(Duration::from_millis(5));
                    continue;
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                // A connection that failed before we accepted it (reset by the peer): not a seat.
                Err(e) if e.kind() == io::ErrorKind::ConnectionAborted => continue,
                Err(e) => return Err(e.into()),
            };
            match self.connection(stream) {
                Ok(conn) => {
                    let player = seats.len() as Player + 1;
                    let name = self.player_name(player).to_string();
                    self.event(format_args!("client {} plays player {player} ({name})", conn.peer()));
                    seats.push(Seat { conn, gone: None });
                }
                Err(e) => self.event(format_args!("a connection failed before set-up: {e}")),
            }
        }
        Ok(seats)
    }

    fn connection(&self, stream: TcpStream) -> io::Result<Connection> {
        stream.set_nonblocking(false)?;
        Connection::new(stream, self.config.max_message, self.config.write_timeout)
    }

    /// Sends the three set-up messages to every client at once and waits for their answers.
    fn set_up(&mut self, seats: &mut [Seat]) {
        let preparation = format!("{:.6}", self.config.preparation.as_secs_f64());
        let ready_wait = self.config.max_wait.max(self.config.preparation + self.config.grace);
        let start = Instant::now();
        let text = &self.text;
        let outcomes: Vec<Result<Duration, String>> = std::thread::scope(|scope| {
            let handles: Vec<_> = seats
                .iter_mut()
                .enumerate()
                .map(|(i, seat)| {
                    let preparation = &preparation;
                    scope.spawn(move || -> Result<Duration, String> {
                        let conn = &mut seat.conn;
                        conn.send(preparation).map_err(|e| e.to_string())?;
                        conn.send_bytes(text).map_err(|e| e.to_string())?;
                        conn.send(&(i + 1).to_string()).map_err(|e| e.to_string())?;
                        // Any message counts as ready, text or not.
                        match conn.recv_bytes(Some(start + ready_wait)) {
                            Ok(_) => Ok(start.elapsed()),
                            Err(FrameError::TimedOut) => Err(format!(
                                "no answer to the set-up within {:.3} s",
                                ready_wait.as_secs_f64()
                            )),
                            Err(e) => Err(e.to_string()),
                        }
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().unwrap_or_else(|_| Err("the set-up of this client failed".into())))
                .collect()
        });
        for (i, (seat, outcome)) in seats.iter_mut().zip(outcomes).enumerate() {
            let player = i + 1;
            match outcome {
                Ok(took) if took > self.config.preparation => self
                    .event(format_args!("player {player} was ready late, after {:.3} s", took.as_secs_f64())),
                Ok(_) => {}
                Err(why) => {
                    self.event(format_args!("player {player} is gone during set-up: {why}"));
                    seat.leave(why);
                }
            }
        }
    }

    /// Plays one game to its end or to a forfeit.
    fn play_game(&mut self, seats: &mut [Seat], number: u64) -> Result<GameResult, ServerError> {
        let start = Instant::now();
        let Server { game, config, logs, .. } = self;
        let players = game.info().num_players();
        let mut sc = game.new_scratch();
        let mut state = game.initial_state();
        let mut legal = MoveList::new();
        let mut result = GameResult {
            seconds: 0.0,
            moves: 0,
            legal_moves: 0,
            scores: Vec::new(),
            timeouts: vec![0; players],
            forfeit: None,
        };
        let mut ongoing = game.complete_keeper(&mut state, &mut sc, config.keeper_limit)?;
        while ongoing {
            game.legal_moves(&mut state, &mut sc, &mut legal)?;
            if legal.is_empty() {
                break;
            }
            // The mover's clock starts now: the previous move is applied and the list is made.
            let asked = Instant::now();
            result.legal_moves += legal.len() as u64;
            let player = game.current_player(&state);
            let Some(seat) = seats.get_mut(player as usize - 1) else {
                // A player number without a seat cannot come from a consistent reasoner.
                break;
            };
            let (mv, late) = match ask(game, config, &mut logs.events, seat, player, &legal, asked) {
                Ok(answer) => answer,
                Err(reason) => {
                    event(
                        &mut logs.events,
                        format_args!("game {number}: player {player} forfeits: {reason}"),
                    );
                    result.forfeit = Some(Forfeit { player, reason });
                    break;
                }
            };
            let text = format_wire(&mv);
            if late {
                result.timeouts[player as usize - 1] += 1;
            }
            for (i, other) in seats.iter_mut().enumerate() {
                if i + 1 != player as usize && other.gone.is_none() {
                    if let Err(e) = other.conn.send(&text) {
                        // The seat forfeits at its next turn, or the server stops after this game.
                        other.leave(e.to_string());
                    }
                }
            }
            if let Some(out) = &mut logs.moves {
                writeln!(out, "{number} {player} {text}")?;
            }
            game.apply_move(&mut state, &mv);
            result.moves += 1;
            ongoing = game.complete_keeper(&mut state, &mut sc, config.keeper_limit)?;
        }
        if let Some(out) = &mut logs.moves {
            out.flush()?;
        }
        let bounds = &game.info().bounds;
        result.scores = match &result.forfeit {
            None => (1..=players as Player).map(|p| game.score(&state, p)).collect(),
            Some(f) => (1..=players as Player)
                .map(|p| if p == f.player { 0 } else { bounds.get(p as usize - 1).copied().unwrap_or(0) })
                .collect(),
        };
        result.seconds = start.elapsed().as_secs_f64();
        Ok(result)
    }

    /// After a game: reads whatever the clients sent meanwhile (discarded) and notices the ones
    /// that are gone.
    fn check_seats(&mut self, seats: &mut [Seat]) {
        for (i, seat) in seats.iter_mut().enumerate() {
            if seat.gone.is_some() {
                continue;
            }
            let (stale, error) = seat.conn.drain();
            if !stale.is_empty() {
                self.event(format_args!("player {}: {} unrequested messages discarded", i + 1, stale.len()));
            }
            if let Some(e) = error {
                self.event(format_args!("player {} is gone: {e}", i + 1));
                seat.leave(e.to_string());
            }
        }
    }

    /// Writes the results line of a game and logs its end.
    fn record(&mut self, number: u64, result: &GameResult) -> Result<(), ServerError> {
        let line = result.results_line();
        if let Some(out) = &mut self.logs.results {
            writeln!(out, "{line}")?;
            out.flush()?;
        }
        let scores: Vec<String> = (1..=result.scores.len() as Player)
            .map(|p| format!("{}={}", self.player_name(p), result.scores[p as usize - 1]))
            .collect();
        self.event(format_args!("game {number} over after {} moves: {}", result.moves, scores.join(" ")));
        Ok(())
    }
}

/// Writes a line to an event log (errors ignored: the log is for people).
fn event(events: &mut Option<Box<dyn Write + Send>>, args: fmt::Arguments<'_>) {
    if let Some(out) = events {
        let _ = writeln!(out, "rbg manager: {args}");
        let _ = out.flush();
    }
}

/// Asks `player` for a move and reads it: the legal move and whether it came after the
/// deadline, or why the player forfeits.
fn ask<G: Game>(
    game: &G,
    config: &ServerConfig,
    events: &mut Option<Box<dyn Write + Send>>,
    seat: &mut Seat,
    player: Player,
    legal: &MoveList,
    asked: Instant,
) -> Result<(Vec<Action>, bool), ForfeitReason> {
    if let Some(why) = &seat.gone {
        return Err(ForfeitReason::Disconnected { detail: why.clone() });
    }
    // Messages that arrived before the question are stale (a move given up on earlier).
    let (stale, error) = seat.conn.drain();
    if !stale.is_empty() {
        event(events, format_args!("player {player}: {} unrequested messages discarded", stale.len()));
    }
    if let Some(e) = error {
        return Err(connection_failed(seat, e, asked));
    }
    let deadline = match config.deadline {
        Some(d) => format!("{:.6}", d.as_secs_f64()),
        None => format!("{:.6}", f64::MAX),
    };
    if let Err(e) = seat.conn.send(&deadline) {
        return Err(connection_failed(seat, e, asked));
    }
    let wait = match config.deadline {
        Some(d) => d + config.grace,
        None => config.max_wait,
    };
    let bytes = match seat.conn.recv_bytes(Some(asked + wait)) {
        Ok(bytes) => bytes,
        Err(e) => return Err(connection_failed(seat, e, asked)),
    };
    let elapsed = asked.elapsed();
    if elapsed > wait {
        return Err(ForfeitReason::Timeout { waited: elapsed });
    }
    let text = into_text(bytes).map_err(|e| ForfeitReason::Garbage { detail: e.to_string() })?;
    let mv = parse_wire(game.info(), &text)
        .map_err(|e| ForfeitReason::Garbage { detail: format!("'{}': {e}", shorten(&text)) })?;
    if check_listed(legal, player, &mv).is_err() {
        return Err(ForfeitReason::Illegal { text });
    }
    let late = config.deadline.is_some_and(|d| elapsed > d);
    if late {
        event(
            events,
            format_args!("player {player}: a move after {:.3} s, past the deadline", elapsed.as_secs_f64()),
        );
    }
    Ok((mv, late))
}

/// The forfeit for a failed read or write; the seat is left unless the connection is still
/// usable (after a timeout or a framed message that is not text).
fn connection_failed(seat: &mut Seat, e: FrameError, asked: Instant) -> ForfeitReason {
    let reason = match &e {
        FrameError::TimedOut => ForfeitReason::Timeout { waited: asked.elapsed() },
        FrameError::TooLong { limit } => ForfeitReason::TooLong { limit: *limit },
        FrameError::NotText { .. } | FrameError::ContainsNul => {
            ForfeitReason::Garbage { detail: e.to_string() }
        }
        _ => ForfeitReason::Disconnected { detail: e.to_string() },
    };
    if !e.connection_usable() {
        seat.leave(e.to_string());
    }
    reason
}

/// A message cut to a length fit for a log line.
fn shorten(text: &str) -> String {
    const MAX: usize = 80;
    match text.char_indices().nth(MAX) {
        Some((at, _)) => format!("{}...", &text[..at]),
        None => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_line_format() {
        let mut r = GameResult {
            seconds: 1.25,
            moves: 9,
            legal_moves: 45,
            scores: vec![100, 0],
            timeouts: vec![0, 0],
            forfeit: None,
        };
        assert_eq!(r.results_line(), "1.250000 9 45 100 0");
        r.timeouts = vec![0, 2];
        r.forfeit = Some(Forfeit { player: 1, reason: ForfeitReason::Timeout { waited: Duration::ZERO } });
        assert_eq!(r.results_line(), "1.250000 9 45 100 0 timeouts=0,2 forfeit=p1:timeout");
    }

    #[test]
    fn games_that_cannot_be_served_are_refused() {
        use rbg_core::toy::Nim;
        let config = ServerConfig::default;
        let refused =
            |r: Result<Server<Nim>, ServerError>| r.err().map(|e| e.to_string()).unwrap_or_default();
        assert!(refused(Server::bind(Nim::new(3), "a\0b", "127.0.0.1:0", config())).contains("NUL"));
        assert!(refused(Server::bind(Nim::new(0), "nim", "127.0.0.1:0", config())).contains("over before"));
        assert!(Server::bind(Nim::new(3), "nim", "127.0.0.1:0", config()).is_ok());
    }

    #[test]
    fn shorten_keeps_short_text_and_cuts_long_text_on_a_char_boundary() {
        assert_eq!(shorten("1 2"), "1 2");
        let long = "é".repeat(100);
        assert_eq!(shorten(&long).chars().count(), 83);
    }
}
