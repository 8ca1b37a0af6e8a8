//! The `tiling` board generator (an extension; docs/language-extensions.md): boards from the
//! tilings, shapes and operators of `rbg-geometry`, lowered to an ordinary node list.
//!
//! ```text
//! tiling-board = "tiling" "(" graph "," sites "," pieces ")"
//! graph  = tiling-name "(" shape ")" | "dual" "(" graph ")" | "clip" "(" graph "," polygon ")"
//!        | "merge" "(" graph "," graph ")" | "shift" "(" graph "," number "," number ")"
//!        | "rotate" "(" graph "," number ")" | "scale" "(" graph "," number ")"
//! shape  = "rectangle" "(" n "," n ")" | "hexagon" "(" n ")" | "triangle" "(" n ")"
//!        | "diamond" "(" n ")" | polygon
//! polygon = "polygon" "(" point { "," point } ")" ;  point = "(" number "," number ")"
//! sites  = "cells" | "vertices" | "remove" "(" ("cells" | "vertices") { "," site } ")"
//! pieces = row { row } | piece { "," site ":" piece }
//! number = [ "-" ] digits [ "/" digits ]
//! ```
//!
//! Geometry errors point at the name of the tiling, shape or operator that failed. The
//! edges are labelled by compass points and relations; the relation words become choices in
//! the rules ([`crate::ir::BoardGeometry`]).

use rbg_geometry::{
    build_board, GeometryError, GraphSpec, Point, Polygon, Relation, Shape, SiteKind, Tiling,
};

use super::{check_label, SEGMENT};
use crate::cursor::Cursor;
use crate::decl::Declarations;
use crate::diag::Diagnostic;
use crate::ir::{Board, BoardGeometry, Edge, LabelId, PieceId, Position, Vertex, VertexId};
use crate::token::{Sym, Token, TokenKind};

/// Operators nest at most this deep (the description is evaluated recursively).
const MAX_DEPTH: usize = 64;

type Spec<'a> = GraphSpec<&'a Token>;

/// `tiling(graph, sites, pieces)`.
pub(super) fn tiling(cursor: &mut Cursor, decls: &Declarations) -> Result<Board, Diagnostic> {
    let keyword = cursor.peek_required(SEGMENT)?;
    cursor.advance();
    cursor.expect_sym(Sym::LParen, SEGMENT)?;
    let spec = graph(cursor, 0)?;
    cursor.expect_sym(Sym::Comma, SEGMENT)?;
    let (kind, removed) = sites(cursor)?;
    cursor.expect_sym(Sym::Comma, SEGMENT)?;
    let board = build_board(&spec, kind).map_err(|(error, at)| cursor.error_at(at, error.to_string()))?;
    let mut removed_sites = vec![false; board.sites.len()];
    for token in removed {
        let site = site_index(cursor, &board, token)?;
        removed_sites[site] = true;
    }
    let pieces = pieces(cursor, decls, &board, &mut removed_sites)?;
    cursor.expect_sym(Sym::RParen, SEGMENT)?;
    let board = board.without(&removed_sites).map_err(|error| cursor.error_at(keyword, error.to_string()))?;
    let pieces: Vec<PieceId> =
        pieces.into_iter().zip(&removed_sites).filter(|(_, &gone)| !gone).map(|(p, _)| p).collect();
    for label in &board.labels {
        check_label(cursor, decls, keyword, label, &[]).map_err(|error| {
            error.with_note("a tiling board names its edges by compass points (N, NNE, ...) and relations (orthN, diagNE, adjS, offW)")
        })?;
    }
    Ok(to_ir(board, pieces))
}

/// The words of a description: identifiers and the keywords `rectangle` and `hexagon`.
fn word(token: &Token) -> Option<&str> {
    match &token.kind {
        TokenKind::Ident(name) => Some(name),
        TokenKind::Keyword(keyword) => Some(keyword.as_str()),
        _ => None,
    }
}

fn graph<'a>(cursor: &mut Cursor<'a>, depth: usize) -> Result<Spec<'a>, Diagnostic> {
    let token = cursor.peek_required(SEGMENT)?;
    if depth > MAX_DEPTH {
        return Err(
            cursor.error_at(token, format!("Board operators are nested too deeply (more than {MAX_DEPTH})"))
        );
    }
    let name = match &token.kind {
        TokenKind::Number(_) => vertex_configuration(cursor)?,
        _ => {
            let name =
                word(token).ok_or_else(|| cursor.encountered("Expected a tiling or an operator", token))?;
            cursor.advance();
            name.to_string()
        }
    };
    cursor.expect_sym(Sym::LParen, SEGMENT)?;
    let inner = |cursor: &mut Cursor<'a>| graph(cursor, depth + 1).map(Box::new);
    let spec = match name.as_str() {
        "dual" => GraphSpec::Dual(inner(cursor)?, token),
        "clip" => {
            let graph = inner(cursor)?;
            cursor.expect_sym(Sym::Comma, SEGMENT)?;
            let polygon_token = cursor.peek_required(SEGMENT)?;
            if word(polygon_token) != Some("polygon") {
                return Err(cursor.encountered("Expected 'polygon'", polygon_token));
            }
            cursor.advance();
            GraphSpec::Clip(graph, polygon(cursor, polygon_token)?, token)
        }
        "merge" => {
            let first = inner(cursor)?;
            cursor.expect_sym(Sym::Comma, SEGMENT)?;
            GraphSpec::Merge(first, inner(cursor)?, token)
        }
        "shift" => {
            let graph = inner(cursor)?;
            let dx = comma_number(cursor)?;
            let dy = comma_number(cursor)?;
            GraphSpec::Shift(graph, dx, dy, token)
        }
        "rotate" => {
            let graph = inner(cursor)?;
            GraphSpec::Rotate(graph, comma_number(cursor)?, token)
        }
        "scale" => {
            let graph = inner(cursor)?;
            GraphSpec::Scale(graph, comma_number(cursor)?, token)
        }
        _ => {
            let tiling = Tiling::from_name(&name).ok_or_else(|| {
                cursor.error_at(token, GeometryError::UnknownTiling(name.clone()).to_string()).with_note(
                    "operators: dual(g), clip(g, polygon(...)), merge(g, g), shift(g, dx, dy), rotate(g, degrees), scale(g, factor)",
                )
            })?;
            GraphSpec::Tiling { tiling, shape: shape(cursor)?, at: token }
        }
    };
    cursor.expect_sym(Sym::RParen, SEGMENT)?;
    Ok(spec)
}

/// A vertex configuration such as `3.4.6.4`: numbers joined by dots.
fn vertex_configuration(cursor: &mut Cursor) -> Result<String, Diagnostic> {
    let mut name = String::new();
    loop {
        let token = cursor.peek_required(SEGMENT)?;
        let TokenKind::Number(n) = token.kind else {
            return Err(cursor.encountered("Expected a number", token));
        };
        cursor.advance();
        name.push_str(&n.to_string());
        if !cursor.peek_is(Sym::Dot)? || name.len() > 64 {
            return Ok(name);
        }
        cursor.advance();
        name.push('.');
    }
}

fn shape(cursor: &mut Cursor) -> Result<Shape, Diagnostic> {
    let token = cursor.peek_required(SEGMENT)?;
    let name = word(token).ok_or_else(|| cursor.encountered("Expected a shape", token))?;
    cursor.advance();
    if name == "polygon" {
        return Ok(Shape::Polygon(polygon(cursor, token)?));
    }
    cursor.expect_sym(Sym::LParen, SEGMENT)?;
    let shape = match name {
        "rectangle" => {
            let width = size(cursor)?;
            cursor.expect_sym(Sym::Comma, SEGMENT)?;
            Shape::Rectangle { width, height: size(cursor)? }
        }
        "hexagon" => Shape::Hexagon(size(cursor)?),
        "triangle" => Shape::Triangle(size(cursor)?),
        "diamond" => Shape::Diamond(size(cursor)?),
        _ => return Err(cursor.error_at(token, GeometryError::UnknownShape(name.to_string()).to_string())),
    };
    cursor.expect_sym(Sym::RParen, SEGMENT)?;
    Ok(shape)
}

/// A size: a number of at least 1.
fn size(cursor: &mut Cursor) -> Result<u32, Diagnostic> {
    let token = cursor.peek_required(SEGMENT)?;
    match token.kind {
        TokenKind::Number(0) => Err(cursor.error_at(token, GeometryError::ZeroSize.to_string())),
        TokenKind::Number(n) => {
            cursor.advance();
            Ok(n)
        }
        _ => Err(cursor.encountered("Expected a size", token)),
    }
}

/// `"," number`.
fn comma_number(cursor: &mut Cursor) -> Result<f64, Diagnostic> {
    cursor.expect_sym(Sym::Comma, SEGMENT)?;
    number(cursor)
}

/// `[ "-" ] digits [ "/" digits ]`.
fn number(cursor: &mut Cursor) -> Result<f64, Diagnostic> {
    let negative = cursor.peek_is(Sym::Minus)?;
    if negative {
        cursor.advance();
    }
    let digits = |cursor: &mut Cursor| -> Result<u32, Diagnostic> {
        let token = cursor.peek_required(SEGMENT)?;
        let TokenKind::Number(n) = token.kind else {
            return Err(cursor.encountered("Expected a number", token));
        };
        cursor.advance();
        Ok(n)
    };
    let mut value = f64::from(digits(cursor)?);
    if cursor.peek_is(Sym::Slash)? {
        cursor.advance();
        let token = cursor.peek_required(SEGMENT)?;
        let denominator = digits(cursor)?;
        if denominator == 0 {
            return Err(cursor.error_at(token, "Division by zero"));
        }
        value /= f64::from(denominator);
    }
    Ok(if negative { -value } else { value })
}

/// `"(" point { "," point } ")"` after the word `polygon` (`at`).
fn polygon(cursor: &mut Cursor, at: &Token) -> Result<Polygon, Diagnostic> {
    cursor.expect_sym(Sym::LParen, SEGMENT)?;
    let mut corners = Vec::new();
    loop {
        cursor.expect_sym(Sym::LParen, SEGMENT)?;
        let x = number(cursor)?;
        let y = comma_number(cursor)?;
        cursor.expect_sym(Sym::RParen, SEGMENT)?;
        corners.push(Point::new(x, y));
        if corners.len() > rbg_geometry::MAX_CORNERS {
            return Err(cursor.error_at(at, GeometryError::TooManyCorners.to_string()));
        }
        if !cursor.peek_is(Sym::Comma)? {
            break;
        }
        cursor.advance();
    }
    cursor.expect_sym(Sym::RParen, SEGMENT)?;
    Polygon::new(corners).map_err(|error| cursor.error_at(at, error.to_string()))
}

/// `cells`, `vertices` or `remove(cells, site, ...)`: the kind and the site names to remove.
fn sites<'a>(cursor: &mut Cursor<'a>) -> Result<(SiteKind, Vec<&'a Token>), Diagnostic> {
    let token = cursor.peek_required(SEGMENT)?;
    cursor.advance();
    let kind = |token: &Token| match word(token) {
        Some("cells") => Ok(SiteKind::Cells),
        Some("vertices") => Ok(SiteKind::Vertices),
        _ => Err(cursor.encountered("Expected 'cells', 'vertices' or 'remove'", token)),
    };
    if word(token) != Some("remove") {
        return Ok((kind(token)?, Vec::new()));
    }
    cursor.expect_sym(Sym::LParen, SEGMENT)?;
    let kind_token = cursor.peek_required(SEGMENT)?;
    let kind = match word(kind_token) {
        Some("cells") => SiteKind::Cells,
        Some("vertices") => SiteKind::Vertices,
        _ => return Err(cursor.encountered("Expected 'cells' or 'vertices'", kind_token)),
    };
    cursor.advance();
    let mut removed = Vec::new();
    while cursor.peek_is(Sym::Comma)? {
        cursor.advance();
        removed.push(cursor.expect_ident("Expected a site name", SEGMENT)?);
    }
    cursor.expect_sym(Sym::RParen, SEGMENT)?;
    Ok((kind, removed))
}

fn site_index(cursor: &Cursor, board: &rbg_geometry::Board, token: &Token) -> Result<usize, Diagnostic> {
    let name = word(token).unwrap_or_default();
    board
        .site(name)
        .ok_or_else(|| cursor.error_at(token, GeometryError::UnknownSite(name.to_string()).to_string()))
}

fn piece_of(cursor: &Cursor, decls: &Declarations, token: &Token) -> Result<PieceId, Diagnostic> {
    let name = word(token).unwrap_or_default();
    decls.piece(name).ok_or_else(|| cursor.error_at(token, format!("Piece '{name}' was not declared")))
}

/// The initial piece of every site: rows of pieces in site order (a hole removes its site),
/// or one piece for all with exceptions `site: piece`.
fn pieces(
    cursor: &mut Cursor,
    decls: &Declarations,
    board: &rbg_geometry::Board,
    removed: &mut [bool],
) -> Result<Vec<PieceId>, Diagnostic> {
    let first = cursor.peek_required(SEGMENT)?;
    if !first.is_sym(Sym::LBracket) {
        let fill = cursor.expect_ident("Expected a piece or a boardline", SEGMENT)?;
        let mut pieces = vec![piece_of(cursor, decls, fill)?; board.sites.len()];
        while cursor.peek_is(Sym::Comma)? {
            cursor.advance();
            let site = cursor.expect_ident("Expected a site name", SEGMENT)?;
            let index = site_index(cursor, board, site)?;
            cursor.expect_sym(Sym::Colon, SEGMENT)?;
            let piece = cursor.expect_ident("Expected piece name", SEGMENT)?;
            pieces[index] = piece_of(cursor, decls, piece)?;
        }
        return Ok(pieces);
    }
    let mut cells: Vec<Option<PieceId>> = Vec::new();
    while cursor.peek_is(Sym::LBracket)? {
        cursor.advance();
        let row_start = cells.len();
        loop {
            let token = cursor.peek_required(SEGMENT)?;
            let mut cell = None;
            if matches!(token.kind, TokenKind::Ident(_)) {
                cell = Some(piece_of(cursor, decls, token)?);
                cursor.advance();
            }
            let separator = cursor.peek_required(SEGMENT)?;
            let closes = separator.is_sym(Sym::RBracket);
            if !closes && !separator.is_sym(Sym::Comma) {
                return Err(cursor.encountered("Expected ',' or ']'", separator));
            }
            // `[]` is an empty row, not one hole; `[a,]` is a piece and a hole.
            let empty_row = closes && cell.is_none() && cells.len() == row_start;
            if !empty_row {
                cells.push(cell);
            }
            cursor.advance();
            if closes || cells.len() > board.sites.len() {
                break;
            }
        }
    }
    if cells.len() != board.sites.len() {
        return Err(cursor.error_at(
            first,
            format!(
                "The boardlines give {} cells but the board has {} sites, one per cell in site order",
                cells.len(),
                board.sites.len()
            ),
        ));
    }
    for (gone, cell) in removed.iter_mut().zip(&cells) {
        *gone |= cell.is_none();
    }
    Ok(cells.into_iter().map(|c| c.unwrap_or(0)).collect())
}

/// The IR board: vertices in site order, positions with `y` growing downwards.
fn to_ir(board: rbg_geometry::Board, pieces: Vec<PieceId>) -> Board {
    let relations = Relation::ALL
        .iter()
        .map(|&r| {
            (
                r.name().to_string(),
                board.relation_labels(r).into_iter().map(|l| l as LabelId).collect::<Vec<_>>(),
            )
        })
        .filter(|(_, labels)| !labels.is_empty())
        .collect();
    let geometry = BoardGeometry {
        relations,
        on_vertices: board.kind == SiteKind::Vertices,
        graph_vertices: board.graph_vertices,
        graph_edges: board.graph_edges,
        graph_cells: board.graph_cells,
    };
    let positions = board
        .sites
        .iter()
        .map(|s| Position {
            coords: [s.column as i32, s.row as i32, 0],
            point: [s.position.x, -s.position.y],
        })
        .collect();
    let vertices = board
        .sites
        .into_iter()
        .zip(pieces)
        .map(|(site, piece)| Vertex {
            name: site.name,
            piece,
            edges: site
                .edges
                .iter()
                .map(|&(l, t)| Edge { label: l as LabelId, target: t as VertexId })
                .collect(),
        })
        .collect();
    Board { labels: board.labels, vertices, positions: Some(positions), geometry: Some(geometry) }
}
