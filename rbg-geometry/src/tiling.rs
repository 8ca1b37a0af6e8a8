//! The tilings: three regular and six semi-regular ones, each a lattice with a motif of
//! regular polygons repeated at every lattice point.
//!
//! Every tiling is scaled so that neighbouring lattice points are one unit apart; the motif's
//! tiles have their centres in the half-open unit cell `[0, 1)²` of lattice coordinates, so
//! each tile of the plane is produced by exactly one lattice point (its *owner*). The shape
//! decides which lattice points are selected, and a tile belongs to the board when every
//! lattice point it is attached to (its *anchors*, see [`anchors`]) is selected: a square
//! between two hexagons of 3.4.6.4 needs both hexagons, so boards end with whole primary tiles.

use crate::point::{Point, EPS};

/// The nine tilings. Semi-regular ones are named by their vertex configuration.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Tiling {
    Square,
    Hex,
    Tri,
    /// 4.8.8, truncated square: octagons and squares.
    T488,
    /// 3.4.6.4, rhombitrihexagonal: hexagons, squares and triangles.
    T3464,
    /// 4.6.12, truncated trihexagonal: dodecagons, hexagons and squares.
    T4612,
    /// 3.3.4.3.4, snub square: squares and triangles.
    T33434,
    /// 3.6.3.6, trihexagonal: hexagons and triangles meeting at corners.
    T3636,
    /// 3.12.12, truncated hexagonal: dodecagons and triangles.
    T31212,
}

/// The lattice of a tiling's repeats.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Lattice {
    /// Basis (1, 0) and (0, 1).
    Square,
    /// Basis (1, 0) and (1/2, √3/2): the centres of a hex board.
    Triangular,
}

/// One tile of a motif: a regular polygon.
struct Prototile {
    /// The centre, relative to the owning lattice point.
    centre: Point,
    sides: usize,
    circumradius: f64,
    /// The direction of the first corner, degrees counter-clockwise from east.
    first_corner: f64,
}

const SQRT3: f64 = 1.732_050_807_568_877_2;

impl Tiling {
    pub const ALL: [Tiling; 9] = [
        Tiling::Square,
        Tiling::Hex,
        Tiling::Tri,
        Tiling::T488,
        Tiling::T3464,
        Tiling::T4612,
        Tiling::T33434,
        Tiling::T3636,
        Tiling::T31212,
    ];

    /// The name used in board descriptions.
    pub fn name(self) -> &'static str {
        match self {
            Tiling::Square => "square",
            Tiling::Hex => "hex",
            Tiling::Tri => "tri",
            Tiling::T488 => "4.8.8",
            Tiling::T3464 => "3.4.6.4",
            Tiling::T4612 => "4.6.12",
            Tiling::T33434 => "3.3.4.3.4",
            Tiling::T3636 => "3.6.3.6",
            Tiling::T31212 => "3.12.12",
        }
    }

    pub fn from_name(name: &str) -> Option<Tiling> {
        Tiling::ALL.into_iter().find(|t| t.name() == name)
    }

    pub fn lattice(self) -> Lattice {
        match self {
            Tiling::Square | Tiling::T488 | Tiling::T33434 => Lattice::Square,
            _ => Lattice::Triangular,
        }
    }

    /// The vertex configuration: the polygons around every vertex, in cyclic order.
    pub fn vertex_configuration(self) -> &'static [usize] {
        match self {
            Tiling::Square => &[4, 4, 4, 4],
            Tiling::Hex => &[6, 6, 6],
            Tiling::Tri => &[3, 3, 3, 3, 3, 3],
            Tiling::T488 => &[4, 8, 8],
            Tiling::T3464 => &[3, 4, 6, 4],
            Tiling::T4612 => &[4, 6, 12],
            Tiling::T33434 => &[3, 3, 4, 3, 4],
            Tiling::T3636 => &[3, 6, 3, 6],
            Tiling::T31212 => &[3, 12, 12],
        }
    }

    /// The number of tiles per lattice point.
    pub fn tiles_per_lattice_point(self) -> usize {
        self.motif().len()
    }

    /// Added to every shape size: the triangles of `tri` hang between lattice points (its
    /// vertices), so a side of `n` triangles spans `n + 1` lattice points.
    pub(crate) fn size_offset(self) -> i64 {
        i64::from(self == Tiling::Tri)
    }

    /// Moves the whole tiling so that square cells have integer corners (a polygon
    /// `(0,0) (8,0) (8,8) (0,8)` holds an 8 x 8 board); other tilings keep a tile centre at 0.
    pub(crate) fn origin(self) -> Point {
        match self {
            Tiling::Square => Point::new(0.5, 0.5),
            _ => Point::new(0.0, 0.0),
        }
    }

    fn motif(self) -> Vec<Prototile> {
        let tile = |x: f64, y: f64, sides: usize, circumradius: f64, first_corner: f64| Prototile {
            centre: Point::new(x, y),
            sides,
            circumradius,
            first_corner,
        };
        // Centres of the two triangles of the lattice's unit cell and of its three edges.
        let (up, down) = ((0.5, SQRT3 / 6.0), (1.0, SQRT3 / 3.0));
        let edges = [(0.5, 0.0, 0.0), (0.25, SQRT3 / 4.0, 60.0), (0.75, SQRT3 / 4.0, 120.0)];
        let dodecagon_radius = |side: f64| side / (2.0 * 15f64.to_radians().sin());
        match self {
            Tiling::Square => vec![tile(0.0, 0.0, 4, 0.5f64.sqrt(), 45.0)],
            Tiling::Hex => vec![tile(0.0, 0.0, 6, 1.0 / SQRT3, 30.0)],
            Tiling::Tri => {
                vec![tile(up.0, up.1, 3, 1.0 / SQRT3, 90.0), tile(down.0, down.1, 3, 1.0 / SQRT3, 270.0)]
            }
            Tiling::T488 => {
                // Octagon centres one unit apart: 2 × apothem = side × (1 + √2) = 1.
                let side = 2f64.sqrt() - 1.0;
                vec![
                    tile(0.0, 0.0, 8, side / (2.0 * 22.5f64.to_radians().sin()), 22.5),
                    tile(0.5, 0.5, 4, side / 2f64.sqrt(), 0.0),
                ]
            }
            Tiling::T3464 => {
                // Hexagon, square, hexagon in a row: side × (√3 + 1) = 1.
                let side = 1.0 / (1.0 + SQRT3);
                let mut motif = vec![tile(0.0, 0.0, 6, side, 30.0)];
                motif.extend(edges.map(|(x, y, dir)| tile(x, y, 4, side / 2f64.sqrt(), dir + 45.0)));
                motif.push(tile(up.0, up.1, 3, side / SQRT3, 90.0));
                motif.push(tile(down.0, down.1, 3, side / SQRT3, 270.0));
                motif
            }
            Tiling::T4612 => {
                // Dodecagon, square, dodecagon in a row: side × (2 + √3 + 1) = 1.
                let side = 1.0 / (3.0 + SQRT3);
                let mut motif = vec![tile(0.0, 0.0, 12, dodecagon_radius(side), 15.0)];
                motif.extend(edges.map(|(x, y, dir)| tile(x, y, 4, side / 2f64.sqrt(), dir + 45.0)));
                motif.push(tile(up.0, up.1, 6, side, 0.0));
                motif.push(tile(down.0, down.1, 6, side, 0.0));
                motif
            }
            Tiling::T33434 => {
                // Squares at the lattice points and the cell centres, turned by ±15 degrees;
                // side² × (2 + √3) = 1. The four triangles fill the gaps.
                let side = 1.0 / (2.0 + SQRT3).sqrt();
                let c = (1.0 - 1.0 / SQRT3) / 4.0;
                let r3 = side / SQRT3;
                vec![
                    tile(0.0, 0.0, 4, side / 2f64.sqrt(), 60.0),
                    tile(0.5, 0.5, 4, side / 2f64.sqrt(), 30.0),
                    tile(c, 0.5 + c, 3, r3, 45.0),
                    tile(0.5 - c, c, 3, r3, 15.0),
                    tile(0.5 + c, 1.0 - c, 3, r3, 75.0),
                    tile(1.0 - c, 0.5 - c, 3, r3, 105.0),
                ]
            }
            Tiling::T3636 => vec![
                // Hexagons meet at corners: side 1/2, a corner towards each neighbour.
                tile(0.0, 0.0, 6, 0.5, 0.0),
                tile(up.0, up.1, 3, 0.5 / SQRT3, 30.0),
                tile(down.0, down.1, 3, 0.5 / SQRT3, 90.0),
            ],
            Tiling::T31212 => {
                // Dodecagons share edges: side × (2 + √3) = 1.
                let side = 2.0 - SQRT3;
                vec![
                    tile(0.0, 0.0, 12, dodecagon_radius(side), 15.0),
                    tile(up.0, up.1, 3, side / SQRT3, 30.0),
                    tile(down.0, down.1, 3, side / SQRT3, 90.0),
                ]
            }
        }
    }

    /// The tiles owned by lattice point `(i, j)` with their anchors: (corners, anchors).
    pub(crate) fn tiles_at(self, i: i64, j: i64) -> impl Iterator<Item = (Vec<Point>, Vec<(i64, i64)>)> {
        let lattice = self.lattice();
        let base = lattice.point(i as f64, j as f64);
        let origin = self.origin();
        self.motif().into_iter().map(move |tile| {
            let centre = base.plus(tile.centre);
            let corners = (0..tile.sides)
                .map(|k| {
                    let degrees = tile.first_corner + 360.0 * k as f64 / tile.sides as f64;
                    origin.plus(centre).plus(Point::polar(tile.circumradius, degrees))
                })
                .collect();
            (corners, anchors(lattice, centre))
        })
    }
}

impl Lattice {
    /// The plane point of lattice coordinates `(a, b)`.
    pub fn point(self, a: f64, b: f64) -> Point {
        match self {
            Lattice::Square => Point::new(a, b),
            Lattice::Triangular => Point::new(a + b / 2.0, b * SQRT3 / 2.0),
        }
    }

    /// The lattice coordinates of a plane point.
    pub fn coordinates(self, p: Point) -> (f64, f64) {
        match self {
            Lattice::Square => (p.x, p.y),
            Lattice::Triangular => {
                let b = p.y * 2.0 / SQRT3;
                (p.x - b / 2.0, b)
            }
        }
    }
}

/// The lattice points a tile centred at `centre` hangs on: the smallest face of the lattice
/// (a point, an edge, a triangle of the triangular lattice or a square of the square one)
/// whose closure holds the centre.
fn anchors(lattice: Lattice, centre: Point) -> Vec<(i64, i64)> {
    let (a, b) = lattice.coordinates(centre);
    let snap = |v: f64| if (v - v.round()).abs() < EPS { v.round() } else { v };
    let (a, b) = (snap(a), snap(b));
    let (i, j) = (a.floor() as i64, b.floor() as i64);
    let whole = |v: f64| v.fract() == 0.0;
    let (fa, fb) = (a - a.floor(), b - b.floor());
    match (whole(a), whole(b)) {
        (true, true) => vec![(i, j)],
        (true, false) => vec![(i, j), (i, j + 1)],
        (false, true) => vec![(i, j), (i + 1, j)],
        (false, false) => match lattice {
            Lattice::Square => vec![(i, j), (i + 1, j), (i, j + 1), (i + 1, j + 1)],
            Lattice::Triangular if (fa + fb - 1.0).abs() < EPS => vec![(i + 1, j), (i, j + 1)],
            Lattice::Triangular if fa + fb < 1.0 => vec![(i, j), (i + 1, j), (i, j + 1)],
            Lattice::Triangular => vec![(i + 1, j), (i, j + 1), (i + 1, j + 1)],
        },
    }
}
