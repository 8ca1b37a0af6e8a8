//! Pictures of real positions, read back with an XML parser: pieces on the expected cells,
//! glyphs, layouts, hexagons, and well-formed output for random positions.
//!
//! Expected values are derived by hand from the rules and the drawing conventions (cell size
//! 48 px, rank 1 at the bottom, file `a` on the left), never copied from the renderer's output.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::OnceLock;

use proptest::prelude::*;
use rbg_core::{notation, Game, MoveList};
use rbg_interp::{InterpOptions, Interpreter};
use rbg_render::layout::Origin;
use rbg_render::names::NamePattern;
use rbg_render::{render_svg, Layout, RenderOptions, Shape};

type State = <Interpreter as Game>::State;

const CELL: f64 = 48.0;

fn interpreter(text: &str, name: &str) -> Interpreter {
    let out = rbg_parser::parse(name, text.as_bytes());
    let game = out.game.unwrap_or_else(|| panic!("{name} parses: {:?}", out.diagnostics));
    Interpreter::new(&game, name, InterpOptions::default()).expect("the game builds")
}

fn workspace_game(file: &str) -> Interpreter {
    let path = rbg_testdata::workspace_root().join("games").join(file);
    let text = std::fs::read_to_string(&path).expect("workspace game");
    interpreter(&text, file.trim_end_matches(".rbg"))
}

/// A corpus game, or `None` when the corpus is missing and a skip was requested.
fn corpus_game(name: &str) -> Option<Interpreter> {
    let path: PathBuf = rbg_testdata::corpus_dir().join(format!("{name}.rbg"));
    if !rbg_testdata::available(&[&path]) {
        return None;
    }
    Some(interpreter(&std::fs::read_to_string(&path).expect("corpus game"), name))
}

/// The keeper-completed state after `moves` (pair notation), each checked to be legal, and the
/// state before the last of them.
fn play(game: &Interpreter, moves: &[&str]) -> (State, Option<State>) {
    let mut sc = game.new_scratch();
    let mut state = game.initial_state();
    assert!(game.complete_keeper(&mut state, &mut sc, 100).unwrap());
    let mut previous = None;
    let mut legal = MoveList::new();
    for text in moves {
        let m = notation::parse_move(game.info(), text).unwrap();
        game.legal_moves(&mut state, &mut sc, &mut legal).unwrap();
        assert!(legal.iter().any(|l| l == m.as_slice()), "{text} is legal");
        previous = Some(state.clone());
        game.apply_move(&mut state, &m);
        game.complete_keeper(&mut state, &mut sc, 100).unwrap();
    }
    (state, previous)
}

fn has_class(node: &roxmltree::Node<'_, '_>, class: &str) -> bool {
    node.attribute("class").is_some_and(|c| c.split_whitespace().any(|k| k == class))
}

fn number(node: &roxmltree::Node<'_, '_>, attribute: &str) -> f64 {
    node.attribute(attribute).unwrap_or_else(|| panic!("{attribute} missing")).parse().expect("a number")
}

/// A piece as drawn: its piece name, the text of its symbol or label, and its centre.
#[derive(Debug)]
struct DrawnPiece {
    piece: String,
    text: String,
    centre: [f64; 2],
}

/// The pieces of a picture by vertex name.
fn drawn_pieces(doc: &roxmltree::Document<'_>) -> HashMap<String, DrawnPiece> {
    let mut out = HashMap::new();
    for g in doc.descendants().filter(|n| n.has_tag_name("g") && has_class(n, "piece")) {
        let vertex = g.attribute("data-vertex").expect("data-vertex").to_string();
        let piece = g.attribute("data-piece").expect("data-piece").to_string();
        // The symbol on top (glyph) or the disc's label: the last text element; a plain man or
        // stone is a disc without one.
        let (text, centre) = match g.children().rfind(|n| n.has_tag_name("text")) {
            Some(t) => (t.text().unwrap_or("").to_string(), [number(&t, "x"), number(&t, "y")]),
            None => {
                let disc = g.children().find(|n| has_class(n, "disc")).expect("a disc or a text");
                (String::new(), [number(&disc, "cx"), number(&disc, "cy")])
            }
        };
        assert!(
            out.insert(vertex.clone(), DrawnPiece { piece, text, centre }).is_none(),
            "one piece per vertex"
        );
    }
    out
}

/// The centres of the cells by vertex name.
fn cell_centres(doc: &roxmltree::Document<'_>) -> HashMap<String, [f64; 2]> {
    doc.descendants()
        .filter(|n| has_class(n, "cell"))
        .map(|n| {
            let centre = match n.tag_name().name() {
                "rect" => [
                    number(&n, "x") + number(&n, "width") / 2.0,
                    number(&n, "y") + number(&n, "height") / 2.0,
                ],
                "circle" => [number(&n, "cx"), number(&n, "cy")],
                _ => corners(&n).iter().fold([0.0, 0.0], |a, p| [a[0] + p[0] / 6.0, a[1] + p[1] / 6.0]),
            };
            (n.attribute("data-vertex").unwrap().to_string(), centre)
        })
        .collect()
}

fn corners(polygon: &roxmltree::Node<'_, '_>) -> Vec<[f64; 2]> {
    polygon
        .attribute("points")
        .unwrap()
        .split_whitespace()
        .map(|p| {
            let (x, y) = p.split_once(',').unwrap();
            [x.parse().unwrap(), y.parse().unwrap()]
        })
        .collect()
}

fn close(a: [f64; 2], b: [f64; 2]) -> bool {
    (a[0] - b[0]).abs() < 0.02 && (a[1] - b[1]).abs() < 0.02
}

/// The pieces of the tray (those on helper vertices) as (vertex, piece) names.
fn tray_pieces(doc: &roxmltree::Document<'_>) -> Vec<(String, String)> {
    doc.descendants()
        .filter(|n| has_class(n, "tray-piece"))
        .map(|n| {
            (n.attribute("data-vertex").unwrap().to_string(), n.attribute("data-piece").unwrap().to_string())
        })
        .collect()
}

fn caption(doc: &roxmltree::Document<'_>) -> String {
    let g = doc.descendants().find(|n| has_class(n, "caption")).expect("a caption");
    g.children().filter_map(|t| t.text()).filter(|t| !t.trim().is_empty()).collect::<Vec<_>>().join("\n")
}

#[test]
fn tic_tac_toe_shows_the_marks_where_they_were_made() {
    let game = workspace_game("ticTacToe.rbg");
    // Cross takes the centre, nought the top-left corner, cross the top-right corner
    // (`rx<column>y<row>`, row 0 at the top; cross writes with modifiers 4 5, nought 10 11).
    let (state, previous) = play(&game, &["4@rx1y1 5@rx1y1", "10@rx0y0 11@rx0y0", "4@rx2y0 5@rx2y0"]);
    let svg = render_svg(&game, &state, previous.as_ref(), &RenderOptions::default());
    let doc = roxmltree::Document::parse(&svg).expect("well-formed");
    let pieces = drawn_pieces(&doc);
    assert_eq!(pieces.len(), 3, "{pieces:?}");
    let (centre, corner, right) = (&pieces["rx1y1"], &pieces["rx0y0"], &pieces["rx2y0"]);
    assert_eq!((centre.piece.as_str(), centre.text.as_str()), ("X", "X"));
    assert_eq!((corner.piece.as_str(), corner.text.as_str()), ("O", "O"));
    assert_eq!((right.piece.as_str(), right.text.as_str()), ("X", "X"));
    // The marks sit on their cells: one cell right and down of the corner, two cells right.
    let o = corner.centre;
    assert!(close(centre.centre, [o[0] + CELL, o[1] + CELL]), "{pieces:?}");
    assert!(close(right.centre, [o[0] + 2.0 * CELL, o[1]]), "{pieces:?}");
    let cells = cell_centres(&doc);
    assert_eq!(cells.len(), 9);
    assert!(close(cells["rx0y0"], o));
    // Only the last move's cell is highlighted; nought is to move; the scores are still 50.
    let last: Vec<&str> = doc
        .descendants()
        .filter(|n| has_class(n, "last-move"))
        .filter_map(|n| n.attribute("data-vertex"))
        .collect();
    assert_eq!(last, ["rx2y0"]);
    let text = caption(&doc);
    assert!(text.contains("nought to move"), "{text}");
    assert!(text.contains("cross 50 · nought 50"), "{text}");
    // The empty piece (`free`) is not drawn and not in the legend; X and O are.
    let legend: Vec<&str> = doc
        .descendants()
        .filter(|n| has_class(n, "legend-entry"))
        .filter_map(|n| n.attribute("data-piece"))
        .collect();
    assert_eq!(legend, ["O", "X"]);
}

#[test]
fn the_chess_opening_position_has_every_piece_on_its_square() {
    let Some(game) = corpus_game("chess") else { return };
    let (state, _) = play(&game, &[]);
    let svg = render_svg(&game, &state, None, &RenderOptions::default());
    let doc = roxmltree::Document::parse(&svg).expect("well-formed");
    let pieces = drawn_pieces(&doc);
    assert_eq!(pieces.len(), 32);
    // Files a..h are columns 0..7; rank 1 is row 7 (the bottom), rank 8 row 0.
    let back_rank_white = ['♖', '♘', '♗', '♕', '♔', '♗', '♘', '♖'];
    let back_rank_black = ['♜', '♞', '♝', '♛', '♚', '♝', '♞', '♜'];
    let mut expected: HashMap<String, char> = HashMap::new();
    for x in 0..8 {
        expected.insert(format!("rx{x}y7"), back_rank_white[x]);
        expected.insert(format!("rx{x}y6"), '♙');
        expected.insert(format!("rx{x}y1"), '♟');
        expected.insert(format!("rx{x}y0"), back_rank_black[x]);
    }
    for (vertex, glyph) in &expected {
        let drawn = pieces.get(vertex).unwrap_or_else(|| panic!("no piece on {vertex}"));
        assert_eq!(drawn.text.chars().next(), Some(*glyph), "{vertex}: {drawn:?}");
    }
    // The white king stands on e1: under the file letter `e` and beside the rank number `1`.
    let king = pieces["rx4y7"].centre;
    let label = |text: &str| {
        let node = doc
            .descendants()
            .find(|n| {
                n.has_tag_name("text")
                    && n.text() == Some(text)
                    && n.ancestors().any(|a| has_class(&a, "coordinates"))
            })
            .unwrap_or_else(|| panic!("no coordinate {text}"));
        [number(&node, "x"), number(&node, "y")]
    };
    assert!((label("e")[0] - king[0]).abs() < 0.02);
    assert!((label("1")[1] - king[1]).abs() < 0.02);
    assert!(label("8")[1] < label("1")[1], "rank 8 is above rank 1");
    // White pieces are filled in: a white solid symbol under each outlined white one.
    let filled = doc.descendants().filter(|n| has_class(n, "glyph-fill")).count();
    assert_eq!(filled, 16);
    // No discs, so no legend.
    assert!(!doc.descendants().any(|n| has_class(&n, "legend")));
}

#[test]
fn the_mill_board_is_laid_out_from_its_direction_labels() {
    let Some(game) = corpus_game("theMillGame") else { return };
    let info = game.info();
    assert!(info.positions.is_none(), "the mill board is a node list");
    let layout = Layout::new(info);
    assert_eq!(layout.origin, Origin::Directions);
    // The familiar drawing: three concentric squares on a 7 × 7 grid (corners and middles of
    // sides 6, 4 and 2 wide), derived from the game's description of the board.
    let mut expected: Vec<(i64, i64)> = Vec::new();
    for ring in 0..3i64 {
        let (low, mid, high) = (ring, 3, 6 - ring);
        for (x, y) in [
            (low, low),
            (mid, low),
            (high, low),
            (high, mid),
            (high, high),
            (mid, high),
            (low, high),
            (low, mid),
        ] {
            expected.push((x, y));
        }
    }
    expected.sort_unstable();
    let mut got: Vec<(i64, i64)> = layout.points.iter().map(|p| (p[0] as i64, p[1] as i64)).collect();
    got.sort_unstable();
    assert_eq!(got, expected);
    // Three rings of 8 points joined around (24 lines) and at their 4 midpoints (8 lines).
    assert_eq!(layout.links.len(), 32);
    let (state, _) = play(&game, &[]);
    let svg = render_svg(&game, &state, None, &RenderOptions::default());
    let doc = roxmltree::Document::parse(&svg).expect("well-formed");
    assert_eq!(doc.descendants().filter(|n| has_class(n, "edge")).count(), 32);
    assert_eq!(cell_centres(&doc).len(), 24);
}

/// A wheel: a hub and a ring of six, names and labels that say nothing of the geometry.
const WHEEL: &str = "#players = a(1)\n#pieces = e, w\n#variables =\n\
    #board = hub[w]{spoke: alpha, spoke2: delta} \
    alpha[e]{next: beta, back: hub} beta[e]{next: gamma} gamma[e]{next: delta} \
    delta[e]{next: epsilon, back: hub} epsilon[e]{next: zeta} zeta[e]{next: alpha}\n\
    #rules = ->a [e] ->> {}\n";

#[test]
fn a_node_list_board_without_hints_gets_distinct_points_every_time() {
    let game = interpreter(WHEEL, "wheel");
    let info = game.info();
    let layout = Layout::new(info);
    assert_eq!(layout.origin, Origin::Graph);
    assert_eq!(layout.shape, Shape::Nodes);
    assert_eq!(layout.points.len(), 7);
    for (i, a) in layout.points.iter().enumerate() {
        for b in &layout.points[i + 1..] {
            let d = (a[0] - b[0]).hypot(a[1] - b[1]);
            assert!(d >= rbg_render::graph::MIN_SEPARATION - 1e-9, "{a:?} and {b:?} are {d} apart");
        }
    }
    assert_eq!(Layout::new(info), layout, "deterministic");
    // Ring edges (6) and two spokes, each pair once.
    assert_eq!(layout.links.len(), 8);
    // Neighbours on the ring are closer than opposite vertices (alpha and delta are three
    // steps apart around the ring but two through the hub; beta and epsilon are three).
    let at = |name: &str| layout.points[info.vertex_id(name).unwrap() as usize];
    let d = |a: &str, b: &str| (at(a)[0] - at(b)[0]).hypot(at(a)[1] - at(b)[1]);
    assert!(d("alpha", "beta") < d("beta", "epsilon"));
    let (state, _) = play(&game, &[]);
    let svg = render_svg(&game, &state, None, &RenderOptions::default());
    assert_eq!(render_svg(&game, &state, None, &RenderOptions::default()), svg);
    let doc = roxmltree::Document::parse(&svg).expect("well-formed");
    assert_eq!(doc.descendants().filter(|n| has_class(n, "edge")).count(), 8);
}

#[test]
fn draughts_shows_the_men_and_not_the_unused_squares() {
    // Our draughts marks empty dark squares `open` and the 32 light squares `pale`; black's 12
    // men fill rows 0-2 on the dark squares, white's rows 5-7.
    let game = workspace_game("englishDraughts.rbg");
    let (state, _) = play(&game, &[]);
    let svg = render_svg(&game, &state, None, &RenderOptions::default());
    let doc = roxmltree::Document::parse(&svg).expect("well-formed");
    let pieces = drawn_pieces(&doc);
    assert_eq!(pieces.len(), 24);
    for (vertex, drawn) in &pieces {
        let row: u32 = vertex.rsplit('y').next().unwrap().parse().unwrap();
        let expected = if row <= 2 { "bMan" } else { "wMan" };
        assert_eq!(drawn.piece, expected, "{vertex}");
        assert!(row <= 2 || row >= 5, "{vertex}");
        // Men are plain discs (draughts has no chess pieces besides its kings).
        assert_eq!(drawn.text, "");
    }
}

/// A 2×2 board given as a node list with chess-style names; `b1` is the start.
const NAMED_GRID: &str = "#players = a(1)\n#pieces = e, w\n#variables =\n\
    #board = b1[w]{l: a1, u: b2} a1[e]{r: b1, u: a2} a2[e]{r: b2, d: a1} b2[e]{l: a2, d: b1}\n\
    #rules = ->a [e] ->> {}\n";

#[test]
fn chess_style_names_make_a_grid_of_squares() {
    let game = interpreter(NAMED_GRID, "named");
    let layout = Layout::new(game.info());
    assert_eq!(layout.origin, Origin::Names(NamePattern::Chess));
    assert_eq!(layout.shape, Shape::Squares);
    let at = |name: &str| layout.points[game.info().vertex_id(name).unwrap() as usize];
    // a2 top-left, b2 top-right, a1 bottom-left, b1 bottom-right.
    assert_eq!(at("a2"), [0.0, 0.0]);
    assert_eq!(at("b2"), [1.0, 0.0]);
    assert_eq!(at("a1"), [0.0, 1.0]);
    assert_eq!(at("b1"), [1.0, 1.0]);
    // Checkered as a chess board: a1 and b2 dark (shade 1), a2 and b1 light.
    let shade = |name: &str| layout.shades[game.info().vertex_id(name).unwrap() as usize];
    assert_eq!([shade("a1"), shade("b2"), shade("a2"), shade("b1")], [1, 1, 0, 0]);
}

/// A hexagon of 2, 3 and 2 cells.
const SMALL_HEXAGON: &str = "#players = a(1)\n#pieces = e, w\n#variables =\n\
    #board = hexagon(nw, ne, east, se, sw, west, [w, e] [e, e, e] [e, w])\n\
    #rules = ->a [e] ->> {}\n";

#[test]
fn a_hexagon_board_is_drawn_with_hexagons() {
    let game = interpreter(SMALL_HEXAGON, "hexagonal");
    assert_eq!(Layout::new(game.info()).shape, Shape::Hexagons);
    let (state, _) = play(&game, &[]);
    let svg = render_svg(&game, &state, None, &RenderOptions::default());
    let doc = roxmltree::Document::parse(&svg).expect("well-formed");
    let cells: Vec<roxmltree::Node<'_, '_>> = doc.descendants().filter(|n| has_class(n, "cell")).collect();
    assert_eq!(cells.len(), 7);
    // A hexagon one cell (48 px) wide across its flat sides has corners 48/√3 from its centre.
    let radius = CELL / 3f64.sqrt();
    for cell in &cells {
        assert_eq!(cell.tag_name().name(), "polygon");
        let corners = corners(cell);
        assert_eq!(corners.len(), 6);
        let c = corners.iter().fold([0.0, 0.0], |a, p| [a[0] + p[0] / 6.0, a[1] + p[1] / 6.0]);
        for p in &corners {
            assert!(((p[0] - c[0]).hypot(p[1] - c[1]) - radius).abs() < 0.05, "{corners:?}");
        }
    }
    // Neighbours touch along a side: their centres are one cell apart, and their shades differ.
    let centres = cell_centres(&doc);
    let fills: HashMap<&str, &str> =
        cells.iter().map(|c| (c.attribute("data-vertex").unwrap(), c.attribute("fill").unwrap())).collect();
    let info = game.info();
    assert!(!info.edges.is_empty());
    for &(a, _, b) in &info.edges {
        let (na, nb) = (&info.vertices[a as usize], &info.vertices[b as usize]);
        let (pa, pb) = (centres[na], centres[nb]);
        assert!(((pa[0] - pb[0]).hypot(pa[1] - pb[1]) - CELL).abs() < 0.05, "{na} {nb}");
        assert_ne!(fills[na.as_str()], fills[nb.as_str()], "{na} and {nb} have one shade");
    }
    assert_eq!(drawn_pieces(&doc).len(), 2);
}

/// Two layers of one row of two cells each.
const SMALL_CUBOID: &str = "#players = a(1)\n#pieces = e, w\n#variables =\n\
    #board = cuboid(up, down, left, right, front, back, [[w, e]] [[e, w]])\n\
    #rules = ->a [e] ->> {}\n";

#[test]
fn cuboid_layers_are_drawn_side_by_side() {
    let game = interpreter(SMALL_CUBOID, "cuboid");
    let layout = Layout::new(game.info());
    assert_eq!(layout.shape, Shape::Squares);
    let at = |name: &str| layout.points[game.info().vertex_id(name).unwrap() as usize];
    // Layer 1 starts after layer 0's two columns and one empty column.
    assert_eq!(at("cx0y0z0"), [0.0, 0.0]);
    assert_eq!(at("cx1y0z0"), [1.0, 0.0]);
    assert_eq!(at("cx0y0z1"), [3.0, 0.0]);
    let captions: Vec<&str> = layout.layer_labels.iter().map(|(t, _)| t.as_str()).collect();
    assert_eq!(captions, ["layer 0", "layer 1"]);
    assert_eq!(layout.layer_labels[1].1, [3.0, 0.0]);
    // Not a plain rectangle: no chess files and ranks.
    assert_eq!(layout.files_and_ranks, None);
}

/// Games with different boards for the random-position property.
fn games() -> &'static Vec<Interpreter> {
    static GAMES: OnceLock<Vec<Interpreter>> = OnceLock::new();
    GAMES.get_or_init(|| {
        let mut list: Vec<Interpreter> =
            ["ticTacToe.rbg", "chessGardner.rbg", "hex.rbg", "englishDraughts.rbg", "amazons.rbg"]
                .iter()
                .map(|f| workspace_game(f))
                .collect();
        list.push(interpreter(NAMED_GRID, "named"));
        list.push(interpreter(SMALL_HEXAGON, "hexagonal"));
        list.push(interpreter(WHEEL, "wheel"));
        list.push(interpreter(SMALL_CUBOID, "cuboid"));
        list.push(interpreter(GRID_WITH_COUNTER, "counted"));
        for file in
            ["boards/surakarta.rbg", "boards/pretwa.rbg", "boards/atariGo.rbg", "geometry/walkers3464.rbg"]
        {
            list.push(workspace_game(file));
        }
        for name in ["theMillGame", "yavalath", "arimaa", "chineseCheckers6", "paperSoccer"] {
            if let Some(game) = corpus_game(name) {
                list.push(game);
            }
        }
        list
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn random_positions_render_as_well_formed_svg(
        which in 0usize..64,
        choices in proptest::collection::vec(any::<u32>(), 0..30),
        names in any::<bool>(),
        cell in 8.0f64..80.0,
    ) {
        let games = games();
        let game = &games[which % games.len()];
        let mut sc = game.new_scratch();
        let mut state = game.initial_state();
        let mut previous = None;
        let mut legal = MoveList::new();
        let mut ongoing = game.complete_keeper(&mut state, &mut sc, 100).unwrap();
        for choice in choices {
            if !ongoing {
                break;
            }
            game.legal_moves(&mut state, &mut sc, &mut legal).unwrap();
            if legal.is_empty() {
                break;
            }
            let m = legal.get(choice as usize % legal.len()).to_vec();
            previous = Some(state.clone());
            game.apply_move(&mut state, &m);
            ongoing = game.complete_keeper(&mut state, &mut sc, 100).unwrap();
        }
        let options = RenderOptions { cell_size: cell, show_vertex_names: names, ..RenderOptions::default() };
        let svg = render_svg(game, &state, previous.as_ref(), &options);
        let doc = roxmltree::Document::parse(&svg);
        prop_assert!(doc.is_ok(), "{:?}", doc.err());
        let doc = doc.unwrap();
        prop_assert_eq!(doc.root_element().tag_name().name(), "svg");
        let info = game.info();
        let shown = drawn_pieces(&doc);
        for (vertex, drawn) in &shown {
            let v = info.vertex_id(vertex);
            prop_assert!(v.is_some());
            prop_assert_eq!(&info.pieces[game.piece(&state, v.unwrap()) as usize], &drawn.piece);
        }
        let looks = rbg_render::game_piece_looks(game);
        // Every piece is drawn: on the board, or in the tray when it stands on a helper vertex
        // (surakarta's loops), except the marks of a pitch's lines, drawn as the lines.
        let layout = Layout::new(info);
        let initial = game.initial_state();
        let initial: Vec<u32> = (0..info.vertices.len() as u32).map(|v| game.piece(&initial, v)).collect();
        let pitch = rbg_render::pitch::Pitch::detect(&layout, &initial);
        let mark = |v: u32| pitch.as_ref().is_some_and(|p| p.marks[v as usize]);
        let occupied = |on_board: bool| {
            (0..info.vertices.len() as u32)
                .filter(|&v| layout.is_shown(v as usize) == on_board && !mark(v))
                .filter(|&v| looks[game.piece(&state, v) as usize] != rbg_render::pieces::Look::Hidden)
                .count()
        };
        prop_assert_eq!(shown.len(), occupied(true));
        // The tray: pieces on helper vertices, but for the helpers' own mark (a piece filling at
        // least half of them at the start, as surakarta's `loop`; no coloured piece does that
        // in these games, and coloured pieces are always shown).
        let helpers: Vec<u32> = (0..info.vertices.len() as u32).filter(|&v| !layout.is_shown(v as usize)).collect();
        let mark_of_helpers = |p: u32| 2 * helpers.iter().filter(|&&v| initial[v as usize] == p).count() >= helpers.len();
        let tray = tray_pieces(&doc);
        let expected: Vec<(String, String)> = helpers
            .iter()
            .map(|&v| (v, game.piece(&state, v)))
            .filter(|&(_, p)| looks[p as usize] != rbg_render::pieces::Look::Hidden && !mark_of_helpers(p))
            .map(|(v, p)| (info.vertices[v as usize].clone(), info.pieces[p as usize].clone()))
            .collect();
        prop_assert_eq!(tray, expected);
    }
}

// ---------------------------------------------------------------------------------------------
// Every board of the corpus and of games/ (geometry, SBG translations, boards), drawn at the
// default size and measured in the SVG: no two sites overlap, every site is large enough to
// click, grid-named sites lie on a grid.

/// Every game file the project knows: `(name, RBG text, text the hints are read from)`.
fn every_board_game() -> Vec<(String, String, String)> {
    let mut out = Vec::new();
    let root = rbg_testdata::workspace_root().join("games");
    for dir in [root.clone(), root.join("geometry"), root.join("boards"), root.join("sbg")] {
        let mut files: Vec<PathBuf> =
            std::fs::read_dir(&dir).expect("games dir").flatten().map(|e| e.path()).collect();
        files.sort();
        for path in files {
            let text = std::fs::read_to_string(&path).unwrap_or_default();
            let name = path.display().to_string();
            match path.extension().and_then(|e| e.to_str()) {
                Some("rbg") => out.push((name, text.clone(), text)),
                Some("sbg") => {
                    let game =
                        rbg_sbg::parse(&name, text.as_bytes()).unwrap_or_else(|d| panic!("{name}: {d:?}"));
                    out.push((name, rbg_sbg::to_rbg(&game), text));
                }
                _ => {}
            }
        }
    }
    if let Some(corpus) = rbg_testdata::corpus() {
        for game in rbg_testdata::corpus_games(&corpus) {
            let text = String::from_utf8_lossy(&game.bytes()).into_owned();
            out.push((game.name, text.clone(), text));
        }
    }
    out
}

/// A drawn site: its vertex name and its outline (a convex polygon) or disc, in pixels.
enum Site {
    Polygon(Vec<[f64; 2]>),
    Disc([f64; 2], f64),
}

fn sites(doc: &roxmltree::Document<'_>) -> Vec<(String, Site)> {
    doc.descendants()
        .filter(|n| has_class(n, "cell"))
        .map(|n| {
            let site = match n.tag_name().name() {
                "rect" => {
                    let (x, y, w, h) =
                        (number(&n, "x"), number(&n, "y"), number(&n, "width"), number(&n, "height"));
                    Site::Polygon(vec![[x, y], [x + w, y], [x + w, y + h], [x, y + h]])
                }
                "circle" => Site::Disc([number(&n, "cx"), number(&n, "cy")], number(&n, "r")),
                "polygon" => Site::Polygon(corners(&n)),
                other => panic!("a cell drawn as {other}"),
            };
            (n.attribute("data-vertex").expect("data-vertex").to_string(), site)
        })
        .collect()
}

/// The least width of a convex polygon (over its sides, the farthest corner from the side's
/// line), or a disc's diameter.
fn width(site: &Site) -> f64 {
    match site {
        Site::Disc(_, r) => 2.0 * r,
        Site::Polygon(p) => (0..p.len())
            .map(|k| {
                let (a, b) = (p[k], p[(k + 1) % p.len()]);
                let len = (b[0] - a[0]).hypot(b[1] - a[1]);
                p.iter()
                    .map(|q| ((q[0] - a[0]) * (b[1] - a[1]) - (q[1] - a[1]) * (b[0] - a[0])).abs() / len)
                    .fold(0.0, f64::max)
            })
            .fold(f64::INFINITY, f64::min),
    }
}

fn centre(site: &Site) -> [f64; 2] {
    match site {
        Site::Disc(c, _) => *c,
        Site::Polygon(p) => {
            let n = p.len() as f64;
            p.iter().fold([0.0, 0.0], |a, q| [a[0] + q[0] / n, a[1] + q[1] / n])
        }
    }
}

/// How far the interiors of two sites overlap (a separating axis leaves at most this much),
/// in pixels; discs by the distance of their centres.
fn overlap(a: &Site, b: &Site) -> f64 {
    match (a, b) {
        (Site::Disc(ca, ra), Site::Disc(cb, rb)) => ra + rb - (ca[0] - cb[0]).hypot(ca[1] - cb[1]),
        (Site::Polygon(pa), Site::Polygon(pb)) => {
            let mut least = f64::INFINITY;
            for poly in [pa, pb] {
                for k in 0..poly.len() {
                    let (p, q) = (poly[k], poly[(k + 1) % poly.len()]);
                    let len = (q[0] - p[0]).hypot(q[1] - p[1]);
                    if len < 1e-9 {
                        continue;
                    }
                    let axis = [-(q[1] - p[1]) / len, (q[0] - p[0]) / len];
                    let span = |s: &Vec<[f64; 2]>| {
                        s.iter()
                            .map(|c| c[0] * axis[0] + c[1] * axis[1])
                            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| (lo.min(x), hi.max(x)))
                    };
                    let ((la, ha), (lb, hb)) = (span(pa), span(pb));
                    least = least.min(ha.min(hb) - la.max(lb));
                }
            }
            least
        }
        _ => panic!("one board drawn with discs and polygons"),
    }
}

/// Least-squares `origin + x·u + y·v` through the points of the grid cells; the largest
/// distance of a point from it.
fn grid_residual(cells: &[([i64; 2], [f64; 2])]) -> f64 {
    // Normal equations of [1 x y] · [o; u; v] = p, for each coordinate.
    let mut m = [[0.0f64; 3]; 3];
    let mut rhs = [[0.0f64; 2]; 3];
    for &(c, p) in cells {
        let row = [1.0, c[0] as f64, c[1] as f64];
        for i in 0..3 {
            for j in 0..3 {
                m[i][j] += row[i] * row[j];
            }
            rhs[i][0] += row[i] * p[0];
            rhs[i][1] += row[i] * p[1];
        }
    }
    let solve = |k: usize| -> [f64; 3] {
        // Cramer's rule on the 3 × 3 system.
        let det = |a: [[f64; 3]; 3]| {
            a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1])
                - a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0])
                + a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0])
        };
        let d = det(m);
        let mut out = [0.0; 3];
        for col in 0..3 {
            let mut a = m;
            for r in 0..3 {
                a[r][col] = rhs[r][k];
            }
            out[col] = if d.abs() > 1e-9 { det(a) / d } else { 0.0 };
        }
        out
    };
    let (x, y) = (solve(0), solve(1));
    cells
        .iter()
        .map(|&(c, p)| {
            let fx = x[0] + x[1] * c[0] as f64 + x[2] * c[1] as f64;
            let fy = y[0] + y[1] * c[0] as f64 + y[2] * c[1] as f64;
            (fx - p[0]).hypot(fy - p[1])
        })
        .fold(0.0, f64::max)
}

/// Smallest width of a site and closest centres of point sites, in pixels (the brief: 24).
const CLICKABLE: f64 = 24.0;
/// Overlap tolerated between neighbouring sites (rounding of the coordinates written).
const TOUCH: f64 = 0.05;

#[test]
fn every_board_has_separate_clickable_sites_and_grid_names_on_a_grid() {
    let started = std::time::Instant::now();
    let games = every_board_game();
    let mut checked = 0;
    let mut pitches: Vec<String> = Vec::new();
    let mut on_go_boards = 0;
    for (name, rbg_text, hint_text) in &games {
        let out = rbg_parser::parse(name, rbg_text.as_bytes());
        let Some(ir) = out.game else { panic!("{name} parses: {:?}", out.diagnostics) };
        let game = Interpreter::new(&ir, name, InterpOptions::default()).expect("the game builds");
        let info = game.info();
        let hint = rbg_render::LayoutHint::from_source(hint_text).expect("hints read");
        let layout = Layout::with_hint(info, &hint);
        let svg = rbg_render::render_svg_with_layout(
            &game,
            &layout,
            &game.initial_state(),
            None,
            &RenderOptions::default(),
        );
        let doc = roxmltree::Document::parse(&svg).expect("well-formed");
        let initial = game.initial_state();
        let pieces: Vec<u32> = (0..info.vertices.len() as u32).map(|v| game.piece(&initial, v)).collect();
        if rbg_render::pitch::Pitch::detect(&layout, &pieces).is_some() {
            pitches.push(info.name.clone());
        }
        // Games played on a go board are points on its lines (stones on the crossings).
        if ["go", "gomoku", "connect6"].iter().any(|g| name.split('_').next() == Some(*g)) {
            assert!(
                layout.shape == Shape::Nodes && layout.on_points && !layout.dots,
                "{name}: points on lines"
            );
            on_go_boards += 1;
        }
        let drawn = sites(&doc);
        // Each vertex drawn once, except helpers, which are not drawn.
        let shown = (0..info.vertices.len()).filter(|&v| layout.is_shown(v)).count();
        assert_eq!(drawn.len(), shown, "{name}");
        assert!(shown * 2 >= info.vertices.len(), "{name}: most of the board is shown");
        for (vertex, site) in &drawn {
            assert!(width(site) >= CLICKABLE - 0.01, "{name}: {vertex} is {:.1} px across", width(site));
        }
        let boxes: Vec<[f64; 4]> = drawn
            .iter()
            .map(|(_, s)| match s {
                Site::Disc(c, r) => [c[0] - r, c[1] - r, c[0] + r, c[1] + r],
                Site::Polygon(p) => p
                    .iter()
                    .fold([f64::INFINITY, f64::INFINITY, f64::NEG_INFINITY, f64::NEG_INFINITY], |b, q| {
                        [b[0].min(q[0]), b[1].min(q[1]), b[2].max(q[0]), b[3].max(q[1])]
                    }),
            })
            .collect();
        for i in 0..drawn.len() {
            for j in i + 1..drawn.len() {
                let (a, b) = (boxes[i], boxes[j]);
                if a[2] <= b[0] || b[2] <= a[0] || a[3] <= b[1] || b[3] <= a[1] {
                    continue;
                }
                let (sa, sb) = (&drawn[i].1, &drawn[j].1);
                assert!(overlap(sa, sb) <= TOUCH, "{name}: {} and {} overlap", drawn[i].0, drawn[j].0);
                if let (Site::Disc(..), Site::Disc(..)) = (sa, sb) {
                    let (ca, cb) = (centre(sa), centre(sb));
                    assert!(
                        (ca[0] - cb[0]).hypot(ca[1] - cb[1]) >= CLICKABLE,
                        "{name}: {} {}",
                        drawn[i].0,
                        drawn[j].0
                    );
                }
            }
        }
        // Grid-named sites: on a lattice (equal steps along rows and along columns). A tiling's
        // `x<column>y<row>` count distinct coordinates, not steps (docs/language-extensions.md),
        // and the `hexagon` generator counts cells along its own rows: the names are lattice
        // coordinates only where a generator's point is its coordinates (`rectangle`).
        let threshold = (info.vertices.len() * 3).div_ceil(5);
        let lattice_names = match (layout.origin, &info.positions) {
            (Origin::Generator, Some(p)) => {
                p.iter().all(|q| q.point == [f64::from(q.coords[0]), f64::from(q.coords[1])])
            }
            _ => true,
        };
        if let (true, Some((_, cells))) =
            (lattice_names, rbg_render::names::grid_from_most_names(&info.vertices, &info.edges, threshold))
        {
            let by_name: HashMap<&str, [f64; 2]> =
                drawn.iter().map(|(v, s)| (v.as_str(), centre(s))).collect();
            let placed: Vec<([i64; 2], [f64; 2])> = info
                .vertices
                .iter()
                .zip(&cells)
                .filter_map(|(v, c)| Some(((*c)?, *by_name.get(v.as_str())?)))
                .collect();
            if placed.len() >= 3 {
                let residual = grid_residual(&placed);
                assert!(residual < 0.5, "{name}: grid-named sites are {residual:.2} px off a grid");
            }
        }
        checked += 1;
    }
    assert!(checked >= 30, "{checked} boards");
    // Only paper soccer encodes lines between points in squares.
    let expected: &[&str] = if rbg_testdata::corpus().is_some() { &["paperSoccer"] } else { &[] };
    assert_eq!(pitches, expected);
    // go, go_constsum, go_nopass, gomoku_freeStyle, gomoku_standard (15, 11 and 13 lines),
    // connect6, connect6_split.
    let go_boards = if rbg_testdata::corpus().is_some() { 9 } else { 0 };
    assert_eq!(on_go_boards, go_boards);
    eprintln!("{checked} boards checked in {:.2} s", started.elapsed().as_secs_f64());
}

/// Pieces are readable on large and small boards at the default size: discs at least 24 px
/// across and inside their cells, labels and glyphs at least 11 px high.
#[test]
fn pieces_are_readable_on_a_19x19_go_board_and_a_4x4_reversi_board() {
    for name in ["go", "reversi_4x4"] {
        let Some(game) = corpus_game(name) else { return };
        let mut state = game.initial_state();
        let mut sc = game.new_scratch();
        let mut legal = MoveList::new();
        game.complete_keeper(&mut state, &mut sc, 100).unwrap();
        for k in 0..6 {
            game.legal_moves(&mut state, &mut sc, &mut legal).unwrap();
            if legal.is_empty() {
                break;
            }
            let m = legal.get(k % legal.len()).to_vec();
            game.apply_move(&mut state, &m);
            game.complete_keeper(&mut state, &mut sc, 100).unwrap();
        }
        let svg = render_svg(&game, &state, None, &RenderOptions::default());
        let doc = roxmltree::Document::parse(&svg).expect("well-formed");
        let cell_width: HashMap<String, f64> = sites(&doc).into_iter().map(|(v, s)| (v, width(&s))).collect();
        let pieces: Vec<roxmltree::Node<'_, '_>> =
            doc.descendants().filter(|n| n.has_tag_name("g") && has_class(n, "piece")).collect();
        assert!(pieces.len() >= 4, "{name}: {} pieces", pieces.len());
        for g in pieces {
            let room = cell_width[g.attribute("data-vertex").unwrap()];
            for node in g.children().filter(|n| n.is_element()) {
                if has_class(&node, "disc") {
                    let d = 2.0 * number(&node, "r");
                    assert!((CLICKABLE..=room).contains(&d), "{name}: a disc {d} px across in {room}");
                } else if node.has_tag_name("text") {
                    assert!(number(&node, "font-size") >= 11.0, "{name}: {:?}", node.text());
                }
            }
        }
    }
}

/// A game file of `games/` with its layout hints, rendered at the default size.
fn hinted_picture(file: &str) -> (Interpreter, Layout, String) {
    let game = workspace_game(file);
    let text = std::fs::read_to_string(rbg_testdata::workspace_root().join("games").join(file)).unwrap();
    let layout = Layout::with_hint(game.info(), &rbg_render::LayoutHint::from_source(&text).unwrap());
    let (state, _) = play(&game, &[]);
    let svg = rbg_render::render_svg_with_layout(&game, &layout, &state, None, &RenderOptions::default());
    (game, layout, svg)
}

#[test]
fn walkers_on_3464_are_hexagons_squares_and_triangles() {
    // The game's description: 19 hexagons, 42 squares and 24 triangles.
    let (_, layout, svg) = hinted_picture("geometry/walkers3464.rbg");
    assert_eq!(layout.shape, Shape::Tiles);
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let mut by_sides: HashMap<usize, usize> = HashMap::new();
    for cell in doc.descendants().filter(|n| has_class(n, "cell")) {
        *by_sides.entry(corners(&cell).len()).or_default() += 1;
    }
    assert_eq!(by_sides, HashMap::from([(6, 19), (4, 42), (3, 24)]));
}

#[test]
fn games_hex_with_its_hint_is_a_rhombus_of_hexagons() {
    // games/hex.rbg is a 9 × 9 rectangle whose sixth neighbour (`up right`) is in its rules;
    // its `// @layout hex` shears it: the six neighbours of every cell one cell (48 px) apart.
    let (game, layout, svg) = hinted_picture("hex.rbg");
    assert_eq!(layout.shape, Shape::Hexagons);
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let centres = cell_centres(&doc);
    let at = |x: i32, y: i32| centres[&format!("rx{x}y{y}")];
    for (dx, dy) in [(1, 0), (0, 1), (1, -1)] {
        let (a, b) = (at(4, 4), at(4 + dx, 4 + dy));
        assert!(((a[0] - b[0]).hypot(a[1] - b[1]) - CELL).abs() < 0.05, "step ({dx}, {dy})");
    }
    // The other diagonal is not a neighbour: √3 cells apart.
    let (a, b) = (at(4, 4), at(5, 5));
    assert!(((a[0] - b[0]).hypot(a[1] - b[1]) - CELL * 3f64.sqrt()).abs() < 0.05);
    assert_eq!(centres.len(), game.info().vertices.len());
}

#[test]
fn surakarta_pretwa_and_alquerque_are_drawn_with_their_lines() {
    let count = |svg: &str, class: &str, tag: &str| {
        let doc = roxmltree::Document::parse(svg).unwrap();
        doc.descendants().filter(|n| has_class(n, class) && (tag.is_empty() || n.has_tag_name(tag))).count()
    };
    // Surakarta: 36 points (the 24 loop helpers not drawn), 2 × 6 × 5 = 60 grid lines and the
    // 8 loops as arcs.
    let (_, layout, svg) = hinted_picture("boards/surakarta.rbg");
    assert_eq!(layout.hidden.iter().filter(|&&h| h).count(), 24);
    assert_eq!(count(&svg, "cell", ""), 36);
    assert_eq!(count(&svg, "arc", "path"), 8);
    assert_eq!(count(&svg, "edge", "line"), 60);
    // Pretwa: the centre and 3 circles of 6; 18 arcs around the circles, 18 radial lines.
    let (_, layout, svg) = hinted_picture("boards/pretwa.rbg");
    assert_eq!(layout.origin, Origin::Rings);
    assert_eq!(count(&svg, "cell", ""), 19);
    assert_eq!(count(&svg, "arc", "path"), 18);
    assert_eq!(count(&svg, "edge", "line"), 18);
    // Alquerque: 25 points, 40 orthogonal lines and one diagonal through each of the 16 unit
    // squares.
    let (_, layout, svg) = hinted_picture("boards/alquerque.rbg");
    assert!(layout.on_points);
    assert_eq!(count(&svg, "cell", ""), 25);
    assert_eq!(count(&svg, "edge", "line"), 56);
}

#[test]
fn a_points_hint_draws_a_rectangle_as_points_and_lines() {
    let game = workspace_game("ticTacToe.rbg");
    let hint = rbg_render::LayoutHint::from_source("// @layout points\n").unwrap();
    let layout = Layout::with_hint(game.info(), &hint);
    assert_eq!(layout.shape, Shape::Nodes);
    assert!(layout.on_points && layout.dots);
    // 3 × 3 points: 2 × 3 × 2 = 12 lines along rows and columns.
    assert_eq!(layout.links.len(), 12);
    assert_eq!(Layout::new(game.info()).shape, Shape::Squares, "without the hint: squares");
}

/// The centres of the cells (click targets) and the lines of a board of points, in pixels.
fn points_and_lines(doc: &roxmltree::Document<'_>) -> (HashMap<String, [f64; 2]>, Vec<[f64; 4]>) {
    let lines = doc
        .descendants()
        .filter(|n| n.has_tag_name("line") && has_class(n, "edge"))
        .map(|n| [number(&n, "x1"), number(&n, "y1"), number(&n, "x2"), number(&n, "y2")])
        .collect();
    (cell_centres(doc), lines)
}

/// Whether `p` is the crossing of a horizontal and a vertical line (or their end).
fn on_a_crossing(p: [f64; 2], lines: &[[f64; 4]]) -> bool {
    let near = |a: f64, b: f64| (a - b).abs() < 0.02;
    let between = |x: f64, a: f64, b: f64| a.min(b) - 0.02 <= x && x <= a.max(b) + 0.02;
    let across = lines.iter().any(|l| near(l[1], p[1]) && near(l[3], p[1]) && between(p[0], l[0], l[2]));
    let down = lines.iter().any(|l| near(l[0], p[0]) && near(l[2], p[0]) && between(p[1], l[1], l[3]));
    across && down
}

/// The state after the legal moves that place a piece on each of `points` in turn.
fn place_on(game: &Interpreter, points: &[&str]) -> State {
    let mut sc = game.new_scratch();
    let mut state = game.initial_state();
    let mut legal = MoveList::new();
    game.complete_keeper(&mut state, &mut sc, 100).unwrap();
    for point in points {
        let v = game.info().vertex_id(point).unwrap();
        game.legal_moves(&mut state, &mut sc, &mut legal).unwrap();
        let m = legal.iter().find(|m| m.iter().all(|a| a.vertex == v)).expect("a placement there").to_vec();
        game.apply_move(&mut state, &m);
        game.complete_keeper(&mut state, &mut sc, 100).unwrap();
    }
    state
}

#[test]
fn a_go_board_on_tiling_vertices_has_its_stones_on_the_line_crossings() {
    // games/boards/atariGo.rbg: `tiling(square(rectangle(9, 9)), vertices, empty)`, 81 points.
    let game = workspace_game("boards/atariGo.rbg");
    let text =
        std::fs::read_to_string(rbg_testdata::workspace_root().join("games/boards/atariGo.rbg")).unwrap();
    let hint = rbg_render::LayoutHint::from_source(&text).unwrap();
    assert!(hint.on_vertices);
    let layout = Layout::with_hint(game.info(), &hint);
    assert_eq!(layout.shape, Shape::Nodes);
    assert!(layout.on_points && !layout.dots);
    // Black on the centre, white on the top-left corner point.
    let state = place_on(&game, &["x4y4", "x0y0"]);
    let svg = rbg_render::render_svg_with_layout(&game, &layout, &state, None, &RenderOptions::default());
    let doc = roxmltree::Document::parse(&svg).unwrap();
    // No square cells: each of the 81 sites is a transparent disc (a click target).
    let cells: Vec<roxmltree::Node<'_, '_>> = doc.descendants().filter(|n| has_class(n, "cell")).collect();
    assert_eq!(cells.len(), 81);
    assert!(cells.iter().all(|c| c.has_tag_name("circle") && c.attribute("fill-opacity") == Some("0")));
    // The lines of a 9 × 9 go board: 8 steps along each of 9 rows and 9 columns.
    let (centres, lines) = points_and_lines(&doc);
    assert_eq!(lines.len(), 2 * 9 * 8);
    for (vertex, &centre) in &centres {
        assert!(on_a_crossing(centre, &lines), "{vertex} is not on a crossing");
    }
    // Neighbouring points one cell (48 px) apart, rows and columns straight.
    let (a, b, c) = (centres["x4y4"], centres["x5y4"], centres["x4y5"]);
    assert!(close([b[0] - a[0], b[1] - a[1]], [CELL, 0.0]) && close([c[0] - a[0], c[1] - a[1]], [0.0, CELL]));
    // The stones stand on their points.
    let pieces = drawn_pieces(&doc);
    assert_eq!(pieces.len(), 2);
    assert!(close(pieces["x4y4"].centre, a) && pieces["x4y4"].piece == "blackStone");
    assert!(close(pieces["x0y0"].centre, centres["x0y0"]) && pieces["x0y0"].piece == "whiteStone");
    // Star points of a 9-line board: the 3rd lines' crossings and the centre.
    let stars: Vec<[f64; 2]> = doc
        .descendants()
        .filter(|n| has_class(n, "star-point"))
        .map(|n| [number(&n, "cx"), number(&n, "cy")])
        .collect();
    assert_eq!(stars.len(), 5);
    for name in ["x2y2", "x6y2", "x4y4", "x2y6", "x6y6"] {
        assert!(stars.iter().any(|&s| close(s, centres[name])), "no star point on {name}");
    }
    // Without the file's text (no `vertices` seen) the same board is a tiling of squares.
    assert_eq!(Layout::new(game.info()).shape, Shape::Tiles);
    // The game itself: a stone on any of the 81 points first; black closing the last free
    // point of white's corner stone captures it and wins.
    let mut start = place_on(&game, &[]);
    let mut legal = MoveList::new();
    game.legal_moves(&mut start, &mut game.new_scratch(), &mut legal).unwrap();
    assert_eq!(legal.len(), 81);
    let mut captured = place_on(&game, &["x1y0", "x0y0", "x0y1"]);
    assert!(!game.has_legal_move(&mut captured, &mut game.new_scratch()).unwrap());
    assert_eq!((game.score(&captured, 1), game.score(&captured, 2)), (1, 0));
}

#[test]
fn the_corpus_go_boards_are_points_on_lines_with_nine_star_points() {
    for name in ["go", "go_constsum", "go_nopass"] {
        let Some(game) = corpus_game(name) else { return };
        let (state, _) = play(&game, &[]);
        let svg = render_svg(&game, &state, None, &RenderOptions::default());
        let doc = roxmltree::Document::parse(&svg).unwrap();
        let (centres, lines) = points_and_lines(&doc);
        assert_eq!(centres.len(), 361, "{name}");
        assert_eq!(lines.len(), 2 * 19 * 18, "{name}");
        assert!(
            doc.descendants().filter(|n| has_class(n, "cell")).all(|c| c.has_tag_name("circle")),
            "{name}"
        );
        assert!(centres.values().all(|&c| on_a_crossing(c, &lines)), "{name}");
        // Star points on the 4th lines and the middles: d4, j4, p4, ..., p16 (rows from the top).
        let stars: Vec<[f64; 2]> = doc
            .descendants()
            .filter(|n| has_class(n, "star-point"))
            .map(|n| [number(&n, "cx"), number(&n, "cy")])
            .collect();
        assert_eq!(stars.len(), 9, "{name}");
        for x in [3, 9, 15] {
            for y in [3, 9, 15] {
                let at = centres[&format!("rx{x}y{y}")];
                assert!(stars.iter().any(|&s| close(s, at)), "{name}: no star point at ({x}, {y})");
            }
        }
    }
}

/// Gomoku and connect6 are played on go boards: stones on the crossings of the lines, star
/// points where go boards have them (15 lines: the 4th lines' crossings and the centre; 19: as
/// go), known by the file's title also when the file is renamed.
#[test]
fn gomoku_and_connect6_are_points_on_the_lines_of_a_go_board() {
    let cases: [(&str, usize, &[[usize; 2]]); 4] = [
        ("gomoku_freeStyle", 15, &[[3, 3], [11, 3], [7, 7], [3, 11], [11, 11]]),
        ("gomoku_standard", 15, &[[3, 3], [11, 3], [7, 7], [3, 11], [11, 11]]),
        ("gomoku_standard_13x13", 13, &[[3, 3], [9, 3], [6, 6], [3, 9], [9, 9]]),
        ("connect6", 19, &[[3, 3], [9, 3], [15, 3], [3, 9], [9, 9], [15, 9], [3, 15], [9, 15], [15, 15]]),
    ];
    for (name, side, stars_at) in cases {
        let path = rbg_testdata::corpus_dir().join(format!("{name}.rbg"));
        if !rbg_testdata::available(&[&path]) {
            return;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        // Renamed: only the title (`// Gomoku free style 15x15`, `// Connect6`) tells.
        let game = interpreter(&text, "renamed");
        assert_eq!(Layout::new(game.info()).shape, Shape::Squares, "{name}: no name, no title: squares");
        let hint = rbg_render::LayoutHint::from_source(&text).unwrap();
        let layout = Layout::with_hint(game.info(), &hint);
        assert!(layout.shape == Shape::Nodes && layout.on_points && !layout.dots, "{name}");
        // The corpus name alone tells too, and both draw the same board.
        let named = corpus_game(name).unwrap();
        assert_eq!(Layout::new(named.info()), layout, "{name}");
        let at = format!("rx{0}y{0}", side / 2);
        let state = place_on(&named, &[&at]);
        let svg = render_svg(&named, &state, None, &RenderOptions::default());
        let doc = roxmltree::Document::parse(&svg).unwrap();
        let (centres, lines) = points_and_lines(&doc);
        assert_eq!(centres.len(), side * side, "{name}");
        assert_eq!(lines.len(), 2 * side * (side - 1), "{name}: {side} lines each way");
        assert!(
            doc.descendants().filter(|n| has_class(n, "cell")).all(|c| c.has_tag_name("circle")),
            "{name}"
        );
        assert!(centres.values().all(|&c| on_a_crossing(c, &lines)), "{name}");
        let a = centres["rx0y0"];
        let (b, c) = (centres["rx1y0"], centres["rx0y1"]);
        assert!(
            close([b[0] - a[0], b[1] - a[1]], [CELL, 0.0]) && close([c[0] - a[0], c[1] - a[1]], [0.0, CELL])
        );
        let stars: Vec<[f64; 2]> = doc
            .descendants()
            .filter(|n| has_class(n, "star-point"))
            .map(|n| [number(&n, "cx"), number(&n, "cy")])
            .collect();
        assert_eq!(stars.len(), stars_at.len(), "{name}");
        for [x, y] in stars_at {
            assert!(
                stars.iter().any(|&s| close(s, centres[&format!("rx{x}y{y}")])),
                "{name}: no star at {x},{y}"
            );
        }
        // The first stone stands on the centre point.
        let pieces = drawn_pieces(&doc);
        assert_eq!(pieces.len(), 1, "{name}");
        assert!(close(pieces[&at].centre, centres[&at]), "{name}");
    }
}

#[test]
fn paper_soccer_is_a_pitch_with_its_goals_one_step_outside() {
    let Some(game) = corpus_game("paperSoccer") else { return };
    let line_ends = |doc: &roxmltree::Document<'_>, class: &str| -> Vec<[f64; 4]> {
        doc.descendants()
            .filter(|n| has_class(n, "pitch-line") && has_class(n, class))
            .map(|n| [number(&n, "x1"), number(&n, "y1"), number(&n, "x2"), number(&n, "y2")])
            .collect()
    };
    let (state, _) = play(&game, &[]);
    let svg = render_svg(&game, &state, None, &RenderOptions::default());
    let doc = roxmltree::Document::parse(&svg).unwrap();
    // The file: points on every third row and column of a 31 × 37 rectangle; a 10 × 10 pitch
    // (11 × 11 points) and at each end a goal one step deep and two steps wide. Its edges,
    // drawn at the start: 10 + 10 sides, 4 + 4 steps of each goal line beside the goal's
    // mouth, and each goal's back and two sides (2 + 2 + 2): 44 lines.
    let borders = line_ends(&doc, "border");
    assert_eq!(borders.len(), 44);
    assert!(line_ends(&doc, "played").is_empty());
    let centres = cell_centres(&doc);
    let step = centres["rx3y3"][0] - centres["rx0y3"][0];
    assert!(step >= 3.0 * 24.0, "the squares between points are click targets: {step}");
    let xs = borders.iter().flat_map(|l| [l[0], l[2]]);
    let (left, right) = xs.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| (lo.min(x), hi.max(x)));
    let side: Vec<&[f64; 4]> = borders.iter().filter(|l| l[0] == left && l[2] == left).collect();
    assert_eq!(side.len(), 10);
    let ys = side.iter().flat_map(|l| [l[1], l[3]]);
    let (top, bottom) = ys.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), y| (lo.min(y), hi.max(y)));
    assert!((right - left - 10.0 * step).abs() < 0.05 && (bottom - top - 10.0 * step).abs() < 0.05);
    // The goals: centred, one step beyond the goal lines.
    let pieces = drawn_pieces(&doc);
    let goal = |piece: &str| pieces.values().find(|p| p.piece == piece).expect("a goal").centre;
    assert!(close(goal("whiteGoal"), [(left + right) / 2.0, top - step]));
    assert!(close(goal("blackGoal"), [(left + right) / 2.0, bottom + step]));
    // Nothing else is drawn as a piece (the squares of lines are the lines), and the ball is
    // on the centre spot.
    assert_eq!(pieces.len(), 2, "{pieces:?}");
    let ball = doc.descendants().find(|n| has_class(n, "ball")).expect("the ball");
    let disc = ball.children().find(|n| n.has_tag_name("circle")).unwrap();
    let centre_spot = [(left + right) / 2.0, (top + bottom) / 2.0];
    assert!(close([number(&disc, "cx"), number(&disc, "cy")], centre_spot));
    // A first kick draws one line from the centre spot to where the ball lies now.
    let mut sc = game.new_scratch();
    let mut legal = MoveList::new();
    let mut after = state.clone();
    game.legal_moves(&mut after, &mut sc, &mut legal).unwrap();
    game.apply_move(&mut after, legal.get(0));
    game.complete_keeper(&mut after, &mut sc, 100).unwrap();
    let svg = render_svg(&game, &after, Some(&state), &RenderOptions::default());
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let played = line_ends(&doc, "played");
    assert_eq!(played.len(), 1);
    let ball = doc.descendants().find(|n| has_class(n, "ball")).expect("the ball");
    let disc = ball.children().find(|n| n.has_tag_name("circle")).unwrap();
    let now = [number(&disc, "cx"), number(&disc, "cy")];
    let ends = [[played[0][0], played[0][1]], [played[0][2], played[0][3]]];
    assert!(
        ends.iter().any(|&e| close(e, centre_spot)) && ends.iter().any(|&e| close(e, now)),
        "{ends:?} {now:?}"
    );
    assert_eq!(line_ends(&doc, "border").len(), 44);
}

/// A 3 × 3 grid with a counter of three vertices that are not part of the board, one of them
/// holding a piece.
const GRID_WITH_COUNTER: &str = "#players = a(1)\n#pieces = e, w\n#variables =\n\
    #board = a1[w]{r: b1} b1[e]{r: c1} c1[e]{u: c2} a2[e]{r: b2} b2[e]{r: c2} c2[e]{u: c3} \
    a3[e]{r: b3} b3[e]{r: c3} c3[e]{l: b3} counter1[w]{tally: counter2} counter2[e]{tally: counter3} \
    counter3[e]{tally: a1}\n\
    #rules = ->a [e] ->> {}\n";

#[test]
fn pieces_on_helper_vertices_are_shown_in_a_tray() {
    let game = interpreter(GRID_WITH_COUNTER, "counted");
    let layout = Layout::new(game.info());
    let counter = game.info().vertex_id("counter1").unwrap() as usize;
    assert!(!layout.is_shown(counter), "the counter is a helper");
    let (state, _) = play(&game, &[]);
    let svg = render_svg(&game, &state, None, &RenderOptions::default());
    let doc = roxmltree::Document::parse(&svg).unwrap();
    assert_eq!(tray_pieces(&doc), [("counter1".to_string(), "w".to_string())]);
    let on_board: Vec<String> = drawn_pieces(&doc).into_keys().collect();
    assert_eq!(on_board, ["a1"]);
    // The tray lies under the board, inside the picture, with the vertex's name beside it.
    let tray = doc.descendants().find(|n| has_class(n, "tray")).unwrap();
    let texts: Vec<&str> = tray.descendants().filter_map(|n| n.text()).collect();
    assert!(texts.contains(&"counter1"), "{texts:?}");
    let board_bottom = cell_centres(&doc).values().map(|c| c[1]).fold(0.0, f64::max) + CELL / 2.0;
    let height = number(&doc.root_element(), "height");
    for text in tray.descendants().filter(|n| n.has_tag_name("text")) {
        let y = number(&text, "y");
        assert!(y > board_bottom && y < height, "{y} outside ({board_bottom}, {height})");
    }
}

/// A pitch of 3 × 3 points written as paper soccer writes one: points on every third row and
/// column of a 7 × 7 rectangle, each line in the two squares between its points (`ink`: drawn,
/// `blank`: not), the edges drawn.
fn small_pitch(middle_row: &str) -> String {
    let points = |between: &str| format!("[empty, {between}, {between}, empty, {between}, {between}, empty]");
    let lines = "[ink, blank, blank, blank, blank, blank, ink]";
    format!(
        "#players = a(1)\n#pieces = empty, blank, ink\n#variables =\n\
         #board = rectangle(up, down, left, right, {} {lines} {lines} {middle_row} {lines} {lines} {})\n\
         #rules = ->a [empty] ->> {{}}\n",
        points("ink"),
        points("ink")
    )
}

#[test]
fn a_small_pitch_is_recognised_from_its_squares_and_a_mixed_line_is_not() {
    let text = small_pitch("[empty, blank, blank, empty, blank, blank, empty]");
    let game = interpreter(&text, "pitch");
    let (state, _) = play(&game, &[]);
    let layout = Layout::new(game.info());
    let initial: Vec<u32> = (0..49).map(|v| game.piece(&game.initial_state(), v)).collect();
    let pitch = rbg_render::pitch::Pitch::detect(&layout, &initial).expect("a pitch");
    assert_eq!((pitch.step, pitch.points.len()), (3, 9));
    let svg = render_svg(&game, &state, None, &RenderOptions::default());
    let doc = roxmltree::Document::parse(&svg).unwrap();
    // The edges: two steps on each of the four sides; nothing drawn inside; no piece drawn.
    let count = |class: &str| doc.descendants().filter(|n| has_class(n, class)).count();
    assert_eq!(count("border"), 8);
    assert_eq!(count("played"), 0);
    assert_eq!(count("point"), 9);
    assert!(drawn_pieces(&doc).is_empty());
    // A line with one square drawn and one not is no line of this encoding.
    let mixed = interpreter(&small_pitch("[empty, ink, blank, empty, blank, blank, empty]"), "mixed");
    let initial: Vec<u32> = (0..49).map(|v| mixed.piece(&mixed.initial_state(), v)).collect();
    assert!(rbg_render::pitch::Pitch::detect(&Layout::new(mixed.info()), &initial).is_none());
}
