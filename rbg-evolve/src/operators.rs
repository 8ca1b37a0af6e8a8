//! The genetic operators (paper, section III.C): crossover and adaptive mutation.
//!
//! * Crossover makes two offspring: a two-point crossover on board columns (the columns between
//!   the two points come from the other parent), and a uniform crossover on piece rules (each
//!   type's rule from either parent) and on winning conditions (the i-th conditions of the two
//!   parents go one to each child, in random order; where only one parent has an i-th
//!   condition, it goes to a random child).
//! * Mutation, with `s` the sum of the board's dimensions: with probability `1/s` the rules or
//!   the conditions (evenly), otherwise the initial position (one square gets a new content,
//!   different from the old: empty or a random piece, white on the lower half, black on the
//!   upper). Rules: three options, weighted by `R / R_max` (redraw the rule of the least useful
//!   piece type), by `1 - C` (redraw the rule of a type drawn by a roulette wheel on rule sizes)
//!   and by the constant [`SWAP_WEIGHT`] (swap the rules of two types of one class).
//!   Conditions: with the constant weight [`SYMMETRIC_WEIGHT`] both sides gain or lose a
//!   condition; with weight `(|B_M| + |B_R|) / 2` only one side's conditions change towards
//!   balance: the side favoured by `B_M + B_R` loses one, or the other side gains one.

use rand::Rng as _;

use crate::blocks::{rule_size, weighted, BlockPools};
use crate::config::EvolveConfig;
use crate::fitness::Features;
use crate::genome::{random_condition, Condition, Genome, Placed, Side};
use crate::seeds::Rng;

/// Weight of swapping the rules of two piece types of one class.
pub const SWAP_WEIGHT: f64 = 0.25;
/// Weight of changing both sides' conditions alike.
pub const SYMMETRIC_WEIGHT: f64 = 0.3;

/// Two offspring of `a` and `b` (same board size).
pub fn crossover(a: &Genome, b: &Genome, rng: &mut Rng) -> (Genome, Genome) {
    let (mut first, mut second) = (a.clone(), b.clone());
    let width = a.width.min(b.width);
    let mut points = [rng.gen_range(0..=width), rng.gen_range(0..=width)];
    points.sort_unstable();
    for y in 0..a.height.min(b.height) {
        for x in points[0]..points[1] {
            first.set_cell(x, y, b.cell(x, y));
            second.set_cell(x, y, a.cell(x, y));
        }
    }
    for kind in 0..a.rules.len().min(b.rules.len()) {
        if rng.gen_bool(0.5) {
            first.rules[kind] = b.rules[kind].clone();
            second.rules[kind] = a.rules[kind].clone();
        }
    }
    first.conditions.clear();
    second.conditions.clear();
    for i in 0..a.conditions.len().max(b.conditions.len()) {
        let pair = [a.conditions.get(i), b.conditions.get(i)];
        let (to_first, to_second) = if rng.gen_bool(0.5) { (pair[0], pair[1]) } else { (pair[1], pair[0]) };
        match (to_first, to_second) {
            (Some(&c), Some(&d)) => {
                first.add_condition(c);
                second.add_condition(d);
            }
            (Some(&c), None) | (None, Some(&c)) => {
                if rng.gen_bool(0.5) {
                    first.add_condition(c);
                } else {
                    second.add_condition(c);
                }
            }
            (None, None) => {}
        }
    }
    (first, second)
}

/// What a mutation changed.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Mutation {
    Square,
    LeastUsefulRule,
    RouletteRule,
    SwapRules,
    BothSidesConditions,
    OneSideConditions,
}

/// A mutant of `genome`, guided by its `features` (see the module documentation).
pub fn mutate(
    genome: &Genome,
    features: &Features,
    config: &EvolveConfig,
    pools: &BlockPools,
    rng: &mut Rng,
) -> (Genome, Mutation) {
    let mut mutant = genome.clone();
    let s = f64::from(genome.width + genome.height);
    let kind = if rng.gen_bool(1.0 / s) {
        if rng.gen_bool(0.5) {
            mutate_rules(&mut mutant, features, config, pools, rng)
        } else {
            mutate_conditions(&mut mutant, features, config, rng)
        }
    } else {
        mutate_square(&mut mutant, config, rng);
        Mutation::Square
    };
    (mutant, kind)
}

/// Gives one square a new content (see the module documentation).
pub fn mutate_square(genome: &mut Genome, config: &EvolveConfig, rng: &mut Rng) {
    let (x, y) = (rng.gen_range(0..genome.width), rng.gen_range(0..genome.height));
    let side = if y < genome.height / 2 { Side::White } else { Side::Black };
    let old = genome.cell(x, y);
    let kinds = config.kinds() as usize;
    loop {
        let draw = rng.gen_range(0..=kinds);
        let new = (draw < kinds).then_some(Placed { side, kind: draw });
        if new != old {
            genome.set_cell(x, y, new);
            return;
        }
    }
}

fn mutate_rules(
    genome: &mut Genome,
    features: &Features,
    config: &EvolveConfig,
    pools: &BlockPools,
    rng: &mut Rng,
) -> Mutation {
    let kinds = genome.rules.len();
    let max_r = if kinds > 1 { 1.0 - 1.0 / kinds as f64 } else { 1.0 };
    let swappable: Vec<Vec<usize>> =
        crate::blocks::PieceClass::ALL.iter().map(|&c| config.kinds_of(c)).filter(|k| k.len() >= 2).collect();
    let weights = [
        (features.r / max_r).clamp(0.0, 1.0),
        (1.0 - features.c).clamp(0.0, 1.0),
        if swappable.is_empty() { 0.0 } else { SWAP_WEIGHT },
    ];
    let option = if weights.iter().sum::<f64>() > 0.0 { weighted(rng, &weights) } else { 1 };
    match option {
        0 => {
            let kind = least_useful_kind(features, config, kinds);
            genome.rules[kind] = pools.random_rule(rng, config.class_of(kind));
            Mutation::LeastUsefulRule
        }
        2 => {
            let class = &swappable[rng.gen_range(0..swappable.len())];
            let i = rng.gen_range(0..class.len());
            let j = (i + rng.gen_range(1..class.len())) % class.len();
            genome.rules.swap(class[i], class[j]);
            Mutation::SwapRules
        }
        _ => {
            let sizes: Vec<f64> = genome.rules.iter().map(|r| rule_size(r) as f64 + 1.0).collect();
            let kind = weighted(rng, &sizes);
            genome.rules[kind] = pools.random_rule(rng, config.class_of(kind));
            Mutation::RouletteRule
        }
    }
}

/// The piece type with the lowest usefulness (the first such; type 0 without statistics).
fn least_useful_kind(features: &Features, config: &EvolveConfig, kinds: usize) -> usize {
    let usefulness_of = |kind: usize| {
        let letter = config.letter(kind) as char;
        features.usefulness.iter().find(|(l, _)| *l == letter).map_or(0.0, |(_, u)| *u)
    };
    (0..kinds).min_by(|&a, &b| usefulness_of(a).total_cmp(&usefulness_of(b))).unwrap_or(0)
}

fn mutate_conditions(
    genome: &mut Genome,
    features: &Features,
    config: &EvolveConfig,
    rng: &mut Rng,
) -> Mutation {
    let one_side_weight = (features.b_m.abs() + features.b_r.abs()) / 2.0;
    if rng.gen::<f64>() * (SYMMETRIC_WEIGHT + one_side_weight) < SYMMETRIC_WEIGHT {
        let remove = !genome.conditions.is_empty() && rng.gen_bool(0.5);
        if remove {
            let c = genome.conditions[rng.gen_range(0..genome.conditions.len())];
            genome.conditions.retain(|&d| d != c && d != c.mirrored());
        } else {
            let side = if rng.gen_bool(0.5) { Side::White } else { Side::Black };
            add_new_condition(genome, config, rng, side, true);
        }
        Mutation::BothSidesConditions
    } else {
        let balance = features.b_m + features.b_r;
        let favoured = if balance > 0.0 {
            Side::White
        } else if balance < 0.0 {
            Side::Black
        } else if rng.gen_bool(0.5) {
            Side::White
        } else {
            Side::Black
        };
        let favoured_conditions: Vec<Condition> =
            genome.conditions.iter().copied().filter(|c| c.side == favoured).collect();
        if !favoured_conditions.is_empty() && rng.gen_bool(0.5) {
            let c = favoured_conditions[rng.gen_range(0..favoured_conditions.len())];
            genome.conditions.retain(|&d| d != c);
        } else {
            add_new_condition(genome, config, rng, favoured.opponent(), false);
        }
        Mutation::OneSideConditions
    }
}

/// Adds a condition for `side` (and its mirror when `both`) that the genome does not have yet,
/// trying a few draws.
fn add_new_condition(genome: &mut Genome, config: &EvolveConfig, rng: &mut Rng, side: Side, both: bool) {
    for _ in 0..16 {
        let c = random_condition(genome, config, rng, side);
        let added = genome.add_condition(c);
        let mirrored = both && genome.add_condition(c.mirrored());
        if added || mirrored {
            return;
        }
    }
}
