// Drives the page of `rbg serve` in headless Chromium, as a person would: by clicks (and a few
// keys) only.
//
//   node page.mjs http://127.0.0.1:PORT OUT_DIR
//
// The server must serve the games of games/ and chess.rbg (the corpus's; paperSoccer.rbg too,
// if there). Steps:
//  1. tic-tac-toe against the random agent: we play cross with a perfect-play search of our own
//     (below, independent of the server) and click its cells until a game ends with "You won"
//     (a drawn game starts a new one; at most 10 games);
//  2. chess: the selection (a click lights the pawn's targets, Escape drops it, a click on
//     another pawn switches), e2-e4 by clicks with its notation, Back by the arrow key, a move
//     by the keyboard, the URL keeping the game over a reload, export and import of the log;
//  3. the board locked while the agent thinks, Stop, and "New game" during a search (the old
//     game's late answer must not come back);
//  4. a promotion in chessGardner reached by a link, chosen by its picture and name; chess with
//     split moves (chessSplit) played by clicks, a piece chosen and then moved; paper soccer
//     (when served) played by a click on the point the ball goes to;
//  5. every game of the directory opens and a legal move is made by clicks; on each board no two
//     clickable sites are closer than 24 px (games known to fail until the layout branch lands
//     are reported, not failed);
//  6. the editor: a new game from the template, an error typed, marked and fixed by its quick
//     fix; the preview redrawn for a new rule; the edited text played by clicks at once
//     (editorCase); the draft's link restoring the text over a reload and in another tab
//     (draftLink);
//  7. the studio's check, Stop and Analyze (studioCase): a chess king in check wears a red ring
//     (1. e4 f6 2. Qh5+, by hand), a quiet position none; Stop ends a 4-second search at once;
//     the Analyze view measures tic-tac-toe by self-play with progress, a table and charts, and
//     a long analysis is cancelled;
//  8. screenshots at 1280x800 and 600 px wide.
// Screenshots go to OUT_DIR. Exits 0 on success; otherwise prints what failed and exits 1.
import { chromium } from "playwright-core";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const [base, outDir] = process.argv.slice(2);
if (!base || !outDir) {
  console.error("usage: node page.mjs URL OUT_DIR");
  process.exit(2);
}
mkdirSync(outDir, { recursive: true });
const failures = [];
const started = Date.now();

// Boards whose overlapping sites are only reported, not failed (rbg-render's own test checks
// every board of the corpus and games/ at the default size). STRICT_LAYOUT=1 fails on these as
// well. None today. Cells marked `passive` (paper soccer's line squares, drawn as its lines and
// never clicked: its moves are clicked at the points) are not sites.
const KNOWN_OVERLAPS = new Set([]);
if (process.env.STRICT_LAYOUT) KNOWN_OVERLAPS.clear();

// --- tic-tac-toe -------------------------------------------------------------------------------

const LINES = [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]];

function winner(b) {
  for (const [x, y, z] of LINES) if (b[x] && b[x] === b[y] && b[y] === b[z]) return b[x];
  return null;
}

// Negamax over the 3x3 board (cells "x", "o" or null), preferring quicker wins: [value, cell].
function best(b, me, other) {
  let top = [-2, -1];
  for (let c = 0; c < 9; c++) {
    if (b[c]) continue;
    b[c] = me;
    let value;
    if (winner(b) === me) value = 1;
    else if (b.every((x) => x)) value = 0;
    else value = -best(b, other, me)[0] * 0.9;
    b[c] = null;
    if (value > top[0]) top = [value, c];
  }
  return top;
}

// The board as drawn: cell i of the 3x3 grid is the vertex rx{i%3}y{floor(i/3)}.
async function readBoard(page) {
  const pieces = await page.$$eval("#board .piece", (gs) => gs.map((g) => [g.dataset.vertex, g.dataset.piece]));
  const b = Array(9).fill(null);
  for (const [vertex, piece] of pieces) {
    const m = /^rx(\d)y(\d)$/.exec(vertex);
    if (!m) throw new Error(`unexpected vertex name ${vertex}`);
    b[Number(m[2]) * 3 + Number(m[1])] = piece;
  }
  return b;
}

const resultText = (page) => page.textContent("#result");
const historyLength = (page) => page.$$eval("#history li:not(.future)", (l) => l.length);

async function ticTacToe(page) {
  await page.goto(`${base}/?game=ticTacToe.rbg&you=cross&vs=random`);
  await page.waitForSelector("#board .cell.movable");
  for (let game = 0; game < 10; game++) {
    if (game > 0) {
      await page.click("#new");
      await page.waitForFunction(() => document.querySelectorAll("#board .piece").length === 0);
      await page.waitForSelector("#board .cell.movable");
    }
    while (!(await resultText(page))) {
      const board = await readBoard(page);
      const placed = board.filter((x) => x).length;
      const [, cell] = best(board, "X", "O");
      await page.click(`#board [data-vertex="rx${cell % 3}y${Math.floor(cell / 3)}"].cell`);
      // Our cross, then the agent's nought unless the game ended.
      await page.waitForFunction(
        (n) => document.getElementById("result").textContent !== "" || (document.querySelectorAll("#board .piece").length >= n + 2 && document.querySelector("#board .cell.movable")),
        placed,
      );
    }
    const result = await resultText(page);
    const board = await readBoard(page);
    if (result === "You won") {
      if (winner(board) !== "X") failures.push(`the page says we won, but the drawn board is ${JSON.stringify(board)}`);
      await page.screenshot({ path: join(outDir, "tic-tac-toe-won.png") });
      return;
    }
    if (result !== "Draw" || winner(board) !== null) {
      failures.push(`tic-tac-toe game ${game}: result "${result}" with the board ${JSON.stringify(board)}`);
      return;
    }
  }
  failures.push("no tic-tac-toe game won against random in 10 games");
}

// --- chess -------------------------------------------------------------------------------------

const cell = (vertex) => `#board [data-vertex="${vertex}"].cell`;
const pieceAt = (page, vertex) =>
  page.$eval(`#board`, (b, v) => b.querySelector(`.piece[data-vertex="${v}"]`)?.dataset.piece ?? null, vertex);
const hasClass = (page, vertex, c) => page.$eval(cell(vertex), (e, c) => e.classList.contains(c), c);

async function chess(page) {
  // e2 is the vertex rx4y6 (y counts from the top), e4 is rx4y4, d2 rx3y6, d4 rx3y4.
  await page.goto(`${base}/?game=chess.rbg&you=both`);
  await page.waitForSelector(`${cell("rx4y6")}.movable`);
  const pawn = await pieceAt(page, "rx4y6");
  await page.click(cell("rx4y6"));
  if (!(await hasClass(page, "rx4y4", "target"))) failures.push("clicking e2 does not light e4");
  if (!(await hasClass(page, "rx4y6", "selected"))) failures.push("clicking e2 does not select it");
  await page.keyboard.press("Escape");
  if (await page.$("#board .cell.selected")) failures.push("Escape does not drop the selection");
  // Switching: e2, then d2 (another own pawn) selects d2 with its own targets.
  await page.click(cell("rx4y6"));
  await page.click(cell("rx3y6"));
  if (!(await hasClass(page, "rx3y4", "target")) || (await hasClass(page, "rx4y4", "target"))) {
    failures.push("clicking d2 while e2 is selected does not switch the selection");
  }
  // A click on an empty square that is no target drops the selection.
  await page.click(cell("rx0y3"));
  if (await page.$("#board .cell.selected")) failures.push("a click elsewhere does not drop the selection");
  await page.click(cell("rx4y6"));
  await page.screenshot({ path: join(outDir, "chess-selected-1280.png") });
  await page.click(cell("rx4y4"));
  await page.waitForFunction(() => document.querySelectorAll("#history li").length === 1);
  const after = [await pieceAt(page, "rx4y6"), await pieceAt(page, "rx4y4")];
  if (!pawn || after[0] !== null || after[1] !== pawn) {
    failures.push(`after e2-e4 the page shows e2=${after[0]} e4=${after[1]} (the pawn was ${pawn})`);
  }
  const notation = await page.textContent("#history li .m");
  if (notation !== "e2-e4") failures.push(`e2-e4 is written "${notation}"`);
  const status = await page.textContent("#status");
  if (!status.includes("black to move")) failures.push(`after e2-e4 the status is "${status}"`);
  // Black answers by the keyboard: e7 (rx4y1) to e5 (rx4y3), each focused and Enter.
  await page.focus(cell("rx4y1"));
  await page.keyboard.press("Enter");
  await page.focus(cell("rx4y3"));
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => document.querySelectorAll("#history li").length === 2);
  // The URL keeps the game: a reload shows both moves.
  await page.reload();
  await page.waitForFunction(() => document.querySelectorAll("#history li").length === 2);
  if ((await pieceAt(page, "rx4y3")) === null) failures.push("after a reload e5 is empty");
  // Back by the arrow key: one move undone (it can be redone).
  await page.keyboard.press("ArrowLeft");
  await page.waitForFunction(() => document.querySelectorAll("#history li.future").length === 1);
  const back = [await pieceAt(page, "rx4y1"), await pieceAt(page, "rx4y3")];
  if (back[0] === null || back[1] !== null) failures.push(`after Back the page shows e7=${back[0]} e5=${back[1]}`);
  await page.keyboard.press("ArrowRight");
  await page.waitForFunction(() => document.querySelectorAll("#history li.future").length === 0);
  // Export, then import the log into a new game.
  const log = await page.evaluate(async () => (await fetch(document.getElementById("log").href)).text());
  await page.click("#new");
  await page.waitForFunction(() => document.querySelectorAll("#history li").length === 0);
  await page.setInputFiles("#import", { name: "log.json", mimeType: "application/json", buffer: Buffer.from(log) });
  await page.waitForFunction(() => document.querySelectorAll("#history li").length === 2);
  const message = await page.$eval("#message", (m) => (m.className === "error" ? m.textContent : ""));
  if (message) failures.push(`the page shows an error: ${message}`);
}

// --- the agent: lock, stop, stale replies ---------------------------------------------------------

async function agentCases(page) {
  // White is ours; black is the medium agent (1 s). While it thinks, the board is locked.
  await page.goto(`${base}/?game=chess.rbg&you=white&vs=medium`);
  await page.waitForSelector(`${cell("rx4y6")}.movable`);
  await page.click(cell("rx4y6"));
  await page.click(cell("rx4y4"));
  await page.waitForFunction(() => document.body.classList.contains("thinking"));
  await page.click(cell("rx4y1")); // a black pawn: must not move for the agent
  await page.click(cell("rx4y3"));
  if ((await pieceAt(page, "rx4y3")) !== null || (await historyLength(page)) !== 1) failures.push("a click during the agent's search moved");
  if (!(await hasClass(page, "rx4y1", "locked"))) failures.push("the board is not marked locked while the agent thinks");
  await page.screenshot({ path: join(outDir, "chess-thinking-1280.png") });
  await page.click("#stop");
  await page.waitForFunction(() => !document.body.classList.contains("thinking"));
  // After Stop the board is open and black's move is ours to make; the agent's late move
  // must never land (its search ends within its 1 s budget).
  await page.click(cell("rx3y1"));
  await page.click(cell("rx3y3"));
  await page.waitForFunction(() => document.querySelectorAll("#history li").length === 2);
  // "New game" during a search: the old game never comes back.
  await page.click(cell("rx6y7")); // Ng1-f3 (g1 = rx6y7, f3 = rx5y5)
  await page.click(cell("rx5y5"));
  await page.waitForFunction(() => document.body.classList.contains("thinking"));
  await page.click("#new");
  await page.waitForFunction(() => document.querySelectorAll("#history li").length === 0 && !document.body.classList.contains("thinking"));
  await page.waitForTimeout(1300); // the old search (1 s) has answered by now
  const moves = await page.$$eval("#history li", (l) => l.length);
  if (moves !== 0) failures.push(`a late agent answer came back into the new game (${moves} moves shown)`);
  if ((await pieceAt(page, "rx4y6")) === null) failures.push("the new game's e2 pawn is missing after the old search ended");
}

// --- promotion --------------------------------------------------------------------------------

async function promotion(page) {
  // From the start of chessGardner, the moves numbered 5, 3, 2, 2 put a white pawn on b4 that
  // can promote on b5, a5 or c5 (found once with the API; move order is the engine's,
  // the same on every engine). b4 is rx1y1, b5 is rx1y0 (y from the top of the 5x5 board).
  await page.goto(`${base}/?game=chessGardner.rbg&m=5.3.2.2&you=both`);
  await page.waitForFunction(() => document.querySelectorAll("#history li").length === 4);
  await page.click(cell("rx1y1"));
  await page.click(cell("rx1y0"));
  await page.waitForSelector("#choices button.choice");
  const choices = await page.$$eval("#choices button.choice", (bs) => bs.map((b) => b.textContent.trim()));
  const queen = choices.findIndex((c) => /queen/i.test(c));
  if (choices.length !== 4 || queen < 0) failures.push(`the promotion offers ${JSON.stringify(choices)}`);
  const pictures = await page.$$eval("#choices .piece-pic", (p) => p.filter((x) => x.textContent).length);
  if (pictures !== choices.length) failures.push(`${pictures} pictures for ${choices.length} promotion choices`);
  await page.screenshot({ path: join(outDir, "promotion-1280.png") });
  await page.click(`#choices button.choice >> nth=${queen}`);
  await page.waitForFunction(() => document.querySelectorAll("#history li").length === 5);
  const piece = await pieceAt(page, "rx1y0");
  const text = await page.textContent("#history li:nth-of-type(5) .m");
  if (piece !== "wQ" || text !== "b4-b5=Q") failures.push(`after the promotion b5 holds ${piece}, written "${text}"`);
}

// --- a split game -----------------------------------------------------------------------------

// Chess with split moves (games/chessSplit.rbg): a click on e2 is the first half of the move
// (written "e2", nothing to choose among buttons), and the pawn comes selected with its targets
// lit; a click on e4 completes it ("e2-e4", no promotion mark for the pawn that is now
// capturable en passant). Black answers g8, then Ng8-f6; the rounds are numbered once a turn.
async function splitChess(page) {
  await page.goto(`${base}/?game=chessSplit.rbg&you=both`);
  await page.waitForSelector(`${cell("rx4y6")}.movable`);
  const movable = await page.$$eval("#board .cell.movable", (cs) => cs.length);
  if (movable !== 10) failures.push(`chessSplit: ${movable} pieces to choose at the start, not 10`);
  if ((await page.$$("#choices button")).length > 0) failures.push("chessSplit: the choice of a piece is offered as buttons");
  await page.click(cell("rx4y6"));
  await page.waitForFunction(() => document.querySelectorAll("#history li").length === 1);
  if (!(await hasClass(page, "rx4y6", "selected"))) failures.push("chessSplit: the chosen pawn is not selected");
  if (!(await hasClass(page, "rx4y4", "target")) || !(await hasClass(page, "rx4y5", "target"))) {
    failures.push("chessSplit: e3 and e4 are not lit after choosing e2");
  }
  await page.screenshot({ path: join(outDir, "chess-split-chosen-1280.png") });
  await page.click(cell("rx4y4"));
  await page.waitForFunction(() => document.querySelectorAll("#history li").length === 2);
  await page.click(cell("rx6y0"));
  await page.waitForFunction(() => document.querySelectorAll("#history li").length === 3);
  await page.click(cell("rx5y2"));
  await page.waitForFunction(() => document.querySelectorAll("#history li").length === 4);
  const texts = await page.$$eval("#history li .m", (ms) => ms.map((m) => m.textContent));
  const numbers = await page.$$eval("#history li .n", (ns) => ns.map((n) => n.textContent.trim()));
  if (JSON.stringify(texts) !== JSON.stringify(["e2", "e2-e4", "Ng8", "Ng8-f6"])) failures.push(`chessSplit history ${JSON.stringify(texts)}`);
  if (JSON.stringify(numbers) !== JSON.stringify(["1."])) failures.push(`chessSplit rounds numbered ${JSON.stringify(numbers)}`);
  if ((await pieceAt(page, "rx5y2")) !== "bN") failures.push(`chessSplit: f6 holds ${await pieceAt(page, "rx5y2")} after Ng8-f6`);
  await page.screenshot({ path: join(outDir, "chess-split-1280.png") });
}

// --- paper soccer -----------------------------------------------------------------------------

// Paper soccer (the corpus's, when the directory has it) is played by clicking the point the
// ball goes to: at the start the ball is on the centre spot rx15y18 (points every 3rd square of
// the 31 x 37 board) and the 8 points around it light up; a click on the one to its right
// (rx18y18) makes the move.
async function paperSoccer(page) {
  const { games } = await (await fetch(`${base}/api/games`)).json();
  if (!games.includes("paperSoccer.rbg")) return;
  await page.goto(`${base}/?game=paperSoccer.rbg&you=both`);
  await page.waitForSelector("#board .cell.movable");
  const movable = (await page.$$eval("#board .cell.movable", (cs) => cs.map((c) => c.dataset.vertex))).sort();
  const around = [];
  for (const x of [12, 15, 18]) for (const y of [15, 18, 21]) if (x !== 15 || y !== 18) around.push(`rx${x}y${y}`);
  around.sort();
  if (JSON.stringify(movable) !== JSON.stringify(around)) failures.push(`paper soccer offers ${movable.join(" ")}, not the 8 points around the centre`);
  await page.click(cell("rx18y18"));
  try {
    await page.waitForFunction(() => document.querySelectorAll("#history li").length === 1, null, { timeout: 5000 });
  } catch {
    failures.push(`paper soccer: a click on the point rx18y18 made no move (${await page.textContent("#message")})`);
  }
  await page.screenshot({ path: join(outDir, "paper-soccer-1280.png") });
}

// --- every game -------------------------------------------------------------------------------

// Clickable sites closer than 24 px (centre to centre), and sites whose centre another site
// covers (a click there lands on the neighbour), on the board shown.
async function overlaps(page) {
  return page.$$eval("#board .cell:not(.passive)", (cells) => {
    const centres = cells.map((c) => {
      const r = c.getBoundingClientRect();
      return [r.x + r.width / 2, r.y + r.height / 2, c.dataset.vertex];
    });
    let close = 0;
    let example = "";
    for (let i = 0; i < centres.length; i++) {
      for (let j = i + 1; j < centres.length; j++) {
        if (Math.hypot(centres[i][0] - centres[j][0], centres[i][1] - centres[j][1]) < 24) {
          close++;
          if (!example) example = `${centres[i][2]} and ${centres[j][2]}`;
        }
      }
    }
    const covered = cells.filter((c, i) => {
      const [x, y] = centres[i];
      const top = document.elementFromPoint(x, y)?.closest?.(".cell:not(.passive)");
      return top && top !== c;
    }).length;
    return { close, covered, example };
  });
}

async function everyGame(page) {
  const { games } = await (await fetch(`${base}/api/games`)).json();
  const overlapping = [];
  await page.goto(`${base}/?game=ticTacToe.rbg&you=both`);
  await page.waitForSelector("#board .cell.movable");
  const times = [];
  for (const game of games) {
    const t = Date.now();
    // Each game from the library, as a person opens it.
    await page.click("#open-library");
    await page.click(`.game-card[data-game="${game}"]`);
    try {
      await page.waitForFunction((g) => document.getElementById("title").dataset.game === g && document.querySelector("#board svg") && document.querySelectorAll("#history li").length === 0, game, { timeout: 15000 });
    } catch {
      failures.push(`${game}: the board did not appear (${await page.textContent("#message")})`);
      continue;
    }
    const { close, covered, example } = await overlaps(page);
    if (close > 0 || covered > 0) {
      const known = KNOWN_OVERLAPS.has(game) ? " [known]" : "";
      overlapping.push(`${game}: ${close} pairs closer than 24 px${example ? ` (e.g. ${example})` : ""}, ${covered} sites covered${known}`);
      if (!known) failures.push(`${game}: ${close} pairs of sites closer than 24 px, ${covered} sites whose centre a neighbour covers`);
    }
    // One legal move by clicks: the first movable site, then the first target, until the
    // history grows (or a choice is offered: its first button).
    let clicks = 0;
    while ((await page.$$eval("#history li", (l) => l.length)) === 0 && clicks < 8) {
      const choice = await page.$("#choices button");
      if (choice) {
        await choice.click();
      } else {
        const next = (await page.$("#board .cell.target")) || (await page.$("#board .cell.movable"));
        if (!next) break;
        // Sites of a board known to overlap may be covered by a neighbour: the click goes to
        // the site itself.
        if (KNOWN_OVERLAPS.has(game)) await next.dispatchEvent("click");
        else await next.click();
      }
      clicks++;
      await page.waitForFunction(() => document.body.dataset.busy === "0");
    }
    try {
      await page.waitForFunction(() => document.querySelectorAll("#history li").length === 1, null, { timeout: 5000 });
    } catch {
      failures.push(`${game}: no move made by ${clicks} clicks (${await page.textContent("#message")})`);
    }
    times.push([game, Date.now() - t]);
  }
  times.sort((a, b) => b[1] - a[1]);
  console.log(`slowest games: ${times.slice(0, 5).map(([g, ms]) => `${g} ${ms} ms`).join(", ")}`);
  console.log(`boards whose sites overlap: ${overlapping.length ? `\n  ${overlapping.join("\n  ")}` : "none"}`);
  writeFileSync(join(outDir, "overlaps.txt"), overlapping.join("\n") + "\n");
  return games.length;
}

// --- the editor ---------------------------------------------------------------------------------

// A new game from the template: an error typed is marked (in the text, the gutter and the
// list), its quick fix (offered on the underline) makes the text valid again; a fourth column typed in redraws the preview
// (9 cells, then 12); "Play this version" starts a session from the text (saved nowhere) and a
// stone is placed by a click on the new column; "Edit" brings the text back.
async function editorCase(page) {
  const template = (await (await fetch(`${base}/api/template`)).json()).text;
  await page.goto(`${base}/`);
  await page.selectOption("#level", "random");
  await page.click("#library-new");
  await page.waitForSelector("#editor:not([hidden]) .cm-content");
  await page.waitForSelector('#editor-preview[data-vertices="9"]');
  await page.click("#editor-text .cm-content");
  await page.keyboard.press("Control+End");
  const typo = " [emty]";
  await page.keyboard.type(typo);
  await page.waitForSelector('#editor[data-valid="false"] .cm-lintRange-error');
  const problems = await page.textContent("#editor-problems");
  if (!/emty/.test(problems)) failures.push(`the list of problems says "${problems}"`);
  if (!(await page.$(".cm-lint-marker-error"))) failures.push("the error has no mark in the gutter");
  if (!(await page.$("#editor-preview.stale"))) failures.push("an invalid text does not dim the preview");
  await page.screenshot({ path: join(outDir, "editor-error-1280.png") });
  // Fixed by its quick fix (the declared name nearest to it), offered on the underline.
  await page.hover(".cm-lintRange-error");
  const fix = await page.waitForSelector(".cm-tooltip-lint .cm-diagnosticAction");
  const fixTitle = await fix.textContent();
  if (!/empty/.test(fixTitle)) failures.push(`the quick fix is "${fixTitle}"`);
  await fix.click();
  await page.waitForSelector('#editor[data-valid="true"]');
  await page.waitForFunction(() => !document.querySelector(".cm-lintRange-error"));
  const fixed = await page.textContent("#editor-text .cm-content");
  if (!fixed.includes("[empty]")) failures.push("the quick fix did not write [empty]");
  // The new rule: a fourth column (the whole text replaced, as a paste would).
  const wider = template.replaceAll("[empty, empty, empty]", "[empty, empty, empty, empty]");
  await page.click("#editor-text .cm-content");
  await page.keyboard.press("Control+a");
  await page.keyboard.insertText(wider);
  await page.waitForSelector('#editor-preview[data-vertices="12"]:not(.stale)');
  await page.screenshot({ path: join(outDir, "editor-1280.png") });
  await page.click("#editor-play");
  await page.waitForSelector("#board #cell-11.movable");
  const title = await page.textContent("#title");
  if (!/edited, not saved/.test(title)) failures.push(`a session from the editor is titled "${title}"`);
  const vertex = await page.$eval("#board #cell-11", (c) => c.dataset.vertex);
  await page.click("#board #cell-11");
  await page.waitForFunction(() => document.querySelectorAll("#history li").length >= 1);
  if ((await pieceAt(page, vertex)) === null) failures.push(`the click on the new column (${vertex}) placed no stone`);
  await page.screenshot({ path: join(outDir, "editor-played-1280.png") });
  await page.click("#edit");
  await page.waitForSelector("#editor:not([hidden])");
  const kept = await page.textContent("#editor-text .cm-content");
  if (!kept.includes("[empty, empty, empty, empty]")) failures.push("Edit does not bring back the edited text");
  await page.click("#editor-close");
  await draftLink(page, wider);
}

// The draft's link: the address carries the edited text, so a reload, or the address opened
// in another tab, shows the editor on that text (with its preview).
async function draftLink(page, wider) {
  await page.goto(`${base}/`);
  await page.click("#library-new");
  await page.waitForSelector('#editor-preview[data-vertices="9"]');
  await page.click("#editor-text .cm-content");
  await page.keyboard.press("Control+a");
  await page.keyboard.insertText(wider);
  await page.waitForSelector('#editor-preview[data-vertices="12"]:not(.stale)');
  await page.waitForFunction(() => Number(document.getElementById("editor").dataset.links) >= 2);
  const link = page.url();
  if (!/#draft=[A-Za-z0-9_-]+&name=/.test(link)) failures.push(`the address of a draft is ${link}`);
  const other = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  other.on("pageerror", (e) => failures.push(`page error: ${e.message}`));
  for (const [what, tab] of [["a reload", page], ["another tab", other]]) {
    if (tab === page) await page.reload();
    else await tab.goto(link);
    await tab.waitForSelector('#editor:not([hidden]) #editor-preview[data-vertices="12"]:not(.stale)');
    const restored = await tab.textContent("#editor-text .cm-content");
    if (!restored.includes("[empty, empty, empty, empty]")) failures.push(`${what} of the draft's link does not bring back its text`);
    if (tab !== page) {
      await tab.screenshot({ path: join(outDir, "editor-link-1280.png") });
      await tab.close();
    }
  }
  await page.click("#editor-close");
}

// --- the studio: check, Stop, Analyze ----------------------------------------------------------

const checkRings = (page) => page.$$eval("#board .check-ring", (rs) => rs.map((r) => r.dataset.vertex));

async function studioCase(page) {
  // Check, in the corpus's chess (check is a rule there): 1. e2-e4 f7-f6 2. Qd1-h5 attacks the
  // black king on e8 along h5-g6-f7-e8 (f7 emptied by 1... f6). Vertices: rx{file}y{row from
  // the top}: e2 rx4y6, e4 rx4y4, f7 rx5y1, f6 rx5y2, d1 rx3y7, h5 rx7y3, e8 rx4y0.
  await page.goto(`${base}/?game=chess.rbg&you=both`);
  await page.waitForSelector(`${cell("rx4y6")}.movable`);
  for (const [from, to, n] of [["rx4y6", "rx4y4", 1], ["rx5y1", "rx5y2", 2]]) {
    await page.click(cell(from));
    await page.click(cell(to));
    await page.waitForFunction((n) => document.querySelectorAll("#history li").length === n, n);
  }
  let rings = await checkRings(page);
  if (rings.length) failures.push(`a quiet position shows check on ${rings}`);
  await page.click(cell("rx3y7"));
  await page.click(cell("rx7y3"));
  await page.waitForFunction(() => document.querySelectorAll("#history li").length === 3);
  rings = await checkRings(page);
  if (JSON.stringify(rings) !== JSON.stringify(["rx4y0"])) failures.push(`after Qh5+ the check rings are on ${JSON.stringify(rings)}, not e8`);
  const checking = await page.textContent("#history li:nth-of-type(3)");
  if (checking !== "2. Qd1-h5+") failures.push(`the checking move is listed as "${checking}", not "2. Qd1-h5+"`);
  const status = await page.textContent("#status");
  const inCheck = await page.$eval("#status", (s) => s.classList.contains("in-check"));
  if (!inCheck) failures.push(`the status does not say check ("${status}")`);
  const label = await page.getAttribute(cell("rx4y0"), "aria-label");
  if (!/in check/.test(label)) failures.push(`the king's label is "${label}"`);
  await page.screenshot({ path: join(outDir, "check-1280.png") });
  // Stop: black is the hard agent (4 s a move); Stop ends its search at once, so its request
  // (answered when the search ends) is over well before its time is up.
  await page.goto(`${base}/?game=chess.rbg&you=white&vs=hard`);
  await page.waitForSelector(`${cell("rx4y6")}.movable`);
  await page.click(cell("rx4y6"));
  await page.click(cell("rx4y4"));
  await page.waitForFunction(() => document.body.classList.contains("thinking"));
  await page.waitForTimeout(300);
  const stopped = Date.now();
  await page.click("#stop");
  await page.waitForFunction(() => document.body.dataset.busy === "0" && !document.body.classList.contains("thinking"));
  const latency = Date.now() - stopped;
  console.log(`stop: the agent's search answered ${latency} ms after the click`);
  if (latency > 1000) failures.push(`after Stop the agent's search ran on for ${latency} ms`);
  if ((await historyLength(page)) !== 1) failures.push("the stopped agent's move landed");
  // New game during a search stops the old game's search too (not only drops its answer).
  const opened = page.waitForResponse((r) => r.url().endsWith("/api/sessions") && r.request().method() === "POST");
  await page.goto(`${base}/?game=chess.rbg&you=white&vs=hard`);
  const old = (await (await opened).json()).id;
  await page.waitForSelector(`${cell("rx4y6")}.movable`);
  await page.click(cell("rx4y6"));
  await page.click(cell("rx4y4"));
  await page.waitForFunction(() => document.body.classList.contains("thinking"));
  await page.click("#new");
  const renewed = Date.now();
  let searching = true;
  while (searching && Date.now() - renewed < 2000) {
    searching = (await (await page.request.get(`${base}/api/sessions/${old}`)).json()).thinking;
    if (searching) await page.waitForTimeout(50);
  }
  if (searching) failures.push("the old game's agent searched on after New game");
  // Analyze: tic-tac-toe by self-play (random agents: every game ends within 9 plies).
  await page.goto(`${base}/?game=ticTacToe.rbg&you=both`);
  await page.waitForSelector("#board .cell.movable");
  await page.click("#open-analyze");
  await page.waitForSelector("#analyze:not([hidden])");
  if (await page.isVisible("#board")) failures.push("the board stays visible under the analysis");
  await page.selectOption("#analyze-agent", "random");
  await page.fill("#analyze-games", "30");
  await page.click("#analyze-run");
  await page.waitForFunction(() => /done/.test(document.getElementById("analyze-status").textContent), null, { timeout: 60000 });
  const rows = await page.$$eval("#analyze-table tr", (trs) => trs.map((tr) => [...tr.children].map((td) => td.textContent)));
  const completion = rows.find((r) => r[0] === "completion");
  if (!completion || completion[1] !== "1.000") failures.push(`the analysis shows completion ${JSON.stringify(completion)}`);
  const most = rows.find((r) => r[0] === "duration: most plies");
  if (!most || Number(most[1]) > 9) failures.push(`the analysis shows the longest game ${JSON.stringify(most)}`);
  const charts = await page.$$eval("#analyze-charts svg", (s) => s.length);
  if (charts < 3) failures.push(`the analysis shows ${charts} charts`);
  await page.screenshot({ path: join(outDir, "analyze-1280.png"), fullPage: true });
  // A long one (thousands of MCTS games) is cancelled.
  await page.selectOption("#analyze-agent", "mcts:iterations=400");
  await page.fill("#analyze-games", "5000");
  await page.click("#analyze-run");
  await page.waitForFunction(() => /self-play/.test(document.getElementById("analyze-status").textContent));
  await page.click("#analyze-cancel");
  await page.waitForFunction(() => /cancelled/.test(document.getElementById("analyze-status").textContent), null, { timeout: 5000 });
  await page.click("#analyze-close");
  if (!(await page.isVisible("#board"))) failures.push("closing the analysis does not bring the board back");
}

// --- main ---------------------------------------------------------------------------------------

// Without the background-networking switches Chromium keeps calling out, which a closed network
// refuses; --no-sandbox because CI runs as root.
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync"],
});
let count = 0;
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.setDefaultTimeout(20000);
  page.on("pageerror", (e) => failures.push(`page error: ${e.message}`));
  for (const [name, part] of [["tic-tac-toe", ticTacToe], ["chess", chess], ["agent", agentCases], ["promotion", promotion], ["split chess", splitChess], ["paper soccer", paperSoccer], ["every game", everyGame], ["editor", editorCase], ["studio", studioCase]]) {
    if (process.env.ONLY && process.env.ONLY !== name) continue; // one part, while working on it
    const t = Date.now();
    const n = await part(page);
    if (typeof n === "number") count = n;
    console.log(`${name}: ${((Date.now() - t) / 1000).toFixed(1)} s`);
  }
  // The library and the narrow window.
  await page.goto(`${base}/?game=chess.rbg&m=12.11&you=white&vs=easy`);
  await page.waitForFunction(() => document.querySelectorAll("#history li").length === 2);
  // Study: perft to depth 3 from here, and the agent's view (a second of search).
  await page.fill("#depth", "3");
  await page.click("#perft");
  await page.waitForFunction(() => /done|cancelled/.test(document.getElementById("job").textContent));
  const perft = await page.textContent("#job");
  if (!/depth 3: \d+ leaves/.test(perft)) failures.push(`perft shows "${perft}"`);
  await page.click("#analyse");
  await page.waitForFunction(() => document.querySelectorAll("#analysis tr").length > 3);
  await page.screenshot({ path: join(outDir, "chess-1280.png") });
  await page.click("#open-library");
  await page.waitForFunction(() => [...document.querySelectorAll(".game-card img")].slice(0, 8).every((i) => i.complete && i.naturalWidth > 0));
  await page.screenshot({ path: join(outDir, "library-1280.png") });
  const narrow = await browser.newPage({ viewport: { width: 600, height: 900 } });
  narrow.on("pageerror", (e) => failures.push(`page error: ${e.message}`));
  await narrow.goto(`${base}/?game=chess.rbg&m=12.11&you=white`);
  await narrow.waitForFunction(() => document.querySelectorAll("#history li").length === 2);
  const offscreen = await narrow.$$eval("button, select, input:not([type=file])", (els) =>
    els.filter((e) => e.offsetParent && e.getBoundingClientRect().right > window.innerWidth + 1).map((e) => e.id || e.textContent));
  if (offscreen.length) failures.push(`at 600 px these controls are off-screen: ${offscreen.join(", ")}`);
  await narrow.screenshot({ path: join(outDir, "chess-600.png"), fullPage: true });
} catch (e) {
  failures.push(e.stack || String(e));
} finally {
  await browser.close();
}
console.log(`browser test: ${count} games opened and played; ${((Date.now() - started) / 1000).toFixed(1)} s`);
if (failures.length) {
  console.error(failures.join("\n"));
  process.exit(1);
}
console.log("browser test passed");
