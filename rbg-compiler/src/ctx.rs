//! The code generators' shared context ([`Ctx`]): the game, its analysed program and the
//! program's [`Analysis`], the options, the state layout and the Rust names of pieces, labels and
//! variables, plus helpers that turn program parts into tokens or documentation text.

use proc_macro2::{Ident, TokenStream};
use quote::quote;
use rbg_automaton::{Analysis, AutomatonId, NodeId, NodeKind, Op, PieceSetId, Program};
use rbg_parser::ir;

use crate::exprs;
use crate::layout::Layout;
use crate::stack_plan::StackPlan;
use crate::CompileOptions;

/// Everything the generators read.
pub(crate) struct Ctx<'a> {
    pub g: &'a ir::Game,
    pub p: &'a Program,
    pub o: &'a CompileOptions,
    pub l: Layout,
    pub pieces: Vec<Ident>,
    pub labels: Vec<Ident>,
    pub vars: Vec<Ident>,
    /// Whole-program facts (owners, modifier guard, path lengths, tracked piece sets, derived
    /// reads, accept distances).
    pub a: Analysis,
    /// Some node needs a visited check, so searches carry a layer depth.
    pub has_layers: bool,
    /// Which node functions check the stack, and the reserve they keep.
    pub stack: StackPlan,
    /// Which patterns are evaluated as whole-board sets, and where (design notes 6.3).
    pub board: crate::board_sets::BoardPlan,
    /// Which patterns are tested by terms and which fans prefiltered, on state words.
    pub words: crate::word_tests::WordPlan,
    /// Which rules positions count and find their moves set-at-a-time.
    pub sets: crate::set_moves::SetPlan,
    /// Which rules nodes run their ray captures as one loop.
    pub rays: crate::ray_captures::RayPlan,
    /// The search is large, so the less speed-critical sinks share types
    /// ([`crate::fewer_searches`]).
    pub fewer_searches: bool,
}

impl Ctx<'_> {
    /// Whether these ops (or the patterns they evaluate) read piece counts or piece-location
    /// sets.
    pub(crate) fn ops_read_derived(&self, ops: &[Op]) -> bool {
        self.a.ops_read_derived(self.p, ops)
    }

    /// Whether the state keeps anything derived from the board (piece counts, piece-location
    /// sets, piece words) that `set_piece` must update.
    pub(crate) fn has_derived_state(&self) -> bool {
        self.p.counts_pieces() || !self.a.tracked_masks().is_empty() || self.words.is_used()
    }

    /// The piece-location set a fan node iterates instead of its row, if any.
    pub(crate) fn tracked_set(&self, n: u32) -> Option<usize> {
        self.a.tracked_set(self.p, NodeId::new(n))
    }

    pub(crate) fn is_pattern(&self, n: u32) -> bool {
        self.a.is_pattern_node(self.p, NodeId::new(n))
    }

    /// A `matches!` pattern accepting the pieces whose bit is set in `mask`.
    pub(crate) fn piece_pattern_mask(&self, mask: u64) -> TokenStream {
        self.piece_pattern(|p| p < 64 && (mask >> p) & 1 == 1)
    }

    /// A `matches!` pattern accepting the pieces of the program's piece set `s`.
    pub(crate) fn piece_set_pattern(&self, s: PieceSetId) -> TokenStream {
        let flags = self.p.piece_set(s);
        self.piece_pattern(|p| flags.get(p).copied().unwrap_or(false))
    }

    /// A `matches!` pattern accepting the pieces `accepts` selects (never the sentinel).
    pub(crate) fn piece_pattern(&self, accepts: impl Fn(usize) -> bool) -> TokenStream {
        let names: Vec<&Ident> =
            (0..self.pieces.len()).filter(|&p| accepts(p)).map(|p| &self.pieces[p]).collect();
        if names.is_empty() {
            return quote!(NO_PIECE);
        }
        quote!(#(#names)|*)
    }

    /// The literal stored in `State::node` for rules position `n`.
    pub(crate) fn node_value(&self, n: u32) -> TokenStream {
        self.l.node.lit(n as u64)
    }

    /// The literal stored in `State::node` after a switch to `target` (`None`: the switch can
    /// never be reached, the state is dead).
    pub(crate) fn target_value(&self, target: Option<NodeId>) -> TokenStream {
        self.l.node.lit(target.map_or(Layout::dead_node(self.p), |n| n.get() as u64))
    }

    /// Rules nodes a state can be at: the start and every switch target.
    pub(crate) fn rules_positions(&self) -> Vec<u32> {
        let mut out = vec![self.p.start().get()];
        for e in self.p.edges() {
            if self.p.ends_move(e) {
                out.push(e.target().get());
            }
        }
        out.sort_unstable();
        out.dedup();
        out.retain(|&n| self.a.owner(NodeId::new(n)) == Some(AutomatonId::RULES));
        out
    }

    pub(crate) fn describe_op(&self, op: &Op) -> String {
        let pieces = |accept: &dyn Fn(usize) -> bool| {
            let names: Vec<&str> = self
                .g
                .pieces
                .iter()
                .enumerate()
                .filter(|(i, _)| accept(*i))
                .map(|(_, n)| n.as_str())
                .collect();
            format!("{{{}}}", names.join(","))
        };
        match *op {
            Op::Shift(l) => self.g.board.labels[l as usize].clone(),
            Op::Table(t) => format!("table{t}"),
            Op::On(mask) => pieces(&|p| p < 64 && (mask >> p) & 1 == 1),
            Op::OnSet(s) => pieces(&|p| self.p.piece_set(s).get(p).copied().unwrap_or(false)),
            Op::InSet(s) => format!("{{set{s}}}"),
            Op::Off { piece, index } => format!("[{}]#{index}", self.g.pieces[piece as usize]),
            Op::Assign { var, expr, index } => {
                format!("[${}={}]#{index}", self.g.var_name(var), exprs::describe_expr(self, expr))
            }
            Op::AssignConst { var, value, index } => format!("[${}={value}]#{index}", self.g.var_name(var)),
            Op::Compare { lhs, rel, rhs } => format!(
                "{{${} {} {}}}",
                exprs::describe_expr(self, lhs),
                rel.as_str(),
                exprs::describe_expr(self, rhs)
            ),
            Op::Pattern { automaton, positive } => {
                format!("{{{} pattern{automaton}}}", if positive { "?" } else { "!" })
            }
            Op::Switch { player: 0, index } => format!("->>#{index}"),
            Op::Switch { player, index } => {
                let name = self.g.players.get(player as usize - 1).map_or("?", |p| p.name.as_str());
                format!("->{name}#{index}")
            }
            Op::Fail => "{}".into(),
        }
    }

    /// The doc comment of a node function: what it does, in RBG-like syntax.
    pub(crate) fn describe_node(&self, n: u32) -> String {
        let node = self.p.node(NodeId::new(n));
        let automaton = match self.a.owner(NodeId::new(n)) {
            Some(a) if self.is_pattern(n) => format!("pattern automaton {a}"),
            _ => "the rules".into(),
        };
        let mut doc = format!("Node {n} of {automaton}.");
        if let Some(slot) = node.slot() {
            doc.push_str(&format!(" Visited slot {slot}."));
        }
        if node.is_accepting() {
            doc.push_str(" Accepting.");
            return doc;
        }
        if let NodeKind::Fan { table, next, filter } = node.kind() {
            let kind = if self.p.fan_table(table).covers_all_vertices() {
                "every cell".to_string()
            } else {
                format!("each cell of fan table {table}")
            };
            let filter = match filter {
                Some(mask) => format!(" holding {}", self.describe_op(&Op::On(mask))),
                None => String::new(),
            };
            doc.push_str(&format!("\n\nAt {kind}{filter}: node {next}."));
            return doc;
        }
        doc.push_str(" Edges, tried in order:\n");
        for e in self.p.node_edges(NodeId::new(n)) {
            let ops: Vec<String> = self.p.edge_ops(e).iter().map(|op| self.describe_op(op)).collect();
            let text = if ops.is_empty() { "(empty)".to_string() } else { ops.join(" ") };
            doc.push_str(&format!("\n* `{text}` → node {}", e.target()));
        }
        doc
    }
}
