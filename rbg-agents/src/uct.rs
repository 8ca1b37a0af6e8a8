//! What the two MCTS agents share: UCB1 selection, the robust child, and rerooting a tree kept
//! as one vector of nodes (children contiguous) plus one arena of actions (each node's move or
//! step is a stretch of it).

use rand::Rng;
use rbg_core::{Action, Player};

/// A tree node: its links, its statistics and its stretch of the action arena (the move, or for
/// split-move MCTS the step, leading to it), plus what one agent adds (`E`).
#[derive(Clone, Debug)]
pub(crate) struct Node<E> {
    pub first_child: u32,
    pub num_children: u32,
    pub expanded: bool,
    /// The game is over at this node (no legal move, or the keeper is stuck).
    pub terminal: bool,
    pub visits: u32,
    /// Sum of the rewards of `mover` over the visits.
    pub reward: f64,
    /// The player who made the move or step leading here (0 for the root).
    pub mover: Player,
    /// The node's actions: `actions_start..actions_start + actions_len` of the arena.
    pub actions_start: u32,
    pub actions_len: u32,
    pub extra: E,
}

impl<E> Node<E> {
    /// An unexpanded, unvisited node.
    pub fn new(mover: Player, actions_start: u32, actions_len: u32, extra: E) -> Self {
        Node {
            first_child: 0,
            num_children: 0,
            expanded: false,
            terminal: false,
            visits: 0,
            reward: 0.0,
            mover,
            actions_start,
            actions_len,
            extra,
        }
    }

    /// Mean reward of the node's mover over its visits (0 before the first).
    pub fn mean(&self) -> f64 {
        if self.visits == 0 {
            0.0
        } else {
            self.reward / self.visits as f64
        }
    }

    /// The children `first..first + count`, if the node was expanded and has any.
    fn children(&self) -> Option<(u32, u32)> {
        (self.expanded && self.num_children > 0).then_some((self.first_child, self.num_children))
    }
}

/// The child of `parent` to descend to: a uniformly random unvisited child if there is one,
/// else the one with the best UCB1 score with exploration constant `c`.
pub(crate) fn select_child<E>(nodes: &[Node<E>], parent: u32, c: f64, rng: &mut impl Rng) -> u32 {
    select_child_by(nodes, parent, c, rng, |_, child| child.visits == 0, |_, child| child.mean())
}

/// [`select_child`] generalised: a uniformly random child among those `untried(i, child)`
/// holds for (the `i`-th child), if any; else the best score `value(i, child)` plus
/// `c * sqrt(ln(parent visits) / child visits)`, an unvisited child counting one visit (RAVE
/// values a child by its all-moves-as-first statistics before its first visit).
pub(crate) fn select_child_by<E>(
    nodes: &[Node<E>],
    parent: u32,
    c: f64,
    rng: &mut impl Rng,
    untried: impl Fn(usize, &Node<E>) -> bool,
    mut value: impl FnMut(usize, &Node<E>) -> f64,
) -> u32 {
    let p = &nodes[parent as usize];
    let (first, count) = p.children().unwrap_or((0, 0));
    let children = &nodes[first as usize..(first + count) as usize];
    let untried_count = children.iter().enumerate().filter(|&(i, c)| untried(i, c)).count() as u32;
    if untried_count > 0 {
        let k = rng.gen_range(0..untried_count) as usize;
        let i = children.iter().enumerate().filter(|&(i, c)| untried(i, c)).nth(k).map_or(0, |(i, _)| i);
        return first + i as u32;
    }
    let log_parent = (p.visits.max(1) as f64).ln();
    let mut best = first;
    let mut best_score = f64::NEG_INFINITY;
    for (i, child) in children.iter().enumerate() {
        let score = value(i, child) + c * (log_parent / child.visits.max(1) as f64).sqrt();
        if score > best_score {
            best_score = score;
            best = first + i as u32;
        }
    }
    best
}

/// RAVE's value of a child with mean `mean` over `visits` visits and all-moves-as-first
/// statistics `amaf` (sum, count): `(1 - b) * mean + b * amaf mean` with
/// `b = sqrt(k / (3 * visits + k))` (Gelly and Silver's schedule; `k` is the equivalence
/// parameter: at `k` visits both weigh the same, `b = 1/2`). Without AMAF statistics, the mean.
pub(crate) fn rave_value(mean: f64, visits: u32, amaf: (f64, u32), k: f64) -> f64 {
    if amaf.1 == 0 {
        return mean;
    }
    let beta = (k / (3.0 * visits as f64 + k)).sqrt();
    (1.0 - beta) * mean + beta * amaf.0 / amaf.1 as f64
}

/// The robust child of `parent`: the most visited, ties broken by the better mean, then by the
/// first in order.
pub(crate) fn robust_child<E>(nodes: &[Node<E>], parent: u32) -> u32 {
    let (first, count) = nodes[parent as usize].children().unwrap_or((0, 0));
    let mut best = first;
    for c in first..first + count {
        let (cand, b) = (&nodes[c as usize], &nodes[best as usize]);
        if cand.visits > b.visits || (cand.visits == b.visits && cand.mean() > b.mean()) {
            best = c;
        }
    }
    best
}

/// Makes `new_root` the root (node 0), keeping only its subtree, breadth first so that every
/// node's children stay contiguous; the action arena is rebuilt with it.
pub(crate) fn reroot<E: Clone>(nodes: &mut Vec<Node<E>>, actions: &mut Vec<Action>, new_root: u32) {
    let mut kept = Vec::new();
    let mut kept_actions = Vec::new();
    let mut old_ids = vec![new_root];
    let mut root = nodes[new_root as usize].clone();
    (root.actions_start, root.actions_len) = (0, 0);
    kept.push(root);
    let mut i = 0;
    while i < kept.len() {
        if let Some((first, count)) = nodes[old_ids[i] as usize].children() {
            let new_first = kept.len() as u32;
            for c in first..first + count {
                let mut copy = nodes[c as usize].clone();
                let (start, len) = (copy.actions_start as usize, copy.actions_len as usize);
                copy.actions_start = kept_actions.len() as u32;
                kept_actions.extend_from_slice(&actions[start..start + len]);
                kept.push(copy);
                old_ids.push(c);
            }
            kept[i].first_child = new_first;
        }
        i += 1;
    }
    *nodes = kept;
    *actions = kept_actions;
}

#[cfg(test)]
mod tests {
    use super::*;

    /// RAVE by hand: mean 0.5 over 10 visits, AMAF 30 over 40 (0.75), k = 30:
    /// b = sqrt(30 / 60) = 0.7071..., value = 0.5 + b * 0.25 = 0.6767...
    #[test]
    fn rave_blends_by_the_equivalence_schedule() {
        let value = rave_value(0.5, 10, (30.0, 40), 30.0);
        assert!((value - (0.5 + 0.25 * 0.5f64.sqrt())).abs() < 1e-12, "{value}");
        // Without AMAF statistics the mean is used; with k = 0 the AMAF weighs nothing.
        assert_eq!(rave_value(0.5, 10, (0.0, 0), 30.0), 0.5);
        assert_eq!(rave_value(0.5, 10, (30.0, 40), 0.0), 0.5);
        // Before any visit the AMAF mean is the whole value (b = 1).
        assert_eq!(rave_value(0.0, 0, (3.0, 4), 250.0), 0.75);
    }
}
