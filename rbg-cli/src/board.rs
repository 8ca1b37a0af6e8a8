//! `rbg board`: what a game's board is made of, and an SVG drawing of it.
//!
//! Figures: the number of sites (vertices of the RBG board), of labelled directed edges and
//! of neighbour pairs (sites joined by an edge in either direction), the cells (for a
//! `tiling` board the cells of its tiling's graph; for `rectangle`, `hexagon` and `cuboid`
//! every site is a cell; an explicit node list has no cells), the histogram of degrees (a
//! site's degree is the number of distinct sites one of its edges leads to) and every label
//! with the number of edges carrying it.
//!
//! The drawing is rbg-render's picture of the initial position (the one picture renderer:
//! the same layout, hints and pieces as `rbg render` and the page) with every site's name.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::Path;

use rbg_parser::ir::Board;

use crate::diagnostics::Format;
use crate::Failure;

pub fn run(file: &Path, svg: Option<&Path>, format: Format) -> Result<(), Failure> {
    let loaded = crate::load::load(file, format, true)?;
    let board = &loaded.ir.board;
    let report = summary(board);
    std::io::stdout().lock().write_all(report.as_bytes()).map_err(Failure::output)?;
    if let Some(path) = svg {
        std::fs::write(path, crate::render::board_svg(file)?)
            .map_err(|e| Failure::new(format!("cannot write {}: {e}", path.display())))?;
    }
    Ok(())
}

/// Each unordered pair of sites joined by at least one edge.
fn neighbour_pairs(board: &Board) -> BTreeSet<(u32, u32)> {
    let mut pairs = BTreeSet::new();
    for (v, vertex) in board.vertices.iter().enumerate() {
        for edge in vertex.edges.iter().filter(|e| e.target as usize != v) {
            pairs.insert((edge.target.min(v as u32), edge.target.max(v as u32)));
        }
    }
    pairs
}

fn summary(board: &Board) -> String {
    let sites = board.vertices.len();
    let edges: usize = board.vertices.iter().map(|v| v.edges.len()).sum();
    let mut out = String::new();
    let _ = writeln!(out, "sites    {sites}");
    let _ = writeln!(
        out,
        "edges    {edges} labelled (directed), {} neighbour pairs",
        neighbour_pairs(board).len()
    );
    let cells = match (&board.geometry, &board.positions) {
        (Some(g), _) if g.on_vertices => {
            format!("{} (of the tiling; the sites are its vertices)", g.graph_cells)
        }
        (Some(g), _) => format!("{} (the sites)", g.graph_cells),
        (None, Some(_)) => format!("{sites} (each site is a cell)"),
        (None, None) => "none (an explicit node list has no cells)".to_string(),
    };
    let _ = writeln!(out, "cells    {cells}");
    if let Some(g) = &board.geometry {
        let _ = writeln!(
            out,
            "tiling   {} vertices, {} edges, {} cells",
            g.graph_vertices, g.graph_edges, g.graph_cells
        );
    }
    let mut degrees: BTreeMap<usize, usize> = BTreeMap::new();
    for vertex in &board.vertices {
        let targets: BTreeSet<u32> = vertex.edges.iter().map(|e| e.target).collect();
        *degrees.entry(targets.len()).or_default() += 1;
    }
    let _ = writeln!(out, "degree   sites");
    for (degree, count) in degrees {
        let _ = writeln!(out, "  {degree:>4}   {count}");
    }
    let mut per_label = vec![0usize; board.labels.len()];
    for edge in board.vertices.iter().flat_map(|v| &v.edges) {
        if let Some(count) = per_label.get_mut(edge.label as usize) {
            *count += 1;
        }
    }
    let _ = writeln!(out, "label    edges");
    for (label, count) in board.labels.iter().zip(per_label) {
        let _ = writeln!(out, "  {label:<12} {count}");
    }
    out
}
