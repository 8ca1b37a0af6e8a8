//! Classes, operators and their costs: the NLD evaluation function f of the paper
//! (equations (1) and (2)).
//!
//! A class is a leaper or a rider (hoppers are riders with the [`Operator::Hopping`] operator)
//! with a vector `<x, y>`, `x, y >= 0`; it moves by the vectors `<±x, ±y>` (so `<1, 0>` is
//! horizontal, `<0, 1>` vertical, and the knight is the two classes `<1, 2>` and `<2, 1>`).
//! Operators select proper subsets of a class's moves.
//!
//! # Cost table
//!
//! The paper's Table 1 ("evaluation costs of some operators") is missing from our copy. The
//! costs below are ours, chosen so that the paper's ten published complexities come out
//! exactly (queen 6, short rook 12, lance 4, centaur 14, griffon 78, hippogriff 120, duke 60,
//! moa 36, ferz then wazir 12, buffalo 28; `docs/nld.md` derives each), and the paper's
//! generated example piece (136) as we read it. Every cost is a dyadic fraction, so sums and
//! products of them are exact in `f64`.
//!
//! | operator | text | on a leaper | on a rider |
//! |---|---|---|---|
//! | [`Operator::Forwards`], [`Operator::Backwards`] | forward, backward | 1 | 1 |
//! | [`Operator::Leftwards`], [`Operator::Rightwards`] | to the left, to the right | 1 | 1 |
//! | [`Operator::Outwards`], [`Operator::Inwards`], [`Operator::Sideways`] (relative to the previous part) | outwards, inwards, sideways | 2 | 5.25 |
//! | [`Operator::WithoutCapturing`] (ends on an empty square) | moves / without capturing | 0.5 | 1.5 |
//! | [`Operator::OnlyCapturing`] (ends on an opponent's piece) | captures / only capturing | 0.5 | 1.5 |
//! | [`Operator::Ends`] (any other end condition, own pieces involved) | captures own, onto ... | 5 | 5 |
//! | [`Operator::Maximum`] | a maximum of n times | | 2 |
//! | [`Operator::Minimum`] | a minimum of n times | | 3.75 |
//! | [`Operator::Exactly`] | exactly n times | | 2 |
//! | [`Operator::RidingOver`] (passed squares not only empty) | riding only over own pieces, ... | | 3.5 |
//! | [`Operator::Hopping`] | hops over a piece | | 2 |
//! | [`Operator::Hurdle`] (only own or only opponent's pieces are jumped) | over an own piece, ... | | 1 |
//! | [`Operator::Approach`] (bounded run-up before the jumped piece) | over an adjacent piece, ... | | 1 |
//!
//! Fallbacks: a move the classes cannot describe (more than three parts, or a starred group of
//! several letters) is listed by its letters and scores the product of equation (1) over its
//! steps, as the paper's generic procedure does; an opaque starred group inside it counts
//! [`PATTERN_FACTOR`] times the product over its distinct vectors. A move that does not move
//! (the empty word) scores f(<0, 0>) = 1.

use serde::Serialize;

use crate::moves::OnSet;

/// Leaper or rider (riders include hoppers).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ClassKind {
    Leaper,
    Rider,
}

/// A class: its kind and vector `<x, y>` with `x, y >= 0`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct Class {
    pub kind: ClassKind,
    pub x: u32,
    pub y: u32,
}

impl Class {
    /// The vectors the class moves by: `<±x, ±y>`, without repeats.
    pub fn directions(&self) -> Vec<(i32, i32)> {
        let (x, y) = (signed(self.x), signed(self.y));
        let mut dirs = Vec::with_capacity(4);
        for (sx, sy) in [(1, 1), (-1, 1), (1, -1), (-1, -1)] {
            let d = (sx * x, sy * y);
            if !dirs.contains(&d) {
                dirs.push(d);
            }
        }
        dirs
    }

    /// Equation (1): one plus the larger coordinate plus the distance to the closest
    /// orthogonal or diagonal line (the smaller coordinate, or the coordinates' difference).
    pub fn vector_cost(&self) -> f64 {
        vector_cost(i64::from(self.x), i64::from(self.y))
    }
}

fn signed(v: u32) -> i32 {
    i32::try_from(v).unwrap_or(i32::MAX)
}

/// Equation (1) for any vector.
pub fn vector_cost(x: i64, y: i64) -> f64 {
    let (ax, ay) = (x.unsigned_abs(), y.unsigned_abs());
    let to_orthogonal = ax.min(ay);
    let to_diagonal = ax.abs_diff(ay);
    1.0 + ax.max(ay) as f64 + to_orthogonal.min(to_diagonal) as f64
}

/// How many times an opaque starred group costs the product of its vectors' costs.
pub const PATTERN_FACTOR: f64 = 2.0;

/// An operator restricting a class's moves.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(tag = "operator", rename_all = "snake_case")]
pub enum Operator {
    /// Only the moves towards the opponent (`dy > 0`).
    Forwards,
    Backwards,
    /// Only the moves to the left (`dx < 0`) of the player.
    Leftwards,
    Rightwards,
    /// Only the vectors making an acute angle with the previous part's (a then-part only).
    Outwards,
    /// Only the vectors making an obtuse angle with the previous part's.
    Inwards,
    /// Only the vectors perpendicular to the previous part's.
    Sideways,
    /// The part ends on an empty square.
    WithoutCapturing,
    /// The part ends on an opponent's piece.
    OnlyCapturing,
    /// The part ends on a square of this other set of contents.
    Ends {
        on: Vec<char>,
    },
    /// A rider of at most this many steps.
    Maximum {
        steps: u32,
    },
    /// A rider of at least this many steps (more than one).
    Minimum {
        steps: u32,
    },
    /// A rider of exactly this many steps (more than one).
    Exactly {
        steps: u32,
    },
    /// A rider whose passed squares may hold these contents (not only empty).
    RidingOver {
        on: Vec<char>,
    },
    /// A hopper: it jumps one piece and lands right behind it.
    Hopping,
    /// The jumped piece must be of this kind (`p` or `w`).
    Hurdle {
        on: Vec<char>,
    },
    /// The number of empty squares before the jumped piece is bounded.
    Approach {
        min: u32,
        max: Option<u32>,
    },
}

impl Operator {
    /// The operator's cost f(o) for a class of this kind (see the module's table).
    pub fn cost(&self, kind: ClassKind) -> f64 {
        let rider = kind == ClassKind::Rider;
        match self {
            Operator::Forwards | Operator::Backwards | Operator::Leftwards | Operator::Rightwards => 1.0,
            Operator::Outwards | Operator::Inwards | Operator::Sideways => {
                if rider {
                    5.25
                } else {
                    2.0
                }
            }
            Operator::WithoutCapturing | Operator::OnlyCapturing => {
                if rider {
                    1.5
                } else {
                    0.5
                }
            }
            Operator::Ends { .. } => 5.0,
            Operator::Maximum { .. } | Operator::Exactly { .. } => 2.0,
            Operator::Minimum { .. } => 3.75,
            Operator::RidingOver { .. } => 3.5,
            Operator::Hopping => 2.0,
            Operator::Hurdle { .. } | Operator::Approach { .. } => 1.0,
        }
    }

    /// Whether a direction `d` (after the previous part's `previous`, if any) is among the
    /// selected moves; operators other than directions select every direction.
    pub fn admits(&self, d: (i32, i32), previous: Option<(i32, i32)>) -> bool {
        let dot = |p: (i32, i32)| i64::from(d.0) * i64::from(p.0) + i64::from(d.1) * i64::from(p.1);
        match self {
            Operator::Forwards => d.1 > 0,
            Operator::Backwards => d.1 < 0,
            Operator::Leftwards => d.0 < 0,
            Operator::Rightwards => d.0 > 0,
            Operator::Outwards => previous.is_some_and(|p| dot(p) > 0),
            Operator::Inwards => previous.is_some_and(|p| dot(p) < 0),
            Operator::Sideways => previous.is_some_and(|p| dot(p) == 0),
            _ => true,
        }
    }
}

/// Equation (2): `f(<x, y>, [o]) = f(<x, y>) * (1 + sum of f(o_i))`.
pub fn part_cost(class: Class, operators: &[Operator]) -> f64 {
    let sum: f64 = operators.iter().map(|o| o.cost(class.kind)).sum();
    class.vector_cost() * (1.0 + sum)
}

/// The operators a part's shape implies (steps, passed squares, hop), without the direction
/// operators and the end square's (see [`end_operator`]).
pub fn shape_operators(kind: ClassKind, part: &crate::moves::Part) -> Vec<Operator> {
    let mut ops = Vec::new();
    if part.hurdle.is_some() {
        ops.push(Operator::Hopping);
    }
    if let Some(hurdle) = part.hurdle {
        if hurdle != OnSet::PIECE {
            ops.push(Operator::Hurdle { on: hurdle.letters() });
        }
        if (part.min, part.max) != (0, None) {
            ops.push(Operator::Approach { min: part.min, max: part.max });
        }
    } else if kind == ClassKind::Rider {
        ops.extend(step_operators(part.min, part.max));
    }
    if !part.passes.is_none() && part.passes != OnSet::EMPTY {
        ops.push(Operator::RidingOver { on: part.passes.letters() });
    }
    ops
}

fn step_operators(min: u32, max: Option<u32>) -> Vec<Operator> {
    match (min, max) {
        (_, Some(max)) if max == min => vec![Operator::Exactly { steps: max }],
        (min, None) if min > 1 => vec![Operator::Minimum { steps: min }],
        (min, Some(max)) if min > 1 => {
            vec![Operator::Minimum { steps: min }, Operator::Maximum { steps: max }]
        }
        (_, Some(max)) => vec![Operator::Maximum { steps: max }],
        _ => Vec::new(),
    }
}

/// The operator of the square a part ends on: `last` parts end the move (an empty square or
/// an opponent's piece is the default there); earlier parts are expected to end on an empty
/// square, which is still written ("moves 1 diagonally and then ...").
pub fn end_operator(landing: OnSet, last: bool) -> Option<Operator> {
    match landing {
        OnSet::MOVE_OR_CAPTURE if last => None,
        OnSet::EMPTY => Some(Operator::WithoutCapturing),
        OnSet::OPPONENT if last => Some(Operator::OnlyCapturing),
        other => Some(Operator::Ends { on: other.letters() }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equation_one_by_hand() {
        // 1 + max(|x|, |y|) + min(distance to the orthogonal, distance to the diagonal lines).
        assert_eq!(vector_cost(0, 0), 1.0);
        assert_eq!(vector_cost(1, 0), 2.0);
        assert_eq!(vector_cost(-1, 1), 2.0);
        assert_eq!(vector_cost(2, 0), 3.0);
        assert_eq!(vector_cost(3, 0), 4.0);
        assert_eq!(vector_cost(2, -1), 4.0);
        assert_eq!(vector_cost(3, 1), 5.0);
        assert_eq!(vector_cost(-3, 2), 5.0);
        assert_eq!(vector_cost(5, 2), 8.0);
    }

    #[test]
    fn equation_two_multiplies_the_vector_by_one_plus_the_operators() {
        let rook_line = Class { kind: ClassKind::Rider, x: 1, y: 0 };
        assert_eq!(part_cost(rook_line, &[]), 2.0);
        // 2 * (1 + 2 + 3.75)
        assert_eq!(
            part_cost(rook_line, &[Operator::Maximum { steps: 4 }, Operator::Minimum { steps: 2 }]),
            13.5
        );
        let knight = Class { kind: ClassKind::Leaper, x: 2, y: 1 };
        // 4 * (1 + 1 + 0.5)
        assert_eq!(part_cost(knight, &[Operator::Forwards, Operator::OnlyCapturing]), 10.0);
    }

    #[test]
    fn a_class_moves_by_its_vector_with_every_sign() {
        let dirs = |x, y| Class { kind: ClassKind::Leaper, x, y }.directions().len();
        assert_eq!((dirs(0, 0), dirs(1, 0), dirs(0, 3), dirs(1, 1), dirs(1, 2)), (1, 2, 2, 4, 4));
    }

    #[test]
    fn direction_operators_select_by_sign_and_by_the_previous_vector() {
        assert!(Operator::Forwards.admits((1, 1), None) && !Operator::Forwards.admits((1, 0), None));
        assert!(Operator::Leftwards.admits((-2, 1), None) && !Operator::Leftwards.admits((0, 1), None));
        assert!(Operator::Outwards.admits((1, 0), Some((1, 1))));
        assert!(!Operator::Outwards.admits((-1, 0), Some((1, 1))));
        assert!(Operator::Inwards.admits((-1, 0), Some((1, 1))));
        assert!(Operator::Sideways.admits((0, 1), Some((1, 0))));
        // Relative operators need a previous part.
        assert!(!Operator::Outwards.admits((1, 0), None));
    }
}
