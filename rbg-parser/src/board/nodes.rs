//! The explicit (low-level) node list (spec section 6.1):
//! `name [piece] {label: target, …}` repeated, at least one edge per node.
//!
//! Targets may name nodes written later, so they are resolved once the whole list is read. The
//! list ends at the first token that is not an identifier. Labels may repeat across nodes but
//! not within one; the board's label set is every label named anywhere in the list.

use std::collections::{BTreeMap, HashMap};

use super::{check_label, ident_name, SEGMENT};
use crate::cursor::Cursor;
use crate::decl::Declarations;
use crate::diag::Diagnostic;
use crate::ir::{Board, Edge, LabelId, PieceId, Vertex, VertexId};
use crate::token::{Sym, Token, TokenKind};

/// Context for "Unexpected end of input" inside `{ … }`.
const EDGES: &str = "edge list";
/// Context for "Unexpected end of input" where a name is expected.
const IDENT: &str = "identifier";

/// A node as written: targets are still names.
struct Node<'a> {
    name: &'a str,
    piece: PieceId,
    edges: Vec<(&'a str, &'a Token)>,
}

pub(super) fn node_list(cursor: &mut Cursor, decls: &Declarations) -> Result<Board, Diagnostic> {
    let mut nodes: Vec<Node> = Vec::new();
    let mut index: HashMap<&str, VertexId> = HashMap::new();
    while let Some(token) = cursor.peek()? {
        let TokenKind::Ident(name) = &token.kind else { break };
        if index.contains_key(name.as_ref()) {
            return Err(cursor.error_at(token, format!("Vertex '{name}' already exists")));
        }
        cursor.advance();
        index.insert(name, nodes.len() as VertexId);
        let piece = initial_piece(cursor, decls)?;
        let edges = edges(cursor, decls)?;
        nodes.push(Node { name, piece, edges });
    }
    resolve(cursor, &nodes, &index)
}

/// `"[" piece "]"`.
fn initial_piece(cursor: &mut Cursor, decls: &Declarations) -> Result<PieceId, Diagnostic> {
    cursor.expect_sym(Sym::LBracket, SEGMENT)?;
    let token = cursor.expect_ident("Expected piece name", IDENT)?;
    let name = ident_name(token);
    let piece = decls
        .piece(name)
        .ok_or_else(|| cursor.error_at(token, format!("Piece '{name}' was not declared")))?;
    cursor.expect_sym(Sym::RBracket, SEGMENT)?;
    Ok(piece)
}

/// `"{" label ":" target { "," label ":" target } "}"`.
fn edges<'a>(cursor: &mut Cursor<'a>, decls: &Declarations) -> Result<Vec<(&'a str, &'a Token)>, Diagnostic> {
    cursor.expect_sym(Sym::LBrace, SEGMENT)?;
    let mut edges: Vec<(&str, &Token)> = Vec::new();
    loop {
        let label_token = cursor.expect_ident("Expected edge label", IDENT)?;
        let label = ident_name(label_token);
        let seen: Vec<&str> = edges.iter().map(|(l, _)| *l).collect();
        check_label(cursor, decls, label_token, label, &seen)?;
        cursor.expect_sym(Sym::Colon, EDGES)?;
        let target = cursor.expect_ident("Expected vertex name", IDENT)?;
        edges.push((label, target));
        let token = cursor.peek_required(EDGES)?;
        cursor.advance();
        match token.kind {
            TokenKind::Sym(Sym::Comma) => {}
            TokenKind::Sym(Sym::RBrace) => return Ok(edges),
            _ => return Err(cursor.encountered("Expected ',' or '}'", token)),
        }
    }
}

/// Numbers the labels and resolves the targets ("Target vertex 'x' was not declared").
fn resolve(cursor: &Cursor, nodes: &[Node], index: &HashMap<&str, VertexId>) -> Result<Board, Diagnostic> {
    let mut label_ids: BTreeMap<&str, LabelId> =
        nodes.iter().flat_map(|n| n.edges.iter().map(|(label, _)| (*label, 0))).collect();
    for (id, value) in label_ids.values_mut().enumerate() {
        *value = id as LabelId;
    }
    let mut vertices = Vec::with_capacity(nodes.len());
    for node in nodes {
        let mut edges = Vec::with_capacity(node.edges.len());
        for (label, target_token) in &node.edges {
            let target_name = ident_name(target_token);
            let target = index.get(target_name).copied().ok_or_else(|| {
                cursor.error_at(target_token, format!("Target vertex '{target_name}' was not declared"))
            })?;
            edges.push(Edge { label: label_ids.get(label).copied().unwrap_or_default(), target });
        }
        edges.sort_by_key(|e| e.label);
        vertices.push(Vertex { name: node.name.to_string(), piece: node.piece, edges });
    }
    Ok(Board {
        labels: label_ids.keys().map(|l| l.to_string()).collect(),
        vertices,
        positions: None,
        geometry: None,
    })
}
