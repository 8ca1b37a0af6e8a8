//! Concentric rings from an edge label that runs around them (pretwa's circles): each ring a
//! circle, the rings ordered outwards from a centre vertex or from the ring the others hang
//! on, and the points of each ring at the angles of their neighbours on the ring inside.
//!
//! A label is a ring label when, on the vertices it leaves, it is a permutation made of at
//! least two cycles of one length (three or more). At most one vertex may lie on no ring (the
//! centre); rings must be joined in a chain by the other edges.

use std::collections::HashMap;

/// Where each vertex goes and the rings found: `(points, centre point, ring radius by vertex)`.
pub struct Rings {
    pub points: Vec<[f64; 2]>,
    pub centre: [f64; 2],
    /// The radius of the ring each vertex lies on (`None` for the centre).
    pub radius: Vec<Option<f64>>,
    /// The ring label's edges `(from, to)`: drawn as arcs of their circle.
    pub ring_edges: Vec<(usize, usize)>,
}

/// The ring layout of the vertices `0..n` joined by `edges` `(from, label, to)`, if there is one.
pub fn layout(n: usize, labels: usize, edges: &[(usize, usize, usize)]) -> Option<Rings> {
    (0..labels).filter_map(|label| with_label(n, label, edges)).max_by_key(|r| r.ring_edges.len())
}

fn with_label(n: usize, label: usize, edges: &[(usize, usize, usize)]) -> Option<Rings> {
    let next: HashMap<usize, usize> =
        edges.iter().filter(|e| e.1 == label && e.0 != e.2).map(|&(a, _, b)| (a, b)).collect();
    let cycles = cycles_of(&next)?;
    let length = cycles[0].len();
    if cycles.len() < 2 || length < 3 || cycles.iter().any(|c| c.len() != length) {
        return None;
    }
    let mut ring_of = vec![usize::MAX; n];
    for (r, cycle) in cycles.iter().enumerate() {
        for &v in cycle {
            ring_of[v] = r;
        }
    }
    let off_ring: Vec<usize> = (0..n).filter(|&v| ring_of[v] == usize::MAX).collect();
    if off_ring.len() > 1 {
        return None;
    }
    // Rings touching each other (or the centre) through the other labels' edges.
    let mut touching: Vec<Vec<usize>> = vec![Vec::new(); cycles.len()];
    let mut at_centre = vec![false; cycles.len()];
    for &(a, l, b) in edges {
        if l == label || a == b {
            continue;
        }
        match (ring_of[a], ring_of[b]) {
            (ra, rb) if ra != usize::MAX && rb != usize::MAX && ra != rb => touching[ra].push(rb),
            (ra, usize::MAX) if ra != usize::MAX => at_centre[ra] = true,
            (usize::MAX, rb) if rb != usize::MAX => at_centre[rb] = true,
            _ => {}
        }
    }
    for list in &mut touching {
        list.sort_unstable();
        list.dedup();
    }
    let order = chain(&touching, &at_centre)?;
    let centre = [0.0, 0.0];
    let mut points = vec![centre; n];
    let mut radius = vec![None; n];
    let step = std::f64::consts::TAU / length as f64;
    // Neighbouring points of the innermost ring at least one unit apart.
    let first_radius = (0.5 / (step / 2.0).sin()).max(1.0);
    let mut angle_of: HashMap<usize, f64> = HashMap::new();
    for (depth, &ring) in order.iter().enumerate() {
        let cycle = &cycles[ring];
        // The angle of the first point: that of an inner neighbour, else straight up.
        let (start, start_angle) = cycle
            .iter()
            .enumerate()
            .find_map(|(k, &v)| {
                edges.iter().find_map(|&(a, l, b)| {
                    let other = if a == v {
                        b
                    } else if b == v {
                        a
                    } else {
                        return None;
                    };
                    (l != label).then_some(())?;
                    angle_of.get(&other).map(|&angle| (k, angle))
                })
            })
            .unwrap_or((0, -std::f64::consts::FRAC_PI_2));
        let r = first_radius + depth as f64;
        for k in 0..length {
            let v = cycle[(start + k) % length];
            let angle = start_angle + step * k as f64;
            angle_of.insert(v, angle);
            points[v] = [r * angle.cos(), r * angle.sin()];
            radius[v] = Some(r);
        }
    }
    let ring_edges = next.iter().map(|(&a, &b)| (a, b)).collect();
    Some(Rings { points, centre, radius, ring_edges })
}

/// The cycles of a map that is a permutation of its keys, each from its smallest vertex.
fn cycles_of(next: &HashMap<usize, usize>) -> Option<Vec<Vec<usize>>> {
    let mut keys: Vec<usize> = next.keys().copied().collect();
    keys.sort_unstable();
    let mut seen: HashMap<usize, ()> = HashMap::new();
    let mut cycles = Vec::new();
    for &start in &keys {
        if seen.contains_key(&start) {
            continue;
        }
        let mut cycle = vec![start];
        seen.insert(start, ());
        let mut v = *next.get(&start)?;
        while v != start {
            if seen.insert(v, ()).is_some() || cycle.len() > keys.len() {
                return None;
            }
            cycle.push(v);
            v = *next.get(&v)?;
        }
        cycles.push(cycle);
    }
    (!cycles.is_empty()).then_some(cycles)
}

/// The rings in order from the inside: a path in the touching graph, starting at the ring that
/// touches the centre (or at an end of the path).
fn chain(touching: &[Vec<usize>], at_centre: &[bool]) -> Option<Vec<usize>> {
    let count = touching.len();
    if touching.iter().any(|t| t.len() > 2) {
        return None;
    }
    let ends: Vec<usize> = (0..count).filter(|&r| touching[r].len() <= 1).collect();
    let start =
        (0..count).find(|&r| at_centre[r] && touching[r].len() <= 1).or_else(|| ends.first().copied())?;
    let mut order = vec![start];
    let mut previous = usize::MAX;
    let mut current = start;
    while let Some(&next) = touching[current].iter().find(|&&r| r != previous) {
        if order.contains(&next) {
            return None;
        }
        order.push(next);
        previous = current;
        current = next;
    }
    (order.len() == count).then_some(order)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_rings_of_four_and_a_centre() {
        // Ring A = 1..=4, ring B = 5..=8 (label 0 around), spokes (label 1) 0-1, 1-5, 2-6 ...
        let mut edges = Vec::new();
        for k in 0..4 {
            edges.push((1 + k, 0, 1 + (k + 1) % 4));
            edges.push((5 + k, 0, 5 + (k + 1) % 4));
            edges.push((1 + k, 1, 5 + k));
            edges.push((0, 1, 1 + k));
        }
        let rings = layout(9, 2, &edges).expect("rings");
        let r = |v: usize| rings.points[v][0].hypot(rings.points[v][1]);
        assert!(r(0) < 1e-9);
        assert!((r(5) - r(1) - 1.0).abs() < 1e-9, "the outer ring one unit further out");
        // Spokes are straight: 1 and 5 at one angle.
        let angle = |v: usize| rings.points[v][1].atan2(rings.points[v][0]);
        assert!((angle(1) - angle(5)).abs() < 1e-9);
        assert_eq!(rings.ring_edges.len(), 8);
    }

    #[test]
    fn a_single_cycle_or_open_paths_are_not_rings() {
        let edges = [(0, 0, 1), (1, 0, 2), (2, 0, 0)];
        assert!(layout(3, 1, &edges).is_none());
        let path = [(0, 0, 1), (1, 0, 2), (3, 0, 4), (4, 0, 5)];
        assert!(layout(6, 1, &path).is_none());
    }
}
