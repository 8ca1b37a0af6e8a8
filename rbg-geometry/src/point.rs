//! Points in the plane and simple polygons (shape outlines and clip regions).

use crate::GeometryError;

/// Distances below this are treated as zero (coordinates are a few units to a few thousand).
pub(crate) const EPS: f64 = 1e-6;

/// A point (or vector) in the plane, `y` pointing up.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Point {
    pub x: f64,
    pub y: f64,
}

impl Point {
    pub const fn new(x: f64, y: f64) -> Point {
        Point { x, y }
    }

    /// The point at `radius` from the origin in direction `degrees` (counter-clockwise from east).
    pub fn polar(radius: f64, degrees: f64) -> Point {
        let radians = degrees.to_radians();
        Point::new(radius * radians.cos(), radius * radians.sin())
    }

    pub fn plus(self, other: Point) -> Point {
        Point::new(self.x + other.x, self.y + other.y)
    }

    pub fn minus(self, other: Point) -> Point {
        Point::new(self.x - other.x, self.y - other.y)
    }

    pub fn times(self, factor: f64) -> Point {
        Point::new(self.x * factor, self.y * factor)
    }

    pub fn dot(self, other: Point) -> f64 {
        self.x * other.x + self.y * other.y
    }

    pub fn cross(self, other: Point) -> f64 {
        self.x * other.y - self.y * other.x
    }

    pub fn length(self) -> f64 {
        self.x.hypot(self.y)
    }

    pub fn distance(self, other: Point) -> f64 {
        self.minus(other).length()
    }

    pub fn is_finite(self) -> bool {
        self.x.is_finite() && self.y.is_finite()
    }

    /// The angle between two non-zero vectors, in degrees (0 to 180).
    pub fn angle_to(self, other: Point) -> f64 {
        self.cross(other).atan2(self.dot(other)).abs().to_degrees()
    }
}

/// The average of the points (for the convex cells of tilings this is inside the cell and, for
/// regular polygons, their centre).
pub(crate) fn average(points: &[Point]) -> Point {
    let sum = points.iter().fold(Point::new(0.0, 0.0), |sum, p| sum.plus(*p));
    sum.times(1.0 / points.len().max(1) as f64)
}

/// Twice the signed area (positive if the corners run counter-clockwise).
fn doubled_area(corners: &[Point]) -> f64 {
    let n = corners.len();
    (0..n).map(|i| corners[i].cross(corners[(i + 1) % n])).sum()
}

/// The most corners a polygon may have (clipping costs corners × vertices).
pub const MAX_CORNERS: usize = 256;

/// A simple polygon: at least three corners, non-zero area, no self-intersection. Corners are
/// kept counter-clockwise.
#[derive(Clone, Debug, PartialEq)]
pub struct Polygon {
    corners: Vec<Point>,
}

impl Polygon {
    /// Checks the corners (a repeated closing corner is dropped) and orders them
    /// counter-clockwise.
    pub fn new(mut corners: Vec<Point>) -> Result<Polygon, GeometryError> {
        if corners.len() > 1 && corners[0].distance(corners[corners.len() - 1]) < EPS {
            corners.pop();
        }
        if corners.len() > MAX_CORNERS {
            return Err(GeometryError::TooManyCorners);
        }
        if corners.len() < 3 || corners.iter().any(|c| !c.is_finite()) {
            return Err(GeometryError::DegeneratePolygon);
        }
        let area = doubled_area(&corners);
        // A repeated corner or a collinear outline is degenerate; other crossings (a bow tie,
        // whose signed area may even be zero) are self-intersections.
        let all_collinear = (2..corners.len())
            .all(|k| corners[1].minus(corners[0]).cross(corners[k].minus(corners[0])).abs() < EPS);
        if all_collinear {
            return Err(GeometryError::DegeneratePolygon);
        }
        if !is_simple(&corners) {
            return Err(GeometryError::SelfIntersectingPolygon);
        }
        if area.abs() < EPS {
            return Err(GeometryError::DegeneratePolygon);
        }
        if area < 0.0 {
            corners.reverse();
        }
        Ok(Polygon { corners })
    }

    pub fn corners(&self) -> &[Point] {
        &self.corners
    }

    /// Whether `p` is inside the polygon or on its boundary (within [`EPS`]).
    pub fn contains(&self, p: Point) -> bool {
        let n = self.corners.len();
        let mut inside = false;
        for i in 0..n {
            let (a, b) = (self.corners[i], self.corners[(i + 1) % n]);
            if distance_to_segment(p, a, b) < EPS {
                return true;
            }
            if (a.y > p.y) != (b.y > p.y) {
                let x = a.x + (p.y - a.y) / (b.y - a.y) * (b.x - a.x);
                if p.x < x {
                    inside = !inside;
                }
            }
        }
        inside
    }

    /// The smallest and largest corner coordinates.
    pub fn bounds(&self) -> (Point, Point) {
        let mut low = self.corners[0];
        let mut high = self.corners[0];
        for c in &self.corners {
            low = Point::new(low.x.min(c.x), low.y.min(c.y));
            high = Point::new(high.x.max(c.x), high.y.max(c.y));
        }
        (low, high)
    }
}

fn distance_to_segment(p: Point, a: Point, b: Point) -> f64 {
    let ab = b.minus(a);
    let length2 = ab.dot(ab);
    let t = if length2 == 0.0 { 0.0 } else { (p.minus(a).dot(ab) / length2).clamp(0.0, 1.0) };
    p.distance(a.plus(ab.times(t)))
}

/// No two edges meet except consecutive ones at their shared corner, and no corner repeats.
fn is_simple(corners: &[Point]) -> bool {
    let n = corners.len();
    for i in 0..n {
        for j in i + 1..n {
            if corners[i].distance(corners[j]) < EPS {
                return false;
            }
        }
    }
    for i in 0..n {
        for j in i + 1..n {
            let consecutive = j == i + 1 || (i == 0 && j == n - 1);
            if consecutive {
                continue;
            }
            let (a, b) = (corners[i], corners[(i + 1) % n]);
            let (c, d) = (corners[j], corners[(j + 1) % n]);
            if segments_meet(a, b, c, d) {
                return false;
            }
        }
    }
    // A triangle's consecutive edges could still overlap (collinear folding back): the area
    // check excludes flat triangles; for longer polygons a fold-back makes a non-consecutive
    // pair meet.
    true
}

/// Whether closed segments `ab` and `cd` have a point in common.
fn segments_meet(a: Point, b: Point, c: Point, d: Point) -> bool {
    if distance_to_segment(a, c, d) < EPS
        || distance_to_segment(b, c, d) < EPS
        || distance_to_segment(c, a, b) < EPS
        || distance_to_segment(d, a, b) < EPS
    {
        return true;
    }
    let side = |p: Point, q: Point, r: Point| q.minus(p).cross(r.minus(p));
    let (d1, d2) = (side(a, b, c), side(a, b, d));
    let (d3, d4) = (side(c, d, a), side(c, d, b));
    (d1 > 0.0) != (d2 > 0.0) && (d3 > 0.0) != (d4 > 0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn poly(points: &[(f64, f64)]) -> Result<Polygon, GeometryError> {
        Polygon::new(points.iter().map(|&(x, y)| Point::new(x, y)).collect())
    }

    #[test]
    fn a_bow_tie_intersects_itself() {
        assert_eq!(
            poly(&[(0.0, 0.0), (2.0, 2.0), (2.0, 0.0), (0.0, 2.0)]),
            Err(GeometryError::SelfIntersectingPolygon)
        );
    }

    #[test]
    fn collinear_and_short_polygons_are_degenerate() {
        assert_eq!(poly(&[(0.0, 0.0), (1.0, 1.0), (2.0, 2.0)]), Err(GeometryError::DegeneratePolygon));
        assert_eq!(poly(&[(0.0, 0.0), (1.0, 1.0)]), Err(GeometryError::DegeneratePolygon));
    }

    #[test]
    fn containment_includes_the_boundary() {
        // Clockwise input is accepted and turned around.
        let square = poly(&[(0.0, 0.0), (0.0, 2.0), (2.0, 2.0), (2.0, 0.0)]).unwrap();
        assert!(square.contains(Point::new(1.0, 1.0)));
        assert!(square.contains(Point::new(2.0, 1.0)));
        assert!(square.contains(Point::new(0.0, 0.0)));
        assert!(!square.contains(Point::new(2.1, 1.0)));
        assert!(
            square.corners()[0].cross(square.corners()[1]) >= 0.0 || doubled_area(square.corners()) > 0.0
        );
    }
}
