//! The `#board` section (spec section 6).
//!
//! The section is tried, as in the reference, as a `hexagon`, `rectangle` or `cuboid` generator
//! (recognised by the leading keyword) and otherwise as an explicit node list (recognised by a
//! leading identifier); anything else cannot be a board. Generators live in [`generators`], the
//! node list in [`nodes`]. Both produce vertices in board order, so vertex 0, the first vertex,
//! is the starting vertex.
//!
//! Unlike the reference we reject a board without vertices (spec 6.7): it has no starting vertex.

mod generators;
mod nodes;
mod tiling;

use crate::cursor::Cursor;
use crate::decl::Declarations;
use crate::diag::Diagnostic;
use crate::expand::Expanded;
use crate::ir::Board;
use crate::token::{Keyword, Sym, Token, TokenKind};

/// Context named in "Unexpected end of input while parsing …" for most of the board.
const SEGMENT: &str = "'board' segment";

/// Reads the board section.
pub(crate) fn parse_board(
    expanded: &Expanded,
    decls: &Declarations,
    warnings: &mut Vec<Diagnostic>,
) -> Result<Board, Diagnostic> {
    let mut cursor = Cursor::new(&expanded.board, &expanded.trails);
    let Some(first) = cursor.peek()? else {
        return Err(Diagnostic::error("Couldn't interpret this as board game", Some(expanded.board.end)));
    };
    let board = match &first.kind {
        TokenKind::Keyword(Keyword::Hexagon) => generators::hexagon(&mut cursor, decls)?,
        TokenKind::Keyword(Keyword::Rectangle) => generators::rectangle(&mut cursor, decls)?,
        TokenKind::Keyword(Keyword::Cuboid) => generators::cuboid(&mut cursor, decls)?,
        // `tiling(` is the tiling generator; a node named `tiling` is followed by `[`.
        TokenKind::Ident(name)
            if name.as_ref() == "tiling" && cursor.peek_second().is_some_and(|t| t.is_sym(Sym::LParen)) =>
        {
            tiling::tiling(&mut cursor, decls)?
        }
        TokenKind::Ident(_) => nodes::node_list(&mut cursor, decls)?,
        _ => return Err(cursor.error_at(first, "Couldn't interpret this as board game")),
    };
    let generator = matches!(first.kind, TokenKind::Keyword(_)) || board.geometry.is_some();
    let trailing_context = if generator { "'board' section" } else { SEGMENT };
    cursor.warn_if_trailing(trailing_context, warnings)?;
    if board.vertices.is_empty() {
        return Err(cursor.error_at(
            first,
            "The board has no vertices (every cell is a hole), so it has no starting vertex",
        ));
    }
    Ok(board)
}

/// Checks a newly named edge label: it must not name a piece, player or variable, nor repeat a
/// label in `seen` (the labels of the same generator or node).
fn check_label(
    cursor: &Cursor,
    decls: &Declarations,
    token: &Token,
    name: &str,
    seen: &[&str],
) -> Result<(), Diagnostic> {
    let clash = if decls.piece(name).is_some() {
        " as piece"
    } else if decls.player(name).is_some() {
        " as player"
    } else if decls.variable(name).is_some() {
        " as variable"
    } else if seen.contains(&name) {
        ""
    } else {
        return Ok(());
    };
    Err(cursor.error_at(token, format!("Edge label '{name}' was already declared{clash}")))
}

/// The name of an identifier token (callers have checked the kind).
fn ident_name(token: &Token) -> &str {
    match &token.kind {
        TokenKind::Ident(name) => name,
        _ => "",
    }
}

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tiling_tests;
