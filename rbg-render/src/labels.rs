//! A layout from edge labels of any names, each label taken as one vector: positions such that
//! `pos[to] - pos[from] = vec[label]` for every edge, the vectors unknown too.
//!
//! Every solution of that linear system is found at once by walking the board from its first
//! vertex with one independent symbol per label (`pos` is a combination of labels); an edge
//! closing a cycle gives a relation between the symbols (on a grid, `right + left = 0` and
//! `up + right - right - up = 0`). The positions projected away from the relations are the
//! general solution; it is drawn in two dimensions when that is all it has (a grid, a hex
//! lattice, a line), after the linear map that makes the label vectors evenly spread
//! (whitening: their covariance becomes the identity, so the four steps of a grid come out
//! square and the six of a hex lattice at 60°), turned so that the most used label points
//! right, and scaled so that the shortest step is one cell. Boards whose labels do not act as
//! vectors (a label running around a ring) collapse points and are refused.

/// The most labels handled (the work grows with their square for every edge).
const MAX_LABELS: usize = 64;

/// Points of the vertices `0..n` from edges `(from, label, to)` with labels `0..labels`.
pub fn layout(n: usize, labels: usize, edges: &[(u32, u32, u32)]) -> Option<Vec<[f64; 2]>> {
    if n < 2 || labels == 0 || labels > MAX_LABELS {
        return None;
    }
    let steps: Vec<(usize, usize, usize)> = edges
        .iter()
        .map(|&(a, l, b)| (a as usize, l as usize, b as usize))
        .filter(|&(a, l, b)| a < n && b < n && l < labels && a != b)
        .collect();
    let (symbolic, relations) = walk(n, labels, &steps)?;
    let basis = complement(&orthonormal(relations, labels), labels);
    if basis.is_empty() || basis.len() > 2 {
        return None;
    }
    let dot = |a: &[f64], b: &[f64]| a.iter().zip(b).map(|(x, y)| x * y).sum::<f64>();
    let coordinates =
        |v: &[f64]| -> [f64; 2] { [dot(v, &basis[0]), basis.get(1).map_or(0.0, |b| dot(v, b))] };
    let mut used = vec![0usize; labels];
    for &(_, l, _) in &steps {
        used[l] += 1;
    }
    let vectors: Vec<(usize, [f64; 2])> = (0..labels)
        .filter(|&l| used[l] > 0)
        .map(|l| {
            let mut unit = vec![0.0; labels];
            unit[l] = 1.0;
            (l, coordinates(&unit))
        })
        .collect();
    let map = evenly_spread(&vectors, basis.len(), &used)?;
    let apply = |p: [f64; 2]| [map[0][0] * p[0] + map[0][1] * p[1], map[1][0] * p[0] + map[1][1] * p[1]];
    let points: Vec<[f64; 2]> = symbolic.iter().map(|v| apply(coordinates(v))).collect();
    distinct(&points).then_some(points)
}

/// Vectors over the label symbols, one per vertex or relation.
type Combinations = Vec<Vec<f64>>;

/// Positions as combinations of label symbols (by a walk from vertex 0, edges used both ways)
/// and the relations found on closing cycles; `None` when the board is not connected.
fn walk(n: usize, labels: usize, steps: &[(usize, usize, usize)]) -> Option<(Combinations, Combinations)> {
    let mut incident: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (k, &(a, _, b)) in steps.iter().enumerate() {
        incident[a].push(k);
        incident[b].push(k);
    }
    let mut position: Vec<Option<Vec<f64>>> = vec![None; n];
    position[0] = Some(vec![0.0; labels]);
    let mut queue = std::collections::VecDeque::from([0usize]);
    let mut relations = Vec::new();
    let mut closed = vec![false; steps.len()];
    while let Some(v) = queue.pop_front() {
        for &k in &incident[v] {
            let (a, l, b) = steps[k];
            let (Some(pa), pb) = (position[a].clone(), position[b].clone()) else {
                // Entered from b: a is unknown.
                if let Some(pb) = position[b].clone() {
                    let mut pa = pb;
                    pa[l] -= 1.0;
                    position[a] = Some(pa);
                    queue.push_back(a);
                }
                continue;
            };
            match pb {
                None => {
                    let mut next = pa;
                    next[l] += 1.0;
                    position[b] = Some(next);
                    queue.push_back(b);
                }
                Some(pb) if !closed[k] => {
                    closed[k] = true;
                    let mut relation: Vec<f64> = pb.iter().zip(&pa).map(|(x, y)| x - y).collect();
                    relation[l] -= 1.0;
                    if relation.iter().any(|x| x.abs() > 1e-9) {
                        relations.push(relation);
                    }
                }
                Some(_) => {}
            }
        }
    }
    let positions: Vec<Vec<f64>> = position.into_iter().collect::<Option<_>>()?;
    Some((positions, relations))
}

/// An orthonormal basis of the span of `vectors` (Gram–Schmidt, twice for accuracy).
fn orthonormal(vectors: Vec<Vec<f64>>, dimension: usize) -> Vec<Vec<f64>> {
    let mut basis: Vec<Vec<f64>> = Vec::new();
    for mut v in vectors {
        for _ in 0..2 {
            for b in &basis {
                let d: f64 = v.iter().zip(b).map(|(x, y)| x * y).sum();
                v.iter_mut().zip(b).for_each(|(x, y)| *x -= d * y);
            }
        }
        let norm = v.iter().map(|x| x * x).sum::<f64>().sqrt();
        if norm > 1e-6 {
            basis.push(v.into_iter().map(|x| x / norm).collect());
        }
        if basis.len() == dimension {
            break;
        }
    }
    basis
}

/// An orthonormal basis of the complement of the span of `basis` (orthonormal).
fn complement(basis: &[Vec<f64>], dimension: usize) -> Vec<Vec<f64>> {
    let mut all = basis.to_vec();
    let units = (0..dimension).map(|k| {
        let mut e = vec![0.0; dimension];
        e[k] = 1.0;
        e
    });
    let start = all.len();
    all = orthonormal(all.into_iter().chain(units).collect(), dimension);
    all.split_off(start.min(all.len()))
}

/// The 2 × 2 map that whitens the label vectors (weighted by use), then turns the most used
/// label to point right; scaled so that the shortest label vector is one cell.
fn evenly_spread(vectors: &[(usize, [f64; 2])], rank: usize, used: &[usize]) -> Option<[[f64; 2]; 2]> {
    let mut map = if rank == 1 {
        [[1.0, 0.0], [0.0, 1.0]]
    } else {
        // Each direction once, whatever its sign or how many labels share it: `left` and
        // `right` are one axis.
        let mut directions: Vec<[f64; 2]> = Vec::new();
        for &(_, v) in vectors {
            let v = if v[0] < -1e-9 || (v[0].abs() <= 1e-9 && v[1] < 0.0) { [-v[0], -v[1]] } else { v };
            if !directions.iter().any(|d| length([d[0] - v[0], d[1] - v[1]]) < 1e-6) {
                directions.push(v);
            }
        }
        let (mut sxx, mut sxy, mut syy) = (0.0, 0.0, 0.0);
        for v in directions {
            sxx += v[0] * v[0];
            sxy += v[0] * v[1];
            syy += v[1] * v[1];
        }
        inverse_square_root([[sxx, sxy], [sxy, syy]])?
    };
    let main = vectors.iter().max_by_key(|(l, _)| used[*l])?.1;
    let turned = times(map, main);
    let angle = turned[1].atan2(turned[0]);
    let (c, s) = (angle.cos(), angle.sin());
    map = mul([[c, s], [-s, c]], map);
    let shortest = vectors
        .iter()
        .map(|&(_, v)| length(times(map, v)))
        .filter(|&d| d > 1e-9)
        .fold(f64::INFINITY, f64::min);
    if !shortest.is_finite() {
        return None;
    }
    Some(mul([[1.0 / shortest, 0.0], [0.0, 1.0 / shortest]], map))
}

fn times(m: [[f64; 2]; 2], v: [f64; 2]) -> [f64; 2] {
    [m[0][0] * v[0] + m[0][1] * v[1], m[1][0] * v[0] + m[1][1] * v[1]]
}

fn mul(a: [[f64; 2]; 2], b: [[f64; 2]; 2]) -> [[f64; 2]; 2] {
    let c = |i: usize, j: usize| a[i][0] * b[0][j] + a[i][1] * b[1][j];
    [[c(0, 0), c(0, 1)], [c(1, 0), c(1, 1)]]
}

fn length(v: [f64; 2]) -> f64 {
    v[0].hypot(v[1])
}

/// `S^(-1/2)` of a symmetric positive definite 2 × 2 matrix (by its eigen decomposition).
fn inverse_square_root(s: [[f64; 2]; 2]) -> Option<[[f64; 2]; 2]> {
    let (a, b, d) = (s[0][0], s[0][1], s[1][1]);
    let mean = (a + d) / 2.0;
    let spread = ((a - d) / 2.0).hypot(b);
    let (l1, l2) = (mean + spread, mean - spread);
    if l2 <= 1e-9 * l1.max(1e-9) {
        return None;
    }
    let theta = 0.5 * (2.0 * b).atan2(a - d);
    let (c, s) = (theta.cos(), theta.sin());
    let (f1, f2) = (1.0 / l1.sqrt(), 1.0 / l2.sqrt());
    Some([[c * c * f1 + s * s * f2, c * s * (f1 - f2)], [c * s * (f1 - f2), s * s * f1 + c * c * f2]])
}

/// No two points closer than half a cell.
fn distinct(points: &[[f64; 2]]) -> bool {
    let mut sorted: Vec<[f64; 2]> = points.to_vec();
    sorted.sort_by(|a, b| a[0].total_cmp(&b[0]));
    for (i, a) in sorted.iter().enumerate() {
        for b in &sorted[i + 1..] {
            if b[0] - a[0] >= 0.5 {
                break;
            }
            if length([a[0] - b[0], a[1] - b[1]]) < 0.5 {
                return false;
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn distance(a: [f64; 2], b: [f64; 2]) -> f64 {
        (a[0] - b[0]).hypot(a[1] - b[1])
    }

    /// A `w × h` grid with labels named arbitrarily: 0 and 1 along rows (both ways), 2 and 3
    /// along columns.
    fn grid(w: usize, h: usize, hex: bool) -> Vec<(u32, u32, u32)> {
        let id = |x: usize, y: usize| (y * w + x) as u32;
        let mut edges = Vec::new();
        for y in 0..h {
            for x in 0..w {
                if x + 1 < w {
                    edges.push((id(x, y), 0, id(x + 1, y)));
                    edges.push((id(x + 1, y), 1, id(x, y)));
                }
                if y + 1 < h {
                    edges.push((id(x, y), 2, id(x, y + 1)));
                    edges.push((id(x, y + 1), 3, id(x, y)));
                }
                if hex && x + 1 < w && y + 1 < h {
                    edges.push((id(x, y), 4, id(x + 1, y + 1)));
                }
            }
        }
        edges
    }

    #[test]
    fn a_grid_with_meaningless_labels_comes_out_square() {
        let p = layout(12, 4, &grid(4, 3, false)).expect("a layout");
        // Neighbours along rows and columns one cell apart, at right angles.
        assert!((distance(p[0], p[1]) - 1.0).abs() < 1e-6, "{p:?}");
        assert!((distance(p[0], p[4]) - 1.0).abs() < 1e-6, "{p:?}");
        let (r, c) = ([p[1][0] - p[0][0], p[1][1] - p[0][1]], [p[4][0] - p[0][0], p[4][1] - p[0][1]]);
        assert!((r[0] * c[0] + r[1] * c[1]).abs() < 1e-6);
    }

    #[test]
    fn a_sheared_grid_with_one_diagonal_comes_out_hexagonal() {
        let p = layout(16, 5, &grid(4, 4, true)).expect("a layout");
        // The three steps have equal lengths: a hex lattice.
        let (a, b, c) = (distance(p[0], p[1]), distance(p[0], p[4]), distance(p[0], p[5]));
        assert!((a - b).abs() < 0.05 && (a - c).abs() < 0.05, "{a} {b} {c}");
    }

    #[test]
    fn a_ring_collapses_and_is_refused() {
        let ring = [(0, 0, 1), (1, 0, 2), (2, 0, 3), (3, 0, 0)];
        assert!(layout(4, 1, &ring).is_none());
    }
}
