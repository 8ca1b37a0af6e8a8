//! One browser tab's game: an [`rbg::session::Session`] (checked play, the history with undo
//! and redo, the partial move built step by step) with what the page needs besides: the game
//! file, the board's layout, a version number that changes with every change, and the agents
//! that moved (for the log).

use std::sync::Arc;

use rbg::session::{GameLog, Session as Play, SessionError, SessionOptions};
use rbg_core::dynamic::AnyGame;
use rbg_core::notation::{format_move, VertexStyle};
use rbg_core::{Action, Game};
use rbg_render::{render_svg_with_layout, Layout, RenderOptions};
use serde::Serialize;

/// A request the session refuses (answered with a 4xx status; nothing changes).
#[derive(Debug)]
pub struct Refusal(pub String);

impl<E: std::fmt::Display> From<E> for Refusal {
    fn from(e: E) -> Self {
        Refusal(e.to_string())
    }
}

pub struct Session {
    /// The game file, as listed.
    pub file: String,
    /// Where every vertex is drawn (computed once: a node-list board's layout takes a moment).
    layout: Layout,
    play: Play<AnyGame>,
    /// Changes whenever the position or the partial move does (agents check it before
    /// applying the move they searched for).
    pub version: u64,
    /// Agents that moved, for the log.
    pub agents: Vec<String>,
}

/// What the page shows of a session.
#[derive(Serialize)]
pub struct View {
    pub id: u64,
    pub game: String,
    pub name: String,
    pub players: Vec<String>,
    pub pieces: Vec<String>,
    /// Vertex names; vertex `v` is drawn as the element `cell-v` of `svg`.
    pub vertices: Vec<String>,
    /// The picture of the position (rbg-render).
    pub svg: String,
    /// The piece id on every vertex.
    pub board: Vec<u32>,
    /// The player to move (its name), or none when the game is over.
    pub to_move: Option<String>,
    pub over: bool,
    pub scores: Vec<i64>,
    /// Every move of the history in notation; the first `cursor` are played.
    pub history: Vec<String>,
    pub cursor: usize,
    pub partial: Vec<ActionView>,
    /// The actions that can follow the partial move (each can be completed).
    pub next: Vec<ActionView>,
    /// The vertices the last move played touched.
    pub last_move: Vec<u32>,
    pub version: u64,
}

#[derive(Serialize, Clone, Copy)]
pub struct ActionView {
    pub index: u32,
    pub vertex: u32,
    /// The action ends the move (a switch).
    pub ends_move: bool,
}

impl Session {
    /// A new game at its initial position.
    pub fn new(file: String, game: Arc<AnyGame>, max_history: usize) -> Result<Session, Refusal> {
        let layout = Layout::new(game.info());
        let options = SessionOptions { max_history, ..SessionOptions::default() };
        Ok(Session { file, layout, play: Play::new(game, options)?, version: 0, agents: Vec::new() })
    }

    /// The game.
    pub fn game(&self) -> &Arc<AnyGame> {
        self.play.handle()
    }

    /// The position shown.
    pub fn state(&self) -> &rbg_core::dynamic::DynState {
        self.play.state()
    }

    /// Whether a player is to move at the position shown.
    pub fn alive(&self) -> bool {
        self.play.ongoing()
    }

    /// Counts a change when `result` is one (a refusal changes nothing).
    fn changed<T>(&mut self, result: Result<T, SessionError>) -> Result<T, Refusal> {
        let value = result?;
        self.version = self.version.wrapping_add(1);
        Ok(value)
    }

    /// Plays a whole legal move at the cursor (dropping the moves that could be redone).
    pub fn play(&mut self, mv: &[Action]) -> Result<(), Refusal> {
        let result = self.play.play(mv);
        self.changed(result)
    }

    /// Adds one action to the partial move; when it ends the move, the move is played.
    pub fn step(&mut self, action: Action) -> Result<(), Refusal> {
        let result = self.play.step(action);
        self.changed(result)
    }

    /// Drops the partial move.
    pub fn clear_partial(&mut self) {
        if self.play.clear_partial() {
            self.version = self.version.wrapping_add(1);
        }
    }

    /// Steps back one move (a partial move is dropped first).
    pub fn undo(&mut self) -> Result<(), Refusal> {
        let result = self.play.undo();
        self.changed(result)
    }

    /// Steps forward one move of the history.
    pub fn redo(&mut self) -> Result<(), Refusal> {
        let result = self.play.redo();
        self.changed(result)
    }

    /// The actions that can follow the partial move at the cursor.
    pub fn next_actions(&mut self) -> Result<Vec<Action>, Refusal> {
        Ok(self.play.next_actions()?)
    }

    /// The player to move's number at the cursor, if the game goes on.
    pub fn mover(&self) -> Option<u32> {
        self.play.to_move()
    }

    /// The game so far as a record of the `rbg play --log` format.
    pub fn log(&self) -> GameLog {
        self.play.log(Some(self.file.clone()), self.agents.clone(), 0, 0)
    }

    pub fn view(&mut self, id: u64) -> Result<View, Refusal> {
        let next = self.next_actions()?;
        let game = Arc::clone(self.game());
        let info = game.info();
        let state = self.state();
        let cursor = self.play.history().len();
        let action_view =
            |a: &Action| ActionView { index: a.index, vertex: a.vertex, ends_move: info.is_switch(a.index) };
        let last_move = match self.play.history().last() {
            Some(m) => {
                let mut vertices: Vec<u32> = m.iter().map(|a| a.vertex).collect();
                vertices.dedup();
                vertices
            }
            None => Vec::new(),
        };
        let previous = self.play.previous();
        let svg =
            render_svg_with_layout(game.as_ref(), &self.layout, state, previous, &RenderOptions::default());
        Ok(View {
            id,
            game: self.file.clone(),
            name: info.name.clone(),
            players: info.players.clone(),
            pieces: info.pieces.clone(),
            vertices: info.vertices.clone(),
            svg,
            board: (0..info.vertices.len() as u32).map(|v| game.piece(state, v)).collect(),
            to_move: self.mover().and_then(|p| info.players.get(p as usize - 1).cloned()),
            over: !self.alive(),
            scores: (1..=info.num_players() as u32).map(|p| game.score(state, p)).collect(),
            history: self
                .play
                .history()
                .iter()
                .chain(self.play.redoable())
                .map(|m| format_move(info, m, VertexStyle::Name))
                .collect(),
            cursor,
            partial: self.play.partial().iter().map(action_view).collect(),
            next: next.iter().map(action_view).collect(),
            last_move,
            version: self.version,
        })
    }
}
