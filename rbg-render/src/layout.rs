//! Where each vertex is drawn and what shape its cell has.
//!
//! In order of preference:
//!
//! 1. **Generator positions** ([`GameInfo::positions`]). Points on the integer grid whose
//!    drawing height equals the grid row are squares (a `rectangle`, or the layers of a
//!    `cuboid` side by side, labelled by layer); rows `√3/2` apart with half-cell shifts are
//!    hexagons (`hexagon`); anything else is drawn as nodes.
//! 2. **A grid guessed from the vertex names** ([`crate::names`]): squares when the names fill
//!    a whole rectangle, otherwise nodes on the grid points with the edges drawn.
//! 3. **Edge labels naming directions** (`up`, `left`, `ne` ...; [`crate::directions`]):
//!    nodes on the grid the directions imply, with the edges drawn.
//! 4. **The edge graph** laid out automatically ([`crate::graph`]): nodes and edges.

use rbg_core::{GameInfo, VertexPosition};

use crate::names::{grid_from_names, NamePattern};

/// The shape of the cells.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Shape {
    /// Unit squares centred on the points, checkered.
    Squares,
    /// Pointy-topped hexagons one cell wide, in three shades.
    Hexagons,
    /// Small circles, with the board's edges drawn as lines.
    Nodes,
}

/// Where the layout came from.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// The board generator's positions.
    Generator,
    /// Vertex names following a pattern.
    Names(NamePattern),
    /// Edge labels naming directions.
    Directions,
    /// The automatic layout of the edge graph.
    Graph,
}

/// The drawing of a board, independent of any state.
#[derive(Clone, Debug, PartialEq)]
pub struct Layout {
    /// Centre of each vertex's cell, in cells (x to the right, y down), parallel to
    /// [`GameInfo::vertices`].
    pub points: Vec<[f64; 2]>,
    /// Shade of each cell (0, 1 or 2) for checkering.
    pub shades: Vec<u8>,
    pub shape: Shape,
    pub origin: Origin,
    /// Undirected edges between distinct vertices, each once, drawn for [`Shape::Nodes`].
    pub links: Vec<(u32, u32)>,
    /// Files (`a`, `b`, ...) and ranks (`1` at the bottom) to write around a rectangle board
    /// of this width and height whose cell `(x, y)` is at point `(x, y)`.
    pub files_and_ranks: Option<(i32, i32)>,
    /// Captions of cuboid layers: the text and the point (in cells) above the layer's first
    /// column.
    pub layer_labels: Vec<(String, [f64; 2])>,
}

impl Layout {
    /// The layout of a game's board (see the module docs). Deterministic.
    pub fn new(info: &GameInfo) -> Layout {
        let n = info.vertices.len();
        match &info.positions {
            Some(positions) if positions.len() == n && n > 0 => from_positions(info, positions),
            _ => from_names(info).or_else(|| from_directions(info)).unwrap_or_else(|| from_graph(info)),
        }
    }
}

fn links(info: &GameInfo) -> Vec<(u32, u32)> {
    let n = info.vertices.len() as u32;
    let mut out: Vec<(u32, u32)> = info
        .edges
        .iter()
        .filter(|&&(a, _, b)| a != b && a < n && b < n)
        .map(|&(a, _, b)| (a.min(b), a.max(b)))
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

fn is_integer(x: f64) -> bool {
    (x - x.round()).abs() < 1e-9
}

fn from_positions(info: &GameInfo, positions: &[VertexPosition]) -> Layout {
    let row_gap = 3f64.sqrt() / 2.0;
    let squares = positions
        .iter()
        .all(|p| is_integer(p.point[0]) && is_integer(p.point[1]) && p.point[1] == f64::from(p.coords[1]));
    let hexagons = positions.iter().all(|p| {
        is_integer(2.0 * p.point[0]) && (p.point[1] - f64::from(p.coords[1]) * row_gap).abs() < 1e-6
    });
    let points: Vec<[f64; 2]> = positions.iter().map(|p| p.point).collect();
    let (shape, shades): (Shape, Vec<u8>) = if squares {
        let shade = |p: &VertexPosition| (p.coords[0] + p.coords[1] + p.coords[2]).rem_euclid(2) as u8;
        (Shape::Squares, positions.iter().map(shade).collect())
    } else if hexagons {
        (Shape::Hexagons, positions.iter().map(|p| hexagon_shade(p.point, row_gap)).collect())
    } else {
        (Shape::Nodes, vec![0; positions.len()])
    };
    let rectangle = squares
        && positions
            .iter()
            .all(|p| p.coords[2] == 0 && p.point == [f64::from(p.coords[0]), f64::from(p.coords[1])]);
    let files_and_ranks = rectangle.then(|| {
        let extent = |k: usize| positions.iter().map(|p| p.coords[k]).max().unwrap_or(0) + 1;
        (extent(0), extent(1))
    });
    Layout {
        points,
        shades,
        shape,
        origin: Origin::Generator,
        links: if shape == Shape::Nodes { links(info) } else { Vec::new() },
        files_and_ranks: files_and_ranks.filter(|&(w, h)| {
            w <= 26 && h >= 1 && positions.iter().all(|p| p.coords[0] >= 0 && p.coords[1] >= 0)
        }),
        layer_labels: if squares { layer_labels(positions) } else { Vec::new() },
    }
}

/// One of three shades such that touching hexagons differ, from the drawing point: with `u`
/// the column in half cells and `r` the row, neighbours differ by (±2, 0) or (±1, ±1), so
/// `q = (u - r) / 2` and `r` are axial coordinates (neighbours at (±1, 0), (0, ±1), ±(1, -1))
/// and `(q - r) mod 3` differs between neighbours.
fn hexagon_shade(point: [f64; 2], row_gap: f64) -> u8 {
    let u = (2.0 * point[0]).round() as i64;
    let r = (point[1] / row_gap).round() as i64;
    let q = (u - r).div_euclid(2);
    (q - r).rem_euclid(3) as u8
}

/// "layer z" over the first column of each layer, when there are several.
fn layer_labels(positions: &[VertexPosition]) -> Vec<(String, [f64; 2])> {
    let mut layers: Vec<i32> = positions.iter().map(|p| p.coords[2]).collect();
    layers.sort_unstable();
    layers.dedup();
    if layers.len() < 2 {
        return Vec::new();
    }
    let top = positions.iter().map(|p| p.point[1]).fold(f64::INFINITY, f64::min);
    layers
        .iter()
        .map(|&z| {
            let left = positions
                .iter()
                .filter(|p| p.coords[2] == z)
                .map(|p| p.point[0])
                .fold(f64::INFINITY, f64::min);
            (format!("layer {z}"), [left, top])
        })
        .collect()
}

fn from_names(info: &GameInfo) -> Option<Layout> {
    let (pattern, cells) = grid_from_names(&info.vertices, &info.edges)?;
    let width = cells.iter().map(|c| c[0]).max()? + 1;
    let height = cells.iter().map(|c| c[1]).max()? + 1;
    let full = width.checked_mul(height) == Some(cells.len() as i64);
    let shape = if full { Shape::Squares } else { Shape::Nodes };
    Some(Layout {
        points: cells.iter().map(|c| [c[0] as f64, c[1] as f64]).collect(),
        shades: cells.iter().map(|c| (c[0] + c[1]).rem_euclid(2) as u8).collect(),
        shape,
        origin: Origin::Names(pattern),
        links: if full { Vec::new() } else { links(info) },
        files_and_ranks: None,
        layer_labels: Vec::new(),
    })
}

fn from_directions(info: &GameInfo) -> Option<Layout> {
    let n = info.vertices.len();
    let points = crate::directions::layout(n, &info.labels, &info.edges)?;
    Some(Layout {
        points,
        shades: vec![0; n],
        shape: Shape::Nodes,
        origin: Origin::Directions,
        links: links(info),
        files_and_ranks: None,
        layer_labels: Vec::new(),
    })
}

fn from_graph(info: &GameInfo) -> Layout {
    let n = info.vertices.len();
    Layout {
        points: crate::graph::layout(n, &info.edges),
        shades: vec![0; n],
        shape: Shape::Nodes,
        origin: Origin::Graph,
        links: links(info),
        files_and_ranks: None,
        layer_labels: Vec::new(),
    }
}
