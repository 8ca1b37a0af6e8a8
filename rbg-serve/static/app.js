// The page of `rbg serve` (docs/studio.md): everything it does goes through the JSON API
// (docs/serve-api.md). A session is one game; `view` is the server's latest view of it.
//
// Playing: the view lists the legal moves, each with the vertices to click (`path`); a click
// narrows the moves to those whose path starts with the clicks so far, their next vertices
// light up, and a move is played once the clicks leave one (several left with the same path,
// such as a promotion's pieces, are offered as named pictures). A position with too many moves
// to list is played action by action from `next`.
//
// Answers that come late never land in another game: every answer is checked against the
// session it was asked for (`current`), and the server plays an agent's move only if that
// search is still the session's.

import { initEditor, openEditor, reopenEditor, editorOpen, restoreDraftFromAddress } from "/editor.js";

let view = null; // the view shown
let current = null; // the session id answers must belong to
let clicks = []; // the vertices clicked so far of the move being made
let forcedOnly = false; // step mode: the partial move holds only forced actions
let thinking = false; // an agent searches for this session
let paused = false; // the agent was stopped: it moves again when asked
let jobTimer = null;
let jobId = null;
let focusVertex = null;
let games = [];
let draft = null; // the edited text the session shown was made from ({ source, name }), if any

const $ = (id) => document.getElementById(id);

const LEVELS = {
  random: { agent: "random" },
  easy: { agent: "mcts", iterations: 300 },
  medium: { agent: "mcts", time_ms: 1000 },
  hard: { agent: "mcts", time_ms: 4000 },
};

function say(text, isError) {
  const m = $("message");
  m.textContent = text || "";
  m.className = isError ? "error" : "";
}

// Requests under way, on the body as `data-busy` (tests wait for 0).
let pending = 0;
function busy(change) {
  pending += change;
  document.body.dataset.busy = String(pending);
}

async function api(method, path, body) {
  busy(1);
  try {
    return await request(method, path, body);
  } finally {
    busy(-1);
  }
}

async function request(method, path, body) {
  const options = { method, headers: {} };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  const response = await fetch(path, options);
  const data = await response.json().catch(() => ({ error: "bad answer from the server" }));
  if (!response.ok) {
    const error = new Error(data.error || response.statusText);
    error.status = response.status;
    throw error;
  }
  return data;
}

// --- the game library ---------------------------------------------------------------------

async function loadGames() {
  ({ games } = await api("GET", "/api/games"));
  const list = $("library-list");
  list.innerHTML = "";
  for (const g of games) {
    const card = document.createElement("button");
    card.className = "game-card";
    card.dataset.game = g;
    const img = document.createElement("img");
    img.loading = "lazy";
    img.alt = "";
    img.src = `/api/thumbnail/${g.split("/").map(encodeURIComponent).join("/")}`;
    const name = document.createElement("span");
    name.textContent = g.replace(/\.(rbg|sbg)$/, "");
    card.append(img, name);
    card.addEventListener("click", () => {
      $("library").hidden = true;
      startGame({ game: g });
    });
    const edit = document.createElement("button");
    edit.className = "edit-card";
    edit.textContent = "Edit";
    edit.title = `Edit ${g}`;
    edit.addEventListener("click", () => {
      $("library").hidden = true;
      editFile(g);
    });
    const item = document.createElement("div");
    item.className = "game-item";
    item.append(card, edit);
    list.appendChild(item);
  }
}

// --- the engine badge -----------------------------------------------------------------------

let engineWatch = 0; // the newest watch of a build (older ones stop)

// The engine playing the session and how its compiled build comes along (the view's `engine`)
// beside the title: while the build runs (asked again every second), when the compiled engine
// plays, and when its build failed (why, on hover). Hidden when no build was started.
function showEngine(v) {
  const e = v.engine || { engine: "interpreter", build: "none" };
  const badge = $("engine-state");
  badge.hidden = e.build === "none";
  badge.className = e.build;
  badge.dataset.state = e.build;
  if (e.build === "building") {
    badge.textContent = `interpreter (compiled engine building: ${e.seconds} s)`;
    badge.title = "The compiled engine is built in the background; it takes over when ready, with the moves so far";
    watchEngine(v.id);
  } else if (e.build === "ready") {
    badge.textContent = "compiled engine";
    badge.title = "The compiled engine plays this game";
  } else if (e.build === "failed") {
    badge.textContent = "interpreter (the compiled build failed)";
    badge.title = e.message || "no build";
  }
}

function watchEngine(id) {
  const mine = ++engineWatch;
  setTimeout(async () => {
    if (mine !== engineWatch || id !== current) return;
    try {
      const v = await api("GET", `/api/sessions/${id}`);
      if (mine === engineWatch && id === current) showEngine(v);
    } catch {
      // The next view shown asks again.
    }
  }, 1000);
}

// --- sessions -----------------------------------------------------------------------------

// Opens a new session (a new game, one replayed from moves, or an edited text) and shows it.
async function startGame(request) {
  say("loading...");
  draft = request.source !== undefined ? { source: request.source, name: request.name } : null;
  clicks = [];
  paused = false;
  // The old session's agent stops searching (its answer would be dropped anyway).
  if (thinking && current !== null) api("POST", `/api/sessions/${current}/stop`).catch(() => {});
  current = null; // answers of the old session are dropped from now on
  setThinking(false);
  try {
    const v = await api("POST", "/api/sessions", request);
    current = v.id;
    fillSides(v);
    await advance(v);
    if (!$("analyze").hidden) openAnalyze(); // the analysis view shows the new game's
    say("");
    maybeAgent();
  } catch (e) {
    say(e.message, true);
  }
}

// Whether `v` answers for the session shown (a late answer for an old game does not).
const ours = (v) => v && v.id === current;

function fillSides(v) {
  const side = $("side");
  const wanted = new URLSearchParams(location.search).get("you");
  side.innerHTML = "";
  const options = [...v.players.map((p) => [p, p]), ["both", "both sides"], ["none", "neither (watch)"]];
  for (const [value, text] of options) {
    const o = document.createElement("option");
    o.value = value;
    o.textContent = text;
    side.appendChild(o);
  }
  side.value = options.some(([value]) => value === wanted) ? wanted : v.players[0];
  const level = new URLSearchParams(location.search).get("vs");
  if (level && LEVELS[level]) $("level").value = level;
}

// Whether the player named `p` is played from this page (not by the agent).
function human(p) {
  const side = $("side").value;
  return side === "both" || side === p;
}

// Whether the page's clicks may move for `p`: its own players, and any while the agent is
// stopped (the person moves for it).
const canPlay = (p) => human(p) || paused;

// Step mode: takes forced actions at the start of a move without a click, then shows.
async function advance(v) {
  if (v.partial.length === 0) forcedOnly = false;
  while (v.moves === null && !v.over && v.next.length === 1 && !v.next[0].ends_move && (v.partial.length === 0 || forcedOnly)) {
    v = await api("POST", `/api/sessions/${v.id}/step`, { index: v.next[0].index, vertex: v.next[0].vertex });
    forcedOnly = true;
  }
  if (ours(v)) show(v);
}

// --- drawing ------------------------------------------------------------------------------

const CHESS_NAMES = { "♔": "white king", "♕": "white queen", "♖": "white rook", "♗": "white bishop", "♘": "white knight", "♙": "white pawn",
  "♚": "black king", "♛": "black queen", "♜": "black rook", "♝": "black bishop", "♞": "black knight", "♟": "black pawn" };

// A piece's name as people read it: chess pieces by their names, others from the game's name
// for them with its words spaced.
function pieceName(p) {
  const look = view.looks[p];
  if (look && look.kind === "glyph" && CHESS_NAMES[look.text]) return CHESS_NAMES[look.text];
  const name = view.pieces[p] ?? String(p);
  return name.replace(/([a-z])([A-Z])/g, "$1 $2").replace(/_/g, " ");
}

// A small picture of piece `p` (its look in the board's picture).
function piecePicture(p) {
  const look = view.looks[p];
  const span = document.createElement("span");
  span.className = "piece-pic";
  if (!look || look.kind === "hidden") return span;
  if (look.kind === "glyph") {
    span.textContent = look.text;
    span.classList.add("glyph");
  } else {
    span.textContent = look.text;
    span.style.background = look.fill;
    span.style.color = look.ink;
    span.classList.add("disc");
  }
  return span;
}

function resultText(v) {
  if (!v.over) return "";
  const result = v.result || [];
  const humans = v.players.filter((p) => human(p));
  if (humans.length === 1) {
    const r = result[v.players.indexOf(humans[0])];
    return r === "win" ? "You won" : r === "loss" ? "You lost" : "Draw";
  }
  const winners = v.players.filter((_, i) => result[i] === "win");
  if (winners.length === 0) return "Draw";
  return winners.length === 1 ? `${winners[0]} wins` : `${winners.join(" and ")} win`;
}

function show(v) {
  view = v;
  $("title").textContent = draft ? `${v.name} (edited, not saved)` : v.name;
  $("title").dataset.game = v.game;
  showEngine(v);
  const board = $("board");
  board.innerHTML = v.svg;
  const svg = board.querySelector("svg");
  if (svg) {
    svg.removeAttribute("width");
    svg.removeAttribute("height");
    svg.setAttribute("role", "group");
  }
  if (clicks.length === 0) clicks = chosenAlready(v);
  markBoard();
  markCheck(v);
  $("status").textContent = v.over ? "Game over:" : thinking ? `${v.to_move} is thinking...` : `${v.to_move} to move`;
  $("status").classList.toggle("in-check", !v.over && (v.check || []).length > 0);
  $("result").textContent = resultText(v);
  $("result").className = v.over ? "final" : "";
  showPlayers(v);
  showHistory(v);
  $("log").href = `/api/sessions/${v.id}/log`;
  $("agent-move").disabled = v.over || thinking;
  updateUrl(v);
  showSavedStudy();
}

function showPlayers(v) {
  const list = $("players");
  list.innerHTML = "";
  const level = $("level").selectedOptions[0]?.textContent || "agent";
  v.players.forEach((p, i) => {
    const li = document.createElement("li");
    const toMove = !v.over && v.to_move === p;
    li.className = toMove ? "to-move" : "";
    li.textContent = `${p} — ${human(p) ? "you" : `agent (${level})`}`;
    if (v.over) li.textContent += ` · ${v.result ? v.result[i] : ""} (${v.scores[i]})`;
    list.appendChild(li);
  });
}

function showHistory(v) {
  const history = $("history");
  history.innerHTML = "";
  const full = $("full").checked;
  // One row per round, numbered where the first player starts a turn (1. e2-e4 e7-e5; in a
  // split game, where it moves twice in a row, at the first of the two).
  history.style.gridTemplateColumns = `repeat(${Math.max(1, Math.min(v.players.length, 4))}, 1fr)`;
  let round = 0;
  v.history.forEach((m, i) => {
    const li = document.createElement("li");
    if (i === 0 || (v.movers[i] === 1 && v.movers[i - 1] !== 1)) {
      round += 1;
      li.classList.add("opens");
      const number = document.createElement("span");
      number.className = "n";
      number.textContent = `${round}. `;
      li.appendChild(number);
    }
    const text = document.createElement("span");
    text.className = "m";
    text.textContent = full ? m : v.notation[i];
    li.appendChild(text);
    li.title = m;
    if (i >= v.cursor) li.classList.add("future");
    if (i === v.cursor - 1) li.classList.add("current");
    history.appendChild(li);
  });
  history.querySelector(".current")?.scrollIntoView({ block: "nearest" });
}

// The second half of a split move (the same player moves again, and every move starts on one
// vertex, the piece just chosen, games/chessSplit.rbg): that vertex comes selected.
function chosenAlready(v) {
  const moves = v.moves || [];
  const again = !v.over && canPlay(v.to_move) && v.cursor > 0 && v.movers[v.cursor - 1] === v.players.indexOf(v.to_move) + 1;
  const starts = new Set(moves.map((m) => m.path[0]));
  const selectable = moves.length > 0 && moves.every((m) => m.path.length > 1);
  return again && selectable && starts.size === 1 ? [...starts] : [];
}

// The moves whose click path starts with `clicks`.
function candidates(sequence) {
  return (view.moves || []).filter((m) => m.path.length >= sequence.length && sequence.every((v, i) => m.path[i] === v));
}

// Marks the cells: what can be clicked now, what is selected, what is threatened; labels for
// keyboard and screen readers.
function markBoard() {
  const v = view;
  const locked = thinking || v.over || !canPlay(v.to_move);
  const cells = document.querySelectorAll("#board .cell");
  const targets = new Set();
  const starts = new Set();
  if (!locked && v.moves) {
    for (const m of candidates(clicks)) if (m.path.length > clicks.length) targets.add(m.path[clicks.length]);
    for (const m of v.moves) if (m.path.length > 0) starts.add(m.path[0]);
  } else if (!locked) {
    for (const a of v.next) targets.add(a.vertex);
  }
  const threats = new Set(v.threats || []);
  for (const cell of cells) {
    const vertex = Number(cell.id.replace("cell-", ""));
    const piece = v.board[vertex];
    const look = v.looks[piece];
    const what = look && look.kind !== "hidden" ? pieceName(piece) : "empty";
    let label = `${v.labels[vertex] ?? vertex}, ${what}`;
    const clickable = targets.has(vertex) || (clicks.length > 0 && starts.has(vertex)) || (clicks.length === 0 && starts.has(vertex));
    cell.classList.toggle("target", targets.has(vertex) && clicks.length > 0);
    cell.classList.toggle("movable", clicks.length === 0 && targets.has(vertex));
    cell.classList.toggle("selected", clicks.includes(vertex));
    cell.classList.toggle("threat", threats.has(vertex) && !v.over);
    cell.classList.toggle("locked", locked);
    if (threats.has(vertex)) label += ", can be taken";
    if ((v.check || []).includes(vertex)) label += ", in check";
    if (targets.has(vertex) && clicks.length > 0) label += ", target";
    cell.setAttribute("aria-label", label);
    cell.setAttribute("role", "button");
    cell.setAttribute("tabindex", clickable ? "0" : "-1");
  }
  showChoices();
  if (focusVertex !== null) {
    const again = document.getElementById(`cell-${focusVertex}`);
    if (again && again.getAttribute("tabindex") === "0") again.focus();
  }
}

// Check: a red ring over each royal piece of the player to move that the opponent could take
// (the server finds them, docs/studio.md).
function markCheck(v) {
  const svg = document.querySelector("#board svg");
  if (!svg || v.over) return;
  for (const vertex of v.check || []) {
    const cell = document.getElementById(`cell-${vertex}`);
    if (!cell) continue;
    const box = cell.getBBox();
    const r = 0.46 * Math.min(box.width, box.height);
    const ring = document.createElementNS("http://www.w3.org/2000/svg", "circle");
    ring.setAttribute("class", "check-ring");
    ring.setAttribute("cx", box.x + box.width / 2);
    ring.setAttribute("cy", box.y + box.height / 2);
    ring.setAttribute("r", r);
    ring.setAttribute("stroke-width", Math.max(2, r * 0.14));
    ring.dataset.vertex = v.vertices[vertex];
    svg.appendChild(ring);
  }
}

// The buttons under the board: moves with no vertex to click (a pass), and the moves left
// when the clicks name several (a promotion's pieces), each with its picture and name.
function showChoices() {
  const box = $("choices");
  box.innerHTML = "";
  if (!view || view.over || thinking || !canPlay(view.to_move) || !view.moves) return;
  const add = (m) => {
    const b = document.createElement("button");
    b.className = "choice";
    if (m.piece !== null && m.piece !== undefined && m.path.length > 0) {
      b.append(piecePicture(m.piece), document.createTextNode(` ${pieceName(m.piece)} `));
    }
    const code = document.createElement("code");
    code.textContent = m.text;
    b.append(code);
    b.addEventListener("click", () => playMove(m));
    box.appendChild(b);
  };
  const left = candidates(clicks);
  const complete = left.filter((m) => m.path.length === clicks.length);
  if (clicks.length > 0 && complete.length > 0) {
    const title = document.createElement("span");
    title.textContent = complete.length > 1 ? "Choose: " : "Or: ";
    box.appendChild(title);
    complete.forEach(add);
  }
  const silent = view.moves.filter((m) => m.path.length === 0);
  if (clicks.length === 0 && silent.length > 0) silent.forEach(add);
}

// --- playing ------------------------------------------------------------------------------

function clickVertex(vertex) {
  if (!view || thinking || view.over || !canPlay(view.to_move)) return;
  focusVertex = vertex;
  if (!view.moves) return stepAt(vertex);
  const extended = [...clicks, vertex];
  if (clicks.length > 0 && candidates(extended).length > 0) {
    clicks = extended;
  } else if (candidates([vertex]).length > 0) {
    clicks = [vertex]; // a new selection (another piece of one's own)
  } else {
    clicks = []; // a click elsewhere drops the selection
    markBoard();
    return;
  }
  const left = candidates(clicks);
  const complete = left.filter((m) => m.path.length === clicks.length);
  const same = left.every((m) => m.actions === left[0].actions);
  if (left.length > 0 && same && (clicks.length >= Math.min(2, left[0].path.length))) return playMove(left[0]);
  if (complete.length === left.length && complete.length > 1) return markBoard(); // choose below
  markBoard();
}

function dropSelection() {
  clicks = [];
  if (view) markBoard();
}

async function playMove(m) {
  clicks = [];
  const id = current;
  const mover = view.to_move;
  try {
    const v = await api("POST", `/api/sessions/${id}/move`, { move: m.actions });
    if (!ours(v)) return;
    if (human(mover)) paused = false; // the person's own move: the agent answers again
    say("");
    show(v);
    maybeAgent();
  } catch (e) {
    if (id === current) say(e.message, true);
  }
}

// Step mode: a click on a vertex takes its action (several: offered as buttons).
async function stepAt(vertex) {
  const actions = view.next.filter((a) => a.vertex === vertex);
  if (actions.length === 0) return;
  if (actions.length === 1) return step(actions[0]);
  const box = $("choices");
  box.innerHTML = "";
  for (const a of actions) {
    const b = document.createElement("button");
    b.textContent = `${view.labels[a.vertex]} (${a.index})${a.ends_move ? ", ends the move" : ""}`;
    b.addEventListener("click", () => step(a));
    box.appendChild(b);
  }
}

async function step(action) {
  const id = current;
  try {
    let v = await api("POST", `/api/sessions/${id}/step`, { index: action.index, vertex: action.vertex });
    forcedOnly = false;
    while (ours(v) && !v.over && v.partial.length > 0 && v.next.length === 1) {
      v = await api("POST", `/api/sessions/${v.id}/step`, { index: v.next[0].index, vertex: v.next[0].vertex });
    }
    if (!ours(v)) return;
    say("");
    const moved = v.partial.length === 0;
    await advance(v);
    if (moved) maybeAgent();
  } catch (e) {
    if (id === current) say(e.message, true);
  }
}

function setThinking(on) {
  thinking = on;
  $("stop").disabled = !on;
  $("agent-move").disabled = on || !view || view.over;
  document.body.classList.toggle("thinking", on);
}

// The agent moves if the player to move is not played from this page.
function maybeAgent() {
  if (!view || view.over || thinking || paused || human(view.to_move)) return;
  if (view.cursor < view.history.length) return; // stepping through history: no reply
  agentMove();
}

async function agentMove() {
  if (!view || view.over || thinking) return;
  const id = current;
  const request = { ...LEVELS[$("level").value] };
  setThinking(true);
  paused = false;
  markBoard();
  $("status").textContent = `${view.to_move} is thinking...`;
  try {
    const v = await api("POST", `/api/sessions/${id}/agent`, request);
    if (!ours(v)) return; // a new game started meanwhile
    setThinking(false);
    show(v);
    maybeAgent();
  } catch (e) {
    if (id !== current) return;
    setThinking(false);
    if (e.status === 409 && paused) return; // stopped: its move is dropped
    say(e.message, true);
    refresh();
  }
}

// A tab closed or left during an agent's search stops the search (it would run to its budget).
window.addEventListener("pagehide", () => {
  if (thinking && current !== null) navigator.sendBeacon(`/api/sessions/${current}/stop`);
});

async function stopAgent() {
  if (!thinking || current === null) return;
  paused = true;
  const id = current;
  try {
    const v = await api("POST", `/api/sessions/${id}/stop`);
    if (!ours(v)) return;
    setThinking(false);
    show(v);
    say("The agent was stopped. Move for it, or press “Agent moves now”.");
  } catch (e) {
    say(e.message, true);
  }
}

async function refresh() {
  if (current === null) return;
  const id = current;
  const v = await api("GET", `/api/sessions/${id}`).catch(() => null);
  if (ours(v)) show(v);
}

async function simple(what) {
  if (!view || thinking) return;
  const id = current;
  clicks = [];
  try {
    let v = await api("POST", `/api/sessions/${id}/${what}`);
    if (what === "undo" && forcedOnly && view.partial.length > 0 && v.cursor > 0) {
      v = await api("POST", `/api/sessions/${id}/undo`);
    }
    if (!ours(v)) return;
    await advance(v);
    say("");
  } catch (e) {
    if (id === current) say(e.status === 422 ? "" : e.message, e.status !== 422);
  }
}

async function jump(toEnd) {
  if (!view || thinking) return;
  const target = toEnd ? view.history.length : 0;
  let guard = view.history.length + 1;
  while (view && view.cursor !== target && guard-- > 0) {
    const before = view.cursor;
    await simple(toEnd ? "redo" : "undo");
    if (view.cursor === before) break;
  }
}

// --- links, import, export ----------------------------------------------------------------

function updateUrl(v) {
  if (draft) return; // an edited text has no address: the address keeps the file it came from
  const params = new URLSearchParams();
  params.set("game", v.game);
  // A move of a position with too many moves to number is not in the address: it then holds
  // the game alone (the log keeps the moves).
  if (v.ordinals.length > 0 && v.ordinals.every((n) => n !== null)) {
    params.set("m", v.ordinals.join("."));
    if (v.cursor < v.history.length) params.set("at", String(v.cursor));
  }
  params.set("you", $("side").value);
  params.set("vs", $("level").value);
  const url = `${location.pathname}?${params}`;
  if (url !== location.pathname + location.search) history.replaceState(null, "", url);
}

function gameFromUrl() {
  const params = new URLSearchParams(location.search);
  const game = params.get("game");
  if (!game) return null;
  const request = { game };
  const m = params.get("m");
  if (m) request.ordinals = m.split(".").filter((x) => x !== "").map(Number);
  const at = params.get("at");
  if (at !== null && !Number.isNaN(Number(at))) request.cursor = Number(at);
  return request;
}

async function importLog(file) {
  try {
    const log = JSON.parse(await file.text());
    if (!Array.isArray(log.moves)) throw new Error("not a game log: no list of moves");
    const game = log.file && games.includes(log.file) ? log.file : view?.game;
    if (!game) throw new Error("the log names no game of this directory");
    await startGame({ game, moves: log.moves });
  } catch (e) {
    say(`import: ${e.message}`, true);
  }
}

// --- study: perft, Monte Carlo, the agent's view -------------------------------------------

// Results are kept per game and position (in the browser's storage).
function positionKey() {
  return view ? `rbg-study|${draft ? "draft:" : ""}${view.game}|${view.ordinals.slice(0, view.cursor).join(".")}` : "";
}

function showSavedStudy() {
  if (jobTimer) return;
  const saved = localStorage.getItem(positionKey());
  $("job").textContent = saved || "";
  $("analysis").innerHTML = "";
}

async function startJob(kind, body) {
  if (!view) return;
  try {
    const key = positionKey();
    const { job } = await api("POST", `/api/sessions/${current}/${kind}`, body);
    clearInterval(jobTimer);
    jobId = job;
    $("cancel").disabled = false;
    jobTimer = setInterval(async () => {
      const p = await api("GET", `/api/jobs/${job}`).catch((e) => ({ done: true, error: e.message }));
      if (job !== jobId) return;
      const text = describeJob(p);
      $("job").textContent = text;
      if (p.done) {
        clearInterval(jobTimer);
        jobTimer = null;
        $("cancel").disabled = true;
        if (!p.error) localStorage.setItem(key, text);
      }
    }, 200);
  } catch (e) {
    say(e.message, true);
  }
}

function cancelJob() {
  if (jobId !== null) api("POST", `/api/jobs/${jobId}/cancel`).catch(() => {});
}

function describeJob(p) {
  const lines = [];
  if (p.kind === "perft") {
    for (const r of p.perft || []) lines.push(`depth ${r.depth}: ${r.leaves} leaves, ${r.nodes} nodes, ${r.ms.toFixed(1)} ms`);
  } else if (p.kind === "mc") {
    lines.push(`${p.playouts} playouts in ${(p.seconds || 0).toFixed(1)} s (${(p.playouts_per_s || 0).toFixed(0)}/s)`);
    const means = (p.mean_scores || []).map((s, i) => `${view.players[i]} ${s.toFixed(2)}`).join(", ");
    lines.push(`mean length ${(p.mean_length || 0).toFixed(1)}; mean scores ${means}`);
  }
  if (p.error) lines.push(`error: ${p.error}`);
  lines.push(p.done ? (p.cancelled ? "cancelled" : "done") : "running...");
  return lines.join("\n");
}

async function analyse() {
  if (!view || view.over) return;
  const id = current;
  const version = view.version;
  $("analysis").innerHTML = "<tr><td>thinking...</td></tr>";
  try {
    const a = await api("POST", `/api/sessions/${id}/analyse`, { agent: "mcts", time_ms: 1000 });
    if (id !== current || version !== view.version) return;
    const texts = new Map((view.moves || []).map((m) => [m.actions, m.text]));
    const table = $("analysis");
    table.innerHTML = "<tr><th>move</th><th>visits</th><th>value</th></tr>";
    for (const m of a.moves) {
      const tr = document.createElement("tr");
      for (const cell of [texts.get(m.move) || m.move, String(m.visits), m.value === null ? "" : `${(100 * m.value).toFixed(0)}%`]) {
        const td = document.createElement("td");
        td.textContent = cell;
        tr.appendChild(td);
      }
      table.appendChild(tr);
    }
  } catch (e) {
    $("analysis").innerHTML = "";
    say(e.message, true);
  }
}

// --- the game analysis: self-play measures of the game (rbg-metrics) -----------------------

let analysisJob = null;
let analysisTimer = null;
const analyses = new Map(); // the last finished analysis of each game (file), while the page lives

function openAnalyze() {
  if (!view) return;
  if (editorOpen()) $("editor-close").click();
  $("analyze").hidden = false;
  document.body.classList.add("analyzing");
  $("analyze-title").textContent = `Analysis of ${view.name}`;
  if (!analysisTimer) showAnalysis(analyses.get(analysisKey()));
}

function closeAnalyze() {
  $("analyze").hidden = true;
  document.body.classList.remove("analyzing");
}

const analysisKey = () => (view ? `${draft ? "draft:" : ""}${view.game}` : "");

async function runAnalysis() {
  if (!view) return;
  const key = analysisKey();
  const body = { agent: $("analyze-agent").value, games: Number($("analyze-games").value) };
  try {
    const { job } = await api("POST", `/api/sessions/${current}/game-analysis`, body);
    clearInterval(analysisTimer);
    analysisJob = job;
    $("analyze-cancel").disabled = false;
    $("analyze-run").disabled = true;
    showAnalysis(null);
    analysisProgress({ stage: null, stage_done: 0, stage_total: 0 });
    analysisTimer = setInterval(() => pollAnalysis(job, key), 250);
  } catch (e) {
    analysisStatus(e.message, true);
  }
}

async function pollAnalysis(job, key) {
  const p = await api("GET", `/api/jobs/${job}`).catch((e) => ({ done: true, error: e.message }));
  if (job !== analysisJob) return;
  analysisProgress(p);
  if (!p.done) return;
  clearInterval(analysisTimer);
  analysisTimer = null;
  $("analyze-cancel").disabled = true;
  $("analyze-run").disabled = false;
  if (p.analysis) {
    analyses.set(key, p.analysis);
    if (key === analysisKey()) showAnalysis(p.analysis);
  }
}

const STAGES = { "self-play": "self-play games", samples: "value estimates of sample positions", strength: "random against the agent" };

function analysisProgress(p) {
  const bar = $("analyze-progress");
  bar.max = Math.max(1, p.stage_total || 0);
  bar.value = p.done ? bar.max : p.stage_done || 0;
  let text;
  if (p.error) text = `error: ${p.error}`;
  else if (p.cancelled) text = "cancelled";
  else if (p.done) text = `done in ${(p.seconds || 0).toFixed(p.seconds < 1 ? 2 : 1)} s`;
  else if (p.stage) text = `${STAGES[p.stage] || p.stage}: ${p.stage_done} of ${p.stage_total}`;
  else text = "starting...";
  analysisStatus(text, Boolean(p.error));
}

function analysisStatus(text, isError) {
  $("analyze-status").textContent = text;
  $("analyze-status").className = isError ? "error" : "";
}

// The measures as a table and the report's charts (SVG made by the server).
function showAnalysis(a) {
  $("analyze-results").hidden = !a;
  const table = $("analyze-table");
  table.innerHTML = "";
  $("analyze-charts").innerHTML = "";
  $("analyze-notes").innerHTML = "";
  if (!a) return;
  const head = document.createElement("tr");
  for (const h of ["measure", "value", "95% interval", "n"]) {
    const th = document.createElement("th");
    th.textContent = h;
    head.appendChild(th);
  }
  table.appendChild(head);
  for (const row of a.rows) {
    const tr = document.createElement("tr");
    const interval = row.low !== null && row.high !== null ? `${row.low.toFixed(3)} – ${row.high.toFixed(3)}` : "";
    const cells = [[row.measure, ""], [row.value.toFixed(3), "number"], [interval, "number"], [row.n ?? "", "number"]];
    for (const [text, cls] of cells) {
      const td = document.createElement("td");
      td.textContent = String(text);
      td.className = cls;
      tr.appendChild(td);
    }
    table.appendChild(tr);
  }
  for (const note of [...(a.analysis.measures.notes || []), a.analysis.samples_note].filter(Boolean)) {
    const p = document.createElement("p");
    p.textContent = note;
    $("analyze-notes").appendChild(p);
  }
  $("analyze-charts").innerHTML = a.charts;
}

function cancelAnalysis() {
  if (analysisJob !== null) api("POST", `/api/jobs/${analysisJob}/cancel`).catch(() => {});
}

// --- wiring -------------------------------------------------------------------------------

const board = $("board");
board.addEventListener("click", (e) => {
  const cell = e.target.closest(".cell");
  if (cell) clickVertex(Number(cell.id.replace("cell-", "")));
  else dropSelection();
});
board.addEventListener("keydown", (e) => {
  const cell = e.target.closest?.(".cell");
  if (cell && (e.key === "Enter" || e.key === " ")) {
    e.preventDefault();
    clickVertex(Number(cell.id.replace("cell-", "")));
  }
});
document.addEventListener("keydown", (e) => {
  if (e.target.matches?.("input, select, textarea") || e.target.closest?.(".cm-editor") || editorOpen() || !$("analyze").hidden) return;
  if (e.key === "Escape") dropSelection();
  else if (e.key === "ArrowLeft") simple("undo");
  else if (e.key === "ArrowRight") simple("redo");
  else if (e.key === "Home") jump(false);
  else if (e.key === "End") jump(true);
  else return;
  e.preventDefault();
});
$("new").addEventListener("click", () => view && startGame(draft ?? { game: view.game }));
$("edit").addEventListener("click", () => {
  closeAnalyze();
  if (draft && reopenEditor()) return;
  if (view) editFile(view.game);
  else openTemplate();
});
$("open-library").addEventListener("click", () => ($("library").hidden = false));
$("close-library").addEventListener("click", () => ($("library").hidden = true));
$("agent-move").addEventListener("click", () => agentMove());
$("stop").addEventListener("click", stopAgent);
$("side").addEventListener("change", () => {
  if (!view) return;
  paused = false;
  show(view);
  maybeAgent();
});
$("level").addEventListener("change", () => view && show(view));
$("undo").addEventListener("click", () => simple("undo"));
$("redo").addEventListener("click", () => simple("redo"));
$("first").addEventListener("click", () => jump(false));
$("last").addEventListener("click", () => jump(true));
$("full").addEventListener("change", () => view && showHistory(view));
$("import").addEventListener("change", (e) => e.target.files[0] && importLog(e.target.files[0]));
$("share").addEventListener("click", () => {
  navigator.clipboard?.writeText(location.href).then(() => say("Link copied."), () => say(location.href));
});
$("perft").addEventListener("click", () => startJob("perft", { depth: Number($("depth").value) }));
$("mc").addEventListener("click", () => startJob("mc", { seconds: Number($("seconds").value) }));
$("cancel").addEventListener("click", cancelJob);
$("analyse").addEventListener("click", analyse);
$("open-analyze").addEventListener("click", openAnalyze);
$("analyze-close").addEventListener("click", closeAnalyze);
$("analyze-run").addEventListener("click", runAnalysis);
$("analyze-cancel").addEventListener("click", cancelAnalysis);

// --- editing (editor.js) -------------------------------------------------------------------

// Opens a game file of the directory in the editor.
async function editFile(game) {
  try {
    const { name, text } = await api("GET", `/api/files/${game.split("/").map(encodeURIComponent).join("/")}`);
    openEditor(name, text);
  } catch (e) {
    say(e.message, true);
  }
}

async function openTemplate() {
  const { name, text } = await api("GET", "/api/template");
  openEditor(name, text);
}

initEditor({
  api,
  say,
  play: (source, name, compile) => startGame({ source, name, compile }),
  reloadLibrary: () => loadGames().catch((e) => say(e.message, true)),
});

loadGames()
  .then(async () => {
    if (await restoreDraftFromAddress()) return;
    const request = gameFromUrl();
    if (request) return startGame(request);
    $("library").hidden = false;
  })
  .catch((e) => say(e.message, true));
