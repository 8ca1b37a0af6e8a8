//! Checked play of one game: a [`Session`] starts at the initial position (the keeper's moves
//! completed), plays whole moves or builds one action by action, and keeps the positions of
//! its history for undo and redo.
//!
//! Every move is checked ([`rbg_core::moves::apply_if_legal`]) and every call either does what
//! it says or refuses with a [`SessionError`] and changes nothing, so a session driven by
//! untrusted input (a browser tab, a terminal, a Python caller) stays consistent. The history
//! is bounded ([`SessionOptions::max_history`]): a loop of requests cannot grow it for ever.
//!
//! The session is generic over the game and over the handle that holds it (`&G`, `Arc<G>`,
//! `Box<G>` ...), so it serves `AnyGame` and concrete engines alike. It knows no JSON: the log
//! ([`Session::log`]) is a plain [`GameLog`] that the outer crates serialise.

use std::fmt;
use std::ops::Deref;
use std::sync::Arc;

use rbg_agents::matches::outcomes;
use rbg_agents::Outcome;
use rbg_core::moves::{apply_if_legal, CheckedMoveError, IllegalMove};
use rbg_core::notation::{format_move, VertexStyle};
use rbg_core::perft::DEFAULT_KEEPER_LIMIT;
use rbg_core::{Action, Game, Player, SearchError, KEEPER};

/// Bounds of a session.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SessionOptions {
    /// The most moves the history holds; a move beyond it is refused.
    pub max_history: usize,
    /// The most keeper moves made in a row after a move.
    pub keeper_limit: u64,
}

impl Default for SessionOptions {
    fn default() -> Self {
        SessionOptions { max_history: 10_000, keeper_limit: DEFAULT_KEEPER_LIMIT }
    }
}

/// Why a session refused a call (nothing changed).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SessionError {
    /// No player is to move at the position shown.
    GameOver,
    /// The history holds [`SessionOptions::max_history`] moves.
    HistoryFull { max: usize },
    /// The move is not legal at the position shown.
    Illegal(IllegalMove),
    /// The action cannot follow the partial move.
    NotNext(Action),
    /// The position shown is the first one.
    NothingToUndo,
    /// No undone move follows the position shown.
    NothingToRedo,
    /// A search of the game stopped at a bound.
    Search(SearchError),
}

impl From<SearchError> for SessionError {
    fn from(e: SearchError) -> Self {
        SessionError::Search(e)
    }
}

impl From<CheckedMoveError> for SessionError {
    fn from(e: CheckedMoveError) -> Self {
        match e {
            CheckedMoveError::Illegal(e) => SessionError::Illegal(e),
            CheckedMoveError::Search(e) => SessionError::Search(e),
        }
    }
}

impl fmt::Display for SessionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SessionError::GameOver => write!(f, "the game is over"),
            SessionError::HistoryFull { max } => write!(f, "the history is full ({max} moves)"),
            SessionError::Illegal(e) => e.fmt(f),
            SessionError::NotNext(a) => write!(f, "{}@{} cannot follow the partial move", a.index, a.vertex),
            SessionError::NothingToUndo => write!(f, "nothing to undo"),
            SessionError::NothingToRedo => write!(f, "nothing to redo"),
            SessionError::Search(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for SessionError {}

/// Why [`Session::replay_on`] failed: the move after the first `replayed` ones was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayError {
    pub replayed: usize,
    pub error: SessionError,
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "replaying move {} on the other engine: {}", self.replayed + 1, self.error)
    }
}

impl std::error::Error for ReplayError {}

/// Where the game stands at the position shown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameStatus {
    /// No player is to move: the game has ended.
    pub terminal: bool,
    /// Every player's score (player 1 first).
    pub scores: Vec<i64>,
    /// Win, draw or loss per player, when the game has ended (the best score wins; several
    /// best scores draw).
    pub outcomes: Option<Vec<Outcome>>,
}

/// Moves written as `index@vertex` pairs of the RBG rules' action indices (the interpreter's,
/// the compiled engine's and the reference tools').
pub const RBG_NOTATION: &str = "rbg";
/// Moves written as `1@from 2@to` pairs of the direct Simplified Boardgames reasoner.
pub const SBG_NOTATION: &str = "sbg";

/// One game as one record of the log that `rbg play --log` writes (one JSON object a line),
/// `rbg replay` reads, `rbg serve` exports and [`Session::log`] makes: the one record of a
/// played game. With the `serde` feature it is (de)serialised; fields that older logs lack
/// read as empty or `None`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct GameLog {
    /// The game's name.
    #[cfg_attr(feature = "serde", serde(default))]
    pub game: String,
    /// The game file, as given.
    #[cfg_attr(feature = "serde", serde(default))]
    pub file: Option<String>,
    /// The game's number in its run (from 0).
    pub index: u64,
    /// The seed of the game's agents.
    #[cfg_attr(feature = "serde", serde(default))]
    pub seed: u64,
    /// The agents, in the order of the players.
    #[cfg_attr(feature = "serde", serde(default))]
    pub agents: Vec<String>,
    /// The players' names.
    #[cfg_attr(feature = "serde", serde(default))]
    pub players: Vec<String>,
    /// The moves played, in pair notation with vertex names (see `notation`).
    pub moves: Vec<String>,
    /// Every player's score at the end (player 1 first).
    #[cfg_attr(feature = "serde", serde(default))]
    pub scores: Option<Vec<i64>>,
    /// `finished`, `unfinished`, `move-limit`, `error`, `abandoned` ...
    #[cfg_attr(feature = "serde", serde(default))]
    pub termination: Option<String>,
    /// `win`, `draw` or `loss` per player for a finished game.
    #[cfg_attr(feature = "serde", serde(default))]
    pub result: Option<Vec<String>>,
    /// Why the game stopped, when it stopped on an error.
    #[cfg_attr(feature = "serde", serde(default))]
    pub error: Option<String>,
    /// The engine that played (`interp`, `compiled`, `sbg`); absent in older logs.
    #[cfg_attr(feature = "serde", serde(default))]
    pub engine: Option<String>,
    /// How `moves` are written: [`RBG_NOTATION`] or [`SBG_NOTATION`]; absent in older logs
    /// (which are RBG).
    #[cfg_attr(feature = "serde", serde(default))]
    pub notation: Option<String>,
}

/// One game in play (see the module documentation). `H` holds the game: `&G`, `Arc<G>` ...
pub struct Session<G: Game, H: Deref<Target = G> = Arc<G>> {
    game: H,
    scratch: G::Scratch,
    /// `states[i]`: after the first `i` moves of `moves`, keeper completed; `alive[i]`: a
    /// player is to move there and has a move.
    states: Vec<G::State>,
    alive: Vec<bool>,
    moves: Vec<Vec<Action>>,
    /// The position shown: after `cursor` moves (the moves past it can be redone).
    cursor: usize,
    /// The actions chosen so far of the move being built at the cursor.
    partial: Vec<Action>,
    options: SessionOptions,
}

impl<G: Game, H: Deref<Target = G>> Session<G, H> {
    /// A session at the game's initial position (the keeper's moves made).
    pub fn new(game: H, options: SessionOptions) -> Result<Self, SearchError> {
        let mut scratch = game.new_scratch();
        let mut first = game.initial_state();
        let alive = goes_on(&*game, &mut first, &mut scratch, options.keeper_limit)?;
        Ok(Session {
            game,
            scratch,
            states: vec![first],
            alive: vec![alive],
            moves: Vec::new(),
            cursor: 0,
            partial: Vec::new(),
            options,
        })
    }

    /// The game.
    pub fn game(&self) -> &G {
        &self.game
    }

    /// The handle the session was made with.
    pub fn handle(&self) -> &H {
        &self.game
    }

    /// The bounds the session was made with.
    pub fn options(&self) -> &SessionOptions {
        &self.options
    }

    /// The position shown (keeper completed).
    pub fn state(&self) -> &G::State {
        &self.states[self.cursor]
    }

    /// The position before the last move played, if any.
    pub fn previous(&self) -> Option<&G::State> {
        self.cursor.checked_sub(1).map(|i| &self.states[i])
    }

    /// Whether a player is to move (and has a move) at the position shown.
    pub fn ongoing(&self) -> bool {
        self.alive[self.cursor]
    }

    /// The player to move at the position shown, if the game goes on.
    pub fn to_move(&self) -> Option<Player> {
        let player = self.game.current_player(self.state());
        (self.ongoing() && player != KEEPER).then_some(player)
    }

    /// The moves played up to the position shown.
    pub fn history(&self) -> &[Vec<Action>] {
        &self.moves[..self.cursor]
    }

    /// The positions up to the one shown: `positions()[i]` is after the first `i` moves.
    pub fn positions(&self) -> &[G::State] {
        &self.states[..=self.cursor]
    }

    /// The undone moves that [`Session::redo`] replays, in order.
    pub fn redoable(&self) -> &[Vec<Action>] {
        &self.moves[self.cursor..]
    }

    /// The actions chosen so far of the move being built.
    pub fn partial(&self) -> &[Action] {
        &self.partial
    }

    /// Plays a whole move at the position shown, if it is legal there; the undone moves are
    /// dropped and the partial move is cleared.
    pub fn play(&mut self, mv: &[Action]) -> Result<(), SessionError> {
        if !self.ongoing() {
            return Err(SessionError::GameOver);
        }
        if self.cursor >= self.options.max_history {
            return Err(SessionError::HistoryFull { max: self.options.max_history });
        }
        let mut after = self.state().clone();
        apply_if_legal(&*self.game, &mut after, &mut self.scratch, mv)?;
        let alive = goes_on(&*self.game, &mut after, &mut self.scratch, self.options.keeper_limit)?;
        self.states.truncate(self.cursor + 1);
        self.alive.truncate(self.cursor + 1);
        self.moves.truncate(self.cursor);
        self.states.push(after);
        self.alive.push(alive);
        self.moves.push(mv.to_vec());
        self.cursor += 1;
        self.partial.clear();
        Ok(())
    }

    /// Adds one action to the partial move ([`Game::next_actions`] must offer it); an action
    /// that ends the move (a switch) plays the move.
    pub fn step(&mut self, action: Action) -> Result<(), SessionError> {
        if !self.next_actions()?.contains(&action) {
            return Err(SessionError::NotNext(action));
        }
        self.partial.push(action);
        if self.game.info().is_switch(action.index) {
            let mv = std::mem::take(&mut self.partial);
            if let Err(e) = self.play(&mv) {
                self.partial = mv;
                self.partial.pop();
                return Err(e);
            }
        }
        Ok(())
    }

    /// Drops the partial move; whether there was one.
    pub fn clear_partial(&mut self) -> bool {
        let had = !self.partial.is_empty();
        self.partial.clear();
        had
    }

    /// The actions that can follow the partial move (none when the game is over).
    pub fn next_actions(&mut self) -> Result<Vec<Action>, SessionError> {
        let mut out = Vec::new();
        if self.ongoing() {
            let mut state = self.state().clone();
            self.game.next_actions(&mut state, &mut self.scratch, &self.partial, &mut out)?;
        }
        Ok(out)
    }

    /// Steps back one move (a partial move is dropped first, and counts as the step).
    pub fn undo(&mut self) -> Result<(), SessionError> {
        if self.clear_partial() {
            return Ok(());
        }
        if self.cursor == 0 {
            return Err(SessionError::NothingToUndo);
        }
        self.cursor -= 1;
        Ok(())
    }

    /// Steps forward one undone move.
    pub fn redo(&mut self) -> Result<(), SessionError> {
        if self.cursor >= self.moves.len() {
            return Err(SessionError::NothingToRedo);
        }
        self.cursor += 1;
        self.partial.clear();
        Ok(())
    }

    /// This session on another engine of the same rules (`game`): a new session from the
    /// initial position with every move of the history replayed, each checked (moves that can
    /// be redone too; the partial move is dropped), at the same cursor. The moves are the same
    /// actions on every engine of a game (the rules' action indices), so the states are the
    /// same; a move the other engine refuses is an error naming it.
    pub fn replay_on<G2: Game, H2: Deref<Target = G2>>(
        &self,
        game: H2,
    ) -> Result<Session<G2, H2>, ReplayError> {
        let mut other = Session::new(game, self.options.clone())
            .map_err(|e| ReplayError { replayed: 0, error: e.into() })?;
        for (n, mv) in self.moves.iter().enumerate() {
            other.play(mv).map_err(|error| ReplayError { replayed: n, error })?;
        }
        other.cursor = self.cursor;
        Ok(other)
    }

    /// Where the game stands at the position shown.
    pub fn result(&self) -> GameStatus {
        let players = self.game.info().num_players() as Player;
        let scores: Vec<i64> = (1..=players).map(|p| self.game.score(self.state(), p)).collect();
        let terminal = !self.ongoing();
        GameStatus { terminal, outcomes: terminal.then(|| outcomes(&scores)), scores }
    }

    /// The game up to the position shown as a log record; `file`, `agents`, `index` and
    /// `seed` are the caller's (a session knows none of them).
    pub fn log(&self, file: Option<String>, agents: Vec<String>, index: u64, seed: u64) -> GameLog {
        let info = self.game.info();
        let status = self.result();
        GameLog {
            game: info.name.clone(),
            file,
            index,
            seed,
            agents,
            players: info.players.clone(),
            moves: self.history().iter().map(|m| format_move(info, m, VertexStyle::Name)).collect(),
            scores: Some(status.scores),
            termination: Some(if status.terminal { "finished" } else { "unfinished" }.to_string()),
            result: status.outcomes.map(|o| o.into_iter().map(|o| o.name().to_string()).collect()),
            ..GameLog::default()
        }
    }
}

/// Completes the keeper's moves; whether a player is then to move and has a legal move (an
/// RBG game ends when the keeper is stuck or the player to move has no move).
pub fn goes_on<G: Game>(
    game: &G,
    s: &mut G::State,
    sc: &mut G::Scratch,
    limit: u64,
) -> Result<bool, SearchError> {
    Ok(game.complete_keeper(s, sc, limit)? && game.has_legal_move(s, sc)?)
}
