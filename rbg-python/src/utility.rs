//! Whether a game's returns sum to one constant in every terminal state, proved from its rules
//! (conservatively), so that the OpenSpiel adapter can declare a game zero- or constant-sum,
//! which OpenSpiel's alpha-beta and minimax require.
//!
//! Returns are a function of the scores ([`score_return`]). A game ends in a state whose
//! player to move has no move, and every such state is entered by a switch, except an initial
//! state whose keeper cannot move at all (its scores are all 0; the caller checks that case on
//! the game itself). So it suffices that the scores at every switch have returns of one sum.
//!
//! [`returns_sum`] follows the lowered rules expression with the set of score vectors that may
//! hold at each point, starting from all zeros, and collects the vectors at every switch. It
//! takes more paths than the game can (every condition may hold or fail; a pattern changes
//! nothing, as a pattern's changes are undone), which only adds vectors, so a sum shared by all
//! the collected vectors is shared by every real terminal state. It gives up (no proof, the
//! game is then general-sum) when a score is assigned anything but a constant, or the vectors
//! or the work exceed a bound.

use std::collections::BTreeSet;

use rbg_parser::ir::{ActionKind, Arith, Game, Rule};

/// Most score vectors followed at once before giving up.
const MAX_VECTORS: usize = 1024;

/// Most actions visited (counting each visit of a loop's body) before giving up.
const MAX_STEPS: u64 = 1_000_000;

/// Bytes of stack kept free below each level of the rules expression (deep nesting continues
/// on a fresh stack segment).
const RED_ZONE: usize = 64 * 1024;

/// A player's return for `score` of `bound`: the score mapped from `0..=bound` to `-1..=1` (so
/// 100/50/0 of 100 give 1/0/-1), and 0 for a player without a bound.
pub fn score_return(score: i64, bound: i64) -> f64 {
    if bound > 0 {
        2.0 * score as f64 / bound as f64 - 1.0
    } else {
        0.0
    }
}

/// The sum of the players' returns in every terminal state reached by a switch, when the
/// rules prove it to be one number; None otherwise.
pub fn returns_sum(game: &Game) -> Option<f64> {
    let players = game.players.len();
    let mut flow = Flow { players, at_switches: BTreeSet::new(), steps: 0 };
    flow.rule(&game.rules, BTreeSet::from([vec![0; players]]))?;
    let bounds: Vec<i64> = game.players.iter().map(|p| i64::from(p.bound)).collect();
    let sums: Vec<f64> = flow
        .at_switches
        .iter()
        .map(|scores| scores.iter().zip(&bounds).map(|(&s, &b)| score_return(s, b)).sum())
        .collect();
    let first = *sums.first()?;
    sums.iter().all(|&s| same_sum(s, first)).then_some(first)
}

/// Whether two sums of returns are equal up to rounding.
pub fn same_sum(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9
}

/// Score vectors: each player's score, in player order.
type Vectors = BTreeSet<Vec<i64>>;

/// The walk over the rules expression.
struct Flow {
    players: usize,
    /// The vectors that may hold at a switch.
    at_switches: Vectors,
    steps: u64,
}

impl Flow {
    /// The vectors that may hold after `rule` given those before it; None to give up.
    fn rule(&mut self, rule: &Rule, before: Vectors) -> Option<Vectors> {
        rbg_core::stack::with_room(RED_ZONE, || match rule {
            Rule::Concat(parts) => parts.iter().try_fold(before, |vectors, part| self.rule(part, vectors)),
            Rule::Alt(options) => {
                let mut after = Vectors::new();
                for option in options {
                    after.extend(self.rule(option, before.clone())?);
                    bounded(&after)?;
                }
                Some(after)
            }
            Rule::Star(body) => {
                // The least fixed point: the body from every vector seen so far, until no new
                // vector appears (the set only grows, and it is bounded).
                let mut seen = before;
                loop {
                    let count = seen.len();
                    let after = self.rule(body, seen.clone())?;
                    seen.extend(after);
                    bounded(&seen)?;
                    if seen.len() == count {
                        return Some(seen);
                    }
                }
            }
            Rule::Action(action) => self.action(&action.kind, before),
        })
    }

    /// The vectors after one action.
    fn action(&mut self, kind: &ActionKind, before: Vectors) -> Option<Vectors> {
        self.steps += 1;
        if self.steps > MAX_STEPS {
            return None;
        }
        match kind {
            ActionKind::Assign(var, value) if (*var as usize) < self.players => {
                let Arith::Const(score) = value else { return None };
                let var = *var as usize;
                Some(
                    before
                        .into_iter()
                        .map(|mut scores| {
                            scores[var] = *score;
                            scores
                        })
                        .collect(),
                )
            }
            ActionKind::SwitchPlayer(_) | ActionKind::SwitchKeeper => {
                self.at_switches.extend(before.iter().cloned());
                bounded(&self.at_switches)?;
                Some(before)
            }
            _ => Some(before),
        }
    }
}

/// `Some(())` while `vectors` is within [`MAX_VECTORS`].
fn bounded(vectors: &Vectors) -> Option<()> {
    (vectors.len() <= MAX_VECTORS).then_some(())
}
