//! Board geometry in the style of Ludii (Browne et al., "General Board Geometry").
//!
//! A board is built in three steps:
//!
//! 1. a [`Graph`] of vertices, edges and cells (faces) from a [`Tiling`] cut to a [`Shape`],
//!    optionally changed by operators ([`Graph::dual`], [`Graph::clip`], [`Graph::merge`],
//!    [`Graph::shift`], [`Graph::rotate`], [`Graph::scale`]);
//! 2. a choice of playable sites, the cells or the vertices of the graph ([`SiteKind`]);
//! 3. a [`Board`]: the sites in reading order (top to bottom, left to right) with readable
//!    names, 2-D positions, and labelled edges from the geometry: the [`Relation`]s of the
//!    paper's section 4 (orthogonal, diagonal, adjacent, off-diagonal, all) and the sixteen
//!    [`Compass`] directions.
//!
//! Every size is bounded ([`MAX_SITES`], checked before allocating) and every failure is a
//! [`GeometryError`], never a panic.
//!
//! Coordinates: the plane has `y` pointing up; one unit is the distance between neighbouring
//! lattice points of the tiling (for square and hex cells: between neighbouring cell centres).
#![forbid(unsafe_code)]

mod board;
mod compass;
mod error;
mod graph;
mod point;
mod relations;
mod shape;
mod spec;
mod tiling;

pub use board::{Board, Site, SiteKind};
pub use compass::Compass;
pub use error::GeometryError;
pub use graph::Graph;
pub use point::{Point, Polygon, MAX_CORNERS};
pub use relations::{Relation, Relations};
pub use shape::Shape;
pub use spec::{build_board, GraphSpec};
pub use tiling::{Lattice, Tiling};

/// The most sites a board may have. While a graph is built, it may have at most twice as many
/// cells or vertices, and a shape is checked against that before any tile is generated (by an
/// upper bound: its lattice bounding box times the tiles per lattice point). A board of this
/// size takes about half a gigabyte and a few seconds to build with its labels; the lowered
/// text of a quarter of a million sites is already far beyond any real game.
pub const MAX_SITES: usize = 250_000;
