// Drives the page of `rbg serve` in headless Chromium, as a person would: by clicks only.
//
//   node page.mjs http://127.0.0.1:PORT OUT_DIR
//
// The server must serve ticTacToe.rbg and chess.rbg. Steps:
//  1. tic-tac-toe against the random agent: we play cross with a perfect-play search of our own
//     (below, independent of the server) and click its cells until a game ends with the message
//     "Game over: cross wins" (a drawn game starts a new one; at most 10 games);
//  2. chess: e2-e4 by two clicks, then Back, checking the board from the drawn pieces.
// Screenshots go to OUT_DIR. Exits 0 on success; otherwise prints what failed and exits 1.
import { chromium } from "playwright-core";
import { mkdirSync } from "node:fs";
import { join } from "node:path";

const [base, outDir] = process.argv.slice(2);
if (!base || !outDir) {
  console.error("usage: node page.mjs URL OUT_DIR");
  process.exit(2);
}
mkdirSync(outDir, { recursive: true });

// --- tic-tac-toe -------------------------------------------------------------------------------

const LINES = [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]];

function winner(b) {
  for (const [x, y, z] of LINES) if (b[x] && b[x] === b[y] && b[y] === b[z]) return b[x];
  return null;
}

// Negamax over the 3x3 board (cells "X", "O" or null), preferring quicker wins: [value, cell].
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

async function ticTacToe(page) {
  await page.goto(`${base}/?game=ticTacToe.rbg`);
  await page.waitForSelector("#board .cell.choice");
  await page.fill("#agent", "random:seed=5");
  for (let game = 0; game < 10; game++) {
    if (game > 0) {
      await page.click("#new");
      await page.waitForFunction(() => document.querySelectorAll("#board .piece").length === 0);
    }
    while (!(await resultText(page))) {
      const board = await readBoard(page);
      const placed = board.filter((x) => x).length;
      const [, cell] = best(board, "X", "O");
      await page.click(`#board [data-vertex="rx${cell % 3}y${Math.floor(cell / 3)}"].cell`);
      // Our cross, then the agent's nought unless the game ended.
      await page.waitForFunction(
        (n) => document.getElementById("result").textContent !== "" || document.querySelectorAll("#board .piece").length >= n + 2,
        placed,
      );
    }
    const result = await resultText(page);
    const board = await readBoard(page);
    if (result === "Game over: cross wins") {
      if (winner(board) !== "X") failures.push(`the page says cross won, but the drawn board is ${JSON.stringify(board)}`);
      await page.screenshot({ path: join(outDir, "tic-tac-toe-won.png") });
      return;
    }
    if (result !== "Game over: a draw" || winner(board) !== null) {
      failures.push(`tic-tac-toe game ${game}: result "${result}" with the board ${JSON.stringify(board)}`);
      return;
    }
  }
  failures.push("no tic-tac-toe game won against random in 10 games");
}

// --- chess -------------------------------------------------------------------------------------

const pieceAt = (page, vertex) =>
  page.$eval(`#board .pieces`, (g, v) => g.querySelector(`[data-vertex="${v}"]`)?.dataset.piece ?? null, vertex);

async function chess(page) {
  await page.selectOption("#games", "chess.rbg");
  await page.uncheck("#auto");
  await page.click("#new");
  await page.waitForFunction(() => document.getElementById("status").textContent.startsWith("chess"));
  // e2 is the vertex rx4y6 (y counts from the top), e4 is rx4y4.
  await page.waitForSelector('#board [data-vertex="rx4y6"].cell.choice');
  const pawn = await pieceAt(page, "rx4y6");
  await page.click('#board [data-vertex="rx4y6"].cell');
  await page.waitForSelector('#board [data-vertex="rx4y4"].cell.choice');
  await page.click('#board [data-vertex="rx4y4"].cell');
  await page.waitForFunction(() => document.querySelectorAll("#history li").length === 1);
  const after = [await pieceAt(page, "rx4y6"), await pieceAt(page, "rx4y4")];
  if (!pawn || after[0] !== null || after[1] !== pawn) {
    failures.push(`after e2-e4 the page shows e2=${after[0]} e4=${after[1]} (the pawn was ${pawn})`);
  }
  const status = await page.textContent("#status");
  if (!status.includes("black to move")) failures.push(`after e2-e4 the status is "${status}"`);
  await page.screenshot({ path: join(outDir, "chess-e4.png") });

  await page.click("#undo");
  await page.waitForFunction(() => document.querySelectorAll("#history li.future").length === 1);
  const back = [await pieceAt(page, "rx4y6"), await pieceAt(page, "rx4y4")];
  if (back[0] !== pawn || back[1] !== null) failures.push(`after Back the page shows e2=${back[0]} e4=${back[1]}`);
  const again = await page.textContent("#status");
  if (!again.includes("white to move")) failures.push(`after Back the status is "${again}"`);
  const message = await page.$eval("#message", (m) => (m.className === "error" ? m.textContent : ""));
  if (message) failures.push(`the page shows an error: ${message}`);
  await page.screenshot({ path: join(outDir, "chess-back.png") });
}

// --- main ---------------------------------------------------------------------------------------

// Without the background-networking switches Chromium keeps calling out, which a closed network
// refuses; --no-sandbox because CI runs as root.
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync"],
});
const failures = [];
try {
  const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
  page.setDefaultTimeout(20000);
  page.on("pageerror", (e) => failures.push(`page error: ${e.message}`));
  await ticTacToe(page);
  await chess(page);
} catch (e) {
  failures.push(e.stack || String(e));
} finally {
  await browser.close();
}
if (failures.length) {
  console.error(failures.join("\n"));
  process.exit(1);
}
console.log("browser test passed");
