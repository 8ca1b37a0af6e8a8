//! One browser tab's game: the states after each move of its history (keeper completed), a
//! cursor into that history for undo and redo, and the partial move being built step by step.

use std::sync::Arc;

use rbg_core::dynamic::{AnyGame, DynScratch, DynState};
use rbg_core::notation::{format_move, VertexStyle};
use rbg_core::perft::DEFAULT_KEEPER_LIMIT;
use rbg_core::{Action, Game, KEEPER};
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
    pub game: Arc<AnyGame>,
    /// Where every vertex is drawn (computed once: a node-list board's layout takes a moment).
    layout: Layout,
    scratch: DynScratch,
    /// `states[i]`: after the first `i` moves of `moves`, keeper completed; `alive[i]`: a player
    /// is to move there (the game is not over).
    states: Vec<DynState>,
    alive: Vec<bool>,
    moves: Vec<Vec<Action>>,
    /// The position shown: after `cursor` moves (moves past it can be redone).
    cursor: usize,
    /// The actions chosen so far of the move being made at the cursor.
    partial: Vec<Action>,
    /// Changes whenever the position or the partial move does (agents check it before
    /// applying the move they searched for).
    pub version: u64,
    /// Agents that moved, for the log.
    pub agents: Vec<String>,
    max_history: usize,
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
        let mut scratch = game.new_scratch();
        let mut first = game.initial_state();
        let alive = goes_on(&game, &mut first, &mut scratch)?;
        Ok(Session {
            file,
            layout: Layout::new(game.info()),
            game,
            scratch,
            states: vec![first],
            alive: vec![alive],
            moves: Vec::new(),
            cursor: 0,
            partial: Vec::new(),
            version: 0,
            agents: Vec::new(),
            max_history,
        })
    }

    /// The position shown.
    pub fn state(&self) -> &DynState {
        &self.states[self.cursor]
    }

    /// Whether a player is to move at the position shown.
    pub fn alive(&self) -> bool {
        self.alive[self.cursor]
    }

    fn changed(&mut self) {
        self.version = self.version.wrapping_add(1);
    }

    /// Plays a whole legal move at the cursor (dropping the moves that could be redone).
    pub fn play(&mut self, mv: &[Action]) -> Result<(), Refusal> {
        if !self.alive() {
            return Err(Refusal("the game is over".into()));
        }
        if self.cursor >= self.max_history {
            return Err(Refusal(format!("the history is full ({} moves)", self.max_history)));
        }
        let mut after = self.state().clone();
        self.game.try_apply_move(&mut after, &mut self.scratch, mv)?;
        let alive = goes_on(&self.game, &mut after, &mut self.scratch)?;
        self.states.truncate(self.cursor + 1);
        self.alive.truncate(self.cursor + 1);
        self.moves.truncate(self.cursor);
        self.states.push(after);
        self.alive.push(alive);
        self.moves.push(mv.to_vec());
        self.cursor += 1;
        self.partial.clear();
        self.changed();
        Ok(())
    }

    /// Adds one action to the partial move; when it ends the move, the move is played.
    pub fn step(&mut self, action: Action) -> Result<(), Refusal> {
        if !self.next_actions()?.contains(&action) {
            return Err(Refusal(format!(
                "{}@{} cannot follow the partial move",
                action.index, action.vertex
            )));
        }
        self.partial.push(action);
        if self.game.info().is_switch(action.index) {
            let mv = std::mem::take(&mut self.partial);
            if let Err(e) = self.play(&mv) {
                self.partial = mv;
                self.partial.pop();
                return Err(e);
            }
        } else {
            self.changed();
        }
        Ok(())
    }

    /// Drops the partial move.
    pub fn clear_partial(&mut self) {
        if !self.partial.is_empty() {
            self.partial.clear();
            self.changed();
        }
    }

    /// Steps back one move (a partial move is dropped first).
    pub fn undo(&mut self) -> Result<(), Refusal> {
        if !self.partial.is_empty() {
            self.clear_partial();
            return Ok(());
        }
        if self.cursor == 0 {
            return Err(Refusal("nothing to undo".into()));
        }
        self.cursor -= 1;
        self.changed();
        Ok(())
    }

    /// Steps forward one move of the history.
    pub fn redo(&mut self) -> Result<(), Refusal> {
        if self.cursor >= self.moves.len() {
            return Err(Refusal("nothing to redo".into()));
        }
        self.cursor += 1;
        self.partial.clear();
        self.changed();
        Ok(())
    }

    /// The actions that can follow the partial move at the cursor.
    pub fn next_actions(&mut self) -> Result<Vec<Action>, Refusal> {
        if !self.alive() {
            return Ok(Vec::new());
        }
        let mut state = self.state().clone();
        let mut out = Vec::new();
        self.game.next_actions(&mut state, &mut self.scratch, &self.partial, &mut out)?;
        Ok(out)
    }

    /// The moves played up to the cursor, in notation.
    pub fn played(&self) -> Vec<String> {
        let info = self.game.info();
        self.moves[..self.cursor].iter().map(|m| format_move(info, m, VertexStyle::Name)).collect()
    }

    /// The player to move's number at the cursor, if the game goes on.
    pub fn mover(&self) -> Option<u32> {
        let player = self.game.current_player(self.state());
        (self.alive() && player != KEEPER).then_some(player)
    }

    pub fn view(&mut self, id: u64) -> Result<View, Refusal> {
        let next = self.next_actions()?;
        let game = Arc::clone(&self.game);
        let info = game.info();
        let state = self.state();
        let action_view =
            |a: &Action| ActionView { index: a.index, vertex: a.vertex, ends_move: info.is_switch(a.index) };
        let last_move = match self.cursor.checked_sub(1).and_then(|i| self.moves.get(i)) {
            Some(m) => {
                let mut vertices: Vec<u32> = m.iter().map(|a| a.vertex).collect();
                vertices.dedup();
                vertices
            }
            None => Vec::new(),
        };
        let previous = self.cursor.checked_sub(1).map(|i| &self.states[i]);
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
            history: self.moves.iter().map(|m| format_move(info, m, VertexStyle::Name)).collect(),
            cursor: self.cursor,
            partial: self.partial.iter().map(action_view).collect(),
            next: next.iter().map(action_view).collect(),
            last_move,
            version: self.version,
        })
    }
}

/// Completes the keeper's moves; whether a player is then to move and has a legal move (an
/// RBG game ends when the keeper is stuck or the player to move has no move).
fn goes_on(game: &AnyGame, s: &mut DynState, sc: &mut DynScratch) -> Result<bool, Refusal> {
    Ok(game.complete_keeper(s, sc, DEFAULT_KEEPER_LIMIT)? && game.has_legal_move(s, sc)?)
}
