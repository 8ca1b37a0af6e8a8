//! Site, edge and cell counts of every tiling, against closed formulas derived by hand.
//!
//! Notation for the hex-lattice shapes: `hexagon(n)` selects the `H = 3n² - 3n + 1` lattice
//! points within hex distance `n - 1`; between them lie `L = 9n² - 15n + 6` lattice edges
//! (`3H` edge ends minus the `3(2n - 1)` missing outside the rim, halved: `(6H - 6(2n-1))/2`)
//! and `6(n - 1)²` lattice triangles (a hexagon of side `n - 1` cut into unit triangles).
//! A tile hanging between lattice points is kept when all of them are selected.

use rbg_geometry::{Graph, Shape, Tiling};

fn counts(tiling: Tiling, shape: Shape) -> (usize, usize, usize) {
    let graph = Graph::tiling(tiling, &shape).expect("a board");
    (graph.vertices().len(), graph.edges().len(), graph.cells().len())
}

fn hexagon_points(n: usize) -> usize {
    3 * n * n - 3 * n + 1
}

fn hexagon_lattice_edges(n: usize) -> usize {
    9 * n * n + 6 - 15 * n
}

fn hexagon_lattice_triangles(n: usize) -> usize {
    6 * (n - 1) * (n - 1)
}

#[test]
fn square_rectangles() {
    // w x h cells; (w+1)(h+1) corners; w(h+1) horizontal and h(w+1) vertical sides.
    for (w, h) in [(1, 1), (3, 2), (8, 8), (19, 5)] {
        let expected = ((w + 1) * (h + 1), w * (h + 1) + h * (w + 1), w * h);
        assert_eq!(counts(Tiling::Square, Shape::Rectangle { width: w as u32, height: h as u32 }), expected);
    }
}

#[test]
fn hex_hexagons_and_diamonds() {
    // A hexagon of side n: 3n²-3n+1 cells, 6n² corners, 9n²-3n sides (Euler: V - E + F = 1).
    for n in [1, 2, 3, 5] {
        assert_eq!(
            counts(Tiling::Hex, Shape::Hexagon(n as u32)),
            (6 * n * n, 9 * n * n - 3 * n, hexagon_points(n))
        );
    }
    // A rhombus of n x n hexagons: 2n² + 4n corners (n = 2 counted by hand: 16), and
    // E = V + F - 1.
    for n in [1, 2, 4, 11] {
        let v = 2 * n * n + 4 * n;
        assert_eq!(counts(Tiling::Hex, Shape::Diamond(n as u32)), (v, v + n * n - 1, n * n));
    }
}

#[test]
fn tri_triangles_and_hexagons() {
    // A triangle of side n: n² triangles, (n+1)(n+2)/2 corners, 3n(n+1)/2 sides.
    for n in [1, 2, 3, 7] {
        assert_eq!(
            counts(Tiling::Tri, Shape::Triangle(n as u32)),
            ((n + 1) * (n + 2) / 2, 3 * n * (n + 1) / 2, n * n)
        );
    }
    // A hexagon of side n: 6n² triangles, 3n² + 3n + 1 corners, 9n² + 3n sides.
    for n in [1, 2, 4] {
        assert_eq!(
            counts(Tiling::Tri, Shape::Hexagon(n as u32)),
            (3 * n * n + 3 * n + 1, 9 * n * n + 3 * n, 6 * n * n)
        );
    }
}

#[test]
fn truncated_square_4_8_8() {
    // w x h octagons and (w-1)(h-1) squares between them. Every corner lies on exactly one
    // octagon-octagon side, so V = 8wh - 2 × (number of adjacent octagon pairs); E = V + F - 1.
    for (w, h) in [(1, 1), (2, 2), (3, 2), (5, 4)] {
        let cells = w * h + (w - 1) * (h - 1);
        let v = 8 * w * h - 2 * ((w - 1) * h + w * (h - 1));
        assert_eq!(
            counts(Tiling::T488, Shape::Rectangle { width: w as u32, height: h as u32 }),
            (v, v + cells - 1, cells)
        );
    }
}

#[test]
fn rhombitrihexagonal_3_4_6_4() {
    // Hexagons H, a square on each lattice edge, a triangle in each lattice triangle. Every
    // corner is on exactly one hexagon (V = 6H); hexagons share no side, each square adds its
    // two sides not on hexagons and triangles add none (E = 6H + 2L).
    for n in [1, 2, 3] {
        let (h, l, t) = (hexagon_points(n), hexagon_lattice_edges(n), hexagon_lattice_triangles(n));
        assert_eq!(counts(Tiling::T3464, Shape::Hexagon(n as u32)), (6 * h, 6 * h + 2 * l, h + l + t));
    }
}

#[test]
fn truncated_trihexagonal_4_6_12() {
    // As 3.4.6.4 with dodecagons: V = 12H, E = 12H + 2L (hexagons' sides are all on
    // dodecagons or squares).
    for n in [1, 2, 3] {
        let (h, l, t) = (hexagon_points(n), hexagon_lattice_edges(n), hexagon_lattice_triangles(n));
        assert_eq!(counts(Tiling::T4612, Shape::Hexagon(n as u32)), (12 * h, 12 * h + 2 * l, h + l + t));
    }
}

#[test]
fn trihexagonal_3_6_3_6() {
    // Hexagons meet at corners, one shared corner per lattice edge: V = 6H - L; every side is
    // a hexagon's (E = 6H); a triangle in each lattice triangle.
    for n in [1, 2, 3] {
        let (h, l, t) = (hexagon_points(n), hexagon_lattice_edges(n), hexagon_lattice_triangles(n));
        assert_eq!(counts(Tiling::T3636, Shape::Hexagon(n as u32)), (6 * h - l, 6 * h, h + t));
    }
}

#[test]
fn truncated_hexagonal_3_12_12() {
    // Dodecagons share a side per lattice edge: V = 12H - 2L; a triangle in each lattice
    // triangle; E = V + F - 1.
    for n in [1, 2, 3] {
        let (h, l, t) = (hexagon_points(n), hexagon_lattice_edges(n), hexagon_lattice_triangles(n));
        let v = 12 * h - 2 * l;
        assert_eq!(counts(Tiling::T31212, Shape::Hexagon(n as u32)), (v, v + h + t - 1, h + t));
    }
}

#[test]
fn snub_square_3_3_4_3_4() {
    // A square at each of the w x h lattice points; inside each of the (w-1)(h-1) lattice
    // squares one turned square and four triangles. Each corner is on exactly one square of
    // the lattice points (V = 4wh); E = V + F - 1.
    for (w, h) in [(1, 1), (2, 2), (3, 4)] {
        let cells = w * h + 5 * (w - 1) * (h - 1);
        let v = 4 * w * h;
        assert_eq!(
            counts(Tiling::T33434, Shape::Rectangle { width: w as u32, height: h as u32 }),
            (v, v + cells - 1, cells)
        );
    }
}

#[test]
fn every_inner_vertex_has_the_tilings_vertex_configuration() {
    // The polygons around each vertex that is surrounded (as many cells as edges), read in
    // angular order, must be a rotation or reflection of the tiling's name (e.g. 3.4.6.4).
    for tiling in Tiling::ALL {
        let shape = match tiling.lattice() {
            rbg_geometry::Lattice::Square => Shape::Rectangle { width: 4, height: 4 },
            rbg_geometry::Lattice::Triangular => Shape::Hexagon(3),
        };
        let graph = Graph::tiling(tiling, &shape).unwrap();
        let mut inner = 0;
        for (v, &here) in graph.vertices().iter().enumerate() {
            let degree = graph.edges().iter().filter(|e| e.contains(&v)).count();
            let mut around: Vec<(f64, usize)> = graph
                .cells()
                .iter()
                .enumerate()
                .filter(|(_, c)| c.contains(&v))
                .map(|(i, c)| {
                    let d = graph.cell_centre(i).minus(here);
                    (d.y.atan2(d.x), c.len())
                })
                .collect();
            if around.len() != degree {
                continue;
            }
            inner += 1;
            around.sort_by(|a, b| a.0.total_cmp(&b.0));
            let sizes: Vec<usize> = around.iter().map(|a| a.1).collect();
            assert!(
                is_rotation_or_reflection(&sizes, tiling.vertex_configuration()),
                "{} at {v}: {sizes:?}",
                tiling.name()
            );
        }
        assert!(inner > 0, "{} has inner vertices", tiling.name());
    }
}

fn is_rotation_or_reflection(found: &[usize], wanted: &[usize]) -> bool {
    let n = wanted.len();
    if found.len() != n {
        return false;
    }
    let mut reversed = wanted.to_vec();
    reversed.reverse();
    [wanted.to_vec(), reversed].iter().any(|w| (0..n).any(|r| (0..n).all(|k| found[k] == w[(k + r) % n])))
}
