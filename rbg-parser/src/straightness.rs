//! The four straightness figures the reference parser prints (spec section 12.2).
//!
//! Every lowered subexpression gets a tuple (S, B, E, T) of upper bounds on the number of
//! non-switch modifiers in switch-free segments of its words: T for words without a switch, B
//! after the last switch, E before the first switch, S strictly between two switches. A value
//! of -1 means "no such segment" and -2 "unbounded". The four figures differ in how keeper
//! switches, no-ops and patterns count (see `Kind`).

use crate::ir::{ActionKind, Rule, Straightness};

const NONE: i64 = -1;
const UNBOUNDED: i64 = -2;

#[derive(Copy, Clone, PartialEq, Eq)]
enum Kind {
    /// Applicational strong straightness: looks into patterns.
    Applicational,
    Main,
    /// Keeper switches only end segments.
    Move,
    /// As `Move`, and a no-op splits segments like a switch.
    Semimove,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct Bounds {
    s: i64,
    b: i64,
    e: i64,
    t: i64,
}

impl Bounds {
    const fn new(s: i64, b: i64, e: i64, t: i64) -> Self {
        Bounds { s, b, e, t }
    }

    fn all(self) -> i64 {
        max(max(self.s, self.b), max(self.e, self.t))
    }
}

/// -1 is neutral, -2 absorbing.
fn max(a: i64, b: i64) -> i64 {
    if a == UNBOUNDED || b == UNBOUNDED {
        UNBOUNDED
    } else {
        a.max(b)
    }
}

/// -1 if either side is -1, else -2 if either is -2, else the sum.
fn plus(a: i64, b: i64) -> i64 {
    if a == NONE || b == NONE {
        NONE
    } else if a == UNBOUNDED || b == UNBOUNDED {
        UNBOUNDED
    } else {
        a.saturating_add(b)
    }
}

/// The four figures of a game's lowered rules.
pub fn straightness(rules: &Rule) -> Straightness {
    Straightness {
        applicational: bounds(rules, Kind::Applicational).all(),
        main: bounds(rules, Kind::Main).all(),
        moves: bounds(rules, Kind::Move).s,
        semimoves: bounds(rules, Kind::Semimove).s,
    }
}

fn bounds(rule: &Rule, kind: Kind) -> Bounds {
    match rule {
        Rule::Action(action) => action_bounds(&action.kind, kind),
        Rule::Alt(children) => {
            let mut acc = Bounds::new(NONE, NONE, NONE, NONE);
            for child in children {
                let c = bounds(child, kind);
                acc = Bounds::new(max(acc.s, c.s), max(acc.b, c.b), max(acc.e, c.e), max(acc.t, c.t));
            }
            acc
        }
        Rule::Concat(children) => {
            let mut x = Bounds::new(NONE, NONE, NONE, 0);
            for child in children {
                let y = bounds(child, kind);
                x = Bounds::new(
                    max(max(x.s, y.s), plus(x.b, y.e)),
                    max(plus(x.b, y.t), y.b),
                    max(plus(x.t, y.e), x.e),
                    plus(x.t, y.t),
                );
            }
            x
        }
        Rule::Star(body) => {
            let x = bounds(body, kind);
            let repeated = if x.t > 0 || x.t == UNBOUNDED { UNBOUNDED } else { 0 };
            Bounds::new(
                max(plus(plus(x.b, repeated), x.e), x.s),
                plus(x.b, repeated),
                plus(repeated, x.e),
                repeated,
            )
        }
    }
}

fn action_bounds(action: &ActionKind, kind: Kind) -> Bounds {
    let splits_segments = || Bounds::new(NONE, 0, 0, NONE);
    let plain = Bounds::new(NONE, NONE, NONE, 0);
    match action {
        ActionKind::Off(_) | ActionKind::Assign(..) => Bounds::new(NONE, NONE, NONE, 1),
        ActionKind::Shift(_) | ActionKind::On(_) | ActionKind::Compare(..) => plain,
        ActionKind::SwitchPlayer(_) => splits_segments(),
        ActionKind::SwitchKeeper => match kind {
            Kind::Applicational | Kind::Main => splits_segments(),
            Kind::Move | Kind::Semimove => Bounds::new(NONE, NONE, 0, NONE),
        },
        ActionKind::Noop if kind == Kind::Semimove => splits_segments(),
        ActionKind::Noop => plain,
        ActionKind::Pattern { body, .. } if kind == Kind::Applicational => {
            let content = bounds(body, kind);
            Bounds::new(NONE, NONE, max(content.e, content.t), 0)
        }
        ActionKind::Pattern { .. } => plain,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{Action, LabelId, PieceId};

    fn act(kind: ActionKind) -> Rule {
        Rule::Action(Action { kind, index: 0 })
    }
    fn off(p: PieceId) -> Rule {
        act(ActionKind::Off(p))
    }
    fn shift(l: LabelId) -> Rule {
        act(ActionKind::Shift(l))
    }
    fn switch() -> Rule {
        act(ActionKind::SwitchPlayer(0))
    }
    fn keeper() -> Rule {
        act(ActionKind::SwitchKeeper)
    }

    #[test]
    fn value_arithmetic_treats_minus_one_as_neutral_or_dominant() {
        assert_eq!(max(NONE, 3), 3);
        assert_eq!(max(UNBOUNDED, 3), UNBOUNDED);
        assert_eq!(max(NONE, UNBOUNDED), UNBOUNDED);
        assert_eq!(plus(NONE, UNBOUNDED), NONE);
        assert_eq!(plus(2, UNBOUNDED), UNBOUNDED);
        assert_eq!(plus(2, 3), 5);
    }

    #[test]
    fn segments_between_switches() {
        // ->p [a] [b] ->p [c] : S = 2 (between the switches), B = 1, E = 0, T = -1.
        let rule = Rule::Concat(vec![switch(), off(0), off(1), switch(), off(2)]);
        assert_eq!(bounds(&rule, Kind::Main), Bounds::new(2, 1, 0, NONE));
        assert_eq!(straightness(&rule), Straightness { applicational: 2, main: 2, moves: 2, semimoves: 2 });
    }

    #[test]
    fn star_of_a_modifier_is_unbounded_and_of_a_shift_is_not() {
        let star_off = Rule::Star(Box::new(off(0)));
        assert_eq!(bounds(&star_off, Kind::Main), Bounds::new(NONE, NONE, NONE, UNBOUNDED));
        let star_shift = Rule::Star(Box::new(shift(0)));
        assert_eq!(bounds(&star_shift, Kind::Main), Bounds::new(NONE, NONE, NONE, 0));
        // (->p [a])* : B = 1 + 0, E = 0 + 0, S = B + 0 + E = 1.
        let turn = Rule::Star(Box::new(Rule::Concat(vec![switch(), off(0)])));
        assert_eq!(bounds(&turn, Kind::Main), Bounds::new(1, 1, 0, 0));
    }

    #[test]
    fn keeper_switch_begins_no_segment_for_move_figures() {
        // ->> [a] ->> : for MAIN the middle segment has 1 modifier; for MOVE nothing begins
        // at a keeper switch, so there is no complete segment.
        let rule = Rule::Concat(vec![keeper(), off(0), keeper()]);
        assert_eq!(bounds(&rule, Kind::Main).s, 1);
        assert_eq!(bounds(&rule, Kind::Move).s, NONE);
    }

    #[test]
    fn noop_splits_only_semimoves_and_patterns_count_only_for_app() {
        let rule = Rule::Concat(vec![switch(), off(0), act(ActionKind::Noop), off(1), switch()]);
        assert_eq!(bounds(&rule, Kind::Move).s, 2);
        assert_eq!(bounds(&rule, Kind::Semimove).s, 1);
        let pattern =
            act(ActionKind::Pattern { positive: true, body: Box::new(Rule::Concat(vec![off(0), off(1)])) });
        assert_eq!(bounds(&pattern, Kind::Applicational), Bounds::new(NONE, NONE, 2, 0));
        assert_eq!(bounds(&pattern, Kind::Main), Bounds::new(NONE, NONE, NONE, 0));
    }
}
