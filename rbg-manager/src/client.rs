//! The client: plays one seat of a game manager's games with an agent.

use core::fmt;
use std::io::{self, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::time::{Duration, Instant};

use rbg_agents::{Agent, Budget};
use rbg_core::notation::{format_wire, parse_wire};
use rbg_core::perft::DEFAULT_KEEPER_LIMIT;
use rbg_core::{Game, MoveList, Player, SearchError};

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
        mut self,
        build_game: impl FnOnce(&str) -> Result<G, String>,
        build_agent: impl FnOnce(&G) -> Result<A, String>,
    ) -> Result<ClientReport, ClientError>
    where
        G: Game,
        A: Agent<G>,
    {
        let message = self.recv()?;
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
        let mut agent = build_agent(&game).map_err(ClientError::Agent)?;
        self.conn.send("ready")?;
        let name = game.info().players[player as usize - 1].clone();
        self.note(format_args!("playing {name} (player {player}) with {}", agent.name()));
        let mut report = ClientReport { player, preparation, games: Vec::new(), unfinished_moves: 0 };
        loop {
            let seed = game_seed(self.config.seed, report.games.len() as u64);
            match self.play_game(&game, &mut agent, player, seed)? {
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
        game: &G,
        agent: &mut A,
        me: Player,
        seed: u64,
    ) -> Result<GameEnd, ClientError> {
        agent.reset(seed);
        let mut sc = game.new_scratch();
        let mut state = game.initial_state();
        let mut legal = MoveList::new();
        let mut moves = 0;
        let mut ongoing = game.complete_keeper(&mut state, &mut sc, self.config.keeper_limit)?;
        loop {
            let to_move = if ongoing {
                game.legal_moves(&mut state, &mut sc, &mut legal)?;
                (!legal.is_empty()).then(|| game.current_player(&state))
            } else {
                None
            };
            let message = match self.recv() {
                Ok(m) => m,
                Err(FrameError::Closed) => {
                    if moves > 0 {
                        self.note(format_args!("the server closed the connection after {moves} moves"));
                    }
                    return Ok(GameEnd::Closed { moves });
                }
                Err(e) => return Err(e.into()),
            };
            if message == RESET {
                let scores =
                    (1..=game.info().num_players() as Player).map(|p| game.score(&state, p)).collect();
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
                    let budget = move_budget(agent.budget(), deadline, self.config.safety_margin);
                    let decision = agent
                        .select_move(game, &state, &budget)
                        .map_err(|e| ClientError::Agent(e.to_string()))?;
                    if !legal.iter().any(|m| m == decision.mv.as_slice()) {
                        return Err(ClientError::Agent(format!(
                            "it chose an illegal move {:?}",
                            decision.mv
                        )));
                    }
                    self.conn.send(&format_wire(&decision.mv))?;
                    decision.mv
                }
                Some(_) => {
                    let mv = parse_wire(game.info(), &message).map_err(|_| malformed("a move", &message))?;
                    if !legal.iter().any(|m| m == mv.as_slice()) {
                        return Err(ClientError::IllegalMove { text: message });
                    }
                    mv
                }
                None => return Err(malformed("'reset' (the game is over)", &message)),
            };
            agent.observe(game, &state, &mv).map_err(|e| ClientError::Agent(e.to_string()))?;
            game.apply_move(&mut state, &mv);
            moves += 1;
            ongoing = game.complete_keeper(&mut state, &mut sc, self.config.keeper_limit)?;
        }
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

    #[test]
    fn game_seeds_differ() {
        assert_ne!(game_seed(1, 0), game_seed(1, 1));
        assert_ne!(game_seed(1, 0), game_seed(2, 0));
    }
}
