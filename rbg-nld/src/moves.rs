//! Unfolding a movement rule into moves made of parts (section 3.2 of the NLD paper: "the
//! regular expression determining a piece is unfolded into the sum of individual movements",
//! and every movement is divided "into parts based on the common vector").
//!
//! A rule is first expanded into a finite list of words over [`Atom`]s: a letter vector with
//! the set of contents its squares may have and a repetition range. `^*` of anything but a
//! single letter vector (such as `((0,1,w)(0,1,e))^*`) cannot be written as parts; it stays an
//! opaque [`Item::Pattern`] and its move is described by the generic fallback. So does a rule
//! whose expansion would exceed [`MAX_WORDS`] words.
//!
//! A word then becomes a [`Move`]: runs of atoms with the same vector are classified as a leap,
//! a ride (passed squares, a step range, the last square) or a hop (empty squares, one piece
//! jumped, the square right behind). Finally moves that differ in one part only are merged
//! when their union is again one part (`(1,0,e)(1,0,e)^* + (1,0,e)^*(1,0,p)` is one ride that
//! ends on an empty square or an opponent's piece), so each move is as general as possible.

use std::collections::{BTreeMap, HashSet};
use std::fmt::Write as _;

use rbg_sbg::syntax::{On, Power, Regex};
use serde::Serialize;

/// The most words a rule may expand to before it is described as one pattern.
pub const MAX_WORDS: usize = 4096;
/// The most atoms a word may hold (long `^n` powers of groups).
const MAX_ATOMS: usize = 512;
/// The most parts a move may have before it gets the generic description (the paper's
/// Algorithm 1 fails on moves with more than three parts).
pub const MAX_PARTS: usize = 3;

/// A set of square contents (`e`, `p`, `w`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct OnSet(u8);

impl OnSet {
    pub const NONE: OnSet = OnSet(0);
    pub const EMPTY: OnSet = OnSet(1);
    pub const OPPONENT: OnSet = OnSet(2);
    pub const OWN: OnSet = OnSet(4);
    /// An empty square or an opponent's piece: an ordinary move or capture.
    pub const MOVE_OR_CAPTURE: OnSet = OnSet(3);
    /// Any piece, of either side.
    pub const PIECE: OnSet = OnSet(6);

    pub fn of(on: On) -> OnSet {
        match on {
            On::Empty => OnSet::EMPTY,
            On::Opponent => OnSet::OPPONENT,
            On::Own => OnSet::OWN,
        }
    }

    pub fn union(self, other: OnSet) -> OnSet {
        OnSet(self.0 | other.0)
    }

    pub fn is_subset_of(self, other: OnSet) -> bool {
        self.0 & !other.0 == 0
    }

    pub fn is_none(self) -> bool {
        self.0 == 0
    }

    /// The letters of the set, as SBG writes them.
    pub fn letters(self) -> Vec<char> {
        [(OnSet::EMPTY, 'e'), (OnSet::OPPONENT, 'p'), (OnSet::OWN, 'w')]
            .into_iter()
            .filter(|(set, _)| set.is_subset_of(self))
            .map(|(_, letter)| letter)
            .collect()
    }
}

/// A letter vector repeated `min..=max` times (`max` `None`: unbounded), each square's content
/// in `ons`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Atom {
    pub dx: i32,
    pub dy: i32,
    pub ons: OnSet,
    pub min: u32,
    pub max: Option<u32>,
}

/// One item of an unfolded word.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Item {
    Atom(Atom),
    /// A sub-expression that is not a sum of part sequences, kept as SBG text.
    Pattern {
        text: String,
        vectors: Vec<(i32, i32)>,
    },
}

/// A maximal run of one vector: a leap, a ride or a hop.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Part {
    pub dx: i32,
    pub dy: i32,
    /// For a ride, the number of steps; for a hop, the number of empty squares before the
    /// jumped piece. A leap is a ride of exactly one step.
    pub min: u32,
    pub max: Option<u32>,
    /// What the squares passed over may hold; [`OnSet::NONE`] when none are passed.
    pub passes: OnSet,
    /// For a hop, what the jumped square may hold.
    pub hurdle: Option<OnSet>,
    /// What the square the part ends on may hold.
    pub landing: OnSet,
}

impl Part {
    pub fn is_leap(&self) -> bool {
        self.hurdle.is_none() && self.min == 1 && self.max == Some(1)
    }

    pub fn vector(&self) -> (i32, i32) {
        (self.dx, self.dy)
    }
}

/// One movement of a piece.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// At most [`MAX_PARTS`] parts, consecutive ones of different vectors.
    Parts(Vec<Part>),
    /// Anything else, described by its letters.
    Generic(Vec<Item>),
}

/// The most moves a rule may have before it is described as one pattern.
pub const MAX_MOVES: usize = 4096;
/// The most moves of one vector sequence that are merged (merging is cubic in the worst case).
const MAX_MERGED: usize = 256;

/// The moves of a rule: unfolded, divided into parts and merged.
pub fn moves_of(regex: &Regex) -> Vec<Move> {
    let words = unfold(regex);
    let mut with_parts = Vec::new();
    let mut generic = Vec::new();
    let mut seen = HashSet::new();
    for word in &words {
        for m in word_moves(word) {
            if !seen.insert(m.clone()) {
                continue;
            }
            if seen.len() > MAX_MOVES {
                return vec![Move::Generic(vec![pattern_of(regex)])];
            }
            match m {
                Move::Parts(parts) => with_parts.push(parts),
                Move::Generic(items) => generic.push(items),
            }
        }
    }
    let mut moves: Vec<Move> = merge_moves(with_parts).into_iter().map(Move::Parts).collect();
    moves.extend(generic.into_iter().map(Move::Generic));
    moves
}

// ---------------------------------------------------------------------------------------------
// Unfolding

fn letter_atom(dx: i32, dy: i32, ons: OnSet, min: u32, max: Option<u32>) -> Item {
    Item::Atom(Atom { dx, dy, ons, min, max })
}

/// The words of `regex`, or one opaque pattern when they are too many.
fn unfold(regex: &Regex) -> Vec<Vec<Item>> {
    unfold_bounded(regex).unwrap_or_else(|| vec![vec![pattern_of(regex)]])
}

fn pattern_of(regex: &Regex) -> Item {
    let mut vectors = Vec::new();
    regex.for_each_letter(&mut |letter| {
        if !vectors.contains(&(letter.dx, letter.dy)) {
            vectors.push((letter.dx, letter.dy));
        }
    });
    Item::Pattern { text: regex_text(regex), vectors }
}

fn unfold_bounded(regex: &Regex) -> Option<Vec<Vec<Item>>> {
    match regex {
        Regex::Letter(l) => Some(vec![vec![letter_atom(l.dx, l.dy, OnSet::of(l.on), 1, Some(1))]]),
        Regex::Concat(parts) => {
            let mut words = vec![Vec::new()];
            for part in parts {
                words = product(&words, &unfold_bounded(part)?)?;
            }
            Some(words)
        }
        Regex::Alt(branches) => {
            let mut words: Vec<Vec<Item>> = Vec::new();
            for branch in branches {
                for word in unfold_bounded(branch)? {
                    if !words.contains(&word) {
                        words.push(word);
                    }
                }
                if words.len() > MAX_WORDS {
                    return None;
                }
            }
            Some(match single_letter_union(&words) {
                Some(atom) => vec![vec![Item::Atom(atom)]],
                None => words,
            })
        }
        Regex::Power(inner, Power::Times(n)) => {
            let words = unfold_bounded(inner)?;
            if let Some(atom) = single_letter_union(&words) {
                return Some(vec![vec![letter_atom(atom.dx, atom.dy, atom.ons, *n, Some(*n))]]);
            }
            // Powers of the empty word are the empty word; any other word grows with each
            // factor, so the loop below ends at MAX_ATOMS or MAX_WORDS.
            if words.iter().all(Vec::is_empty) {
                return Some(vec![Vec::new()]);
            }
            let mut result = vec![Vec::new()];
            for _ in 0..*n {
                result = product(&result, &words)?;
            }
            Some(result)
        }
        Regex::Power(inner, Power::Star) => {
            let words = unfold_bounded(inner)?;
            let atom = single_letter_union(&words).or_else(|| match words.as_slice() {
                [word] => match word.as_slice() {
                    [Item::Atom(a)] if a.min <= 1 => Some(a.clone()),
                    _ => None,
                },
                _ => None,
            });
            Some(vec![vec![match atom {
                Some(a) => letter_atom(a.dx, a.dy, a.ons, 0, None),
                None => pattern_of(regex),
            }]])
        }
    }
}

/// When every word is one single letter of the same vector, the one letter accepting all
/// their contents (`(0,1,p) + (0,1,w)` is `(0,1,{p,w})`).
fn single_letter_union(words: &[Vec<Item>]) -> Option<Atom> {
    let mut union: Option<Atom> = None;
    for word in words {
        let [Item::Atom(a)] = word.as_slice() else { return None };
        if a.min != 1 || a.max != Some(1) {
            return None;
        }
        match &mut union {
            None => union = Some(a.clone()),
            Some(u) if (u.dx, u.dy) == (a.dx, a.dy) => u.ons = u.ons.union(a.ons),
            Some(_) => return None,
        }
    }
    union
}

fn product(left: &[Vec<Item>], right: &[Vec<Item>]) -> Option<Vec<Vec<Item>>> {
    if left.len().saturating_mul(right.len()) > MAX_WORDS {
        return None;
    }
    let mut words = Vec::with_capacity(left.len() * right.len());
    for l in left {
        for r in right {
            if l.len() + r.len() > MAX_ATOMS {
                return None;
            }
            let mut word = l.clone();
            word.extend(r.iter().cloned());
            words.push(word);
        }
    }
    Some(words)
}

/// SBG text of a regular expression (spaces only around `+`).
pub fn regex_text(regex: &Regex) -> String {
    let mut text = String::new();
    write_regex(regex, &mut text);
    text
}

fn write_regex(regex: &Regex, out: &mut String) {
    match regex {
        Regex::Letter(l) => {
            let on = match l.on {
                On::Empty => 'e',
                On::Opponent => 'p',
                On::Own => 'w',
            };
            let _ = write!(out, "({},{},{on})", l.dx, l.dy);
        }
        Regex::Concat(parts) => {
            for part in parts {
                let wrap = matches!(part, Regex::Alt(_));
                wrap_if(wrap, out, |out| write_regex(part, out));
            }
        }
        Regex::Alt(branches) => {
            for (i, branch) in branches.iter().enumerate() {
                if i > 0 {
                    out.push_str(" + ");
                }
                write_regex(branch, out);
            }
        }
        Regex::Power(inner, power) => {
            wrap_if(!matches!(**inner, Regex::Letter(_)), out, |out| write_regex(inner, out));
            match power {
                Power::Times(n) => {
                    let _ = write!(out, "^{n}");
                }
                Power::Star => out.push_str("^*"),
            }
        }
    }
}

fn wrap_if(wrap: bool, out: &mut String, inner: impl FnOnce(&mut String)) {
    if wrap {
        out.push('(');
    }
    inner(out);
    if wrap {
        out.push(')');
    }
}

/// SBG-like text of an unfolded word (`(1,0,e)^{2..4}` for a bounded range).
pub fn word_text(items: &[Item]) -> String {
    let mut text = String::new();
    for item in items {
        match item {
            Item::Pattern { text: t, .. } => text.push_str(t),
            Item::Atom(a) => {
                let letters = a.ons.letters();
                if letters.len() == 1 {
                    let _ = write!(text, "({},{},{})", a.dx, a.dy, letters[0]);
                } else {
                    let alternatives: Vec<String> =
                        letters.iter().map(|on| format!("({},{},{on})", a.dx, a.dy)).collect();
                    let _ = write!(text, "({})", alternatives.join(" + "));
                }
                match (a.min, a.max) {
                    (1, Some(1)) => {}
                    (0, None) => text.push_str("^*"),
                    (min, Some(max)) if min == max => {
                        let _ = write!(text, "^{min}");
                    }
                    (min, Some(max)) => {
                        let _ = write!(text, "^{{{min}..{max}}}");
                    }
                    (min, None) => {
                        let _ = write!(text, "^{{{min}..}}");
                    }
                }
            }
        }
    }
    if text.is_empty() {
        text.push_str("(no step)");
    }
    text
}

// ---------------------------------------------------------------------------------------------
// Words into parts

/// The moves of one word: an optional run (`(1,0,e)^*` alone) gives one move without it and
/// one with at least one step.
fn word_moves(word: &[Item]) -> Vec<Move> {
    let mut atoms = Vec::with_capacity(word.len());
    for item in word {
        match item {
            Item::Atom(a) if a.max == Some(0) => {}
            Item::Atom(a) => atoms.push(a.clone()),
            Item::Pattern { .. } => return vec![Move::Generic(word.to_vec())],
        }
    }
    let mut moves = Vec::new();
    split_optional_runs(atoms, &mut moves, word);
    moves
}

/// Bounds the variants of one word: each optional run doubles them.
const MAX_VARIANTS: usize = 64;

fn split_optional_runs(atoms: Vec<Atom>, out: &mut Vec<Move>, word: &[Item]) {
    if out.len() >= MAX_VARIANTS {
        return;
    }
    let runs = runs_of(&atoms);
    let optional = runs.iter().find(|run| {
        let same_ons = run.iter().all(|&i| atoms[i].ons == atoms[run[0]].ons);
        same_ons && run.iter().all(|&i| atoms[i].min == 0)
    });
    let Some(run) = optional else {
        out.push(parts_of(&atoms, &runs).map_or_else(|| Move::Generic(word.to_vec()), Move::Parts));
        return;
    };
    let without: Vec<Atom> =
        atoms.iter().enumerate().filter(|(i, _)| !run.contains(i)).map(|(_, a)| a.clone()).collect();
    let mut with = atoms.clone();
    with[run[0]].min = 1;
    if without.is_empty() {
        // The empty word: the piece stays where it is.
        out.push(Move::Generic(Vec::new()));
    } else {
        split_optional_runs(without, out, word);
    }
    split_optional_runs(with, out, word);
}

/// Index runs of consecutive atoms with the same vector.
fn runs_of(atoms: &[Atom]) -> Vec<Vec<usize>> {
    let mut runs: Vec<Vec<usize>> = Vec::new();
    for (i, atom) in atoms.iter().enumerate() {
        match runs.last_mut() {
            Some(run) if (atoms[run[0]].dx, atoms[run[0]].dy) == (atom.dx, atom.dy) => run.push(i),
            _ => runs.push(vec![i]),
        }
    }
    runs
}

fn parts_of(atoms: &[Atom], runs: &[Vec<usize>]) -> Option<Vec<Part>> {
    if runs.is_empty() || runs.len() > MAX_PARTS {
        return None;
    }
    runs.iter().map(|run| classify_run(&run.iter().map(|&i| &atoms[i]).collect::<Vec<_>>())).collect()
}

fn sum_min(atoms: &[&Atom]) -> u32 {
    atoms.iter().fold(0u32, |sum, a| sum.saturating_add(a.min))
}

fn sum_max(atoms: &[&Atom]) -> Option<u32> {
    atoms.iter().try_fold(0u32, |sum, a| a.max.map(|m| sum.saturating_add(m)))
}

/// A run of atoms with one vector as a part, when it is a leap, a ride or a hop.
fn classify_run(run: &[&Atom]) -> Option<Part> {
    let (dx, dy) = (run[0].dx, run[0].dy);
    let make = |min: u32, max: Option<u32>, passes: OnSet, hurdle: Option<OnSet>, landing: OnSet| {
        let passes = if hurdle.is_none() && max == Some(1) { OnSet::NONE } else { passes };
        Part { dx, dy, min, max, passes, hurdle, landing }
    };
    let single = |a: &Atom| a.min == 1 && a.max == Some(1);
    // A hop: empty squares, one piece, the square right behind it.
    if let [approach @ .., hurdle, landing] = run {
        let empty_approach = approach.iter().all(|a| a.ons == OnSet::EMPTY);
        if empty_approach && single(hurdle) && single(landing) && hurdle.ons.is_subset_of(OnSet::PIECE) {
            let passes = if sum_max(approach) == Some(0) { OnSet::NONE } else { OnSet::EMPTY };
            return Some(make(sum_min(approach), sum_max(approach), passes, Some(hurdle.ons), landing.ons));
        }
    }
    // A ride whose squares all accept the same contents.
    if run.iter().all(|a| a.ons == run[0].ons) {
        let min = sum_min(run).max(1);
        return Some(make(min, sum_max(run), run[0].ons, None, run[0].ons));
    }
    // A ride over squares of one kind to a last square of another.
    if let [passed @ .., last] = run {
        if single(last) && passed.iter().all(|a| a.ons == passed[0].ons) {
            let min = sum_min(passed).saturating_add(1);
            let max = sum_max(passed).map(|m| m.saturating_add(1));
            return Some(make(min, max, passed[0].ons, None, last.ons));
        }
    }
    None
}

// ---------------------------------------------------------------------------------------------
// Merging

/// Merges moves that differ in one part into one move, as long as any pair merges.
fn merge_moves(moves: Vec<Vec<Part>>) -> Vec<Vec<Part>> {
    // Only moves with the same vectors can merge: group them, keeping first appearances.
    let mut groups: BTreeMap<usize, Vec<Vec<Part>>> = BTreeMap::new();
    let mut first_index: Vec<(Vec<(i32, i32)>, usize)> = Vec::new();
    for m in moves {
        let vectors: Vec<(i32, i32)> = m.iter().map(Part::vector).collect();
        let index = match first_index.iter().find(|(v, _)| *v == vectors) {
            Some((_, i)) => *i,
            None => {
                first_index.push((vectors, first_index.len()));
                first_index.len() - 1
            }
        };
        groups.entry(index).or_default().push(m);
    }
    groups.into_values().flat_map(merge_group).collect()
}

fn merge_group(mut moves: Vec<Vec<Part>>) -> Vec<Vec<Part>> {
    if moves.len() > MAX_MERGED {
        return moves;
    }
    'again: loop {
        for i in 0..moves.len() {
            for j in i + 1..moves.len() {
                if let Some(merged) = merge_pair(&moves[i], &moves[j]) {
                    moves[i] = merged;
                    moves.remove(j);
                    moves.dedup();
                    continue 'again;
                }
            }
        }
        return moves;
    }
}

fn merge_pair(a: &[Part], b: &[Part]) -> Option<Vec<Part>> {
    if a.len() != b.len() {
        return None;
    }
    let differing: Vec<usize> = (0..a.len()).filter(|&i| a[i] != b[i]).collect();
    let [i] = differing.as_slice() else { return None };
    let merged = merge_parts(&a[*i], &b[*i])?;
    let mut result = a.to_vec();
    result[*i] = merged;
    Some(result)
}

/// The one part both parts' moves make, if there is one.
fn merge_parts(p: &Part, q: &Part) -> Option<Part> {
    if p.vector() != q.vector() || p.hurdle != q.hurdle {
        return None;
    }
    if (p.min, p.max, p.passes) == (q.min, q.max, q.passes) {
        return Some(Part { landing: p.landing.union(q.landing), ..p.clone() });
    }
    if p.landing != q.landing {
        return None;
    }
    let passes = match (p.passes, q.passes) {
        (x, y) if x == y => x,
        (OnSet::NONE, y) => y,
        (x, OnSet::NONE) => x,
        _ => return None,
    };
    let (low, high) = if p.min <= q.min { (p, q) } else { (q, p) };
    let touches = match low.max {
        None => true,
        Some(m) => m.saturating_add(1) >= high.min,
    };
    if !touches {
        return None;
    }
    let max = match (low.max, high.max) {
        (Some(x), Some(y)) => Some(x.max(y)),
        _ => None,
    };
    Some(Part { min: low.min, max, passes, ..p.clone() })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule(text: &str) -> Regex {
        let source =
            format!("<<T>>\n<BOARD> 3 3\n|...|\n|...|\n|.A.|\n<PIECES>\nA {text} &\n<GOALS>\n10 &\n");
        let game = rbg_sbg::parse("t.sbg", source.as_bytes()).expect("the test rule parses");
        game.rules[0].regex.clone()
    }

    fn parts(text: &str) -> Vec<Vec<Part>> {
        moves_of(&rule(text))
            .into_iter()
            .map(|m| match m {
                Move::Parts(p) => p,
                Move::Generic(items) => panic!("generic: {items:?}"),
            })
            .collect()
    }

    fn part(dx: i32, dy: i32, min: u32, max: Option<u32>, passes: OnSet, landing: OnSet) -> Part {
        Part { dx, dy, min, max, passes, hurdle: None, landing }
    }

    #[test]
    fn the_rider_idiom_is_one_ride_ending_on_an_empty_or_opponent_square() {
        let expected = part(1, 0, 1, None, OnSet::EMPTY, OnSet::MOVE_OR_CAPTURE);
        assert_eq!(parts("(1,0,e)(1,0,e)^* + (1,0,e)^*(1,0,p)"), [vec![expected]]);
    }

    #[test]
    fn bounded_rides_written_step_by_step_merge_into_one_range() {
        let expected = part(0, 1, 1, Some(3), OnSet::EMPTY, OnSet::MOVE_OR_CAPTURE);
        let text =
            "(0,1,e) + (0,1,p) + (0,1,e)(0,1,e) + (0,1,e)(0,1,p) + (0,1,e)^2(0,1,e) + (0,1,e)^2(0,1,p)";
        assert_eq!(parts(text), [vec![expected]]);
    }

    #[test]
    fn an_optional_run_gives_a_move_without_it() {
        // The griffon idiom: the lone diagonal step ends on an empty square.
        let lone = part(1, 1, 1, Some(1), OnSet::NONE, OnSet::EMPTY);
        let ride = part(0, 1, 1, None, OnSet::EMPTY, OnSet::MOVE_OR_CAPTURE);
        let text = "(1,1,e)(0,1,e)^* + (1,1,e)(0,1,e)^*(0,1,p)";
        assert_eq!(parts(text), [vec![lone.clone()], vec![lone, ride]]);
    }

    #[test]
    fn a_grasshopper_is_a_hop() {
        let hop = Part {
            dx: 0,
            dy: 1,
            min: 0,
            max: None,
            passes: OnSet::EMPTY,
            hurdle: Some(OnSet::PIECE),
            landing: OnSet::MOVE_OR_CAPTURE,
        };
        assert_eq!(parts("(0,1,e)^*((0,1,p) + (0,1,w))((0,1,e) + (0,1,p))"), [vec![hop]]);
    }

    #[test]
    fn a_starred_group_of_several_letters_is_a_pattern() {
        let moves = moves_of(&rule("(0,1,e) + ((0,1,w)(0,1,e))^*"));
        assert_eq!(moves.len(), 2, "{moves:?}");
        assert!(
            matches!(&moves[1], Move::Generic(items) if matches!(items.as_slice(), [Item::Pattern { .. }]))
        );
    }

    #[test]
    fn moves_of_four_parts_are_generic() {
        let moves = moves_of(&rule("(1,0,e)(0,1,e)(1,0,e)(0,1,e)"));
        assert!(matches!(moves.as_slice(), [Move::Generic(_)]), "{moves:?}");
    }

    #[test]
    fn huge_powers_stay_bounded() {
        // Beyond the parser's limit, as a generator may build rules directly.
        let power = |inner: Regex, n: u32| Regex::Power(Box::new(inner), Power::Times(n));
        let mut two_letters = rule("(1,0,e) + (0,1,e)");
        two_letters = power(two_letters, 4000);
        let moves = moves_of(&two_letters);
        assert!(matches!(moves.as_slice(), [Move::Generic(_)]), "{moves:?}");
        let moves = moves_of(&power(rule("(1,0,e)"), u32::MAX));
        assert_eq!(moves.len(), 1);
        let empty_power = power(power(rule("(1,0,e)(0,1,e)"), 0), u32::MAX);
        assert!(matches!(moves_of(&empty_power).as_slice(), [Move::Generic(items)] if items.is_empty()));
    }
}
