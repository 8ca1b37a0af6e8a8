//! What the two MCTS agents share: UCB1 selection, the robust child, rerooting a tree kept
//! as one vector of nodes (children contiguous) plus one arena of actions (each node's move or
//! step is a stretch of it), and RAVE/GRAVE ([`Rave`]): all-moves-as-first statistics kept in
//! the children of every node, updated from an iteration's trail and blended into selection.

use std::collections::HashMap;

use rand::Rng;
use rbg_core::{Action, Player};

use crate::action_stats::TrailEntry;
use crate::agent::splitmix;

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
    pub fn children(&self) -> Option<(u32, u32)> {
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

/// A node's all-moves-as-first statistics (RAVE): the rewards of its mover in the iterations
/// through its parent in which that player made the node's move (for split-move MCTS: the
/// first action of its step), identified by `key`, at the parent or later.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Amaf {
    /// The hash of the move or action (0 when RAVE is off).
    pub key: u64,
    pub sum: f64,
    pub count: u32,
}

/// What a node's agent-specific part must offer for RAVE.
pub(crate) trait WithAmaf {
    fn amaf(&self) -> &Amaf;
    fn amaf_mut(&mut self) -> &mut Amaf;
}

impl WithAmaf for Amaf {
    fn amaf(&self) -> &Amaf {
        self
    }
    fn amaf_mut(&mut self) -> &mut Amaf {
        self
    }
}

/// The key of a (player, move or action hash) pair in the AMAF bookkeeping.
fn amaf_key(player: Player, hash: u64) -> u64 {
    hash ^ splitmix(player as u64)
}

/// RAVE and GRAVE, shared by both MCTS agents: the settings and the scratch of selection and
/// update. The tree's path is the list of node ids from the root an iteration went through;
/// its last node is the one being selected from.
#[derive(Clone, Debug)]
pub(crate) struct Rave {
    /// The equivalence parameter k of [`rave_value`] (0: RAVE off).
    pub k: f64,
    /// GRAVE's threshold: visits a path node needs to lend its children's AMAF statistics
    /// (0: plain RAVE, every node its own reference).
    pub grave_ref: u32,
    /// The last trail index of each (player, hash).
    last_seen: HashMap<u64, u32>,
    /// The reference node's AMAF statistics by key.
    by_key: HashMap<u64, (f64, u32)>,
    /// The AMAF statistics (sum, count) lent to each child of the node being selected from.
    reference: Vec<(f64, u32)>,
}

impl Rave {
    pub fn new(k: f64, grave_ref: u32) -> Self {
        Rave { k, grave_ref, last_seen: HashMap::new(), by_key: HashMap::new(), reference: Vec::new() }
    }

    pub fn enabled(&self) -> bool {
        self.k > 0.0
    }

    /// The child of the path's last node to descend to: the best [`rave_value`] plus UCB1's
    /// exploration term; a child is tried first, at random, only while neither it nor its
    /// AMAF statistics have been visited. `comparable(d)` says whether the path's `d`-th node
    /// may serve as GRAVE reference (see [`Rave::grave_reference`]).
    pub fn select<E: WithAmaf>(
        &mut self,
        nodes: &[Node<E>],
        path: &[u32],
        comparable: impl Fn(usize) -> bool,
        c: f64,
        rng: &mut impl Rng,
    ) -> u32 {
        let node = *path.last().expect("a path from the root");
        self.fill_reference(nodes, path, comparable);
        let (k, amaf) = (self.k, &self.reference);
        let untried = |i: usize, child: &Node<E>| child.visits == 0 && amaf[i].1 == 0;
        select_child_by(nodes, node, c, rng, untried, |i, child| {
            rave_value(child.mean(), child.visits, amaf[i], k)
        })
    }

    /// GRAVE's reference for the path's last node: the nearest node of the path, itself
    /// included, that `comparable` admits, with the same player to move and at least
    /// `grave_ref` visits; the last node if there is none.
    pub fn grave_reference<E>(
        &self,
        nodes: &[Node<E>],
        path: &[u32],
        comparable: impl Fn(usize) -> bool,
    ) -> u32 {
        let node = *path.last().expect("a path from the root");
        let to_move = |n: u32| {
            let n = &nodes[n as usize];
            n.children().map(|(first, _)| nodes[first as usize].mover)
        };
        let player = to_move(node);
        let qualifies = |&(d, &a): &(usize, &u32)| {
            comparable(d) && nodes[a as usize].visits >= self.grave_ref && to_move(a) == player
        };
        path.iter().enumerate().rev().find(qualifies).map_or(node, |(_, &a)| a)
    }

    /// Sets `reference` to the AMAF statistics of each child of the path's last node, taken
    /// from its GRAVE reference (by key; a key the reference's children lack has none).
    fn fill_reference<E: WithAmaf>(
        &mut self,
        nodes: &[Node<E>],
        path: &[u32],
        comparable: impl Fn(usize) -> bool,
    ) {
        let node = *path.last().expect("a path from the root");
        let reference = self.grave_reference(nodes, path, comparable);
        let children = |n: u32| {
            let (first, count) = nodes[n as usize].children().unwrap_or((0, 0));
            first as usize..(first + count) as usize
        };
        self.reference.clear();
        let stats = |c: &Node<E>| (c.extra.amaf().sum, c.extra.amaf().count);
        if reference == node {
            self.reference.extend(nodes[children(node)].iter().map(stats));
            return;
        }
        self.by_key.clear();
        for c in &nodes[children(reference)] {
            self.by_key.insert(c.extra.amaf().key, stats(c));
        }
        let by_key = &self.by_key;
        let lent = nodes[children(node)]
            .iter()
            .map(|c| by_key.get(&c.extra.amaf().key).copied().unwrap_or((0.0, 0)));
        self.reference.extend(lent);
    }

    /// RAVE's update after an iteration: every child of a path node whose key its mover
    /// played at that node or later adds that mover's reward (`rewards[p - 1]`) to its AMAF
    /// statistics. `trail` holds the iteration's moves or actions in order; the ones made at
    /// the path's `d`-th node or later are `trail[mark(d)..]`.
    pub fn update<E: WithAmaf>(
        &mut self,
        nodes: &mut [Node<E>],
        path: &[u32],
        mark: impl Fn(usize) -> usize,
        trail: &[TrailEntry],
        rewards: &[f64],
    ) {
        self.last_seen.clear();
        for (i, &(player, hash)) in trail.iter().enumerate() {
            self.last_seen.insert(amaf_key(player, hash), i as u32);
        }
        for (depth, &id) in path.iter().enumerate() {
            let Some((first, count)) = nodes[id as usize].children() else { continue };
            for child in &mut nodes[first as usize..(first + count) as usize] {
                let key = amaf_key(child.mover, child.extra.amaf().key);
                if self.last_seen.get(&key).is_some_and(|&i| i as usize >= mark(depth)) {
                    let amaf = child.extra.amaf_mut();
                    amaf.sum += rewards[child.mover as usize - 1];
                    amaf.count += 1;
                }
            }
        }
    }
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
        } else {
            // Nothing of the old numbering may survive: an empty range points at the start.
            kept[i].first_child = 0;
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

    fn node(mover: Player, key: u64) -> Node<Amaf> {
        Node::new(mover, 0, 0, Amaf { key, ..Amaf::default() })
    }

    fn link(nodes: &mut [Node<Amaf>], parent: usize, first: u32, count: u32) {
        (nodes[parent].expanded, nodes[parent].first_child, nodes[parent].num_children) =
            (true, first, count);
    }

    fn amaf(nodes: &[Node<Amaf>]) -> Vec<(f64, u32)> {
        nodes[1..].iter().map(|n| (n.extra.sum, n.extra.count)).collect()
    }

    /// RAVE's update on a tree built by hand: the root has children A and B (player 1's
    /// moves), A has children C and D (player 2's). The iteration went root → A, then D and B
    /// were played, D and B by player 2; player 1 scored 1, player 2 0. AMAF: A (played by its
    /// mover at depth 0) gets 1 over 1; B gets nothing (only player 2 played it); below A, D
    /// gets player 2's reward 0 over 1, C nothing.
    #[test]
    fn amaf_statistics_update_as_derived_by_hand() {
        let (a, b, c, d) = (10, 20, 30, 40);
        let mut nodes = vec![node(0, 0), node(1, a), node(1, b), node(2, c), node(2, d)];
        link(&mut nodes, 0, 1, 2);
        link(&mut nodes, 1, 3, 2);
        let mut rave = Rave::new(100.0, 0);
        let trail = [(1, a), (2, d), (2, b)];
        rave.update(&mut nodes, &[0, 1], |d| d, &trail, &[1.0, 0.0]);
        assert_eq!(amaf(&nodes), vec![(1.0, 1), (0.0, 0), (0.0, 0), (0.0, 1)]);
        // GRAVE, threshold 5: C gets children E (the same move as A) and F, player 1's. At C
        // (1 visit) the nearest ancestor with player 1 to move and 5 visits is the root, so E
        // borrows A's AMAF statistics and F, unknown at the root, has none.
        nodes.extend([node(1, a), node(1, 99)]);
        link(&mut nodes, 3, 5, 2);
        rave.grave_ref = 5;
        (nodes[0].visits, nodes[1].visits, nodes[3].visits) = (10, 6, 1);
        let path = [0, 1, 3];
        assert_eq!(rave.grave_reference(&nodes, &path, |_| true), 0);
        rave.fill_reference(&nodes, &path, |_| true);
        assert_eq!(rave.reference, vec![(1.0, 1), (0.0, 0)]);
        // A path node the caller rules out is skipped: C is then its own reference.
        assert_eq!(rave.grave_reference(&nodes, &path, |d| d != 0), 3);
        // With threshold 0 (plain RAVE) every node is its own reference.
        rave.grave_ref = 0;
        assert_eq!(rave.grave_reference(&nodes, &path, |_| true), 3);
    }

    /// Marks let one path node cover several trail entries (split-move MCTS: a step of
    /// several actions, or a move of several steps). Path root → X, X's step made trail
    /// entries 0 and 1 (a, b), the playout entry 2 (c), all by player 1, who scored 0.5. At
    /// the root (mark 0) children keyed a and c are credited; at X (mark 2) only c counts,
    /// so X's child keyed b gets nothing though b was played earlier in the iteration.
    #[test]
    fn marks_say_where_each_path_node_begins_in_the_trail() {
        let (a, b, c) = (1, 2, 3);
        let mut nodes = vec![node(0, 0), node(1, a), node(1, c), node(1, b), node(1, c)];
        link(&mut nodes, 0, 1, 2);
        link(&mut nodes, 1, 3, 2);
        let marks = [0, 2];
        let mut rave = Rave::new(1.0, 0);
        rave.update(&mut nodes, &[0, 1], |d| marks[d], &[(1, a), (1, b), (1, c)], &[0.5]);
        assert_eq!(amaf(&nodes), vec![(0.5, 1), (0.5, 1), (0.0, 0), (0.5, 1)]);
    }
}
