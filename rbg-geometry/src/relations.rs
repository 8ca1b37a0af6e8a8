//! The relations of the paper's section 4 between sites of the same kind.
//!
//! For cells: *orthogonal* cells share an edge; *adjacent* cells share a vertex (so also an
//! edge); a *diagonal* cell shares a vertex `v` but no edge and its angle bisector at `v` is
//! the most opposed to ours (all ties count). Where no cell shares `v` without an edge (hex
//! cells), a cell at the far end `w` of an edge `vw` that is not ours counts, if its bisector
//! at `w` is the most opposed: the *non-adjacent* diagonal. An opposition below 90 degrees is
//! none. *Off-diagonal* cells share a vertex and are neither orthogonal nor diagonal. *All* is
//! the union.
//!
//! For vertices, cells and vertices change roles: orthogonal vertices share an edge, adjacent
//! ones share an edge or a cell; in each cell at `v` the diagonal vertex is the corner not
//! joined to `v` that lies most nearly along the cell's bisector at `v`; a triangle has no
//! such corner, so the corner of the cell across the opposite side counts (non-adjacent).
//!
//! Bisectors are taken from the corner towards the cell's centre, exact for regular polygons.

use std::collections::{BTreeSet, HashSet};

use crate::board::SiteKind;
use crate::point::Point;
use crate::Graph;

/// Angles within this many degrees are ties.
const ANGLE_TIE: f64 = 1e-6;

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Relation {
    Orthogonal,
    Diagonal,
    Adjacent,
    OffDiagonal,
    All,
}

impl Relation {
    pub const ALL: [Relation; 5] =
        [Relation::Orthogonal, Relation::Diagonal, Relation::Adjacent, Relation::OffDiagonal, Relation::All];

    /// The word rules use for the relation.
    pub fn name(self) -> &'static str {
        match self {
            Relation::Orthogonal => "orthogonal",
            Relation::Diagonal => "diagonal",
            Relation::Adjacent => "adjacent",
            Relation::OffDiagonal => "offdiagonal",
            Relation::All => "all",
        }
    }

    /// The prefix of the relation's direction labels (`orthN`); `all` uses the bare compass
    /// names (`N`).
    pub fn label_prefix(self) -> &'static str {
        match self {
            Relation::Orthogonal => "orth",
            Relation::Diagonal => "diag",
            Relation::Adjacent => "adj",
            Relation::OffDiagonal => "off",
            Relation::All => "",
        }
    }
}

/// The neighbours of every site (cell or vertex index) by relation, each list sorted.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Relations {
    pub orthogonal: Vec<Vec<usize>>,
    pub diagonal: Vec<Vec<usize>>,
    pub adjacent: Vec<Vec<usize>>,
    pub off_diagonal: Vec<Vec<usize>>,
    pub all: Vec<Vec<usize>>,
}

impl Relations {
    pub fn of(graph: &Graph, kind: SiteKind) -> Relations {
        let (orthogonal, diagonal, adjacent) = match kind {
            SiteKind::Cells => cell_relations(graph),
            SiteKind::Vertices => vertex_relations(graph),
        };
        let sites = orthogonal.len();
        let mut off_diagonal = Vec::with_capacity(sites);
        let mut all = Vec::with_capacity(sites);
        for s in 0..sites {
            let off: BTreeSet<usize> = adjacent[s]
                .iter()
                .filter(|n| !orthogonal[s].contains(n) && !diagonal[s].contains(n))
                .copied()
                .collect();
            let every: BTreeSet<usize> =
                orthogonal[s].iter().chain(&diagonal[s]).chain(&adjacent[s]).copied().collect();
            off_diagonal.push(off.into_iter().collect());
            all.push(every.into_iter().collect());
        }
        Relations { orthogonal, diagonal, adjacent, off_diagonal, all }
    }

    pub fn get(&self, relation: Relation) -> &[Vec<usize>] {
        match relation {
            Relation::Orthogonal => &self.orthogonal,
            Relation::Diagonal => &self.diagonal,
            Relation::Adjacent => &self.adjacent,
            Relation::OffDiagonal => &self.off_diagonal,
            Relation::All => &self.all,
        }
    }
}

type Lists = Vec<Vec<usize>>;

fn sorted(set: impl IntoIterator<Item = usize>) -> Vec<usize> {
    set.into_iter().collect::<BTreeSet<_>>().into_iter().collect()
}

/// Keeps the candidates with the best score (largest), ties included, if it passes `accept`.
fn best(candidates: Vec<(f64, usize)>, accept: impl Fn(f64) -> bool) -> Vec<usize> {
    let top = candidates.iter().map(|c| c.0).fold(f64::NEG_INFINITY, f64::max);
    if !accept(top) {
        return Vec::new();
    }
    candidates.into_iter().filter(|c| c.0 >= top - ANGLE_TIE).map(|c| c.1).collect()
}

fn cell_relations(graph: &Graph) -> (Lists, Lists, Lists) {
    let by_edge = graph.cells_by_edge();
    let by_vertex = graph.cells_by_vertex();
    let neighbours = graph.vertex_neighbours();
    let centres: Vec<Point> = (0..graph.cells().len()).map(|c| graph.cell_centre(c)).collect();
    let points = graph.vertices();
    let mut orthogonal = Vec::new();
    let mut diagonal = Vec::new();
    let mut adjacent = Vec::new();
    for (c, corners) in graph.cells().iter().enumerate() {
        let n = corners.len();
        let own_edges: HashSet<[usize; 2]> =
            (0..n).map(|k| (corners[k], corners[(k + 1) % n])).map(|(a, b)| [a.min(b), a.max(b)]).collect();
        let orth = sorted(
            own_edges.iter().flat_map(|e| by_edge.get(e).into_iter().flatten().copied()).filter(|&d| d != c),
        );
        let adj = sorted(corners.iter().flat_map(|&v| by_vertex[v].iter().copied()).filter(|&d| d != c));
        let mut diag = BTreeSet::new();
        for &v in corners {
            let bisector = centres[c].minus(points[v]);
            let opposition = |d: usize, at: usize| bisector.angle_to(centres[d].minus(points[at]));
            let sharing: Vec<(f64, usize)> = by_vertex[v]
                .iter()
                .filter(|&&d| d != c && orth.binary_search(&d).is_err())
                .map(|&d| (opposition(d, v), d))
                .collect();
            let found = if sharing.is_empty() {
                // Non-adjacent: across an edge vw that is not one of ours.
                let across: Vec<(f64, usize)> = neighbours[v]
                    .iter()
                    .filter(|&&w| !own_edges.contains(&[v.min(w), v.max(w)]))
                    .flat_map(|&w| {
                        by_vertex[w]
                            .iter()
                            .filter(|&&d| d != c && adj.binary_search(&d).is_err())
                            .map(move |&d| (d, w))
                    })
                    .map(|(d, w)| (opposition(d, w), d))
                    .collect();
                best(across, |a| a > 90.0 + ANGLE_TIE)
            } else {
                best(sharing, |a| a > 90.0 + ANGLE_TIE)
            };
            diag.extend(found);
        }
        orthogonal.push(orth);
        diagonal.push(diag.into_iter().collect());
        adjacent.push(adj);
    }
    (orthogonal, diagonal, adjacent)
}

fn vertex_relations(graph: &Graph) -> (Lists, Lists, Lists) {
    let by_edge = graph.cells_by_edge();
    let by_vertex = graph.cells_by_vertex();
    let neighbours = graph.vertex_neighbours();
    let points = graph.vertices();
    let cells = graph.cells();
    let mut orthogonal = Vec::new();
    let mut diagonal = Vec::new();
    let mut adjacent = Vec::new();
    for (v, &here) in points.iter().enumerate() {
        let orth = sorted(neighbours[v].iter().copied());
        let adj = sorted(
            orth.iter()
                .copied()
                .chain(by_vertex[v].iter().flat_map(|&f| cells[f].iter().copied()))
                .filter(|&w| w != v),
        );
        let mut diag = BTreeSet::new();
        for &f in &by_vertex[v] {
            let bisector = graph.cell_centre(f).minus(here);
            // Alignment with the bisector: 180 minus the angle, so that larger is better.
            let alignment = |w: usize| 180.0 - bisector.angle_to(points[w].minus(here));
            let corners = &cells[f];
            let within: Vec<(f64, usize)> = corners
                .iter()
                .filter(|&&w| w != v && orth.binary_search(&w).is_err())
                .map(|&w| (alignment(w), w))
                .collect();
            let found = if within.is_empty() {
                let n = corners.len();
                let across: Vec<(f64, usize)> = (0..n)
                    .map(|k| (corners[k], corners[(k + 1) % n]))
                    .filter(|&(a, b)| a != v && b != v)
                    .flat_map(|(a, b)| by_edge.get(&[a.min(b), a.max(b)]).into_iter().flatten().copied())
                    .filter(|&g| g != f)
                    .flat_map(|g| cells[g].iter().copied())
                    .filter(|w| !corners.contains(w) && adj.binary_search(w).is_err())
                    .map(|w| (alignment(w), w))
                    .collect();
                best(across, |a| a > 90.0 + ANGLE_TIE)
            } else {
                best(within, |a| a > 90.0 + ANGLE_TIE)
            };
            diag.extend(found);
        }
        orthogonal.push(orth);
        diagonal.push(diag.into_iter().collect());
        adjacent.push(adj);
    }
    (orthogonal, diagonal, adjacent)
}
