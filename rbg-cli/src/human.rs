//! Human play in the terminal: the `human` agent, board drawing, reading moves, and the
//! interactive game loop (which adds `undo`).
//!
//! Before each of its moves the human player sees the board (a grid for boards with positions,
//! i.e. made by `rectangle`, `hexagon` or `cuboid`; a list of occupied vertices otherwise), the
//! scores and the numbered legal moves. A line of input is read as, in this order:
//!
//! 1. a command: `help`, `moves` (all legal moves), `board`, `undo`, `quit`;
//! 2. a move number from the list;
//! 3. a move in pair notation (`4@rx0y0 5@rx0y0`), when the line holds an `@`;
//! 4. vertices: names separated by spaces, `-` or `,`, or written together (`a2a3`). On a
//!    rectangle board, squares may also be named as in chess: a file letter from `a` on the left
//!    and a rank from `1` at the bottom (`a1` is the bottom-left square), unless the game names
//!    a vertex so. The vertices must be the squares the move goes through (its modifiers'
//!    vertices, repeats removed: `a2 a3` for a piece moved from a2 to a3; one square for a move
//!    made on a single square); if no move matches them exactly, moves that start at the first,
//!    end at the last and pass the others in order are taken. One match is played; several are
//!    listed so that the player can pick one by number.
//!
//! Anything else gets an explanation and a new prompt. The end of the input (or `quit`) ends
//! the game without a result.

use std::io::{self, BufRead, Write};

use rbg_agents::{
    seat_seed, Agent, AgentError, Budget, Decision, GameResult, PlayLimits, PlayedMove, SearchStats,
    Termination,
};
use rbg_core::notation::{self, VertexStyle};
use rbg_core::{Action, Game, GameInfo, MoveList, Player, VertexPosition, KEEPER};

const KEEPER_LIMIT: u64 = rbg_core::perft::DEFAULT_KEEPER_LIMIT;

/// Moves listed before each human move; `moves` lists them all.
const SHOWN_MOVES: usize = 40;

/// The widest grid drawn (in characters) and the most rows; larger boards are listed.
const MAX_GRID_WIDTH: usize = 300;
const MAX_GRID_ROWS: usize = 200;

const HELP: &str = "\
Enter one of:
  N            the move numbered N in the list
  a2 a3, a2a3  the squares (vertices) the move goes through, in order; one square for a move
               made on a single square. Vertex names work everywhere; on rectangle boards
               also chess-style names (file letter from a on the left, rank from 1 at the bottom)
  4@rx0y0 ...  a move in index@vertex notation (as `rbg moves` prints it)
  moves        list all legal moves
  board        draw the board again
  undo         take back your last move and the replies to it
  quit         stop the game (so does the end of the input)
  help         this text";

/// What the human player answered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// A legal move.
    Move(Vec<Action>),
    /// Take back the last human move (only when the caller allowed it).
    Undo,
    /// The player typed `quit`.
    Quit,
    /// The input ended.
    Eof,
}

/// A human player at a terminal: reads lines from `input`, writes to `out`.
pub struct Human<R, W> {
    input: R,
    out: W,
    /// Echo each line read (when the input is not a terminal, so that a transcript shows it).
    echo: bool,
    view: Option<(String, BoardView)>,
}

impl<R: BufRead, W: Write> Human<R, W> {
    pub fn new(input: R, out: W, echo: bool) -> Self {
        Human { input, out, echo, view: None }
    }

    /// Where the game's messages go.
    pub fn out(&mut self) -> &mut W {
        &mut self.out
    }

    /// The drawing of `game`'s board (built once per game).
    fn view<G: Game>(&mut self, game: &G) -> &BoardView {
        let name = &game.info().name;
        if self.view.as_ref().is_none_or(|(n, _)| n != name) {
            self.view = Some((name.clone(), BoardView::new(game)));
        }
        &self.view.as_ref().expect("just set").1
    }

    /// Draws the state and asks for a move until a legal one (or a command that ends the
    /// question) is entered. `undo` is offered only when `can_undo`.
    pub fn ask<G: Game>(&mut self, game: &G, state: &G::State, can_undo: bool) -> io::Result<Reply> {
        let info = game.info();
        let mut sc = game.new_scratch();
        let mut legal = MoveList::new();
        if let Err(e) = game.legal_moves(&mut state.clone(), &mut sc, &mut legal) {
            return Err(io::Error::other(e.to_string()));
        }
        let player = game.current_player(state);
        let who = player_name(info, player);
        self.view(game);
        let (_, view) = self.view.as_ref().expect("built above");
        let shown = describe_moves(game, state, &legal);
        let lines = move_lines(info, view, &shown);
        view.draw(game, state, &mut self.out)?;
        writeln!(self.out, "{who} to move; {} legal moves:", legal.len())?;
        for line in lines.iter().take(SHOWN_MOVES) {
            writeln!(self.out, "{line}")?;
        }
        if lines.len() > SHOWN_MOVES {
            writeln!(
                self.out,
                "  ... and {} more (type `moves` to list them all)",
                lines.len() - SHOWN_MOVES
            )?;
        }
        loop {
            write!(self.out, "{who}> ")?;
            self.out.flush()?;
            // Bytes, not `read_line`: input that is not UTF-8 is junk to explain, not an error.
            let mut bytes = Vec::new();
            if self.input.read_until(b'\n', &mut bytes)? == 0 {
                writeln!(self.out)?;
                return Ok(Reply::Eof);
            }
            let line = String::from_utf8_lossy(&bytes);
            if self.echo {
                writeln!(self.out, "{}", printable(line.trim_end()))?;
            }
            let (_, view) = self.view.as_ref().expect("built above");
            match interpret(view, info, &legal, &shown, &line) {
                Input::Empty => {}
                Input::Move(i) => return Ok(Reply::Move(legal.get(i).to_vec())),
                Input::Help => writeln!(self.out, "{HELP}")?,
                Input::Moves => {
                    for line in &lines {
                        writeln!(self.out, "{line}")?;
                    }
                }
                Input::Board => view.draw(game, state, &mut self.out)?,
                Input::Undo if can_undo => return Ok(Reply::Undo),
                Input::Undo => writeln!(self.out, "nothing to undo: no move of yours has been played yet")?,
                Input::Quit => return Ok(Reply::Quit),
                Input::Problem(message) => writeln!(self.out, "{message}")?,
            }
        }
    }
}

/// The human agent, for drivers that know nothing of humans (such as `play_game`): asks for a
/// move as [`Human::ask`] does, without `undo`; `quit` and the end of the input give
/// [`AgentError::Aborted`].
impl<G: Game, R: BufRead, W: Write> Agent<G> for Human<R, W> {
    fn name(&self) -> String {
        "human".into()
    }

    fn reset(&mut self, _seed: u64) {}

    fn budget(&self) -> Budget {
        Budget::default()
    }

    fn select_move(&mut self, game: &G, state: &G::State, _budget: &Budget) -> Result<Decision, AgentError> {
        if game.current_player(state) == KEEPER {
            return Err(AgentError::KeeperToMove);
        }
        let start = std::time::Instant::now();
        match self.ask(game, state, false) {
            Ok(Reply::Move(mv)) => {
                Ok(Decision { mv, stats: SearchStats { elapsed: start.elapsed(), ..SearchStats::default() } })
            }
            Ok(Reply::Quit) => Err(AgentError::Aborted("the player quit".into())),
            Ok(Reply::Eof | Reply::Undo) => Err(AgentError::Aborted("the input ended".into())),
            Err(e) => Err(AgentError::Aborted(format!("cannot talk to the player: {e}"))),
        }
    }
}

/// `text` with control characters escaped (`\u{1b}`), safe to print to a terminal.
fn printable(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { c.escape_default().to_string() } else { c.to_string() })
        .collect()
}

fn player_name(info: &GameInfo, player: Player) -> String {
    match info.players.get((player as usize).wrapping_sub(1)) {
        Some(name) => name.clone(),
        None => format!("player {player}"),
    }
}

/// What a line of input means.
#[derive(Debug, PartialEq, Eq)]
enum Input {
    Empty,
    Move(usize),
    Help,
    Moves,
    Board,
    Undo,
    Quit,
    Problem(String),
}

/// Reads one line of input against the legal moves (see the module documentation).
fn interpret(view: &BoardView, info: &GameInfo, legal: &MoveList, shown: &[Shown], line: &str) -> Input {
    let text = line.trim();
    match text.to_ascii_lowercase().as_str() {
        "" => return Input::Empty,
        "help" | "?" | "h" => return Input::Help,
        "moves" | "list" => return Input::Moves,
        "board" => return Input::Board,
        "undo" | "u" => return Input::Undo,
        "quit" | "exit" | "q" => return Input::Quit,
        _ => {}
    }
    if text.bytes().all(|b| b.is_ascii_digit()) {
        return match text.parse::<usize>() {
            Ok(n) if (1..=legal.len()).contains(&n) => Input::Move(n - 1),
            _ if legal.len() == 1 => Input::Problem(format!("there is no move {text}: the only move is 1")),
            _ => Input::Problem(format!("there is no move {text}: moves are numbered 1 to {}", legal.len())),
        };
    }
    if text.contains('@') {
        return match notation::parse_move(info, text) {
            Err(e) => Input::Problem(format!("cannot read that move: {}", printable(&e.to_string()))),
            Ok(mv) => match legal.iter().position(|m| m == mv.as_slice()) {
                Some(i) => Input::Move(i),
                None => Input::Problem(format!(
                    "{} is not a legal move here (type `moves` for the list)",
                    notation::format_move(info, &mv, VertexStyle::Name)
                )),
            },
        };
    }
    let mut wanted = Vec::new();
    for token in text.split(|c: char| c.is_whitespace() || c == '-' || c == ',').filter(|t| !t.is_empty()) {
        match view.split_vertices(info, token) {
            Some(vs) => wanted.extend(vs),
            None => {
                return Input::Problem(format!(
                    "'{}' is not a move number, a vertex name or a command (type `help`)",
                    printable(token)
                ))
            }
        }
    }
    let said = wanted.iter().map(|&v| view.vertex_label(info, v)).collect::<Vec<_>>().join(" ");
    let paths: Vec<&[u32]> = shown.iter().map(|m| m.squares.as_slice()).collect();
    let exact: Vec<usize> = (0..paths.len()).filter(|&i| paths[i] == wanted).collect();
    let found = if exact.is_empty() {
        (0..paths.len()).filter(|&i| passes_through(paths[i], &wanted)).collect()
    } else {
        exact
    };
    match found.as_slice() {
        [i] => Input::Move(*i),
        [] => Input::Problem(format!("no legal move goes through {said} (type `moves` for the list)")),
        several => {
            let mut message = format!("{said} matches {} legal moves:", several.len());
            for &i in several.iter().take(SHOWN_MOVES) {
                let text = &shown[i].pair;
                message.push_str(&format!("\n  {}) {}  {text}", i + 1, view.path_label(info, paths[i])));
            }
            message.push_str("\ntype the number of the one you mean");
            Input::Problem(message)
        }
    }
}

/// A legal move as the player sees it.
struct Shown {
    /// The squares it goes through (see [`squares`]).
    squares: Vec<u32>,
    /// Pair notation.
    pair: String,
    /// What it changes.
    changes: String,
}

/// The legal moves with their squares and effects.
fn describe_moves<G: Game>(game: &G, state: &G::State, legal: &MoveList) -> Vec<Shown> {
    let info = game.info();
    let mut sc = game.new_scratch();
    legal
        .iter()
        .map(|m| {
            let (changed, changes) = match notation::describe_move(game, state, &mut sc, m, KEEPER_LIMIT) {
                Ok(c) => (changed_vertices(&c), c.display(info).to_string()),
                Err(e) => (Vec::new(), format!("(keeper fails: {e})")),
            };
            Shown {
                squares: squares(m, &changed),
                pair: notation::format_move(info, m, VertexStyle::Name),
                changes,
            }
        })
        .collect()
}

fn changed_vertices(changes: &notation::MoveChanges) -> Vec<u32> {
    changes
        .changes
        .iter()
        .filter_map(|c| match c {
            notation::Change::Piece { vertex, .. } => Some(*vertex),
            _ => None,
        })
        .collect()
}

/// The squares a move goes through, as a player names them: the vertices of its modifiers, in
/// order and each once, that the move changes the piece of (`a2 a3` for a pawn moved from a2
/// to a3, not the vertex where a score was set first). A move that changes no piece: all its
/// modifiers' vertices, repeats in a row removed.
fn squares(m: &[Action], changed: &[u32]) -> Vec<u32> {
    let mut out: Vec<u32> = Vec::new();
    for a in m {
        if changed.contains(&a.vertex) && !out.contains(&a.vertex) {
            out.push(a.vertex);
        }
    }
    if out.is_empty() {
        out = m.iter().map(|a| a.vertex).collect();
        out.dedup();
    }
    out
}

/// Whether `path` starts at `wanted`'s first vertex, ends at its last and passes its other
/// vertices in order (a single vertex: the path passes it).
fn passes_through(path: &[u32], wanted: &[u32]) -> bool {
    match wanted {
        [] => false,
        [v] => path.contains(v),
        [first, middle @ .., last] => {
            if path.first() != Some(first) || path.last() != Some(last) {
                return false;
            }
            let mut rest = path[1..path.len() - 1].iter();
            middle.iter().all(|v| rest.any(|p| p == v))
        }
    }
}

/// The legal moves as numbered lines: number, squares, notation, what the move changes.
fn move_lines(info: &GameInfo, view: &BoardView, shown: &[Shown]) -> Vec<String> {
    let width = shown.len().to_string().len();
    let paths: Vec<String> = shown.iter().map(|m| view.path_label(info, &m.squares)).collect();
    let path_width = paths.iter().map(|p| p.chars().count()).max().unwrap_or(0);
    let pair_width = shown.iter().map(|m| m.pair.chars().count()).max().unwrap_or(0);
    shown
        .iter()
        .zip(&paths)
        .enumerate()
        .map(|(i, (m, p))| {
            format!("  {:>width$}) {p:<path_width$}  {:<pair_width$}  {}", i + 1, m.pair, m.changes)
        })
        .collect()
}

/// How a board is drawn and how its vertices may be named.
#[derive(Debug)]
pub struct BoardView {
    /// Short piece labels by piece id; the empty piece is `.`.
    labels: Vec<String>,
    /// The piece that stands for an empty cell: named `empty`, `e`, `free`, `vacant`, `none`,
    /// `blank` or `void`, or else the piece on at least half the initial board, if one is.
    empty: Option<u32>,
    /// The pieces whose label is not their name (by piece id).
    legend: Vec<bool>,
    grid: Option<Grid>,
    /// Chess-style names of the vertices of a rectangle board.
    aliases: Vec<Option<String>>,
}

#[derive(Debug)]
struct Grid {
    /// Top to bottom: a row label and the cells as (character column, vertex).
    rows: Vec<(String, Vec<(usize, u32)>)>,
    /// File letters over the columns (rectangle boards).
    header: Option<Vec<(usize, char)>>,
    label_width: usize,
    cell_width: usize,
}

impl BoardView {
    pub fn new<G: Game>(game: &G) -> Self {
        let info = game.info();
        let initial = game.initial_state();
        let mut counts = vec![0usize; info.pieces.len()];
        for v in 0..info.vertices.len() as u32 {
            if let Some(c) = counts.get_mut(game.piece(&initial, v) as usize) {
                *c += 1;
            }
        }
        let empty = empty_piece(&info.pieces, &counts, info.vertices.len());
        let labels = short_labels(&info.pieces, empty);
        let legend: Vec<bool> =
            (0..info.pieces.len()).map(|i| Some(i as u32) != empty && labels[i] != info.pieces[i]).collect();
        let cell_width = labels.iter().map(|l| l.chars().count()).max().unwrap_or(1).max(1);
        let (grid, aliases) = match &info.positions {
            Some(p) if p.len() == info.vertices.len() && !p.is_empty() => grid(info, p, cell_width),
            _ => (None, vec![None; info.vertices.len()]),
        };
        BoardView { labels, empty, legend, grid, aliases }
    }

    /// A vertex as the player should read it: its chess-style name on rectangle boards, its
    /// name otherwise.
    fn vertex_label(&self, info: &GameInfo, v: u32) -> String {
        match self.aliases.get(v as usize) {
            Some(Some(alias)) => alias.clone(),
            _ => info.vertices.get(v as usize).cloned().unwrap_or_else(|| v.to_string()),
        }
    }

    fn path_label(&self, info: &GameInfo, path: &[u32]) -> String {
        path.iter().map(|&v| self.vertex_label(info, v)).collect::<Vec<_>>().join("-")
    }

    /// The vertex named `token`: a vertex name, or a chess-style name (any case).
    fn vertex(&self, info: &GameInfo, token: &str) -> Option<u32> {
        info.vertex_id(token).or_else(|| {
            self.aliases
                .iter()
                .position(|a| a.as_deref().is_some_and(|a| a.eq_ignore_ascii_case(token)))
                .map(|v| v as u32)
        })
    }

    /// The vertices named by `token`: one name, or names written together (`a2a3`). When
    /// several splits exist, the one with the longest first name wins.
    fn split_vertices(&self, info: &GameInfo, token: &str) -> Option<Vec<u32>> {
        if let Some(v) = self.vertex(info, token) {
            return Some(vec![v]);
        }
        if token.len() > 200 {
            return None;
        }
        // ends[i]: token[i..] splits into names (character boundaries only).
        let bounds: Vec<usize> = token.char_indices().map(|(i, _)| i).chain([token.len()]).collect();
        let n = bounds.len();
        let mut next: Vec<Option<(usize, u32)>> = vec![None; n];
        let mut ok = vec![false; n];
        ok[n - 1] = true;
        for i in (0..n - 1).rev() {
            for j in (i + 1..n).rev() {
                if ok[j] {
                    if let Some(v) = self.vertex(info, &token[bounds[i]..bounds[j]]) {
                        next[i] = Some((j, v));
                        ok[i] = true;
                        break;
                    }
                }
            }
        }
        let mut out = Vec::new();
        let mut i = 0;
        while i < n - 1 {
            let (j, v) = next[i]?;
            out.push(v);
            i = j;
        }
        Some(out)
    }

    fn label(&self, piece: u32) -> &str {
        if Some(piece) == self.empty {
            "."
        } else {
            self.labels.get(piece as usize).map_or("?", String::as_str)
        }
    }

    /// Draws the board, the legend of the piece labels and the variables.
    pub fn draw<G: Game, W: Write>(&self, game: &G, state: &G::State, out: &mut W) -> io::Result<()> {
        let info = game.info();
        writeln!(out)?;
        match &self.grid {
            Some(grid) => {
                let indent = grid.label_width + 2;
                if let Some(header) = &grid.header {
                    writeln!(
                        out,
                        "{}",
                        place_chars(indent, header.iter().map(|&(c, ch)| (c, ch.to_string())))
                    )?;
                }
                for (label, cells) in &grid.rows {
                    let row = place_chars(
                        0,
                        cells.iter().map(|&(c, v)| {
                            let l = self.label(game.piece(state, v));
                            let pad = grid.cell_width.saturating_sub(l.chars().count());
                            (c + pad, l.to_string())
                        }),
                    );
                    writeln!(out, "{label:>w$}  {row}", w = grid.label_width)?;
                }
            }
            None => {
                let mut any = false;
                for piece in 0..info.pieces.len() as u32 {
                    if Some(piece) == self.empty {
                        continue;
                    }
                    let at: Vec<&str> = (0..info.vertices.len() as u32)
                        .filter(|&v| game.piece(state, v) == piece)
                        .map(|v| info.vertices[v as usize].as_str())
                        .collect();
                    if !at.is_empty() {
                        any = true;
                        writeln!(out, "{}: {}", info.pieces[piece as usize], at.join(" "))?;
                    }
                }
                if !any {
                    writeln!(out, "(no pieces on the board)")?;
                }
            }
        }
        if self.grid.is_some() {
            // The labels that are not names, of the pieces on the board.
            let mut on_board = vec![false; info.pieces.len()];
            for v in 0..info.vertices.len() as u32 {
                if let Some(b) = on_board.get_mut(game.piece(state, v) as usize) {
                    *b = true;
                }
            }
            let pairs: Vec<String> = (0..info.pieces.len())
                .filter(|&i| on_board[i] && self.legend[i])
                .map(|i| format!("{}={}", self.labels[i], info.pieces[i]))
                .collect();
            if !pairs.is_empty() {
                writeln!(out, "pieces: {}", pairs.join(" "))?;
            }
        }
        let players = info.num_players();
        let scores: Vec<String> = (1..=players as Player)
            .map(|p| format!("{}={}", info.players[p as usize - 1], game.score(state, p)))
            .collect();
        writeln!(out, "scores: {}", scores.join(" "))?;
        if info.variables.len() > players {
            let vars: Vec<String> = (players..info.variables.len())
                .map(|v| format!("{}={}", info.variables[v], game.variable(state, v)))
                .collect();
            writeln!(out, "variables: {}", vars.join(" "))?;
        }
        Ok(())
    }
}

/// A line with each text placed at its character column (`indent` added), trailing blanks
/// dropped.
fn place_chars(indent: usize, items: impl Iterator<Item = (usize, String)>) -> String {
    let mut line: Vec<char> = Vec::new();
    for (col, text) in items {
        let col = col + indent;
        for (k, ch) in text.chars().enumerate() {
            if line.len() <= col + k {
                line.resize(col + k + 1, ' ');
            }
            line[col + k] = ch;
        }
    }
    line.into_iter().collect::<String>().trim_end().to_string()
}

/// The piece that stands for an empty cell (see [`BoardView::empty`]).
fn empty_piece(pieces: &[String], counts: &[usize], vertices: usize) -> Option<u32> {
    const NAMES: [&str; 7] = ["empty", "e", "free", "vacant", "none", "blank", "void"];
    // Exact names first: `e` is empty where `E` may be a piece (15puzzle).
    let by_name = pieces
        .iter()
        .position(|p| NAMES.contains(&p.as_str()))
        .or_else(|| pieces.iter().position(|p| NAMES.iter().any(|n| p.eq_ignore_ascii_case(n))));
    if let Some(i) = by_name {
        return Some(i as u32);
    }
    let (i, &most) = counts.iter().enumerate().max_by_key(|&(i, c)| (c, std::cmp::Reverse(i)))?;
    (most > 0 && 2 * most >= vertices).then_some(i as u32)
}

/// Short distinct labels: each piece's name cut to its most telling characters, as few as tell
/// the pieces apart (at least 1; lengthened only where two labels collide). The characters are
/// taken in this order of preference and then written in their order in the name: the first
/// one, capitals and digits, the characters right after a capital, the others (`blackKnight`
/// gives `b`, `bK`, `bKn`). Full names if collisions remain.
fn short_labels(pieces: &[String], empty: Option<u32>) -> Vec<String> {
    let shown: Vec<usize> = (0..pieces.len()).filter(|&i| Some(i as u32) != empty).collect();
    let mut lengths = vec![1usize; pieces.len()];
    for _ in 0..12 {
        let labels: Vec<String> = pieces.iter().zip(&lengths).map(|(p, &l)| abbreviate(p, l)).collect();
        let mut clash = false;
        for &i in &shown {
            let collides = labels[i] == "." || shown.iter().any(|&j| j != i && labels[j] == labels[i]);
            if collides {
                clash = true;
                lengths[i] += 1;
            }
        }
        if !clash {
            return labels;
        }
    }
    pieces.to_vec()
}

fn abbreviate(name: &str, len: usize) -> String {
    let chars: Vec<char> = name.chars().collect();
    if chars.len() <= len {
        return name.to_string();
    }
    let capital = |i: usize| chars[i].is_uppercase() || chars[i].is_ascii_digit();
    let rank = |i: usize| match i {
        0 => 0,
        _ if capital(i) => 1,
        _ if capital(i - 1) => 2,
        _ => 3,
    };
    let mut picked: Vec<usize> = (0..chars.len()).collect();
    picked.sort_by_key(|&i| (rank(i), i));
    picked.truncate(len);
    picked.sort_unstable();
    picked.into_iter().map(|i| chars[i]).collect()
}

/// The grid of a board with positions, and chess-style names for a rectangle board; `None`
/// when the board is too large to draw.
fn grid(
    info: &GameInfo,
    positions: &[VertexPosition],
    cell_width: usize,
) -> (Option<Grid>, Vec<Option<String>>) {
    let n = positions.len();
    let no_aliases = vec![None; n];
    // Rows by drawing height (to a thousandth of a cell), columns in half cells.
    let row_key = |p: &VertexPosition| (p.point[1] * 1000.0).round() as i64;
    let mut keys: Vec<i64> = positions.iter().map(row_key).collect();
    keys.sort_unstable();
    keys.dedup();
    let half_cells: Vec<i64> = positions.iter().map(|p| (p.point[0] * 2.0).round() as i64).collect();
    let left = half_cells.iter().copied().min().unwrap_or(0);
    let halves = half_cells.iter().any(|h| (h - left) % 2 != 0);
    let mut slot = cell_width + 1;
    if halves && slot % 2 == 1 {
        slot += 1;
    }
    let column = |h: i64| -> usize {
        let h = (h - left) as usize;
        if halves {
            h * slot / 2
        } else {
            h / 2 * slot
        }
    };
    let widest = half_cells.iter().map(|&h| column(h)).max().unwrap_or(0) + cell_width;
    if keys.len() > MAX_GRID_ROWS || widest > MAX_GRID_WIDTH {
        return (None, no_aliases);
    }
    let rectangle = positions.iter().all(|p| {
        p.coords[2] == 0 && p.point == [f64::from(p.coords[0]), f64::from(p.coords[1])] && p.coords[0] >= 0
    });
    let height = positions.iter().map(|p| p.coords[1]).max().unwrap_or(0) + 1;
    let width = positions.iter().map(|p| p.coords[0]).max().unwrap_or(0) + 1;
    let aliases: Vec<Option<String>> = if rectangle && width <= 26 {
        positions
            .iter()
            .enumerate()
            .map(|(v, p)| {
                let alias = format!("{}{}", (b'a' + p.coords[0] as u8) as char, height - p.coords[1]);
                // A vertex of the game with that name keeps it.
                match info.vertex_id(&alias) {
                    Some(other) if other as usize != v => None,
                    _ => Some(alias),
                }
            })
            .collect()
    } else {
        no_aliases
    };
    let mut rows: Vec<(String, Vec<(usize, u32)>)> =
        keys.iter().map(|_| (String::new(), Vec::new())).collect();
    for (v, p) in positions.iter().enumerate() {
        let r = keys.binary_search(&row_key(p)).unwrap_or(0);
        rows[r].1.push((column(half_cells[v]), v as u32));
    }
    let mut header = None;
    if rectangle && aliases.iter().any(Option::is_some) {
        for (r, row) in rows.iter_mut().enumerate() {
            row.0 = (height as usize - r).to_string();
        }
        let files =
            (0..width.min(26) as u8).map(|x| (x as usize * slot + cell_width - 1, (b'a' + x) as char));
        header = Some(files.collect());
    }
    let label_width = rows.iter().map(|r| r.0.len()).max().unwrap_or(0);
    (Some(Grid { rows, header, label_width, cell_width }), aliases)
}

/// A seat of an interactive game: the human at the terminal or an agent.
pub enum Seat<'a, G: Game> {
    Human,
    Agent { label: String, agent: Box<dyn Agent<G> + 'a> },
}

/// How an interactive game ended.
pub enum HumanGameEnd {
    /// By its rules, by the move limit or by an agent's failure (see the result's termination).
    Played(GameResult),
    /// The human quit or the input ended: the moves so far, and why.
    Abandoned(GameResult, String),
}

/// Plays one game with at least one human seat, one move at a time, talking to `human`.
/// `undo` takes back the last move made by a human seat and every move after it, and resets the
/// agents (their searches start afresh, with new seeds derived from `seed`).
pub fn play_interactive<G: Game, R: BufRead, W: Write>(
    game: &G,
    seats: &mut [Seat<'_, G>],
    human: &mut Human<R, W>,
    index: u64,
    seed: u64,
    seating: Vec<usize>,
    limits: &PlayLimits,
) -> io::Result<HumanGameEnd> {
    let info = game.info();
    let players = info.num_players();
    let mut sc = game.new_scratch();
    let reset_agents = |seats: &mut [Seat<'_, G>], round: u64| {
        for (i, seat) in seats.iter_mut().enumerate() {
            if let Seat::Agent { agent, .. } = seat {
                agent.reset(seat_seed(seed ^ round.wrapping_mul(0x9e37_79b9_7f4a_7c15), i));
            }
        }
    };
    reset_agents(seats, 0);
    let result = |moves: &[(G::State, PlayedMove)], state: &G::State, termination| GameResult {
        index,
        seed,
        seating: seating.clone(),
        moves: moves.iter().map(|(_, m)| m.clone()).collect(),
        scores: (1..=players as Player).map(|p| game.score(state, p)).collect(),
        termination,
    };
    let error = |e: rbg_core::SearchError| Termination::Error(e.to_string());
    let mut state = game.initial_state();
    match game.complete_keeper(&mut state, &mut sc, limits.keeper_limit) {
        Ok(true) => {}
        Ok(false) => {
            let why = Termination::Error("the game is over before any player moves".into());
            return Ok(HumanGameEnd::Played(result(&[], &state, why)));
        }
        Err(e) => return Ok(HumanGameEnd::Played(result(&[], &state, error(e)))),
    }
    // Each move with the state it was played in.
    let mut history: Vec<(G::State, PlayedMove)> = Vec::new();
    let mut undos = 0u64;
    let mut legal = MoveList::new();
    loop {
        if let Err(e) = game.legal_moves(&mut state, &mut sc, &mut legal) {
            return Ok(HumanGameEnd::Played(result(&history, &state, error(e))));
        }
        if legal.is_empty() {
            return Ok(HumanGameEnd::Played(result(&history, &state, Termination::Finished)));
        }
        if history.len() as u64 >= limits.max_moves {
            return Ok(HumanGameEnd::Played(result(&history, &state, Termination::MoveLimit)));
        }
        let player = game.current_player(&state);
        let who = player_name(info, player);
        if (player as usize).wrapping_sub(1) >= seats.len() {
            let why = Termination::Error(format!("no seat for player {player}"));
            return Ok(HumanGameEnd::Played(result(&history, &state, why)));
        }
        let (mv, stats) = match &mut seats[player as usize - 1] {
            Seat::Human => {
                let can_undo = history.iter().any(|(_, m)| is_human(seats, m.player));
                match human.ask(game, &state, can_undo)? {
                    Reply::Move(mv) => (mv, SearchStats::default()),
                    Reply::Undo => {
                        let mut taken = 0;
                        while let Some((before, played)) = history.pop() {
                            taken += 1;
                            let by_human = is_human(seats, played.player);
                            state = before;
                            if by_human {
                                break;
                            }
                        }
                        undos += 1;
                        reset_agents(seats, undos);
                        let s = if taken == 1 { "" } else { "s" };
                        writeln!(human.out(), "took back {taken} move{s}")?;
                        continue;
                    }
                    Reply::Quit => {
                        let why = "the player quit".to_string();
                        return Ok(HumanGameEnd::Abandoned(
                            result(&history, &state, Termination::Error(why.clone())),
                            why,
                        ));
                    }
                    Reply::Eof => {
                        let why = "the input ended".to_string();
                        return Ok(HumanGameEnd::Abandoned(
                            result(&history, &state, Termination::Error(why.clone())),
                            why,
                        ));
                    }
                }
            }
            Seat::Agent { label, agent } => {
                let budget = agent.budget();
                match agent.select_move(game, &state, &budget) {
                    Ok(d) if legal.iter().any(|m| m == d.mv.as_slice()) => {
                        let text = notation::format_move(info, &d.mv, VertexStyle::Name);
                        let changed =
                            notation::describe_move(game, &state, &mut sc, &d.mv, limits.keeper_limit)
                                .map(|c| changed_vertices(&c))
                                .unwrap_or_default();
                        let view = human.view(game);
                        let at = view.path_label(info, &squares(&d.mv, &changed));
                        writeln!(human.out(), "{who} ({label}) plays {at}: {text}")?;
                        (d.mv, d.stats)
                    }
                    Ok(d) => {
                        let text = notation::format_move(info, &d.mv, VertexStyle::Name);
                        let why =
                            Termination::Error(format!("the agent of {who} chose an illegal move {text}"));
                        return Ok(HumanGameEnd::Played(result(&history, &state, why)));
                    }
                    Err(e) => {
                        let why = Termination::Error(format!("the agent of {who} failed: {e}"));
                        return Ok(HumanGameEnd::Played(result(&history, &state, why)));
                    }
                }
            }
        };
        for seat in seats.iter_mut() {
            if let Seat::Agent { agent, label } = seat {
                if let Err(e) = agent.observe(game, &state, &mv) {
                    let why = Termination::Error(format!("the agent {label} failed: {e}"));
                    return Ok(HumanGameEnd::Played(result(&history, &state, why)));
                }
            }
        }
        let before = state.clone();
        game.apply_move(&mut state, &mv);
        history.push((before, PlayedMove { player, mv, stats }));
        match game.complete_keeper(&mut state, &mut sc, limits.keeper_limit) {
            Ok(true) => {}
            Ok(false) => return Ok(HumanGameEnd::Played(result(&history, &state, Termination::Finished))),
            Err(e) => return Ok(HumanGameEnd::Played(result(&history, &state, error(e)))),
        }
    }
}

fn is_human<G: Game>(seats: &[Seat<'_, G>], player: Player) -> bool {
    matches!(seats.get((player as usize).wrapping_sub(1)), Some(Seat::Human))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_are_short_and_distinct() {
        let names = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(short_labels(&names(&["free", "X", "O"]), Some(0)), names(&["f", "X", "O"]));
        assert_eq!(short_labels(&names(&["empty", "wPawn", "bPawn"]), Some(0)), names(&["e", "w", "b"]));
        let chess =
            names(&["blackKing", "blackKnight", "blackPawn", "blackRookUnmoved", "empty", "whitePawn"]);
        assert_eq!(short_labels(&chess, Some(4)), names(&["bKi", "bKn", "bP", "bR", "e", "w"]));
        assert_eq!(abbreviate("whitePawn2", 3), "wP2");
        assert_eq!(abbreviate("blackRookUnmoved", 4), "bRoU");
        // A name that is another's abbreviation: the longer name grows.
        assert_eq!(short_labels(&names(&["bK", "bKing"]), None), names(&["bK", "bKi"]));
        // "." is the empty cell: no piece gets it.
        assert_eq!(short_labels(&names(&[".x", "y"]), None), names(&[".x", "y"]));
    }

    #[test]
    fn the_empty_piece_is_found_by_name_or_by_count() {
        let names = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(empty_piece(&names(&["X", "Free"]), &[0, 9], 9), Some(1));
        assert_eq!(empty_piece(&names(&["a", "b"]), &[5, 3], 8), Some(0));
        assert_eq!(empty_piece(&names(&["A", "E", "e"]), &[1, 1, 1], 3), Some(2));
        assert_eq!(empty_piece(&names(&["a", "b", "c"]), &[3, 3, 3], 9), None);
        assert_eq!(empty_piece(&[], &[], 0), None);
    }

    /// The human agent through `play_game` (which has no undo): in Nim with 3 stones the human
    /// takes one stone (move 1) after a junk line; the end of the input, or `quit`, aborts the
    /// game with the agent's error.
    #[test]
    fn the_human_agent_plays_through_play_game() {
        use rbg_agents::{play_game, AgentSpec, PlayError};
        use rbg_core::toy::Nim;
        let game = Nim::new(3);
        let play = |input: &'static str| {
            let human = Human::new(io::Cursor::new(input), Vec::new(), true);
            let random = "random".parse::<AgentSpec>().unwrap().build(&game).unwrap();
            let mut agents: Vec<Box<dyn Agent<Nim>>> = vec![Box::new(human), random];
            play_game(&game, &mut agents, 1, &PlayLimits::default())
        };
        // Enough answers for every line of play (each "1" takes a stone).
        let record = play("junk\n1\n1\n1\n").unwrap();
        assert!(record.finished);
        assert_eq!(record.moves[0].mv, vec![Action::new(1, 0)]);
        match play("junk\n") {
            Err(PlayError::Agent { player: 1, error: AgentError::Aborted(why) }) => {
                assert_eq!(why, "the input ended")
            }
            other => panic!("{other:?}"),
        }
        match play("undo\nquit\n") {
            Err(PlayError::Agent { player: 1, error: AgentError::Aborted(why) }) => {
                assert_eq!(why, "the player quit")
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn the_squares_of_a_move_are_those_it_changes_in_its_order() {
        let m = [Action::new(1, 0), Action::new(2, 7), Action::new(3, 5), Action::new(4, 5)];
        // A score set at vertex 0 first, a piece moved from 7 to 5.
        assert_eq!(squares(&m, &[5, 7]), vec![7, 5]);
        // Nothing changed: every vertex, repeats in a row removed.
        assert_eq!(squares(&m, &[]), vec![0, 7, 5]);
    }

    #[test]
    fn paths_match_exactly_or_by_their_ends() {
        assert!(passes_through(&[1, 2, 3], &[1, 3]));
        assert!(passes_through(&[1, 2, 3], &[2]));
        assert!(!passes_through(&[1, 2, 3], &[2, 3]));
        assert!(passes_through(&[1, 2, 4, 3], &[1, 4, 3]));
        assert!(!passes_through(&[1, 2, 4, 3], &[1, 5, 3]));
        assert!(!passes_through(&[1], &[]));
    }
}
