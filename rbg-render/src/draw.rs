//! Composing the SVG picture of one state from a [`Layout`], the pieces' looks and the state.
//!
//! Drawing order (later on top): background, cells or edges and nodes, files and ranks, the
//! last move's highlight, pieces, the current-vertex outline, vertex names, the tray (pieces
//! standing on helper vertices, which the board does not show), caption, legend.
//!
//! A board that encodes a game of drawn lines ([`crate::pitch`]) is drawn as its pitch.
//! Sizes derive from the cell size; text widths are estimated (0.6 em a character), which is
//! enough to keep the caption and legend inside the picture.

use rbg_core::{Game, GameInfo, Player, KEEPER};

use crate::layout::{Layout, Shape};
use crate::pieces::{piece_looks, Look};
use crate::pitch::Pitch;
use crate::svg::{num, Attr, SvgWriter};
use crate::RenderOptions;

/// Fonts tried in order; the first has the chess symbols on most Linux systems.
const FONTS: &str = "DejaVu Sans, Segoe UI Symbol, Noto Sans Symbols2, Arial Unicode MS, sans-serif";

const LIGHT_SQUARE: &str = "#f0d9b5";
const DARK_SQUARE: &str = "#b58863";
const HEX_SHADES: [&str; 3] = ["#f3e5c8", "#e2c99c", "#d0b07a"];
const NODE_FILL: &str = "#f7f2e6";
/// The board under points and lines.
const BOARD_WOOD: &str = "#e8c987";
const LINE: &str = "#5b5b5b";
const LAST_MOVE: &str = "#f5d742";
const CURRENT: &str = "#1f5fd6";
const TEXT: &str = "#1d1d1d";
/// A pitch's paper, its squares, its edges and the lines drawn in play.
const PAPER: &str = "#fcfcf7";
const PAPER_GRID: &str = "#cfdcec";
const PITCH_EDGE: &str = "#202020";
const INK: &str = "#1d4ed8";

/// Estimated width of one character, in em.
const CHAR_WIDTH: f64 = 0.6;

/// Pixel geometry of the picture.
struct Frame {
    cell: f64,
    /// Pixel of the layout point (0, 0).
    origin: [f64; 2],
    /// Board extent in pixels: left, top, right, bottom (cells included).
    board: [f64; 4],
    pad: f64,
    font: f64,
    /// Radius of the discs of [`Shape::Nodes`], in pixels.
    node_radius: f64,
}

impl Frame {
    fn pixel(&self, p: [f64; 2]) -> [f64; 2] {
        [self.origin[0] + finite(p[0]) * self.cell, self.origin[1] + finite(p[1]) * self.cell]
    }
}

fn finite(x: f64) -> f64 {
    if x.is_finite() {
        x
    } else {
        0.0
    }
}

/// Half the width and height of a cell, in cells.
fn half_extent(shape: Shape) -> [f64; 2] {
    match shape {
        Shape::Hexagons => [0.5, 1.0 / 3f64.sqrt()],
        Shape::Squares | Shape::Nodes | Shape::Tiles => [0.5, 0.5],
    }
}

/// The extent of the drawn board in cells: left, top, right, bottom (cells and arcs included).
fn extent(layout: &Layout) -> [f64; 4] {
    let mut box_ = [f64::INFINITY, f64::INFINITY, f64::NEG_INFINITY, f64::NEG_INFINITY];
    let mut add = |p: [f64; 2]| {
        let p = [finite(p[0]), finite(p[1])];
        box_ = [box_[0].min(p[0]), box_[1].min(p[1]), box_[2].max(p[0]), box_[3].max(p[1])];
    };
    let [hx, hy] = half_extent(layout.shape);
    for v in (0..layout.points.len()).filter(|&v| layout.is_shown(v)) {
        match layout.outlines.get(v) {
            Some(outline) if layout.shape == Shape::Tiles => outline.iter().for_each(|&p| add(p)),
            _ => {
                let [x, y] = layout.points[v];
                add([x - hx, y - hy]);
                add([x + hx, y + hy]);
            }
        }
    }
    for arc in layout.links.iter().filter_map(|l| l.arc) {
        let [x, y] = arc.centre;
        add([x - arc.radius, y - arc.radius]);
        add([x + arc.radius, y + arc.radius]);
    }
    if box_[0].is_finite() {
        box_
    } else {
        [-0.5, -0.5, 0.5, 0.5]
    }
}

fn frame(layout: &Layout, options: &RenderOptions) -> Frame {
    let cell = if options.cell_size.is_finite() { options.cell_size.clamp(8.0, 512.0) } else { 48.0 };
    let [min_x, min_y, max_x, max_y] = extent(layout);
    let pad = (cell * 0.25).max(6.0);
    let coordinates = options.show_coordinates && layout.files_and_ranks.is_some();
    let left = pad + if coordinates { cell * 0.45 } else { 0.0 };
    let top = pad + if layout.layer_labels.is_empty() { 0.0 } else { cell * 0.5 };
    let origin = [left - min_x * cell, top - min_y * cell];
    let right = left + (max_x - min_x) * cell;
    let bottom = top + (max_y - min_y) * cell;
    Frame {
        cell,
        origin,
        board: [left, top, right, bottom],
        pad,
        font: (cell * 0.3).clamp(11.0, 22.0),
        node_radius: node_radius(layout, cell),
    }
}

/// The look of each piece of `game` (see [`crate::pieces`]; the initial position tells which
/// colourless piece is background).
pub fn game_piece_looks<G: Game>(game: &G) -> Vec<Look> {
    let info = game.info();
    piece_looks(&info.pieces, &info.players, &initial_counts(game))
}

/// How many vertices each piece fills in the initial position.
fn initial_counts<G: Game>(game: &G) -> Vec<usize> {
    let mut counts = vec![0usize; game.info().pieces.len()];
    for p in initial_pieces(game) {
        if let Some(c) = counts.get_mut(p as usize) {
            *c += 1;
        }
    }
    counts
}

/// The piece on every vertex in the initial position.
pub(crate) fn initial_pieces<G: Game>(game: &G) -> Vec<u32> {
    let initial = game.initial_state();
    (0..game.info().vertices.len() as u32).map(|v| game.piece(&initial, v)).collect()
}

/// The parts under the board, placed from the top: the tray, the caption and the legend.
struct Below<'a> {
    tray: Vec<Vec<(f64, TrayEntry<'a>)>>,
    tray_top: f64,
    caption: Vec<String>,
    caption_top: f64,
    legend: Vec<Vec<(f64, (&'a Look, &'a str))>>,
    legend_top: f64,
    /// The picture's width and height.
    size: [f64; 2],
}

/// Places the tray, the caption and the legend under the board (`coordinates`: files and ranks
/// are written there first); `shown_pieces` are the pieces the legend explains.
fn below_board<'a>(
    f: &Frame,
    coordinates: bool,
    tray: Vec<TrayEntry<'a>>,
    caption: Vec<String>,
    legend_entries: Vec<(&'a Look, &'a str)>,
) -> Below<'a> {
    let board_width = f.board[2] + f.pad;
    let wrap = board_width.max(320.0);
    let mut y = f.board[3] + if coordinates { f.cell * 0.45 } else { 0.0 } + f.pad;
    let tray = flow(tray, |e| e.1.as_str(), f, wrap);
    let tray_top = y;
    if !tray.is_empty() {
        y += f.font * 1.4 + tray.len() as f64 * f.font * 1.8;
    }
    let caption_top = y;
    y += caption.len() as f64 * f.font * 1.4;
    let legend = flow(legend_entries, |e| e.1, f, wrap);
    let legend_top = y;
    y += legend.len() as f64 * f.font * 1.8;
    let caption_width =
        caption.iter().map(|l| l.chars().count() as f64 * CHAR_WIDTH * f.font).fold(0.0, f64::max);
    let rows_width = if legend.is_empty() && tray.is_empty() { 0.0 } else { wrap };
    let width = board_width.max(caption_width + 2.0 * f.pad).max(rows_width);
    Below { tray, tray_top, caption, caption_top, legend, legend_top, size: [width, y + f.pad * 0.5] }
}

/// The whole picture.
pub(crate) fn picture<G: Game>(
    game: &G,
    layout: &Layout,
    state: &G::State,
    changed: &[u32],
    options: &RenderOptions,
) -> String {
    let info = game.info();
    let initial = initial_pieces(game);
    let pitch = Pitch::detect(layout, &initial);
    let pitch_layout = pitch.as_ref().map(|p| p.layout(layout));
    let layout = pitch_layout.as_ref().unwrap_or(layout);
    let f = frame(layout, options);
    let looks = game_piece_looks(game);
    let pieces: Vec<u32> = (0..info.vertices.len() as u32).map(|v| game.piece(state, v)).collect();
    // The squares of a pitch's lines are drawn as the lines.
    let as_piece: Vec<bool> = (0..pieces.len())
        .map(|v| pitch.as_ref().is_none_or(|p| !p.marks.get(v).copied().unwrap_or(false)))
        .collect();
    // On the board or in the tray.
    let shown_pieces: Vec<u32> =
        pieces.iter().enumerate().filter(|&(v, _)| as_piece[v]).map(|(_, &p)| p).collect();
    let coordinates = options.show_coordinates && layout.files_and_ranks.is_some();
    let below = below_board(
        &f,
        coordinates,
        tray(info, layout, &looks, &initial, &pieces),
        if options.show_caption { caption_lines(game, state) } else { Vec::new() },
        legend(info, &looks, &shown_pieces),
    );

    let mut w = SvgWriter::new();
    open_document(&mut w, below.size, below.caption.first().unwrap_or(&info.name));
    if let Some(pitch) = &pitch {
        pitch_lines(&mut w, pitch, layout, &f, &pieces);
    }
    // A pitch's marks (squares of lines, points off the pitch) are drawn but never clicked: a
    // move is clicked at the points the ball goes to (`Pitch::points_of_path`).
    let passive: Vec<bool> = (0..pieces.len()).map(|v| !as_piece[v]).collect();
    board(&mut w, info, layout, &f, pitch.is_none(), &passive);
    star_points(&mut w, layout, &f);
    if coordinates {
        files_and_ranks(&mut w, layout, &f);
    }
    layer_labels(&mut w, layout, &f);
    if options.highlight {
        last_move(&mut w, info, layout, &f, changed);
    }
    draw_pieces(&mut w, info, layout, &f, &looks, &pieces, &as_piece);
    if let Some(pitch) = &pitch {
        ball(&mut w, pitch, layout, &f, game.current_vertex(state));
    }
    if options.highlight {
        current_vertex(&mut w, info, layout, &f, game.current_vertex(state));
    }
    if options.show_vertex_names {
        vertex_names(&mut w, info, layout, &f);
    }
    draw_tray(&mut w, &below.tray, &f, below.tray_top);
    caption_text(&mut w, &below.caption, &f, below.caption_top);
    draw_legend(&mut w, &below.legend, &f, below.legend_top);
    w.finish()
}

/// The `svg` element of a picture of `[width, height]` with its title and white background.
fn open_document(w: &mut SvgWriter, [width, height]: [f64; 2], title: &str) {
    w.open(
        "svg",
        &[
            ("xmlns", "http://www.w3.org/2000/svg".into()),
            ("width", num(width.ceil())),
            ("height", num(height.ceil())),
            ("viewBox", format!("0 0 {} {}", num(width.ceil()), num(height.ceil()))),
            ("font-family", FONTS.into()),
        ],
    );
    w.text("title", &[], title);
    w.empty(
        "rect",
        &[
            ("class", "background".into()),
            ("width", "100%".into()),
            ("height", "100%".into()),
            ("fill", "#ffffff".into()),
        ],
    );
}

/// The outline of vertex `v`'s cell as an element name and its geometry attributes, grown by
/// `grow` pixels on every side (negative shrinks); `None` for hidden vertices.
fn cell_shape(layout: &Layout, f: &Frame, v: usize, grow: f64) -> Option<(&'static str, Vec<Attr<'static>>)> {
    if !layout.is_shown(v) {
        return None;
    }
    let [cx, cy] = f.pixel(*layout.points.get(v)?);
    let c = f.cell;
    Some(match layout.shape {
        Shape::Squares => {
            let side = c + 2.0 * grow;
            (
                "rect",
                vec![
                    ("x", num(cx - side / 2.0)),
                    ("y", num(cy - side / 2.0)),
                    ("width", num(side)),
                    ("height", num(side)),
                ],
            )
        }
        Shape::Hexagons => {
            // Pointy top: corners every 60° from straight up; the circumradius of a hexagon
            // one cell wide is cell / √3.
            let r = c / 3f64.sqrt() + grow * 2.0 / 3f64.sqrt();
            let corners: Vec<String> = (0..6)
                .map(|k| {
                    let a = (-90.0 + 60.0 * k as f64).to_radians();
                    format!("{},{}", num(cx + r * a.cos()), num(cy + r * a.sin()))
                })
                .collect();
            ("polygon", vec![("points", corners.join(" "))])
        }
        Shape::Tiles => {
            let outline = layout.outlines.get(v)?;
            // Grown about the centre so that the narrowest width changes by 2 × grow.
            let width = crate::tiles::min_width(outline) * c;
            let factor = if width > 1e-9 { ((width + 2.0 * grow) / width).max(0.1) } else { 1.0 };
            let corners: Vec<String> = outline
                .iter()
                .map(|&p| {
                    let [px, py] = f.pixel(p);
                    format!("{},{}", num(cx + (px - cx) * factor), num(cy + (py - cy) * factor))
                })
                .collect();
            ("polygon", vec![("points", corners.join(" "))])
        }
        Shape::Nodes => ("circle", vec![("cx", num(cx)), ("cy", num(cy)), ("r", num(f.node_radius + grow))]),
    })
}

/// The width of the largest piece symbol that fits vertex `v`'s cell, in pixels.
fn piece_room(layout: &Layout, f: &Frame, v: usize) -> f64 {
    match layout.shape {
        Shape::Nodes => f.cell.min(f.node_radius * 2.5),
        Shape::Tiles => layout.outlines.get(v).map_or(f.cell, |o| crate::tiles::min_width(o) * f.cell * 1.1),
        Shape::Squares | Shape::Hexagons => f.cell,
    }
}

/// The radius of a point's disc: 0.3 cells for nodes of a graph, 0.4 on a board of points and
/// lines (where stones fill the points), less where points are closer than one cell.
fn node_radius(layout: &Layout, cell: f64) -> f64 {
    if let Some(radius) = layout.point_radius {
        return cell * radius;
    }
    if !layout.on_points {
        return cell * 0.3;
    }
    let shown: Vec<[f64; 2]> =
        (0..layout.points.len()).filter(|&v| layout.is_shown(v)).map(|v| layout.points[v]).collect();
    cell * 0.4 * crate::layout::closest_pair(&shown).min(1.0)
}

/// The board's cells (click targets) and, where `wooden`, the board under points and lines.
fn board(w: &mut SvgWriter, info: &GameInfo, layout: &Layout, f: &Frame, wooden: bool, passive: &[bool]) {
    w.open("g", &[("class", "board".into())]);
    if layout.on_points && wooden {
        let [l, t, r, b] = f.board;
        w.empty(
            "rect",
            &[
                ("class", "board-fill".into()),
                ("x", num(l)),
                ("y", num(t)),
                ("width", num(r - l)),
                ("height", num(b - t)),
                ("fill", BOARD_WOOD.into()),
                ("rx", num(f.cell * 0.1)),
            ],
        );
    }
    if (layout.shape == Shape::Nodes && wooden) || !layout.links.is_empty() {
        w.open(
            "g",
            &[
                ("class", "edges".into()),
                ("stroke", LINE.into()),
                ("stroke-width", num((f.cell * 0.05).max(1.0))),
            ],
        );
        for link in &layout.links {
            let (Some(&pa), Some(&pb)) =
                (layout.points.get(link.a as usize), layout.points.get(link.b as usize))
            else {
                continue;
            };
            let ([x1, y1], [x2, y2]) = (f.pixel(pa), f.pixel(pb));
            match link.arc {
                None => w.empty(
                    "line",
                    &[
                        ("class", "edge".into()),
                        ("x1", num(x1)),
                        ("y1", num(y1)),
                        ("x2", num(x2)),
                        ("y2", num(y2)),
                    ],
                ),
                Some(arc) => {
                    let r = num(arc.radius * f.cell);
                    let path = format!(
                        "M {} {} A {r} {r} 0 {} {} {} {}",
                        num(x1),
                        num(y1),
                        u8::from(arc.large),
                        u8::from(arc.clockwise),
                        num(x2),
                        num(y2)
                    );
                    w.empty("path", &[("class", "edge arc".into()), ("d", path), ("fill", "none".into())]);
                }
            }
        }
        w.close();
    }
    let stroke = match layout.shape {
        Shape::Squares => "none",
        Shape::Hexagons | Shape::Nodes | Shape::Tiles => LINE,
    };
    for (v, name) in info.vertices.iter().enumerate() {
        let Some((element, mut attrs)) = cell_shape(layout, f, v, 0.0) else { continue };
        let shade = layout.shades.get(v).copied().unwrap_or(0);
        let fill = match layout.shape {
            Shape::Squares if shade == 1 => DARK_SQUARE,
            Shape::Squares => LIGHT_SQUARE,
            Shape::Hexagons | Shape::Tiles => HEX_SHADES[usize::from(shade) % 3],
            Shape::Nodes => NODE_FILL,
        };
        let class = match (layout.shape == Shape::Squares && shade == 1, passive.get(v) == Some(&true)) {
            (_, true) => "cell passive",
            (true, false) => "cell dark",
            (false, false) => "cell",
        };
        if layout.dots {
            let [cx, cy] = f.pixel(layout.points[v]);
            let dot = [
                ("class", "dot".into()),
                ("cx", num(cx)),
                ("cy", num(cy)),
                ("r", num(f.cell * 0.09)),
                ("fill", LINE.into()),
            ];
            w.empty("circle", &dot);
        }
        attrs.extend([
            ("class", class.into()),
            ("id", format!("cell-{v}")),
            ("data-vertex", name.clone()),
            ("fill", fill.into()),
            ("stroke", stroke.into()),
        ]);
        if layout.on_points {
            // A click target over the point, not drawn: the lines and dots show the board.
            attrs.extend([("fill-opacity", "0".into()), ("stroke-opacity", "0".into())]);
        }
        if passive.get(v) == Some(&true) {
            attrs.push(("pointer-events", "none".into()));
        }
        w.empty(element, &attrs);
    }
    w.close();
}

fn files_and_ranks(w: &mut SvgWriter, layout: &Layout, f: &Frame) {
    let Some((width, height)) = layout.files_and_ranks else { return };
    let size = (f.cell * 0.26).max(8.0);
    w.open(
        "g",
        &[
            ("class", "coordinates".into()),
            ("font-size", num(size)),
            ("fill", "#555555".into()),
            ("text-anchor", "middle".into()),
        ],
    );
    for x in 0..width.clamp(0, 26) {
        let [px, _] = f.pixel([f64::from(x), 0.0]);
        let letter = char::from(b'a' + x as u8).to_string();
        w.text("text", &[("x", num(px)), ("y", num(f.board[3] + size * 1.2))], &letter);
    }
    for y in 0..height {
        let [_, py] = f.pixel([0.0, f64::from(y)]);
        let rank = (height - y).to_string();
        w.text(
            "text",
            &[("x", num(f.board[0] - f.cell * 0.22)), ("y", num(py)), ("dy", "0.35em".into())],
            &rank,
        );
    }
    w.close();
}

fn layer_labels(w: &mut SvgWriter, layout: &Layout, f: &Frame) {
    if layout.layer_labels.is_empty() {
        return;
    }
    let size = (f.cell * 0.28).max(9.0);
    w.open("g", &[("class", "layers".into()), ("font-size", num(size)), ("fill", "#555555".into())]);
    for (text, point) in &layout.layer_labels {
        let [px, py] = f.pixel(*point);
        w.text("text", &[("x", num(px - f.cell * 0.5)), ("y", num(py - f.cell * 0.5 - size * 0.4))], text);
    }
    w.close();
}

fn last_move(w: &mut SvgWriter, info: &GameInfo, layout: &Layout, f: &Frame, changed: &[u32]) {
    w.open("g", &[("class", "highlights".into())]);
    for &v in changed {
        let Some((element, mut attrs)) = cell_shape(layout, f, v as usize, 0.0) else { continue };
        attrs.extend([
            ("class", "last-move".into()),
            ("data-vertex", info.vertices.get(v as usize).cloned().unwrap_or_default()),
            ("fill", LAST_MOVE.into()),
            ("fill-opacity", "0.6".into()),
        ]);
        w.empty(element, &attrs);
    }
    w.close();
}

fn current_vertex(w: &mut SvgWriter, info: &GameInfo, layout: &Layout, f: &Frame, v: u32) {
    let width = (f.cell * 0.07).max(2.0);
    let Some((element, mut attrs)) = cell_shape(layout, f, v as usize, -width / 2.0) else { return };
    attrs.extend([
        ("class", "current".into()),
        ("data-vertex", info.vertices.get(v as usize).cloned().unwrap_or_default()),
        ("fill", "none".into()),
        ("stroke", CURRENT.into()),
        ("stroke-width", num(width)),
        ("stroke-dasharray", format!("{} {}", num(width * 2.5), num(width * 1.5))),
    ]);
    w.empty(element, &attrs);
}

fn draw_pieces(
    w: &mut SvgWriter,
    info: &GameInfo,
    layout: &Layout,
    f: &Frame,
    looks: &[Look],
    pieces: &[u32],
    as_piece: &[bool],
) {
    w.open("g", &[("class", "pieces".into()), ("text-anchor", "middle".into())]);
    for (v, &piece) in pieces.iter().enumerate() {
        let Some(&point) = layout.points.get(v) else { continue };
        if !layout.is_shown(v) || !as_piece.get(v).copied().unwrap_or(true) {
            continue;
        }
        let unknown = Look::Disc { fill: "#999999".into(), ink: "#ffffff".into(), label: "?".into() };
        let look = looks.get(piece as usize).unwrap_or(&unknown);
        if *look == Look::Hidden {
            continue;
        }
        let name = info.pieces.get(piece as usize).cloned().unwrap_or_else(|| format!("piece {piece}"));
        w.open(
            "g",
            &[
                ("class", "piece".into()),
                ("data-vertex", info.vertices.get(v).cloned().unwrap_or_default()),
                ("data-piece", name),
            ],
        );
        piece_icon(w, look, f.pixel(point), piece_room(layout, f, v));
        w.close();
    }
    w.close();
}

/// A piece's symbol centred on `centre`, sized for a cell of `cell` pixels.
fn piece_icon(w: &mut SvgWriter, look: &Look, [cx, cy]: [f64; 2], cell: f64) {
    match look {
        Look::Hidden => {}
        Look::Glyph { kind, white } => {
            let at = |fill: &str| -> Vec<Attr<'static>> {
                vec![
                    ("x", num(cx)),
                    ("y", num(cy)),
                    ("dy", "0.35em".into()),
                    ("font-size", num(cell * 0.8)),
                    ("fill", fill.into()),
                ]
            };
            // Text presentation selector: keeps the pawn (U+265F) from becoming an emoji.
            let text = |c: char| format!("{c}\u{FE0E}");
            if *white {
                // The solid (black) symbol in white under the outlined white one fills it in, so
                // white pieces stay white on dark squares.
                let mut under = at("#ffffff");
                under.push(("class", "glyph-fill".into()));
                w.text("text", &under, &text(kind.glyph(false)));
            }
            let mut over = at("#000000");
            over.push(("class", "glyph".into()));
            w.text("text", &over, &text(kind.glyph(*white)));
        }
        Look::Disc { fill, ink, label } => {
            let r = cell * 0.36;
            w.empty(
                "circle",
                &[
                    ("class", "disc".into()),
                    ("cx", num(cx)),
                    ("cy", num(cy)),
                    ("r", num(r)),
                    ("fill", fill.clone()),
                    ("stroke", "#333333".into()),
                    ("stroke-width", num((cell * 0.03).max(1.0))),
                ],
            );
            if label.is_empty() {
                // A plain man or stone.
                return;
            }
            let size = match label.chars().count() {
                0 | 1 => cell * 0.4,
                2 => cell * 0.3,
                _ => cell * 0.22,
            };
            w.text(
                "text",
                &[
                    ("class", "label".into()),
                    ("x", num(cx)),
                    ("y", num(cy)),
                    ("dy", "0.35em".into()),
                    ("font-size", num(size)),
                    ("font-weight", "bold".into()),
                    ("fill", ink.clone()),
                ],
                label,
            );
        }
    }
}

fn vertex_names(w: &mut SvgWriter, info: &GameInfo, layout: &Layout, f: &Frame) {
    let size = (f.cell * 0.17).max(7.0);
    w.open("g", &[("class", "vertex-names".into()), ("font-size", num(size)), ("fill", "#4a4a4a".into())]);
    for (v, name) in info.vertices.iter().enumerate() {
        let Some(&point) = layout.points.get(v) else { continue };
        if !layout.is_shown(v) {
            continue;
        }
        let [cx, cy] = f.pixel(point);
        let (x, y, anchor) = match layout.shape {
            Shape::Squares => (cx - f.cell * 0.46, cy - f.cell * 0.46 + size, "start"),
            Shape::Hexagons | Shape::Tiles => (cx, cy - f.cell * 0.3, "middle"),
            Shape::Nodes => (cx, cy + f.node_radius + size, "middle"),
        };
        w.text("text", &[("x", num(x)), ("y", num(y)), ("text-anchor", anchor.into())], name);
    }
    w.close();
}

fn player_name(info: &GameInfo, player: Player) -> String {
    match info.players.get((player as usize).wrapping_sub(1)) {
        Some(name) => name.clone(),
        None => format!("player {player}"),
    }
}

/// "NAME: PLAYER to move" (or "game over") and the scores.
fn caption_lines<G: Game>(game: &G, state: &G::State) -> Vec<String> {
    let info = game.info();
    let player = game.current_player(state);
    let mut probe = state.clone();
    let mut scratch = game.new_scratch();
    let status = match game.has_legal_move(&mut probe, &mut scratch) {
        Ok(false) => "game over".to_string(),
        Ok(true) if player == KEEPER => "keeper to move".to_string(),
        Ok(true) => format!("{} to move", player_name(info, player)),
        Err(e) => format!("{} to move (its moves cannot be listed: {e})", player_name(info, player)),
    };
    let scores: Vec<String> = (1..=info.num_players() as Player)
        .map(|p| format!("{} {}", player_name(info, p), game.score(state, p)))
        .collect();
    vec![format!("{}: {status}", info.name), format!("scores: {}", scores.join(" · "))]
}

fn caption_text(w: &mut SvgWriter, lines: &[String], f: &Frame, top: f64) {
    if lines.is_empty() {
        return;
    }
    w.open("g", &[("class", "caption".into()), ("font-size", num(f.font)), ("fill", TEXT.into())]);
    for (i, line) in lines.iter().enumerate() {
        w.text("text", &[("x", num(f.pad)), ("y", num(top + (i as f64 + 1.0) * f.font * 1.2))], line);
    }
    w.close();
}

/// The disc pieces on the board, in piece order: their looks and names.
fn legend<'a>(info: &'a GameInfo, looks: &'a [Look], pieces: &[u32]) -> Vec<(&'a Look, &'a str)> {
    let mut on_board = vec![false; looks.len()];
    for &p in pieces {
        if let Some(seen) = on_board.get_mut(p as usize) {
            *seen = true;
        }
    }
    looks
        .iter()
        .zip(&info.pieces)
        .zip(on_board)
        .filter(|((look, _), seen)| *seen && matches!(look, Look::Disc { .. }))
        .map(|((look, name), _)| (look, name.as_str()))
        .collect()
}

/// Entries of a legend or the tray (an icon and a text, `text` of each) placed in rows no wider
/// than `wrap`: (x of the entry, entry) per row.
fn flow<T>(entries: Vec<T>, text: impl Fn(&T) -> &str, f: &Frame, wrap: f64) -> Vec<Vec<(f64, T)>> {
    let mut rows: Vec<Vec<(f64, T)>> = Vec::new();
    let mut x = f.pad;
    for entry in entries {
        let width = f.font * 2.0 + text(&entry).chars().count() as f64 * CHAR_WIDTH * f.font + f.font;
        if rows.is_empty() || (x + width > wrap && x > f.pad) {
            rows.push(Vec::new());
            x = f.pad;
        }
        if let Some(row) = rows.last_mut() {
            row.push((x, entry));
        }
        x += width;
    }
    rows
}

fn draw_legend(w: &mut SvgWriter, rows: &[Vec<(f64, (&Look, &str))>], f: &Frame, top: f64) {
    if rows.is_empty() {
        return;
    }
    w.open("g", &[("class", "legend".into()), ("font-size", num(f.font)), ("fill", TEXT.into())]);
    for (r, row) in rows.iter().enumerate() {
        let cy = top + (r as f64 + 0.5) * f.font * 1.8;
        for &(x, (look, name)) in row {
            let group = [("class", "legend-entry".into()), ("data-piece", name.to_string())];
            labelled_icon(w, &group, look, [x, cy], f, name);
        }
    }
    w.close();
}

/// A piece's icon (a group with `group`'s attributes) with `label` to its right; `at` is the
/// entry's left edge and vertical centre. Entries of the legend and of the tray.
fn labelled_icon(
    w: &mut SvgWriter,
    group: &[(&str, String)],
    look: &Look,
    at: [f64; 2],
    f: &Frame,
    label: &str,
) {
    let icon_cell = f.font * 2.0;
    let [x, cy] = at;
    let mut attrs = group.to_vec();
    attrs.push(("text-anchor", "middle".into()));
    w.open("g", &attrs);
    piece_icon(w, look, [x + icon_cell * 0.5, cy], icon_cell);
    w.close();
    w.text(
        "text",
        &[("x", num(x + icon_cell + f.font * 0.3)), ("y", num(cy)), ("dy", "0.35em".into())],
        label,
    );
}

/// A piece standing on a helper vertex: its look, the vertex's name and the piece's name.
type TrayEntry<'a> = (&'a Look, String, &'a str);

/// The pieces on helper vertices (not drawn on the board), in board order. The rules that
/// hide a board's background piece, applied to the helper vertices alone, leave out the
/// helpers' own marks (surakarta's `loop` on every point of its loops).
fn tray<'a>(
    info: &'a GameInfo,
    layout: &Layout,
    looks: &'a [Look],
    initial: &[u32],
    pieces: &[u32],
) -> Vec<TrayEntry<'a>> {
    let helper = |v: usize| v < layout.points.len() && !layout.is_shown(v);
    let mut counts = vec![0usize; info.pieces.len()];
    for (v, &p) in initial.iter().enumerate() {
        if let (true, Some(c)) = (helper(v), counts.get_mut(p as usize)) {
            *c += 1;
        }
    }
    let helper_looks = piece_looks(&info.pieces, &info.players, &counts);
    pieces
        .iter()
        .enumerate()
        .filter(|&(v, _)| helper(v))
        .filter_map(|(v, &p)| {
            let look = looks.get(p as usize)?;
            let name = info.pieces.get(p as usize)?;
            let shown = *look != Look::Hidden && helper_looks.get(p as usize) != Some(&Look::Hidden);
            let vertex = info.vertices.get(v)?;
            shown.then(|| (look, vertex.clone(), name.as_str()))
        })
        .collect()
}

/// The tray under the board: "off the board:" and each piece on a helper vertex with the
/// vertex's name.
fn draw_tray(w: &mut SvgWriter, rows: &[Vec<(f64, TrayEntry<'_>)>], f: &Frame, top: f64) {
    if rows.is_empty() {
        return;
    }
    w.open("g", &[("class", "tray".into()), ("font-size", num(f.font)), ("fill", TEXT.into())]);
    w.text("text", &[("x", num(f.pad)), ("y", num(top + f.font * 1.1))], "off the board:");
    for (r, row) in rows.iter().enumerate() {
        let cy = top + f.font * 1.4 + (r as f64 + 0.5) * f.font * 1.8;
        for (x, (look, vertex, piece)) in row {
            let group = [
                ("class", "tray-piece".into()),
                ("data-vertex", vertex.clone()),
                ("data-piece", piece.to_string()),
            ];
            labelled_icon(w, &group, look, [*x, cy], f, vertex);
        }
    }
    w.close();
}

/// The star points of a go board, over its lines (the click targets are transparent).
fn star_points(w: &mut SvgWriter, layout: &Layout, f: &Frame) {
    if layout.star_points.is_empty() {
        return;
    }
    w.open("g", &[("class", "star-points".into()), ("fill", LINE.into())]);
    for &p in &layout.star_points {
        let [cx, cy] = f.pixel(p);
        w.empty(
            "circle",
            &[("class", "star-point".into()), ("cx", num(cx)), ("cy", num(cy)), ("r", num(f.cell * 0.1))],
        );
    }
    w.close();
}

/// A pitch on squared paper: the paper, its grid, the lines drawn so far and the points.
fn pitch_lines(w: &mut SvgWriter, pitch: &Pitch, layout: &Layout, f: &Frame, pieces: &[u32]) {
    let at = |v: u32| f.pixel(layout.points[v as usize]);
    let [l, t, r, b] = f.board;
    w.open("g", &[("class", "pitch".into())]);
    w.empty(
        "rect",
        &[
            ("class", "paper".into()),
            ("x", num(l)),
            ("y", num(t)),
            ("width", num(r - l)),
            ("height", num(b - t)),
            ("fill", PAPER.into()),
        ],
    );
    let corners = pitch.points.iter().map(|&v| at(v));
    let [x0, y0, x1, y1] = corners
        .fold([f64::INFINITY, f64::INFINITY, f64::NEG_INFINITY, f64::NEG_INFINITY], |e, [x, y]| {
            [e[0].min(x), e[1].min(y), e[2].max(x), e[3].max(y)]
        });
    let spacing = pitch.point_spacing() * f.cell;
    w.open(
        "g",
        &[("class", "paper-grid".into()), ("stroke", PAPER_GRID.into()), ("stroke-width", "1".into())],
    );
    let line = |w: &mut SvgWriter, [xa, ya]: [f64; 2], [xb, yb]: [f64; 2]| {
        w.empty("line", &[("x1", num(xa)), ("y1", num(ya)), ("x2", num(xb)), ("y2", num(yb))]);
    };
    let steps = |from: f64, to: f64| {
        (0..).map(move |k| from + k as f64 * spacing).take_while(move |&z| z <= to + 0.5)
    };
    if spacing > 0.0 && x1.is_finite() {
        for x in steps(x0, x1) {
            line(w, [x, y0], [x, y1]);
        }
        for y in steps(y0, y1) {
            line(w, [x0, y], [x1, y]);
        }
    }
    w.close();
    let width = (f.cell * 0.06).max(2.0);
    w.open("g", &[("class", "pitch-lines".into()), ("stroke-linecap", "round".into())]);
    for segment in pitch.segments.iter().filter(|s| pitch.is_drawn(s, pieces)) {
        let (class, colour) =
            if segment.border { ("pitch-line border", PITCH_EDGE) } else { ("pitch-line played", INK) };
        let ([xa, ya], [xb, yb]) = (at(segment.a), at(segment.b));
        w.empty(
            "line",
            &[
                ("class", class.into()),
                ("x1", num(xa)),
                ("y1", num(ya)),
                ("x2", num(xb)),
                ("y2", num(yb)),
                ("stroke", colour.into()),
                ("stroke-width", num(width)),
            ],
        );
    }
    w.close();
    w.open("g", &[("class", "pitch-points".into()), ("fill", LINE.into())]);
    for &v in &pitch.points {
        let [cx, cy] = at(v);
        w.empty(
            "circle",
            &[
                ("class", "point".into()),
                ("cx", num(cx)),
                ("cy", num(cy)),
                ("r", num((f.cell * 0.05).max(1.5))),
            ],
        );
    }
    w.close();
    w.close();
}

/// The ball on the current vertex when it is a point of the pitch: a white disc with a black
/// pentagon.
fn ball(w: &mut SvgWriter, pitch: &Pitch, layout: &Layout, f: &Frame, current: u32) {
    if !pitch.points.contains(&current) {
        return;
    }
    let [cx, cy] = f.pixel(layout.points[current as usize]);
    let r = pitch.point_spacing() * f.cell * 0.2;
    w.open("g", &[("class", "ball".into())]);
    w.empty(
        "circle",
        &[
            ("cx", num(cx)),
            ("cy", num(cy)),
            ("r", num(r)),
            ("fill", "#ffffff".into()),
            ("stroke", "#111111".into()),
            ("stroke-width", num((r * 0.15).max(1.0))),
        ],
    );
    let corners: Vec<String> = (0..5)
        .map(|k| {
            let a = (-90.0 + 72.0 * f64::from(k)).to_radians();
            format!("{},{}", num(cx + 0.45 * r * a.cos()), num(cy + 0.45 * r * a.sin()))
        })
        .collect();
    w.empty("polygon", &[("points", corners.join(" ")), ("fill", "#111111".into())]);
    w.close();
}
