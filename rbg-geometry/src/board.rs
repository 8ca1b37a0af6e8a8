//! Sites with names, positions and labelled edges: what an RBG board needs.
//!
//! Sites are ordered as text is read: rows from the top (largest `y`) down, each row from
//! left to right. Rows and columns are the distinct `y` and `x` values of the sites' positions
//! (cell centres or vertices), so a site's name `x<column>y<row>` is its place in that grid;
//! row 0 is the top row, as in the `rectangle` generator.
//!
//! Labels: for each relation and each site, every neighbour goes to the compass point nearest
//! to its direction; if two neighbours meet at one point, for `all` the orthogonal one wins
//! over the diagonal over the others, then (for every relation) the one nearer in angle, then
//! the closer one. A neighbour that loses gets no label of that relation. The labels of
//! relation `all` are the bare compass names (`N`, `NNE`, ...); the others have the relation's
//! prefix (`orthN`, `diagNE`, `adjS`, `offW`). Only labels carrying an edge exist.

use std::collections::BTreeMap;

use crate::compass::Compass;
use crate::point::{Point, EPS};
use crate::relations::{Relation, Relations};
use crate::{GeometryError, Graph, MAX_SITES};

/// What the playable sites are.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SiteKind {
    Cells,
    Vertices,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Site {
    pub name: String,
    pub position: Point,
    pub column: u32,
    pub row: u32,
    /// `(label id, target site)`, sorted by label id, at most one per label.
    pub edges: Vec<(usize, usize)>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Board {
    pub sites: Vec<Site>,
    /// Label names, sorted byte-wise; a label's id is its index.
    pub labels: Vec<String>,
    /// The graph's vertex, edge and cell counts.
    pub graph_vertices: usize,
    pub graph_edges: usize,
    pub graph_cells: usize,
    pub kind: SiteKind,
}

impl Board {
    pub fn new(graph: &Graph, kind: SiteKind) -> Result<Board, GeometryError> {
        let positions: Vec<Point> = match kind {
            SiteKind::Cells => (0..graph.cells().len()).map(|c| graph.cell_centre(c)).collect(),
            SiteKind::Vertices => graph.vertices().to_vec(),
        };
        if positions.is_empty() {
            return Err(GeometryError::EmptyBoard(match kind {
                SiteKind::Cells => "cells",
                SiteKind::Vertices => "vertices",
            }));
        }
        if positions.len() > MAX_SITES {
            return Err(GeometryError::TooLarge { count: positions.len() as u128, limit: MAX_SITES });
        }
        let relations = Relations::of(graph, kind);
        let columns = cluster(positions.iter().map(|p| p.x).collect());
        let rows = cluster(positions.iter().map(|p| -p.y).collect());
        let mut order: Vec<usize> = (0..positions.len()).collect();
        order.sort_by_key(|&s| (rows[s], columns[s], s));
        let mut new_index = vec![0; positions.len()];
        for (new, &old) in order.iter().enumerate() {
            new_index[old] = new;
        }
        let coded_edges = label_edges(&positions, &relations);
        drop(relations);
        // Label ids in byte-wise name order, for the codes that carry an edge.
        let mut used = [false; CODES];
        for &(code, _) in coded_edges.iter().flatten() {
            used[usize::from(code)] = true;
        }
        let mut named: Vec<(String, u8)> =
            (0..CODES).filter(|&c| used[c]).map(|c| (code_name(c as u8), c as u8)).collect();
        named.sort();
        let mut id_of_code = [0usize; CODES];
        for (id, (_, code)) in named.iter().enumerate() {
            id_of_code[usize::from(*code)] = id;
        }
        let labels: Vec<String> = named.into_iter().map(|(name, _)| name).collect();
        let mut seen_names: BTreeMap<String, usize> = BTreeMap::new();
        let sites = order
            .iter()
            .map(|&old| {
                let base = format!("x{}y{}", columns[old], rows[old]);
                let count = seen_names.entry(base.clone()).or_insert(0);
                // Two sites at one place (possible after a merge) get distinct names.
                let name = if *count == 0 { base } else { format!("{base}n{count}") };
                *count += 1;
                let mut edges: Vec<(usize, usize)> = coded_edges[old]
                    .iter()
                    .map(|&(code, target)| (id_of_code[usize::from(code)], new_index[target as usize]))
                    .collect();
                edges.sort_unstable();
                Site { name, position: positions[old], column: columns[old], row: rows[old], edges }
            })
            .collect();
        Ok(Board {
            sites,
            labels,
            graph_vertices: graph.vertices().len(),
            graph_edges: graph.edges().len(),
            graph_cells: graph.cells().len(),
            kind,
        })
    }

    /// The index of the site called `name`.
    pub fn site(&self, name: &str) -> Option<usize> {
        self.sites.iter().position(|s| s.name == name)
    }

    /// The ids of the labels of a relation (for `all`: the bare compass labels).
    pub fn relation_labels(&self, relation: Relation) -> Vec<usize> {
        let prefix = relation.label_prefix();
        (0..self.labels.len())
            .filter(|&id| {
                let rest = self.labels[id].strip_prefix(prefix);
                rest.is_some_and(|rest| Compass::ALL.iter().any(|c| c.name() == rest))
            })
            .collect()
    }

    /// The board without the sites marked in `removed` (and without edges to them). Labels
    /// stay, even if no edge carries them any more.
    pub fn without(&self, removed: &[bool]) -> Result<Board, GeometryError> {
        let is_removed = |s: usize| removed.get(s).copied().unwrap_or(false);
        let mut new_index = vec![None; self.sites.len()];
        let mut next = 0;
        for (s, slot) in new_index.iter_mut().enumerate() {
            if !is_removed(s) {
                *slot = Some(next);
                next += 1;
            }
        }
        if next == 0 {
            return Err(GeometryError::EmptyBoard("removing sites"));
        }
        let sites = self
            .sites
            .iter()
            .enumerate()
            .filter(|(s, _)| !is_removed(*s))
            .map(|(_, site)| Site {
                edges: site.edges.iter().filter_map(|&(l, t)| new_index[t].map(|t| (l, t))).collect(),
                ..site.clone()
            })
            .collect();
        Ok(Board { sites, ..self.clone() })
    }
}

/// The index of each value among the distinct values (closer than [`EPS`] is the same).
fn cluster(values: Vec<f64>) -> Vec<u32> {
    let mut order: Vec<usize> = (0..values.len()).collect();
    order.sort_by(|&a, &b| values[a].total_cmp(&values[b]));
    let mut index = vec![0; values.len()];
    let mut current = 0u32;
    let mut start = f64::NEG_INFINITY;
    for (k, &i) in order.iter().enumerate() {
        if k > 0 && values[i] - start > EPS {
            current += 1;
        }
        if k == 0 || values[i] - start > EPS {
            start = values[i];
        }
        index[i] = current;
    }
    index
}

/// Labels are coded as relation index × 16 + compass index.
const CODES: usize = 5 * 16;

fn code_name(code: u8) -> String {
    let relation = Relation::ALL[usize::from(code / 16)];
    format!("{}{}", relation.label_prefix(), Compass::ALL[usize::from(code % 16)].name())
}

/// For each site, its labelled edges as (label code, target), over every relation.
fn label_edges(positions: &[Point], relations: &Relations) -> Vec<Vec<(u8, u32)>> {
    let mut edges = vec![Vec::new(); positions.len()];
    for (r, relation) in Relation::ALL.into_iter().enumerate() {
        for (s, neighbours) in relations.get(relation).iter().enumerate() {
            // Per compass point: (rank, angular error, distance, target); smaller wins.
            let mut chosen: [Option<(u8, f64, f64, usize)>; 16] = [None; 16];
            for &n in neighbours {
                let delta = positions[n].minus(positions[s]);
                let (compass, off) = Compass::nearest(delta);
                let rank = match relation {
                    Relation::All if relations.orthogonal[s].binary_search(&n).is_ok() => 0,
                    Relation::All if relations.diagonal[s].binary_search(&n).is_ok() => 1,
                    Relation::All => 2,
                    _ => 0,
                };
                let candidate = (rank, off, delta.length(), n);
                let slot = &mut chosen[compass as usize];
                let better = slot.is_none_or(|old| {
                    (candidate.0, candidate.1, candidate.2).partial_cmp(&(old.0, old.1, old.2))
                        == Some(std::cmp::Ordering::Less)
                });
                if better {
                    *slot = Some(candidate);
                }
            }
            for (c, choice) in chosen.iter().enumerate() {
                if let Some((_, _, _, n)) = choice {
                    edges[s].push(((r * 16 + c) as u8, *n as u32));
                }
            }
        }
    }
    edges
}
