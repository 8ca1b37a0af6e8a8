//! The sixteen compass directions and the binning of neighbours into them.

use crate::point::Point;

/// Compass points clockwise from north, 22.5 degrees apart; `N` is up (`+y`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Compass {
    N,
    NNE,
    NE,
    ENE,
    E,
    ESE,
    SE,
    SSE,
    S,
    SSW,
    SW,
    WSW,
    W,
    WNW,
    NW,
    NNW,
}

impl Compass {
    pub const ALL: [Compass; 16] = [
        Compass::N,
        Compass::NNE,
        Compass::NE,
        Compass::ENE,
        Compass::E,
        Compass::ESE,
        Compass::SE,
        Compass::SSE,
        Compass::S,
        Compass::SSW,
        Compass::SW,
        Compass::WSW,
        Compass::W,
        Compass::WNW,
        Compass::NW,
        Compass::NNW,
    ];

    pub fn name(self) -> &'static str {
        const NAMES: [&str; 16] = [
            "N", "NNE", "NE", "ENE", "E", "ESE", "SE", "SSE", "S", "SSW", "SW", "WSW", "W", "WNW", "NW",
            "NNW",
        ];
        NAMES[self as usize]
    }

    /// The bearing, degrees clockwise from north.
    pub fn bearing(self) -> f64 {
        self as usize as f64 * 22.5
    }

    /// The nearest compass point to the direction of `v` (non-zero) and how far off it is, in
    /// degrees (at most 11.25). A direction exactly between two points goes to the one with
    /// the smaller bearing (a bearing of 11.25 to N, 33.75 to NNE).
    pub fn nearest(v: Point) -> (Compass, f64) {
        let bearing = v.x.atan2(v.y).to_degrees().rem_euclid(360.0);
        let index = ((bearing / 22.5 + 0.5 - 1e-9).floor() as i64).rem_euclid(16) as usize;
        let compass = Compass::ALL[index];
        let off = (bearing - compass.bearing() + 540.0).rem_euclid(360.0) - 180.0;
        (compass, off.abs())
    }
}
