//! Errors of board construction, as data.

use std::fmt;

/// Why a board could not be built. [`fmt::Display`] gives a message for the user.
#[derive(Clone, Debug, PartialEq)]
pub enum GeometryError {
    /// A tiling name that is not one of [`crate::Tiling::ALL`].
    UnknownTiling(String),
    /// A shape name that is not known.
    UnknownShape(String),
    /// A size argument of 0.
    ZeroSize,
    /// The shape is not defined on the tiling's lattice (e.g. a hexagon on a square lattice).
    ShapeNotOnLattice { shape: &'static str, tiling: &'static str },
    /// More than [`crate::MAX_SITES`] sites, cells or vertices (or an upper bound of them).
    TooLarge { count: u128, limit: usize },
    /// A polygon with fewer than three distinct corners, zero area or non-finite coordinates.
    DegeneratePolygon,
    /// A polygon with more than [`crate::point::MAX_CORNERS`] corners.
    TooManyCorners,
    /// A polygon whose boundary crosses or touches itself.
    SelfIntersectingPolygon,
    /// An operation or shape produced no sites.
    EmptyBoard(&'static str),
    /// A site name given to remove that the board does not have.
    UnknownSite(String),
    /// A board on vertices with a size of 1 (sizes count vertices there; at least 2).
    TooSmallForVertices,
    /// A scale factor that is not positive.
    NonPositiveScale,
    /// A transformation produced coordinates that are not finite.
    NotFinite,
}

impl fmt::Display for GeometryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GeometryError::UnknownTiling(name) => write!(
                f,
                "Unknown tiling '{name}' (known: square, hex, tri, 4.8.8, 3.4.6.4, 4.6.12, 3.3.4.3.4, 3.6.3.6, 3.12.12)"
            ),
            GeometryError::UnknownShape(name) => {
                write!(f, "Unknown shape '{name}' (known: rectangle, hexagon, triangle, diamond, polygon)")
            }
            GeometryError::ZeroSize => f.write_str("A board size must be at least 1"),
            GeometryError::ShapeNotOnLattice { shape, tiling } => {
                write!(f, "The shape '{shape}' is not defined on the tiling '{tiling}'")
            }
            GeometryError::TooLarge { count, limit } => {
                write!(f, "The board is too large: {count} sites or tiles, at most {limit} allowed")
            }
            GeometryError::DegeneratePolygon => {
                f.write_str("A polygon needs at least three distinct corners and a non-zero area")
            }
            GeometryError::TooManyCorners => {
                write!(f, "A polygon may have at most {} corners", crate::point::MAX_CORNERS)
            }
            GeometryError::SelfIntersectingPolygon => f.write_str("The polygon intersects itself"),
            GeometryError::EmptyBoard(what) => write!(f, "The board is empty after '{what}'"),
            GeometryError::UnknownSite(name) => write!(f, "The board has no site named '{name}'"),
            GeometryError::TooSmallForVertices => {
                f.write_str("On vertices a size counts vertices along a side and must be at least 2")
            }
            GeometryError::NonPositiveScale => f.write_str("A scale factor must be positive"),
            GeometryError::NotFinite => f.write_str("The transformation gives coordinates that are not finite"),
        }
    }
}

impl std::error::Error for GeometryError {}
