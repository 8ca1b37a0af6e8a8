//! Tests of the `tiling` generator. Expected boards are derived by hand: sites in reading
//! order named `x<column>y<row>` (row 0 at the top), labels by compass point and relation.

use crate::print::print_game;
use crate::test_support::{build, Built};

const PREFIX: &str = "#players = p(1)\n#pieces = e, a, b, c, d\n#variables = v(1)\n#rules = ->>\n#board = ";

fn board(text: &str) -> Built {
    build(&format!("{PREFIX}{text}"))
}

fn render(built: &Built) -> Vec<String> {
    let game = built.game();
    let board = &game.board;
    board
        .vertices
        .iter()
        .map(|v| {
            let edges: Vec<String> = v
                .edges
                .iter()
                .map(|e| {
                    format!("{}:{}", board.labels[e.label as usize], board.vertices[e.target as usize].name)
                })
                .collect();
            format!("{}[{}]{{{}}}", v.name, game.pieces[v.piece as usize], edges.join(","))
        })
        .collect()
}

fn assert_error(text: &str, message: &str, needle: &str) {
    let full = format!("{PREFIX}{text}");
    let offset = PREFIX.len() + text.find(needle).expect("needle in board text");
    let (line, col) = crate::source::SourceFile::new("t", full.as_bytes()).line_col(offset as u32);
    assert_eq!(board(text).error(), (message.to_string(), line, col), "board: {text}");
}

#[test]
fn a_two_by_two_square_board() {
    // Cells (x0y0) top left, (x1y0) top right, (x0y1), (x1y1). From the top left: E and S
    // share a side (orthogonal, adjacent), SE shares a corner (diagonal, adjacent).
    let built = board("tiling(square(rectangle(2, 2)), cells, [a, b] [c, d])");
    let vertices = render(&built);
    assert_eq!(
        vertices[0],
        "x0y0[a]{E:x1y0,S:x0y1,SE:x1y1,adjE:x1y0,adjS:x0y1,adjSE:x1y1,diagSE:x1y1,orthE:x1y0,orthS:x0y1}"
    );
    assert_eq!(
        vertices[3],
        "x1y1[d]{N:x1y0,NW:x0y0,W:x0y1,adjN:x1y0,adjNW:x0y0,adjW:x0y1,diagNW:x0y0,orthN:x1y0,orthW:x0y1}"
    );
    assert_eq!(vertices.len(), 4);
    let game = built.game();
    let compass = ["E", "N", "NE", "NW", "S", "SE", "SW", "W"];
    let mut labels: Vec<String> = compass.iter().map(|c| c.to_string()).collect();
    labels.extend(compass.iter().map(|c| format!("adj{c}")));
    labels.extend(["NE", "NW", "SE", "SW"].iter().map(|c| format!("diag{c}")));
    labels.extend(["E", "N", "S", "W"].iter().map(|c| format!("orth{c}")));
    assert_eq!(game.board.labels, labels);
    // Positions: cell centres, y growing downwards.
    let positions = game.board.positions.as_ref().unwrap();
    assert_eq!(positions[0].point, [0.5, -1.5]);
    assert_eq!(positions[3].coords, [1, 1, 0]);
}

#[test]
fn relation_words_are_choices_of_labels() {
    let text = "#players = p(1)\n#pieces = e\n#variables =\n#board = tiling(square(rectangle(3, 3)), cells, e)\n#rules = ->p orthogonal diagonal* all";
    let built = build(text);
    let printed: String = print_game(built.game()).chars().filter(|c| !c.is_whitespace()).collect();
    assert!(
        printed.contains("->p(orthE+orthN+orthS+orthW)(diagNE+diagNW+diagSE+diagSW)*(E+N+NE+NW+S+SE+SW+W)"),
        "{printed}"
    );
    // No off-diagonal neighbours on squares: the word is unknown there.
    let text = text.replace("all", "offdiagonal");
    assert_eq!(build(&text).error().0, "Identifier 'offdiagonal' not declared");
}

#[test]
fn a_go_board_on_vertices() {
    // 19 x 19 vertices; each of the 2 × 19 × 18 grid lines' segments is two directed
    // orthogonal edges.
    let built = board("tiling(square(rectangle(19, 19)), vertices, e)");
    let game = built.game();
    assert_eq!(game.board.vertices.len(), 361);
    let orthogonal: Vec<usize> =
        (0..game.board.labels.len()).filter(|&l| game.board.labels[l].starts_with("orth")).collect();
    let directed: usize = game
        .board
        .vertices
        .iter()
        .map(|v| v.edges.iter().filter(|e| orthogonal.contains(&(e.label as usize))).count())
        .sum();
    assert_eq!(directed, 2 * 2 * 19 * 18);
    let geometry = game.board.geometry.as_ref().unwrap();
    assert_eq!((geometry.graph_vertices, geometry.graph_edges, geometry.graph_cells), (361, 684, 324));
}

#[test]
fn holes_and_removals_drop_sites() {
    let built = board("tiling(square(rectangle(2, 2)), cells, [a,] [c, d])");
    let names: Vec<String> = built.game().board.vertices.iter().map(|v| v.name.clone()).collect();
    assert_eq!(names, ["x0y0", "x0y1", "x1y1"]);
    let built = board("tiling(square(rectangle(2, 2)), remove(cells, x1y0), e)");
    assert_eq!(render(&built)[0], "x0y0[e]{S:x0y1,SE:x1y1,adjS:x0y1,adjSE:x1y1,diagSE:x1y1,orthS:x0y1}");
}

#[test]
fn one_piece_with_exceptions_on_a_triangle() {
    // Triangle of side 2: the top triangle (row 0), the one pointing down below it (its centre
    // is higher than the bottom ones': row 1), then two at the bottom (row 2). Columns are
    // the distinct x of the centres: 1/2, 1, 3/2.
    let built = board("tiling(tri(triangle(2)), cells, e, x1y1: a, x2y2: b)");
    let summary: Vec<String> = render(&built).iter().map(|v| v[..v.find('{').unwrap()].to_string()).collect();
    assert_eq!(summary, ["x1y0[e]", "x1y1[a]", "x0y2[e]", "x2y2[b]"]);
    // The down triangle shares a side with each of the others: the top one due north, the
    // bottom ones at bearings 240 and 120 (nearest WSW and ESE).
    let middle = &render(&built)[1];
    assert!(
        middle.contains("orthN:x1y0") && middle.contains("orthWSW:x0y2") && middle.contains("orthESE:x2y2"),
        "{middle}"
    );
}

#[test]
fn operators_compose() {
    // The dual of 3 x 3 square cells on vertices: 9 sites (the centres), 2 × 3 × 2 edges.
    let built = board("tiling(dual(square(rectangle(3, 3))), vertices, e)");
    let geometry = built.game().board.geometry.clone().unwrap();
    assert_eq!((built.game().board.vertices.len(), geometry.graph_edges, geometry.graph_cells), (9, 12, 4));
    // Merging a board with itself shifted by one column: 3 x 2 cells.
    let built =
        board("tiling(merge(square(rectangle(2, 2)), shift(square(rectangle(2, 2)), 1, 0)), cells, e)");
    assert_eq!(built.game().board.vertices.len(), 6);
    // Clipping 4 x 4 cells to the lower left 2 x 2 square.
    let built =
        board("tiling(clip(square(rectangle(4, 4)), polygon((0, 0), (2, 0), (2, 2), (0, 2))), cells, e)");
    assert_eq!(built.game().board.vertices.len(), 4);
    // A polygon shape: an L of three cells; rotation and scaling keep the count.
    let built =
        board("tiling(scale(rotate(square(polygon((0,0),(2,0),(2,1),(1,1),(1,2),(0,2))), 90), 2), cells, e)");
    assert_eq!(built.game().board.vertices.len(), 3);
    // Semi-regular tilings are named by their vertex configuration: 3.4.6.4 hexagon(2) has
    // 7 hexagons, 12 squares and 6 triangles.
    let built = board("tiling(3.4.6.4(hexagon(2)), cells, e)");
    assert_eq!(built.game().board.vertices.len(), 25);
}

#[test]
fn geometry_errors_point_at_their_cause() {
    assert_error("tiling(pentagon(hexagon(2)), cells, e)", "Unknown tiling 'pentagon' (known: square, hex, tri, 4.8.8, 3.4.6.4, 4.6.12, 3.3.4.3.4, 3.6.3.6, 3.12.12)", "pentagon");
    assert_error("tiling(5.5.5(hexagon(2)), cells, e)", "Unknown tiling '5.5.5' (known: square, hex, tri, 4.8.8, 3.4.6.4, 4.6.12, 3.3.4.3.4, 3.6.3.6, 3.12.12)", "5.5.5");
    assert_error(
        "tiling(hex(circle(2)), cells, e)",
        "Unknown shape 'circle' (known: rectangle, hexagon, triangle, diamond, polygon)",
        "circle",
    );
    assert_error(
        "tiling(square(rectangle(2000, 2000)), cells, e)",
        "The board is too large: 4004001 sites or tiles, at most 500000 allowed",
        "square",
    );
    assert_error("tiling(hex(hexagon(0)), cells, e)", "A board size must be at least 1", "0");
    assert_error(
        "tiling(square(polygon((0,0),(2,2),(2,0),(0,2))), cells, e)",
        "The polygon intersects itself",
        "polygon",
    );
    assert_error(
        "tiling(clip(square(rectangle(2, 2)), polygon((10,10),(11,10),(11,11))), cells, e)",
        "The board is empty after 'clip'",
        "clip",
    );
    assert_error(
        "tiling(square(hexagon(3)), cells, e)",
        "The shape 'hexagon' is not defined on the tiling 'square'",
        "square",
    );
    assert_error(
        "tiling(square(polygon((0,0),(1/2,0),(0,1/2))), cells, e)",
        "The board is empty after 'polygon'",
        "square",
    );
    assert_error(
        "tiling(square(rectangle(1, 3)), vertices, e)",
        "On vertices a size counts vertices along a side and must be at least 2",
        "square",
    );
    assert_error(
        "tiling(square(rectangle(2, 2)), cells, [a, b] [c])",
        "The boardlines give 3 cells but the board has 4 sites, one per cell in site order",
        "[",
    );
    assert_error(
        "tiling(square(rectangle(2, 2)), cells, e, x9y9: a)",
        "The board has no site named 'x9y9'",
        "x9y9",
    );
    assert_error(
        "tiling(square(rectangle(2, 2)), cells, [,] [,])",
        "The board is empty after 'removing sites'",
        "tiling",
    );
    assert_error(
        "tiling(square(rectangle(2, 2)), sites, e)",
        "Expected 'cells', 'vertices' or 'remove', encountered 'sites'",
        "sites",
    );
}

#[test]
fn labels_must_not_name_pieces() {
    let text = "#players = p(1)\n#pieces = e, N\n#variables =\n#rules = ->>\n#board = tiling(square(rectangle(2, 2)), cells, e)";
    assert_eq!(build(text).error().0, "Edge label 'N' was already declared as piece");
}

#[test]
fn a_node_named_tiling_is_still_a_node() {
    let built = board("tiling[e]{up: tiling}");
    assert_eq!(render(&built), ["tiling[e]{up:tiling}"]);
}
