//! An automatic layout of a board's edge graph: stress majorisation started from classical
//! multidimensional scaling.
//!
//! The target distance of two vertices is the number of edges on a shortest path between them,
//! edges taken in both directions and labels ignored (vertices in different components are
//! kept one step further apart than the farthest connected pair). Classical scaling (the two
//! leading eigenvectors of the double-centred squared distances, by power iteration from fixed
//! start vectors) gives a first drawing; stress majorisation (SMACOF, weights `d⁻²`) then
//! moves every vertex toward the place that best keeps its distances to all others. Everything
//! is deterministic (no random numbers) and bounded: at most [`MAX_GRAPH_VERTICES`] vertices
//! (larger boards are placed in rows, see [`rows`]) and a budget of pair updates.
//!
//! The result is scaled so that neighbours are about 1.2 cells apart and no two vertices are
//! closer than [`MIN_SEPARATION`] cells; coinciding points are pulled apart.

/// The largest graph laid out by stress; the work grows with the square of the vertices.
pub const MAX_GRAPH_VERTICES: usize = 1500;

/// Smallest distance between two vertices in the final drawing, in cells.
pub const MIN_SEPARATION: f64 = 0.9;

/// Pair updates (vertex pairs times iterations) allowed for majorisation.
const PAIR_UPDATE_BUDGET: usize = 120_000_000;
const MAX_ITERATIONS: usize = 300;
const POWER_ITERATIONS: usize = 200;
/// Distance between neighbours in the drawing, in cells.
const EDGE_LENGTH: f64 = 1.2;

/// Points of the vertices (in cells, any origin) from the edges `(from, label, to)`.
pub fn layout(vertices: usize, edges: &[(u32, u32, u32)]) -> Vec<[f64; 2]> {
    if vertices > MAX_GRAPH_VERTICES {
        return rows(vertices);
    }
    if vertices <= 1 {
        return vec![[0.0, 0.0]; vertices];
    }
    let distances = hop_distances(vertices, edges);
    let mut points = classical_scaling(&distances, vertices);
    majorise(&mut points, &distances, vertices);
    let mut points = scaled(points);
    separate(&mut points);
    points
}

/// Vertices in rows of `⌈√n⌉`, in board order (for boards too large to lay out).
pub fn rows(vertices: usize) -> Vec<[f64; 2]> {
    let width = (vertices as f64).sqrt().ceil().max(1.0) as usize;
    (0..vertices).map(|v| [(v % width) as f64 * EDGE_LENGTH, (v / width) as f64 * EDGE_LENGTH]).collect()
}

/// All-pairs shortest path lengths (row-major `n × n`), by breadth-first search over the
/// undirected graph; unreachable pairs get the largest finite distance plus one.
fn hop_distances(n: usize, edges: &[(u32, u32, u32)]) -> Vec<f64> {
    let mut neighbours: Vec<Vec<usize>> = vec![Vec::new(); n];
    for &(a, _, b) in edges {
        let (a, b) = (a as usize, b as usize);
        if a < n && b < n && a != b {
            neighbours[a].push(b);
            neighbours[b].push(a);
        }
    }
    for list in &mut neighbours {
        list.sort_unstable();
        list.dedup();
    }
    const UNREACHED: u32 = u32::MAX;
    let mut hops = vec![UNREACHED; n * n];
    let mut queue = std::collections::VecDeque::new();
    for source in 0..n {
        let row = &mut hops[source * n..(source + 1) * n];
        row[source] = 0;
        queue.push_back(source);
        while let Some(v) = queue.pop_front() {
            let next = row[v] + 1;
            for &w in &neighbours[v] {
                if row[w] == UNREACHED {
                    row[w] = next;
                    queue.push_back(w);
                }
            }
        }
    }
    let farthest = hops.iter().filter(|&&h| h != UNREACHED).max().copied().unwrap_or(0);
    hops.into_iter().map(|h| if h == UNREACHED { f64::from(farthest + 1) } else { f64::from(h) }).collect()
}

/// The first drawing: coordinates along the two leading eigenvectors of the double-centred
/// squared distance matrix (classical multidimensional scaling).
fn classical_scaling(d: &[f64], n: usize) -> Vec<[f64; 2]> {
    let mut b: Vec<f64> = d.iter().map(|x| x * x).collect();
    let row_means: Vec<f64> = (0..n).map(|i| b[i * n..(i + 1) * n].iter().sum::<f64>() / n as f64).collect();
    let grand = row_means.iter().sum::<f64>() / n as f64;
    for i in 0..n {
        for j in 0..n {
            b[i * n + j] = -0.5 * (b[i * n + j] - row_means[i] - row_means[j] + grand);
        }
    }
    let first = leading_eigenvector(&b, n, &[]);
    let second = leading_eigenvector(&b, n, &[&first.0]);
    let scale = |(_, lambda): &(Vec<f64>, f64)| lambda.max(0.0).sqrt();
    let (s1, s2) = (scale(&first), scale(&second));
    (0..n)
        .map(|i| {
            // A little fixed jitter, so that vertices with equal distances to all others
            // (which scaling puts on one point) can move apart.
            let angle = i as f64 * 2.399_963;
            [first.0[i] * s1 + 1e-3 * angle.cos(), second.0[i] * s2 + 1e-3 * angle.sin()]
        })
        .collect()
}

/// The unit eigenvector of the largest eigenvalue of the symmetric `b` orthogonal to
/// `against`, and that eigenvalue, by power iteration (shifted to favour the largest positive
/// eigenvalue) from a fixed start vector.
fn leading_eigenvector(b: &[f64], n: usize, against: &[&Vec<f64>]) -> (Vec<f64>, f64) {
    // Gershgorin bound: adding it makes every eigenvalue non-negative, so the iteration finds the
    // largest one rather than the one of largest magnitude.
    let shift =
        (0..n).map(|i| b[i * n..(i + 1) * n].iter().map(|x| x.abs()).sum::<f64>()).fold(0.0, f64::max);
    let mut v: Vec<f64> = (0..n).map(|i| ((i + 1) as f64 * 0.618_034).fract() - 0.5).collect();
    let orthogonalise = |v: &mut Vec<f64>| {
        for u in against {
            let dot: f64 = v.iter().zip(u.iter()).map(|(a, b)| a * b).sum();
            for (x, y) in v.iter_mut().zip(u.iter()) {
                *x -= dot * y;
            }
        }
        let norm = v.iter().map(|x| x * x).sum::<f64>().sqrt();
        if norm > 1e-12 {
            v.iter_mut().for_each(|x| *x /= norm);
        }
    };
    orthogonalise(&mut v);
    let times_b = |v: &[f64], i: usize| b[i * n..(i + 1) * n].iter().zip(v).map(|(a, x)| a * x).sum::<f64>();
    for _ in 0..POWER_ITERATIONS {
        let mut next: Vec<f64> = (0..n).map(|i| times_b(&v, i) + shift * v[i]).collect();
        orthogonalise(&mut next);
        v = next;
    }
    // The Rayleigh quotient of the final (unit) vector.
    let lambda = (0..n).map(|i| v[i] * times_b(&v, i)).sum::<f64>();
    (v, lambda)
}

/// Stress majorisation, one vertex at a time, until the stress stops falling or the budget is
/// spent.
fn majorise(points: &mut [[f64; 2]], d: &[f64], n: usize) {
    let iterations = (PAIR_UPDATE_BUDGET / (n * n)).clamp(1, MAX_ITERATIONS);
    let mut last = stress(points, d, n);
    for _ in 0..iterations {
        for i in 0..n {
            let (mut sx, mut sy, mut total) = (0.0, 0.0, 0.0);
            for j in 0..n {
                let target = d[i * n + j];
                if j == i || target <= 0.0 {
                    continue;
                }
                let w = 1.0 / (target * target);
                let (dx, dy) = (points[i][0] - points[j][0], points[i][1] - points[j][1]);
                let dist = (dx * dx + dy * dy).sqrt();
                let pull = if dist > 1e-9 { target / dist } else { 0.0 };
                sx += w * (points[j][0] + pull * dx);
                sy += w * (points[j][1] + pull * dy);
                total += w;
            }
            if total > 0.0 {
                points[i] = [sx / total, sy / total];
            }
        }
        let now = stress(points, d, n);
        if last - now <= 1e-6 * last {
            break;
        }
        last = now;
    }
}

fn stress(points: &[[f64; 2]], d: &[f64], n: usize) -> f64 {
    let mut sum = 0.0;
    for i in 0..n {
        for j in i + 1..n {
            let target = d[i * n + j];
            if target > 0.0 {
                let dist = (points[i][0] - points[j][0]).hypot(points[i][1] - points[j][1]);
                sum += (dist - target).powi(2) / (target * target);
            }
        }
    }
    sum
}

/// Scaled so that one graph step is [`EDGE_LENGTH`] cells, and more where needed (up to four
/// times) for the closest pair to be [`MIN_SEPARATION`] apart.
fn scaled(points: Vec<[f64; 2]>) -> Vec<[f64; 2]> {
    let closest = crate::layout::closest_pair(&points);
    let mut factor = EDGE_LENGTH;
    if closest > 1e-9 && closest * factor < MIN_SEPARATION {
        factor = (MIN_SEPARATION / closest).min(4.0 * EDGE_LENGTH);
    }
    points.into_iter().map(|[x, y]| [x * factor, y * factor]).collect()
}

/// Moves later vertices of pairs closer than a hundredth of a cell a little aside, so that
/// every vertex has a point of its own.
fn separate(points: &mut [[f64; 2]]) {
    for i in 1..points.len() {
        let mut turn = 0;
        while turn < 64 && points[..i].iter().any(|p| (p[0] - points[i][0]).hypot(p[1] - points[i][1]) < 0.01)
        {
            let angle = (i + turn) as f64 * 2.399_963;
            points[i][0] += 0.5 * angle.cos();
            points[i][1] += 0.5 * angle.sin();
            turn += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn distance(a: [f64; 2], b: [f64; 2]) -> f64 {
        (a[0] - b[0]).hypot(a[1] - b[1])
    }

    #[test]
    fn a_path_is_laid_out_straight_with_even_steps() {
        // 0 - 1 - 2 - 3: the ends are three steps apart, neighbours one step.
        let edges = [(0, 0, 1), (1, 0, 2), (2, 0, 3)];
        let p = layout(4, &edges);
        for (a, b) in [(0, 1), (1, 2), (2, 3)] {
            assert!((distance(p[a], p[b]) - EDGE_LENGTH).abs() < 0.05, "{p:?}");
        }
        assert!((distance(p[0], p[3]) - 3.0 * EDGE_LENGTH).abs() < 0.05, "{p:?}");
    }

    #[test]
    fn a_square_cycle_is_a_square() {
        let edges = [(0, 0, 1), (1, 0, 2), (2, 0, 3), (3, 0, 0)];
        let p = layout(4, &edges);
        // Opposite corners are two steps apart, neighbours one: the diagonals come out longer
        // than the sides.
        assert!(distance(p[0], p[2]) > distance(p[0], p[1]));
        assert!(distance(p[1], p[3]) > distance(p[1], p[2]));
    }

    #[test]
    fn isolated_vertices_get_points_of_their_own() {
        let p = layout(5, &[]);
        for i in 0..5 {
            for j in i + 1..5 {
                assert!(distance(p[i], p[j]) >= 0.01, "{p:?}");
            }
        }
    }

    #[test]
    fn large_boards_are_placed_in_rows() {
        let p = layout(MAX_GRAPH_VERTICES + 1, &[]);
        assert_eq!(p.len(), MAX_GRAPH_VERTICES + 1);
        assert_eq!(p[0], [0.0, 0.0]);
        // ⌈√1501⌉ = 39 columns.
        assert_eq!(p[39], [0.0, EDGE_LENGTH]);
    }
}
