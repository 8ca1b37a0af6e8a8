//! Building a [`Program`] from the game IR.
//!
//! 1. **Convert** the lowered rule tree into an intermediate tree whose leaves are [`Op`]s:
//!    shift-only runs become shift tables, shift-only patterns become vertex sets, constants are
//!    folded, pattern bodies are compiled (recursively) into their own automata, and switches
//!    inside patterns become no-ops (documented policy: the paper forbids them, the reference
//!    parser accepts them, no corpus game has one; they never end a move).
//! 2. **Thompson construction** into a node arena with single-op or epsilon edges. Alternatives
//!    share their end points; every star gets a fresh loop node, so no star loop is ever shared
//!    with a sibling alternative.
//! 3. **Folding** (optional): epsilon contraction (a node whose only exit is an epsilon is
//!    forwarded to its target; a node whose only entry is an epsilon is merged into its source),
//!    chain folding (an edge into a node with one entry and one exit absorbs that exit), and
//!    pruning of edges that cannot succeed or lead nowhere. None of these copies an op, so every
//!    modifier stays on exactly one edge.
//! 4. **Finalising** into flat arrays in breadth-first order, then the analyses of
//!    [`super::analysis`].

use std::collections::HashMap;

use rbg_parser::ir::{self, ActionKind, Rule};

use super::analysis;
use super::expr::{self, Expr};
use super::pattern_tails;
use super::tables::{is_positional, BoardGraph, CellSet, FanTable, Positional};
use super::{
    Automaton, AutomatonId, BuildError, CellSetId, DetTableId, Edge, ExprId, FanTableId, Modifier, Node,
    NodeId, Op, PieceSetId, Program, ProgramOptions, NONE,
};

/// The intermediate tree between the IR and the automaton.
enum X {
    Seq(Vec<X>),
    Alt(Vec<X>),
    Star(Box<X>),
    Op(Op),
    /// Branching shift table.
    Fan(FanTableId),
    Eps,
}

struct NNode {
    out: Vec<NEdge>,
    accepting: bool,
    fan: u32,
    next: u32,
    dead: bool,
}

struct NEdge {
    ops: Vec<Op>,
    target: u32,
}

struct Builder<'g> {
    opts: ProgramOptions,
    game: &'g ir::Game,
    board: &'g BoardGraph,
    positional: Positional<'g>,
    nodes: Vec<NNode>,
    /// Forwarding of contracted nodes (union-find style, resolved lazily).
    forward: Vec<u32>,
    automata: Vec<Automaton>,
    det_tables: Vec<Vec<u32>>,
    det_index: HashMap<Vec<u32>, DetTableId>,
    fan_tables: Vec<FanTable>,
    cell_sets: Vec<CellSet>,
    cell_index: HashMap<CellSet, CellSetId>,
    piece_sets: Vec<Vec<bool>>,
    exprs: Vec<Expr>,
    modifiers: Vec<Modifier>,
    bounds: Vec<i64>,
    /// Pattern bodies already compiled, for sharing equal ones.
    patterns: Vec<(&'g Rule, AutomatonId)>,
}

pub(super) fn build(game: &ir::Game, opts: &ProgramOptions) -> Result<Program, BuildError> {
    if game.pieces.len() > 255 {
        return Err(BuildError::TooManyPieces { count: game.pieces.len() });
    }
    let board = BoardGraph::from_ir(&game.board)?;
    let mut initial_pieces = Vec::with_capacity(game.board.vertices.len());
    for v in &game.board.vertices {
        if v.piece as usize >= game.pieces.len() {
            return Err(BuildError::BadIr { what: format!("piece of vertex {}", v.name) });
        }
        initial_pieces.push(v.piece as u8);
    }
    let bounds = game.var_bounds();
    let mut initial_cells = vec![0; game.pieces.len()];
    initial_pieces.iter().for_each(|&p| initial_cells[p as usize] += 1);
    let shared_tails = (opts.pattern_memo && opts.pattern_tails)
        .then(|| pattern_tails::share_pattern_tails(&game.rules, &initial_cells))
        .flatten();
    let rules = shared_tails.as_ref().unwrap_or(&game.rules);
    // The builder borrows the board for the positional evaluator; keep it alive beside it.
    let board_ref: &BoardGraph = &board;
    let mut b = Builder {
        opts: opts.clone(),
        game,
        board: board_ref,
        positional: Positional::new(board_ref),
        nodes: Vec::new(),
        forward: Vec::new(),
        automata: Vec::new(),
        det_tables: Vec::new(),
        det_index: HashMap::new(),
        fan_tables: Vec::new(),
        cell_sets: Vec::new(),
        cell_index: HashMap::new(),
        piece_sets: Vec::new(),
        exprs: Vec::new(),
        modifiers: vec![Modifier::None; game.modifiers as usize + 1],
        bounds,
        patterns: Vec::new(),
    };
    // Automaton 0: the rules. Its end node is not accepting: reaching the end of the rules
    // without a switch yields no move.
    let start = b.new_node();
    let end = b.new_node();
    b.automata.push(Automaton { start, is_pattern: false });
    let x = b.convert(rules, false)?;
    b.thompson(x, start, end);
    if opts.fold_chains {
        b.fold();
    }
    let (mut program, new_id) = b.finish(board.clone(), initial_pieces.clone())?;
    analysis::assign_visited_slots(&mut program, None);
    if opts.fold_chains && opts.tail_duplication && b.duplicate_tails(&program, &new_id) {
        // Duplication keeps every remaining node's arrivals per layer (each path through a
        // removed node is now a path through its copies), so the visited analysis carries over.
        let (mut again, again_id) = b.finish(board.clone(), initial_pieces)?;
        let mut needs = vec![false; again.nodes.len()];
        for (old, new) in new_id.iter().zip(&again_id) {
            if *old != NONE && *new != NONE {
                needs[*new as usize] = program.nodes[*old as usize].slot != NONE;
            }
        }
        analysis::assign_visited_slots(&mut again, Some(needs));
        program = again;
    }
    if program.options.fan_filters {
        analysis::assign_fan_filters(&mut program);
    }
    analysis::find_monotonic_classes(&mut program);
    Ok(program)
}

impl<'g> Builder<'g> {
    fn new_node(&mut self) -> u32 {
        self.nodes.push(NNode { out: Vec::new(), accepting: false, fan: NONE, next: NONE, dead: false });
        self.forward.push(NONE);
        (self.nodes.len() - 1) as u32
    }

    fn positional(&self, rule: &Rule, in_pattern: bool) -> bool {
        is_positional(rule, in_pattern, self.opts.precomputed_patterns)
    }

    // ----------------------------------------------------------------------------------------
    // Conversion

    fn convert(&mut self, rule: &'g Rule, in_pattern: bool) -> Result<X, BuildError> {
        let tables = self.opts.shift_tables;
        if tables && self.positional(rule, in_pattern) && worthwhile(&[rule]) {
            return Ok(self.table(&[rule], false));
        }
        Ok(match rule {
            Rule::Concat(cs) => {
                let mut out = Vec::with_capacity(cs.len());
                let mut i = 0;
                while i < cs.len() {
                    if !(tables && self.positional(&cs[i], in_pattern)) {
                        out.push(self.convert(&cs[i], in_pattern)?);
                        i += 1;
                        continue;
                    }
                    let mut j = i;
                    while j < cs.len() && self.positional(&cs[j], in_pattern) {
                        j += 1;
                    }
                    let run: Vec<&Rule> = cs[i..j].iter().collect();
                    if worthwhile(&run) {
                        out.push(self.table(&run, false));
                    } else {
                        for r in run {
                            out.push(self.convert(r, in_pattern)?);
                        }
                    }
                    i = j;
                }
                X::Seq(out)
            }
            Rule::Alt(cs) => {
                let positional: Vec<&Rule> = cs.iter().filter(|c| self.positional(c, in_pattern)).collect();
                if tables && (positional.len() >= 2 || worthwhile(&positional)) {
                    let mut table = Some(self.table(&positional, true));
                    let mut out = Vec::with_capacity(cs.len());
                    for c in cs {
                        if self.positional(c, in_pattern) {
                            out.extend(table.take());
                        } else {
                            out.push(self.convert(c, in_pattern)?);
                        }
                    }
                    X::Alt(out)
                } else {
                    X::Alt(cs.iter().map(|c| self.convert(c, in_pattern)).collect::<Result<_, _>>()?)
                }
            }
            Rule::Star(body) => X::Star(Box::new(self.convert(body, in_pattern)?)),
            Rule::Action(a) => self.convert_action(a, in_pattern)?,
        })
    }

    /// A shift table for a positional sequence (or alternative) of rules.
    fn table(&mut self, items: &[&'g Rule], alternative: bool) -> X {
        let vertices = self.board.vertices();
        let rows = self.positional.rows(items, alternative);
        if rows.iter().all(|r| r.is_empty()) {
            return X::Op(Op::Fail);
        }
        if rows.iter().all(|r| r.len() <= 1) {
            let det: Vec<u32> = rows.iter().map(|r| r.first().copied().unwrap_or(NONE)).collect();
            let identity_where_defined = det.iter().enumerate().all(|(v, &w)| w == NONE || w == v as u32);
            if identity_where_defined {
                let mut set = CellSet::empty(vertices);
                det.iter().enumerate().filter(|(_, &w)| w != NONE).for_each(|(v, _)| set.insert(v as u32));
                return self.cell_test(set);
            }
            let next = DetTableId::new(self.det_tables.len() as u32);
            let id = *self.det_index.entry(det.clone()).or_insert(next);
            if id == next {
                self.det_tables.push(det);
            }
            return X::Op(Op::Table(id));
        }
        let table = FanTable::from_rows(&rows, vertices);
        let id = match self.fan_tables.iter().position(|t| *t == table) {
            Some(i) => i,
            None => {
                self.fan_tables.push(table);
                self.fan_tables.len() - 1
            }
        };
        X::Fan(FanTableId::new(id as u32))
    }

    /// A test that the current vertex is in `set` (folded when trivial).
    fn cell_test(&mut self, set: CellSet) -> X {
        if set.is_empty() {
            return X::Op(Op::Fail);
        }
        if set.len() == self.board.vertices() as usize {
            return X::Eps;
        }
        let next = CellSetId::new(self.cell_sets.len() as u32);
        let id = *self.cell_index.entry(set.clone()).or_insert(next);
        if id == next {
            self.cell_sets.push(set);
        }
        X::Op(Op::InSet(id))
    }

    fn convert_action(&mut self, a: &'g ir::Action, in_pattern: bool) -> Result<X, BuildError> {
        let fold = self.opts.constant_folding;
        let index = if in_pattern { 0 } else { a.index };
        Ok(match &a.kind {
            ActionKind::Shift(l) => {
                if *l >= self.board.labels() {
                    return Err(BuildError::BadIr { what: format!("label id {l}") });
                }
                X::Op(Op::Shift(*l))
            }
            ActionKind::Noop => X::Eps,
            ActionKind::On(set) => {
                let n = self.game.pieces.len();
                if let Some(p) = set.iter().find(|&&p| p as usize >= n) {
                    return Err(BuildError::BadIr { what: format!("piece id {p}") });
                }
                if set.is_empty() {
                    X::Op(Op::Fail)
                } else if fold && set.len() == n {
                    X::Eps
                } else if n <= 64 {
                    X::Op(Op::On(set.iter().fold(0u64, |m, &p| m | 1 << p)))
                } else {
                    let mut flags = vec![false; n];
                    set.iter().for_each(|&p| flags[p as usize] = true);
                    self.piece_sets.push(flags);
                    X::Op(Op::OnSet(PieceSetId::new(self.piece_sets.len() as u32 - 1)))
                }
            }
            ActionKind::Off(p) => {
                if *p as usize >= self.game.pieces.len() {
                    return Err(BuildError::BadIr { what: format!("piece id {p}") });
                }
                self.record(in_pattern, a.index, Modifier::Off { piece: *p })?;
                X::Op(Op::Off { piece: *p, index })
            }
            ActionKind::Assign(var, value) => {
                let bound = *self
                    .bounds
                    .get(*var as usize)
                    .ok_or_else(|| BuildError::BadIr { what: format!("variable id {var}") })?;
                let expr = self.expr(value)?;
                self.record(in_pattern, a.index, Modifier::Assign { var: *var, expr })?;
                match self.exprs[expr.index()] {
                    Expr::Const(c) if fold => {
                        if (0..=bound).contains(&c) {
                            X::Op(Op::AssignConst { var: *var, value: c as i32, index })
                        } else {
                            X::Op(Op::Fail)
                        }
                    }
                    Expr::Invalid => X::Op(Op::Fail),
                    _ => X::Op(Op::Assign { var: *var, expr, index }),
                }
            }
            ActionKind::Compare(lhs, rel, rhs) => {
                let (l, r) = (self.expr(lhs)?, self.expr(rhs)?);
                match (&self.exprs[l.index()], &self.exprs[r.index()]) {
                    (Expr::Invalid, _) | (_, Expr::Invalid) => X::Op(Op::Fail),
                    (Expr::Const(x), Expr::Const(y)) if fold => {
                        if rel.holds(*x, *y) {
                            X::Eps
                        } else {
                            X::Op(Op::Fail)
                        }
                    }
                    _ => X::Op(Op::Compare { lhs: l, rel: *rel, rhs: r }),
                }
            }
            ActionKind::Pattern { positive, body } => {
                if self.opts.precomputed_patterns && self.positional(body, true) {
                    let holds = self.positional.pattern_set(body).clone();
                    let set = if *positive { holds } else { holds.complement(self.board.vertices()) };
                    self.cell_test(set)
                } else {
                    let automaton = self.pattern_automaton(body)?;
                    X::Op(Op::Pattern { automaton, positive: *positive })
                }
            }
            ActionKind::SwitchPlayer(p) => {
                if in_pattern {
                    X::Eps
                } else {
                    if *p as usize >= self.game.players.len() {
                        return Err(BuildError::BadIr { what: format!("player index {p}") });
                    }
                    self.record(false, a.index, Modifier::Switch { player: p + 1, target: None })?;
                    X::Op(Op::Switch { player: p + 1, index })
                }
            }
            ActionKind::SwitchKeeper => {
                if in_pattern {
                    X::Eps
                } else {
                    self.record(false, a.index, Modifier::Switch { player: 0, target: None })?;
                    X::Op(Op::Switch { player: 0, index })
                }
            }
        })
    }

    fn record(&mut self, in_pattern: bool, index: u32, m: Modifier) -> Result<(), BuildError> {
        if in_pattern {
            return Ok(());
        }
        match self.modifiers.get_mut(index as usize) {
            Some(slot) if index > 0 => {
                *slot = m;
                Ok(())
            }
            _ => Err(BuildError::BadIr { what: format!("modifier index {index}") }),
        }
    }

    fn expr(&mut self, arith: &ir::Arith) -> Result<ExprId, BuildError> {
        let e = expr::compile(
            arith,
            self.opts.constant_folding,
            self.bounds.len() as u32,
            self.game.pieces.len() as u32,
        )?;
        self.exprs.push(e);
        Ok(ExprId::new(self.exprs.len() as u32 - 1))
    }

    fn pattern_automaton(&mut self, body: &'g Rule) -> Result<AutomatonId, BuildError> {
        if self.opts.pattern_memo {
            if let Some(&(_, id)) = self.patterns.iter().find(|(b, _)| *b == body) {
                return Ok(id);
            }
        }
        let start = self.new_node();
        let accept = self.new_node();
        self.nodes[accept as usize].accepting = true;
        let id = AutomatonId::new(self.automata.len() as u32);
        self.automata.push(Automaton { start, is_pattern: true });
        let x = self.convert(body, true)?;
        self.thompson(x, start, accept);
        self.patterns.push((body, id));
        Ok(id)
    }

    // ----------------------------------------------------------------------------------------
    // Thompson construction

    fn edge(&mut self, from: u32, ops: Vec<Op>, to: u32) {
        self.nodes[from as usize].out.push(NEdge { ops, target: to });
    }

    fn thompson(&mut self, x: X, from: u32, to: u32) {
        match x {
            X::Op(op) => self.edge(from, vec![op], to),
            X::Eps => self.edge(from, Vec::new(), to),
            X::Seq(xs) => {
                if xs.is_empty() {
                    self.edge(from, Vec::new(), to);
                    return;
                }
                let last = xs.len() - 1;
                let mut cur = from;
                for (i, x) in xs.into_iter().enumerate() {
                    let next = if i == last { to } else { self.new_node() };
                    self.thompson(x, cur, next);
                    cur = next;
                }
            }
            X::Alt(xs) => xs.into_iter().for_each(|x| self.thompson(x, from, to)),
            X::Star(body) => {
                let lp = self.new_node();
                self.edge(from, Vec::new(), lp);
                self.thompson(*body, lp, lp);
                self.edge(lp, Vec::new(), to);
            }
            X::Fan(table) => {
                let fan = self.new_node();
                self.nodes[fan as usize].fan = table.get();
                self.nodes[fan as usize].next = to;
                self.edge(from, Vec::new(), fan);
            }
        }
    }

    // ----------------------------------------------------------------------------------------
    // Folding

    fn resolve(&self, mut n: u32) -> u32 {
        while self.forward[n as usize] != NONE {
            n = self.forward[n as usize];
        }
        n
    }

    fn resolve_all(&mut self) {
        for i in 0..self.nodes.len() {
            for j in 0..self.nodes[i].out.len() {
                let t = self.resolve(self.nodes[i].out[j].target);
                self.nodes[i].out[j].target = t;
            }
            if self.nodes[i].fan != NONE {
                self.nodes[i].next = self.resolve(self.nodes[i].next);
            }
        }
        for a in 0..self.automata.len() {
            self.automata[a].start = self.resolve(self.automata[a].start);
        }
    }

    /// References to each node: edges, fan continuations and automaton starts.
    fn in_degrees(&self) -> Vec<u32> {
        let mut deg = vec![0u32; self.nodes.len()];
        for n in self.nodes.iter().filter(|n| !n.dead) {
            n.out.iter().for_each(|e| deg[e.target as usize] += 1);
            if n.fan != NONE {
                deg[n.next as usize] += 1;
            }
        }
        self.automata.iter().for_each(|a| deg[a.start as usize] += 1);
        deg
    }

    /// A node from which nothing can be completed: no edges, not accepting (fans: a useless
    /// continuation).
    fn useless(&self, mut n: u32) -> bool {
        // Fans forward to their continuation; the step bound guards against a cycle of fans.
        for _ in 0..=self.nodes.len() {
            let node = &self.nodes[n as usize];
            if node.accepting {
                return false;
            }
            if node.fan == NONE {
                return node.out.is_empty();
            }
            n = node.next;
        }
        false
    }

    fn fold(&mut self) {
        loop {
            self.resolve_all();
            let mut changed = self.prune();
            let mut deg = self.in_degrees();
            for n in 0..self.nodes.len() as u32 {
                if self.nodes[n as usize].dead {
                    continue;
                }
                changed |= self.forward_single_epsilon(n, &mut deg);
                if self.nodes[n as usize].dead {
                    continue;
                }
                changed |= self.merge_successors(n, &mut deg);
            }
            if !changed {
                break;
            }
        }
        self.resolve_all();
    }

    /// Removes edges containing `Fail` and non-switch edges into useless nodes.
    fn prune(&mut self) -> bool {
        let mut changed = false;
        let useless: Vec<bool> = (0..self.nodes.len() as u32).map(|n| self.useless(n)).collect();
        for n in 0..self.nodes.len() {
            if self.nodes[n].dead {
                continue;
            }
            let out = std::mem::take(&mut self.nodes[n].out);
            let before = out.len();
            let kept: Vec<NEdge> = out
                .into_iter()
                .filter(|e| {
                    let never_succeeds = e.ops.contains(&Op::Fail);
                    let empty_self_loop = e.ops.is_empty() && e.target as usize == n;
                    let ends_move = Op::ends_move(&e.ops);
                    let leads_nowhere = !ends_move && useless[e.target as usize];
                    !(never_succeeds || empty_self_loop || leads_nowhere)
                })
                .collect();
            changed |= kept.len() != before;
            self.nodes[n].out = kept;
        }
        changed
    }

    /// Epsilon contraction, forward form: a node whose only exit is an epsilon edge to another
    /// node is replaced by that node everywhere.
    fn forward_single_epsilon(&mut self, n: u32, deg: &mut [u32]) -> bool {
        let node = &self.nodes[n as usize];
        if node.accepting || node.fan != NONE || node.out.len() != 1 || !node.out[0].ops.is_empty() {
            return false;
        }
        let t = self.resolve(node.out[0].target);
        if t == n {
            return false;
        }
        deg[t as usize] = deg[t as usize] + deg[n as usize] - 1;
        self.forward[n as usize] = t;
        let node = &mut self.nodes[n as usize];
        node.dead = true;
        node.out.clear();
        true
    }

    /// Merges into `n` the targets of its edges that have no other entry: epsilon edges take
    /// over all the target's exits; other edges absorb the target's single exit (chain folding).
    fn merge_successors(&mut self, n: u32, deg: &mut [u32]) -> bool {
        if self.nodes[n as usize].fan != NONE {
            return false;
        }
        let mut changed = false;
        let mut j = 0;
        while j < self.nodes[n as usize].out.len() {
            let m = self.resolve(self.nodes[n as usize].out[j].target);
            self.nodes[n as usize].out[j].target = m;
            let mergeable = m != n && deg[m as usize] == 1 && {
                let mn = &self.nodes[m as usize];
                !mn.dead && mn.fan == NONE
            };
            let edge = &self.nodes[n as usize].out[j];
            let ends_move = Op::ends_move(&edge.ops);
            if !mergeable || ends_move {
                j += 1;
                continue;
            }
            if edge.ops.is_empty() {
                // n --eps--> m and m has no other entry: m's exits become n's.
                let exits = std::mem::take(&mut self.nodes[m as usize].out);
                let accepting = self.nodes[m as usize].accepting;
                self.nodes[m as usize].dead = true;
                self.nodes[n as usize].accepting |= accepting;
                self.nodes[n as usize].out.splice(j..=j, exits);
                changed = true;
                // Re-examine position j: it now holds m's first exit.
                continue;
            }
            let mn = &self.nodes[m as usize];
            if !mn.accepting && mn.out.len() == 1 {
                let exit = self.nodes[m as usize].out.pop().expect("one exit");
                self.nodes[m as usize].dead = true;
                let e = &mut self.nodes[n as usize].out[j];
                e.ops.extend(exit.ops);
                e.target = exit.target;
                changed = true;
                continue;
            }
            j += 1;
        }
        changed
    }

    // ----------------------------------------------------------------------------------------
    // Tail duplication

    /// Copies the single exit of small join nodes into the edges that enter them, so the search
    /// no longer stops there. Only nodes without a visited slot in `program` qualify: such a
    /// node is never entered twice at one vertex within a layer, so each path through the copies
    /// is exactly one former path through the node, and no move can be reported twice (this
    /// is what keeps the one-edge-per-modifier argument valid for copied switches and
    /// modifiers). Returns whether anything changed.
    fn duplicate_tails(&mut self, program: &Program, new_id: &[u32]) -> bool {
        const MAX_TAIL_OPS: usize = 4;
        const MAX_EDGE_OPS: usize = 12;
        let mut pinned = vec![false; self.nodes.len()];
        for a in &self.automata {
            pinned[a.start as usize] = true;
        }
        for n in self.nodes.iter().filter(|n| !n.dead && n.fan != NONE) {
            pinned[n.next as usize] = true;
        }
        let candidate: Vec<bool> = (0..self.nodes.len())
            .map(|j| {
                let n = &self.nodes[j];
                let id = new_id[j];
                !n.dead
                    && !pinned[j]
                    && id != NONE
                    && program.nodes[id as usize].slot == NONE
                    && n.fan == NONE
                    && !n.accepting
                    && n.out.len() == 1
                    && n.out[0].target as usize != j
                    && n.out[0].ops.len() <= MAX_TAIL_OPS
            })
            .collect();
        let mut changed = false;
        for i in 0..self.nodes.len() {
            if self.nodes[i].dead {
                continue;
            }
            for k in 0..self.nodes[i].out.len() {
                // Follow chains of candidates while the edge stays small.
                for _ in 0..self.nodes.len() {
                    let e = &self.nodes[i].out[k];
                    let j = e.target as usize;
                    let ends_move = Op::ends_move(&e.ops);
                    if ends_move || !candidate[j] || j == i {
                        break;
                    }
                    let tail = &self.nodes[j].out[0];
                    if e.ops.len() + tail.ops.len() > MAX_EDGE_OPS {
                        break;
                    }
                    let (ops, target) = (tail.ops.clone(), tail.target);
                    let e = &mut self.nodes[i].out[k];
                    e.ops.extend(ops);
                    e.target = target;
                    changed = true;
                }
            }
        }
        changed
    }

    // ----------------------------------------------------------------------------------------
    // Finishing

    /// The program of the current graph (before the analyses), and the program id of each
    /// builder node.
    fn finish(
        &mut self,
        board: BoardGraph,
        initial_pieces: Vec<u8>,
    ) -> Result<(Program, Vec<u32>), BuildError> {
        self.resolve_all();
        for m in self.modifiers.iter_mut() {
            if let Modifier::Switch { target, .. } = m {
                *target = None;
            }
        }
        // Breadth-first numbering of the live nodes, automaton by automaton.
        let mut order: Vec<u32> = Vec::new();
        let mut new_id = vec![NONE; self.nodes.len()];
        for a in 0..self.automata.len() {
            let start = self.automata[a].start;
            if new_id[start as usize] != NONE {
                continue;
            }
            new_id[start as usize] = order.len() as u32;
            order.push(start);
            let mut head = order.len() - 1;
            while head < order.len() {
                let n = &self.nodes[order[head] as usize];
                head += 1;
                let succ = n.out.iter().map(|e| e.target).chain((n.fan != NONE).then_some(n.next));
                for t in succ.collect::<Vec<_>>() {
                    if new_id[t as usize] == NONE {
                        new_id[t as usize] = order.len() as u32;
                        order.push(t);
                    }
                }
            }
        }
        if order.len() >= NONE as usize / 2 {
            return Err(BuildError::TooLarge { what: "automaton nodes" });
        }
        let mut nodes = Vec::with_capacity(order.len());
        let mut edges = Vec::new();
        let mut ops = Vec::new();
        for &old in &order {
            let n = &self.nodes[old as usize];
            let first_edge = edges.len() as u32;
            for e in &n.out {
                let first_op = ops.len() as u32;
                ops.extend_from_slice(&e.ops);
                let target = new_id[e.target as usize];
                if let Some(Op::Switch { index, player }) = e.ops.last() {
                    self.modifiers[*index as usize] =
                        Modifier::Switch { player: *player, target: Some(NodeId::new(target)) };
                }
                edges.push(Edge {
                    first_op,
                    end_op: ops.len() as u32,
                    target,
                    modifies: e
                        .ops
                        .iter()
                        .any(|op| matches!(op, Op::Off { .. } | Op::Assign { .. } | Op::AssignConst { .. })),
                });
            }
            nodes.push(Node {
                first_edge,
                end_edge: edges.len() as u32,
                fan: n.fan,
                next: if n.fan != NONE { new_id[n.next as usize] } else { NONE },
                slot: NONE,
                accepting: n.accepting,
                filter: u64::MAX,
            });
        }
        if ops.len() >= NONE as usize / 2 || edges.len() >= NONE as usize / 2 {
            return Err(BuildError::TooLarge { what: "automaton edges" });
        }
        let automata = self
            .automata
            .iter()
            .map(|a| Automaton { start: new_id[a.start as usize], is_pattern: a.is_pattern })
            .collect();
        let counts_pieces = self.opts.always_count_pieces || self.exprs.iter().any(|e| e.reads_counts());
        let program = Program {
            options: self.opts.clone(),
            board,
            num_pieces: self.game.pieces.len() as u32,
            bounds: self.bounds.clone(),
            initial_pieces,
            automata,
            nodes,
            edges,
            ops,
            det_tables: self.det_tables.clone(),
            fan_tables: self.fan_tables.clone(),
            cell_sets: self.cell_sets.clone(),
            piece_sets: self.piece_sets.clone(),
            exprs: self.exprs.clone(),
            modifiers: self.modifiers.clone(),
            visited_slots: 0,
            counts_pieces,
            monotonic: Vec::new(),
            node_class: Vec::new(),
        };
        Ok((program, new_id))
    }
}

/// Whether a positional run deserves a table: it has structure (a star or an alternative) or at
/// least two actions. A lone shift stays a neighbour lookup, a lone pattern a set test.
fn worthwhile(items: &[&Rule]) -> bool {
    fn weight(rule: &Rule) -> usize {
        match rule {
            Rule::Concat(cs) => cs.iter().map(weight).sum(),
            Rule::Alt(_) | Rule::Star(_) => 2,
            Rule::Action(a) => match a.kind {
                ActionKind::Shift(_) | ActionKind::Pattern { .. } => 1,
                _ => 0,
            },
        }
    }
    items.iter().map(|r| weight(r)).sum::<usize>() >= 2
}
