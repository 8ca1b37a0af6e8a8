//! rbg-render: pictures of positions of any RBG game, as SVG text (and PNG with the `png`
//! feature).
//!
//! A picture shows the board, the pieces, highlights and a caption:
//!
//! * **Board** ([`layout`]): squares (checkered) or hexagons (three shades) at the positions of
//!   boards made by the `rectangle`, `cuboid` (layers side by side) and `hexagon` generators;
//!   for boards given as node lists, a grid guessed from the vertex names ([`names`]: `a1`,
//!   `x3y5`, `r2c7` ...), else a grid implied by edge labels that name directions
//!   ([`directions`]: `up`, `left` ...), else an automatic layout of the edge graph ([`graph`]);
//!   the edges of node-list boards are drawn as lines. Rectangles get files (`a`, `b`, ...) and ranks (`1` at the bottom)
//!   around them.
//! * **Pieces** by name ([`pieces`]): chess names get Unicode chess symbols, other pieces a
//!   coloured disc with a short label, explained in a legend; the empty piece is not drawn.
//! * **Highlights**: the cells whose piece the last move changed (filled yellow) and the
//!   current vertex (a blue outline).
//! * **Caption**: the game's name, the player to move (or "game over") and every player's
//!   score.
//!
//! * **Text** ([`text`]): the same position as lines of short piece labels, for terminals and
//!   Python's `str(state)`, with the same rules for empty cells.
//!
//! The document is written by hand ([`svg`]); elements carry classes and data attributes that
//! tools and tests can read: `cell` (with `id="cell-N"` and `data-vertex`), `piece` (with
//! `data-piece` and `data-vertex`), `last-move`, `current`, `edge`, `legend`, `caption`.
//!
//! ```
//! use rbg_core::{toy::Nim, Game};
//! let game = Nim::new(3);
//! let svg = rbg_render::render_svg(&game, &game.initial_state(), None, &Default::default());
//! assert!(svg.starts_with("<svg"));
//! ```

#![forbid(unsafe_code)]

pub mod directions;
mod draw;
pub mod graph;
pub mod hint;
pub mod labels;
pub mod layout;
pub mod names;
pub mod pieces;
pub mod pitch;
pub mod rings;
mod svg;
pub mod text;
pub mod tiles;

use rbg_core::Game;

pub use draw::game_piece_looks;
pub use hint::LayoutHint;
pub use layout::{Layout, Shape};
pub use svg::escape;
pub use text::TextBoard;

/// What to draw and how large.
#[derive(Clone, Debug, PartialEq)]
pub struct RenderOptions {
    /// Side of a square cell (width of a hexagon, spacing of nodes) in pixels; clamped to 8 to
    /// 512.
    pub cell_size: f64,
    /// Write each vertex's name in its cell.
    pub show_vertex_names: bool,
    /// Highlight the last move's cells and the current vertex.
    pub highlight: bool,
    /// Files and ranks around rectangle boards.
    pub show_coordinates: bool,
    /// The caption (name, player to move, scores) under the board.
    pub show_caption: bool,
}

impl Default for RenderOptions {
    fn default() -> Self {
        RenderOptions {
            cell_size: 48.0,
            show_vertex_names: false,
            highlight: true,
            show_coordinates: true,
            show_caption: true,
        }
    }
}

/// The picture of `state` as an SVG document. `previous` is the state before the last move:
/// the vertices whose piece differs between the two are highlighted as that move's.
pub fn render_svg<G: Game>(
    game: &G,
    state: &G::State,
    previous: Option<&G::State>,
    options: &RenderOptions,
) -> String {
    let layout = Layout::new(game.info());
    render_svg_with_layout(game, &layout, state, previous, options)
}

/// As [`render_svg`] with a layout computed once (the graph layout of a large node-list board
/// takes a moment), e.g. for the pictures of a whole game.
pub fn render_svg_with_layout<G: Game>(
    game: &G,
    layout: &Layout,
    state: &G::State,
    previous: Option<&G::State>,
    options: &RenderOptions,
) -> String {
    let changed = match previous {
        Some(before) if options.highlight => changed_vertices(game, before, state),
        _ => Vec::new(),
    };
    draw::picture(game, layout, state, &changed, options)
}

/// The vertices whose piece differs between two states, in board order.
pub fn changed_vertices<G: Game>(game: &G, before: &G::State, after: &G::State) -> Vec<u32> {
    (0..game.info().vertices.len() as u32)
        .filter(|&v| game.piece(before, v) != game.piece(after, v))
        .collect()
}

/// Why an SVG could not be turned into a PNG.
#[cfg(feature = "png")]
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PngError {
    /// The SVG text is not a document resvg can read.
    Svg(String),
    /// The picture is empty or larger than [`MAX_PNG_SIDE`] pixels on a side.
    Size { width: u32, height: u32 },
    /// The PNG encoder failed.
    Encode(String),
}

#[cfg(feature = "png")]
impl core::fmt::Display for PngError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            PngError::Svg(e) => write!(f, "cannot read the SVG: {e}"),
            PngError::Size { width, height } => write!(
                f,
                "a picture of {width}×{height} pixels cannot be made (1 to {MAX_PNG_SIDE} pixels a side); \
                 try a smaller cell size"
            ),
            PngError::Encode(e) => write!(f, "cannot encode the PNG: {e}"),
        }
    }
}

#[cfg(feature = "png")]
impl std::error::Error for PngError {}

/// The largest width or height of a PNG made by [`render_png`].
#[cfg(feature = "png")]
pub const MAX_PNG_SIDE: u32 = 16384;

/// Rasterises an SVG document (such as [`render_svg`]'s) to PNG bytes with resvg, its text
/// set in the system's fonts (the chess symbols need a font that has them, e.g. DejaVu Sans).
#[cfg(feature = "png")]
pub fn render_png(svg: &str) -> Result<Vec<u8>, PngError> {
    use resvg::{tiny_skia, usvg};
    let mut options = usvg::Options::default();
    options.fontdb_mut().load_system_fonts();
    let tree = usvg::Tree::from_str(svg, &options).map_err(|e| PngError::Svg(e.to_string()))?;
    let size = tree.size().to_int_size();
    let (width, height) = (size.width(), size.height());
    if width > MAX_PNG_SIDE || height > MAX_PNG_SIDE {
        return Err(PngError::Size { width, height });
    }
    let mut pixmap = tiny_skia::Pixmap::new(width, height).ok_or(PngError::Size { width, height })?;
    resvg::render(&tree, tiny_skia::Transform::default(), &mut pixmap.as_mut());
    pixmap.encode_png().map_err(|e| PngError::Encode(e.to_string()))
}
