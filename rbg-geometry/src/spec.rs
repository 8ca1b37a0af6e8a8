//! A board description as a tree (what a parser builds), evaluated to a [`Graph`].
//!
//! Each node carries a location `L` of the caller's choice (a token, a span), returned with
//! an error so that it can be reported where it was written.

use crate::board::SiteKind;
use crate::shape::MAX_TILES;
use crate::{GeometryError, Graph, Polygon, Shape, Tiling};

#[derive(Clone, Debug, PartialEq)]
pub enum GraphSpec<L> {
    Tiling { tiling: Tiling, shape: Shape, at: L },
    Dual(Box<GraphSpec<L>>, L),
    Clip(Box<GraphSpec<L>>, Polygon, L),
    Merge(Box<GraphSpec<L>>, Box<GraphSpec<L>>, L),
    Shift(Box<GraphSpec<L>>, f64, f64, L),
    Rotate(Box<GraphSpec<L>>, f64, L),
    Scale(Box<GraphSpec<L>>, f64, L),
}

fn at<L: Clone>(location: &L) -> impl Fn(GeometryError) -> (GeometryError, L) + '_ {
    move |error| (error, location.clone())
}

impl<L: Clone> GraphSpec<L> {
    /// The graph. On vertices, every tiling's shape is taken one size smaller, so sizes count
    /// vertices (see [`Shape::one_smaller`]), except under a `dual`, whose vertices are the
    /// cells of the graph inside it.
    pub fn build(&self, kind: SiteKind) -> Result<Graph, (GeometryError, L)> {
        match self {
            GraphSpec::Tiling { tiling, shape, at: l } => {
                let shape = match kind {
                    SiteKind::Cells => shape.clone(),
                    SiteKind::Vertices if has_size_one(shape) => {
                        return Err((GeometryError::TooSmallForVertices, l.clone()))
                    }
                    SiteKind::Vertices => shape.one_smaller(),
                };
                Graph::tiling(*tiling, &shape).map_err(at(l))
            }
            // The dual's vertices are the inner graph's cells: count sizes in cells there.
            GraphSpec::Dual(inner, l) => inner.build(SiteKind::Cells)?.dual().map_err(at(l)),
            GraphSpec::Clip(inner, polygon, l) => inner.build(kind)?.clip(polygon).map_err(at(l)),
            GraphSpec::Merge(a, b, l) => a.build(kind)?.merge(&b.build(kind)?).map_err(at(l)),
            GraphSpec::Shift(inner, dx, dy, l) => inner.build(kind)?.shift(*dx, *dy).map_err(at(l)),
            GraphSpec::Rotate(inner, degrees, l) => inner.build(kind)?.rotate(*degrees).map_err(at(l)),
            GraphSpec::Scale(inner, factor, l) => inner.build(kind)?.scale(*factor).map_err(at(l)),
        }
    }
}

fn has_size_one(shape: &Shape) -> bool {
    matches!(
        shape,
        Shape::Rectangle { width: 1, .. }
            | Shape::Rectangle { height: 1, .. }
            | Shape::Hexagon(1)
            | Shape::Triangle(1)
            | Shape::Diamond(1)
    )
}

/// Builds the board of a description. All tilings of the description together may make at
/// most twice the tiles one may (checked before any is made), so that a long chain of merges
/// cannot take long.
pub fn build_board<L: Clone>(
    spec: &GraphSpec<L>,
    kind: SiteKind,
) -> Result<crate::Board, (GeometryError, L)> {
    let limit = 2 * MAX_TILES;
    let (total, largest) = spec.estimated_tiles();
    // A single tiling that is too large is reported by itself, with its own limit.
    if largest <= MAX_TILES as u128 && total > limit as u128 {
        return Err((GeometryError::TooLarge { count: total, limit }, spec.location().clone()));
    }
    let graph = spec.build(kind)?;
    crate::Board::new(&graph, kind).map_err(|e| (e, spec.location().clone()))
}

impl<L> GraphSpec<L> {
    /// The sum and the largest of the tiling leaves' tile estimates (a leaf whose shape is
    /// invalid counts 0: building it reports the error).
    fn estimated_tiles(&self) -> (u128, u128) {
        match self {
            GraphSpec::Tiling { tiling, shape, .. } => {
                let estimate = shape.estimated_tiles(*tiling).unwrap_or(0);
                (estimate, estimate)
            }
            GraphSpec::Dual(inner, _)
            | GraphSpec::Clip(inner, _, _)
            | GraphSpec::Shift(inner, _, _, _)
            | GraphSpec::Rotate(inner, _, _)
            | GraphSpec::Scale(inner, _, _) => inner.estimated_tiles(),
            GraphSpec::Merge(a, b, _) => {
                let ((sum_a, max_a), (sum_b, max_b)) = (a.estimated_tiles(), b.estimated_tiles());
                (sum_a.saturating_add(sum_b), max_a.max(max_b))
            }
        }
    }

    pub fn location(&self) -> &L {
        match self {
            GraphSpec::Tiling { at, .. } => at,
            GraphSpec::Dual(_, l)
            | GraphSpec::Clip(_, _, l)
            | GraphSpec::Merge(_, _, l)
            | GraphSpec::Shift(_, _, _, l)
            | GraphSpec::Rotate(_, _, l)
            | GraphSpec::Scale(_, _, l) => l,
        }
    }
}
