//! English sentences from components (the paper's "repairing run": descriptions that differ
//! only in their class are joined, so "leaps 1 horizontally", "leaps 1 vertically" and "leaps
//! 1 diagonally" become "leaps 1 in every direction").
//!
//! A sentence is a list of alternatives joined by "or"; an alternative is parts joined by "and
//! then". Components whose parts before the last read the same and whose last parts differ
//! only in their class are one alternative, listing the classes. Directions and vectors are
//! named in the order the rule first uses them, so the description follows its author's
//! notation ("(3,2)/(2,3)" when the rule writes `(3,2,..)` first).

use crate::classes::{Class, ClassKind, Operator};
use crate::decompose::{Component, PartDescription};

/// The sentence for a piece's components, capitalised, without a final stop.
pub fn sentence(components: &[Component]) -> String {
    let mut alternatives: Vec<Alternative> = Vec::new();
    let mut patterns = Vec::new();
    for component in components {
        match component {
            Component::Classes { parts, .. } => add_alternative(&mut alternatives, parts),
            Component::Pattern { pattern, null_move: true, .. }
                if pattern.is_empty() || pattern == "(0,0,w)" =>
            {
                patterns.push("stays in place".into())
            }
            Component::Pattern { pattern, null_move: true, .. } => {
                patterns.push(format!("stays in place after the steps {pattern}"))
            }
            Component::Pattern { pattern, .. } => patterns.push(format!("moves by the pattern {pattern}")),
        }
    }
    let mut texts: Vec<String> = alternatives.iter().map(Alternative::text).collect();
    texts.extend(patterns);
    texts.dedup();
    capitalise(&if texts.is_empty() { "cannot move".to_string() } else { texts.join(" or ") })
}

fn capitalise(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// Components sharing the text of their first parts and the operators of the last one.
struct Alternative {
    prefix: Vec<String>,
    kind: ClassKind,
    operators: Vec<Operator>,
    /// The last part's classes, in order of first use.
    classes: Vec<Class>,
}

impl Alternative {
    fn text(&self) -> String {
        let mut parts = self.prefix.clone();
        parts.push(part_text(self.kind, &self.operators, &self.classes, true));
        parts.join(" and then ")
    }
}

fn add_alternative(alternatives: &mut Vec<Alternative>, parts: &[PartDescription]) {
    let Some((last, first)) = parts.split_last() else { return };
    let prefix: Vec<String> =
        first.iter().map(|p| part_text(p.class.kind, &p.operators, &[p.class], false)).collect();
    let mut operators = last.operators.clone();
    operators.sort();
    let same =
        |a: &&mut Alternative| a.prefix == prefix && a.kind == last.class.kind && a.operators == operators;
    match alternatives.iter_mut().find(same) {
        Some(a) if !a.classes.contains(&last.class) => a.classes.push(last.class),
        Some(_) => {}
        None => alternatives.push(Alternative {
            prefix,
            kind: last.class.kind,
            operators,
            classes: vec![last.class],
        }),
    }
}

/// "verb [end] [steps] [riding over] [relative direction] directions [end onto]".
fn part_text(kind: ClassKind, operators: &[Operator], classes: &[Class], last: bool) -> String {
    let has = |op: &Operator| operators.contains(op);
    let riding_over: Vec<String> = operators.iter().filter_map(riding_over_text).collect();
    let mut verb = verb(kind, operators, last);
    if !riding_over.is_empty() && verb == "rides only capturing" {
        // A grammar fix of the repairing run: "rides capturing but riding only over ...".
        verb = "rides capturing but".into();
    }
    let mut words: Vec<String> = vec![verb];
    words.extend(steps_text(operators));
    words.extend(riding_over);
    for (op, text) in
        [(Operator::Outwards, "outwards"), (Operator::Inwards, "inwards"), (Operator::Sideways, "sideways")]
    {
        if has(&op) {
            words.push(text.into());
        }
    }
    let leaper = kind == ClassKind::Leaper && !has(&Operator::Hopping);
    words.push(directions_text(classes, leaper, &absolute_text(operators)));
    if !last {
        if let Some(Operator::Ends { on }) = operators.iter().find(|o| matches!(o, Operator::Ends { .. })) {
            words.push(format!("onto {}", contents_text(on)));
        }
    }
    words.retain(|w| !w.is_empty());
    words.join(" ")
}

/// The verb with the end condition it carries ("moves", "captures", "rides only capturing").
fn verb(kind: ClassKind, operators: &[Operator], last: bool) -> String {
    let end = operators
        .iter()
        .find(|o| matches!(o, Operator::WithoutCapturing | Operator::OnlyCapturing | Operator::Ends { .. }));
    let hopping = operators.contains(&Operator::Hopping);
    let leaper = kind == ClassKind::Leaper && !hopping;
    let base = if hopping {
        hop_verb(operators)
    } else if leaper {
        match end {
            Some(Operator::WithoutCapturing) => return "moves".into(),
            Some(Operator::OnlyCapturing) => return "captures".into(),
            Some(Operator::Ends { on }) if last => return leaper_end_verb(on),
            _ => "leaps".to_string(),
        }
    } else {
        "rides".to_string()
    };
    let modifier = match end {
        Some(Operator::WithoutCapturing) => " without capturing".to_string(),
        Some(Operator::OnlyCapturing) => " only capturing".to_string(),
        Some(Operator::Ends { on }) if last => format!(" {}", rider_end_text(on)),
        _ => String::new(),
    };
    base + &modifier
}

fn leaper_end_verb(on: &[char]) -> String {
    match on {
        ['w'] => "captures own".into(),
        ['p', 'w'] => "captures a piece of either side".into(),
        ['e', 'w'] => "moves or captures own".into(),
        _ => "moves or captures a piece of either side".into(),
    }
}

fn rider_end_text(on: &[char]) -> &'static str {
    match on {
        ['w'] => "capturing own pieces only",
        ['p', 'w'] => "only capturing, pieces of either side",
        ['e', 'w'] => "capturing own pieces, not the opponent's",
        _ => "also capturing own pieces",
    }
}

fn contents_text(on: &[char]) -> &'static str {
    match on {
        ['p'] => "an opponent's piece",
        ['w'] => "an own piece",
        ['p', 'w'] => "a piece",
        ['e', 'p'] => "an empty square or an opponent's piece",
        ['e', 'w'] => "an empty square or an own piece",
        _ => "any square",
    }
}

fn hop_verb(operators: &[Operator]) -> String {
    let hurdle = operators.iter().find_map(|o| match o {
        Operator::Hurdle { on } if on.as_slice() == ['w'] => Some("own "),
        Operator::Hurdle { .. } => Some("opponent's "),
        _ => None,
    });
    let approach = operators.iter().find_map(|o| match o {
        Operator::Approach { min, max } => Some((*min, *max)),
        _ => None,
    });
    // "an adjacent", "an own", "an opponent's", otherwise "a piece".
    let article = match (hurdle, approach) {
        (None, Some((0, Some(0)))) | (Some(_), _) => "an ",
        (None, _) => "a ",
    };
    let adjacent = if approach == Some((0, Some(0))) { "adjacent " } else { "" };
    let mut text = format!("hops over {article}{adjacent}{}piece", hurdle.unwrap_or(""));
    match approach {
        None | Some((0, Some(0))) => {}
        Some((min, Some(max))) if min == max => text += &format!(" after {min} empty squares"),
        Some((min, Some(max))) => text += &format!(" after {min} to {max} empty squares"),
        Some((min, None)) => text += &format!(" after at least {min} empty squares"),
    }
    text
}

fn steps_text(operators: &[Operator]) -> Option<String> {
    let min = operators.iter().find_map(|o| match o {
        Operator::Minimum { steps } => Some(*steps),
        _ => None,
    });
    let max = operators.iter().find_map(|o| match o {
        Operator::Maximum { steps } => Some(*steps),
        _ => None,
    });
    let exactly = operators.iter().find_map(|o| match o {
        Operator::Exactly { steps } => Some(*steps),
        _ => None,
    });
    match (min, max, exactly) {
        (_, _, Some(n)) => Some(format!("exactly {n} times")),
        (Some(a), Some(b), _) => Some(format!("a minimum of {a} and a maximum of {b} times")),
        (Some(a), None, _) => Some(format!("a minimum of {a} times")),
        (None, Some(b), _) => Some(format!("a maximum of {b} times")),
        (None, None, None) => None,
    }
}

fn riding_over_text(op: &Operator) -> Option<String> {
    let Operator::RidingOver { on } = op else { return None };
    Some(
        match on.as_slice() {
            ['p'] => "riding only over opponent's pieces",
            ['w'] => "riding only over own pieces",
            ['p', 'w'] => "riding only over pieces",
            ['e', 'p'] => "riding over empty squares or opponent's pieces",
            ['e', 'w'] => "riding over empty squares or own pieces",
            _ => "riding over any squares",
        }
        .to_string(),
    )
}

/// "forward", "backward to the left", ... or empty.
fn absolute_text(operators: &[Operator]) -> String {
    let words: Vec<&str> = operators
        .iter()
        .filter_map(|o| match o {
            Operator::Forwards => Some("forward"),
            Operator::Backwards => Some("backward"),
            Operator::Leftwards => Some("to the left"),
            Operator::Rightwards => Some("to the right"),
            _ => None,
        })
        .collect();
    words.join(" ")
}

/// One named item of a direction list.
enum DirectionItem {
    /// Orthogonal and diagonal lines at one distance: their words in order of first use.
    Lines { distance: u32, words: Vec<&'static str> },
    /// A vector and possibly its mirror image, in order of first use.
    Vector(Vec<(u32, u32)>),
    /// The null vector.
    InPlace,
}

fn line_word(class: &Class) -> Option<(u32, &'static str)> {
    match (class.x, class.y) {
        (0, 0) => None,
        (x, 0) => Some((x, "horizontally")),
        (0, y) => Some((y, "vertically")),
        (x, y) if x == y => Some((x, "diagonally")),
        _ => None,
    }
}

fn direction_items(classes: &[Class]) -> Vec<DirectionItem> {
    let mut items: Vec<DirectionItem> = Vec::new();
    for class in classes {
        if (class.x, class.y) == (0, 0) {
            items.push(DirectionItem::InPlace);
        } else if let Some((distance, word)) = line_word(class) {
            let found = items.iter_mut().find_map(|i| match i {
                DirectionItem::Lines { distance: d, words } if *d == distance => Some(words),
                _ => None,
            });
            match found {
                Some(words) if !words.contains(&word) => words.push(word),
                Some(_) => {}
                None => items.push(DirectionItem::Lines { distance, words: vec![word] }),
            }
        } else {
            let mirror = (class.y, class.x);
            let found = items.iter_mut().find_map(|i| match i {
                DirectionItem::Vector(vs) if vs.contains(&mirror) => Some(vs),
                _ => None,
            });
            match found {
                Some(vs) => vs.push((class.x, class.y)),
                None => items.push(DirectionItem::Vector(vec![(class.x, class.y)])),
            }
        }
    }
    items
}

fn directions_text(classes: &[Class], leaper: bool, absolute: &str) -> String {
    let mut texts = Vec::new();
    let mut previous_was_vector = false;
    for item in direction_items(classes) {
        let text = match item {
            DirectionItem::InPlace => {
                previous_was_vector = false;
                "in place".to_string()
            }
            DirectionItem::Lines { distance, words } => {
                previous_was_vector = false;
                let every = words.len() == 3;
                let lines = if every { "in every direction".to_string() } else { words.join(" or ") };
                let distance = match (leaper, distance) {
                    (true, d) => format!("{d} "),
                    (false, 1) => String::new(),
                    (false, d) => format!("by {d} "),
                };
                let absolute = if absolute.is_empty() { String::new() } else { format!(" {absolute}") };
                format!("{distance}{lines}{absolute}")
            }
            DirectionItem::Vector(vs) => {
                let names: Vec<String> = vs.iter().map(|(x, y)| format!("({x},{y})")).collect();
                let names = names.join("/");
                let text = if previous_was_vector {
                    names
                } else if absolute.is_empty() {
                    format!("over vector {names}")
                } else {
                    format!("{absolute} over vector {names}")
                };
                previous_was_vector = true;
                text
            }
        };
        texts.push(text);
    }
    texts.join(" or ")
}
