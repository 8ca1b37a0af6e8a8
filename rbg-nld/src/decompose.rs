//! The piece decomposition (section 3.2 of the NLD paper): every move is described by a class
//! per part paired with operators, several moves at once whenever one description fits them
//! all, greedily.
//!
//! Moves with the same shape (per part: the class, the step range, the passed, jumped and end
//! squares) differ only in their vectors' signs. For each shape we choose direction operators
//! per part (absolute ones such as forwards, and for later parts ones relative to the previous
//! part such as outwards) so that the selected sign combinations are all moves of the piece;
//! the greedy step takes the choice that describes the most undescribed moves, the cheaper one
//! on a tie, until every move is described. Moves the classes cannot describe get the generic
//! description (their letters) and its cost.

use serde::Serialize;

use crate::classes::{
    end_operator, part_cost, shape_operators, vector_cost, Class, ClassKind, Operator, PATTERN_FACTOR,
};
use crate::moves::{word_text, Item, Move, Part};

/// One part of a described movement: a class with its operators.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PartDescription {
    pub class: Class,
    pub operators: Vec<Operator>,
    /// Whether the part ends the move (its end square is then the move's destination).
    pub last: bool,
    /// Equation (2) for this part.
    pub complexity: f64,
}

/// A set of moves with one description.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Component {
    /// Parts composed by "and then"; the complexity is the product of the parts'.
    Classes { parts: Vec<PartDescription>, complexity: f64 },
    /// The generic fallback: the move's letters. `null_move`: the piece ends where it started
    /// (the empty word, `(0,0,w)`, `(1,0,e)(-1,0,w)`).
    Pattern { pattern: String, null_move: bool, complexity: f64 },
}

impl Component {
    pub fn complexity(&self) -> f64 {
        match self {
            Component::Classes { complexity, .. } | Component::Pattern { complexity, .. } => *complexity,
        }
    }
}

/// Absolute direction operators, at most two, as the candidates for any part.
const ABSOLUTE_FILTERS: [&[Operator]; 9] = [
    &[],
    &[Operator::Forwards],
    &[Operator::Backwards],
    &[Operator::Leftwards],
    &[Operator::Rightwards],
    &[Operator::Forwards, Operator::Leftwards],
    &[Operator::Forwards, Operator::Rightwards],
    &[Operator::Backwards, Operator::Leftwards],
    &[Operator::Backwards, Operator::Rightwards],
];

/// Direction operators relative to the previous part, for later parts.
const RELATIVE_FILTERS: [&[Operator]; 3] =
    [&[Operator::Outwards], &[Operator::Inwards], &[Operator::Sideways]];

/// One shape of moves and the sign combinations (vectors per part) it is made with.
struct Shape {
    classes: Vec<Class>,
    /// The part shapes with the vector zeroed.
    parts: Vec<Part>,
    vectors: Vec<Vec<(i32, i32)>>,
}

/// The components describing `moves`, in the order the moves come.
pub fn decompose(moves: &[Move]) -> Vec<Component> {
    let mut shapes: Vec<Shape> = Vec::new();
    let mut components = Vec::new();
    for m in moves {
        match m {
            Move::Parts(parts) if is_null_move(parts) => components.push(generic_null_move(parts)),
            Move::Parts(parts) => add_to_shape(&mut shapes, parts),
            Move::Generic(items) => components.push(generic(items)),
        }
    }
    let mut described: Vec<Component> = shapes.iter().flat_map(describe_shape).collect();
    described.extend(components);
    described
}

fn class_of(part: &Part) -> Class {
    let kind = if part.is_leap() { ClassKind::Leaper } else { ClassKind::Rider };
    Class { kind, x: part.dx.unsigned_abs(), y: part.dy.unsigned_abs() }
}

fn add_to_shape(shapes: &mut Vec<Shape>, parts: &[Part]) {
    let classes: Vec<Class> = parts.iter().map(class_of).collect();
    let zeroed: Vec<Part> = parts.iter().map(|p| Part { dx: 0, dy: 0, ..p.clone() }).collect();
    let vectors: Vec<(i32, i32)> = parts.iter().map(Part::vector).collect();
    match shapes.iter_mut().find(|s| s.classes == classes && s.parts == zeroed) {
        Some(shape) if !shape.vectors.contains(&vectors) => shape.vectors.push(vectors),
        Some(_) => {}
        None => shapes.push(Shape { classes, parts: zeroed, vectors: vec![vectors] }),
    }
}

/// A candidate description of some of a shape's moves: direction operators per part.
struct Candidate {
    filters: Vec<&'static [Operator]>,
    covered: Vec<usize>,
    cost: f64,
}

fn describe_shape(shape: &Shape) -> Vec<Component> {
    let base: Vec<Vec<Operator>> = shape
        .classes
        .iter()
        .zip(&shape.parts)
        .enumerate()
        .map(|(i, (class, part))| {
            let last = i + 1 == shape.parts.len();
            let mut ops: Vec<Operator> = end_operator(part.landing, last).into_iter().collect();
            ops.extend(shape_operators(class.kind, part));
            ops
        })
        .collect();
    let candidates = candidates(shape, &base);
    let mut undescribed = vec![true; shape.vectors.len()];
    let mut components = Vec::new();
    while undescribed.iter().any(|&u| u) {
        let new_count = |c: &Candidate| c.covered.iter().filter(|&&i| undescribed[i]).count();
        let best = candidates
            .iter()
            .filter(|c| new_count(c) > 0)
            .max_by(|a, b| new_count(a).cmp(&new_count(b)).then(b.cost.total_cmp(&a.cost)));
        // Every single move is a candidate of its own (two absolute operators pin any sign
        // combination), so there always is a best one; the guard keeps the loop finite anyway.
        let Some(best) = best else { break };
        for &i in &best.covered {
            undescribed[i] = false;
        }
        components.push(component(shape, &base, &best.filters));
    }
    components
}

fn component(shape: &Shape, base: &[Vec<Operator>], filters: &[&[Operator]]) -> Component {
    let parts: Vec<PartDescription> = shape
        .classes
        .iter()
        .zip(base)
        .zip(filters)
        .enumerate()
        .map(|(i, ((class, ops), filter))| {
            let mut operators = ops.clone();
            operators.extend(filter.iter().cloned());
            let complexity = part_cost(*class, &operators);
            PartDescription { class: *class, operators, last: i + 1 == shape.classes.len(), complexity }
        })
        .collect();
    let complexity = parts.iter().map(|p| p.complexity).product::<f64>().min(crate::MAX_COMPLEXITY);
    Component::Classes { parts, complexity }
}

/// Every choice of direction operators that selects only moves of the shape, with the moves
/// it selects and its cost. The first candidate of equal merit is the one with fewer and
/// absolute operators, as the filters are listed in that order.
fn candidates(shape: &Shape, base: &[Vec<Operator>]) -> Vec<Candidate> {
    let per_part: Vec<Vec<&'static [Operator]>> = (0..shape.classes.len())
        .map(|i| {
            let mut filters: Vec<&'static [Operator]> = ABSOLUTE_FILTERS.to_vec();
            if i > 0 {
                filters.extend(RELATIVE_FILTERS);
            }
            filters
        })
        .collect();
    let mut result = Vec::new();
    let mut choice = vec![0usize; per_part.len()];
    loop {
        let filters: Vec<&'static [Operator]> = choice.iter().zip(&per_part).map(|(&c, f)| f[c]).collect();
        if let Some(covered) = selected_moves(shape, &filters) {
            let cost = shape
                .classes
                .iter()
                .zip(base)
                .zip(&filters)
                .map(|((class, ops), filter)| {
                    let mut all = ops.clone();
                    all.extend(filter.iter().cloned());
                    part_cost(*class, &all)
                })
                .product();
            result.push(Candidate { filters, covered, cost });
        }
        if !advance(&mut choice, &per_part) {
            return result;
        }
    }
}

/// The next choice in odometer order; false after the last.
fn advance(choice: &mut [usize], per_part: &[Vec<&'static [Operator]>]) -> bool {
    for (c, filters) in choice.iter_mut().zip(per_part).rev() {
        *c += 1;
        if *c < filters.len() {
            return true;
        }
        *c = 0;
    }
    false
}

/// The indices of the shape's moves these filters select, or `None` if they select nothing
/// or something that is not a move of the piece.
fn selected_moves(shape: &Shape, filters: &[&[Operator]]) -> Option<Vec<usize>> {
    let mut covered = Vec::new();
    let mut combination = Vec::with_capacity(shape.classes.len());
    if !select(shape, filters, &mut combination, &mut covered) {
        return None;
    }
    (!covered.is_empty()).then_some(covered)
}

/// Walks the sign combinations the filters admit; false on one that is not a move.
fn select(
    shape: &Shape,
    filters: &[&[Operator]],
    combination: &mut Vec<(i32, i32)>,
    covered: &mut Vec<usize>,
) -> bool {
    let i = combination.len();
    if i == shape.classes.len() {
        return match shape.vectors.iter().position(|v| v == combination) {
            Some(index) => {
                covered.push(index);
                true
            }
            None => false,
        };
    }
    let previous = combination.last().copied();
    for d in shape.classes[i].directions() {
        if filters[i].iter().all(|op| op.admits(d, previous)) {
            combination.push(d);
            let ok = select(shape, filters, combination, covered);
            combination.pop();
            if !ok {
                return false;
            }
        }
    }
    true
}

/// Whether the move's leaps bring the piece back to its square: no class describes that.
fn is_null_move(parts: &[Part]) -> bool {
    let all_leaps = parts.iter().all(Part::is_leap);
    let (x, y) = parts.iter().fold((0i64, 0i64), |(x, y), p| (x + i64::from(p.dx), y + i64::from(p.dy)));
    all_leaps && (x, y) == (0, 0)
}

fn generic_null_move(parts: &[Part]) -> Component {
    let complexity = parts.iter().map(|p| vector_cost(i64::from(p.dx), i64::from(p.dy))).product();
    let letters: Vec<String> = parts
        .iter()
        .map(|p| {
            let ons: Vec<String> =
                p.landing.letters().iter().map(|on| format!("({},{},{on})", p.dx, p.dy)).collect();
            if ons.len() == 1 {
                ons.join("")
            } else {
                format!("({})", ons.join(" + "))
            }
        })
        .collect();
    Component::Pattern { pattern: letters.concat(), null_move: true, complexity }
}

/// The generic description of a move: its letters, scored by the product of equation (1)
/// over its steps.
fn generic(items: &[Item]) -> Component {
    if items.is_empty() {
        return Component::Pattern { pattern: String::new(), null_move: true, complexity: vector_cost(0, 0) };
    }
    let complexity = items
        .iter()
        .map(|item| match item {
            Item::Atom(a) => vector_cost(i64::from(a.dx), i64::from(a.dy)),
            Item::Pattern { vectors, .. } => {
                PATTERN_FACTOR
                    * vectors.iter().map(|&(x, y)| vector_cost(i64::from(x), i64::from(y))).product::<f64>()
            }
        })
        .product::<f64>()
        .min(crate::MAX_COMPLEXITY);
    Component::Pattern { pattern: word_text(items), null_move: false, complexity }
}
