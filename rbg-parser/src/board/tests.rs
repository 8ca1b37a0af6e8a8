//! Board tests. Expected boards are derived by hand from spec section 6 and written in the
//! spec's own notation `name[piece]{label:target,…}` (edges in sorted label order).

use crate::ir::Board;
use crate::test_support::{at_end, build, Built};

/// Declarations and rules before the board (the board comes last so that "end of input"
/// errors point at the end of the text).
const PREFIX: &str =
    "#players = p(1)\n#pieces = e, f, a, b, c, d\n#variables = v(1)\n#rules = ->>\n#board = ";

fn board(text: &str) -> Built {
    build(&format!("{PREFIX}{text}"))
}

/// The board in the spec's notation, one string per vertex in vertex order.
fn render(built: &Built) -> Vec<String> {
    let game = built.game();
    let Board { labels, vertices, .. } = &game.board;
    vertices
        .iter()
        .map(|v| {
            let edges: Vec<String> = v
                .edges
                .iter()
                .map(|e| format!("{}:{}", labels[e.label as usize], vertices[e.target as usize].name))
                .collect();
            format!("{}[{}]{{{}}}", v.name, game.pieces[v.piece as usize], edges.join(","))
        })
        .collect()
}

/// `(message, line, column)` of the `nth` occurrence of `needle` in the board text.
fn board_at(message: &str, text: &str, needle: &str, nth: usize) -> (String, u32, u32) {
    let full = format!("{PREFIX}{text}");
    let offset = text.match_indices(needle).nth(nth).map(|(i, _)| i).expect("needle in board text");
    let (line, col) =
        crate::source::SourceFile::new("t", full.as_bytes()).line_col((PREFIX.len() + offset) as u32);
    (message.to_string(), line, col)
}

fn assert_board_error(text: &str, message: &str, needle: &str, nth: usize) {
    assert_eq!(board(text).error(), board_at(message, text, needle, nth), "board: {text}");
}

#[test]
fn rectangle_example_of_section_6_3() {
    let built = board("rectangle(up,down,left,right, [a,b] [c,d])");
    assert_eq!(
        render(&built),
        [
            "rx0y0[a]{down:rx0y1,right:rx1y0}",
            "rx1y0[b]{down:rx1y1,left:rx0y0}",
            "rx0y1[c]{right:rx1y1,up:rx0y0}",
            "rx1y1[d]{left:rx0y1,up:rx1y0}",
        ]
    );
    assert_eq!(built.game().board.labels, ["down", "left", "right", "up"]);
}

#[test]
fn rectangle_with_holes_starts_at_first_cell_and_never_jumps() {
    let built = board("rectangle(up,down,left,right, [,a,b] [c,,d])");
    assert_eq!(
        render(&built),
        [
            // The first non-hole cell is the start (vertex 0).
            "rx1y0[a]{right:rx2y0}",
            "rx2y0[b]{down:rx2y1,left:rx1y0}",
            // No edge over the hole between c and d.
            "rx0y1[c]{}",
            "rx2y1[d]{up:rx2y0}",
        ]
    );
}

#[test]
fn rectangle_labels_are_user_names_and_all_declared() {
    // One row: `n` and `s` carry no edge but are labels all the same.
    let built = board("rectangle(n,s,w,east, [a,b])");
    assert_eq!(render(&built), ["rx0y0[a]{east:rx1y0}", "rx1y0[b]{w:rx0y0}"]);
    assert_eq!(built.game().board.labels, ["east", "n", "s", "w"]);
}

#[test]
fn row_cell_counting() {
    // `[ , ,e, , ]` has five cells, only the middle one present; `[e,]` has two.
    let built = board("rectangle(up,down,left,right, [ , ,e, , ])");
    assert_eq!(render(&built), ["rx2y0[e]{}"]);
    let built = board("rectangle(up,down,left,right, [e,] [a,b])");
    assert_eq!(
        render(&built),
        ["rx0y0[e]{down:rx0y1}", "rx0y1[a]{right:rx1y1,up:rx0y0}", "rx1y1[b]{left:rx0y1}"]
    );
}

#[test]
fn hexagon_growing_then_shrinking() {
    // Rows of 2, 3, 2 cells; the longest row is row 1. Above it the row above is shorter
    // (nw = c-1, ne = c); below it the row above is longer (nw = c, ne = c+1); mirrored for
    // sw/se.
    let built = board("hexagon(nw,ne,east,se,sw,west, [a,a] [b,b,b] [c,c])");
    assert_eq!(
        render(&built),
        [
            "hx0y0[a]{east:hx1y0,se:hx1y1,sw:hx0y1}",
            "hx1y0[a]{se:hx2y1,sw:hx1y1,west:hx0y0}",
            "hx0y1[b]{east:hx1y1,ne:hx0y0,se:hx0y2}",
            "hx1y1[b]{east:hx2y1,ne:hx1y0,nw:hx0y0,se:hx1y2,sw:hx0y2,west:hx0y1}",
            "hx2y1[b]{nw:hx1y0,sw:hx1y2,west:hx1y1}",
            "hx0y2[c]{east:hx1y2,ne:hx1y1,nw:hx0y1}",
            "hx1y2[c]{ne:hx2y1,nw:hx1y1,west:hx0y2}",
        ]
    );
    assert_eq!(built.game().board.labels, ["east", "ne", "nw", "se", "sw", "west"]);
}

#[test]
fn hexagon_growing_only_and_shrinking_only() {
    // A triangle: the last row is the longest.
    let built = board("hexagon(nw,ne,east,se,sw,west, [a] [b,c])");
    assert_eq!(
        render(&built),
        ["hx0y0[a]{se:hx1y1,sw:hx0y1}", "hx0y1[b]{east:hx1y1,ne:hx0y0}", "hx1y1[c]{nw:hx0y0,west:hx0y1}"]
    );
    // The first row is the longest.
    let built = board("hexagon(nw,ne,east,se,sw,west, [a,b] [c])");
    assert_eq!(
        render(&built),
        ["hx0y0[a]{east:hx1y0,se:hx0y1}", "hx1y0[b]{sw:hx0y1,west:hx0y0}", "hx0y1[c]{ne:hx1y0,nw:hx0y0}"]
    );
    // A single row.
    let built = board("hexagon(nw,ne,east,se,sw,west, [a,b])");
    assert_eq!(render(&built), ["hx0y0[a]{east:hx1y0}", "hx1y0[b]{west:hx0y0}"]);
}

#[test]
fn hexagon_with_holes() {
    // The 2-3-2 hexagon without hx0y0 and hx1y2.
    let built = board("hexagon(nw,ne,east,se,sw,west, [,a] [b,b,b] [c,])");
    assert_eq!(
        render(&built),
        [
            "hx1y0[a]{se:hx2y1,sw:hx1y1}",
            "hx0y1[b]{east:hx1y1,se:hx0y2}",
            "hx1y1[b]{east:hx2y1,ne:hx1y0,sw:hx0y2,west:hx0y1}",
            "hx2y1[b]{nw:hx1y0,west:hx1y1}",
            "hx0y2[c]{ne:hx1y1,nw:hx0y1}",
        ]
    );
}

#[test]
fn cuboid_front_leads_to_the_next_layer() {
    let built = board("cuboid(up,down,left,right,front,back, [[a,b]] [[c,d]] [[e,f]])");
    assert_eq!(
        render(&built),
        [
            "cx0y0z0[a]{front:cx0y0z1,right:cx1y0z0}",
            "cx1y0z0[b]{front:cx1y0z1,left:cx0y0z0}",
            "cx0y0z1[c]{back:cx0y0z0,front:cx0y0z2,right:cx1y0z1}",
            "cx1y0z1[d]{back:cx1y0z0,front:cx1y0z2,left:cx0y0z1}",
            "cx0y0z2[e]{back:cx0y0z1,right:cx1y0z2}",
            "cx1y0z2[f]{back:cx1y0z1,left:cx0y0z2}",
        ]
    );
    assert_eq!(built.game().board.labels, ["back", "down", "front", "left", "right", "up"]);
}

#[test]
fn cuboid_rows_within_layers_and_holes() {
    let built = board("cuboid(up,down,left,right,front,back, [[a][b]] [[c][]])");
    // The second layer's rows must be as long as the first layer's.
    assert_eq!(built.error().0, "This line differs in length with the previous");
    let built = board("cuboid(up,down,left,right,front,back, [[a][b]] [[c][,]])");
    assert_eq!(built.error().0, "This line differs in length with the previous");
    let built = board("cuboid(up,down,left,right,front,back, [[a][b]] [[c][d]])");
    assert_eq!(
        render(&built),
        [
            "cx0y0z0[a]{down:cx0y1z0,front:cx0y0z1}",
            "cx0y1z0[b]{front:cx0y1z1,up:cx0y0z0}",
            "cx0y0z1[c]{back:cx0y0z0,down:cx0y1z1}",
            "cx0y1z1[d]{back:cx0y1z0,up:cx0y0z1}",
        ]
    );
    // arimaa's naming: the label in the front position leads from layer 0 to layer 1.
    let built = board("cuboid(up,down,left,right,backLayer,frontLayer, [[,a]] [[b,c]])");
    assert_eq!(
        render(&built),
        [
            "cx1y0z0[a]{backLayer:cx1y0z1}",
            "cx0y0z1[b]{right:cx1y0z1}",
            "cx1y0z1[c]{frontLayer:cx1y0z0,left:cx0y0z1}",
        ]
    );
}

#[test]
fn explicit_nodes() {
    // Targets may come later; the first node is the start; edges print sorted by label;
    // self-loops and several labels to one target are fine; a label may equal a vertex name.
    let built = board("t [e] {y: t, x: u} u [f] {t: t, u: t}");
    assert_eq!(render(&built), ["t[e]{x:u,y:t}", "u[f]{t:t,u:t}"]);
    assert_eq!(built.game().board.labels, ["t", "u", "x", "y"]);
    assert!(built.warnings.is_empty());
}

#[test]
fn board_kind_errors() {
    assert_board_error("5", "Couldn't interpret this as board game", "5", 0);
    assert_board_error("[e]", "Couldn't interpret this as board game", "[", 0);
    let text = PREFIX.to_string();
    assert_eq!(board("").error(), at_end("Couldn't interpret this as board game", &text));
}

#[test]
fn explicit_node_errors() {
    let cases = [
        ("a [e] {x: a} a [e] {x: a}", "Vertex 'a' already exists", "a [", 1),
        ("a e", "Expected '[', encountered 'e'", "e", 0),
        ("a [5]", "Expected piece name, encountered '5'", "5", 0),
        ("a [g] {x: a}", "Piece 'g' was not declared", "g", 0),
        ("a [e {x: a}", "Expected ']', encountered '{'", "{", 0),
        ("a [e] x: a", "Expected '{', encountered 'x'", "x", 0),
        ("a [e] {}", "Expected edge label, encountered '}'", "}", 0),
        ("a [e] {x: a,}", "Expected edge label, encountered '}'", "}", 0),
        ("a [e] {x a}", "Expected ':', encountered 'a'", "a}", 0),
        ("a [e] {x: 5}", "Expected vertex name, encountered '5'", "5", 0),
        ("a [e] {x: a y: a}", "Expected ',' or '}', encountered 'y'", "y", 0),
        ("a [e] {x: b} c [e] {x: a}", "Target vertex 'b' was not declared", "b", 0),
        ("a [e] {e: a}", "Edge label 'e' was already declared as piece", "e:", 0),
        ("a [e] {p: a}", "Edge label 'p' was already declared as player", "p", 0),
        ("a [e] {v: a}", "Edge label 'v' was already declared as variable", "v", 0),
        ("a [e] {x: a, x: a}", "Edge label 'x' was already declared", "x", 1),
    ];
    for (text, message, needle, nth) in cases {
        assert_board_error(text, message, needle, nth);
    }
}

#[test]
fn generator_errors() {
    let rect = "rectangle(up,down,left,right,";
    let hex = "hexagon(k1,k2,k3,k4,k5,k6,";
    let cub = "cuboid(k1,k2,k3,k4,k5,k6,";
    let cases = [
        ("rectangle up".to_string(), "Expected '(', encountered 'up'", "up", 0),
        ("rectangle(up down".to_string(), "Expected ',', encountered 'down'", "down", 0),
        ("rectangle(up,down,left,right [e])".to_string(), "Expected ',', encountered '['", "[", 0),
        ("rectangle(5,down,left,right, [e])".to_string(), "Expected edge label, encountered '5'", "5", 0),
        ("rectangle(up,down,up,right, [e])".to_string(), "Edge label 'up' was already declared", "up", 1),
        (
            "rectangle(e,down,left,right, [e])".to_string(),
            "Edge label 'e' was already declared as piece",
            "e,down",
            0,
        ),
        (format!("{rect} [e] , [e])"), "Expected ')', encountered ','", ",", 4),
        (format!("{rect} [e 5])"), "Expected ']', encountered '5'", "5", 0),
        (format!("{rect} [e,g])"), "Identifier 'g' was not declared in respective segment", "g]", 0),
        (format!("{rect} )"), "'rectangle' generator requires at least one boardline", ")", 0),
        (format!("{rect} [e,e] [e])"), "This line differs in length with the previous", "[", 1),
        (format!("{hex} )"), "'hexagon' generator requires at least one boardline", ")", 0),
        (format!("{hex} [e] [])"), "Boardline cannot be empty", "[", 1),
        (
            format!("{hex} [e] [e,e,e])"),
            "This line should be one square shorter or longer than previous",
            "[",
            1,
        ),
        (format!("{hex} [e] [e])"), "This line should be one square shorter or longer than previous", "[", 1),
        (format!("{hex} [e,e] [e] [e,e])"), "This line should be one square shorter than previous", "[", 2),
        (format!("{cub} )"), "'cuboid' generator requires at least one rectangular layer", ")", 0),
        (format!("{cub} [])"), "Expected at least one boardline", "]", 0),
        (format!("{cub} [e])"), "Expected at least one boardline", "e", 0),
        (
            format!("{cub} [[e]] [[e][e]])"),
            "Cannot add this boardline, this layer is already as large as the first one",
            "[",
            4,
        ),
        (
            format!("{cub} [[e][e]] [[e]])"),
            "Expected more boardlines, layer size is not aligned with the previous",
            "]",
            4,
        ),
        (format!("{cub} [[e]] [[e,e]])"), "This line differs in length with the previous", "[", 3),
        (format!("{cub} [[e] 5)"), "Expected ']', encountered '5'", "5)", 0),
        (format!("{rect} [e] 5"), "Expected ')', encountered '5'", "5", 0),
    ];
    for (text, message, needle, nth) in cases {
        assert_board_error(&text, message, needle, nth);
    }
}

#[test]
fn malformed_row_and_empty_boards_are_our_errors() {
    // The reference reads `[a b]` as `[a, <hole>]`; spec 6.2 asks to reject it.
    assert_board_error(
        "rectangle(up,down,left,right, [e f])",
        "Cells of a boardline must be separated by ',', encountered 'f'",
        "f]",
        0,
    );
    // Spec 6.7: no vertex, so no starting vertex.
    let message = "The board has no vertices (every cell is a hole), so it has no starting vertex";
    assert_board_error("rectangle(up,down,left,right, [,] [,])", message, "rectangle", 0);
    assert_board_error("rectangle(up,down,left,right, [ ])", message, "rectangle", 0);
    assert_board_error("cuboid(k1,k2,k3,k4,k5,k6, [[,]] [[,]])", message, "cuboid", 0);
}

#[test]
fn trailing_tokens_warn() {
    let text = "rectangle(up,down,left,right, [e]) x";
    assert_eq!(
        board(text).warnings(),
        [board_at("Unexpected tokens at the end of 'board' section", text, "x", 0)]
    );
    let text = "a [e] {x: a} ]";
    assert_eq!(
        board(text).warnings(),
        [board_at("Unexpected tokens at the end of 'board' segment", text, "]", 1)]
    );
}

#[test]
fn input_ending_inside_the_board() {
    let cases = [
        ("rectangle(up,down", "Unexpected end of input while parsing 'board' segment"),
        ("rectangle(up,", "Unexpected end of input while parsing identifier"),
        ("rectangle(up,down,left,right, [e", "Unexpected end of input while parsing 'board' segment"),
        ("rectangle(up,down,left,right, [e]", "Unexpected end of input while parsing 'board' segment"),
        ("cuboid(k1,k2,k3,k4,k5,k6, [[e]", "Unexpected end of input while parsing 'board' segment"),
        ("a", "Unexpected end of input while parsing 'board' segment"),
        ("a [", "Unexpected end of input while parsing identifier"),
        ("a [e] {x:", "Unexpected end of input while parsing identifier"),
        ("a [e] {x", "Unexpected end of input while parsing edge list"),
        ("a [e] {x: a", "Unexpected end of input while parsing edge list"),
    ];
    for (text, message) in cases {
        let full = format!("{PREFIX}{text}");
        assert_eq!(board(text).error(), at_end(message, &full), "board: {text}");
    }
}

/// `(coords, point)` of every vertex, in vertex order.
fn positions(built: &Built) -> Vec<([i32; 3], [f64; 2])> {
    let board = &built.game().board;
    let positions = board.positions.as_ref().expect("a generated board has positions");
    assert_eq!(positions.len(), board.vertices.len(), "one position per vertex");
    positions.iter().map(|p| (p.coords, p.point)).collect()
}

#[test]
fn rectangle_positions_are_column_and_row() {
    // Two rows of three cells, the middle of the second row a hole: vertices rx0y0 rx1y0 rx2y0
    // rx0y1 rx2y1, each at (column, row).
    let built = board("rectangle(up,down,left,right, [a,b,c] [d,,e])");
    assert_eq!(
        positions(&built),
        [
            ([0, 0, 0], [0.0, 0.0]),
            ([1, 0, 0], [1.0, 0.0]),
            ([2, 0, 0], [2.0, 0.0]),
            ([0, 1, 0], [0.0, 1.0]),
            ([2, 1, 0], [2.0, 1.0]),
        ]
    );
}

#[test]
fn hexagon_positions_of_the_side_2_hexagon() {
    // Rows of 2, 3, 2 cells; the longest row is row 1. Axial q = c + max(0, row - 1): the last
    // row's cells get q = 1, 2 (its cell 0 lies south-east of the middle row's cell 0). Drawing:
    // rows 1 and 3 are shifted right by half a cell and rows are sqrt(3)/2 apart.
    let h = 3f64.sqrt() / 2.0;
    let built = board("hexagon(nw,ne,east,se,sw,west, [a,a] [b,b,b] [c,c])");
    assert_eq!(
        positions(&built),
        [
            ([0, 0, 0], [0.5, 0.0]),
            ([1, 0, 0], [1.5, 0.0]),
            ([0, 1, 0], [0.0, h]),
            ([1, 1, 0], [1.0, h]),
            ([2, 1, 0], [2.0, h]),
            ([1, 2, 0], [0.5, 2.0 * h]),
            ([2, 2, 0], [1.5, 2.0 * h]),
        ]
    );
}

#[test]
fn hexagon_edges_move_by_one_axial_step_and_one_unit_of_drawing() {
    // The axial step of every direction (documented on `ir::Position`), and neighbours are
    // exactly one cell apart in the drawing; checked on a hexagon with holes and unequal sides.
    let steps = [
        ("nw", [-1, -1]),
        ("ne", [0, -1]),
        ("east", [1, 0]),
        ("se", [1, 1]),
        ("sw", [0, 1]),
        ("west", [-1, 0]),
    ];
    for text in [
        "hexagon(nw,ne,east,se,sw,west, [a,a] [b,b,b] [c,c])",
        "hexagon(nw,ne,east,se,sw,west, [a] [a,a] [a,,a] [a,a,a,a] [a,a,a] [a,])",
    ] {
        let built = board(text);
        let game = built.game();
        let places = positions(&built);
        let mut edges = 0;
        for (from, vertex) in game.board.vertices.iter().enumerate() {
            for edge in &vertex.edges {
                let label = &game.board.labels[edge.label as usize];
                let step = steps.iter().find(|(l, _)| l == label).expect("a hexagon label").1;
                let (a, b) = (places[from], places[edge.target as usize]);
                assert_eq!([b.0[0] - a.0[0], b.0[1] - a.0[1]], step, "{text}: {label} from {}", vertex.name);
                let distance = (b.1[0] - a.1[0]).hypot(b.1[1] - a.1[1]);
                assert!((distance - 1.0).abs() < 1e-9, "{text}: {label} from {}", vertex.name);
                edges += 1;
            }
        }
        assert!(edges > 0);
    }
}

#[test]
fn cuboid_positions_put_layers_side_by_side() {
    // Two layers of one row of two cells: layer 1 is drawn from x = 2 + 1 (width plus a gap).
    let built = board("cuboid(up,down,left,right,front,back, [[a,b]] [[c,d]])");
    assert_eq!(
        positions(&built),
        [([0, 0, 0], [0.0, 0.0]), ([1, 0, 0], [1.0, 0.0]), ([0, 0, 1], [3.0, 0.0]), ([1, 0, 1], [4.0, 0.0]),]
    );
}

#[test]
fn node_lists_have_no_positions() {
    let built = board("a[e]{x:b} b[e]{x:a}");
    assert_eq!(built.game().board.positions, None);
}

#[test]
fn a_missing_row_bracket_points_at_the_row() {
    let text = "rectangle(up,down,left,right, [a,b [c,d])";
    let built = board(text);
    assert_eq!(built.error(), board_at("Expected ']', encountered '['", text, "[", 1));
    let Err(error) = &built.result else { unreachable!() };
    let full = format!("{PREFIX}{text}");
    let open = crate::source::SourceFile::new("t", full.as_bytes()).line_col(error.labels[0].span.start);
    let expected = board_at("", text, "[", 0);
    assert_eq!(
        (error.labels[0].message.as_str(), open),
        ("this boardline is not closed", (expected.1, expected.2))
    );
    assert_eq!(error.notes.len(), 1);
}
