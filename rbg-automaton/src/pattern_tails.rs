//! Pattern tails shared with equal pattern bodies (switch `pattern-tails`).
//!
//! A pattern holds at a vertex when some word of its body reaches the body's end; where on the
//! board that end lies does not matter, and a pattern changes no state. So alternatives in *tail
//! position* (nothing of the body follows them) may be asked as a nested pattern instead of
//! walked: `X (A + B + C)` holds where `X ({? A + B} + C)` holds. When `A + B` is, term for
//! term, the whole body of another pattern of the game, the nested pattern and that one are
//! equal, so pattern sharing gives them one automaton, and with it one memo: the compiled
//! engine's whole-board set of that pattern, kept while the board's piece words are unchanged,
//! then serves both uses.
//!
//! The case this is for: reversi's keeper asks, after every move, whether anyone can move,
//! `{? anySquare {e} (movePossible(me) + movePossible(opp))}`. Each half is the body of a
//! player's move pattern `{? movePossible(..)}`, so after the rewrite the keeper reads the two
//! players' move sets, and the next player's move search finds its set already computed.
//!
//! Only where the memo pays is a sum rewritten: a sum that directly follows an on-test of pieces
//! that many cells of the initial board hold (at least [`MIN_CROWDED_CELLS`], as reversi's
//! `{e}`), the shape of the "at every empty cell" question that the compiled engine answers with
//! whole-board sets. Elsewhere a nested pattern is a call where the rays were inline code:
//! English draughts' "can anyone capture" (`anySquare ({king} jumps + {man} jumps)`, whose jump
//! sums are bodies of its `{! jumps}` patterns) took 7% to 14% more instructions rewritten. Only
//! runs of at least two alternatives are replaced (a single ray equal to some `{! ray}` body
//! would become a pattern call of its own). The rewrite is applied to every pattern body, and to
//! the nested bodies it creates, by the same function, so equal bodies stay equal after it.

use rbg_parser::ir::{Action, ActionKind, PieceId, Rule};

/// An on-test of pieces on at least this many cells of the initial board opens a sum that may
/// be rewritten (the compiled engine's whole-board sets serve fans asking at least 16 cells).
const MIN_CROWDED_CELLS: usize = 16;

/// At most this many pattern bodies are candidates (the search for runs is linear in them; no
/// corpus game asks more than 544 patterns, gess, before sharing).
const MAX_BODIES: usize = 1024;

/// The rules with pattern tails replaced by shared patterns, or `None` when nothing changes.
/// `initial_cells[p]`: how many cells of the initial board hold piece `p`.
pub(crate) fn share_pattern_tails(rules: &Rule, initial_cells: &[usize]) -> Option<Rule> {
    let mut bodies = Vec::new();
    collect_alternative_bodies(rules, &mut bodies);
    if bodies.is_empty() {
        return None;
    }
    let rewriter = Rewriter { bodies, initial_cells };
    let out = rewriter.inner(rules);
    (out != *rules).then_some(out)
}

/// Every pattern body of `rule` (nested ones included) that is a sum of at least two terms.
fn collect_alternative_bodies<'r>(rule: &'r Rule, out: &mut Vec<&'r [Rule]>) {
    match rule {
        Rule::Concat(cs) | Rule::Alt(cs) => cs.iter().for_each(|c| collect_alternative_bodies(c, out)),
        Rule::Star(body) => collect_alternative_bodies(body, out),
        Rule::Action(Action { kind: ActionKind::Pattern { body, .. }, .. }) => {
            if let Rule::Alt(terms) = body.as_ref() {
                if terms.len() >= 2 && out.len() < MAX_BODIES && !out.contains(&terms.as_slice()) {
                    out.push(terms);
                }
            }
            collect_alternative_bodies(body, out);
        }
        Rule::Action(_) => {}
    }
}

struct Rewriter<'r> {
    /// The terms of the game's pattern bodies that are sums.
    bodies: Vec<&'r [Rule]>,
    /// Per piece, the cells of the initial board holding it.
    initial_cells: &'r [usize],
}

impl Rewriter<'_> {
    /// Whether `rule` is an on-test of pieces that many initial cells hold.
    fn is_crowded_test(&self, rule: &Rule) -> bool {
        let Rule::Action(Action { kind: ActionKind::On(pieces), .. }) = rule else { return false };
        let cells: usize =
            pieces.iter().map(|&p: &PieceId| self.initial_cells.get(p as usize).copied().unwrap_or(0)).sum();
        cells >= MIN_CROWDED_CELLS
    }

    /// `rule` outside tail position: only the bodies of its patterns change.
    fn inner(&self, rule: &Rule) -> Rule {
        match rule {
            Rule::Concat(cs) => Rule::Concat(cs.iter().map(|c| self.inner(c)).collect()),
            Rule::Alt(cs) => Rule::Alt(cs.iter().map(|c| self.inner(c)).collect()),
            Rule::Star(body) => Rule::Star(Box::new(self.inner(body))),
            Rule::Action(a) => Rule::Action(self.action(a)),
        }
    }

    fn action(&self, a: &Action) -> Action {
        match &a.kind {
            ActionKind::Pattern { positive, body } => Action {
                kind: ActionKind::Pattern { positive: *positive, body: Box::new(self.tail(body)) },
                index: a.index,
            },
            _ => a.clone(),
        }
    }

    /// `rule` in tail position of a pattern body.
    fn tail(&self, rule: &Rule) -> Rule {
        match rule {
            Rule::Concat(cs) => match cs.split_last() {
                Some((last, init)) => {
                    let mut out: Vec<Rule> = init.iter().map(|c| self.inner(c)).collect();
                    out.push(match last {
                        Rule::Alt(terms) if init.last().is_some_and(|t| self.is_crowded_test(t)) => {
                            self.alternatives(terms, true)
                        }
                        _ => self.tail(last),
                    });
                    Rule::Concat(out)
                }
                None => rule.clone(),
            },
            Rule::Alt(terms) => self.alternatives(terms, false),
            // A star in tail position may stop at once, so its body is not a tail.
            Rule::Star(_) | Rule::Action(_) => self.inner(rule),
        }
    }

    /// A sum in tail position. With `replace`, each longest run of terms equal to another pattern
    /// body (from the left) becomes that pattern; the other terms are tails themselves.
    fn alternatives(&self, terms: &[Rule], replace: bool) -> Rule {
        let mut out = Vec::with_capacity(terms.len());
        let mut i = 0;
        while i < terms.len() {
            match self.longest_run(&terms[i..]).filter(|_| replace) {
                Some(len) => {
                    let run = Rule::Alt(terms[i..i + len].to_vec());
                    let kind = ActionKind::Pattern { positive: true, body: Box::new(self.tail(&run)) };
                    out.push(Rule::Action(Action { kind, index: 0 }));
                    i += len;
                }
                None => {
                    out.push(self.tail(&terms[i]));
                    i += 1;
                }
            }
        }
        match <[Rule; 1]>::try_from(out) {
            Ok([only]) => only,
            Err(out) => Rule::Alt(out),
        }
    }

    /// The length of the longest pattern body (a sum) that `terms` starts with.
    fn longest_run(&self, terms: &[Rule]) -> Option<usize> {
        self.bodies.iter().filter(|b| terms.starts_with(b)).map(|b| b.len()).max()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Piece 0 fills the initial board (as reversi's empty cells); the others are rare.
    const CELLS: [usize; 4] = [60, 2, 2, 0];

    fn on(piece: u32) -> Rule {
        Rule::Action(Action { kind: ActionKind::On(vec![piece]), index: 0 })
    }
    fn shift(label: u32) -> Rule {
        Rule::Action(Action { kind: ActionKind::Shift(label), index: 0 })
    }
    fn pattern(body: Rule) -> Rule {
        Rule::Action(Action { kind: ActionKind::Pattern { positive: true, body: Box::new(body) }, index: 0 })
    }
    /// A ray `shift {piece}`: a term of the sums below.
    fn ray(label: u32, piece: u32) -> Rule {
        Rule::Concat(vec![shift(label), on(piece)])
    }

    #[test]
    fn a_tail_sum_holding_another_body_asks_that_pattern() {
        let mine = Rule::Alt(vec![ray(0, 1), ray(1, 1)]);
        let theirs = Rule::Alt(vec![ray(0, 2), ray(1, 2)]);
        // {? m} {? t} {? {0} (m-terms + t-terms + ray)}
        let keeper_sum = Rule::Alt(vec![ray(0, 1), ray(1, 1), ray(0, 2), ray(1, 2), ray(2, 3)]);
        let keeper = Rule::Concat(vec![on(0), keeper_sum]);
        let rules = Rule::Concat(vec![pattern(mine.clone()), pattern(theirs.clone()), pattern(keeper)]);
        let out = share_pattern_tails(&rules, &CELLS).expect("the keeper's tail is rewritten");
        let expected_keeper = Rule::Concat(vec![
            on(0),
            Rule::Alt(vec![pattern(mine.clone()), pattern(theirs.clone()), ray(2, 3)]),
        ]);
        let expected = Rule::Concat(vec![pattern(mine), pattern(theirs), pattern(expected_keeper)]);
        assert_eq!(out, expected);
    }

    #[test]
    fn sums_followed_by_more_or_under_a_star_or_outside_patterns_stay() {
        let mine = Rule::Alt(vec![ray(0, 1), ray(1, 1)]);
        // The sum is followed by {3}: not a tail.
        let followed = Rule::Concat(vec![mine.clone(), on(3)]);
        // A star's body is not a tail either.
        let starred = Rule::Concat(vec![on(0), Rule::Star(Box::new(mine.clone()))]);
        // The rules (not a pattern) are never rewritten.
        let rules = Rule::Concat(vec![pattern(mine.clone()), pattern(followed), pattern(starred), mine]);
        assert_eq!(share_pattern_tails(&rules, &CELLS), None);
    }

    #[test]
    fn a_body_is_not_made_a_pattern_of_itself_and_single_terms_stay() {
        let mine = Rule::Alt(vec![ray(0, 1), ray(1, 1)]);
        // {? m} twice, and {! ray} whose body is one term of m.
        let negative = Rule::Action(Action {
            kind: ActionKind::Pattern { positive: false, body: Box::new(ray(0, 1)) },
            index: 0,
        });
        let rules = Rule::Concat(vec![pattern(mine.clone()), pattern(mine), negative]);
        assert_eq!(share_pattern_tails(&rules, &CELLS), None);
    }

    #[test]
    fn a_sum_after_a_test_of_rare_pieces_stays() {
        let mine = Rule::Alt(vec![ray(0, 1), ray(1, 1)]);
        // As English draughts' "can anyone capture": {1} (jumps), piece 1 on two cells.
        let keeper = Rule::Concat(vec![on(1), mine.clone()]);
        let rules = Rule::Concat(vec![pattern(mine), pattern(keeper)]);
        assert_eq!(share_pattern_tails(&rules, &CELLS), None);
    }

    #[test]
    fn a_whole_nested_sum_becomes_the_pattern_itself() {
        let mine = Rule::Alt(vec![ray(0, 1), ray(1, 1)]);
        let keeper = Rule::Concat(vec![on(0), mine.clone()]);
        let rules = Rule::Concat(vec![pattern(mine.clone()), pattern(keeper)]);
        let out = share_pattern_tails(&rules, &CELLS).expect("rewritten");
        let expected =
            Rule::Concat(vec![pattern(mine.clone()), pattern(Rule::Concat(vec![on(0), pattern(mine)]))]);
        assert_eq!(out, expected);
    }
}
