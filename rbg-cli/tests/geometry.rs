//! The games of games/geometry (on `tiling` boards) and `rbg board`.
//!
//! Perft counts at depths 1 and 2 are derived by hand in the comments; the interpreter must
//! agree. Cell coordinates in the derivations are lattice coordinates (see rbg-geometry).

mod common;

use std::path::{Path, PathBuf};

use common::{rbg, stderr, stdout, temp_file};

fn game(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../games/geometry").join(name)
}

/// Leaves per depth from `rbg perft FILE --depth N`.
fn perft(path: &Path, depth: u32) -> Vec<u64> {
    let out = rbg(&["perft", path.to_str().unwrap(), "--depth", &depth.to_string()]);
    assert!(out.status.success(), "{}", stderr(&out));
    stdout(&out)
        .lines()
        .filter_map(|line| {
            let fields: Vec<&str> = line.split_whitespace().collect();
            fields.first()?.parse::<u32>().ok()?;
            fields.get(1)?.parse().ok()
        })
        .collect()
}

#[test]
fn hex_chess_perft() {
    // Axial coordinates (i, j) of the hexagon of side 6 (max(|i|, |j|, |i+j|) <= 5), N = (1, 0);
    // orthogonal steps N (1,0), ENE (1,-1), ESE (0,-1), S (-1,0), WSW (-1,1), WNW (0,1);
    // diagonal steps NNE (2,-1), E (1,-2), SSE (-1,-1), SSW (-2,1), W (-1,2), NNW (1,1).
    // White: K (-5,0), R (-5,1), B (-4,-1), pawns (-4,0), (-4,1), (-3,-1); black the point
    // reflection.
    // Depth 1, white: each pawn steps N onto an empty cell (3); no pawn capture (the two
    // capture cells of (-4,0) hold white pawns). The king's 12 neighbours are white pieces or
    // off the board (0). The rook: N, ENE, ESE blocked by own pieces, S and WSW off the
    // board, WNW (-5,2) ... (-5,5): 4. The bishop: NNE (-2,-2), (0,-3), (2,-4), (4,-5): 4;
    // NNW (-3,0), (-2,1), (-1,2), (0,3), (1,4): 5; E, SSE, SSW off the board, W blocked by
    // the rook. Total 3 + 0 + 4 + 9 = 16.
    // Depth 2: black has the mirrored 16 moves, except where white's move stands on a black
    // bishop ray: bishop to (0,-3) cuts black's ray (3,0), (2,-1), (1,-2), (0,-3), (-1,-4)
    // to 4 cells (the last a capture): 15; bishop to (0,3) cuts black's ray (2,2), (0,3),
    // (-2,4), (-4,5) to 2: 14. No other white destination is on a black ray, next to a
    // black pawn's capture cells or in front of one. 16 × 16 - 1 - 2 = 253.
    assert_eq!(perft(&game("hexChess.rbg"), 2), [16, 253]);
}

#[test]
fn walkers_on_3_4_6_4_perft() {
    // Lattice of hexagon centres, hexagon(3): points with max(|i|, |j|, |i+j|) <= 2; a square
    // on each lattice edge between two points, a triangle in each lattice triangle.
    // White walker on the corner hexagon (0,-2): 3 of its lattice neighbours are on the
    // board ((1,-2), (0,-1), (-1,-1)), so 3 squares share a side with it. White walker on
    // the square of edge (0,-1)-(1,-1): 2 hexagons and the 2 triangles on both sides of the
    // edge ({(0,-1),(1,-1),(0,0)} and {(0,-1),(1,-1),(1,-2)}, all corners on the board): 4.
    // Depth 1: 3 + 4 = 7. Black is the point reflection: 7 moves whatever white did (a
    // walker's targets are empty or enemy cells, and white cannot reach black's walkers or
    // targets in one move). Depth 2: 7 × 7 = 49.
    assert_eq!(perft(&game("walkers3464.rbg"), 2), [7, 49]);
}

#[test]
fn kings_on_a_triangle_perft() {
    // triangle(6): lattice points (a, b), a, b >= 0, a + b <= 6; up triangles U(a,b) with
    // corners (a,b), (a+1,b), (a,b+1); down triangles D(a,b) with (a+1,b), (a,b+1),
    // (a+1,b+1). A corner of the board is in 1 triangle, a side point in 3, an inner one in 6.
    // White king U(0,0): the triangles at its corners (0,0), (1,0), (0,1) are D(0,0), U(1,0),
    // U(0,1): 3. White king U(2,0): 2 at (2,0) (U(1,0), D(1,0)), 2 at (3,0) (D(2,0), U(3,0)),
    // and at the inner point (2,1) also U(2,1), U(1,1), D(1,1): 7. Depth 1: 10.
    // Black kings U(0,5) (the top corner: 3) and U(0,3) (on the left side: 7, as U(2,0) by
    // symmetry): 10 whatever white did (targets are empty or enemy cells). Depth 2: 100.
    assert_eq!(perft(&game("triKings.rbg"), 2), [10, 100]);
}

#[test]
fn board_describes_a_go_board() {
    let path = temp_file(
        "go.rbg",
        "#players = black(1), white(1)\n#pieces = e\n#variables =\n\
         #board = tiling(square(rectangle(19, 19)), vertices, e)\n#rules = ->black ->white",
    );
    let svg = path.with_extension("svg");
    let out = rbg(&["board", path.to_str().unwrap(), "-o", svg.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("sites    361\n"), "{text}");
    assert!(text.contains("cells    324 (of the tiling; the sites are its vertices)"), "{text}");
    assert!(text.contains("tiling   361 vertices, 684 edges, 324 cells"), "{text}");
    // Distinct neighbours (orthogonal and diagonal): 4 corners with 3, 4 × 17 side points
    // with 5, 17² inner points with 8.
    assert!(text.contains("degree   sites\n     3   4\n     5   68\n     8   289\n"), "{text}");
    // N edges: every point but the top row's, 19 × 18; NE: 18 × 18.
    assert!(text.contains("\n  N            342\n"), "{text}");
    assert!(text.contains("\n  NE           324\n"), "{text}");
    // The drawing is rbg-render's (the picture of `rbg render`): one clickable site per point,
    // each with its name.
    let drawing = std::fs::read_to_string(&svg).unwrap();
    assert!(drawing.starts_with("<svg"));
    assert_eq!(drawing.matches(r#"class="cell""#).count(), 361);
    assert!(drawing.contains(">x18y18</text>"));
}

#[test]
fn board_works_without_positions() {
    // An explicit node list: no cells of a tiling; drawn by its edges.
    let path = temp_file(
        "nodes.rbg",
        "#players = p(1)\n#pieces = e\n#variables =\n#board = a[e]{r: b} b[e]{r: c} c[e]{r: a}\n#rules = ->p",
    );
    let svg = path.with_extension("svg");
    let out = rbg(&["board", path.to_str().unwrap(), "-o", svg.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.starts_with("sites    3\nedges    3 labelled (directed), 3 neighbour pairs\ncells    none"),
        "{text}"
    );
    assert!(text.contains("degree   sites\n     1   3\n"), "{text}");
    // Three sites and the three edges between them, each site named.
    let drawing = std::fs::read_to_string(&svg).unwrap();
    assert_eq!(drawing.matches(r#"class="cell""#).count(), 3);
    assert_eq!(drawing.matches(r#"class="edge""#).count(), 3);
    assert!(drawing.contains(">b</text>"), "{drawing}");
}

#[test]
fn board_reports_geometry_errors_with_their_place() {
    let path = temp_file(
        "bad.rbg",
        "#players = p(1)\n#pieces = e\n#variables =\n#board = tiling(square(polygon((0,0),(2,2),(2,0),(0,2))), cells, e)\n#rules = ->p",
    );
    let out = rbg(&["board", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let message = stderr(&out);
    assert!(message.contains("The polygon intersects itself") && message.contains(":4:24"), "{message}");
}

#[test]
fn lowered_tiling_games_are_ordinary_rbg() {
    // `rbg lower` writes an explicit node list the reference reads; it plays the same.
    let out = rbg(&["lower", game("hexChess.rbg").to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(!text.contains("tiling"));
    let lowered = temp_file("hexChessLowered.rbg", &text);
    assert_eq!(perft(&lowered, 2), [16, 253]);
}
