//! The interpreter's executable form of a [`Program`]: its edges re-encoded as one flat array of
//! [`Instr`]s, with frequent op pairs fused into single instructions.
//!
//! The shared [`Program`] keeps the canonical ops (the compiler translates those); this layer
//! exists only to cut the interpreter's dispatch count. A shift or table step followed by an
//! on-test (rays, pattern scans) is the most common pair and becomes one instruction.
//! `ExecEdge`s parallel [`Program::edges`] (same indices), so node edge ranges apply unchanged.

use rbg_parser::ir::RelOp;

use crate::program::{
    AutomatonId, CellSetId, DetTableId, ExprId, Modifier, NodeId, NodeKind, Op, PieceSetId, Program, SlotId,
    NONE,
};

/// One executable instruction; see [`Op`] for the meaning of the unfused ones.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Instr {
    Shift(u32),
    Table(DetTableId),
    On(u64),
    /// `Shift(label)` then `On(mask)`.
    ShiftOn(u32, u64),
    /// `Table(table)` then `On(mask)`.
    TableOn(DetTableId, u64),
    /// A shift or a deterministic table step as one lookup in the interpreter's flat step
    /// table ([`Lowered::steps`]): the vertex becomes `steps[base + vertex]` (fails on
    /// [`NONE`]).
    Step(u32),
    /// `Step(base)` then `On(mask)`.
    StepOn(u32, u64),
    /// `On(mask)` then `Step(base)` (the body of a ray loop such as `({x} up)*`).
    OnStep(u64, u32),
    OnSet(PieceSetId),
    InSet(CellSetId),
    Off {
        piece: u32,
        index: u32,
    },
    Assign {
        var: u32,
        expr: ExprId,
        index: u32,
    },
    AssignConst {
        var: u32,
        value: i32,
        index: u32,
    },
    Compare {
        lhs: ExprId,
        rel: RelOp,
        rhs: ExprId,
    },
    Pattern {
        automaton: AutomatonId,
        positive: bool,
    },
    /// A pattern whose start node's edges all lead straight to acceptance and only test and
    /// move ([`probes`]): it holds when one of the edges `first_edge..end_edge` runs through,
    /// so it is evaluated in place, without a call into the pattern evaluator or the memo.
    Probe {
        first_edge: u32,
        end_edge: u32,
        positive: bool,
    },
    Switch {
        index: u32,
    },
    Fail,
}

impl Instr {
    /// Whether the instruction only tests the state and moves the current vertex: no write,
    /// no pattern, no switch (what a pattern may hold and still be run as a one-step probe
    /// or by plain recursion). Exhaustive, so a new instruction must be classified here.
    fn only_tests_and_moves(&self) -> bool {
        match self {
            Instr::Shift(_)
            | Instr::Table(_)
            | Instr::On(_)
            | Instr::ShiftOn(..)
            | Instr::TableOn(..)
            | Instr::Step(_)
            | Instr::StepOn(..)
            | Instr::OnStep(..)
            | Instr::OnSet(_)
            | Instr::InSet(_)
            | Instr::Compare { .. }
            | Instr::Fail => true,
            Instr::Off { .. }
            | Instr::Assign { .. }
            | Instr::AssignConst { .. }
            | Instr::Pattern { .. }
            | Instr::Probe { .. }
            | Instr::Switch { .. } => false,
        }
    }
}

/// What applying an action index does ([`Modifier`]), with a switch's target already in the
/// state's encoding of rules positions ([`NONE`] for a switch that can never be reached), so
/// applying a move reads one small entry per action.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum ExecModifier {
    None,
    Off { piece: u32 },
    Assign { var: u32, expr: ExprId },
    Switch { player: u32, node: u32 },
}

/// Encodes [`Program::modifiers`].
pub(crate) fn lower_modifiers(program: &Program) -> Vec<ExecModifier> {
    program
        .modifiers()
        .iter()
        .map(|m| match *m {
            Modifier::None => ExecModifier::None,
            Modifier::Off { piece } => ExecModifier::Off { piece },
            Modifier::Assign { var, expr } => ExecModifier::Assign { var, expr },
            Modifier::Switch { player, target } => {
                ExecModifier::Switch { player, node: target.map_or(NONE, NodeId::get) }
            }
        })
        .collect()
}

/// A node of the program in the search loop's encoding: [`NodeKind`] and the accessors'
/// options flattened back into sentinels, each tested with one comparison (measured with
/// callgrind: searching through the enum accessors cost about 2% more instructions on reversi).
/// Indexed like [`Program::nodes`].
#[derive(Copy, Clone, Debug)]
pub(crate) struct ExecNode {
    /// Outgoing edges `first_edge..end_edge` (empty for fan nodes).
    pub first_edge: u32,
    pub end_edge: u32,
    /// Fan table, or [`NONE`] for a branch node.
    pub fan: u32,
    /// For a fan node: the node entered at each vertex of the row.
    pub next: u32,
    /// Visited slot, or [`NONE`].
    pub slot: u32,
    pub accepting: bool,
    /// For a fan node: the piece filter, `u64::MAX` for none.
    pub filter: u64,
    /// Index into the interpreter's [`Ray`]s when the node is a ray loop, else [`NONE`].
    pub ray: u32,
}

/// A *ray node* (see [`rays`]): a branch node whose two edges are `[OnStep(through, base)]`
/// back to itself and `[On(end)]` to `exit`, with disjoint masks. Patterns evaluate it as a
/// loop: step along `base` while the piece is in `through`, and continue at `exit` at the first
/// vertex whose piece is in `end`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Ray {
    pub through: u64,
    pub base: u32,
    pub end: u64,
    pub exit: u32,
}

impl ExecNode {
    #[inline(always)]
    pub fn is_fan(&self) -> bool {
        self.fan != NONE
    }
}

/// Encodes every node of `program`.
pub(crate) fn lower_nodes(program: &Program) -> Vec<ExecNode> {
    program
        .nodes()
        .iter()
        .map(|n| {
            let slot = n.slot().map_or(NONE, SlotId::get);
            let accepting = n.is_accepting();
            match n.kind() {
                NodeKind::Branch { edges } => ExecNode {
                    first_edge: edges.first.get(),
                    end_edge: edges.end.get(),
                    fan: NONE,
                    next: NONE,
                    slot,
                    accepting,
                    filter: u64::MAX,
                    ray: NONE,
                },
                NodeKind::Fan { table, next, filter } => ExecNode {
                    first_edge: 0,
                    end_edge: 0,
                    fan: table.get(),
                    next: next.get(),
                    slot,
                    accepting,
                    filter: filter.unwrap_or(u64::MAX),
                    ray: NONE,
                },
            }
        })
        .collect()
}

/// An edge of the program with its instruction range.
#[derive(Copy, Clone, Debug)]
pub(crate) struct ExecEdge {
    pub first: u32,
    pub end: u32,
    pub target: u32,
    pub modifies: bool,
}

/// The executable code of a program (see [`lower`]).
pub(crate) struct Lowered {
    pub edges: Vec<ExecEdge>,
    pub code: Vec<Instr>,
    /// The flat step table of [`Instr::Step`]: one column of `vertices` entries per board
    /// label (its neighbours) and then one per deterministic shift table; empty when steps
    /// are not flattened.
    pub steps: Vec<u32>,
}

/// Encodes every edge of `program`; `fuse` enables the fused instructions, `flat` the flat
/// step table (a shift then costs one lookup without a multiplication, a table step one
/// lookup instead of two).
pub(crate) fn lower(program: &Program, fuse: bool, flat: bool) -> Lowered {
    let vertices = program.board().vertices();
    let labels = program.board().labels();
    // Column bases and `base + vertex` must fit in a `u32` (they do on any real board).
    let columns = u64::from(labels) + program.det_tables().len() as u64;
    let flat = flat && columns * u64::from(vertices) < u64::from(u32::MAX / 2);
    let mut steps = Vec::new();
    if flat {
        for l in 0..labels {
            steps.extend((0..vertices).map(|v| program.board().neighbour(v, l)));
        }
        for t in program.det_tables() {
            steps.extend_from_slice(t);
        }
    }
    // The column base of a step op (only called when `flat`).
    let base = |op: &Op| match *op {
        Op::Shift(l) => Some(l * vertices),
        Op::Table(t) => Some((labels + t.get()) * vertices),
        _ => None,
    };
    let mut code = Vec::new();
    let mut edges = Vec::with_capacity(program.edges().len());
    for e in program.edges() {
        let first = code.len() as u32;
        let ops = program.edge_ops(e);
        let mut i = 0;
        while i < ops.len() {
            let next = ops.get(i + 1);
            let fused = match (ops[i], next) {
                (Op::Shift(_) | Op::Table(_), Some(Op::On(m))) if fuse && flat => {
                    base(&ops[i]).map(|b| Instr::StepOn(b, *m))
                }
                (Op::On(m), Some(op @ (Op::Shift(_) | Op::Table(_)))) if fuse && flat => {
                    base(op).map(|b| Instr::OnStep(m, b))
                }
                (Op::Shift(l), Some(Op::On(m))) if fuse => Some(Instr::ShiftOn(l, *m)),
                (Op::Table(t), Some(Op::On(m))) if fuse => Some(Instr::TableOn(t, *m)),
                _ => None,
            };
            match fused {
                Some(instr) => {
                    code.push(instr);
                    i += 2;
                }
                None => {
                    let step = if flat { base(&ops[i]).map(Instr::Step) } else { None };
                    code.push(step.unwrap_or_else(|| single(ops[i])));
                    i += 1;
                }
            }
        }
        edges.push(ExecEdge {
            first,
            end: code.len() as u32,
            target: e.target().get(),
            modifies: e.modifies(),
        });
    }
    Lowered { edges, code, steps }
}

fn single(op: Op) -> Instr {
    match op {
        Op::Shift(l) => Instr::Shift(l),
        Op::Table(t) => Instr::Table(t),
        Op::On(m) => Instr::On(m),
        Op::OnSet(s) => Instr::OnSet(s),
        Op::InSet(s) => Instr::InSet(s),
        Op::Off { piece, index } => Instr::Off { piece, index },
        Op::Assign { var, expr, index } => Instr::Assign { var, expr, index },
        Op::AssignConst { var, value, index } => Instr::AssignConst { var, value, index },
        Op::Compare { lhs, rel, rhs } => Instr::Compare { lhs, rel, rhs },
        Op::Pattern { automaton, positive } => Instr::Pattern { automaton, positive },
        Op::Switch { index, .. } => Instr::Switch { index },
        Op::Fail => Instr::Fail,
    }
}

/// How a pattern automaton is evaluated (see [`pattern_evals`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum PatternEval {
    /// The general search (frames, trail, visited layers, budget).
    Search,
    /// Plain recursion with no visited checks: nothing reachable writes, evaluates a nested
    /// pattern or has a visited slot, so no (node, vertex) pair can repeat.
    Pure,
    /// Plain recursion over one visited layer of its own: nothing reachable writes, but some
    /// nodes have visited slots or evaluate nested patterns. Since the semi-state never changes
    /// during the evaluation, a single layer stamps every (slot, vertex) pair for the whole of
    /// it, which bounds the recursion as the general search's layers do, without its frames or
    /// trail. No reachable node has a visited slot (so the layer need not be started).
    ReadOnly,
    /// [`PatternEval::ReadOnly`] where some reachable node has a visited slot.
    ReadOnlyVisited,
}

/// For each automaton: how to evaluate it. `read_only` allows [`PatternEval::ReadOnly`]
/// (otherwise such patterns use the general search).
pub(crate) fn pattern_evals(
    program: &Program,
    edges: &[ExecEdge],
    code: &[Instr],
    read_only: bool,
) -> Vec<PatternEval> {
    program
        .automata()
        .iter()
        .map(|a| {
            if !a.is_pattern() {
                return PatternEval::Search;
            }
            let (mut writes, mut visited, mut nested) = (false, false, false);
            for &n in &program.reachable(a.start()) {
                let node = program.node(n);
                visited |= node.slot().is_some();
                let span = match node.kind() {
                    NodeKind::Branch { edges } => edges.first.index()..edges.end.index(),
                    NodeKind::Fan { .. } => 0..0,
                };
                for e in &edges[span] {
                    for i in &code[e.first as usize..e.end as usize] {
                        match i {
                            i if i.only_tests_and_moves() => {}
                            // A probe evaluates no pattern of its own (see `probes`).
                            Instr::Probe { .. } => {}
                            Instr::Pattern { .. } => nested = true,
                            Instr::Off { .. }
                            | Instr::Assign { .. }
                            | Instr::AssignConst { .. }
                            | Instr::Switch { .. } => writes = true,
                            _ => unreachable!("every other instruction only tests and moves"),
                        }
                    }
                }
            }
            match (writes, visited || nested) {
                (true, _) => PatternEval::Search,
                (false, false) => PatternEval::Pure,
                (false, true) if read_only && visited => PatternEval::ReadOnlyVisited,
                (false, true) if read_only => PatternEval::ReadOnly,
                (false, true) => PatternEval::Search,
            }
        })
        .collect()
}

/// Replaces every [`Instr::Pattern`] whose automaton is a one-step test by an
/// [`Instr::Probe`]: the automaton's start node is a branch node without a visited slot that
/// does not accept, and every edge out of it only tests and moves and ends at an accepting node
/// (e.g. `{! down {e}}`). Such a pattern holds exactly when one of those edges runs through.
pub(crate) fn probes(program: &Program, edges: &[ExecEdge], code: &mut [Instr]) {
    let one_step: Vec<Option<(u32, u32)>> = program
        .automata()
        .iter()
        .map(|a| {
            let start = program.node(a.start());
            let NodeKind::Branch { edges: span } = start.kind() else { return None };
            let ok = a.is_pattern()
                && !start.is_accepting()
                && start.slot().is_none()
                && edges[span.first.index()..span.end.index()].iter().all(|e| {
                    program.node(crate::program::NodeId::new(e.target)).is_accepting()
                        && code[e.first as usize..e.end as usize].iter().all(Instr::only_tests_and_moves)
                });
            ok.then_some((span.first.get(), span.end.get()))
        })
        .collect();
    for instr in code.iter_mut() {
        if let Instr::Pattern { automaton, positive } = *instr {
            if let Some((first_edge, end_edge)) = one_step[automaton.index()] {
                *instr = Instr::Probe { first_edge, end_edge, positive };
            }
        }
    }
}

/// Finds the ray nodes (see [`Ray`]) among `nodes`, records them there and returns them. With
/// disjoint masks at most one of the two edges can run at any vertex, so the loop explores
/// exactly what the two edges would, in the only order possible.
pub(crate) fn rays(nodes: &mut [ExecNode], edges: &[ExecEdge], code: &[Instr]) -> Vec<Ray> {
    let mut rays = Vec::new();
    for (id, node) in nodes.iter_mut().enumerate() {
        if node.is_fan() || node.end_edge.wrapping_sub(node.first_edge) != 2 {
            continue;
        }
        let pair = [edges[node.first_edge as usize], edges[node.first_edge as usize + 1]];
        let ops = |e: &ExecEdge| &code[e.first as usize..e.end as usize];
        let found = pair.iter().zip(pair.iter().rev()).find_map(|(lp, exit)| match (ops(lp), ops(exit)) {
            (&[Instr::OnStep(through, base)], &[Instr::On(end)])
                if lp.target as usize == id && exit.target as usize != id && through & end == 0 =>
            {
                Some(Ray { through, base, end, exit: exit.target })
            }
            _ => None,
        });
        if let Some(ray) = found {
            node.ray = rays.len() as u32;
            rays.push(ray);
        }
    }
    rays
}

/// Drops on-tests that a fan's piece filter has already passed. A filtered fan enters its
/// `next` node only at vertices whose piece is in the filter, so an edge of `next` starting
/// with `On(m)` where `m` contains the whole filter passes that test for sure when entered
/// from the fan. Such a `next` node gets a copy (appended to `nodes`, with the same visited
/// slot, so it is the same node for the visited checks) whose edges (appended to `edges`) start
/// one instruction later, and the fan continues at the copy. `next` itself is unchanged, as
/// other edges may enter it.
pub(crate) fn skip_filtered_tests(nodes: &mut Vec<ExecNode>, edges: &mut Vec<ExecEdge>, code: &[Instr]) {
    for f in 0..nodes.len() {
        let fan = nodes[f];
        if !fan.is_fan() || fan.filter == u64::MAX {
            continue;
        }
        let next = nodes[fan.next as usize];
        if next.is_fan() || next.accepting {
            continue;
        }
        let span = next.first_edge as usize..next.end_edge as usize;
        let redundant = |e: &ExecEdge| {
            e.first < e.end && matches!(code[e.first as usize], Instr::On(m) if fan.filter & !m == 0)
        };
        if !edges[span.clone()].iter().any(redundant) {
            continue;
        }
        let (Ok(first), Ok(copy)) = (u32::try_from(edges.len()), u32::try_from(nodes.len())) else {
            return;
        };
        for i in span {
            let e = edges[i];
            edges.push(if redundant(&e) { ExecEdge { first: e.first + 1, ..e } } else { e });
        }
        nodes.push(ExecNode { first_edge: first, end_edge: edges.len() as u32, ..next });
        nodes[f].next = copy;
    }
}
