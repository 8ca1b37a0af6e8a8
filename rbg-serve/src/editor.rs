//! The page's editor: a game's source text ([`source`]), its diagnostics with quick fixes from
//! rbg-ide ([`check`]), the picture of its initial position ([`preview`]), the template of a
//! new game ([`template`]), and saving a text into the games directory ([`save_file`], only on
//! an explicit request, never outside the directory). Sessions from an edited text
//! ([`open_draft`]) are made by the sessions route, always on the interpreter; asked for the
//! compiled engine (and for every game file when the server compiles in the background,
//! [`crate::Config::compile_in_background`]), the sessions route hands the text to
//! [`DraftBuilds`], which builds it in the background (`rbg::background`: the compile cache of
//! `rbg::compile`, cargo at low priority) and then switches the session to it
//! ([`switch_engine`]: the moves played so far are replayed on the new engine); the session's
//! view tells the page how the build goes (its badge), as [`build_state`] does for a draft's text.
//!
//! Texts are bounded ([`MAX_SOURCE_BYTES`]) and must not hold NUL characters (a binary file is
//! not a game). Places are given for JavaScript: `from` and `to` count UTF-16 code units from
//! the start of the text (the page's editor indexes so), `line` and `col` count from 1.

use std::collections::hash_map::DefaultHasher;
use std::collections::{HashMap, VecDeque};
use std::hash::{Hash, Hasher};
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::extract::rejection::JsonRejection;
use axum::extract::{Path as UrlPath, State};
use axum::http::StatusCode;
use axum::Json;
use rbg_core::dynamic::AnyGame;
use rbg_core::Game;
use rbg_ide::{Analysis, IdeDiagnostic, Severity};
use rbg_render::LayoutHint;
use serde::Deserialize;
use serde_json::{json, Value};

use crate::api::{bad, lock, resolve_game, Answer, ApiError, App};
use crate::games::{self, SaveError};
use crate::session::{BuildState, EngineView, Session};

/// The longest text the editor routes take (a corpus game is at most a few tens of KiB).
pub const MAX_SOURCE_BYTES: usize = 1 << 20;

/// Most diagnostics one check answers with (the first ones; a text with more is far gone).
const MAX_DIAGNOSTICS: usize = 200;

/// The name an edited text is given when the request names none.
const DRAFT_NAME: &str = "draft.rbg";

/// The text of a new game (a small valid game the page's "New" opens).
pub const TEMPLATE: &str = include_str!("../static/template.rbg");

/// A text with the name it is read under (its extension tells RBG from SBG).
#[derive(Deserialize)]
pub struct Draft {
    pub text: String,
    pub name: Option<String>,
}

/// The name a draft is read under, checked like a game file's name.
pub fn draft_name(name: Option<&str>) -> Result<String, ApiError> {
    let name = name.unwrap_or(DRAFT_NAME);
    if !games::is_plain_game_name(name) {
        return Err(bad(format!(
            "{name:?} is not a game file name (a relative path ending in .rbg or .sbg)"
        )));
    }
    Ok(name.to_string())
}

/// Refuses texts that are too long or binary.
pub fn check_text(text: &str) -> Result<(), ApiError> {
    if text.len() > MAX_SOURCE_BYTES {
        return Err(ApiError(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("the text has {} bytes; at most {MAX_SOURCE_BYTES}", text.len()),
        ));
    }
    if text.contains('\0') {
        return Err(bad("the text holds NUL characters: not a game description"));
    }
    Ok(())
}

/// Runs `work` on a blocking thread (parsing and drawing a large text takes a moment).
async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|_| ApiError(StatusCode::INTERNAL_SERVER_ERROR, "reading the text failed".into()))?
}

/// `GET /api/files/{game}`: the source text of a game of the directory.
pub async fn source(State(app): State<App>, UrlPath(game): UrlPath<String>) -> Answer {
    let path = resolve_game(&app, &game)?;
    let bytes = std::fs::read(&path).map_err(|e| ApiError(StatusCode::NOT_FOUND, format!("{game}: {e}")))?;
    if bytes.len() > MAX_SOURCE_BYTES {
        return Err(ApiError(StatusCode::PAYLOAD_TOO_LARGE, format!("{game} is too large to edit")));
    }
    let text = String::from_utf8(bytes)
        .map_err(|_| ApiError(StatusCode::UNPROCESSABLE_ENTITY, format!("{game} is not UTF-8 text")))?;
    Ok(Json(json!({ "name": game, "text": text })))
}

/// `GET /api/template`: the text of a new game.
pub async fn template() -> Answer {
    Ok(Json(json!({ "name": "new-game.rbg", "text": TEMPLATE })))
}

/// `POST /api/check`: the diagnostics of a text, as `rbg check` and `rbg lsp` see them.
pub async fn check(body: Result<Json<Draft>, JsonRejection>) -> Answer {
    let Json(draft) = body?;
    check_text(&draft.text)?;
    let name = draft_name(draft.name.as_deref())?;
    blocking(move || {
        let analysis = Analysis::new(&name, &draft.text);
        let places = Places::new(&draft.text);
        let all = analysis.diagnostics();
        let errors = all.iter().filter(|d| d.severity == Severity::Error).count();
        let shown: Vec<Value> = all.iter().take(MAX_DIAGNOSTICS).map(|d| diagnostic(&places, d)).collect();
        Ok(Json(json!({
            "name": name,
            "valid": errors == 0 && analysis.game().is_some(),
            "errors": errors,
            "diagnostics": shown,
        })))
    })
    .await
}

fn diagnostic(places: &Places, d: &IdeDiagnostic) -> Value {
    let related: Vec<Value> = d
        .related
        .iter()
        .map(|r| json!({ "message": r.message, "range": places.range(r.span.start, r.span.end) }))
        .collect();
    let fixes: Vec<Value> = d
        .fixes
        .iter()
        .map(|f| {
            let edits: Vec<Value> = f
                .edits
                .iter()
                .map(|e| json!({ "range": places.range(e.span.start, e.span.end), "text": e.text }))
                .collect();
            json!({ "title": f.title, "edits": edits })
        })
        .collect();
    json!({
        "severity": match d.severity { Severity::Error => "error", Severity::Warning => "warning" },
        "message": d.message,
        "range": places.range(d.span.start, d.span.end),
        "related": related,
        "fixes": fixes,
    })
}

/// `POST /api/preview`: the initial position of a text's game, drawn as sessions draw it.
pub async fn preview(body: Result<Json<Draft>, JsonRejection>) -> Answer {
    let Json(draft) = body?;
    check_text(&draft.text)?;
    let name = draft_name(draft.name.as_deref())?;
    blocking(move || {
        let game = open_draft(&name, &draft.text)?;
        let svg = initial_picture(&game, &hint_of(&draft.text)).map_err(unprocessable)?;
        let info = game.info();
        Ok(Json(json!({
            "name": name,
            "svg": svg,
            "players": info.players,
            "pieces": info.pieces,
            "vertices": info.vertices.len(),
        })))
    })
    .await
}

fn unprocessable(message: String) -> ApiError {
    ApiError(StatusCode::UNPROCESSABLE_ENTITY, message)
}

/// Opens an edited text with the interpreter (drafts are never compiled); an invalid text is
/// answered with its first errors as `file:line:col: error: message`.
pub fn open_draft(name: &str, text: &str) -> Result<AnyGame, ApiError> {
    let options = rbg::OpenOptions::new(rbg::Engine::Interpreter);
    rbg::open_bytes(Path::new(name), text.as_bytes().to_vec(), &options)
        .map(|opened| opened.game)
        .map_err(|e| unprocessable(e.to_string()))
}

/// The `// @layout` hints of a text (hints that cannot be read are left out).
pub fn hint_of(text: &str) -> LayoutHint {
    LayoutHint::from_source(text).unwrap_or_default()
}

/// The keeper-completed initial position of `game` as SVG, drawn as a session draws it (the
/// library's thumbnails and the editor's preview).
pub fn initial_picture(game: &AnyGame, hint: &LayoutHint) -> Result<String, String> {
    let mut scratch = game.new_scratch();
    let mut state = game.initial_state();
    game.complete_keeper(&mut state, &mut scratch, rbg_core::perft::DEFAULT_KEEPER_LIMIT)
        .map_err(|e| e.to_string())?;
    let layout = rbg_render::Layout::with_hint(game.info(), hint);
    let options = rbg_render::RenderOptions::default();
    Ok(rbg_render::render_svg_with_layout(game, &layout, &state, None, &options))
}

/// Builds a session's compiled engine: `(name, text)` to the game, or why not.
pub use rbg::background::Builder;

/// Most build states remembered (the oldest is forgotten first).
const MAX_BUILD_STATES: usize = 64;
/// Most builds waiting or running at once (they run one at a time: cargo takes the cores).
const MAX_PENDING_BUILDS: usize = 4;
/// How long a finished build waits for an agent's search on its session to end.
const SWITCH_PATIENCE: Duration = Duration::from_secs(120);

/// The compiled engines of drafts being built, and how their builds went, by text.
pub struct DraftBuilds {
    builder: Builder,
    states: Mutex<(HashMap<u64, BuildState>, VecDeque<u64>)>,
    /// Held while a build runs: builds run one after the other.
    running: Mutex<()>,
}

impl DraftBuilds {
    pub fn with_builder(builder: Builder) -> DraftBuilds {
        DraftBuilds {
            builder,
            states: Mutex::new((HashMap::new(), VecDeque::new())),
            running: Mutex::new(()),
        }
    }

    fn state(&self, key: u64) -> Option<BuildState> {
        self.states.lock().ok()?.0.get(&key).cloned()
    }

    fn set(&self, key: u64, state: BuildState) {
        let Ok(mut states) = self.states.lock() else { return };
        let (map, order) = &mut *states;
        if map.insert(key, state).is_none() {
            order.push_back(key);
        }
        while order.len() > MAX_BUILD_STATES {
            if let Some(old) = order.pop_front() {
                map.remove(&old);
            }
        }
    }

    fn pending(&self) -> usize {
        self.states
            .lock()
            .map(|s| s.0.values().filter(|b| matches!(b, BuildState::Building { .. })).count())
            .unwrap_or(0)
    }

    /// Builds the compiled engine of `text` (read as the file `name`) on a thread of its own
    /// and switches `session` to it when it is ready. The session goes on with the interpreter
    /// meanwhile; its view tells how the build goes (the page's badge).
    pub fn start(self: &Arc<Self>, session: Arc<Mutex<Session>>, name: String, text: String) {
        let key = draft_key(&name, &text);
        let mark = |state: BuildState| {
            if let Ok(mut s) = session.lock() {
                s.build = Some(state);
            }
        };
        if self.pending() >= MAX_PENDING_BUILDS {
            let message = format!("{MAX_PENDING_BUILDS} builds are waiting already; the interpreter plays");
            self.set(key, BuildState::Failed(message.clone()));
            mark(BuildState::Failed(message));
            return;
        }
        let building = BuildState::Building { since: Instant::now() };
        self.set(key, building.clone());
        mark(building);
        let builds = Arc::clone(self);
        std::thread::spawn(move || {
            let built = {
                let _turn = builds.running.lock();
                rbg::background::run(&builds.builder, &name, &text)
            };
            let outcome = built.and_then(|game| {
                let game = Arc::new(game);
                let deadline = Instant::now() + SWITCH_PATIENCE;
                loop {
                    match switch_engine(&session, &game, &hint_of(&text)) {
                        Err(Switch::Busy) if Instant::now() < deadline => {
                            std::thread::sleep(Duration::from_millis(100))
                        }
                        Err(Switch::Busy) => {
                            return Err("an agent kept searching; the interpreter plays".into())
                        }
                        Err(Switch::Failed(message)) => return Err(message),
                        Ok(()) => return Ok(()),
                    }
                }
            });
            let state = outcome.map_or_else(BuildState::Failed, |()| BuildState::Ready);
            builds.set(key, state.clone());
            if let Ok(mut s) = session.lock() {
                // A failed build does not hide that another one switched the session.
                if s.build != Some(BuildState::Ready) {
                    s.build = Some(state);
                }
            }
        });
    }
}

/// The key of a draft's build: its name and text.
fn draft_key(name: &str, text: &str) -> u64 {
    let mut hasher = DefaultHasher::new();
    (name, text).hash(&mut hasher);
    hasher.finish()
}

/// Why a session was not switched.
#[derive(Debug, PartialEq, Eq)]
pub enum Switch {
    /// An agent is searching for it: try again later.
    Busy,
    Failed(String),
}

/// Moves `session` to `game` (the same rules, another engine): [`Session::switched`], the
/// moves played so far replayed on the new engine.
pub fn switch_engine(session: &Mutex<Session>, game: &Arc<AnyGame>, hint: &LayoutHint) -> Result<(), Switch> {
    let mut old = session.lock().map_err(|_| Switch::Failed("the session is broken".into()))?;
    if old.thinking.is_some() {
        return Err(Switch::Busy);
    }
    *old = old.switched(Arc::clone(game), hint).map_err(|e| Switch::Failed(e.0))?;
    Ok(())
}

/// `POST /api/drafts/engine`: how the compiled engine of a text played from the editor is
/// coming along: `{state: "building", seconds}`, `{state: "ready"}` (the session plays with it),
/// `{state: "failed", message}` or `{state: "none"}` (not asked for).
pub async fn build_state(State(app): State<App>, body: Result<Json<Draft>, JsonRejection>) -> Answer {
    let Json(draft) = body?;
    check_text(&draft.text)?;
    let name = draft_name(draft.name.as_deref())?;
    Ok(Json(match app.builds.state(draft_key(&name, &draft.text)) {
        None => json!({ "state": "none" }),
        Some(BuildState::Building { since }) => {
            json!({ "state": "building", "seconds": since.elapsed().as_secs() })
        }
        Some(BuildState::Ready) => json!({ "state": "ready" }),
        Some(BuildState::Failed(message)) => {
            json!({ "state": "failed", "message": EngineView::of(Some(&BuildState::Failed(message))).message })
        }
    }))
}

#[derive(Deserialize)]
pub struct SaveRequest {
    name: String,
    text: String,
    #[serde(default)]
    overwrite: bool,
}

/// `POST /api/files`: writes a text into the games directory (the page's Save button). The
/// name must be a plain relative path of an `.rbg` or `.sbg` file in an existing folder of the
/// directory; an existing file is replaced only with `overwrite: true`.
pub async fn save_file(State(app): State<App>, body: Result<Json<SaveRequest>, JsonRejection>) -> Answer {
    let Json(request) = body?;
    check_text(&request.text)?;
    let dir = app.config.dir.clone();
    let (name, overwrite) = (request.name.clone(), request.overwrite);
    blocking(move || {
        games::save(&dir, &request.name, &request.text, overwrite).map_err(|e| save_error(&request.name, e))
    })
    .await?;
    // The thumbnail of the old text is stale.
    lock(&app.thumbnails)?.remove(&name);
    Ok(Json(json!({ "saved": name })))
}

fn save_error(name: &str, e: SaveError) -> ApiError {
    match e {
        SaveError::Invalid => {
            bad(format!("{name:?} is not a game file name inside the games directory (a relative path ending in .rbg or .sbg, without ..)"))
        }
        SaveError::NoDirectory => {
            ApiError(StatusCode::NOT_FOUND, format!("the folder of {name:?} does not exist in the games directory"))
        }
        SaveError::Exists => ApiError(
            StatusCode::CONFLICT,
            format!("{name:?} exists (or is not a plain file); ask to overwrite it to replace it"),
        ),
        SaveError::Io(message) => ApiError(StatusCode::INTERNAL_SERVER_ERROR, format!("{name}: {message}")),
    }
}

/// Byte offsets of a text turned into the places the page's editor uses.
struct Places<'a> {
    text: &'a str,
    /// The byte offset where each line starts, and its UTF-16 offset.
    lines: Vec<(usize, usize)>,
}

impl<'a> Places<'a> {
    fn new(text: &'a str) -> Self {
        let mut lines = vec![(0, 0)];
        let mut utf16 = 0;
        for (at, c) in text.char_indices() {
            utf16 += c.len_utf16();
            if c == '\n' {
                lines.push((at + 1, utf16));
            }
        }
        Places { text, lines }
    }

    /// `{from, to, line, col, end_line, end_col}` of the bytes `start..end` (offsets past the end or inside a
    /// character are moved back to a character's start).
    fn range(&self, start: u32, end: u32) -> Value {
        let (from, line, col) = self.place(start as usize);
        let (to, end_line, end_col) = self.place(end.max(start) as usize);
        json!({ "from": from, "to": to, "line": line, "col": col, "end_line": end_line, "end_col": end_col })
    }

    fn place(&self, offset: usize) -> (usize, usize, usize) {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.lines.partition_point(|&(start, _)| start <= offset) - 1;
        let (start, start16) = self.lines[line];
        let col = self.text[start..offset].encode_utf16().count();
        (start16 + col, line + 1, col + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A session of the template game with two moves played.
    fn played_session() -> Session {
        let Ok(game) = open_draft("t.rbg", TEMPLATE) else { panic!("the template is valid") };
        let mut session = Session::new("t.rbg".into(), Arc::new(game), &LayoutHint::default(), 100).unwrap();
        session.play_ordinal(4).unwrap();
        session.play_ordinal(0).unwrap();
        session
    }

    #[test]
    fn a_session_switches_engines_with_its_moves() {
        let session = Mutex::new(played_session());
        let moves = session.lock().unwrap().log().moves;
        assert_eq!(moves.len(), 2);
        let Ok(other) = open_draft("t.rbg", TEMPLATE) else { panic!("the template is valid") };
        let other = Arc::new(other);
        let version = session.lock().unwrap().version;
        switch_engine(&session, &other, &LayoutHint::default()).unwrap();
        let switched = session.lock().unwrap();
        assert!(Arc::ptr_eq(switched.game(), &other));
        assert_eq!(switched.log().moves, moves);
        assert!(switched.version > version, "answers for the old engine are dropped");
    }

    #[test]
    fn a_build_in_the_background_switches_the_session_or_says_why_not() {
        let builds = Arc::new(DraftBuilds::with_builder(Arc::new(|name: &str, text: &str| {
            if text.contains("fail") {
                Err("no build".into())
            } else {
                open_draft(name, text).map_err(|e| e.1)
            }
        })));
        let session = Arc::new(Mutex::new(played_session()));
        let before = Arc::clone(session.lock().unwrap().game());
        let failing = format!("{TEMPLATE}// fail\n");
        builds.start(Arc::clone(&session), "t.rbg".into(), failing.clone());
        builds.start(Arc::clone(&session), "t.rbg".into(), TEMPLATE.into());
        let wait = |text: &str| {
            let deadline = Instant::now() + Duration::from_secs(20);
            loop {
                match builds.state(draft_key("t.rbg", text)) {
                    Some(BuildState::Building { .. }) if Instant::now() < deadline => {
                        std::thread::sleep(Duration::from_millis(10))
                    }
                    state => return state,
                }
            }
        };
        assert_eq!(wait(&failing), Some(BuildState::Failed("no build".into())));
        assert_eq!(wait(TEMPLATE), Some(BuildState::Ready));
        let switched = session.lock().unwrap();
        assert!(!Arc::ptr_eq(switched.game(), &before));
        assert_eq!(switched.log().moves.len(), 2);
        assert_eq!(switched.build, Some(BuildState::Ready), "the view's badge says so");
    }

    #[test]
    fn places_count_utf16_units_and_lines_from_one() {
        // "é" is 2 bytes and 1 unit; "𝄞" 4 bytes and 2 units.
        let text = "a\né𝄞b\nc";
        let places = Places::new(text);
        assert_eq!(places.place(0), (0, 1, 1));
        assert_eq!(places.place(2), (2, 2, 1));
        // b: bytes 2 + 2 + 4 = 8; units 2 + 1 + 2 = 5.
        assert_eq!(places.place(8), (5, 2, 4));
        // Inside the clef: back to its start; past the end: the end.
        assert_eq!(places.place(6), (3, 2, 2));
        assert_eq!(places.place(100), (8, 3, 2));
    }
}
