//! Whole-program facts about a built [`Program`] that code generation needs: which automaton owns
//! each node, whether modifiers can repeat on one search path, the move length at each rules node,
//! which piece-location sets are worth maintaining, which nodes read board-derived state, and how
//! far each pattern node is from acceptance. Computed once by [`Analysis::new`]; each is a pure
//! function of the program (and of whether piece-location sets are maintained).

use crate::{AutomatonId, NodeId, Op, Program, NONE};

/// A node reachable from two automata. The builder never shares nodes between automata, so this
/// means a malformed program; generated code (one function per node and automaton) cannot
/// express it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SharedNode {
    pub node: NodeId,
    pub first: AutomatonId,
    pub second: AutomatonId,
}

impl core::fmt::Display for SharedNode {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "node {} belongs to automata {} and {}", self.node, self.first, self.second)
    }
}

impl std::error::Error for SharedNode {}

/// The facts about one program (see the module documentation). Indexed by node id.
#[derive(Clone, Debug)]
pub struct Analysis {
    owner: Vec<u32>,
    needs_guard: bool,
    path_len: Vec<Option<u32>>,
    tracked: Vec<u64>,
    reads_derived: Vec<bool>,
    accept_distance: Vec<u32>,
}

impl Analysis {
    /// Analyses `p`. `track_piece_sets`: whether the state will maintain the set of cells
    /// holding each fan filter's pieces (see [`Analysis::tracked_masks`]).
    pub fn new(p: &Program, track_piece_sets: bool) -> Result<Analysis, SharedNode> {
        let owner = owners(p)?;
        let path_len = path_lengths(p, &owner);
        let tracked = if track_piece_sets { tracked_masks(p) } else { Vec::new() };
        let mut a = Analysis {
            owner,
            needs_guard: needs_guard(p),
            path_len,
            tracked,
            reads_derived: Vec::new(),
            accept_distance: accept_distances(p),
        };
        a.reads_derived = reads_derived(p, &a, &[]);
        Ok(a)
    }

    /// Marks `readers` (nodes, or the start nodes of pattern automata) as reading state that
    /// the generated code derives from the board beyond this analysis's own (the compiler's
    /// piece words): they, and every node whose search can reach them before a switch, now
    /// [read derived state](Analysis::reads_derived).
    pub fn add_derived_readers(&mut self, p: &Program, readers: &[NodeId]) {
        self.reads_derived = reads_derived(p, self, readers);
    }

    /// The automaton node `n` belongs to (`None` if no automaton reaches it).
    pub fn owner(&self, n: NodeId) -> Option<AutomatonId> {
        Some(self.owner[n.index()]).filter(|&a| a != NONE).map(AutomatonId::new)
    }

    /// Whether node `n` belongs to a pattern automaton.
    pub fn is_pattern_node(&self, p: &Program, n: NodeId) -> bool {
        self.owner(n).is_some_and(|a| p.automaton(a).is_pattern)
    }

    /// Whether an edge applying an off or assignment lies on a cycle of the search graph (switch
    /// edges end the search, so they are not followed). Without such a cycle every search path
    /// applies each modifier edge at most once, so searches need no bound on modifiers.
    pub fn needs_guard(&self) -> bool {
        self.needs_guard
    }

    /// For a rules node: the number of actions on the move path whenever the search is there,
    /// if every path from a rules position gives the same number (`None`: it varies, or the
    /// node is not in the rules).
    pub fn path_len(&self, n: NodeId) -> Option<u32> {
        self.path_len[n.index()]
    }

    /// Piece masks whose cell sets the state maintains (design notes 6.2): the distinct
    /// filters of fans over every cell (empty when piece-location sets are off).
    pub fn tracked_masks(&self) -> &[u64] {
        &self.tracked
    }

    /// The piece-location set (an index into [`Analysis::tracked_masks`]) a fan node iterates
    /// instead of its row, if any.
    pub fn tracked_set(&self, p: &Program, n: NodeId) -> Option<usize> {
        let node = p.nodes[n.index()];
        if !node.is_fan() || !p.fan_tables[node.fan as usize].covers_all_vertices() {
            return None;
        }
        self.tracked.iter().position(|&m| m == node.filter)
    }

    /// Whether the search, from node `n` until it ends (a switch or a pattern's acceptance), may
    /// read state derived from the board: piece-location sets or piece counts.
    pub fn reads_derived(&self, n: NodeId) -> bool {
        self.reads_derived[n.index()]
    }

    /// Whether these ops read piece counts, or evaluate a pattern whose search may read
    /// board-derived state.
    pub fn ops_read_derived(&self, p: &Program, ops: &[Op]) -> bool {
        ops_read(p, &self.reads_derived, ops)
    }

    /// For a pattern node: the fewest edges to an accepting node (`None` if there is no path).
    pub fn accept_distance(&self, n: NodeId) -> Option<u32> {
        Some(self.accept_distance[n.index()]).filter(|&d| d != u32::MAX)
    }
}

fn owners(p: &Program) -> Result<Vec<u32>, SharedNode> {
    let mut owner = vec![NONE; p.nodes.len()];
    for (a, automaton) in p.automata.iter().enumerate() {
        for n in crate::analysis::reachable(p, automaton.start) {
            match owner[n as usize] {
                NONE => owner[n as usize] = a as u32,
                other => {
                    return Err(SharedNode {
                        node: NodeId::new(n),
                        first: AutomatonId::new(other),
                        second: AutomatonId::new(a as u32),
                    })
                }
            }
        }
    }
    Ok(owner)
}

fn needs_guard(p: &Program) -> bool {
    let successors = |n: u32| -> Vec<u32> {
        let node = p.nodes[n as usize];
        if node.is_fan() {
            return vec![node.next];
        }
        p.edges_of(n).iter().filter(|e| !p.ends_move(e)).map(|e| e.target).collect()
    };
    for (n, node) in p.nodes.iter().enumerate() {
        if node.is_fan() {
            continue;
        }
        for e in p.edges_of(n as u32).iter().filter(|e| e.modifies) {
            if p.ends_move(e) {
                continue;
            }
            // Is n reachable from the edge's target?
            let mut seen = vec![false; p.nodes.len()];
            let mut stack = vec![e.target];
            while let Some(m) = stack.pop() {
                if m == n as u32 {
                    return true;
                }
                if std::mem::replace(&mut seen[m as usize], true) {
                    continue;
                }
                stack.extend(successors(m));
            }
        }
    }
    false
}

fn path_lengths(p: &Program, owner: &[u32]) -> Vec<Option<u32>> {
    #[derive(Copy, Clone, PartialEq)]
    enum Len {
        Unknown,
        Known(u32),
        Varies,
    }
    let mut len = vec![Len::Unknown; p.nodes.len()];
    let mut work: Vec<(u32, Len)> = vec![(p.automata[0].start, Len::Known(0))];
    for e in &p.edges {
        if p.ends_move(e) && e.target != NONE {
            work.push((e.target, Len::Known(0)));
        }
    }
    while let Some((n, new)) = work.pop() {
        let slot = &mut len[n as usize];
        let merged = match (*slot, new) {
            (Len::Unknown, x) => x,
            (Len::Known(a), Len::Known(b)) if a == b => continue,
            (Len::Varies, _) => continue,
            _ => Len::Varies,
        };
        *slot = merged;
        let node = p.nodes[n as usize];
        if node.is_fan() {
            work.push((node.next, merged));
        }
        for e in p.edges_of(n) {
            let ops = p.edge_ops(e);
            if Op::ends_move(ops) {
                continue;
            }
            let added = ops.iter().filter(|op| op.is_modifier()).count() as u32;
            let next = match merged {
                Len::Known(k) => Len::Known(k + added),
                other => other,
            };
            work.push((e.target, next));
        }
    }
    len.iter()
        .zip(owner)
        .map(|(l, &a)| match l {
            Len::Known(k) if a == 0 => Some(*k),
            _ => None,
        })
        .collect()
}

fn ops_read(p: &Program, reads: &[bool], ops: &[Op]) -> bool {
    ops.iter().any(|op| match *op {
        Op::Pattern { automaton, .. } => reads[p.automaton(automaton).start().index()],
        Op::Compare { lhs, rhs, .. } => p.expr(lhs).reads_counts() || p.expr(rhs).reads_counts(),
        Op::Assign { expr, .. } => p.expr(expr).reads_counts(),
        _ => false,
    })
}

/// Fixpoint of [`Analysis::reads_derived`]: a node reads if it is a fan over a piece-location
/// set, one of `readers`, or an edge reads in its ops or continues (no switch) to a node that
/// reads.
fn reads_derived(p: &Program, a: &Analysis, readers: &[NodeId]) -> Vec<bool> {
    let mut reads = vec![false; p.nodes.len()];
    readers.iter().for_each(|n| reads[n.index()] = true);
    let mut changed = true;
    while changed {
        changed = false;
        for n in 0..p.nodes.len() {
            if reads[n] {
                continue;
            }
            let node = p.nodes[n];
            let now = a.tracked_set(p, NodeId::new(n as u32)).is_some()
                || (node.is_fan() && reads[node.next as usize])
                || p.edges_of(n as u32).iter().any(|e| {
                    let ops = p.edge_ops(e);
                    ops_read(p, &reads, ops) || (!Op::ends_move(ops) && reads[e.target as usize])
                });
            if now {
                reads[n] = true;
                changed = true;
            }
        }
    }
    reads
}

fn tracked_masks(p: &Program) -> Vec<u64> {
    let mut masks = Vec::new();
    for node in &p.nodes {
        let all = node.is_fan() && p.fan_tables[node.fan as usize].covers_all_vertices();
        if all && node.filter != u64::MAX && !masks.contains(&node.filter) {
            masks.push(node.filter);
        }
    }
    masks
}

/// Breadth-first distances to the accepting nodes, against the edges.
fn accept_distances(p: &Program) -> Vec<u32> {
    let mut preds: Vec<Vec<u32>> = vec![Vec::new(); p.nodes.len()];
    for (n, node) in p.nodes.iter().enumerate() {
        if node.is_fan() {
            preds[node.next as usize].push(n as u32);
        }
        p.edges_of(n as u32).iter().for_each(|e| preds[e.target as usize].push(n as u32));
    }
    let mut dist = vec![u32::MAX; p.nodes.len()];
    let mut queue: std::collections::VecDeque<u32> = Default::default();
    for (n, node) in p.nodes.iter().enumerate() {
        if node.accepting {
            dist[n] = 0;
            queue.push_back(n as u32);
        }
    }
    while let Some(n) = queue.pop_front() {
        for &m in &preds[n as usize] {
            if dist[m as usize] == u32::MAX {
                dist[m as usize] = dist[n as usize] + 1;
                queue.push_back(m);
            }
        }
    }
    dist
}
