// The page's editor (docs/studio.md, "Editing games"): a game's text in CodeMirror 6 (the
// bundle in /vendor/codemirror.js, built by rbg-serve/editor-bundle/build.sh) with RBG
// highlighting, the server's diagnostics inline (POST /api/check: rbg-ide, what `rbg check`
// and `rbg lsp` say, with quick fixes), the initial position beside it while the text is valid
// (POST /api/preview), playing the text at once (a session from the text, saved nowhere) and
// saving it into the games directory only when Save is pressed (POST /api/files).
//
// The draft's link: the page's address carries the text being edited (`#draft=`: the text
// compressed with deflate-raw, in base64url; `&name=` its name), rewritten as one types, so a
// reload or the link sent to someone opens the editor on the same text. Nothing is stored on
// the server.
//
// The engine of a draft: the interpreter answers at once; with "compiled" chosen, the server
// builds the compiled engine in the background and switches the session to it when it is
// ready (POST /api/sessions with `compile`); the state of the build is shown beside the title
// by app.js, from the session's view (as for every game the server builds).
//
// The page's state lives in app.js; it hands this module what it needs (`hooks`).

import {
  EditorState, EditorView, keymap, lineNumbers, highlightActiveLine, drawSelection,
  defaultKeymap, history, historyKeymap, indentWithTab,
  StreamLanguage, syntaxHighlighting, defaultHighlightStyle, bracketMatching,
  linter, lintGutter,
} from "/vendor/codemirror.js";

const $ = (id) => document.getElementById(id);

// RBG's tokens for highlighting: `//` comments, `#name` definitions, `->player` and `->>`
// switches, `$` (variables and assignments), `{` `}` `[` `]` and the checks `{?` `{!` `{$`,
// numbers, names, and the rest as operators.
const rbgTokens = {
  name: "rbg",
  token(stream) {
    if (stream.eatSpace()) return null;
    if (stream.match("//")) {
      stream.skipToEnd();
      return "comment";
    }
    if (stream.match(/^#[A-Za-z_][A-Za-z0-9_]*/)) return "keyword";
    if (stream.match("->>")) return "atom";
    if (stream.match(/^->[A-Za-z_][A-Za-z0-9_]*/)) return "typeName";
    if (stream.match(/^\{[?!$]/)) return "meta";
    if (stream.match(/^[{}[\]]/)) return "bracket";
    if (stream.eat("$")) return "meta";
    if (stream.match(/^[0-9]+/)) return "number";
    if (stream.match(/^[A-Za-z_][A-Za-z0-9_]*/)) return "variableName";
    stream.next();
    return "operator";
  },
  languageData: { commentTokens: { line: "//" } },
};

let hooks = null; // from app.js: { api, play(source, name, compile), reloadLibrary, say }
let editor = null; // the EditorView
let checks = 0; // checks answered, on #editor as data-checks (tests wait for it)
let addressBefore = null; // the page's address when the editor opened (Close gives it back)

// Opens the editor on `text`, read and saved as `name`.
export function openEditor(name, text) {
  if (!editorOpen()) addressBefore = location.hash.includes(`${LINK_KEY}=`) ? null : location.pathname + location.search;
  $("editor-name").value = name;
  if (!editor) create(text);
  else editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: text } });
  show(true);
  editor.focus();
}

// Shows the editor again with its text as it was (the game being played came from it).
export function reopenEditor() {
  if (!editor) return false;
  show(true);
  return true;
}

export function editorOpen() {
  return document.body.classList.contains("editing");
}

function show(on) {
  document.body.classList.toggle("editing", on);
  $("editor").hidden = !on;
}

function create(text) {
  editor = new EditorView({
    parent: $("editor-text"),
    state: EditorState.create({
      doc: text,
      extensions: [
        lineNumbers(),
        history(),
        drawSelection(),
        highlightActiveLine(),
        bracketMatching(),
        StreamLanguage.define(rbgTokens),
        syntaxHighlighting(defaultHighlightStyle),
        lintGutter(),
        linter(check, { delay: 300 }),
        keymap.of([...defaultKeymap, ...historyKeymap, indentWithTab]),
        EditorView.lineWrapping,
      ],
    }),
  });
}

const text = () => editor.state.doc.toString();
const name = () => $("editor-name").value.trim() || "draft.rbg";

// The linter: the server's diagnostics as CodeMirror's, quick fixes as their actions; a valid
// text also redraws the preview.
async function check(view) {
  const source = view.state.doc.toString();
  rememberInAddress(source, name());
  let answer;
  try {
    answer = await hooks.api("POST", "/api/check", { text: source, name: name() });
  } catch (e) {
    setStatus(e.message, true);
    return [];
  }
  // Typed meanwhile: this answer is for an old text (CodeMirror checks the new one next).
  if (view.state.doc.toString() !== source) return [];
  const length = view.state.doc.length;
  const clamp = (n) => Math.max(0, Math.min(n, length));
  const found = answer.diagnostics.map((d) => ({
    from: clamp(d.range.from),
    to: clamp(d.range.to),
    severity: d.severity,
    message: d.message,
    actions: d.fixes.map((f) => ({
      name: f.title,
      apply(v) {
        v.dispatch({ changes: f.edits.map((e) => ({ from: clamp(e.range.from), to: clamp(e.range.to), insert: e.text })) });
      },
    })),
  }));
  showProblems(answer.diagnostics);
  if (answer.valid) {
    setStatus("valid", false);
    await preview(source);
  } else {
    setStatus(`${answer.errors} error${answer.errors === 1 ? "" : "s"}: the board shows the last valid text`, true);
    $("editor-preview").classList.add("stale");
  }
  $("editor").dataset.valid = String(answer.valid);
  $("editor").dataset.checks = String(++checks);
  return found;
}

async function preview(source) {
  try {
    const p = await hooks.api("POST", "/api/preview", { text: source, name: name() });
    if (source !== text()) return; // typed meanwhile: the next check draws it
    const box = $("editor-preview");
    box.innerHTML = p.svg;
    box.querySelector("svg")?.removeAttribute("width");
    box.querySelector("svg")?.removeAttribute("height");
    box.classList.remove("stale");
    box.dataset.vertices = String(p.vertices);
    setStatus(`valid: ${p.players.join(" vs ")}, ${p.vertices} vertices`, false);
  } catch (e) {
    setStatus(e.message, true);
    $("editor-preview").classList.add("stale");
  }
}

// The list under the preview: each problem with its line, a click goes there.
function showProblems(diagnostics) {
  const list = $("editor-problems");
  list.innerHTML = "";
  for (const d of diagnostics.slice(0, 20)) {
    const li = document.createElement("li");
    li.className = d.severity;
    li.textContent = `${d.range.line}:${d.range.col} ${d.message.split("\n")[0]}`;
    li.addEventListener("click", () => {
      const at = Math.min(d.range.from, editor.state.doc.length);
      editor.dispatch({ selection: { anchor: at }, scrollIntoView: true });
      editor.focus();
    });
    list.appendChild(li);
  }
}

function setStatus(message, isError) {
  const s = $("editor-status");
  s.textContent = message;
  s.className = isError ? "error" : "ok";
}

async function save() {
  try {
    const overwrite = $("editor-overwrite").checked;
    const { saved } = await hooks.api("POST", "/api/files", { name: name(), text: text(), overwrite });
    setStatus(`saved as ${saved}`, false);
    $("editor-overwrite").checked = false;
    hooks.reloadLibrary();
  } catch (e) {
    const hint = e.status === 409 ? " (tick “replace” to overwrite it)" : "";
    setStatus(`not saved: ${e.message}${hint}`, true);
  }
}

async function newFromTemplate() {
  try {
    const t = await hooks.api("GET", "/api/template");
    openEditor(t.name, t.text);
  } catch (e) {
    hooks.say(e.message, true);
  }
}

// --- the draft's link -------------------------------------------------------------------

const LINK_KEY = "draft";
// The longest address fragment written (Chromium takes 2 MB addresses; other browsers less).
const MAX_LINK = 1 << 20;
let linkWritten = 0; // texts written into the address, on #editor as data-links (tests wait for it)

async function squeeze(bytes, stream) {
  return new Uint8Array(await new Response(new Blob([bytes]).stream().pipeThrough(stream)).arrayBuffer());
}

function toBase64Url(bytes) {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

function fromBase64Url(text) {
  const binary = atob(text.replaceAll("-", "+").replaceAll("_", "/"));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

// Writes the text into the address (replacing the entry: typing makes no history).
async function rememberInAddress(source, fileName) {
  try {
    const packed = toBase64Url(await squeeze(new TextEncoder().encode(source), new CompressionStream("deflate-raw")));
    if (source !== text()) return; // typed meanwhile: the next check writes the newer text
    const params = new URLSearchParams({ [LINK_KEY]: packed, name: fileName });
    const fragment = `#${params}`;
    if (fragment.length > MAX_LINK) {
      window.history.replaceState(null, "", location.pathname);
      return;
    }
    window.history.replaceState(null, "", `${location.pathname}${fragment}`); // (`history` is CodeMirror's)
    $("editor").dataset.links = String(++linkWritten);
  } catch {
    // A browser without CompressionStream keeps the address as it was.
  }
}

// Opens the editor on the draft the address carries, if it carries one; says so when it
// cannot be read. Returns whether the editor was opened.
export async function restoreDraftFromAddress() {
  const params = new URLSearchParams(location.hash.slice(1));
  const packed = params.get(LINK_KEY);
  if (!packed) return false;
  try {
    const bytes = await squeeze(fromBase64Url(packed), new DecompressionStream("deflate-raw"));
    const source = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    openEditor(params.get("name") || "draft.rbg", source);
    return true;
  } catch {
    hooks.say("The draft in this link cannot be read (cut short?).", true);
    return false;
  }
}

async function copyLink() {
  await rememberInAddress(text(), name());
  try {
    await navigator.clipboard.writeText(location.href);
    setStatus("link to this draft copied", false);
  } catch {
    setStatus(`the link to this draft is the page's address`, false);
  }
}

// The controls this module adds to the editor's bar: the link and the engine of Play.
function addControls() {
  const link = document.createElement("button");
  link.id = "editor-link";
  link.textContent = "Copy link";
  link.title = "A link that opens the editor on this text (the text is in the link itself)";
  link.addEventListener("click", copyLink);
  $("editor-save").before(link);
  const engine = document.createElement("select");
  engine.id = "editor-engine";
  engine.title = "The engine that plays this text: the compiled one is built in the background (a minute or more), the interpreter plays meanwhile";
  for (const value of ["interpreter", "compiled"]) engine.add(new Option(value, value));
  const label = document.createElement("label");
  label.append("Engine ", engine);
  $("editor-play").before(label);
}

export function initEditor(given) {
  hooks = given;
  $("editor-close").addEventListener("click", () => {
    show(false);
    // The game shown is not the draft: the address is about that game again.
    if (addressBefore !== null) window.history.replaceState(null, "", addressBefore);
  });
  addControls();
  $("editor-play").addEventListener("click", () => {
    show(false);
    const compile = $("editor-engine").value === "compiled";
    hooks.play(text(), name(), compile);
  });
  $("editor-save").addEventListener("click", save);
  $("editor-new").addEventListener("click", newFromTemplate);
  $("library-new").addEventListener("click", () => {
    $("library").hidden = true;
    newFromTemplate();
  });
}
