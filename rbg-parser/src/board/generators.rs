//! The board generators `rectangle`, `hexagon` and `cuboid` (spec sections 6.2-6.5).
//!
//! Each generator reads its labels and its rows into a grid of cells `layers[z][y][x]` (a cell
//! is a piece or a hole; rectangles and hexagons have one layer, hexagon rows are ragged), then
//! one shared builder numbers the non-hole cells in layer, row, column order and asks the
//! generator's neighbour function where each label leads. A target outside its row or on a hole
//! gives no edge, so edges never jump over holes.

use super::{check_label, ident_name, SEGMENT};
use crate::cursor::Cursor;
use crate::decl::Declarations;
use crate::diag::Diagnostic;
use crate::ir::{Board, Edge, LabelId, PieceId, Position, Vertex, VertexId};
use crate::token::{Sym, Token, TokenKind};

/// A row's cells: a piece or a hole.
type Row = Vec<Option<PieceId>>;

/// A row with the `[` it was opened by (for diagnostics).
struct ParsedRow<'a> {
    open: &'a Token,
    cells: Row,
}

/// `rectangle(up, down, left, right, row row …)`.
pub(super) fn rectangle(cursor: &mut Cursor, decls: &Declarations) -> Result<Board, Diagnostic> {
    let labels = header(cursor, decls, 4)?;
    let mut lengths = EqualLengths::default();
    let rows =
        rows_of_generator(cursor, decls, "'rectangle' generator requires at least one boardline", |c, r| {
            lengths.check(c, r)
        })?;
    cursor.expect_sym(Sym::RParen, SEGMENT)?;
    let layer: Vec<Row> = rows.into_iter().map(|r| r.cells).collect();
    // Slots: up, down, left, right.
    let step = |x: i64, y: i64, z: i64, slot: usize| match slot {
        0 => (x, y - 1, z),
        1 => (x, y + 1, z),
        2 => (x - 1, y, z),
        _ => (x + 1, y, z),
    };
    let place =
        |x: usize, y: usize, _| Position { coords: [x as i32, y as i32, 0], point: [x as f64, y as f64] };
    Ok(build(&[layer], &labels, |x, y, _| format!("rx{x}y{y}"), step, place))
}

/// `hexagon(nw, ne, e, se, sw, w, row row …)`.
pub(super) fn hexagon(cursor: &mut Cursor, decls: &Declarations) -> Result<Board, Diagnostic> {
    let labels = header(cursor, decls, 6)?;
    let mut shape = HexagonShape::default();
    let rows =
        rows_of_generator(cursor, decls, "'hexagon' generator requires at least one boardline", |c, r| {
            shape.check(c, r)
        })?;
    let longest = shape.longest;
    cursor.expect_sym(Sym::RParen, SEGMENT)?;
    let layer: Vec<Row> = rows.into_iter().map(|r| r.cells).collect();
    let p = longest as i64;
    // Slots: nw, ne, e, se, sw, w. Cell c of a row sits between cells c-1 and c of a longer
    // neighbouring row, and between cells c and c+1 of a shorter one. Rows up to the longest
    // one have a shorter row above; rows from the longest one on have a shorter row below.
    let step = move |c: i64, r: i64, z: i64, slot: usize| match slot {
        0 if r <= p => (c - 1, r - 1, z),
        0 => (c, r - 1, z),
        1 if r <= p => (c, r - 1, z),
        1 => (c + 1, r - 1, z),
        2 => (c + 1, r, z),
        3 if r < p => (c + 1, r + 1, z),
        3 => (c, r + 1, z),
        4 if r < p => (c, r + 1, z),
        4 => (c - 1, r + 1, z),
        _ => (c - 1, r, z),
    };
    // Axial coordinates and a drawing point (see `ir::Position`): the longest row starts at
    // x = 0 and every row away from it is shifted right by half a cell per row.
    let row_gap = 3f64.sqrt() / 2.0;
    let place = move |c: usize, r: usize, _| {
        let q = c + r.saturating_sub(longest);
        let shift = r.abs_diff(longest) as f64 / 2.0;
        Position { coords: [q as i32, r as i32, 0], point: [c as f64 + shift, r as f64 * row_gap] }
    };
    Ok(build(&[layer], &labels, |c, r, _| format!("hx{c}y{r}"), step, place))
}

/// `cuboid(up, down, left, right, front, back, layer layer …)` with `layer = "[" row {row} "]"`.
pub(super) fn cuboid(cursor: &mut Cursor, decls: &Declarations) -> Result<Board, Diagnostic> {
    let labels = header(cursor, decls, 6)?;
    let mut layers: Vec<Vec<ParsedRow>> = Vec::new();
    let mut lengths = EqualLengths::default();
    while cursor.peek_is(Sym::LBracket)? {
        let rows_wanted = layers.first().map(|first| first.len());
        layers.push(layer(cursor, decls, rows_wanted, &mut lengths)?);
    }
    if layers.is_empty() {
        let token = cursor.peek_required(SEGMENT)?;
        return Err(cursor.error_at(token, "'cuboid' generator requires at least one rectangular layer"));
    }
    cursor.expect_sym(Sym::RParen, SEGMENT)?;
    let layers: Vec<Vec<Row>> =
        layers.into_iter().map(|rows| rows.into_iter().map(|r| r.cells).collect()).collect();
    // Slots: up, down, left, right, front (next layer), back (previous layer).
    let step = |x: i64, y: i64, z: i64, slot: usize| match slot {
        0 => (x, y - 1, z),
        1 => (x, y + 1, z),
        2 => (x - 1, y, z),
        3 => (x + 1, y, z),
        4 => (x, y, z + 1),
        _ => (x, y, z - 1),
    };
    // Layers are drawn side by side with one empty column between them.
    let width = layers[0].first().map_or(0, Vec::len);
    let place = |x: usize, y: usize, z: usize| Position {
        coords: [x as i32, y as i32, z as i32],
        point: [(z * (width + 1) + x) as f64, y as f64],
    };
    Ok(build(&layers, &labels, |x, y, z| format!("cx{x}y{y}z{z}"), step, place))
}

/// One cuboid layer. Every layer after the first must have `rows_wanted` rows.
fn layer<'a>(
    cursor: &mut Cursor<'a>,
    decls: &Declarations,
    rows_wanted: Option<usize>,
    lengths: &mut EqualLengths,
) -> Result<Vec<ParsedRow<'a>>, Diagnostic> {
    cursor.expect_sym(Sym::LBracket, SEGMENT)?;
    let mut rows = Vec::new();
    loop {
        let token = cursor.peek_required(SEGMENT)?;
        if !token.is_sym(Sym::LBracket) {
            break;
        }
        if rows_wanted == Some(rows.len()) {
            return Err(cursor.error_at(
                token,
                "Cannot add this boardline, this layer is already as large as the first one",
            ));
        }
        let row = row(cursor, decls)?;
        lengths.check(cursor, &row)?;
        rows.push(row);
    }
    let token = cursor.peek_required(SEGMENT)?;
    if rows.is_empty() {
        return Err(cursor.error_at(token, "Expected at least one boardline"));
    }
    if rows_wanted.is_some_and(|wanted| rows.len() < wanted) {
        return Err(
            cursor.error_at(token, "Expected more boardlines, layer size is not aligned with the previous")
        );
    }
    cursor.expect_sym(Sym::RBracket, SEGMENT)?;
    Ok(rows)
}

/// The keyword, `(` and `count` labels each followed by `,`; the labels in argument order.
fn header(cursor: &mut Cursor, decls: &Declarations, count: usize) -> Result<Vec<String>, Diagnostic> {
    cursor.advance();
    cursor.expect_sym(Sym::LParen, SEGMENT)?;
    let mut labels: Vec<&str> = Vec::with_capacity(count);
    for _ in 0..count {
        let token = cursor.expect_ident("Expected edge label", "identifier")?;
        let name = ident_name(token);
        check_label(cursor, decls, token, name, &labels)?;
        labels.push(name);
        cursor.expect_sym(Sym::Comma, SEGMENT)?;
    }
    Ok(labels.into_iter().map(str::to_string).collect())
}

/// The rows of a rectangle or hexagon: at least one, and as many as follow.
fn rows_of_generator<'a>(
    cursor: &mut Cursor<'a>,
    decls: &Declarations,
    none_message: &str,
    mut check: impl FnMut(&Cursor, &ParsedRow) -> Result<(), Diagnostic>,
) -> Result<Vec<ParsedRow<'a>>, Diagnostic> {
    let mut rows = Vec::new();
    while cursor.peek_is(Sym::LBracket)? {
        let row = row(cursor, decls)?;
        check(cursor, &row)?;
        rows.push(row);
    }
    if rows.is_empty() {
        let token = cursor.peek_required(SEGMENT)?;
        return Err(cursor.error_at(token, none_message));
    }
    Ok(rows)
}

/// `"[" [ cell { "," cell } ] "]"` where a cell is a piece name or nothing (a hole).
fn row<'a>(cursor: &mut Cursor<'a>, decls: &Declarations) -> Result<ParsedRow<'a>, Diagnostic> {
    let open = cursor.expect_sym(Sym::LBracket, SEGMENT)?;
    row_cells(cursor, decls, open).map_err(|error| explain_unclosed_row(error, open))
}

/// Points an error about a missing `]` (another token, or the end of input) at the `[` that
/// opened the boardline, with a note on what a boardline looks like.
fn explain_unclosed_row(error: Diagnostic, open: &Token) -> Diagnostic {
    let missing_closer =
        error.message.starts_with("Expected ']'") || error.message.starts_with("Unexpected end of input");
    if !missing_closer {
        return error;
    }
    error
        .with_label(open.span, "this boardline is not closed")
        .with_note("a boardline is '[' piece or hole, separated by ',', then ']'")
}

fn row_cells<'a>(
    cursor: &mut Cursor<'a>,
    decls: &Declarations,
    open: &'a Token,
) -> Result<ParsedRow<'a>, Diagnostic> {
    let mut cells = Vec::new();
    if cursor.peek_is(Sym::RBracket)? {
        cursor.advance();
        return Ok(ParsedRow { open, cells });
    }
    loop {
        let mut token = cursor.peek_required(SEGMENT)?;
        let mut cell = None;
        if let TokenKind::Ident(name) = &token.kind {
            let piece = decls.piece(name).ok_or_else(|| {
                cursor.error_at(token, format!("Identifier '{name}' was not declared in respective segment"))
            })?;
            cell = Some(piece);
            cursor.advance();
            token = cursor.peek_required(SEGMENT)?;
        }
        cells.push(cell);
        match &token.kind {
            TokenKind::Sym(Sym::Comma) => cursor.advance(),
            TokenKind::Sym(Sym::RBracket) => {
                cursor.advance();
                return Ok(ParsedRow { open, cells });
            }
            // The reference reads `[a b]` as `[a, <hole>]`; the spec asks us to reject it.
            TokenKind::Ident(_) => {
                return Err(cursor.encountered("Cells of a boardline must be separated by ','", token))
            }
            _ => return Err(cursor.encountered("Expected ']'", token)),
        }
    }
}

/// Checks that every row is as long as the first one seen.
#[derive(Default)]
struct EqualLengths {
    first: Option<usize>,
}

impl EqualLengths {
    fn check(&mut self, cursor: &Cursor, row: &ParsedRow) -> Result<(), Diagnostic> {
        match self.first {
            Some(length) if length != row.cells.len() => {
                Err(cursor.error_at(row.open, "This line differs in length with the previous"))
            }
            Some(_) => Ok(()),
            None => {
                self.first = Some(row.cells.len());
                Ok(())
            }
        }
    }
}

/// Checks the hexagon's row lengths as the rows come: they grow by one cell per row, then, from
/// the first shorter row on, shrink by one per row. Tracks the index of the longest row.
#[derive(Default)]
struct HexagonShape {
    rows: usize,
    previous: usize,
    shrinking: bool,
    longest: usize,
}

impl HexagonShape {
    fn check(&mut self, cursor: &Cursor, row: &ParsedRow) -> Result<(), Diagnostic> {
        let length = row.cells.len();
        if length == 0 {
            return Err(cursor.error_at(row.open, "Boardline cannot be empty"));
        }
        if self.rows > 0 {
            if self.shrinking {
                if length + 1 != self.previous {
                    return Err(
                        cursor.error_at(row.open, "This line should be one square shorter than previous")
                    );
                }
            } else if length == self.previous + 1 {
                self.longest = self.rows;
            } else if length + 1 == self.previous {
                self.shrinking = true;
            } else {
                return Err(cursor
                    .error_at(row.open, "This line should be one square shorter or longer than previous"));
            }
        }
        self.rows += 1;
        self.previous = length;
        Ok(())
    }
}

/// Numbers the non-hole cells of `layers[z][y][x]` and connects them: the label in `slot` leads
/// from (x, y, z) to `step(x, y, z, slot)` if that cell exists and is not a hole. `place` gives
/// each vertex its [`Position`].
fn build(
    layers: &[Vec<Row>],
    labels: &[String],
    name: impl Fn(usize, usize, usize) -> String,
    step: impl Fn(i64, i64, i64, usize) -> (i64, i64, i64),
    place: impl Fn(usize, usize, usize) -> Position,
) -> Board {
    let ids = number_cells(layers);
    let id_at = |x: i64, y: i64, z: i64| -> Option<VertexId> {
        let at = |v: i64| usize::try_from(v).ok();
        *ids.get(at(z)?)?.get(at(y)?)?.get(at(x)?)?
    };
    let mut sorted_labels = labels.to_vec();
    sorted_labels.sort();
    // Label ids are positions in the sorted list; trying slots in that order sorts the edges.
    let slots_by_label: Vec<usize> =
        sorted_labels.iter().filter_map(|l| labels.iter().position(|m| m == l)).collect();
    let mut vertices = Vec::new();
    let mut positions = Vec::new();
    for (z, layer) in layers.iter().enumerate() {
        for (y, row) in layer.iter().enumerate() {
            for (x, cell) in row.iter().enumerate() {
                let Some(piece) = *cell else { continue };
                let edges = slots_by_label
                    .iter()
                    .enumerate()
                    .filter_map(|(label, &slot)| {
                        let (tx, ty, tz) = step(x as i64, y as i64, z as i64, slot);
                        id_at(tx, ty, tz).map(|target| Edge { label: label as LabelId, target })
                    })
                    .collect();
                vertices.push(Vertex { name: name(x, y, z), piece, edges });
                positions.push(place(x, y, z));
            }
        }
    }
    Board { labels: sorted_labels, vertices, positions: Some(positions), geometry: None }
}

/// The vertex id of every non-hole cell, in layer, row, column order.
fn number_cells(layers: &[Vec<Row>]) -> Vec<Vec<Vec<Option<VertexId>>>> {
    let mut next: VertexId = 0;
    let mut ids = Vec::with_capacity(layers.len());
    for layer in layers {
        let mut layer_ids = Vec::with_capacity(layer.len());
        for row in layer {
            let mut row_ids = Vec::with_capacity(row.len());
            for cell in row {
                row_ids.push(cell.map(|_| next));
                if cell.is_some() {
                    next += 1;
                }
            }
            layer_ids.push(row_ids);
        }
        ids.push(layer_ids);
    }
    ids
}
