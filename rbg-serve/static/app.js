// The page of `rbg serve`: everything it does goes through the JSON API (docs/serve-api.md).
"use strict";

let view = null;
let jobTimer = null;
// Whether the partial move holds only actions the page took itself because they were forced
// (the only action possible, e.g. chess's move counter before the piece is picked). Back then
// drops them together with the move before, or Back could never get past them.
let forcedOnly = false;

const $ = (id) => document.getElementById(id);

function say(text, isError) {
  const m = $("message");
  m.textContent = text || "";
  m.className = isError ? "error" : "";
}

async function api(method, path, body) {
  const options = { method, headers: {} };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  const response = await fetch(path, options);
  const data = await response.json().catch(() => ({ error: "bad answer from the server" }));
  if (!response.ok) throw new Error(data.error || response.statusText);
  return data;
}

async function loadGames() {
  const { games } = await api("GET", "/api/games");
  const select = $("games");
  select.innerHTML = "";
  for (const g of games) {
    const option = document.createElement("option");
    option.value = option.textContent = g;
    select.appendChild(option);
  }
  const wanted = new URLSearchParams(location.search).get("game");
  if (wanted && games.includes(wanted)) select.value = wanted;
}

async function newGame() {
  say("loading...");
  try {
    forcedOnly = false;
    await advance(await api("POST", "/api/sessions", { game: $("games").value }));
    say("");
  } catch (e) {
    say(e.message, true);
  }
}

function vertexName(v) {
  return view.vertices[v] ?? String(v);
}

// Takes forced actions at the start of a move without a click, then shows the position.
async function advance(v) {
  if (v.partial.length === 0) forcedOnly = false;
  while (!v.over && v.next.length === 1 && !v.next[0].ends_move && (v.partial.length === 0 || forcedOnly)) {
    v = await api("POST", `/api/sessions/${v.id}/step`, { index: v.next[0].index, vertex: v.next[0].vertex });
    forcedOnly = true;
  }
  show(v);
}

// The result of a finished game, from the scores: the single best player wins.
function resultText(v) {
  const best = Math.max(...v.scores);
  const winners = v.players.filter((_, i) => v.scores[i] === best);
  if (winners.length === 1) return `${winners[0]} wins`;
  return winners.length === v.players.length ? "a draw" : `${winners.join(" and ")} share the win`;
}

function show(v) {
  view = v;
  $("board").innerHTML = v.svg;
  const choices = new Map();
  for (const a of v.next) {
    if (!choices.has(a.vertex)) choices.set(a.vertex, []);
    choices.get(a.vertex).push(a);
  }
  for (const cell of document.querySelectorAll("#board .cell")) {
    const vertex = Number(cell.id.replace("cell-", ""));
    if (choices.has(vertex)) {
      cell.classList.add("choice");
      cell.addEventListener("click", () => choose(choices.get(vertex)));
    }
    if (v.partial.some((a) => a.vertex === vertex)) cell.classList.add("picked");
  }
  $("choices").innerHTML = "";
  const who = v.over ? "Game over" : `${v.to_move} to move`;
  $("result").textContent = v.over ? `Game over: ${resultText(v)}` : "";
  const scores = v.players.map((p, i) => `${p} ${v.scores[i]}`).join(", ");
  $("status").textContent = `${v.name}: ${who}. Scores: ${scores}.`;
  const partial = v.partial.map((a) => `${a.index}@${vertexName(a.vertex)}`).join(" ");
  $("partial").textContent = !partial ? "none" : forcedOnly ? `none yet (forced: ${partial})` : partial;
  const history = $("history");
  history.innerHTML = "";
  v.history.forEach((m, i) => {
    const li = document.createElement("li");
    li.textContent = m;
    if (i >= v.cursor) li.className = "future";
    history.appendChild(li);
  });
  $("log").href = `/api/sessions/${v.id}/log`;
}

// Clicking a cell: one action there is taken at once; several (e.g. a promotion) are offered as
// buttons. A single action left anywhere (forced) is taken without a click.
function choose(actions) {
  if (actions.length === 1) return step(actions[0]);
  const box = $("choices");
  box.innerHTML = "";
  for (const a of actions) {
    const b = document.createElement("button");
    b.textContent = `${a.index}@${vertexName(a.vertex)}${a.ends_move ? " (ends the move)" : ""}`;
    b.addEventListener("click", () => step(a));
    box.appendChild(b);
  }
}

async function step(action) {
  try {
    let v = await api("POST", `/api/sessions/${view.id}/step`, { index: action.index, vertex: action.vertex });
    forcedOnly = false;
    while (!v.over && v.partial.length > 0 && v.next.length === 1) {
      v = await api("POST", `/api/sessions/${v.id}/step`, { index: v.next[0].index, vertex: v.next[0].vertex });
    }
    say("");
    if (v.partial.length === 0 && !v.over && $("auto").checked) {
      show(v);
      await agentMove();
    } else {
      await advance(v);
    }
  } catch (e) {
    say(e.message, true);
  }
}

async function agentMove() {
  if (!view || view.over) return;
  say("the agent is thinking...");
  try {
    const iterations = Number($("iterations").value) || undefined;
    await advance(await api("POST", `/api/sessions/${view.id}/agent`, { agent: $("agent").value, iterations }));
    say("");
  } catch (e) {
    say(e.message, true);
  }
}

async function simple(what) {
  if (!view) return;
  try {
    let v = await api("POST", `/api/sessions/${view.id}/${what}`);
    if (what === "undo" && forcedOnly && view.partial.length > 0 && v.cursor > 0) {
      v = await api("POST", `/api/sessions/${view.id}/undo`);
    }
    if (what === "clear") {
      show(v);
    } else {
      await advance(v);
    }
    say("");
  } catch (e) {
    say(e.message, true);
  }
}

async function startJob(kind, body) {
  if (!view) return;
  try {
    const { job } = await api("POST", `/api/sessions/${view.id}/${kind}`, body);
    clearInterval(jobTimer);
    $("cancel").onclick = () => api("POST", `/api/jobs/${job}/cancel`).catch(() => {});
    jobTimer = setInterval(async () => {
      const p = await api("GET", `/api/jobs/${job}`).catch((e) => ({ done: true, error: e.message }));
      $("job").textContent = describeJob(p);
      if (p.done) clearInterval(jobTimer);
    }, 300);
  } catch (e) {
    say(e.message, true);
  }
}

function describeJob(p) {
  const lines = [];
  if (p.kind === "perft") {
    for (const r of p.perft || []) lines.push(`depth ${r.depth}: ${r.leaves} leaves, ${r.nodes} nodes, ${r.ms.toFixed(1)} ms`);
  } else if (p.kind === "mc") {
    lines.push(`${p.playouts} playouts in ${(p.seconds || 0).toFixed(1)} s (${(p.playouts_per_s || 0).toFixed(0)}/s)`);
    lines.push(`mean length ${(p.mean_length || 0).toFixed(1)}, mean scores ${(p.mean_scores || []).map((s) => s.toFixed(2)).join(", ")}`);
  }
  if (p.error) lines.push(`error: ${p.error}`);
  lines.push(p.done ? (p.cancelled ? "cancelled" : "done") : "running...");
  return lines.join("\n");
}

$("new").addEventListener("click", newGame);
$("agent-move").addEventListener("click", agentMove);
$("undo").addEventListener("click", () => simple("undo"));
$("redo").addEventListener("click", () => simple("redo"));
$("clear").addEventListener("click", () => simple("clear"));
$("perft").addEventListener("click", () => startJob("perft", { depth: Number($("depth").value) }));
$("mc").addEventListener("click", () => startJob("mc", { seconds: Number($("seconds").value) }));
loadGames().then(newGame).catch((e) => say(e.message, true));
