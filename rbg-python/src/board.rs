//! The text picture of a state (`str(state)`): whose turn it is, the scores, and the board as
//! a grid when the vertices have flat grid coordinates, else as a list of occupied vertices.
//!
//! The CLI's human agent draws boards too, but that code lives in the `rbg` binary crate; this
//! is a smaller drawing that needs only `GameInfo`.

use std::collections::HashMap;
use std::fmt::Write as _;

use rbg_core::dynamic::{AnyGame, DynState};
use rbg_core::{Game, GameInfo, KEEPER};

/// Pieces drawn as `.`: the names RBG descriptions conventionally give the empty square.
const EMPTY_NAMES: [&str; 3] = ["empty", "e", "free"];

/// The picture of `state`; `finished` says whether the game is over.
pub fn draw(any: &AnyGame, state: &DynState, finished: bool) -> String {
    let info = any.info();
    let mut out = String::new();
    let player = any.current_player(state);
    if finished {
        out.push_str("game over\n");
    } else if player != KEEPER {
        let _ = writeln!(out, "{} to move", info.players[player as usize - 1]);
    }
    let scores: Vec<String> = info
        .players
        .iter()
        .enumerate()
        .map(|(i, p)| format!("{p} {}", any.score(state, i as u32 + 1)))
        .collect();
    let _ = writeln!(out, "scores: {}", scores.join(", "));
    let cells: Vec<&str> = (0..info.vertices.len() as u32)
        .map(|v| {
            let name = info.pieces[any.piece(state, v) as usize].as_str();
            if EMPTY_NAMES.contains(&name) {
                "."
            } else {
                name
            }
        })
        .collect();
    match grid(info) {
        Some(grid) => draw_grid(&mut out, &grid, &cells),
        None => draw_list(&mut out, info, &cells),
    }
    out
}

/// Where each vertex goes in a grid: `(column, row)` from 0, and the grid's size.
struct Grid {
    places: Vec<(usize, usize)>,
    columns: usize,
    rows: usize,
}

/// The grid of a board whose vertices have distinct flat coordinates, if it is small enough
/// to draw (at most 64 columns; larger boards are listed).
fn grid(info: &GameInfo) -> Option<Grid> {
    let positions = info.positions.as_ref()?;
    if positions.is_empty() || positions.iter().any(|p| p.coords[2] != 0) {
        return None;
    }
    let min_x = positions.iter().map(|p| p.coords[0]).min()?;
    let min_y = positions.iter().map(|p| p.coords[1]).min()?;
    let places: Vec<(usize, usize)> =
        positions.iter().map(|p| ((p.coords[0] - min_x) as usize, (p.coords[1] - min_y) as usize)).collect();
    let columns = places.iter().map(|p| p.0).max()? + 1;
    let rows = places.iter().map(|p| p.1).max()? + 1;
    let mut seen = HashMap::new();
    if columns > 64 || rows > 64 || places.iter().any(|p| seen.insert(*p, ()).is_some()) {
        return None;
    }
    Some(Grid { places, columns, rows })
}

/// One row of cells per grid row, each cell padded to the longest piece name shown.
fn draw_grid(out: &mut String, grid: &Grid, cells: &[&str]) {
    let width = cells.iter().map(|c| c.chars().count()).max().unwrap_or(1);
    let mut rows = vec![vec![""; grid.columns]; grid.rows];
    for (v, &(x, y)) in grid.places.iter().enumerate() {
        rows[y][x] = cells[v];
    }
    for row in rows {
        let line: Vec<String> = row.iter().map(|c| format!("{c:>width$}")).collect();
        let _ = writeln!(out, "{}", line.join(" ").trim_end());
    }
}

/// `vertex: piece` for every vertex not holding an empty square.
fn draw_list(out: &mut String, info: &GameInfo, cells: &[&str]) {
    for (v, cell) in cells.iter().enumerate().filter(|(_, c)| **c != ".") {
        let _ = writeln!(out, "{}: {cell}", info.vertices[v]);
    }
}
