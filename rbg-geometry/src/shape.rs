//! Board outlines: which tiles of a tiling make the board.
//!
//! `rectangle`, `hexagon`, `triangle` and `diamond` select lattice points of the tiling (cell
//! centres for square and hex); a tile is kept when all its anchors are selected (see
//! [`crate::tiling`]). A `polygon` keeps the tiles lying wholly inside it (corners on its
//! boundary count as inside). Sizes, by lattice:
//!
//! | shape | square lattice | triangular lattice (axial `i`, `j`) |
//! |---|---|---|
//! | `rectangle(w, h)` | `0 <= i < w`, `0 <= j < h` | rows `0 <= j < h` of `w` points, every other row shifted |
//! | `hexagon(n)` | not defined | `max(|i|, |j|, |i + j|) <= n - 1` |
//! | `triangle(n)` | `i, j >= 0`, `i + j <= n - 1` | the same |
//! | `diamond(n)` | `|i - (n-1)| + |j - (n-1)| <= n - 1` | `0 <= i, j < n` (a rhombus) |
//!
//! The `tri` tiling adds one to each size (its lattice points are its vertices), so
//! `triangle(n)` has `n²` triangles and `hexagon(n)` has `6n²`.

use std::collections::HashSet;

use crate::point::Polygon;
use crate::tiling::{Lattice, Tiling};
use crate::{GeometryError, MAX_SITES};

/// The most tiles generated for one shape (an upper bound is checked before generating).
pub(crate) const MAX_TILES: usize = 2 * MAX_SITES;

#[derive(Clone, Debug, PartialEq)]
pub enum Shape {
    Rectangle { width: u32, height: u32 },
    Hexagon(u32),
    Triangle(u32),
    Diamond(u32),
    Polygon(Polygon),
}

/// Inclusive ranges of lattice coordinates.
type Range = ((i64, i64), (i64, i64));

impl Shape {
    pub fn name(&self) -> &'static str {
        match self {
            Shape::Rectangle { .. } => "rectangle",
            Shape::Hexagon(_) => "hexagon",
            Shape::Triangle(_) => "triangle",
            Shape::Diamond(_) => "diamond",
            Shape::Polygon(_) => "polygon",
        }
    }

    /// The same shape with every size one smaller: a board on vertices counts its size in
    /// vertices, one more than the cells along the same side (a 19 x 19 go board has 18 x 18
    /// cells). Polygons are unchanged.
    pub fn one_smaller(&self) -> Shape {
        let less = |n: u32| n.saturating_sub(1);
        match self {
            Shape::Rectangle { width, height } => {
                Shape::Rectangle { width: less(*width), height: less(*height) }
            }
            Shape::Hexagon(n) => Shape::Hexagon(less(*n)),
            Shape::Triangle(n) => Shape::Triangle(less(*n)),
            Shape::Diamond(n) => Shape::Diamond(less(*n)),
            Shape::Polygon(p) => Shape::Polygon(p.clone()),
        }
    }

    /// The corner lists of the shape's tiles.
    pub(crate) fn tiles(&self, tiling: Tiling) -> Result<Vec<Vec<crate::Point>>, GeometryError> {
        let range = self.range(tiling)?;
        let ((i0, i1), (j0, j1)) = range;
        let estimate = self.estimated_tiles(tiling)?;
        if estimate > MAX_TILES as u128 {
            return Err(GeometryError::TooLarge { count: estimate, limit: MAX_TILES });
        }
        let mut tiles = Vec::new();
        match self {
            Shape::Polygon(polygon) => {
                for i in i0 - 1..=i1 {
                    for j in j0 - 1..=j1 {
                        let inside = tiling
                            .tiles_at(i, j)
                            .map(|(corners, _)| corners)
                            .filter(|corners| corners.iter().all(|c| polygon.contains(*c)));
                        tiles.extend(inside);
                    }
                }
            }
            _ => {
                let selected = self.selected_points(tiling, range);
                for i in i0 - 1..=i1 {
                    for j in j0 - 1..=j1 {
                        let kept = tiling
                            .tiles_at(i, j)
                            .filter(|(_, anchors)| anchors.iter().all(|a| selected.contains(a)))
                            .map(|(corners, _)| corners);
                        tiles.extend(kept);
                    }
                }
            }
        }
        Ok(tiles)
    }

    /// An upper bound of the tiles the shape makes: the owners looked at (the lattice range
    /// with one extra row and column, whose tiles may hang on selected points) times the
    /// tiles per lattice point.
    pub(crate) fn estimated_tiles(&self, tiling: Tiling) -> Result<u128, GeometryError> {
        let ((i0, i1), (j0, j1)) = self.range(tiling)?;
        let owners = u128::from((i1 - i0 + 2) as u64) * u128::from((j1 - j0 + 2) as u64);
        Ok(owners * tiling.tiles_per_lattice_point() as u128)
    }

    /// Sizes with the tiling's offset, as signed numbers (at least 1).
    fn sizes(&self, tiling: Tiling) -> Result<(i64, i64), GeometryError> {
        let (a, b) = match self {
            Shape::Rectangle { width, height } => (*width, *height),
            Shape::Hexagon(n) | Shape::Triangle(n) | Shape::Diamond(n) => (*n, *n),
            Shape::Polygon(_) => (1, 1),
        };
        if a == 0 || b == 0 {
            return Err(GeometryError::ZeroSize);
        }
        let offset = tiling.size_offset();
        Ok((i64::from(a) + offset, i64::from(b) + offset))
    }

    /// A range of lattice coordinates holding every selected point (and every tile inside a
    /// polygon).
    fn range(&self, tiling: Tiling) -> Result<Range, GeometryError> {
        let (w, h) = self.sizes(tiling)?;
        let lattice = tiling.lattice();
        Ok(match (self, lattice) {
            (Shape::Rectangle { .. }, Lattice::Square) => ((0, w - 1), (0, h - 1)),
            (Shape::Rectangle { .. }, Lattice::Triangular) => ((-(h / 2), w - 1), (0, h - 1)),
            (Shape::Hexagon(_), Lattice::Square) => {
                return Err(GeometryError::ShapeNotOnLattice { shape: "hexagon", tiling: tiling.name() })
            }
            (Shape::Hexagon(_), Lattice::Triangular) => ((-(w - 1), w - 1), (-(w - 1), w - 1)),
            (Shape::Triangle(_), _) => ((0, w - 1), (0, w - 1)),
            (Shape::Diamond(_), Lattice::Square) => ((0, 2 * w - 2), (0, 2 * w - 2)),
            (Shape::Diamond(_), Lattice::Triangular) => ((0, w - 1), (0, w - 1)),
            (Shape::Polygon(polygon), _) => polygon_range(polygon, lattice)?,
        })
    }

    fn selected_points(&self, tiling: Tiling, range: Range) -> HashSet<(i64, i64)> {
        let (w, h) = self.sizes(tiling).unwrap_or((1, 1));
        let lattice = tiling.lattice();
        let ((i0, i1), (j0, j1)) = range;
        let selects = |i: i64, j: i64| match (self, lattice) {
            (Shape::Rectangle { .. }, Lattice::Square) => true,
            (Shape::Rectangle { .. }, Lattice::Triangular) => i + j / 2 >= 0 && i + j / 2 < w && j < h,
            (Shape::Hexagon(_), _) => i.abs().max(j.abs()).max((i + j).abs()) < w,
            (Shape::Triangle(_), _) => i >= 0 && j >= 0 && i + j < w,
            (Shape::Diamond(_), Lattice::Square) => (i - (w - 1)).abs() + (j - (w - 1)).abs() < w,
            (Shape::Diamond(_), Lattice::Triangular) => true,
            (Shape::Polygon(_), _) => false,
        };
        (i0..=i1).flat_map(|i| (j0..=j1).map(move |j| (i, j))).filter(|&(i, j)| selects(i, j)).collect()
    }
}

/// Lattice coordinates covering the polygon's bounding box, with a margin of one.
fn polygon_range(polygon: &Polygon, lattice: Lattice) -> Result<Range, GeometryError> {
    let (low, high) = polygon.bounds();
    let corners = [low, high, crate::Point::new(low.x, high.y), crate::Point::new(high.x, low.y)];
    let coords: Vec<(f64, f64)> = corners.iter().map(|c| lattice.coordinates(*c)).collect();
    let limit = MAX_TILES as f64;
    let bound = |values: Vec<f64>| -> Result<(i64, i64), GeometryError> {
        let min = values.iter().copied().fold(f64::INFINITY, f64::min).floor() - 1.0;
        let max = values.iter().copied().fold(f64::NEG_INFINITY, f64::max).ceil() + 1.0;
        if !(min.abs() < limit && max.abs() < limit) {
            return Err(GeometryError::TooLarge { count: (max - min).abs() as u128, limit: MAX_TILES });
        }
        Ok((min as i64, max as i64))
    };
    Ok((bound(coords.iter().map(|c| c.0).collect())?, bound(coords.iter().map(|c| c.1).collect())?))
}
