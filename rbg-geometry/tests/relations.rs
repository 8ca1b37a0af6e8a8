//! Neighbours by relation on the three regular tilings (the paper's Table 1), on cells and on
//! vertices; duals; the go board; the Cairo tiling; compass labels.
//!
//! Distances are in lattice units: square cells have side 1; hex cell centres are 1 apart
//! (side 1/√3); tri triangles have side 1 (centres of triangles sharing a side are 1/√3
//! apart, those opposite at a vertex 2/√3, the other six sharing a vertex 1).

use rbg_geometry::{
    build_board, Board, Graph, GraphSpec, Point, Relation, Relations, Shape, SiteKind, Tiling,
};

const R3: f64 = 1.732_050_807_568_877_2;

/// For every site within `radius` of `centre` (all far enough from the rim to have every
/// neighbour), its neighbours' distances by relation.
fn distances(graph: &Graph, kind: SiteKind, centre: Point, radius: f64) -> Vec<Vec<(Relation, Vec<f64>)>> {
    let positions: Vec<Point> = match kind {
        SiteKind::Cells => (0..graph.cells().len()).map(|c| graph.cell_centre(c)).collect(),
        SiteKind::Vertices => graph.vertices().to_vec(),
    };
    let relations = Relations::of(graph, kind);
    let sites: Vec<usize> =
        (0..positions.len()).filter(|&s| positions[s].distance(centre) <= radius + 1e-9).collect();
    sites
        .iter()
        .map(|&site| {
            Relation::ALL
                .iter()
                .map(|&r| {
                    (
                        r,
                        relations.get(r)[site]
                            .iter()
                            .map(|&n| positions[n].distance(positions[site]))
                            .collect(),
                    )
                })
                .collect()
        })
        .collect()
}

/// Asserts, for every site, per relation, the number of neighbours at each distance; and that
/// there are `sites` sites.
fn check(found: Vec<Vec<(Relation, Vec<f64>)>>, sites: usize, expected: &[(Relation, &[(usize, f64)])]) {
    assert_eq!(found.len(), sites);
    for site in found {
        for (relation, groups) in expected {
            let dists = &site.iter().find(|(r, _)| r == relation).unwrap().1;
            let total: usize = groups.iter().map(|g| g.0).sum();
            assert_eq!(dists.len(), total, "{relation:?}: {dists:?}");
            for &(count, d) in groups.iter() {
                let at_d = dists.iter().filter(|&&x| (x - d).abs() < 1e-9).count();
                assert_eq!(at_d, count, "{relation:?} at {d}: {dists:?}");
            }
        }
    }
}

use Relation::*;

#[test]
fn table_1_square_cells() {
    // Cells of 7 x 7 with centres (0.5, 0.5) ... (6.5, 6.5); the 9 within √2 of the centre (a
    // 3 x 3 block) are checked.
    let graph = Graph::tiling(Tiling::Square, &Shape::Rectangle { width: 7, height: 7 }).unwrap();
    let s2 = 2f64.sqrt();
    check(
        distances(&graph, SiteKind::Cells, Point::new(3.5, 3.5), s2),
        9,
        &[
            (Orthogonal, &[(4, 1.0)]),
            (Diagonal, &[(4, s2)]),
            (OffDiagonal, &[]),
            (Adjacent, &[(4, 1.0), (4, s2)]),
            (All, &[(4, 1.0), (4, s2)]),
        ],
    );
}

#[test]
fn table_1_hex_cells() {
    // Six neighbours share a side; the six diagonals (√3 away) are reached across the side
    // that leaves a corner (the non-adjacent case); no cell shares only a corner.
    // Hexagon of side 5: the 7 cells within 1 of the centre have all 12 neighbours on the board.
    let graph = Graph::tiling(Tiling::Hex, &Shape::Hexagon(5)).unwrap();
    check(
        distances(&graph, SiteKind::Cells, Point::new(0.0, 0.0), 1.0),
        7,
        &[
            (Orthogonal, &[(6, 1.0)]),
            (Diagonal, &[(6, R3)]),
            (OffDiagonal, &[]),
            (Adjacent, &[(6, 1.0)]),
            (All, &[(6, 1.0), (6, R3)]),
        ],
    );
}

#[test]
fn table_1_tri_cells() {
    // Around each corner of a triangle lie six triangles: itself, two sharing a side, the
    // opposite one (diagonal) and two others (off-diagonal): 3 + 3 + 6 = 12 adjacent.
    // Hexagon of side 4 (triangles of side 1): the 6 triangles around the centre (centres 1/√3
    // away) and the 6 across their outer sides (2/√3 away) are far from the rim.
    let graph = Graph::tiling(Tiling::Tri, &Shape::Hexagon(4)).unwrap();
    check(
        distances(&graph, SiteKind::Cells, Point::new(0.0, 0.0), 2.0 / R3),
        12,
        &[
            (Orthogonal, &[(3, 1.0 / R3)]),
            (Diagonal, &[(3, 2.0 / R3)]),
            (OffDiagonal, &[(6, 1.0)]),
            (Adjacent, &[(3, 1.0 / R3), (3, 2.0 / R3), (6, 1.0)]),
            (All, &[(3, 1.0 / R3), (3, 2.0 / R3), (6, 1.0)]),
        ],
    );
}

#[test]
fn table_1_transposed_to_vertices() {
    // Square vertices: like square cells.
    let square = Graph::tiling(Tiling::Square, &Shape::Rectangle { width: 6, height: 6 }).unwrap();
    let s2 = 2f64.sqrt();
    check(
        distances(&square, SiteKind::Vertices, Point::new(3.0, 3.0), 1.0),
        5,
        &[
            (Orthogonal, &[(4, 1.0)]),
            (Diagonal, &[(4, s2)]),
            (OffDiagonal, &[]),
            (Adjacent, &[(4, 1.0), (4, s2)]),
        ],
    );
    // Tri vertices (the dual of hex cells): six along sides; six diagonals √3 away across the
    // opposite side of each triangle.
    let tri = Graph::tiling(Tiling::Tri, &Shape::Hexagon(4)).unwrap();
    check(
        distances(&tri, SiteKind::Vertices, Point::new(0.0, 0.0), 1.0),
        7,
        &[(Orthogonal, &[(6, 1.0)]), (Diagonal, &[(6, R3)]), (OffDiagonal, &[]), (All, &[(6, 1.0), (6, R3)])],
    );
    // Hex vertices (the dual of tri cells): 3 along sides (1/√3), the opposite corner of each
    // of the 3 hexagons (2/√3), the other two corners of each hexagon (1): 12 adjacent.
    // The 6 corners of the central hexagon of a hexagon of side 4.
    let hex = Graph::tiling(Tiling::Hex, &Shape::Hexagon(4)).unwrap();
    check(
        distances(&hex, SiteKind::Vertices, Point::new(0.0, 0.0), 1.0 / R3),
        6,
        &[
            (Orthogonal, &[(3, 1.0 / R3)]),
            (Diagonal, &[(3, 2.0 / R3)]),
            (OffDiagonal, &[(6, 1.0)]),
            (Adjacent, &[(3, 1.0 / R3), (3, 2.0 / R3), (6, 1.0)]),
        ],
    );
}

fn sizes(graph: &Graph) -> Vec<usize> {
    let mut sizes: Vec<usize> = graph.cells().iter().map(Vec::len).collect();
    sizes.dedup();
    sizes
}

#[test]
fn dual_of_square_is_square_and_dual_of_dual() {
    // The weak dual of w x h squares: a vertex per cell, an edge per inner side, a square per
    // inner corner: wh, (w-1)h + w(h-1), (w-1)(h-1).
    let (w, h) = (6, 4);
    let graph =
        Graph::tiling(Tiling::Square, &Shape::Rectangle { width: w as u32, height: h as u32 }).unwrap();
    let dual = graph.dual().unwrap();
    assert_eq!(
        (dual.vertices().len(), dual.edges().len(), dual.cells().len()),
        (w * h, (w - 1) * h + w * (h - 1), (w - 1) * (h - 1))
    );
    assert_eq!(sizes(&dual), [4]);
    let twice = dual.dual().unwrap();
    assert_eq!((twice.vertices().len(), twice.cells().len()), ((w - 1) * (h - 1), (w - 2) * (h - 2)));
    assert_eq!(sizes(&twice), [4]);
}

#[test]
fn dual_of_hex_is_tri_and_back() {
    // Hexagon of side n: 3n²-3n+1 cells; its 6(n-1)² inner corners become triangles; the
    // 9n²-15n+6 inner sides become edges. The dual of that (a tri hexagon of side m = n-1)
    // has 6m² vertices and a hexagon for each of its 3m²-3m+1 inner corners.
    let n = 4;
    let dual = Graph::tiling(Tiling::Hex, &Shape::Hexagon(n as u32)).unwrap().dual().unwrap();
    assert_eq!(
        (dual.vertices().len(), dual.edges().len(), dual.cells().len()),
        (3 * n * n - 3 * n + 1, 9 * n * n - 15 * n + 6, 6 * (n - 1) * (n - 1))
    );
    assert_eq!(sizes(&dual), [3]);
    let m = n - 1;
    let twice = dual.dual().unwrap();
    assert_eq!((twice.vertices().len(), twice.cells().len()), (6 * m * m, 3 * m * m - 3 * m + 1));
    assert_eq!(sizes(&twice), [6]);
}

#[test]
fn dual_of_tri_is_hex() {
    // Triangle of side n: n² vertices in the dual, a hexagon per inner corner
    // ((n-1)(n-2)/2), an edge per inner side (3n(n+1)/2 sides minus 3n on the rim).
    let n = 6;
    let dual = Graph::tiling(Tiling::Tri, &Shape::Triangle(n as u32)).unwrap().dual().unwrap();
    assert_eq!(
        (dual.vertices().len(), dual.edges().len(), dual.cells().len()),
        (n * n, 3 * n * (n - 1) / 2, (n - 1) * (n - 2) / 2)
    );
    assert_eq!(sizes(&dual), [6]);
}

#[test]
fn go_board_on_vertices() {
    // square 19 on vertices: 361 sites, 2 × 19 × 18 orthogonal adjacencies, 18² cells.
    let spec = GraphSpec::Tiling {
        tiling: Tiling::Square,
        shape: Shape::Rectangle { width: 19, height: 19 },
        at: (),
    };
    let board = build_board(&spec, SiteKind::Vertices).unwrap();
    assert_eq!(board.sites.len(), 361);
    assert_eq!(board.graph_edges, 2 * 19 * 18);
    assert_eq!(board.graph_cells, 18 * 18);
    let orthogonal = board.relation_labels(Orthogonal);
    let directed: usize =
        board.sites.iter().map(|s| s.edges.iter().filter(|e| orthogonal.contains(&e.0)).count()).sum();
    assert_eq!(directed, 2 * (2 * 19 * 18));
    // Names: columns from the left, rows from the top; the first site is the top left corner.
    assert_eq!(board.sites[0].name, "x0y0");
    assert_eq!(board.sites[360].name, "x18y18");
}

#[test]
fn cairo_tiling_is_the_dual_of_3_3_4_3_4() {
    // Each inner vertex of 3.3.4.3.4 has the cells 3,3,4,3,4 around it, so its dual cell is a
    // pentagon with corners in 3 triangles and 2 squares: the dual edges are perpendicular to
    // the sides, so the angles are 180-60 = 120 (three times) and 180-90 = 90 (twice).
    let graph = Graph::tiling(Tiling::T33434, &Shape::Rectangle { width: 5, height: 5 }).unwrap();
    let inner = (0..graph.vertices().len())
        .filter(|&v| {
            let degree = graph.edges().iter().filter(|e| e.contains(&v)).count();
            let cells = graph.cells().iter().filter(|c| c.contains(&v)).count();
            degree == 5 && cells == 5
        })
        .count();
    let cairo = graph.dual().unwrap();
    assert!(inner > 0);
    assert_eq!(cairo.cells().len(), inner);
    for cell in cairo.cells() {
        assert_eq!(cell.len(), 5);
        let p: Vec<Point> = cell.iter().map(|&v| cairo.vertices()[v]).collect();
        let mut angles: Vec<i64> = (0..5)
            .map(|k| {
                let (prev, here, next) = (p[(k + 4) % 5], p[k], p[(k + 1) % 5]);
                prev.minus(here).angle_to(next.minus(here)).round() as i64
            })
            .collect();
        angles.sort_unstable();
        assert_eq!(angles, [90, 90, 120, 120, 120]);
    }
}

fn labels_of(board: &Board, site: &str) -> Vec<String> {
    let site = &board.sites[board.site(site).unwrap()];
    site.edges.iter().map(|e| board.labels[e.0].clone()).collect()
}

#[test]
fn compass_labels_on_square_and_hex() {
    let spec =
        GraphSpec::Tiling { tiling: Tiling::Square, shape: Shape::Rectangle { width: 3, height: 3 }, at: () };
    let board = build_board(&spec, SiteKind::Cells).unwrap();
    let mut all = labels_of(&board, "x1y1");
    all.retain(|l| !l.starts_with(|c: char| c.is_lowercase()));
    all.sort();
    assert_eq!(all, ["E", "N", "NE", "NW", "S", "SE", "SW", "W"]);
    // N of the centre is the top middle cell (row 0).
    let centre = &board.sites[board.site("x1y1").unwrap()];
    let n = board.labels.iter().position(|l| l == "N").unwrap();
    let target = centre.edges.iter().find(|e| e.0 == n).unwrap().1;
    assert_eq!(board.sites[target].name, "x1y0");
    // Pointed-top hex cells: sides at bearings 90, 30, 330, ... (E, NNE, NNW, W, SSW, SSE)
    // and diagonals at 0, 60, 120, ... (N, ENE, ESE, S, WSW, WNW): each the nearest of the 16
    // points (30 is 7.5 from NNE at 22.5).
    let spec = GraphSpec::Tiling { tiling: Tiling::Hex, shape: Shape::Hexagon(3), at: () };
    let board = build_board(&spec, SiteKind::Cells).unwrap();
    let centre = board.sites.iter().find(|s| s.position.length() < 1e-9).unwrap().name.clone();
    let mut orth: Vec<String> =
        labels_of(&board, &centre).into_iter().filter(|l| l.starts_with("orth")).collect();
    orth.sort();
    assert_eq!(orth, ["orthE", "orthNNE", "orthNNW", "orthSSE", "orthSSW", "orthW"]);
    let mut diag: Vec<String> =
        labels_of(&board, &centre).into_iter().filter(|l| l.starts_with("diag")).collect();
    diag.sort();
    assert_eq!(diag, ["diagENE", "diagESE", "diagN", "diagS", "diagWNW", "diagWSW"]);
}

#[test]
fn every_orthogonal_neighbour_gets_a_label_on_every_tiling() {
    // Each side shared by two cells makes them orthogonal neighbours both ways; each must get
    // its own `orth` label (two neighbours never fall on one compass point). Likewise on
    // vertices, each edge of the graph.
    for tiling in Tiling::ALL {
        let shape = match tiling.lattice() {
            rbg_geometry::Lattice::Square => Shape::Rectangle { width: 4, height: 3 },
            rbg_geometry::Lattice::Triangular => Shape::Hexagon(3),
        };
        let graph = Graph::tiling(tiling, &shape).unwrap();
        let shared_sides = graph
            .edges()
            .iter()
            .filter(|[a, b]| graph.cells().iter().filter(|c| c.contains(a) && c.contains(b)).count() == 2)
            .count();
        for (kind, pairs) in [(SiteKind::Cells, shared_sides), (SiteKind::Vertices, graph.edges().len())] {
            let board = Board::new(&graph, kind).unwrap();
            let orthogonal = board.relation_labels(Orthogonal);
            let labelled: usize = board
                .sites
                .iter()
                .map(|s| s.edges.iter().filter(|e| orthogonal.contains(&e.0)).count())
                .sum();
            assert_eq!(labelled, 2 * pairs, "{} on {kind:?}", tiling.name());
        }
    }
}
