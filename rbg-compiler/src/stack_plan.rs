//! Where the generated search checks its stack, and how much it keeps in reserve.
//!
//! Node functions call the functions of their edges' targets, of their fans' continuations and
//! of the patterns they evaluate, so the recursion depth of a search is the length of a path in
//! this call graph (edges that [`loops_to_itself`](crate::search) turns into loops are not
//! calls). Only cycles make it grow with the board, and not every cycle needs a check:
//!
//! * Within one modifier layer, a search enters each (node, vertex) pair at most once along a
//!   path: nodes with a visited slot stop at the second entry, and the analysis gave no slot to
//!   nodes it proved cannot be entered twice (`rbg_automaton`'s visited-check elimination). So
//!   a strongly connected part of the call graph whose internal calls change no layer nests at
//!   most (its nodes × vertices) deep: a ray `(left {e})*` on an 8x8 board, 64 calls.
//! * A cycle through a modifier starts a new layer at each turn and is unbounded, so the
//!   target of every modifier edge inside a cycle checks the stack.
//!
//! [`plan`] first checks those targets, then treats what remains of each cycle as bounded, and
//! checks more (the targets of back edges of a depth-first search, which break every cycle)
//! only where a bound is too large: one part above [`MAX_PART_FRAMES`], or the longest chain of
//! unchecked calls above [`MAX_UNCHECKED_FRAMES`]. The checks cost up to 16% of the instructions
//! of pattern-heavy searches and 5-14% of chess's, go's and amazons' ray walks, which are bounded
//! on their boards. A search whose program has no check at all runs on the caller's stack; the
//! two limits keep its depth within a fraction of a worker thread's 2 MiB.

use rbg_automaton::{NodeId, NodeKind, Op};

use crate::ctx::Ctx;
use crate::search::{loops_to_itself, ordered_edges};

/// Stack reserve besides the node frames (the sink, the caller's frames inlined into ours).
const RED_ZONE_BASE: usize = 64 << 10;
/// A generous bound on one node function's frame: its locals are a few saved values and cells.
const FRAME_BYTES: usize = 512;
/// Most frames one bounded part of the call graph may nest without checks (1 MiB of frames).
pub(crate) const MAX_PART_FRAMES: usize = 2048;
/// Most frames the longest chain of unchecked calls may take (2 MiB of frames at the generous
/// frame size; real frames are a fraction of it).
pub(crate) const MAX_UNCHECKED_FRAMES: usize = 4096;

/// The stack checks of a game's search.
#[derive(Default)]
pub(crate) struct StackPlan {
    /// Per node: its function checks the stack on entry.
    pub checked: Vec<bool>,
    /// Bytes kept in reserve below the last check: enough for the longest chain of calls that
    /// passes no checked node.
    pub red_zone: usize,
}

impl StackPlan {
    /// Whether any node checks (the search then sets the stack mark when it starts).
    pub(crate) fn any(&self) -> bool {
        self.checked.contains(&true)
    }
}

/// One call of a node function: the callee, and whether the call starts a new visited layer
/// (the edge applied a modifier) or a new evaluation (a pattern).
#[derive(Clone, Copy)]
struct Call {
    target: u32,
    fresh: bool,
}

/// Plans the stack checks of `c`'s search (module docs).
pub(crate) fn plan(c: &Ctx) -> StackPlan {
    let calls: Vec<Vec<Call>> = (0..c.p.nodes().len() as u32).map(|n| node_calls(c, n)).collect();
    let vertices = c.p.board().vertices() as usize;
    let owned: Vec<bool> = (0..calls.len() as u32).map(|n| c.a.owner(NodeId::new(n)).is_some()).collect();
    let mut checked = vec![false; calls.len()];
    // Cycles through a modifier: unbounded.
    let parts = Parts::new(&calls, &owned);
    for (n, out) in calls.iter().enumerate() {
        for call in out {
            if call.fresh && parts.same(n as u32, call.target) {
                checked[call.target as usize] = true;
            }
        }
    }
    // What remains is bounded; check more where the bounds are too large.
    loop {
        let alive: Vec<bool> = owned.iter().zip(&checked).map(|(&o, &k)| o && !k).collect();
        let parts = Parts::new(&calls, &alive);
        let frames = |part: usize| parts.frames(&calls, part, vertices);
        let heaviest =
            (0..parts.members.len()).filter(|&i| parts.cyclic(&calls, i)).max_by_key(|&i| frames(i));
        let longest = parts.longest_chain(&calls, &checked, vertices);
        match heaviest {
            Some(part) if frames(part) > MAX_PART_FRAMES || longest > MAX_UNCHECKED_FRAMES => {
                for n in back_edge_targets(&calls, &parts, part) {
                    checked[n as usize] = true;
                }
            }
            _ => return StackPlan { checked, red_zone: RED_ZONE_BASE + longest * FRAME_BYTES },
        }
    }
}

/// The calls node `n`'s function makes.
fn node_calls(c: &Ctx, n: u32) -> Vec<Call> {
    let p = c.p;
    let node = *p.node(NodeId::new(n));
    let pattern = c.is_pattern(n);
    if c.a.owner(NodeId::new(n)).is_none() || (pattern && node.is_accepting()) {
        return Vec::new();
    }
    if let NodeKind::Fan { next, .. } = node.kind() {
        return vec![Call { target: next.get(), fresh: false }];
    }
    let mut out = Vec::new();
    let edges = ordered_edges(c, n);
    let looping = loops_to_itself(c, n);
    for (i, e) in edges.iter().enumerate() {
        let ops = p.edge_ops(e);
        for op in ops {
            if let Op::Pattern { automaton, .. } = *op {
                out.push(Call { target: p.automaton(automaton).start().get(), fresh: true });
            }
        }
        // The last edge of a loop is its next iteration, not a call (see `loops_to_itself`);
        // a switch ends a search of the rules (patterns ignore switches and go on).
        let tail_loop = looping && i + 1 == edges.len();
        if !tail_loop && (pattern || !p.ends_move(e)) {
            let fresh = ops.iter().any(|op| op.is_modifier());
            out.push(Call { target: e.target().get(), fresh });
        }
    }
    out
}

/// The strongly connected parts of the call graph restricted to the `alive` nodes, numbered in
/// the order Tarjan's algorithm finishes them: a part's callees are in parts numbered lower.
struct Parts {
    /// Per node: its part, or `u32::MAX` for nodes not alive.
    part: Vec<u32>,
    members: Vec<Vec<u32>>,
}

impl Parts {
    fn new(calls: &[Vec<Call>], alive: &[bool]) -> Parts {
        const NEW: u32 = u32::MAX;
        let count = calls.len();
        let mut index = vec![NEW; count];
        let mut low = vec![0u32; count];
        let mut on_stack = vec![false; count];
        let mut stack: Vec<u32> = Vec::new();
        let mut part = vec![u32::MAX; count];
        let mut members: Vec<Vec<u32>> = Vec::new();
        let mut next = 0u32;
        for root in 0..count as u32 {
            if !alive[root as usize] || index[root as usize] != NEW {
                continue;
            }
            // Explicit depth-first search (programs can be large): a node and its next call.
            let mut path: Vec<(u32, usize)> = vec![(root, 0)];
            index[root as usize] = next;
            low[root as usize] = next;
            next += 1;
            stack.push(root);
            on_stack[root as usize] = true;
            while let Some(&mut (n, ref mut i)) = path.last_mut() {
                if let Some(call) = calls[n as usize].get(*i) {
                    *i += 1;
                    let m = call.target as usize;
                    if !alive[m] {
                        continue;
                    }
                    if index[m] == NEW {
                        index[m] = next;
                        low[m] = next;
                        next += 1;
                        stack.push(m as u32);
                        on_stack[m] = true;
                        path.push((m as u32, 0));
                    } else if on_stack[m] {
                        low[n as usize] = low[n as usize].min(index[m]);
                    }
                    continue;
                }
                path.pop();
                if let Some(&(parent, _)) = path.last() {
                    low[parent as usize] = low[parent as usize].min(low[n as usize]);
                }
                if low[n as usize] == index[n as usize] {
                    let id = members.len() as u32;
                    let mut group = Vec::new();
                    while let Some(m) = stack.pop() {
                        on_stack[m as usize] = false;
                        part[m as usize] = id;
                        group.push(m);
                        if m == n {
                            break;
                        }
                    }
                    members.push(group);
                }
            }
        }
        Parts { part, members }
    }

    fn same(&self, a: u32, b: u32) -> bool {
        self.part[a as usize] != u32::MAX && self.part[a as usize] == self.part[b as usize]
    }

    /// Whether part `i` holds a cycle (two nodes, or one that calls itself).
    fn cyclic(&self, calls: &[Vec<Call>], i: usize) -> bool {
        let group = &self.members[i];
        group.len() > 1 || calls[group[0] as usize].iter().any(|c| c.target == group[0])
    }

    /// Most frames a search nests inside part `i` without leaving it.
    fn frames(&self, calls: &[Vec<Call>], i: usize, vertices: usize) -> usize {
        if self.cyclic(calls, i) {
            self.members[i].len().saturating_mul(vertices).saturating_add(1)
        } else {
            1
        }
    }

    /// Frames on the longest chain of calls that passes no check: from a checked node (its own
    /// frame) or a search's start, through parts, up to and including the next checked node's
    /// frame.
    fn longest_chain(&self, calls: &[Vec<Call>], checked: &[bool], vertices: usize) -> usize {
        let mut chain = vec![0usize; self.members.len()];
        let beyond = |chain: &[usize], n: u32, own: u32| -> usize {
            calls[n as usize]
                .iter()
                .filter(|call| self.part[call.target as usize] != own || own == u32::MAX)
                .map(|call| match self.part[call.target as usize] {
                    u32::MAX if checked[call.target as usize] => 1,
                    u32::MAX => 0,
                    p => chain[p as usize],
                })
                .max()
                .unwrap_or(0)
        };
        // Parts are numbered callees first.
        for i in 0..self.members.len() {
            let out = self.members[i].iter().map(|&n| beyond(&chain, n, i as u32)).max().unwrap_or(0);
            chain[i] = self.frames(calls, i, vertices).saturating_add(out);
        }
        let from_checks =
            (0..calls.len() as u32).filter(|&n| checked[n as usize]).map(|n| 1 + beyond(&chain, n, u32::MAX));
        chain.iter().copied().chain(from_checks).max().unwrap_or(0)
    }
}

/// Targets of the back edges of a depth-first search inside part `i`: checking them breaks
/// every cycle of the part.
fn back_edge_targets(calls: &[Vec<Call>], parts: &Parts, i: usize) -> Vec<u32> {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        New,
        OnPath,
        Done,
    }
    let group = &parts.members[i];
    let inside = |m: u32| parts.part[m as usize] == i as u32;
    let mut mark = vec![Mark::New; calls.len()];
    let mut targets = Vec::new();
    let root = group[0];
    mark[root as usize] = Mark::OnPath;
    let mut path: Vec<(u32, usize)> = vec![(root, 0)];
    while let Some(&mut (n, ref mut k)) = path.last_mut() {
        match calls[n as usize].get(*k) {
            Some(call) => {
                *k += 1;
                let m = call.target;
                if !inside(m) {
                    continue;
                }
                match mark[m as usize] {
                    Mark::New => {
                        mark[m as usize] = Mark::OnPath;
                        path.push((m, 0));
                    }
                    Mark::OnPath => targets.push(m),
                    Mark::Done => {}
                }
            }
            None => {
                mark[n as usize] = Mark::Done;
                path.pop();
            }
        }
    }
    targets
}
