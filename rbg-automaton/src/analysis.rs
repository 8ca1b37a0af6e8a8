//! Static analyses on the finished program graph.
//!
//! # Visited-check elimination (design notes 2.5/2.6)
//!
//! Within one modifier layer the search state differs only in (node, vertex), so a visited check
//! at node `n` is needed only if `n` can be entered twice at the same vertex in one layer. Every
//! layer begins at a *starter* — an automaton start, or the target of an edge that applies a
//! modifier (switch targets included) — at some vertex. From every starter and every vertex we
//! walk the static product graph: shifts and tables follow the board, precomputed sets filter,
//! every other test is assumed to pass, edges with a modifier end the layer and are not
//! followed. A node reached twice in one walk gets a visited slot. The real search explores a
//! subgraph of that walk, so a node never reached twice statically is never entered twice
//! dynamically, and every cycle of the walk contains a checked node (termination). Accepting
//! nodes of patterns end the evaluation and need no slot. If the walks exceed a work budget,
//! every node not yet cleared is conservatively checked.
//!
//! # Monotonic classes (design notes 2.15)
//!
//! Derived from the definition, see [`super::MonotonicClass`].

use super::{AutomatonId, Op, Program, NONE};

/// Bound on static walk steps; past it the analysis gives up and checks everything.
const WALK_BUDGET: u64 = 200_000_000;

/// Gives visited slots to the nodes that need them (`known`: the answer, if already computed).
pub(super) fn assign_visited_slots(p: &mut Program, known: Option<Vec<bool>>) {
    let needs = match known {
        _ if !p.options.visited_elimination => vec![true; p.nodes.len()],
        Some(needs) => needs,
        None => needed_checks(p),
    };
    let mut next = 0u32;
    for (node, need) in p.nodes.iter_mut().zip(needs) {
        node.slot = if need {
            next += 1;
            next - 1
        } else {
            NONE
        };
    }
    p.visited_slots = next;
}

/// Nodes where a pattern evaluation stops: they are never expanded and need no check.
fn pattern_accepting(p: &Program) -> Vec<bool> {
    let mut in_pattern = vec![false; p.nodes.len()];
    for a in p.automata.iter().filter(|a| a.is_pattern) {
        for n in reachable(p, a.start) {
            in_pattern[n as usize] = true;
        }
    }
    p.nodes.iter().zip(in_pattern).map(|(n, inp)| inp && n.accepting).collect()
}

/// All nodes reachable from `start` through edges and fan continuations.
pub(super) fn reachable(p: &Program, start: u32) -> Vec<u32> {
    let mut seen = vec![false; p.nodes.len()];
    let mut order = vec![start];
    seen[start as usize] = true;
    let mut head = 0;
    while head < order.len() {
        let id = order[head];
        let n = p.nodes[id as usize];
        head += 1;
        let mut visit = |t: u32| {
            if !seen[t as usize] {
                seen[t as usize] = true;
                order.push(t);
            }
        };
        if n.is_fan() {
            visit(n.next);
        }
        for e in p.edges_of(id) {
            visit(e.target);
        }
    }
    order
}

/// The vertex after running an edge's ops statically, or `None` if the edge fails for sure or
/// applies a modifier (ending the layer).
fn static_run(p: &Program, ops: &[Op], mut v: u32) -> Option<u32> {
    for op in ops {
        match *op {
            Op::Shift(l) => v = p.board.neighbour(v, l),
            Op::Table(t) => v = p.det_table(t)[v as usize],
            Op::InSet(s) => {
                if !p.cell_set(s).contains(v) {
                    return None;
                }
            }
            Op::On(_) | Op::OnSet(_) | Op::Compare { .. } | Op::Pattern { .. } => {}
            Op::Off { .. } | Op::Assign { .. } | Op::AssignConst { .. } | Op::Switch { .. } | Op::Fail => {
                return None
            }
        }
        if v == NONE {
            return None;
        }
    }
    Some(v)
}

fn needed_checks(p: &Program) -> Vec<bool> {
    let vertices = p.board.vertices() as usize;
    let stop = pattern_accepting(p);
    let mut starters: Vec<u32> = p.automata.iter().map(|a| a.start).collect();
    for e in &p.edges {
        if e.modifies || p.ends_move(e) {
            starters.push(e.target);
        }
    }
    starters.sort_unstable();
    starters.dedup();

    let mut needs = vec![false; p.nodes.len()];
    let mut stamp = vec![0u32; p.nodes.len() * vertices];
    let mut generation = 0u32;
    let mut stack: Vec<(u32, u32)> = Vec::new();
    let mut work = 0u64;
    for &s in &starters {
        for c in 0..vertices as u32 {
            generation += 1;
            stack.clear();
            stamp[s as usize * vertices + c as usize] = generation;
            stack.push((s, c));
            while let Some((n, v)) = stack.pop() {
                work += 1;
                if work > WALK_BUDGET {
                    // Give up: check every node we could not clear.
                    return p.nodes.iter().enumerate().map(|(i, _)| !stop[i]).collect();
                }
                if stop[n as usize] {
                    continue;
                }
                let node = p.nodes[n as usize];
                let mut visit = |m: u32, w: u32| {
                    let k = m as usize * vertices + w as usize;
                    if stamp[k] == generation {
                        needs[m as usize] = true;
                    } else {
                        stamp[k] = generation;
                        stack.push((m, w));
                    }
                };
                if node.is_fan() {
                    for &w in p.fan_tables[node.fan as usize].row(v) {
                        visit(node.next, w);
                    }
                    continue;
                }
                for e in &p.edges[node.first_edge as usize..node.end_edge as usize] {
                    if let Some(w) = static_run(p, p.edge_ops(e), v) {
                        visit(e.target, w);
                    }
                }
            }
        }
    }
    needs.iter().zip(&stop).map(|(&n, &s)| n && !s).collect()
}

/// Fan filters: when every edge of a fan's continuation starts with an on-test, a row vertex
/// whose piece is in none of them cannot lead anywhere, so the fan may skip it. (Entering the
/// continuation there would only mark it visited and fail every edge; in the same layer the
/// state is the same, so a later entry would fail the same way.)
pub(super) fn assign_fan_filters(p: &mut Program) {
    if p.num_pieces > 64 {
        return;
    }
    for i in 0..p.nodes.len() {
        let n = p.nodes[i];
        if !n.is_fan() {
            continue;
        }
        let next = p.nodes[n.next as usize];
        if next.is_fan() || next.accepting || next.first_edge == next.end_edge {
            continue;
        }
        let mut mask = 0u64;
        let mut all_tested = true;
        for e in &p.edges[next.first_edge as usize..next.end_edge as usize] {
            match p.edge_ops(e).first() {
                Some(Op::On(m)) => mask |= m,
                _ => all_tested = false,
            }
        }
        if all_tested {
            p.nodes[i].filter = mask;
        }
    }
}

pub(super) fn find_monotonic_classes(p: &mut Program) {
    p.node_class = vec![NONE; p.nodes.len()];
    if !p.options.monotonic_classes {
        return;
    }
    // Pieces placed by offs that persist (outside patterns).
    let mut placed = vec![false; p.num_pieces as usize];
    for n in reachable(p, p.automaton(AutomatonId::RULES).start) {
        let node = p.nodes[n as usize];
        for e in &p.edges[node.first_edge as usize..node.end_edge as usize] {
            for op in p.edge_ops(e) {
                if let Op::Off { piece, .. } = op {
                    placed[*piece as usize] = true;
                }
            }
        }
    }
    let mut candidates: Vec<u32> = p
        .edges
        .iter()
        .filter(|e| matches!(p.edge_ops(e).last(), Some(Op::Switch { player, .. }) if *player != 0))
        .map(|e| e.target)
        .collect();
    candidates.sort_unstable();
    candidates.dedup();
    for q in candidates {
        if let Some((switches, cells)) = class_shape(p, q) {
            let ruined = switches.iter().any(|(_, mask)| mask.iter().zip(&placed).any(|(&m, &pl)| m && pl));
            if !ruined {
                p.node_class[q as usize] = p.monotonic.len() as u32;
                p.monotonic.push(super::MonotonicClass { node: q, switches, cells });
            }
        }
    }
}

/// A class's switches with their accepted-piece masks, and its fan's row.
type ClassShape = (Vec<(u32, Vec<bool>)>, Vec<u32>);

/// If every move from node `q` is "fan over a uniform table, then `[{P}] ->x`", its
/// [`ClassShape`].
fn class_shape(p: &Program, q: u32) -> Option<ClassShape> {
    let mut n = q;
    // Skip empty single-exit steps (present when chain folding is off).
    for _ in 0..p.nodes.len() {
        let node = p.nodes[n as usize];
        if node.is_fan() || node.end_edge - node.first_edge != 1 {
            break;
        }
        let e = p.edges[node.first_edge as usize];
        if e.first_op != e.end_op {
            break;
        }
        n = e.target;
    }
    let fan = p.nodes[n as usize];
    if !fan.is_fan() || !p.fan_tables[fan.fan as usize].is_uniform() {
        return None;
    }
    let last = p.nodes[fan.next as usize];
    if last.is_fan() || last.first_edge == last.end_edge {
        return None;
    }
    let mut switches = Vec::new();
    for e in &p.edges[last.first_edge as usize..last.end_edge as usize] {
        let (mask, index) = match p.edge_ops(e) {
            [Op::Switch { index, .. }] => (vec![true; p.num_pieces as usize], *index),
            [Op::On(m), Op::Switch { index, .. }] => {
                ((0..p.num_pieces).map(|i| i < 64 && (m >> i) & 1 == 1).collect(), *index)
            }
            [Op::OnSet(s), Op::Switch { index, .. }] => (p.piece_set(*s).to_vec(), *index),
            _ => return None,
        };
        switches.push((index, mask));
    }
    // Uniform: every vertex has this row (a board without vertices has no row, and no moves).
    let table = &p.fan_tables[fan.fan as usize];
    let cells = if p.board.vertices() == 0 { Vec::new() } else { table.row(0).to_vec() };
    Some((switches, cells))
}
