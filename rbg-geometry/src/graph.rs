//! The board graph ⟨V, E, C⟩ of the paper: vertices with positions, edges, and cells given
//! by their corners counter-clockwise; and the graph operators.
//!
//! Graphs are built from polygons: corners closer than [`EPS`] are one vertex (looked up in a
//! hash grid), an edge is a side of a cell (or an edge added by an operator), a cell with the
//! same corners as another is the same cell. This is what lets operators such as merge and
//! the tilings themselves glue tiles together without bookkeeping.

use std::collections::{HashMap, HashSet};

use crate::point::{average, Point, Polygon, EPS};
use crate::shape::{Shape, MAX_TILES};
use crate::tiling::Tiling;
use crate::GeometryError;

#[derive(Clone, Debug, Default)]
pub struct Graph {
    vertices: Vec<Point>,
    /// Each edge once, smaller vertex id first.
    edges: Vec<[usize; 2]>,
    /// Corners of each cell, counter-clockwise.
    cells: Vec<Vec<usize>>,
}

/// Collects vertices, edges and cells without duplicates.
#[derive(Default)]
struct Builder {
    graph: Graph,
    grid: HashMap<(i64, i64), Vec<usize>>,
    edge_set: HashSet<[usize; 2]>,
    cell_set: HashSet<Vec<usize>>,
}

impl Builder {
    fn key(p: Point) -> (i64, i64) {
        ((p.x / EPS).round() as i64, (p.y / EPS).round() as i64)
    }

    fn vertex(&mut self, p: Point) -> usize {
        let (kx, ky) = Builder::key(p);
        for dx in -1..=1 {
            for dy in -1..=1 {
                if let Some(ids) = self.grid.get(&(kx + dx, ky + dy)) {
                    if let Some(&id) = ids.iter().find(|&&id| self.graph.vertices[id].distance(p) < EPS) {
                        return id;
                    }
                }
            }
        }
        let id = self.graph.vertices.len();
        self.graph.vertices.push(p);
        self.grid.entry((kx, ky)).or_default().push(id);
        id
    }

    fn edge(&mut self, a: usize, b: usize) {
        let edge = [a.min(b), a.max(b)];
        if a != b && self.edge_set.insert(edge) {
            self.graph.edges.push(edge);
        }
    }

    fn cell(&mut self, corners: &[Point]) {
        let ids: Vec<usize> = corners.iter().map(|c| self.vertex(*c)).collect();
        let mut key = ids.clone();
        key.sort_unstable();
        key.dedup();
        if key.len() < 3 || !self.cell_set.insert(key) {
            return;
        }
        for k in 0..ids.len() {
            self.edge(ids[k], ids[(k + 1) % ids.len()]);
        }
        self.graph.cells.push(ids);
    }

    fn finish(self, operation: &'static str) -> Result<Graph, GeometryError> {
        let graph = self.graph;
        if graph.vertices.is_empty() {
            return Err(GeometryError::EmptyBoard(operation));
        }
        let count = graph.vertices.len().max(graph.cells.len());
        if count > MAX_TILES {
            return Err(GeometryError::TooLarge { count: count as u128, limit: MAX_TILES });
        }
        Ok(graph)
    }
}

impl Graph {
    /// A tiling cut to a shape.
    pub fn tiling(tiling: Tiling, shape: &Shape) -> Result<Graph, GeometryError> {
        let mut builder = Builder::default();
        for corners in shape.tiles(tiling)? {
            builder.cell(&corners);
        }
        builder.finish(shape.name())
    }

    pub fn vertices(&self) -> &[Point] {
        &self.vertices
    }

    pub fn edges(&self) -> &[[usize; 2]] {
        &self.edges
    }

    pub fn cells(&self) -> &[Vec<usize>] {
        &self.cells
    }

    pub fn cell_centre(&self, cell: usize) -> Point {
        let corners: Vec<Point> = self.cells[cell].iter().map(|&v| self.vertices[v]).collect();
        average(&corners)
    }

    /// For each edge (smaller id first), the cells it bounds.
    pub(crate) fn cells_by_edge(&self) -> HashMap<[usize; 2], Vec<usize>> {
        let mut map: HashMap<[usize; 2], Vec<usize>> = HashMap::new();
        for (c, corners) in self.cells.iter().enumerate() {
            for k in 0..corners.len() {
                let (a, b) = (corners[k], corners[(k + 1) % corners.len()]);
                map.entry([a.min(b), a.max(b)]).or_default().push(c);
            }
        }
        map
    }

    /// For each vertex, the cells it is a corner of.
    pub(crate) fn cells_by_vertex(&self) -> Vec<Vec<usize>> {
        let mut at = vec![Vec::new(); self.vertices.len()];
        for (c, corners) in self.cells.iter().enumerate() {
            for &v in corners {
                at[v].push(c);
            }
        }
        at
    }

    /// For each vertex, its neighbours along edges.
    pub(crate) fn vertex_neighbours(&self) -> Vec<Vec<usize>> {
        let mut next = vec![Vec::new(); self.vertices.len()];
        for &[a, b] in &self.edges {
            next[a].push(b);
            next[b].push(a);
        }
        next
    }

    /// The weak dual: a vertex at the centre of every cell, an edge between cells sharing an
    /// edge, and a cell around every inner vertex (one whose edges all bound two cells), its
    /// corners the centres of the cells around that vertex.
    pub fn dual(&self) -> Result<Graph, GeometryError> {
        let mut builder = Builder::default();
        let centres: Vec<usize> =
            (0..self.cells.len()).map(|c| builder.vertex(self.cell_centre(c))).collect();
        let by_edge = self.cells_by_edge();
        for cells in by_edge.values() {
            if let [a, b] = cells[..] {
                builder.edge(centres[a], centres[b]);
            }
        }
        let neighbours = self.vertex_neighbours();
        for (v, cells) in self.cells_by_vertex().iter().enumerate() {
            let inner = cells.len() >= 3
                && cells.len() == neighbours[v].len()
                && neighbours[v]
                    .iter()
                    .all(|&w| by_edge.get(&[v.min(w), v.max(w)]).is_some_and(|c| c.len() == 2));
            if !inner {
                continue;
            }
            let here = self.vertices[v];
            let mut around: Vec<(f64, Point)> = cells
                .iter()
                .map(|&c| {
                    let centre = self.cell_centre(c);
                    let d = centre.minus(here);
                    (d.y.atan2(d.x), centre)
                })
                .collect();
            around.sort_by(|a, b| a.0.total_cmp(&b.0));
            let corners: Vec<Point> = around.into_iter().map(|(_, p)| p).collect();
            builder.cell(&corners);
        }
        builder.finish("dual")
    }

    /// Keeps what lies inside the polygon (boundary included): the vertices inside, the edges
    /// with both ends inside, the cells with all corners inside.
    pub fn clip(&self, polygon: &Polygon) -> Result<Graph, GeometryError> {
        let inside: Vec<bool> = self.vertices.iter().map(|p| polygon.contains(*p)).collect();
        let mut builder = Builder::default();
        for cell in self.cells.iter().filter(|c| c.iter().all(|&v| inside[v])) {
            builder.cell(&self.corners(cell));
        }
        for &[a, b] in self.edges.iter().filter(|[a, b]| inside[*a] && inside[*b]) {
            let (a, b) = (builder.vertex(self.vertices[a]), builder.vertex(self.vertices[b]));
            builder.edge(a, b);
        }
        builder.finish("clip")
    }

    /// The union of two graphs: vertices at the same place are one, equal cells are one.
    pub fn merge(&self, other: &Graph) -> Result<Graph, GeometryError> {
        let total = self.vertices.len() + other.vertices.len();
        if total > MAX_TILES {
            return Err(GeometryError::TooLarge { count: total as u128, limit: MAX_TILES });
        }
        let mut builder = Builder::default();
        for graph in [self, other] {
            for cell in &graph.cells {
                builder.cell(&graph.corners(cell));
            }
            for &[a, b] in &graph.edges {
                let (a, b) = (builder.vertex(graph.vertices[a]), builder.vertex(graph.vertices[b]));
                builder.edge(a, b);
            }
        }
        builder.finish("merge")
    }

    /// Moves every vertex by `(dx, dy)`.
    pub fn shift(&self, dx: f64, dy: f64) -> Result<Graph, GeometryError> {
        self.map(|p| Point::new(p.x + dx, p.y + dy))
    }

    /// Turns the graph counter-clockwise by `degrees` around the origin.
    pub fn rotate(&self, degrees: f64) -> Result<Graph, GeometryError> {
        let (sin, cos) = degrees.to_radians().sin_cos();
        self.map(|p| Point::new(p.x * cos - p.y * sin, p.x * sin + p.y * cos))
    }

    /// Scales the graph by `factor` (positive) around the origin.
    pub fn scale(&self, factor: f64) -> Result<Graph, GeometryError> {
        if factor.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater) {
            return Err(GeometryError::NonPositiveScale);
        }
        self.map(|p| p.times(factor))
    }

    /// The same graph with moved vertices (the orientation of cells is kept by rotations,
    /// shifts and positive scalings).
    fn map(&self, f: impl Fn(Point) -> Point) -> Result<Graph, GeometryError> {
        let vertices: Vec<Point> = self.vertices.iter().map(|p| f(*p)).collect();
        if vertices.iter().any(|p| !p.is_finite() || p.x.abs() > 1e12 || p.y.abs() > 1e12) {
            return Err(GeometryError::NotFinite);
        }
        Ok(Graph { vertices, edges: self.edges.clone(), cells: self.cells.clone() })
    }

    fn corners(&self, cell: &[usize]) -> Vec<Point> {
        cell.iter().map(|&v| self.vertices[v]).collect()
    }
}
