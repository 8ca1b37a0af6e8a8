//! `rbg board`: what a game's board is made of, and an SVG drawing of it.
//!
//! Figures: the number of sites (vertices of the RBG board), of labelled directed edges and
//! of neighbour pairs (sites joined by an edge in either direction), the cells (for a
//! `tiling` board the cells of its tiling's graph; for `rectangle`, `hexagon` and `cuboid`
//! every site is a cell; an explicit node list has no cells), the histogram of degrees (a
//! site's degree is the number of distinct sites one of its edges leads to) and every label
//! with the number of edges carrying it.
//!
//! The drawing puts each site at its position (generated boards) or, for a board without
//! positions, on a circle in vertex order; a line joins every neighbour pair and each site is
//! a dot with its name. One unit of position is 60 pixels, or more so that the closest
//! neighbours are at least 40 pixels apart (at most 400 pixels a unit).

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::Path;

use rbg_parser::ir::Board;

use crate::diagnostics::Format;
use crate::Failure;

/// Pixels per unit of position, at least.
const UNIT: f64 = 60.0;
/// The least distance between neighbours in pixels, unless a unit would exceed `MAX_UNIT`.
const NEIGHBOUR_GAP: f64 = 40.0;
const MAX_UNIT: f64 = 400.0;
/// Empty space around the drawing, in pixels.
const MARGIN: f64 = 40.0;

pub fn run(file: &Path, svg: Option<&Path>, format: Format) -> Result<(), Failure> {
    let loaded = crate::load::load(file, format, true)?;
    let board = &loaded.ir.board;
    let report = summary(board);
    std::io::stdout().lock().write_all(report.as_bytes()).map_err(Failure::output)?;
    if let Some(path) = svg {
        std::fs::write(path, drawing(board))
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

/// Where each site is drawn, in position units, `y` growing downwards.
fn layout(board: &Board) -> Vec<[f64; 2]> {
    match &board.positions {
        Some(positions) if positions.len() == board.vertices.len() => {
            positions.iter().map(|p| p.point).collect()
        }
        _ => {
            // A circle whose neighbouring points are one unit apart.
            let n = board.vertices.len().max(1) as f64;
            let radius = (n / std::f64::consts::TAU).max(1.0);
            (0..board.vertices.len())
                .map(|i| {
                    let angle = std::f64::consts::TAU * i as f64 / n - std::f64::consts::FRAC_PI_2;
                    [radius * angle.cos(), radius * angle.sin()]
                })
                .collect()
        }
    }
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// Pixels per unit: enough to keep neighbours [`NEIGHBOUR_GAP`] apart.
fn unit(points: &[[f64; 2]], pairs: &BTreeSet<(u32, u32)>) -> f64 {
    let closest = pairs
        .iter()
        .map(|&(a, b)| {
            let (p, q) = (points[a as usize], points[b as usize]);
            (p[0] - q[0]).hypot(p[1] - q[1])
        })
        .filter(|d| d.is_finite() && *d > 1e-9)
        .fold(f64::INFINITY, f64::min);
    (NEIGHBOUR_GAP / closest).clamp(UNIT, MAX_UNIT)
}

fn drawing(board: &Board) -> String {
    let points = layout(board);
    let pairs = neighbour_pairs(board);
    let unit = unit(&points, &pairs);
    let finite = |v: f64| if v.is_finite() { v } else { 0.0 };
    let min_x = points.iter().map(|p| finite(p[0])).fold(f64::INFINITY, f64::min);
    let min_y = points.iter().map(|p| finite(p[1])).fold(f64::INFINITY, f64::min);
    let max_x = points.iter().map(|p| finite(p[0])).fold(f64::NEG_INFINITY, f64::max);
    let max_y = points.iter().map(|p| finite(p[1])).fold(f64::NEG_INFINITY, f64::max);
    let (min_x, min_y) = if points.is_empty() { (0.0, 0.0) } else { (min_x, min_y) };
    let (max_x, max_y) = if points.is_empty() { (0.0, 0.0) } else { (max_x, max_y) };
    let at = |p: [f64; 2]| ((finite(p[0]) - min_x) * unit + MARGIN, (finite(p[1]) - min_y) * unit + MARGIN);
    let width = (max_x - min_x) * unit + 2.0 * MARGIN;
    let height = (max_y - min_y) * unit + 2.0 * MARGIN;
    let mut svg = String::new();
    let _ = writeln!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.1} {height:.1}">"#
    );
    let _ = writeln!(svg, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let _ = writeln!(svg, r##"<g stroke="#999" stroke-width="1.5">"##);
    for &(a, b) in &pairs {
        let ((x1, y1), (x2, y2)) = (at(points[a as usize]), at(points[b as usize]));
        let _ = writeln!(svg, r#"<line x1="{x1:.1}" y1="{y1:.1}" x2="{x2:.1}" y2="{y2:.1}"/>"#);
    }
    let _ = writeln!(svg, "</g>");
    let _ = writeln!(svg, r#"<g font-family="sans-serif" font-size="10" text-anchor="middle">"#);
    for (vertex, &point) in board.vertices.iter().zip(&points) {
        let (x, y) = at(point);
        let _ = writeln!(svg, r##"<circle cx="{x:.1}" cy="{y:.1}" r="4" fill="#333"/>"##);
        let _ = writeln!(svg, r#"<text x="{x:.1}" y="{:.1}">{}</text>"#, y - 7.0, escape(&vertex.name));
    }
    let _ = writeln!(svg, "</g>\n</svg>");
    svg
}
