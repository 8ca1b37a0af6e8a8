//! A movement rule compiled to a position (Glushkov) automaton: an NFA without empty moves whose
//! states are the letter occurrences of the rule (every `^n` unfolded into `n` copies) plus a
//! start state. Entering state `i` means reading letter `i`, so a walk of the automaton from a
//! square is a search over (state, square) pairs: a pair is reached when the letter of the state,
//! applied to the square of its predecessor, lands on the board and its condition holds. A
//! square reached in an accepting state is a destination of the piece.

use crate::syntax::{Letter, Power, Regex};

/// The position automaton of one rule.
#[derive(Clone, Debug)]
pub struct PieceAutomaton {
    /// The letter of each state (states are numbered from 0; the start state is separate).
    pub letters: Vec<Letter>,
    /// States reachable from the start by one letter.
    pub first: Vec<u32>,
    /// For each state, the states that may follow it.
    pub follow: Vec<Vec<u32>>,
    /// Whether a word may end in each state.
    pub accepting: Vec<bool>,
    /// Whether the empty word is in the language (the piece may "move" to its own square).
    pub accepts_empty: bool,
}

/// What a subexpression contributes: its first and last states and whether it accepts the
/// empty word.
struct Fragment {
    first: Vec<u32>,
    last: Vec<u32>,
    nullable: bool,
}

impl PieceAutomaton {
    /// Compiles a rule. Its size is the rule's [`Regex::unfolded_size`], which the parser bounds.
    pub fn compile(regex: &Regex) -> PieceAutomaton {
        let mut automaton = PieceAutomaton {
            letters: Vec::new(),
            first: Vec::new(),
            follow: Vec::new(),
            accepting: Vec::new(),
            accepts_empty: false,
        };
        let whole = automaton.fragment(regex);
        automaton.accepting = vec![false; automaton.letters.len()];
        for &state in &whole.last {
            automaton.accepting[state as usize] = true;
        }
        automaton.first = sorted(whole.first);
        automaton.accepts_empty = whole.nullable;
        for targets in &mut automaton.follow {
            *targets = sorted(std::mem::take(targets));
        }
        automaton
    }

    fn link(&mut self, from: &[u32], to: &[u32]) {
        for &state in from {
            self.follow[state as usize].extend_from_slice(to);
        }
    }

    fn fragment(&mut self, regex: &Regex) -> Fragment {
        match regex {
            Regex::Letter(letter) => {
                let state = self.letters.len() as u32;
                self.letters.push(*letter);
                self.follow.push(Vec::new());
                Fragment { first: vec![state], last: vec![state], nullable: false }
            }
            Regex::Concat(parts) => {
                let mut whole = Fragment { first: Vec::new(), last: Vec::new(), nullable: true };
                for part in parts {
                    let next = self.fragment(part);
                    whole = self.concatenate(whole, next);
                }
                whole
            }
            Regex::Alt(branches) => {
                let mut whole = Fragment { first: Vec::new(), last: Vec::new(), nullable: false };
                for branch in branches {
                    let next = self.fragment(branch);
                    whole.first.extend(next.first);
                    whole.last.extend(next.last);
                    whole.nullable |= next.nullable;
                }
                whole
            }
            Regex::Power(inner, Power::Star) => {
                let body = self.fragment(inner);
                self.link(&body.last, &body.first);
                Fragment { nullable: true, ..body }
            }
            Regex::Power(inner, Power::Times(n)) => {
                let mut whole = Fragment { first: Vec::new(), last: Vec::new(), nullable: true };
                for _ in 0..*n {
                    let copy = self.fragment(inner);
                    whole = self.concatenate(whole, copy);
                }
                whole
            }
        }
    }

    fn concatenate(&mut self, left: Fragment, right: Fragment) -> Fragment {
        self.link(&left.last, &right.first);
        let mut first = left.first;
        if left.nullable {
            first.extend_from_slice(&right.first);
        }
        let mut last = right.last;
        if right.nullable {
            last.extend_from_slice(&left.last);
        }
        // Keep the lists short: a long concatenation of nullable parts would repeat states.
        Fragment { first: sorted(first), last: sorted(last), nullable: left.nullable && right.nullable }
    }
}

fn sorted(mut states: Vec<u32>) -> Vec<u32> {
    states.sort_unstable();
    states.dedup();
    states
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::On;
    use rbg_parser::source::Span;

    fn letter(dx: i32) -> Regex {
        Regex::Letter(Letter { dx, dy: 0, on: On::Empty, span: Span::default() })
    }

    /// The words of length at most `max` the automaton accepts, as dx sequences.
    fn words(a: &PieceAutomaton, max: usize) -> Vec<Vec<i32>> {
        let mut out = Vec::new();
        if a.accepts_empty {
            out.push(Vec::new());
        }
        let mut frontier: Vec<(u32, Vec<i32>)> =
            a.first.iter().map(|&s| (s, vec![a.letters[s as usize].dx])).collect();
        while let Some((state, word)) = frontier.pop() {
            if a.accepting[state as usize] {
                out.push(word.clone());
            }
            if word.len() < max {
                for &next in &a.follow[state as usize] {
                    let mut longer = word.clone();
                    longer.push(a.letters[next as usize].dx);
                    frontier.push((next, longer));
                }
            }
        }
        out.sort();
        out
    }

    #[test]
    fn languages_of_small_expressions() {
        // (1)(2)^* + (3)^0: 1, 1 2, 1 2 2, ... and the empty word.
        let regex = Regex::Alt(vec![
            Regex::Concat(vec![letter(1), Regex::Power(Box::new(letter(2)), Power::Star)]),
            Regex::Power(Box::new(letter(3)), Power::Times(0)),
        ]);
        let a = PieceAutomaton::compile(&regex);
        assert_eq!(words(&a, 3), vec![vec![], vec![1], vec![1, 2], vec![1, 2, 2]]);
        // ((1) + (2))^2: four words of length 2, four states.
        let regex = Regex::Power(Box::new(Regex::Alt(vec![letter(1), letter(2)])), Power::Times(2));
        let a = PieceAutomaton::compile(&regex);
        assert_eq!(a.letters.len(), 4);
        assert_eq!(words(&a, 5), vec![vec![1, 1], vec![1, 2], vec![2, 1], vec![2, 2]]);
    }
}
