//! The text picture of a position, for terminals and Python's `str(state)`: the board as a
//! grid of short piece labels when the vertices have positions (boards made by `rectangle`,
//! `hexagon` or `cuboid`; hexagon rows are offset by half a cell), else a list of the occupied
//! vertices by piece; then the labels that are not the pieces' names, the scores and the other
//! variables.
//!
//! Which pieces are empty cells (drawn `.`, left out of the list) is decided by the same rules
//! as the SVG picture's ([`crate::pieces`]). Labels are the shortest abbreviations that tell
//! all pieces apart (a terminal has no colours to tell `blackKing` from `whiteKing`).
//! Rectangle boards get file letters (`a` on the left) and ranks (`1` at the bottom) around the
//! grid, and [`TextBoard::alias`] gives those chess-style names, which move input may accept.

use std::fmt::Write as _;

use rbg_core::{Game, GameInfo, Player, VertexPosition};

use crate::pieces::Look;

/// The widest grid drawn (in characters) and the most rows; larger boards are listed.
const MAX_GRID_WIDTH: usize = 300;
const MAX_GRID_ROWS: usize = 200;

/// How a game's positions are drawn as text, and the chess-style names of a rectangle board's
/// vertices (made once per game).
#[derive(Debug, Clone)]
pub struct TextBoard {
    /// Short piece labels by piece id.
    labels: Vec<String>,
    /// The pieces that stand for an empty cell (by piece id).
    empty: Vec<bool>,
    /// The pieces whose label is not their name (by piece id).
    legend: Vec<bool>,
    grid: Option<Grid>,
    /// Chess-style names of the vertices of a rectangle board.
    aliases: Vec<Option<String>>,
}

#[derive(Debug, Clone)]
struct Grid {
    /// Top to bottom: a row label and the cells as (character column, vertex).
    rows: Vec<(String, Vec<(usize, u32)>)>,
    /// File letters over the columns (rectangle boards).
    header: Option<Vec<(usize, char)>>,
    label_width: usize,
    cell_width: usize,
}

impl TextBoard {
    pub fn new<G: Game>(game: &G) -> Self {
        let info = game.info();
        let empty: Vec<bool> = crate::game_piece_looks(game).iter().map(|l| *l == Look::Hidden).collect();
        let labels = short_labels(&info.pieces, &empty);
        let legend: Vec<bool> =
            (0..info.pieces.len()).map(|i| !empty[i] && labels[i] != info.pieces[i]).collect();
        let cell_width = labels.iter().map(|l| l.chars().count()).max().unwrap_or(1).max(1);
        let (grid, aliases) = match &info.positions {
            Some(p) if p.len() == info.vertices.len() && !p.is_empty() => grid(info, p, cell_width),
            _ => (None, vec![None; info.vertices.len()]),
        };
        TextBoard { labels, empty, legend, grid, aliases }
    }

    /// Whether `piece` stands for an empty cell.
    pub fn is_empty(&self, piece: u32) -> bool {
        self.empty.get(piece as usize).copied().unwrap_or(false)
    }

    /// The chess-style name of vertex `v` on a rectangle board (`a1` bottom left), if it has
    /// one (a vertex of the game named so keeps its own name).
    pub fn alias(&self, v: u32) -> Option<&str> {
        self.aliases.get(v as usize).and_then(Option::as_deref)
    }

    /// The vertex whose chess-style name is `name` (any case).
    pub fn vertex_of_alias(&self, name: &str) -> Option<u32> {
        self.aliases
            .iter()
            .position(|a| a.as_deref().is_some_and(|a| a.eq_ignore_ascii_case(name)))
            .map(|v| v as u32)
    }

    /// A vertex as a player reads it: its chess-style name on rectangle boards, its name
    /// otherwise.
    pub fn vertex_label(&self, info: &GameInfo, v: u32) -> String {
        match self.alias(v) {
            Some(alias) => alias.to_string(),
            None => info.vertices.get(v as usize).cloned().unwrap_or_else(|| v.to_string()),
        }
    }

    /// Vertices as [`TextBoard::vertex_label`]s joined by `-`.
    pub fn path_label(&self, info: &GameInfo, path: &[u32]) -> String {
        path.iter().map(|&v| self.vertex_label(info, v)).collect::<Vec<_>>().join("-")
    }

    /// The label drawn for `piece`: `.` for an empty cell.
    pub fn label(&self, piece: u32) -> &str {
        if self.is_empty(piece) {
            "."
        } else {
            self.labels.get(piece as usize).map_or("?", String::as_str)
        }
    }

    /// The picture of `state`: the board, the legend of the labels, the scores and the other
    /// variables, each line ending in a newline.
    pub fn draw<G: Game>(&self, game: &G, state: &G::State) -> String {
        let info = game.info();
        let mut out = String::new();
        let pieces: Vec<u32> = (0..info.vertices.len() as u32).map(|v| game.piece(state, v)).collect();
        match &self.grid {
            Some(grid) => self.draw_grid(grid, &pieces, &mut out),
            None => self.draw_list(info, &pieces, &mut out),
        }
        if self.grid.is_some() {
            // The labels that are not names, of the pieces on the board.
            let mut on_board = vec![false; info.pieces.len()];
            for &p in &pieces {
                if let Some(b) = on_board.get_mut(p as usize) {
                    *b = true;
                }
            }
            let pairs: Vec<String> = (0..info.pieces.len())
                .filter(|&i| on_board[i] && self.legend[i])
                .map(|i| format!("{}={}", self.labels[i], info.pieces[i]))
                .collect();
            if !pairs.is_empty() {
                let _ = writeln!(out, "pieces: {}", pairs.join(" "));
            }
        }
        let players = info.num_players();
        let scores: Vec<String> = (1..=players as Player)
            .map(|p| format!("{}={}", info.players[p as usize - 1], game.score(state, p)))
            .collect();
        let _ = writeln!(out, "scores: {}", scores.join(" "));
        if info.variables.len() > players {
            let vars: Vec<String> = (players..info.variables.len())
                .map(|v| format!("{}={}", info.variables[v], game.variable(state, v)))
                .collect();
            let _ = writeln!(out, "variables: {}", vars.join(" "));
        }
        out
    }

    fn draw_grid(&self, grid: &Grid, pieces: &[u32], out: &mut String) {
        let indent = grid.label_width + 2;
        if let Some(header) = &grid.header {
            let _ =
                writeln!(out, "{}", place_chars(indent, header.iter().map(|&(c, ch)| (c, ch.to_string()))));
        }
        for (label, cells) in &grid.rows {
            let row = place_chars(
                0,
                cells.iter().map(|&(c, v)| {
                    let l = self.label(pieces.get(v as usize).copied().unwrap_or(u32::MAX));
                    let pad = grid.cell_width.saturating_sub(l.chars().count());
                    (c + pad, l.to_string())
                }),
            );
            let _ = writeln!(out, "{label:>w$}  {row}", w = grid.label_width);
        }
    }

    /// `piece: vertex vertex ...` for every piece on the board that is not empty.
    fn draw_list(&self, info: &GameInfo, pieces: &[u32], out: &mut String) {
        let mut any = false;
        for piece in 0..info.pieces.len() as u32 {
            if self.is_empty(piece) {
                continue;
            }
            let at: Vec<&str> = (0..pieces.len())
                .filter(|&v| pieces[v] == piece)
                .map(|v| info.vertices[v].as_str())
                .collect();
            if !at.is_empty() {
                any = true;
                let _ = writeln!(out, "{}: {}", info.pieces[piece as usize], at.join(" "));
            }
        }
        if !any {
            let _ = writeln!(out, "(no pieces on the board)");
        }
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

/// Short distinct labels: each piece's name cut to its most telling characters, as few as tell
/// the pieces apart (at least 1; lengthened only where two labels collide). The characters are
/// taken in this order of preference and then written in their order in the name: the first
/// one, capitals and digits, the characters right after a capital, the others (`blackKnight`
/// gives `b`, `bK`, `bKn`). Full names if collisions remain.
fn short_labels(pieces: &[String], empty: &[bool]) -> Vec<String> {
    let shown: Vec<usize> = (0..pieces.len()).filter(|&i| !empty.get(i).copied().unwrap_or(false)).collect();
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_are_short_and_distinct() {
        let names = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let empty_at = |n: usize, i: Option<usize>| (0..n).map(|k| Some(k) == i).collect::<Vec<_>>();
        assert_eq!(short_labels(&names(&["free", "X", "O"]), &empty_at(3, Some(0))), names(&["f", "X", "O"]));
        assert_eq!(
            short_labels(&names(&["empty", "wPawn", "bPawn"]), &empty_at(3, Some(0))),
            names(&["e", "w", "b"])
        );
        let chess =
            names(&["blackKing", "blackKnight", "blackPawn", "blackRookUnmoved", "empty", "whitePawn"]);
        assert_eq!(short_labels(&chess, &empty_at(6, Some(4))), names(&["bKi", "bKn", "bP", "bR", "e", "w"]));
        assert_eq!(abbreviate("whitePawn2", 3), "wP2");
        assert_eq!(abbreviate("blackRookUnmoved", 4), "bRoU");
        // A name that is another's abbreviation: the longer name grows.
        assert_eq!(short_labels(&names(&["bK", "bKing"]), &[]), names(&["bK", "bKi"]));
        // "." is the empty cell: no piece gets it.
        assert_eq!(short_labels(&names(&[".x", "y"]), &[]), names(&[".x", "y"]));
    }
}
