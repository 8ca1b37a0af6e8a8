//! The client: plays one seat of a game manager's games with an agent.

use core::fmt;
use std::io::{self, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::time::{Duration, Instant};

use rbg_agents::{Agent, Budget};
use rbg_core::moves::{check_move, CheckedMoveError};
use rbg_core::notation::{format_wire, parse_wire};
use rbg_core::perft::DEFAULT_KEEPER_LIMIT;
use rbg_core::{Action, Game, MoveList, Player, SearchError};

use crate::framing::{Connection, FrameError, DEFAULT_MAX_MESSAGE};
use crate::server::RESET;

/// Settings of a [`Client`].
#[derive(Clone, Debug, PartialEq)]
pub struct ClientConfig {
    /// The seed of the first game; game `n` (from 0) resets the agent with a seed derived from
    /// this one and `n`.
    pub seed: u64,
    /// How much earlier than the deadline the agent must stop thinking (when the deadline is
    /// shorter than twice the margin, the agent gets half the deadline instead).
    pub safety_margin: Duration,
    /// The longest message accepted from the server, in bytes.
    pub max_message: usize,
    /// The longest the client waits for any message (`None`: for ever). Waiting for other
    /// players' moves counts, so this must exceed the longest time the others may think.
    pub max_wait: Option<Duration>,
    /// A write that makes no progress for this long fails.
    pub write_timeout: Duration,
    /// Bound on consecutive keeper moves (improper games only).
    pub keeper_limit: u64,
}

impl Default for ClientConfig {
    fn default() -> Self {
        ClientConfig {
            seed: 0,
            safety_margin: Duration::from_millis(100),
            max_message: DEFAULT_MAX_MESSAGE,
            max_wait: Some(Duration::from_secs(3600)),
            write_timeout: Duration::from_secs(60),
            keeper_limit: DEFAULT_KEEPER_LIMIT,
        }
    }
}

/// Why the client stopped before the server closed the connection.
#[derive(Debug)]
pub enum ClientError {
    /// Connecting failed.
    Connect(io::Error),
    /// Reading or writing a message failed (including a server that stays silent for longer than
    /// [`ClientConfig::max_wait`]).
    Frame(FrameError),
    /// A message from the server is not what the protocol allows at that point.
    Malformed {
        /// What was expected.
        expected: &'static str,
        /// The message (shortened).
        message: String,
    },
    /// The game text could not be made into a game (the caller's closure failed).
    Game(String),
    /// The agent could not be built or failed to choose a move.
    Agent(String),
    /// The server sent a move that our reasoner says is not legal.
    IllegalMove {
        /// The move as received.
        text: String,
    },
    /// The reasoner stopped on a bound (improper game descriptions only).
    Search(SearchError),
}

impl From<FrameError> for ClientError {
    fn from(e: FrameError) -> Self {
        ClientError::Frame(e)
    }
}

impl From<SearchError> for ClientError {
    fn from(e: SearchError) -> Self {
        ClientError::Search(e)
    }
}

impl fmt::Display for ClientError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClientError::Connect(e) => write!(f, "cannot connect: {e}"),
            ClientError::Frame(e) => e.fmt(f),
            ClientError::Malformed { expected, message } => {
                write!(f, "the server sent '{message}' where {expected} was expected")
            }
            ClientError::Game(e) => write!(f, "the game received cannot be played: {e}"),
            ClientError::Agent(e) => write!(f, "the agent failed: {e}"),
            ClientError::IllegalMove { text } => {
                write!(f, "the server sent the move '{text}', which is not legal here")
            }
            ClientError::Search(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for ClientError {}

/// One game as the client saw it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClientGame {
    /// Player moves made.
    pub moves: u64,
    /// Whether the game had reached its end by the rules when the server reset it (otherwise
    /// someone forfeited).
    pub finished: bool,
    /// The scores of the last state, index `p - 1` for player `p`.
    pub scores: Vec<i64>,
}

/// What a client run did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClientReport {
    /// The player this client played.
    pub player: Player,
    /// The preparation time the server gave.
    pub preparation: Duration,
    /// Every game that ended with a `reset`, in order.
    pub games: Vec<ClientGame>,
    /// Moves of a game the server closed the connection in, if it had any.
    pub unfinished_moves: u64,
}

/// A connection to a game manager, before the set-up.
pub struct Client {
    conn: Connection,
    config: ClientConfig,
    log: Option<Box<dyn Write + Send>>,
}

impl Client {
    /// Connects to a game manager.
    pub fn connect(addr: impl ToSocketAddrs, config: ClientConfig) -> Result<Self, ClientError> {
        let stream = TcpStream::connect(addr).map_err(ClientError::Connect)?;
        Self::from_stream(stream, config)
    }

    /// A client over an already connected stream.
    pub fn from_stream(stream: TcpStream, config: ClientConfig) -> Result<Self, ClientError> {
        let conn = Connection::new(stream, config.max_message, config.write_timeout)
            .map_err(ClientError::Connect)?;
        Ok(Client { conn, config, log: None })
    }

    /// Where to write what happens (moves chosen, games ended); nothing is written by default.
    pub fn with_log(mut self, log: Box<dyn Write + Send>) -> Self {
        self.log = Some(log);
        self
    }

    fn note(&mut self, args: fmt::Arguments<'_>) {
        if let Some(out) = &mut self.log {
            let _ = writeln!(out, "rbg client: {args}");
            let _ = out.flush();
        }
    }

    fn recv(&mut self) -> Result<String, FrameError> {
        let deadline = self.config.max_wait.map(|w| Instant::now() + w);
        self.conn.recv(deadline)
    }

    /// Reads the set-up, builds the game from the text received (`build_game`) and the agent
    /// for it (`build_agent`), answers `ready`, and plays until the server closes the
    /// connection, which ends the run normally.
    pub fn play<G, A>(
        self,
        build_game: impl FnOnce(&str) -> Result<G, String>,
        build_agent: impl FnMut(&G) -> Result<A, String>,
    ) -> Result<ClientReport, ClientError>
    where
        G: Game,
        A: Agent<G>,
    {
        self.play_switching(build_game, build_agent, |_| None)
    }

    /// [`Client::play`] with another engine of the game that may become ready while the
    /// client plays (`rbg client --engine auto`: the compiled engine builds while the
    /// interpreter plays). `next_engine(wait)` waits at most `wait` for it and returns it once,
    /// when it is ready. It is waited for during the preparation time (less the safety margin)
    /// before `ready` is sent, and asked without waiting before each move the agent chooses:
    /// then the moves of the game so far are replayed on it (each checked; should it refuse
    /// one, the old engine plays on), the agent is built anew for it, and play goes on with
    /// both. The time a switch takes is taken from the move's deadline.
    pub fn play_switching<G, A>(
        mut self,
        build_game: impl FnOnce(&str) -> Result<G, String>,
        mut build_agent: impl FnMut(&G) -> Result<A, String>,
        mut next_engine: impl FnMut(Duration) -> Option<G>,
    ) -> Result<ClientReport, ClientError>
    where
        G: Game,
        A: Agent<G>,
    {
        let message = self.recv()?;
        let received = Instant::now();
        let preparation = match message.trim().parse::<f64>() {
            Ok(x) if x.is_finite() && x >= 0.0 => Duration::try_from_secs_f64(x).unwrap_or(Duration::MAX),
            _ => return Err(malformed("a preparation time", &message)),
        };
        let text = self.recv()?;
        let message = self.recv()?;
        let player: Player = message.trim().parse().map_err(|_| malformed("a player number", &message))?;
        let game = build_game(&text).map_err(ClientError::Game)?;
        if player == 0 || player as usize > game.info().num_players() {
            return Err(malformed("a player number of the game", &message));
        }
        let agent = build_agent(&game).map_err(ClientError::Agent)?;
        let mut seat = Seat { game, agent };
        let ready_by = preparation.saturating_sub(self.config.safety_margin);
        if let Some(better) = next_engine(ready_by.saturating_sub(received.elapsed())) {
            // Nothing is played yet: the new engine starts the game.
            let agent = build_agent(&better).map_err(ClientError::Agent)?;
            seat = Seat { game: better, agent };
            self.note(format_args!("the new engine was ready within the preparation time"));
        }
        self.conn.send("ready")?;
        let name = seat.game.info().players[player as usize - 1].clone();
        self.note(format_args!("playing {name} (player {player}) with {}", seat.agent.name()));
        let mut report = ClientReport { player, preparation, games: Vec::new(), unfinished_moves: 0 };
        loop {
            let seed = game_seed(self.config.seed, report.games.len() as u64);
            let mut turn =
                Turns { seat: &mut seat, next_engine: &mut next_engine, build_agent: &mut build_agent };
            match self.play_game(&mut turn, player, seed)? {
                GameEnd::Reset(played) => report.games.push(played),
                GameEnd::Closed { moves } => {
                    report.unfinished_moves = moves;
                    return Ok(report);
                }
            }
        }
    }

    /// Plays one game until `reset` or until the server closes the connection.
    fn play_game<G: Game, A: Agent<G>>(
        &mut self,
        turns: &mut Turns<'_, G, A, impl FnMut(Duration) -> Option<G>, impl FnMut(&G) -> Result<A, String>>,
        me: Player,
        seed: u64,
    ) -> Result<GameEnd, ClientError> {
        turns.seat.agent.reset(seed);
        let keeper_limit = self.config.keeper_limit;
        let mut history: Vec<Vec<Action>> = Vec::new();
        let mut at = Position::after(&turns.seat.game, &history, keeper_limit)?;
        let mut legal = MoveList::new();
        // When the last move was sent or received: the manager starts the clock of the next
        // move soon after it, before the deadline message arrives, and the client's own work
        // in between (the agent observing the move) already spends that move's time.
        let mut last_move_at: Option<Instant> = None;
        loop {
            let to_move = at.mover_and_moves(&turns.seat.game, &mut legal)?;
            let message = match self.recv() {
                Ok(m) => m,
                Err(FrameError::Closed) => {
                    let moves = history.len() as u64;
                    if moves > 0 {
                        self.note(format_args!("the server closed the connection after {moves} moves"));
                    }
                    return Ok(GameEnd::Closed { moves });
                }
                Err(e) => return Err(e.into()),
            };
            let received = Instant::now();
            let game = &turns.seat.game;
            if message == RESET {
                let scores =
                    (1..=game.info().num_players() as Player).map(|p| game.score(&at.state, p)).collect();
                let moves = history.len() as u64;
                let played = ClientGame { moves, finished: to_move.is_none(), scores };
                self.note(format_args!(
                    "game over after {moves} moves{}; scores {:?}",
                    if played.finished { "" } else { " (not by the rules)" },
                    played.scores
                ));
                return Ok(GameEnd::Reset(played));
            }
            let mv = match to_move {
                Some(p) if p == me => {
                    let deadline = parse_deadline(&message)?;
                    if let Some(switched) = self.switch_engine(turns, &history, seed) {
                        at = switched;
                        at.mover_and_moves(&turns.seat.game, &mut legal)?;
                    }
                    let (game, agent) = (&turns.seat.game, &mut turns.seat.agent);
                    let started = last_move_at.unwrap_or(received);
                    let left = deadline.map(|d| d.saturating_sub(started.elapsed()));
                    let budget = move_budget(agent.budget(), left, self.config.safety_margin);
                    let decision = agent
                        .select_move(game, &at.state, &budget)
                        .map_err(|e| ClientError::Agent(e.to_string()))?;
                    if !legal.iter().any(|m| m == decision.mv.as_slice()) {
                        return Err(ClientError::Agent(format!(
                            "it chose an illegal move {:?}",
                            decision.mv
                        )));
                    }
                    self.conn.send(&format_wire(&decision.mv))?;
                    last_move_at = Some(Instant::now());
                    let stats = &decision.stats;
                    self.note(format_args!(
                        "move {}: {} iterations in {} ms",
                        history.len() + 1,
                        stats.iterations,
                        stats.elapsed.as_millis()
                    ));
                    decision.mv
                }
                Some(_) => {
                    let mv = parse_wire(game.info(), &message).map_err(|_| malformed("a move", &message))?;
                    if !legal.iter().any(|m| m == mv.as_slice()) {
                        return Err(ClientError::IllegalMove { text: message });
                    }
                    last_move_at = Some(received);
                    mv
                }
                None => return Err(malformed("'reset' (the game is over)", &message)),
            };
            let (game, agent) = (&turns.seat.game, &mut turns.seat.agent);
            agent.observe(game, &at.state, &mv).map_err(|e| ClientError::Agent(e.to_string()))?;
            at.play(game, &mv, keeper_limit)?;
            history.push(mv);
        }
    }

    /// Moves to the other engine if it is ready: the game so far replayed on it and a new
    /// agent for it; the position on it, or `None` (no engine yet, or it refused the game:
    /// then the old engine plays on, and the log says why).
    fn switch_engine<G: Game, A: Agent<G>>(
        &mut self,
        turns: &mut Turns<'_, G, A, impl FnMut(Duration) -> Option<G>, impl FnMut(&G) -> Result<A, String>>,
        history: &[Vec<Action>],
        seed: u64,
    ) -> Option<Position<G>> {
        let better = (turns.next_engine)(Duration::ZERO)?;
        let replayed = Position::after(&better, history, self.config.keeper_limit);
        let built = (turns.build_agent)(&better);
        match (replayed, built) {
            (Ok(at), Ok(mut agent)) => {
                agent.reset(seed);
                *turns.seat = Seat { game: better, agent };
                self.note(format_args!("switched to the new engine after {} moves", history.len()));
                Some(at)
            }
            (Err(e), _) => {
                self.note(format_args!("the new engine cannot replay this game ({e}); the old one plays on"));
                None
            }
            (_, Err(e)) => {
                self.note(format_args!("no agent for the new engine ({e}); the old one plays on"));
                None
            }
        }
    }
}

/// The engine a client plays with and its agent.
struct Seat<G, A> {
    game: G,
    agent: A,
}

/// What a game needs to switch engines: the seat, the source of the other engine and the
/// agent maker.
struct Turns<'a, G, A, N, B> {
    seat: &'a mut Seat<G, A>,
    next_engine: &'a mut N,
    build_agent: &'a mut B,
}

/// A position of a game on one engine, keeper completed.
struct Position<G: Game> {
    state: G::State,
    scratch: G::Scratch,
    /// The keeper finished and a player is to move (who may have no move).
    ongoing: bool,
}

impl<G: Game> Position<G> {
    /// The position after `history` played from the initial one on `game`, every move checked
    /// (moves of the server's game are legal on any engine of the same rules).
    fn after(game: &G, history: &[Vec<Action>], keeper_limit: u64) -> Result<Self, ClientError> {
        let mut scratch = game.new_scratch();
        let mut state = game.initial_state();
        let ongoing = game.complete_keeper(&mut state, &mut scratch, keeper_limit)?;
        let mut at = Position { state, scratch, ongoing };
        for (n, mv) in history.iter().enumerate() {
            check_move(game, &mut at.state, &mut at.scratch, mv).map_err(|e| match e {
                CheckedMoveError::Illegal(e) => ClientError::Game(format!("move {}: {e}", n + 1)),
                CheckedMoveError::Search(e) => ClientError::Search(e),
            })?;
            at.play(game, mv, keeper_limit)?;
        }
        Ok(at)
    }

    /// The player to move with their moves in `legal`, or `None` when the game is over.
    fn mover_and_moves(&mut self, game: &G, legal: &mut MoveList) -> Result<Option<Player>, ClientError> {
        if !self.ongoing {
            return Ok(None);
        }
        game.legal_moves(&mut self.state, &mut self.scratch, legal)?;
        Ok((!legal.is_empty()).then(|| game.current_player(&self.state)))
    }

    /// Plays a move known to be legal and the keeper's moves after it.
    fn play(&mut self, game: &G, mv: &[Action], keeper_limit: u64) -> Result<(), ClientError> {
        game.apply_move(&mut self.state, mv);
        self.ongoing = game.complete_keeper(&mut self.state, &mut self.scratch, keeper_limit)?;
        Ok(())
    }
}

/// How one game ended for the client.
enum GameEnd {
    /// The server sent `reset`.
    Reset(ClientGame),
    /// The server closed the connection after `moves` moves of this game.
    Closed { moves: u64 },
}

fn malformed(expected: &'static str, message: &str) -> ClientError {
    const MAX: usize = 80;
    let message = match message.char_indices().nth(MAX) {
        Some((at, _)) => format!("{}...", &message[..at]),
        None => message.to_string(),
    };
    ClientError::Malformed { expected, message }
}

/// A deadline message: seconds as a decimal real. `None` when it is too large for a
/// [`Duration`] (the reference sends the largest double when there is no deadline).
fn parse_deadline(message: &str) -> Result<Option<Duration>, ClientError> {
    match message.trim().parse::<f64>() {
        Ok(x) if x.is_finite() && x >= 0.0 => Ok(Duration::try_from_secs_f64(x).ok()),
        _ => Err(malformed("a deadline", message)),
    }
}

/// The budget for one move: the agent's own, with its time capped at the deadline minus the
/// safety margin (half the deadline when that is shorter). An agent without a budget of its own
/// thinks until then.
pub fn move_budget(own: Budget, deadline: Option<Duration>, margin: Duration) -> Budget {
    let Some(deadline) = deadline else { return own };
    let available = match deadline.checked_sub(margin) {
        Some(left) if left >= deadline / 2 => left,
        _ => deadline / 2,
    };
    let time = own.time.map_or(available, |t| t.min(available));
    Budget { time: Some(time), ..own }
}

/// The seed of game `n` (from 0): a mix of the base seed and `n`, so that games differ.
fn game_seed(seed: u64, n: u64) -> u64 {
    let mut x = seed ^ n.wrapping_add(1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deadlines_parse_and_the_largest_double_means_none() {
        assert_eq!(parse_deadline("1.500000").unwrap(), Some(Duration::from_millis(1500)));
        assert_eq!(parse_deadline(&format!("{:.6}", f64::MAX)).unwrap(), None);
        for bad in ["", "soon", "-1.0", "NaN", "inf", "1 2"] {
            assert!(matches!(parse_deadline(bad), Err(ClientError::Malformed { .. })), "{bad}");
        }
    }

    #[test]
    fn budgets_respect_the_deadline_and_the_agent() {
        let margin = Duration::from_millis(100);
        let second = Duration::from_secs(1);
        assert_eq!(move_budget(Budget::iterations(5), None, margin), Budget::iterations(5));
        let b = move_budget(Budget::iterations(5), Some(second), margin);
        assert_eq!((b.iterations, b.time), (Some(5), Some(Duration::from_millis(900))));
        let b = move_budget(Budget::time(Duration::from_millis(20)), Some(second), margin);
        assert_eq!(b.time, Some(Duration::from_millis(20)));
        // A deadline shorter than twice the margin: half of it.
        let b = move_budget(Budget::default(), Some(Duration::from_millis(150)), margin);
        assert_eq!(b.time, Some(Duration::from_millis(75)));
    }

    /// A position replayed from the history (a switch of engines) is the one reached move by
    /// move: the same player, scores and legal moves at every step; a move the rules refuse
    /// is named.
    #[test]
    fn a_replayed_position_is_the_position_played() {
        let game = rbg_core::toy::Nim::new(7);
        let limit = DEFAULT_KEEPER_LIMIT;
        let mut played = Position::after(&game, &[], limit).unwrap();
        let mut history: Vec<Vec<Action>> = Vec::new();
        let (mut legal, mut again) = (MoveList::new(), MoveList::new());
        for n in 0.. {
            let mover = played.mover_and_moves(&game, &mut legal).unwrap();
            let mut replayed = Position::after(&game, &history, limit).unwrap();
            assert_eq!(replayed.mover_and_moves(&game, &mut again).unwrap(), mover);
            assert!(legal.iter().eq(again.iter()), "after {n} moves");
            assert_eq!(game.score(&replayed.state, 1), game.score(&played.state, 1));
            if mover.is_none() {
                break;
            }
            // The last move listed: the game goes on as long as it can.
            let mv = legal.get(legal.len() - 1).to_vec();
            played.play(&game, &mv, limit).unwrap();
            history.push(mv);
        }
        assert!(history.len() > 2);
        // One move more than the game has.
        history.push(history[0].clone());
        assert!(matches!(Position::after(&game, &history, limit), Err(ClientError::Game(_))));
    }

    #[test]
    fn game_seeds_differ() {
        assert_ne!(game_seed(1, 0), game_seed(1, 1));
        assert_ne!(game_seed(1, 0), game_seed(2, 0));
    }
}
