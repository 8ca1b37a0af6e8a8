//! A layout from edge labels that name directions, for node-list boards such as the mill
//! game's (`up`, `down`, `left`, `right`).
//!
//! Every label used by an edge must name a direction (any case): `up`, `u`, `n`, `north`,
//! `top` go up; `down`, `d`, `s`, `south`, `bottom` down; `left`, `l`, `w`, `west` left;
//! `right`, `r`, `e`, `east` right; `ne`/`northeast`/`upright`, `nw`/`northwest`/`upleft`,
//! `se`/`southeast`/`downright`, `sw`/`southwest`/`downleft` diagonally. Then each axis is
//! solved on its own: the ends of an edge without a component along the axis (a `right` edge
//! for the vertical axis) share a coordinate, an edge with one orders its ends, and each group of
//! vertices gets the length of the longest chain of such orderings leading to it. So the mill's
//! three rings, linked only at their middles, come out as the familiar 7 × 7 drawing with no
//! distances given. The layout is refused (`None`) when a label is not a direction, an edge
//! contradicts the others (it would order a group before itself, as on a wrapping board), or
//! two vertices land on one point.

/// The direction a label name stands for: (dx, dy) with y down.
fn direction(label: &str) -> Option<(i8, i8)> {
    let name = label.to_ascii_lowercase();
    Some(match name.as_str() {
        "up" | "u" | "n" | "north" | "top" => (0, -1),
        "down" | "d" | "s" | "south" | "bottom" => (0, 1),
        "left" | "l" | "w" | "west" => (-1, 0),
        "right" | "r" | "e" | "east" => (1, 0),
        "ne" | "northeast" | "upright" => (1, -1),
        "nw" | "northwest" | "upleft" => (-1, -1),
        "se" | "southeast" | "downright" => (1, 1),
        "sw" | "southwest" | "downleft" => (-1, 1),
        _ => return None,
    })
}

/// Grid points of the vertices from edges `(from, label, to)` whose labels name directions.
pub fn layout(vertices: usize, labels: &[String], edges: &[(u32, u32, u32)]) -> Option<Vec<[f64; 2]>> {
    let mut steps: Vec<(usize, usize, (i8, i8))> = Vec::with_capacity(edges.len());
    for &(from, label, to) in edges {
        let (from, to) = (from as usize, to as usize);
        if from >= vertices || to >= vertices || from == to {
            continue;
        }
        steps.push((from, to, direction(labels.get(label as usize)?)?));
    }
    if steps.is_empty() {
        return None;
    }
    let xs = axis(vertices, steps.iter().map(|&(a, b, (dx, _))| (a, b, dx)))?;
    let ys = axis(vertices, steps.iter().map(|&(a, b, (_, dy))| (a, b, dy)))?;
    let points: Vec<[f64; 2]> = xs.iter().zip(&ys).map(|(&x, &y)| [x as f64, y as f64]).collect();
    let mut sorted: Vec<(u64, u64)> = xs.iter().zip(&ys).map(|(&x, &y)| (x as u64, y as u64)).collect();
    sorted.sort_unstable();
    sorted.dedup();
    (sorted.len() == vertices).then_some(points)
}

/// Coordinates along one axis from steps `(from, to, sign)`: sign 0 joins the ends, a positive
/// sign puts `to` after `from`, a negative one before.
fn axis(n: usize, steps: impl Iterator<Item = (usize, usize, i8)> + Clone) -> Option<Vec<usize>> {
    let mut groups = UnionFind::new(n);
    for (a, b, sign) in steps.clone() {
        if sign == 0 {
            groups.join(a, b);
        }
    }
    let group: Vec<usize> = (0..n).map(|v| groups.find(v)).collect();
    // Orderings between groups (by representative), then the longest chain into each group.
    let mut after: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut incoming = vec![0usize; n];
    for (a, b, sign) in steps {
        let (first, second) = match sign {
            0 => continue,
            s if s > 0 => (group[a], group[b]),
            _ => (group[b], group[a]),
        };
        if first == second {
            return None;
        }
        after[first].push(second);
        incoming[second] += 1;
    }
    let mut level = vec![0usize; n];
    let mut ready: Vec<usize> = (0..n).filter(|&g| group[g] == g && incoming[g] == 0).collect();
    let mut done = 0;
    while let Some(g) = ready.pop() {
        done += 1;
        for &next in &after[g] {
            level[next] = level[next].max(level[g] + 1);
            incoming[next] -= 1;
            if incoming[next] == 0 {
                ready.push(next);
            }
        }
    }
    let total_groups = (0..n).filter(|&g| group[g] == g).count();
    // Groups left over lie on a cycle of orderings: the labels contradict each other.
    (done == total_groups).then(|| group.iter().map(|&g| level[g]).collect())
}

/// Disjoint sets of vertices (path halving, union by index for determinism).
struct UnionFind {
    parent: Vec<usize>,
}

impl UnionFind {
    fn new(n: usize) -> Self {
        UnionFind { parent: (0..n).collect() }
    }

    fn find(&mut self, mut v: usize) -> usize {
        while self.parent[v] != v {
            self.parent[v] = self.parent[self.parent[v]];
            v = self.parent[v];
        }
        v
    }

    fn join(&mut self, a: usize, b: usize) {
        let (ra, rb) = (self.find(a), self.find(b));
        let (low, high) = (ra.min(rb), ra.max(rb));
        self.parent[high] = low;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn a_square_of_four_from_right_and_down() {
        // 0 right 1, 0 down 2, 1 down 3, 2 right 3 (and back).
        let l = labels(&["down", "Left", "right", "UP"]);
        let edges = [(0, 2, 1), (1, 1, 0), (0, 0, 2), (2, 3, 0), (1, 0, 3), (3, 3, 1), (2, 2, 3), (3, 1, 2)];
        let p = layout(4, &l, &edges).unwrap();
        assert_eq!(p, vec![[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]);
    }

    #[test]
    fn longest_chains_spread_linked_rings() {
        // A path 0 -right-> 1 -right-> 2, vertex 3 below 2, vertex 4 below 0 and left of 3:
        // 3 takes 2's column (2, the longest chain), not the column after 4 (1).
        let l = labels(&["right", "down"]);
        let edges = [(0, 0, 1), (1, 0, 2), (2, 1, 3), (0, 1, 4), (4, 0, 3)];
        let p = layout(5, &l, &edges).unwrap();
        assert_eq!(p[3], [2.0, 1.0]);
        assert_eq!(p[4], [0.0, 1.0]);
    }

    #[test]
    fn wrapping_unknown_or_colliding_boards_are_refused() {
        let l = labels(&["right", "jump"]);
        // A ring of three to the right: a cycle of orderings.
        assert!(layout(3, &l, &[(0, 0, 1), (1, 0, 2), (2, 0, 0)]).is_none());
        // A label that is not a direction.
        assert!(layout(2, &l, &[(0, 1, 1)]).is_none());
        // Two vertices right of one: they collide.
        assert!(layout(3, &l, &[(0, 0, 1), (0, 0, 2)]).is_none());
        // No edges: nothing to go by.
        assert!(layout(2, &l, &[]).is_none());
    }
}
