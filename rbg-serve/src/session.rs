//! One browser tab's game: an [`rbg::session::Session`] (checked play, the history with undo
//! and redo, the partial move built step by step) with what the page needs besides: the game
//! file, the board's layout, a version number that changes with every change, the agents that
//! moved (for the log), the agent search running for it (the board is locked meanwhile), and
//! every move in human notation ([`rbg_core::notation::sketch_move`]).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use rbg::session::{goes_on, GameLog, Session as Play, SessionError, SessionOptions};
use rbg_core::dynamic::{AnyGame, DynScratch, DynState};
use rbg_core::moves::DEFAULT_MAX_ACTIONS;
use rbg_core::notation::{
    describe_move, format_move, sketch_move, vertex_choices, with_choice, MovePart, MoveSketch,
    NotationNames, VertexStyle,
};
use rbg_core::perft::DEFAULT_KEEPER_LIMIT;
use rbg_core::state_codec::{self, StateParts};
use rbg_core::stoppable::Stoppable;
use rbg_core::{Action, Game, MoveList};
use rbg_render::pieces::{ChessKind, Look};
use rbg_render::pitch::Pitch;
use rbg_render::{game_piece_looks, render_svg_with_layout, Layout, LayoutHint, RenderOptions, TextBoard};
use serde::Serialize;

/// Most legal moves a view lists with their notation; a position with more is played step
/// by step from `next` alone.
pub const MAX_LISTED_MOVES: usize = 5000;

/// A request the session refuses (answered with a 4xx status; nothing changes): the reason,
/// and whether the refusal is only for now (the board is locked while an agent thinks: 409).
#[derive(Debug)]
pub struct Refusal(pub String, pub bool);

impl<E: std::fmt::Display> From<E> for Refusal {
    fn from(e: E) -> Self {
        Refusal(e.to_string(), false)
    }
}

/// A refusal for a reason given.
pub fn refuse(reason: impl Into<String>) -> Refusal {
    Refusal(reason.into(), false)
}

/// Why an agent's answer did not land.
pub enum Finish {
    /// The search was stopped (or another took its place): its move is dropped.
    Stopped,
    /// The search failed, or its move was refused.
    Failed(Refusal),
}

/// A move of the history with its human notation and its place in the list of legal moves of
/// the position it was played in (the page's links name moves by that number).
struct Record {
    actions: Vec<Action>,
    text: String,
    /// `None` when the position has too many moves to list.
    ordinal: Option<u32>,
    /// The player who made the move (the page numbers full moves by it).
    mover: u32,
}

pub struct Session {
    /// The game file, as listed.
    pub file: String,
    /// Where every vertex is drawn (computed once: a node-list board's layout takes a moment).
    layout: Layout,
    /// The board's pitch, for a game of lines between points (paper soccer): its moves are
    /// clicked at the points the ball goes to, not on the squares of the lines.
    pitch: Option<Pitch>,
    play: Play<AnyGame>,
    scratch: DynScratch,
    /// Which pieces stand for an empty cell, and the names notation uses.
    empty: Vec<bool>,
    /// Which pieces are drawn as kings (royal pieces, [`Session::check`]).
    kings: Vec<bool>,
    names: NotationNames,
    looks: Vec<LookView>,
    /// The notation of every move of the history and of those that can be redone, in order.
    records: Vec<Record>,
    /// Changes whenever the position or the partial move does (agents check it before
    /// applying the move they searched for).
    pub version: u64,
    /// Agents that moved, for the log.
    pub agents: Vec<String>,
    /// The agent search running for this session, by its number: while it runs, the board
    /// is locked (every change is refused) and only its own answer may land.
    pub thinking: Option<u64>,
    next_think: u64,
    /// The stop flag of the running search's game ([`rbg_core::stoppable::Stoppable`]):
    /// raised by [`Session::stop_thinking`], so the search ends at its next look at the game.
    think_flag: Option<Arc<AtomicBool>>,
    /// The compiled engine built for this session in the background, if one was asked for.
    pub build: Option<BuildState>,
}

/// How the compiled engine of a session comes along (`rbg serve` builds one for every session
/// unless told `--engine interpreter`; the editor's drafts when asked).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BuildState {
    Building {
        since: Instant,
    },
    /// Built; the session plays with it.
    Ready,
    Failed(String),
}

/// Most characters of a failed build's message in a view (cargo's output can be long).
const MAX_BUILD_MESSAGE_CHARS: usize = 4000;

/// The engine of a session as the page's badge shows it: `interpreter` or `compiled`, and the
/// background build's state (`none`, `building` with its seconds, `ready`, `failed` with why).
#[derive(Serialize)]
pub struct EngineView {
    pub engine: &'static str,
    pub build: &'static str,
    pub seconds: u64,
    pub message: Option<String>,
}

impl EngineView {
    pub fn of(build: Option<&BuildState>) -> EngineView {
        let (engine, state, seconds, message) = match build {
            None => ("interpreter", "none", 0, None),
            Some(BuildState::Building { since }) => {
                ("interpreter", "building", since.elapsed().as_secs(), None)
            }
            Some(BuildState::Ready) => ("compiled", "ready", 0, None),
            Some(BuildState::Failed(m)) => {
                ("interpreter", "failed", 0, Some(m.chars().take(MAX_BUILD_MESSAGE_CHARS).collect()))
            }
        };
        EngineView { engine, build: state, seconds, message }
    }
}

/// How the page draws a piece in a list (a promotion's choices): rbg-render's look.
#[derive(Serialize, Clone)]
pub struct LookView {
    /// `hidden`, `glyph` or `disc`.
    pub kind: &'static str,
    /// The chess symbol (glyph) or the disc's label.
    pub text: String,
    /// The disc's colours.
    pub fill: String,
    pub ink: String,
}

/// A legal move as the page offers it.
#[derive(Serialize)]
pub struct MoveView {
    /// Pair notation (what `move` takes).
    pub actions: String,
    /// Human notation.
    pub text: String,
    /// The vertices to click, in order (empty: the move is offered as a button).
    pub path: Vec<u32>,
    /// The vertices whose pieces the move takes.
    pub taken: Vec<u32>,
    /// The piece standing on the path's last vertex after the move (a promotion's choice).
    pub piece: Option<u32>,
}

/// What the page shows of a session.
#[derive(Serialize)]
pub struct View {
    pub id: u64,
    pub game: String,
    pub name: String,
    pub players: Vec<String>,
    pub pieces: Vec<String>,
    /// How each piece is drawn (by piece id).
    pub looks: Vec<LookView>,
    /// Vertex names; vertex `v` is drawn as the element `cell-v` of `svg`.
    pub vertices: Vec<String>,
    /// The names players read (chess-style `e2` on rectangle boards, else the vertex name).
    pub labels: Vec<String>,
    /// The picture of the position (rbg-render).
    pub svg: String,
    /// The piece id on every vertex.
    pub board: Vec<u32>,
    /// The player to move (its name), or none when the game is over.
    pub to_move: Option<String>,
    pub over: bool,
    pub scores: Vec<i64>,
    /// `win`, `draw` or `loss` per player when the game is over.
    pub result: Option<Vec<&'static str>>,
    /// Every move of the history in pair notation; the first `cursor` are played.
    pub history: Vec<String>,
    /// The same moves in human notation.
    pub notation: Vec<String>,
    /// Each move's number in the list of legal moves of its position (the page's links);
    /// `None` where the position has too many moves to list.
    pub ordinals: Vec<Option<u32>>,
    /// The player (1-based) who made each move; 0 where not known.
    pub movers: Vec<u32>,
    pub cursor: usize,
    pub partial: Vec<ActionView>,
    /// The actions that can follow the partial move (each can be completed).
    pub next: Vec<ActionView>,
    /// The legal moves at the position shown (none past [`MAX_LISTED_MOVES`]).
    pub moves: Option<Vec<MoveView>>,
    /// Vertices whose pieces the player to move can take with one move.
    pub threats: Vec<u32>,
    /// Check: the vertices of the player to move's royal pieces that the opponent could take
    /// if it were to move now ([`Session::check`]).
    pub check: Vec<u32>,
    /// The vertices the last move played touched.
    pub last_move: Vec<u32>,
    /// An agent is searching for this session (the board is locked).
    pub thinking: bool,
    pub version: u64,
    /// The engine playing and how its compiled build comes along (the page's badge).
    pub engine: EngineView,
}

#[derive(Serialize, Clone, Copy)]
pub struct ActionView {
    pub index: u32,
    pub vertex: u32,
    /// The action ends the move (a switch).
    pub ends_move: bool,
}

/// The letter of a piece in notation: chess letters (none for pawns), disc labels, nothing for
/// the most numerous piece of its colour at the start (men, pawns, stones).
fn letters(looks: &[Look], counts: &[usize]) -> Vec<String> {
    let commonest = |i: usize, fill: &str| {
        counts[i] > 0
            && looks.iter().enumerate().all(|(j, l)| match l {
                Look::Disc { fill: f, .. } if f == fill && j != i => counts[j] < counts[i],
                _ => true,
            })
    };
    looks
        .iter()
        .enumerate()
        .map(|(i, look)| match look {
            Look::Glyph { kind: ChessKind::Pawn, .. } | Look::Hidden => String::new(),
            Look::Glyph { kind, .. } => match kind {
                ChessKind::King => "K",
                ChessKind::Queen => "Q",
                ChessKind::Rook => "R",
                ChessKind::Bishop => "B",
                ChessKind::Knight => "N",
                ChessKind::Pawn => "",
            }
            .to_string(),
            Look::Disc { fill, .. } if commonest(i, fill) => String::new(),
            Look::Disc { label, .. } => label.clone(),
        })
        .collect()
}

fn look_view(look: &Look) -> LookView {
    match look {
        Look::Hidden => {
            LookView { kind: "hidden", text: String::new(), fill: String::new(), ink: String::new() }
        }
        Look::Glyph { kind, white } => LookView {
            kind: "glyph",
            text: kind.glyph(*white).to_string(),
            fill: String::new(),
            ink: String::new(),
        },
        Look::Disc { fill, ink, label } => {
            LookView { kind: "disc", text: label.clone(), fill: fill.clone(), ink: ink.clone() }
        }
    }
}

/// The position `now` as it would be on the turn of the player to move at `before`: `now`'s
/// pieces and variables with `before`'s rules position, player and current vertex. `None` if
/// the engine refuses that combination.
fn turn_of(game: &AnyGame, now: &DynState, before: &DynState) -> Option<DynState> {
    let turn = game.state_parts(before);
    let parts = StateParts {
        vertex: turn.vertex,
        player: turn.player,
        rules_state: turn.rules_state,
        ..game.state_parts(now)
    };
    let mut bytes = Vec::new();
    state_codec::encode(game.info(), game.rules_fingerprint(), &parts, &mut bytes);
    game.decode_state(&bytes).ok()
}

impl Session {
    /// A new game at its initial position, its board laid out with the game file's hints.
    pub fn new(
        file: String,
        game: Arc<AnyGame>,
        hint: &LayoutHint,
        max_history: usize,
    ) -> Result<Session, Refusal> {
        let options = SessionOptions { max_history, ..SessionOptions::default() };
        let play = Play::new(game, options)?;
        Ok(Session::of_play(file, play, hint))
    }

    /// This session's game on another engine of the same rules (the compiled one built in the
    /// background): its history replayed ([`Play::replay_on`]: moves that can be redone too,
    /// a move half made dropped) and the notation written anew; the version moves on, so an
    /// agent's answer for the old engine is dropped.
    pub fn switched(&self, game: Arc<AnyGame>, hint: &LayoutHint) -> Result<Session, Refusal> {
        let play = self.play.replay_on(game)?;
        let mut new = Session::of_play(self.file.clone(), play, hint);
        new.sync_records();
        new.version = self.version.wrapping_add(1);
        new.agents = self.agents.clone();
        new.build = self.build.clone();
        Ok(new)
    }

    fn of_play(file: String, play: Play<AnyGame>, hint: &LayoutHint) -> Session {
        let game = Arc::clone(play.handle());
        let layout = Layout::with_hint(game.info(), hint);
        let pitch = Pitch::of_game(game.as_ref(), &layout);
        let info = game.info();
        let looks = game_piece_looks(game.as_ref());
        let mut counts = vec![0usize; info.pieces.len()];
        for v in 0..info.vertices.len() as u32 {
            if let Some(c) = counts.get_mut(game.piece(play.state(), v) as usize) {
                *c += 1;
            }
        }
        let text_board = TextBoard::new(game.as_ref());
        let names = NotationNames {
            vertices: (0..info.vertices.len() as u32).map(|v| text_board.vertex_label(info, v)).collect(),
            letters: letters(&looks, &counts),
        };
        Session {
            file,
            layout,
            pitch,
            scratch: game.new_scratch(),
            play,
            empty: looks.iter().map(|l| *l == Look::Hidden).collect(),
            kings: looks.iter().map(|l| matches!(l, Look::Glyph { kind: ChessKind::King, .. })).collect(),
            names,
            looks: looks.iter().map(look_view).collect(),
            records: Vec::new(),
            version: 0,
            agents: Vec::new(),
            thinking: None,
            next_think: 0,
            think_flag: None,
            build: None,
        }
    }

    /// The game.
    pub fn game(&self) -> &Arc<AnyGame> {
        self.play.handle()
    }

    /// The position shown.
    pub fn state(&self) -> &DynState {
        self.play.state()
    }

    /// Whether a player is to move at the position shown.
    pub fn alive(&self) -> bool {
        self.play.ongoing()
    }

    /// Refuses a change while an agent searches for this session.
    fn unlocked(&self) -> Result<(), Refusal> {
        match self.thinking {
            Some(_) => Err(Refusal("the agent is thinking: stop it first".into(), true)),
            None => Ok(()),
        }
    }

    /// Counts a change when `result` is one (a refusal changes nothing).
    fn changed<T>(&mut self, result: Result<T, SessionError>) -> Result<T, Refusal> {
        let value = result?;
        self.version = self.version.wrapping_add(1);
        self.sync_records();
        Ok(value)
    }

    /// Plays a whole legal move at the cursor (dropping the moves that could be redone).
    pub fn play(&mut self, mv: &[Action]) -> Result<(), Refusal> {
        self.unlocked()?;
        let result = self.play.play(mv);
        self.changed(result)
    }

    /// Adds one action to the partial move; when it ends the move, the move is played.
    pub fn step(&mut self, action: Action) -> Result<(), Refusal> {
        self.unlocked()?;
        let result = self.play.step(action);
        self.changed(result)
    }

    /// Drops the partial move.
    pub fn clear_partial(&mut self) -> Result<(), Refusal> {
        self.unlocked()?;
        if self.play.clear_partial() {
            self.version = self.version.wrapping_add(1);
        }
        Ok(())
    }

    /// Steps back one move (a partial move is dropped first).
    pub fn undo(&mut self) -> Result<(), Refusal> {
        self.unlocked()?;
        let result = self.play.undo();
        self.changed(result)
    }

    /// Steps forward one move of the history.
    pub fn redo(&mut self) -> Result<(), Refusal> {
        self.unlocked()?;
        let result = self.play.redo();
        self.changed(result)
    }

    /// Marks an agent search as running (the board locks): its number, which the search's
    /// answer must show to land ([`Session::finish_thinking`]), and the game to search on,
    /// which [`Session::stop_thinking`] stops.
    pub fn start_thinking(&mut self) -> Result<(u64, Stoppable), Refusal> {
        self.unlocked()?;
        if self.mover().is_none() {
            return Err(refuse("the game is over"));
        }
        self.next_think = self.next_think.wrapping_add(1);
        self.thinking = Some(self.next_think);
        self.version = self.version.wrapping_add(1);
        let game = Stoppable::new(self.game());
        self.think_flag = Some(game.flag());
        Ok((self.next_think, game))
    }

    /// Stops the agent's search: its game's searches fail from now on, so the search thread
    /// ends within one playout or node, and its answer is dropped. Whether one was running.
    pub fn stop_thinking(&mut self) -> bool {
        if let Some(flag) = self.think_flag.take() {
            flag.store(true, Ordering::Relaxed);
        }
        let was = self.thinking.take().is_some();
        if was {
            self.version = self.version.wrapping_add(1);
        }
        was
    }

    /// The answer of search `think`: played if that search is still the one running (not
    /// stopped; a new game is another session). A stopped search's answer is a
    /// [`Finish::Stopped`]; a failed search's, [`Finish::Failed`].
    pub fn finish_thinking(
        &mut self,
        think: u64,
        answer: Result<(String, Vec<Action>), Refusal>,
    ) -> Result<(), Finish> {
        if self.thinking != Some(think) {
            return Err(Finish::Stopped);
        }
        self.thinking = None;
        self.think_flag = None;
        self.version = self.version.wrapping_add(1);
        let (name, mv) = answer.map_err(Finish::Failed)?;
        self.play(&mv).map_err(Finish::Failed)?;
        self.agents.push(name);
        Ok(())
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

    /// The vertices a player clicks for a move: those it changes, or on a pitch the points the
    /// ball goes to.
    fn click_path(&self, sketch: &MoveSketch) -> Vec<u32> {
        match &self.pitch {
            Some(pitch) => pitch.points_of_path(&sketch.path()),
            None => sketch.path(),
        }
    }

    /// A move in human notation; on a pitch the points the ball goes to (`j11-k12`), not the
    /// squares of its lines.
    fn move_text(&self, sketch: &MoveSketch, full: impl FnOnce() -> String) -> String {
        match &self.pitch {
            Some(pitch) => {
                let points = pitch.points_of_path(&sketch.path());
                let label =
                    |v: &u32| self.names.vertices.get(*v as usize).cloned().unwrap_or_else(|| v.to_string());
                if points.is_empty() {
                    full()
                } else {
                    points.iter().map(label).collect::<Vec<_>>().join("-")
                }
            }
            None => sketch.text(&self.names, full),
        }
    }

    /// `sketch` of `mv` at `before` with its choice of a vertex, if it is one of `choices`
    /// (split games: the piece chosen is clicked, and written `Ng1`).
    fn with_choice(
        &self,
        sketch: MoveSketch,
        before: &DynState,
        mv: &[Action],
        choices: &[u32],
    ) -> MoveSketch {
        let game = self.game();
        with_choice(sketch, mv, choices, |v| game.piece(before, v))
    }

    /// How `mv` reads at `before` (a position where it is legal).
    fn sketch(&mut self, before: &DynState, mv: &[Action]) -> Result<MoveSketch, Refusal> {
        let game = Arc::clone(self.game());
        let changes = describe_move(game.as_ref(), before, &mut self.scratch, mv, DEFAULT_KEEPER_LIMIT)?;
        Ok(sketch_move(&changes, mv, &self.empty))
    }

    /// The legal moves of `state`, or `None` past `max` of them.
    fn legal_moves(&mut self, state: &DynState, max: usize) -> Result<Option<MoveList>, Refusal> {
        let game = Arc::clone(self.game());
        let mut list = MoveList::with_limit(DEFAULT_MAX_ACTIONS);
        match game.legal_moves(&mut state.clone(), &mut self.scratch, &mut list) {
            Ok(()) if list.len() <= max => Ok(Some(list)),
            Ok(()) | Err(rbg_core::SearchError::TooManyMoves { .. }) => Ok(None),
            Err(e) => Err(e.into()),
        }
    }

    /// Brings the notation records in line with the history: a move played where another was
    /// recorded (or none) is written anew, with everything after it dropped.
    fn sync_records(&mut self) {
        let cursor = self.play.history().len();
        for i in 0..cursor {
            if self.records.get(i).is_some_and(|r| r.actions == self.play.history()[i]) {
                continue;
            }
            self.records.truncate(i);
            let before = self.play.positions()[i].clone();
            let after = self.play.positions()[i + 1].clone();
            let mv = self.play.history()[i].clone();
            let mut record = self.record(&before, &mv);
            if self.kings.contains(&true) && !self.check_between(&before, &after).is_empty() {
                record.text.push('+');
            }
            self.records.push(record);
        }
        let total = cursor + self.play.redoable().len();
        self.records.truncate(total);
    }

    fn record(&mut self, before: &DynState, mv: &[Action]) -> Record {
        let info = self.game().info().clone();
        let full = || format_move(&info, mv, VertexStyle::Name);
        let legal = self.legal_moves(before, usize::MAX).ok().flatten();
        let choices = legal.as_ref().map(|list| vertex_choices(list.iter())).unwrap_or_default();
        let text = match self.sketch(before, mv) {
            Ok(sketch) => self.move_text(&self.with_choice(sketch, before, mv, &choices), full),
            Err(_) => full(),
        };
        let ordinal = legal.and_then(|list| list.iter().position(|m| m == mv).map(|n| n as u32));
        let mover = self.game().current_player(before);
        Record { actions: mv.to_vec(), text, ordinal, mover }
    }

    /// The legal moves of the position shown as the page offers them, and the vertices they
    /// take.
    fn offers(&mut self) -> Result<(Option<Vec<MoveView>>, Vec<u32>), Refusal> {
        if !self.alive() || self.thinking.is_some() {
            return Ok((Some(Vec::new()), Vec::new()));
        }
        let state = self.state().clone();
        let Some(list) = self.legal_moves(&state, MAX_LISTED_MOVES)? else { return Ok((None, Vec::new())) };
        let info = self.game().info().clone();
        let mut threats: Vec<u32> = Vec::new();
        let mut moves = Vec::with_capacity(list.len());
        let choices = vertex_choices(list.iter());
        for mv in list.iter() {
            // A move whose effects cannot be computed (a keeper that loops after it) is still
            // offered, as a button with its pair notation.
            let sketch = self.sketch(&state, mv).unwrap_or_default();
            let sketch = self.with_choice(sketch, &state, mv, &choices);
            let actions = format_move(&info, mv, VertexStyle::Name);
            let piece = sketch.parts.last().map(|part| match *part {
                MovePart::Shift { piece, becomes, .. } => becomes.unwrap_or(piece),
                MovePart::Place { piece, .. } | MovePart::Choose { piece, .. } => piece,
            });
            threats.extend(&sketch.taken);
            moves.push(MoveView {
                text: self.move_text(&sketch, || actions.clone()),
                actions,
                path: self.click_path(&sketch),
                taken: sketch.taken,
                piece,
            });
        }
        threats.sort_unstable();
        threats.dedup();
        Ok((Some(moves), threats))
    }

    /// Check, for any game (docs/studio.md): the vertices of the player to move's royal pieces
    /// that the opponent could take if it were to move now. The opponent is the player who
    /// made the last move; "if it were to move now" is the position shown with the rules
    /// position, player and current vertex of the position before that move (the opponent's
    /// turn: an RBG state's turn is where its rules stand, not a variable). A piece is royal
    /// when it is drawn as a king or when taking it ends the game. Nothing at the first
    /// position, after a player's second move in a row, or when the game is over.
    fn check(&mut self) -> Vec<u32> {
        let (Some(before), Some(_)) = (self.play.previous().cloned(), self.mover()) else {
            return Vec::new();
        };
        let now = self.state().clone();
        self.check_between(&before, &now)
    }

    /// Check at `now`, the position after a move played at `before` ([`Session::check`]);
    /// history moves that give check get a `+` in their notation (games with kings only).
    fn check_between(&mut self, before: &DynState, now: &DynState) -> Vec<u32> {
        let game = Arc::clone(self.game());
        if game.current_player(before) == game.current_player(now) {
            return Vec::new();
        }
        let Some(opponent_turn) = turn_of(game.as_ref(), now, before) else { return Vec::new() };
        let Ok(Some(list)) = self.legal_moves(&opponent_turn, MAX_LISTED_MOVES) else { return Vec::new() };
        let mut royal: Vec<u32> = Vec::new();
        for mv in list.iter() {
            let Ok(sketch) = self.sketch(&opponent_turn, mv) else { continue };
            for &v in &sketch.taken {
                let piece = game.piece(now, v) as usize;
                if royal.contains(&v) || self.empty.get(piece) != Some(&false) {
                    continue;
                }
                if self.kings[piece] || self.ends_game(&opponent_turn, mv) {
                    royal.push(v);
                }
            }
        }
        royal.sort_unstable();
        royal
    }

    /// Whether playing `mv` at `state` ends the game (a search that fails says no).
    fn ends_game(&mut self, state: &DynState, mv: &[Action]) -> bool {
        let game = Arc::clone(self.game());
        let mut after = state.clone();
        game.apply_move(&mut after, mv);
        matches!(goes_on(game.as_ref(), &mut after, &mut self.scratch, DEFAULT_KEEPER_LIMIT), Ok(false))
    }

    /// Plays the `n`th legal move (in the reasoner's order) at the position shown.
    pub fn play_ordinal(&mut self, n: u32) -> Result<(), Refusal> {
        let state = self.state().clone();
        let list = self.legal_moves(&state, usize::MAX)?.ok_or_else(|| refuse("too many moves to list"))?;
        if n as usize >= list.len() {
            return Err(refuse(format!("move number {n}: the position has {} legal moves", list.len())));
        }
        let mv = list.get(n as usize).to_vec();
        self.play(&mv)
    }

    pub fn view(&mut self, id: u64) -> Result<View, Refusal> {
        let next = if self.thinking.is_some() { Vec::new() } else { self.next_actions()? };
        let (moves, threats) = self.offers()?;
        let check = self.check();
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
        let status = self.play.result();
        let all_moves: Vec<&Vec<Action>> = self.play.history().iter().chain(self.play.redoable()).collect();
        Ok(View {
            id,
            game: self.file.clone(),
            name: info.name.clone(),
            players: info.players.clone(),
            pieces: info.pieces.clone(),
            looks: self.looks.clone(),
            vertices: info.vertices.clone(),
            labels: self.names.vertices.clone(),
            svg,
            board: (0..info.vertices.len() as u32).map(|v| game.piece(state, v)).collect(),
            to_move: self.mover().and_then(|p| info.players.get(p as usize - 1).cloned()),
            over: !self.alive(),
            scores: status.scores,
            result: status.outcomes.map(|o| o.into_iter().map(|x| x.name()).collect()),
            history: all_moves.iter().map(|m| format_move(info, m, VertexStyle::Name)).collect(),
            notation: (0..all_moves.len())
                .map(|i| match self.records.get(i) {
                    Some(r) => r.text.clone(),
                    None => format_move(info, all_moves[i], VertexStyle::Name),
                })
                .collect(),
            ordinals: (0..all_moves.len()).map(|i| self.records.get(i).and_then(|r| r.ordinal)).collect(),
            movers: (0..all_moves.len()).map(|i| self.records.get(i).map_or(0, |r| r.mover)).collect(),
            cursor,
            partial: self.play.partial().iter().map(action_view).collect(),
            next: next.iter().map(action_view).collect(),
            moves,
            threats,
            check,
            last_move,
            thinking: self.thinking.is_some(),
            version: self.version,
            engine: EngineView::of(self.build.as_ref()),
        })
    }
}
