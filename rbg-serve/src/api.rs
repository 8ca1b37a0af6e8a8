//! The HTTP routes: the page and its assets, and the JSON API under `/api/` (documented in
//! `docs/serve-api.md`). Every error is a JSON object `{"error": "..."}` with a 4xx status
//! (5xx only if a search thread died), and leaves the session unchanged.

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::rejection::JsonRejection;
use axum::extract::{Path as UrlPath, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use rbg_agents::{AgentSpec, Budget};
use rbg_core::notation::parse_move;
use rbg_core::{Action, Game};
use rbg_metrics::AnalysisConfig;
use serde::Deserialize;
use serde_json::{json, Value};

use crate::editor::{self, Builder};
use crate::games::{self, ResolveError};
use crate::jobs::{self, Job};
use crate::session::{refuse, Finish, Refusal, Session};
use crate::{Config, Loader};

/// The server's shared state.
#[derive(Clone)]
pub(crate) struct App {
    pub(crate) config: Arc<Config>,
    loader: Loader,
    /// Opens games for thumbnails (the interpreter even when games are played compiled).
    preview: Loader,
    /// Thumbnails made so far, by game file.
    pub(crate) thumbnails: Arc<Mutex<HashMap<String, String>>>,
    sessions: Arc<Mutex<Sessions>>,
    jobs: Arc<Mutex<Jobs>>,
    /// Compiled engines of drafts built in the background (editor.rs).
    pub(crate) builds: Arc<editor::DraftBuilds>,
}

#[derive(Default)]
struct Sessions {
    next_id: u64,
    map: HashMap<u64, Arc<Mutex<Session>>>,
    /// Ids from least to most recently created (the oldest is dropped past the bound).
    order: VecDeque<u64>,
}

#[derive(Default)]
struct Jobs {
    next_id: u64,
    map: HashMap<u64, Arc<Job>>,
    order: VecDeque<u64>,
}

/// Most jobs remembered (finished ones are dropped oldest first).
const MAX_JOBS: usize = 256;

/// An error answer.
pub(crate) struct ApiError(pub(crate) StatusCode, pub(crate) String);

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.0, Json(json!({ "error": self.1 }))).into_response()
    }
}

impl From<Refusal> for ApiError {
    fn from(r: Refusal) -> Self {
        let status = if r.1 { StatusCode::CONFLICT } else { StatusCode::UNPROCESSABLE_ENTITY };
        ApiError(status, r.0)
    }
}

impl From<Finish> for ApiError {
    fn from(f: Finish) -> Self {
        match f {
            Finish::Stopped => {
                ApiError(StatusCode::CONFLICT, "the agent was stopped; its move was dropped".into())
            }
            Finish::Failed(r) => r.into(),
        }
    }
}

impl From<JsonRejection> for ApiError {
    fn from(r: JsonRejection) -> Self {
        // A body past the size limit says so (413); every other unreadable body is a 400.
        let status = match r.status() {
            StatusCode::PAYLOAD_TOO_LARGE => StatusCode::PAYLOAD_TOO_LARGE,
            _ => StatusCode::BAD_REQUEST,
        };
        ApiError(status, r.body_text())
    }
}

pub(crate) fn bad(message: impl Into<String>) -> ApiError {
    ApiError(StatusCode::BAD_REQUEST, message.into())
}

fn not_found(message: impl Into<String>) -> ApiError {
    ApiError(StatusCode::NOT_FOUND, message.into())
}

pub(crate) type Answer = Result<Json<Value>, ApiError>;

/// The routes of a server on `config.dir`, reading games with `loader`.
pub fn router(config: Config, loader: Loader) -> Router {
    let preview = Arc::clone(&loader);
    router_with_preview(config, loader, preview)
}

/// [`router`] with thumbnails of the game library drawn from games `preview` opens (a
/// server that plays compiled games draws its thumbnails with the interpreter, so that listing
/// builds nothing).
pub fn router_with_preview(config: Config, loader: Loader, preview: Loader) -> Router {
    router_with_builds(config, loader, preview, rbg::background::compiling(&rbg::OpenOptions::default()))
}

/// [`router_with_preview`] with the compiled engines of sessions built by `builder` (the compile
/// cache by default; a stand-in in tests).
pub fn router_with_builds(config: Config, loader: Loader, preview: Loader, builder: Builder) -> Router {
    let app = App {
        config: Arc::new(config),
        loader,
        preview,
        thumbnails: Arc::new(Mutex::new(HashMap::new())),
        sessions: Arc::new(Mutex::new(Sessions::default())),
        jobs: Arc::new(Mutex::new(Jobs::default())),
        builds: Arc::new(editor::DraftBuilds::with_builder(builder)),
    };
    Router::new()
        .route("/", get(page))
        .route("/app.js", get(script))
        .route("/style.css", get(style))
        .route("/favicon.svg", get(favicon))
        .route("/favicon.ico", get(favicon))
        .route("/editor.js", get(editor_script))
        .route("/vendor/codemirror.js", get(codemirror))
        .route("/api/games", get(list_games))
        .route("/api/thumbnail/{*game}", get(thumbnail))
        .route("/api/files", post(editor::save_file))
        .route("/api/files/{*game}", get(editor::source))
        .route("/api/template", get(editor::template))
        .route("/api/check", post(editor::check))
        .route("/api/preview", post(editor::preview))
        .route("/api/drafts/engine", post(editor::build_state))
        .route("/api/sessions", post(new_session))
        .route("/api/sessions/{id}", get(show_session))
        .route("/api/sessions/{id}/step", post(step))
        .route("/api/sessions/{id}/move", post(play_move))
        .route("/api/sessions/{id}/clear", post(clear))
        .route("/api/sessions/{id}/undo", post(undo))
        .route("/api/sessions/{id}/redo", post(redo))
        .route("/api/sessions/{id}/agent", post(agent_move))
        .route("/api/sessions/{id}/stop", post(stop_agent))
        .route("/api/sessions/{id}/analyse", post(analyse))
        .route("/api/sessions/{id}/log", get(log))
        .route("/api/sessions/{id}/perft", post(start_perft))
        .route("/api/sessions/{id}/mc", post(start_mc))
        .route("/api/sessions/{id}/game-analysis", post(start_game_analysis))
        .route("/api/jobs/{id}", get(show_job))
        .route("/api/jobs/{id}/cancel", post(cancel_job))
        .fallback(|| async { ApiError(StatusCode::NOT_FOUND, "no such page or API route".into()) })
        .with_state(app)
}

async fn page() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], include_str!("../static/index.html"))
}

async fn script() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "text/javascript; charset=utf-8")], include_str!("../static/app.js"))
}

async fn style() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "text/css; charset=utf-8")], include_str!("../static/style.css"))
}

async fn editor_script() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "text/javascript; charset=utf-8")], include_str!("../static/editor.js"))
}

/// CodeMirror 6, bundled by `editor-bundle/build.sh` (committed; CI checks it is up to date).
async fn codemirror() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/javascript; charset=utf-8"), (header::CACHE_CONTROL, "max-age=3600")],
        include_str!("../static/vendor/codemirror.js"),
    )
}

async fn favicon() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "image/svg+xml")], include_str!("../static/favicon.svg"))
}

/// The initial position of a game as a small SVG picture (made once per game).
async fn thumbnail(State(app): State<App>, UrlPath(game): UrlPath<String>) -> Result<Response, ApiError> {
    let path = resolve_game(&app, &game)?;
    let cached = lock(&app.thumbnails)?.get(&game).cloned();
    let svg = match cached {
        Some(svg) => svg,
        None => {
            let preview = Arc::clone(&app.preview);
            let svg = tokio::task::spawn_blocking(move || {
                let game = preview(&path).map_err(|e| ApiError(StatusCode::UNPROCESSABLE_ENTITY, e))?;
                editor::initial_picture(&game, &layout_hint(&path))
                    .map_err(|e| ApiError(StatusCode::UNPROCESSABLE_ENTITY, e))
            })
            .await
            .map_err(|_| ApiError(StatusCode::INTERNAL_SERVER_ERROR, "drawing the game failed".into()))??;
            lock(&app.thumbnails)?.insert(game, svg.clone());
            svg
        }
    };
    Ok(([(header::CONTENT_TYPE, "image/svg+xml"), (header::CACHE_CONTROL, "max-age=3600")], svg)
        .into_response())
}

/// The `// @layout` hints of a game file (docs/pictures-and-web.md); hints that cannot be
/// read are left out, so the board is still drawn, by inference alone.
fn layout_hint(path: &std::path::Path) -> rbg_render::LayoutHint {
    editor::hint_of(&std::fs::read_to_string(path).unwrap_or_default())
}

/// The file of a game the request names, or the error answer.
pub(crate) fn resolve_game(app: &App, name: &str) -> Result<std::path::PathBuf, ApiError> {
    games::resolve(&app.config.dir, name).map_err(|e| match e {
        ResolveError::Invalid => {
            bad(format!("{name:?} is not the name of a game file of the games directory"))
        }
        ResolveError::NotFound => not_found(format!("no game {name:?} in the games directory")),
    })
}

async fn list_games(State(app): State<App>) -> Answer {
    let dir = app.config.dir.clone();
    let games = tokio::task::spawn_blocking(move || games::list(&dir)).await.unwrap_or_default();
    Ok(Json(json!({ "games": games })))
}

#[derive(Deserialize)]
struct NewSession {
    /// A game file of the directory; or
    game: Option<String>,
    /// an edited text (the page's editor), opened with the interpreter and saved nowhere,
    source: Option<String>,
    /// read under this name (`draft.rbg` if none; the extension tells RBG from SBG).
    name: Option<String>,
    /// Moves to play first, in pair notation (a game log's `moves`).
    #[serde(default)]
    moves: Vec<String>,
    /// Moves to play first, each by its number in its position's list of legal moves (the
    /// page's links).
    #[serde(default)]
    ordinals: Vec<u32>,
    /// How many of those moves stay played (the rest can be redone); all by default.
    cursor: Option<usize>,
    /// For an edited text: build the compiled engine in the background and switch to it.
    #[serde(default)]
    compile: bool,
}

/// Replays the moves a new session starts with; a refusal names the move that failed.
fn replay(session: &mut Session, request: &NewSession) -> Result<(), ApiError> {
    let refused =
        |n: usize, e: Refusal| ApiError(StatusCode::UNPROCESSABLE_ENTITY, format!("move {}: {}", n + 1, e.0));
    for (n, text) in request.moves.iter().enumerate() {
        let mv = parse_move(session.game().info(), text).map_err(|e| bad(format!("move {}: {e}", n + 1)))?;
        session.play(&mv).map_err(|e| refused(n, e))?;
    }
    for (n, &ordinal) in request.ordinals.iter().enumerate() {
        session.play_ordinal(ordinal).map_err(|e| refused(n + request.moves.len(), e))?;
    }
    let total = request.moves.len() + request.ordinals.len();
    for _ in request.cursor.unwrap_or(total).min(total)..total {
        session.undo()?;
    }
    Ok(())
}

/// Where a new session's game comes from.
enum Origin {
    /// A file of the directory: its name and path.
    File(String, std::path::PathBuf),
    /// The request's text, under a name.
    Draft(String),
}

async fn new_session(State(app): State<App>, body: Result<Json<NewSession>, JsonRejection>) -> Answer {
    let Json(request) = body?;
    let origin = match (&request.game, &request.source) {
        (Some(game), None) => Origin::File(game.clone(), resolve_game(&app, game)?),
        (None, Some(text)) => {
            editor::check_text(text)?;
            Origin::Draft(editor::draft_name(request.name.as_deref())?)
        }
        _ => return Err(bad("name the game by exactly one of `game` (a file) and `source` (a text)")),
    };
    if request.moves.len() + request.ordinals.len() > app.config.max_history {
        return Err(bad(format!("at most {} moves", app.config.max_history)));
    }
    let compile = match &origin {
        Origin::Draft(name) => request.compile.then(|| request.source.clone().map(|t| (t, name.clone()))),
        // The file's text as it is now (the loader reads it again: a file edited meanwhile
        // builds another cache entry, and the replay tells if its rules changed).
        Origin::File(name, path) => app
            .config
            .compile_in_background
            .then(|| std::fs::read_to_string(path).ok().map(|t| (t, name.clone()))),
    };
    let loader = Arc::clone(&app.loader);
    let max_history = app.config.max_history;
    let session = tokio::task::spawn_blocking(move || {
        let (file, game, hint) = match origin {
            Origin::File(file, path) => {
                let game = loader(&path).map_err(|e| ApiError(StatusCode::UNPROCESSABLE_ENTITY, e))?;
                (file, game, layout_hint(&path))
            }
            Origin::Draft(name) => {
                let text = request.source.as_deref().unwrap_or_default();
                (name.clone(), editor::open_draft(&name, text)?, editor::hint_of(text))
            }
        };
        let mut session = Session::new(file, Arc::new(game), &hint, max_history).map_err(ApiError::from)?;
        replay(&mut session, &request)?;
        Ok::<_, ApiError>(session)
    })
    .await
    .map_err(|_| ApiError(StatusCode::INTERNAL_SERVER_ERROR, "loading the game failed".into()))??;
    let session = Arc::new(Mutex::new(session));
    let id = {
        let mut sessions = lock(&app.sessions)?;
        let id = sessions.next_id;
        sessions.next_id += 1;
        sessions.map.insert(id, Arc::clone(&session));
        sessions.order.push_back(id);
        while sessions.order.len() > app.config.max_sessions {
            if let Some(old) = sessions.order.pop_front() {
                sessions.map.remove(&old);
            }
        }
        id
    };
    if let Some((text, name)) = compile.flatten() {
        app.builds.start(Arc::clone(&session), name, text);
    }
    view(&session, id)
}

pub(crate) fn lock<T>(m: &Mutex<T>) -> Result<std::sync::MutexGuard<'_, T>, ApiError> {
    m.lock().map_err(|_| ApiError(StatusCode::INTERNAL_SERVER_ERROR, "a search thread failed".into()))
}

fn session(app: &App, id: &str) -> Result<(u64, Arc<Mutex<Session>>), ApiError> {
    let id: u64 = id.parse().map_err(|_| bad(format!("{id:?} is not a session id")))?;
    let sessions = lock(&app.sessions)?;
    let found = sessions.map.get(&id).cloned().ok_or_else(|| not_found(format!("no session {id}")))?;
    Ok((id, found))
}

fn view(session: &Mutex<Session>, id: u64) -> Answer {
    let view = lock(session)?.view(id)?;
    Ok(Json(serde_json::to_value(view).unwrap_or(Value::Null)))
}

async fn show_session(State(app): State<App>, UrlPath(id): UrlPath<String>) -> Answer {
    let (id, s) = session(&app, &id)?;
    view(&s, id)
}

#[derive(Deserialize)]
struct StepRequest {
    index: u32,
    vertex: u32,
}

async fn step(
    State(app): State<App>,
    UrlPath(id): UrlPath<String>,
    body: Result<Json<StepRequest>, JsonRejection>,
) -> Answer {
    let Json(request) = body?;
    let (id, s) = session(&app, &id)?;
    lock(&s)?.step(Action::new(request.index, request.vertex))?;
    view(&s, id)
}

#[derive(Deserialize)]
struct MoveRequest {
    #[serde(rename = "move")]
    text: String,
}

async fn play_move(
    State(app): State<App>,
    UrlPath(id): UrlPath<String>,
    body: Result<Json<MoveRequest>, JsonRejection>,
) -> Answer {
    let Json(request) = body?;
    let (id, s) = session(&app, &id)?;
    {
        let mut session = lock(&s)?;
        let mv = parse_move(session.game().info(), &request.text).map_err(|e| bad(e.to_string()))?;
        session.play(&mv)?;
    }
    view(&s, id)
}

async fn clear(State(app): State<App>, UrlPath(id): UrlPath<String>) -> Answer {
    let (id, s) = session(&app, &id)?;
    lock(&s)?.clear_partial()?;
    view(&s, id)
}

async fn undo(State(app): State<App>, UrlPath(id): UrlPath<String>) -> Answer {
    let (id, s) = session(&app, &id)?;
    lock(&s)?.undo()?;
    view(&s, id)
}

async fn redo(State(app): State<App>, UrlPath(id): UrlPath<String>) -> Answer {
    let (id, s) = session(&app, &id)?;
    lock(&s)?.redo()?;
    view(&s, id)
}

#[derive(Deserialize)]
struct AgentRequest {
    /// An agent specification (`mcts`, `alphabeta:depth=3`, ...).
    agent: String,
    iterations: Option<u64>,
    time_ms: Option<u64>,
    seed: Option<u64>,
}

/// Asks an agent for a move at the session's position and plays it. The search runs on a
/// blocking thread without the session's lock; meanwhile the session is locked (changes are
/// refused with a 409) and can be stopped. The answer lands only if the search is still the
/// session's (not stopped), checked under the lock by the search's own thread, so a closed
/// connection cannot leave the session locked.
async fn agent_move(
    State(app): State<App>,
    UrlPath(id): UrlPath<String>,
    body: Result<Json<AgentRequest>, JsonRejection>,
) -> Answer {
    let Json(request) = body?;
    let (id, s) = session(&app, &id)?;
    let (spec, budget) = agent_of(&app.config, &request)?;
    let game = Arc::clone(lock(&s)?.game());
    // An agent that cannot play this game is a bad request (checked before the board locks).
    drop(spec.build(game.as_ref()).map_err(|e| bad(e.to_string()))?);
    let (state, (think, game)) = {
        let mut session = lock(&s)?;
        let think = session.start_thinking()?;
        (session.state().clone(), think)
    };
    let searching = Arc::clone(&s);
    let search = tokio::task::spawn_blocking(move || {
        // On the stoppable game: Stop ends the search at its next look at the game.
        let answer = spec.build(&game).map_err(|e| refuse(e.to_string())).and_then(|mut agent| {
            let decision = agent.select_move(&game, &state, &budget).map_err(|e| refuse(e.to_string()))?;
            Ok((agent.name(), decision.mv))
        });
        let mut session = lock(&searching)?;
        session.finish_thinking(think, answer).map_err(ApiError::from)
    });
    search
        .await
        .map_err(|_| ApiError(StatusCode::INTERNAL_SERVER_ERROR, "the agent's search failed".into()))??;
    view(&s, id)
}

/// The agent and budget a request asks for (the budget capped by the configuration).
fn agent_of(config: &Config, request: &AgentRequest) -> Result<(AgentSpec, Budget), ApiError> {
    let mut spec: AgentSpec = request.agent.parse().map_err(|e: rbg_agents::SpecError| bad(e.to_string()))?;
    if let Some(seed) = request.seed {
        spec.seed = seed;
    }
    let budget = agent_budget(config, &spec, request.iterations, request.time_ms)?;
    Ok((spec, budget))
}

/// Stops the agent searching for the session: the board is unlocked at once and the search's
/// move, when it comes, is dropped.
async fn stop_agent(State(app): State<App>, UrlPath(id): UrlPath<String>) -> Answer {
    let (id, s) = session(&app, &id)?;
    lock(&s)?.stop_thinking();
    view(&s, id)
}

/// How many of the root's moves the agent's view lists.
const ANALYSIS_MOVES: usize = 12;

/// The agent's view of the position shown: its search's root moves (visits and mean reward
/// for the player to move), most visited first; nothing is played.
async fn analyse(
    State(app): State<App>,
    UrlPath(id): UrlPath<String>,
    body: Result<Json<AgentRequest>, JsonRejection>,
) -> Answer {
    let Json(request) = body?;
    let (_, s) = session(&app, &id)?;
    let (spec, budget) = agent_of(&app.config, &request)?;
    let (game, state, version) = {
        let session = lock(&s)?;
        if session.mover().is_none() {
            return Err(ApiError::from(refuse("the game is over")));
        }
        (Arc::clone(session.game()), session.state().clone(), session.version)
    };
    let decision = tokio::task::spawn_blocking(move || {
        let mut agent = spec.build(game.as_ref()).map_err(|e| bad(e.to_string()))?;
        let decision = agent
            .select_move(game.as_ref(), &state, &budget)
            .map_err(|e| ApiError(StatusCode::UNPROCESSABLE_ENTITY, e.to_string()))?;
        Ok::<_, ApiError>((agent.name(), decision))
    })
    .await
    .map_err(|_| ApiError(StatusCode::INTERNAL_SERVER_ERROR, "the agent's search failed".into()))??;
    let (name, decision) = decision;
    let session = lock(&s)?;
    let info = session.game().info();
    let notation =
        |mv: &[Action]| rbg_core::notation::format_move(info, mv, rbg_core::notation::VertexStyle::Name);
    let moves: Vec<Value> = decision
        .stats
        .root
        .iter()
        .take(ANALYSIS_MOVES)
        .map(|r| json!({ "move": notation(&r.mv), "visits": r.visits, "value": r.value }))
        .collect();
    Ok(Json(json!({
        "agent": name,
        "version": version,
        "best": notation(&decision.mv),
        "value": decision.stats.value,
        "iterations": decision.stats.iterations,
        "moves": moves,
    })))
}

fn agent_budget(
    config: &Config,
    spec: &AgentSpec,
    iterations: Option<u64>,
    time_ms: Option<u64>,
) -> Result<Budget, ApiError> {
    let mut budget = spec.budget();
    if let Some(n) = iterations {
        if n == 0 || n > config.max_agent_iterations {
            return Err(bad(format!("iterations must be from 1 to {}", config.max_agent_iterations)));
        }
        budget.iterations = Some(n);
    }
    if let Some(ms) = time_ms {
        let time = Duration::from_millis(ms);
        if ms == 0 || time > config.max_agent_time {
            return Err(bad(format!("time_ms must be from 1 to {}", config.max_agent_time.as_millis())));
        }
        budget.time = Some(time);
    }
    // An agent with no limit at all gets a bounded default rather than running for ever.
    if budget.time.is_none() && budget.iterations.is_none() && budget.depth.is_none() {
        budget.time = Some(config.max_agent_time.min(Duration::from_secs(5)));
    }
    if budget.time.is_some_and(|t| t > config.max_agent_time) {
        budget.time = Some(config.max_agent_time);
    }
    Ok(budget)
}

/// The game so far in the format of `rbg play --log` (one object).
async fn log(State(app): State<App>, UrlPath(id): UrlPath<String>) -> Answer {
    let (_, s) = session(&app, &id)?;
    let log = lock(&s)?.log();
    let log = serde_json::to_value(log)
        .map_err(|e| ApiError(StatusCode::INTERNAL_SERVER_ERROR, format!("the log is not JSON: {e}")))?;
    Ok(Json(log))
}

#[derive(Deserialize)]
struct PerftRequest {
    depth: u32,
}

async fn start_perft(
    State(app): State<App>,
    UrlPath(id): UrlPath<String>,
    body: Result<Json<PerftRequest>, JsonRejection>,
) -> Answer {
    let Json(request) = body?;
    let max = app.config.max_perft_depth;
    if request.depth == 0 || request.depth > max {
        return Err(bad(format!("depth must be from 1 to {max}")));
    }
    let (_, s) = session(&app, &id)?;
    let (game, state) = {
        let session = lock(&s)?;
        (Arc::clone(session.game()), session.state().clone())
    };
    let job = register_job(&app, "perft")?;
    let (running, depth) = (Arc::clone(&job.1), request.depth);
    tokio::task::spawn_blocking(move || jobs::run_perft(&running, &game, &state, depth));
    Ok(Json(json!({ "job": job.0 })))
}

#[derive(Deserialize)]
struct McRequest {
    seconds: f64,
    seed: Option<u64>,
}

async fn start_mc(
    State(app): State<App>,
    UrlPath(id): UrlPath<String>,
    body: Result<Json<McRequest>, JsonRejection>,
) -> Answer {
    let Json(request) = body?;
    let max = app.config.max_mc_time.as_secs_f64();
    if !(request.seconds > 0.0 && request.seconds <= max) {
        return Err(bad(format!("seconds must be above 0 and at most {max}")));
    }
    let (_, s) = session(&app, &id)?;
    let (game, state) = {
        let session = lock(&s)?;
        if session.mover().is_none() {
            return Err(ApiError::from(refuse("the game is over")));
        }
        (Arc::clone(session.game()), session.state().clone())
    };
    let job = register_job(&app, "mc")?;
    let (running, seconds, seed) = (Arc::clone(&job.1), request.seconds, request.seed.unwrap_or(1));
    tokio::task::spawn_blocking(move || jobs::run_mc(&running, &game, &state, seconds, seed));
    Ok(Json(json!({ "job": job.0 })))
}

#[derive(Deserialize)]
struct GameAnalysisRequest {
    /// The agent of every seat (an agent specification); `mcts:iterations=100` by default.
    agent: Option<String>,
    games: u64,
    seed: Option<u64>,
    /// Moves before a game counts as unfinished; rbg-agents' default if none.
    max_moves: Option<u64>,
    /// Games of random against the agent (the strength test); the default if none, 0 for none.
    strength_games: Option<u64>,
}

/// The agent of an analysis; its budget must bound its work within the server's limits.
fn analysis_agent(config: &Config, text: Option<&str>) -> Result<AgentSpec, ApiError> {
    let text = text.unwrap_or(DEFAULT_ANALYSIS_AGENT);
    let spec: AgentSpec = text.parse().map_err(|e: rbg_agents::SpecError| bad(format!("agent: {e}")))?;
    let budget = spec.budget();
    if budget.iterations.is_some_and(|n| n > config.max_agent_iterations) {
        return Err(bad(format!("agent: at most {} iterations", config.max_agent_iterations)));
    }
    if budget.time.is_some_and(|t| t > config.max_agent_time) {
        return Err(bad(format!("agent: at most {} ms a move", config.max_agent_time.as_millis())));
    }
    Ok(spec)
}

/// The agent of an analysis when the request names none.
const DEFAULT_ANALYSIS_AGENT: &str = "mcts:iterations=100";

/// Starts the analysis of the session's game by self-play (rbg-metrics, as `rbg analyze`,
/// from the game's initial position) as a job on all cores, bounded in games and time.
async fn start_game_analysis(
    State(app): State<App>,
    UrlPath(id): UrlPath<String>,
    body: Result<Json<GameAnalysisRequest>, JsonRejection>,
) -> Answer {
    let Json(request) = body?;
    let max = app.config.max_analysis_games;
    if request.games == 0 || request.games > max {
        return Err(bad(format!("games must be from 1 to {max}")));
    }
    if request.strength_games.is_some_and(|n| n > max) {
        return Err(bad(format!("strength_games must be from 0 to {max}")));
    }
    let agent = analysis_agent(&app.config, request.agent.as_deref())?;
    let (_, s) = session(&app, &id)?;
    let game = Arc::clone(lock(&s)?.game());
    let mut config = AnalysisConfig::self_play(game.as_ref(), agent, request.games);
    config.seed = request.seed.unwrap_or(0);
    if let Some(moves) = request.max_moves {
        let most = config.limits.max_moves;
        if moves == 0 || moves > most {
            return Err(bad(format!("max_moves must be from 1 to {most}")));
        }
        config.limits.max_moves = moves;
    }
    if let (Some(test), Some(games)) = (config.strength.as_mut(), request.strength_games) {
        test.games = games;
    }
    // An agent that cannot play this game is a bad request, before any job starts.
    for spec in config.agents.iter().chain(config.strength.iter().map(|t| &t.weak)) {
        drop(spec.build(game.as_ref()).map_err(|e| bad(format!("agent: {e}")))?);
    }
    let job = register_job(&app, "analysis")?;
    let (running, limit) = (Arc::clone(&job.1), app.config.max_analysis_time);
    let timer = Arc::clone(&job.1);
    tokio::spawn(async move {
        tokio::time::sleep(limit).await;
        timer.expire(format!("stopped at the time limit of {} s", limit.as_secs()));
    });
    tokio::task::spawn_blocking(move || jobs::run_analysis(&running, &game, &config));
    Ok(Json(json!({ "job": job.0 })))
}

fn register_job(app: &App, kind: &str) -> Result<(u64, Arc<Job>), ApiError> {
    let job = Job::new(kind);
    let mut jobs = lock(&app.jobs)?;
    let id = jobs.next_id;
    jobs.next_id += 1;
    jobs.map.insert(id, Arc::clone(&job));
    jobs.order.push_back(id);
    while jobs.order.len() > MAX_JOBS {
        if let Some(old) = jobs.order.pop_front() {
            if let Some(dropped) = jobs.map.remove(&old) {
                dropped.cancel.store(true, Ordering::Relaxed);
            }
        }
    }
    Ok((id, job))
}

fn job(app: &App, id: &str) -> Result<Arc<Job>, ApiError> {
    let id: u64 = id.parse().map_err(|_| bad(format!("{id:?} is not a job id")))?;
    lock(&app.jobs)?.map.get(&id).cloned().ok_or_else(|| not_found(format!("no job {id}")))
}

async fn show_job(State(app): State<App>, UrlPath(id): UrlPath<String>) -> Answer {
    let job = job(&app, &id)?;
    Ok(Json(serde_json::to_value(job.snapshot()).unwrap_or(Value::Null)))
}

async fn cancel_job(State(app): State<App>, UrlPath(id): UrlPath<String>) -> Answer {
    let job = job(&app, &id)?;
    job.cancel.store(true, Ordering::Relaxed);
    Ok(Json(serde_json::to_value(job.snapshot()).unwrap_or(Value::Null)))
}
