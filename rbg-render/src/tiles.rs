//! The cells of boards given as points, drawn as polygons that tile (the boards of the
//! `tiling` generator: 3.4.6.4, triangles, rotated hexagons ...).
//!
//! [`GameInfo`](rbg_core::GameInfo) keeps only each cell's centre, so the polygons are
//! reconstructed from the centres and the neighbours that share a side (the `orth…` labels of
//! a tiling board, else every edge):
//!
//! 1. **Regular polygons.** Every tiling of rbg-geometry is made of regular polygons with one
//!    side length `s`; two cells sharing a side have their centres `aᵢ + aⱼ` apart, where
//!    `a = s / (2 tan(π/k))` is the apothem of a `k`-gon, and the side faces the neighbour.
//!    Inner cells tell their `k` (as many neighbours as sides, evenly spaced), the pairs of
//!    inner cells give `s`, and the apothems then spread to the border cells along the
//!    neighbour distances. The result is accepted only if every shared side matches.
//! 2. **Voronoi cells** otherwise (dual tilings, hand-placed points): each cell is the region
//!    nearer its centre than any other, cut to a disc around the centre; such cells never
//!    overlap.

/// Sides of the regular polygons the tilings are made of.
const SIDES: [usize; 5] = [3, 4, 6, 8, 12];
/// Relative tolerance of distances.
const TOLERANCE: f64 = 0.03;

/// One polygon (corners in order) per point; `neighbours[i]` lists the points whose cells share
/// a side with `i`'s.
pub fn outlines(points: &[[f64; 2]], neighbours: &[Vec<usize>]) -> Vec<Vec<[f64; 2]>> {
    regular(points, neighbours).unwrap_or_else(|| voronoi(points, neighbours))
}

fn apothem_factor(k: usize) -> f64 {
    1.0 / (2.0 * (std::f64::consts::PI / k as f64).tan())
}

fn sub(a: [f64; 2], b: [f64; 2]) -> [f64; 2] {
    [a[0] - b[0], a[1] - b[1]]
}

fn length(v: [f64; 2]) -> f64 {
    v[0].hypot(v[1])
}

/// Angles (radians) and distances from `i` to its neighbours.
fn rays(points: &[[f64; 2]], neighbours: &[Vec<usize>], i: usize) -> Vec<(f64, f64, usize)> {
    neighbours[i]
        .iter()
        .filter(|&&j| j != i && j < points.len())
        .map(|&j| {
            let d = sub(points[j], points[i]);
            (d[1].atan2(d[0]), length(d), j)
        })
        .collect()
}

/// Whether every angle differs from the first by a multiple of `360° / k`.
fn fits_angles(rays: &[(f64, f64, usize)], k: usize) -> bool {
    let step = std::f64::consts::TAU / k as f64;
    rays.iter().all(|&(angle, _, _)| {
        let turns = (angle - rays[0].0) / step;
        (turns - turns.round()).abs() * step < 0.03
    })
}

fn regular(points: &[[f64; 2]], neighbours: &[Vec<usize>]) -> Option<Vec<Vec<[f64; 2]>>> {
    let n = points.len();
    let all_rays: Vec<_> = (0..n).map(|i| rays(points, neighbours, i)).collect();
    if all_rays.iter().any(|r| r.is_empty()) {
        return None;
    }
    // Inner cells: as many neighbours as sides, evenly spaced.
    let mut sides: Vec<Option<usize>> = all_rays
        .iter()
        .map(|r| (SIDES.contains(&r.len()) && fits_angles(r, r.len())).then_some(r.len()))
        .collect();
    let mut estimates: Vec<f64> = Vec::new();
    for i in 0..n {
        for &(_, d, j) in &all_rays[i] {
            if let (Some(ki), Some(kj)) = (sides[i], sides[j]) {
                estimates.push(d / (apothem_factor(ki) + apothem_factor(kj)));
            }
        }
    }
    if estimates.is_empty() {
        return None;
    }
    estimates.sort_by(f64::total_cmp);
    let side = estimates[estimates.len() / 2];
    // Spread to the border: a cell's apothem is the distance to a known neighbour minus the
    // neighbour's; the number of sides is the one whose apothem that is.
    loop {
        let mut changed = false;
        for i in 0..n {
            if sides[i].is_some() {
                continue;
            }
            let guess = all_rays[i].iter().find_map(|&(_, d, j)| {
                let apothem = d - side * apothem_factor(sides[j]?);
                SIDES.iter().copied().find(|&k| {
                    (apothem - side * apothem_factor(k)).abs() < TOLERANCE * side
                        && fits_angles(&all_rays[i], k)
                })
            });
            if let Some(k) = guess {
                sides[i] = Some(k);
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    let sides: Vec<usize> = sides.into_iter().collect::<Option<_>>()?;
    // Every shared side must match: centres one apothem plus the other apart, angles on sides.
    for i in 0..n {
        if !fits_angles(&all_rays[i], sides[i]) {
            return None;
        }
        for &(_, d, j) in &all_rays[i] {
            let expected = side * (apothem_factor(sides[i]) + apothem_factor(sides[j]));
            if (d - expected).abs() > TOLERANCE * side {
                return None;
            }
        }
    }
    Some(
        (0..n)
            .map(|i| {
                let k = sides[i];
                let radius = side / (2.0 * (std::f64::consts::PI / k as f64).sin());
                let start = all_rays[i][0].0 + std::f64::consts::PI / k as f64;
                (0..k)
                    .map(|m| {
                        let a = start + std::f64::consts::TAU * m as f64 / k as f64;
                        [points[i][0] + radius * a.cos(), points[i][1] + radius * a.sin()]
                    })
                    .collect()
            })
            .collect(),
    )
}

/// Corners of the polygon approximating the disc that bounds a Voronoi cell.
const DISC_CORNERS: usize = 24;

/// Voronoi cells cut to discs whose radius is 0.6 of the farthest side-sharing neighbour's
/// distance (so border cells stay closed and about as large as inner ones; a cell without
/// neighbours takes the median radius). Only points within twice the radius can cut a cell;
/// they are found in the points sorted by x.
fn voronoi(points: &[[f64; 2]], neighbours: &[Vec<usize>]) -> Vec<Vec<[f64; 2]>> {
    let reach: Vec<Option<f64>> = (0..points.len())
        .map(|i| {
            neighbours[i]
                .iter()
                .filter(|&&j| j < points.len() && j != i)
                .map(|&j| length(sub(points[j], points[i])))
                .filter(|d| d.is_finite() && *d > 1e-9)
                .reduce(f64::max)
        })
        .collect();
    let mut known: Vec<f64> = reach.iter().flatten().copied().collect();
    known.sort_by(f64::total_cmp);
    let median = known.get(known.len() / 2).copied().unwrap_or(1.0);
    let mut by_x: Vec<usize> = (0..points.len()).collect();
    by_x.sort_by(|&a, &b| points[a][0].total_cmp(&points[b][0]));
    let xs: Vec<f64> = by_x.iter().map(|&i| points[i][0]).collect();
    (0..points.len())
        .map(|i| {
            let centre = points[i];
            let radius = 0.6 * reach[i].unwrap_or(median);
            let mut polygon: Vec<[f64; 2]> = (0..DISC_CORNERS)
                .map(|m| {
                    let a = std::f64::consts::TAU * (m as f64 + 0.5) / DISC_CORNERS as f64;
                    [centre[0] + radius * a.cos(), centre[1] + radius * a.sin()]
                })
                .collect();
            let first = xs.partition_point(|&x| x < centre[0] - 2.0 * radius);
            for &j in &by_x[first..] {
                let other = points[j];
                if other[0] > centre[0] + 2.0 * radius {
                    break;
                }
                if j == i || length(sub(other, centre)) > 2.0 * radius {
                    continue;
                }
                polygon = clip_bisector(&polygon, centre, other);
            }
            polygon
        })
        .collect()
}

/// The part of a convex polygon nearer to `keep` than to `other` (Sutherland–Hodgman against
/// the perpendicular bisector).
fn clip_bisector(polygon: &[[f64; 2]], keep: [f64; 2], other: [f64; 2]) -> Vec<[f64; 2]> {
    let normal = sub(other, keep);
    let middle = [(keep[0] + other[0]) / 2.0, (keep[1] + other[1]) / 2.0];
    let side = |p: [f64; 2]| (p[0] - middle[0]) * normal[0] + (p[1] - middle[1]) * normal[1];
    let mut out = Vec::with_capacity(polygon.len() + 1);
    for k in 0..polygon.len() {
        let (a, b) = (polygon[k], polygon[(k + 1) % polygon.len()]);
        let (sa, sb) = (side(a), side(b));
        if sa <= 0.0 {
            out.push(a);
        }
        if (sa < 0.0) != (sb < 0.0) && (sa - sb).abs() > 1e-12 {
            let t = sa / (sa - sb);
            out.push([a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])]);
        }
    }
    out
}

/// The smallest width of a convex polygon: over its sides, the largest distance of a corner
/// from the side's line, minimised.
pub fn min_width(polygon: &[[f64; 2]]) -> f64 {
    let n = polygon.len();
    if n < 3 {
        return 0.0;
    }
    (0..n)
        .map(|k| {
            let (a, b) = (polygon[k], polygon[(k + 1) % n]);
            let edge = sub(b, a);
            let len = length(edge);
            if len < 1e-12 {
                return f64::INFINITY;
            }
            polygon
                .iter()
                .map(|p| ((p[0] - a[0]) * edge[1] - (p[1] - a[1]) * edge[0]).abs() / len)
                .fold(0.0, f64::max)
        })
        .fold(f64::INFINITY, f64::min)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_row_of_squares_is_squares() {
        // Three unit squares in a row: the middle one is not inner (two neighbours), so side
        // detection falls back to Voronoi cells, which are squares cut to discs.
        let points = [[0.0, 0.0], [1.0, 0.0], [2.0, 0.0]];
        let neighbours = vec![vec![1], vec![0, 2], vec![1]];
        let cells = outlines(&points, &neighbours);
        assert_eq!(cells.len(), 3);
        for cell in &cells {
            assert!(min_width(cell) > 0.5, "{cell:?}");
        }
    }

    #[test]
    fn min_width_of_a_unit_square_and_triangle() {
        let square = [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]];
        assert!((min_width(&square) - 1.0).abs() < 1e-9);
        let triangle = [[0.0, 0.0], [1.0, 0.0], [0.5, 3f64.sqrt() / 2.0]];
        assert!((min_width(&triangle) - 3f64.sqrt() / 2.0).abs() < 1e-9);
    }
}
