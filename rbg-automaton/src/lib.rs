//! rbg-automaton: the analysed automaton ([`Program`]) of a Regular Boardgames game — the rules
//! NFA plus every static analysis, built once from the game IR. The interpreter (`rbg-interp`)
//! walks it and the compiler (`rbg-compiler`) translates it into specialised code; both depend on
//! this crate as siblings, so both engines agree by construction.
//!
//! # Layout
//!
//! All automata (the rules and one per pattern that is not precomputed) live in one node arena:
//!
//! * nodes and edges are named by [`NodeId`] and [`EdgeId`]; a [`Node`] is either a *branch*
//!   node with a contiguous range of outgoing [`Edge`]s or a *fan* node that continues at one
//!   node at every vertex of a branching shift table row ([`FanTable`]) — see [`NodeKind`]; the
//!   search iterates the row like a list of edges;
//! * an [`Edge`] carries a contiguous range of [`Op`]s (a folded chain of actions) and a target
//!   node. A switch ([`Op::Switch`]) is always the last op of its edge and its edge's target is the
//!   rules position after the move (the same for every copy of a switch); a modifier occurs on
//!   one edge, or on several copies made by tail duplication from a node that is never entered
//!   twice at one vertex per layer — either way a given `(index, vertex)` application is made at
//!   most once per search prefix and moves need no deduplication;
//! * [`Program::modifiers`] maps every action index to what applying it does (used to apply
//!   moves without searching).
//!
//! The meaning of every action is documented once, on [`Op`]; both engines implement exactly
//! that. Whole-program facts that only code generation needs (which automaton owns a node,
//! whether modifiers can repeat on a path, move lengths, tracked piece sets, derived-state reads,
//! distances to acceptance) are computed by [`Analysis`].
//!
//! # Analyses (each can be switched off in [`ProgramOptions`])
//!
//! * **shift tables** (design notes 2.1/2.2): maximal shift-only sub-expressions are replaced by
//!   a precomputed vertex → vertices table: deterministic ones become [`Op::Table`], branching
//!   ones a fan node; tables where every vertex reaches every vertex need no storage;
//! * **precomputed patterns** (2.4): patterns whose body only reads the board graph become a
//!   vertex bitset test [`Op::InSet`];
//! * **chain folding** (2.8): epsilon transitions are contracted and straight chains merged, so an
//!   edge runs a whole sequence of actions; edges that can never succeed are pruned;
//! * **tail duplication**: the short single exit of a join node that needs no visited check is
//!   copied into the edges entering it (this copies ops, modifiers included; the no-check
//!   condition keeps every move reported once, see `build::Builder::duplicate_tails`);
//! * **visited-check elimination** (2.5/2.6): only nodes that the static (node, vertex) product
//!   graph can reach twice within one modifier layer get a visited slot ([`Node::slot`]);
//! * **constant folding** (2.10): constant arithmetic is evaluated, constant assignments skip
//!   the bounds check or become [`Op::Fail`], piece counts are maintained only when some
//!   expression reads one ([`Program::counts_pieces`]);
//! * **monotonic classes** (2.15), re-derived from the definition (see [`MonotonicClass`]);
//! * **pattern sharing and memoisation** (6.10): equal pattern bodies share one automaton, and
//!   the search may cache a pattern's result per vertex while no modifier changed the state;
//! * **pattern tails**: a run of alternatives ending a pattern body that equals another
//!   pattern's body is asked as that pattern, so the two share it (see `pattern_tails`).

#![forbid(unsafe_code)]

mod analysis;
mod build;
mod expr;
mod facts;
mod pattern_tails;
pub mod switches;
mod tables;

use rbg_parser::ir;

pub use expr::{Expr, ExprOp, MAX_EXPR_STACK};
pub use facts::{Analysis, SharedNode};
pub use switches::{Switch, SwitchKind, Switches};
pub use tables::{BoardGraph, CellSet, FanTable};

/// "No such thing": no neighbour, no visited slot, no fan table.
pub const NONE: u32 = u32::MAX;

option_switches! {
    /// Which analyses and transformations to apply. All on by default; turning one off never
    /// changes the moves generated (only their order, and speed), so a miscompile can be
    /// bisected. Declared with [`option_switches!`]: see [`ProgramOptions::SWITCHES`].
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub struct ProgramOptions {
        nested {}
        fields {}
        switches {
            /// Replace shift-only sub-expressions by precomputed shift tables.
            pub shift_tables: bool = true, "shift-tables", Optimisation;
            /// Precompute patterns whose body only moves on the board graph.
            pub precomputed_patterns: bool = true, "precomputed-patterns", Optimisation;
            /// Contract epsilon transitions, fold straight chains into one edge, prune dead
            /// edges.
            pub fold_chains: bool = true, "fold-chains", Optimisation;
            /// Copy the single short exit of join nodes without a visited slot into their
            /// entering edges (needs `fold_chains`).
            pub tail_duplication: bool = true, "tail-duplication", Optimisation;
            /// Give visited slots only to nodes the static analysis cannot rule out; off = every
            /// node.
            pub visited_elimination: bool = true, "visited-elimination", Optimisation;
            /// Fold constant arithmetic, constant comparisons, always-true tests.
            pub constant_folding: bool = true, "constant-folding", Optimisation;
            /// Skip fan targets whose piece fails every first on-test of the fan's continuation.
            pub fan_filters: bool = true, "fan-filters", Optimisation;
            /// Maintain piece counts even when no expression reads them (to measure their cost).
            pub always_count_pieces: bool = false, "always-count-pieces", Measurement;
            /// Detect monotonic classes (off: flat MC regenerates the moves at every state).
            pub monotonic_classes: bool = true, "monotonic-classes", Optimisation;
            /// Share one automaton between equal pattern bodies and memoise pattern results per
            /// (pattern, vertex) while the semi-state is unchanged.
            pub pattern_memo: bool = true, "pattern-sharing", Optimisation;
            /// Ask a run of alternatives at the end of a pattern body that equals another
            /// pattern's body as that pattern, so both share one automaton and its memo (needs
            /// `pattern_memo`).
            pub pattern_tails: bool = true, "pattern-tails", Optimisation;
        }
    }
}

impl ProgramOptions {
    /// Every optimisation off: the plain algorithm of spec section 11.1 on a Thompson NFA.
    pub fn baseline() -> Self {
        ProgramOptions {
            shift_tables: false,
            precomputed_patterns: false,
            fold_chains: false,
            tail_duplication: false,
            visited_elimination: false,
            constant_folding: false,
            fan_filters: false,
            always_count_pieces: true,
            monotonic_classes: false,
            pattern_memo: false,
            pattern_tails: false,
        }
    }
}

/// Why a game cannot be compiled. Every game the parser accepts either compiles or yields one
/// of these; none of them occurs in the corpus.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BuildError {
    /// The board has no vertex (spec 6.7).
    EmptyBoard,
    /// More than 255 pieces (pieces are stored in one byte per vertex).
    TooManyPieces { count: usize },
    /// More than 2^31 vertices, labels, nodes or ops.
    TooLarge { what: &'static str },
    /// An arithmetic expression nests deeper than [`MAX_EXPR_STACK`].
    ExpressionTooDeep,
    /// An id in the IR is out of range (the IR is malformed).
    BadIr { what: String },
}

impl core::fmt::Display for BuildError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            BuildError::EmptyBoard => write!(f, "the board has no vertices"),
            BuildError::TooManyPieces { count } => {
                write!(f, "the game declares {count} pieces; the interpreter supports at most 255")
            }
            BuildError::TooLarge { what } => write!(f, "the game has too many {what}"),
            BuildError::ExpressionTooDeep => {
                write!(f, "an arithmetic expression nests deeper than {MAX_EXPR_STACK} levels")
            }
            BuildError::BadIr { what } => write!(f, "malformed game IR: {what}"),
        }
    }
}

impl std::error::Error for BuildError {}

/// Identifies a node: an index into [`Program::nodes`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId(u32);

/// Identifies an edge: an index into [`Program::edges`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct EdgeId(u32);

/// Identifies an automaton: an index into [`Program::automata`]; [`AutomatonId::RULES`] is the
/// rules, every other one a pattern body ([`Op::Pattern`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct AutomatonId(u32);

/// Identifies a visited slot ([`Node::slot`]): a search layer holds one stamp per
/// (slot, vertex), so slots are numbered densely `0..`[`Program::visited_slots`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SlotId(u32);

/// Identifies a deterministic shift table ([`Op::Table`]): an index into
/// [`Program::det_tables`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct DetTableId(u32);

/// Identifies a branching shift table ([`NodeKind::Fan`]): an index into
/// [`Program::fan_tables`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FanTableId(u32);

/// Identifies an arithmetic expression ([`Op::Assign`], [`Op::Compare`], [`Modifier::Assign`]):
/// an index into [`Program::exprs`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ExprId(u32);

/// Identifies a precomputed vertex set ([`Op::InSet`]): an index into [`Program::cell_sets`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CellSetId(u32);

/// Identifies a piece set ([`Op::OnSet`]): an index into [`Program::piece_sets`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PieceSetId(u32);

macro_rules! id_methods {
    ($id:ident) => {
        impl $id {
            pub const fn new(index: u32) -> Self {
                $id(index)
            }

            pub const fn get(self) -> u32 {
                self.0
            }

            pub const fn index(self) -> usize {
                self.0 as usize
            }
        }

        impl core::fmt::Display for $id {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                write!(f, "{}", self.0)
            }
        }
    };
}
id_methods!(NodeId);
id_methods!(EdgeId);
id_methods!(AutomatonId);
id_methods!(SlotId);
id_methods!(DetTableId);
id_methods!(FanTableId);
id_methods!(ExprId);
id_methods!(CellSetId);
id_methods!(PieceSetId);

impl AutomatonId {
    /// The rules automaton (always the first); its start is the initial rules position.
    pub const RULES: AutomatonId = AutomatonId(0);
}

/// The outgoing edges of a branch node: the contiguous ids `first..end`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct EdgeSpan {
    pub first: EdgeId,
    pub end: EdgeId,
}

impl EdgeSpan {
    pub fn len(&self) -> usize {
        (self.end.0 - self.first.0) as usize
    }

    pub fn is_empty(&self) -> bool {
        self.first == self.end
    }

    pub fn iter(&self) -> impl ExactSizeIterator<Item = EdgeId> {
        (self.first.0..self.end.0).map(EdgeId)
    }
}

/// What the search does at a node.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum NodeKind {
    /// Try the outgoing edges in order (none: a dead end, or an accepting node).
    Branch { edges: EdgeSpan },
    /// Continue at `next` from every vertex of the current vertex's row of fan table `table`
    /// ([`Program::fan_tables`]) — the row is iterated like a list of edges. With a `filter`
    /// (a piece mask that every edge of `next` tests first) the search skips row vertices whose
    /// piece is not in it without entering `next` (the "any square {P}" idiom, design notes 6.2).
    Fan { table: FanTableId, next: NodeId, filter: Option<u64> },
}

/// A node of the program graph. The fields are a compact encoding (sentinels instead of
/// options) that the accessors turn into [`NodeKind`] and options; both compile to the same
/// comparisons in the search loops.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Node {
    /// Outgoing edges `first_edge..end_edge` (empty for fan nodes).
    pub(crate) first_edge: u32,
    pub(crate) end_edge: u32,
    /// For a fan node: the [`FanTable`] to follow; [`NONE`] for branch nodes.
    pub(crate) fan: u32,
    /// For a fan node: the node entered at each vertex of the table row.
    pub(crate) next: u32,
    /// Visited slot, or [`NONE`] if the node never needs a visited check.
    pub(crate) slot: u32,
    /// Reaching this node completes a pattern (only meaningful in pattern automata).
    pub(crate) accepting: bool,
    /// For a fan node: the piece filter (`u64::MAX` = none), see [`NodeKind::Fan`].
    pub(crate) filter: u64,
}

impl Node {
    #[inline(always)]
    pub fn kind(&self) -> NodeKind {
        if self.fan == NONE {
            NodeKind::Branch {
                edges: EdgeSpan { first: EdgeId(self.first_edge), end: EdgeId(self.end_edge) },
            }
        } else {
            NodeKind::Fan {
                table: FanTableId(self.fan),
                next: NodeId(self.next),
                filter: (self.filter != u64::MAX).then_some(self.filter),
            }
        }
    }

    #[inline(always)]
    pub fn is_fan(&self) -> bool {
        self.fan != NONE
    }

    /// The node's visited slot: `None` if the node never needs a visited check. A search
    /// layer holds one stamp per (slot, vertex).
    #[inline(always)]
    pub fn slot(&self) -> Option<SlotId> {
        (self.slot != NONE).then_some(SlotId(self.slot))
    }

    /// Reaching this node completes a pattern (only meaningful in pattern automata).
    #[inline(always)]
    pub fn is_accepting(&self) -> bool {
        self.accepting
    }
}

/// An edge: a folded chain of actions ([`Program::edge_ops`]) and a target node.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Edge {
    /// The actions `first_op..end_op` run in order; the edge fails at the first invalid one.
    pub(crate) first_op: u32,
    pub(crate) end_op: u32,
    pub(crate) target: u32,
    /// The edge applies at least one off or assignment, so its target starts a new visited layer.
    pub(crate) modifies: bool,
}

impl Edge {
    /// The node entered when every op succeeded (for a switch edge: the rules position after
    /// the move).
    #[inline(always)]
    pub fn target(&self) -> NodeId {
        NodeId(self.target)
    }

    /// The edge applies at least one off or assignment, so its target starts a new visited
    /// layer.
    #[inline(always)]
    pub fn modifies(&self) -> bool {
        self.modifies
    }
}

/// One action of an edge, with its meaning (the one definition both engines implement).
///
/// The ops of an edge run in order from the current vertex; the first that does not hold fails
/// the whole edge, and everything it changed is undone by the search. Tests (`On`, `OnSet`,
/// `InSet`, `Compare`, `Pattern`) read the state; shifts (`Shift`, `Table`) move the current
/// vertex; modifiers (`Off`, `Assign`, `AssignConst`, `Switch`) write it and, outside patterns,
/// are recorded in the move as `(index, vertex)` pairs (spec 9.2). Operands are indices into the
/// program's tables.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Op {
    /// Move along the edge with this label; fails if the vertex has none.
    Shift(u32),
    /// Deterministic shift table ([`Program::det_tables`]): one lookup; fails on [`NONE`].
    Table(DetTableId),
    /// The piece on the current vertex must be in this bitmask (all piece ids < 64).
    On(u64),
    /// Like `On` for games with more than 64 pieces: index into [`Program::piece_sets`].
    OnSet(PieceSetId),
    /// The current vertex must be in this precomputed set ([`Program::cell_sets`]).
    InSet(CellSetId),
    /// Put a piece on the current vertex. `index` is the action index (0 inside patterns).
    Off { piece: u32, index: u32 },
    /// Set a variable to an expression ([`Program::exprs`]), failing when the value is out of
    /// `0..=bound` or cannot be computed (division by zero, overflow).
    Assign { var: u32, expr: ExprId, index: u32 },
    /// Set a variable to a constant already known to be within its bounds.
    AssignConst { var: u32, value: i32, index: u32 },
    /// Compare two expressions; fails when the relation does not hold or a side cannot be computed.
    Compare { lhs: ExprId, rel: ir::RelOp, rhs: ExprId },
    /// Evaluate the pattern automaton [`Program::automaton`]`(automaton)` here; with
    /// `positive` false the op holds when the pattern does not.
    Pattern { automaton: AutomatonId, positive: bool },
    /// Give the turn to `player` (0 = keeper) and end the move. Always the last op of its edge.
    Switch { player: u32, index: u32 },
    /// Never valid (empty on-set, constant out-of-range assignment, …).
    Fail,
}

impl Op {
    /// Whether an edge with these ops ends a move (its last op is a switch).
    pub fn ends_move(ops: &[Op]) -> bool {
        matches!(ops.last(), Some(Op::Switch { .. }))
    }

    pub fn is_modifier(&self) -> bool {
        matches!(self, Op::Off { .. } | Op::Assign { .. } | Op::AssignConst { .. } | Op::Switch { .. })
    }
}

/// An automaton of the program: the rules ([`AutomatonId::RULES`]) or a pattern body.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Automaton {
    pub(crate) start: u32,
    pub(crate) is_pattern: bool,
}

impl Automaton {
    pub fn start(&self) -> NodeId {
        NodeId(self.start)
    }

    pub fn is_pattern(&self) -> bool {
        self.is_pattern
    }
}

/// What applying a modifier with a given action index does (for applying moves).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Modifier {
    /// Not a modifier index (0, or an index whose action was compiled away).
    None,
    Off {
        piece: u32,
    },
    Assign {
        var: u32,
        expr: ExprId,
    },
    /// Player 0 is the keeper; `target` is the rules position after the switch (`None` when the
    /// switch can never be reached).
    Switch {
        player: u32,
        target: Option<NodeId>,
    },
}

/// A monotonic class (design notes 2.15), derived from the definition:
///
/// the rules position `node` is entered only by a player switch, and every move from it is
/// "fan over a *uniform* shift table (the same row `cells` for every current vertex), then one
/// edge `[{P_i}] ->x_i`" with nothing else — so the legal moves there are exactly the single
/// switches `(switches[i].0, c)` for `c` in `cells` holding a piece of `P_i`. If no off outside
/// patterns ever places a piece of any `P_i`, the legal set at a later visit to `node` in the same
/// play is a subset of the earlier one, and a cached list can be filtered instead of regenerated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MonotonicClass {
    pub(crate) node: u32,
    pub(crate) switches: Vec<(u32, Vec<bool>)>,
    pub(crate) cells: Vec<u32>,
}

impl MonotonicClass {
    /// The class's rules position.
    pub fn node(&self) -> NodeId {
        NodeId(self.node)
    }

    /// `(switch action index, piece mask)`; the mask has entry `p` set when piece `p` is
    /// accepted.
    pub fn switches(&self) -> &[(u32, Vec<bool>)] {
        &self.switches
    }

    /// The uniform row: the cells the class's fan visits, in the search's order. The legal
    /// moves at the class are, in search order, `(switches[i].0, c)` for each `c` here (outer)
    /// and each `i` whose mask accepts the piece on `c` (inner).
    pub fn cells(&self) -> &[u32] {
        &self.cells
    }
}

/// The compiled program of one game. Immutable once built; read through the accessors.
#[derive(Clone, Debug)]
pub struct Program {
    pub(crate) options: ProgramOptions,
    pub(crate) board: BoardGraph,
    pub(crate) num_pieces: u32,
    pub(crate) bounds: Vec<i64>,
    pub(crate) initial_pieces: Vec<u8>,
    pub(crate) automata: Vec<Automaton>,
    pub(crate) nodes: Vec<Node>,
    pub(crate) edges: Vec<Edge>,
    pub(crate) ops: Vec<Op>,
    pub(crate) det_tables: Vec<Vec<u32>>,
    pub(crate) fan_tables: Vec<FanTable>,
    pub(crate) cell_sets: Vec<CellSet>,
    pub(crate) piece_sets: Vec<Vec<bool>>,
    pub(crate) exprs: Vec<Expr>,
    pub(crate) modifiers: Vec<Modifier>,
    pub(crate) visited_slots: u32,
    pub(crate) counts_pieces: bool,
    pub(crate) monotonic: Vec<MonotonicClass>,
    /// Class id of each node ([`NONE`] if the node is not a class).
    pub(crate) node_class: Vec<u32>,
}

impl Program {
    /// Compiles a game.
    pub fn build(game: &ir::Game, options: &ProgramOptions) -> Result<Program, BuildError> {
        build::build(game, options)
    }

    /// The analyses the program was built with.
    pub fn options(&self) -> &ProgramOptions {
        &self.options
    }

    pub fn board(&self) -> &BoardGraph {
        &self.board
    }

    pub fn num_pieces(&self) -> u32 {
        self.num_pieces
    }

    /// Upper bound of every variable (unified numbering: scores first).
    pub fn bounds(&self) -> &[i64] {
        &self.bounds
    }

    /// The piece on every vertex in the initial state.
    pub fn initial_pieces(&self) -> &[u8] {
        &self.initial_pieces
    }

    /// The rules ([`AutomatonId::RULES`]) and one automaton per pattern that is not precomputed,
    /// indexed by [`AutomatonId`].
    pub fn automata(&self) -> &[Automaton] {
        &self.automata
    }

    /// The automaton `id` (the rules, or the pattern body of an [`Op::Pattern`]).
    #[inline(always)]
    pub fn automaton(&self, id: AutomatonId) -> &Automaton {
        &self.automata[id.index()]
    }

    /// The ids of [`Program::automata`], in order.
    pub fn automaton_ids(&self) -> impl ExactSizeIterator<Item = AutomatonId> {
        (0..self.automata.len() as u32).map(AutomatonId)
    }

    /// Every node of every automaton, indexed by [`NodeId`].
    pub fn nodes(&self) -> &[Node] {
        &self.nodes
    }

    #[inline(always)]
    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id.index()]
    }

    /// Every edge, indexed by [`EdgeId`]; a branch node's edges are contiguous.
    pub fn edges(&self) -> &[Edge] {
        &self.edges
    }

    #[inline(always)]
    pub fn edge(&self, id: EdgeId) -> &Edge {
        &self.edges[id.index()]
    }

    /// Deterministic shift tables of [`Op::Table`], indexed by [`DetTableId`]: vertex → vertex
    /// or [`NONE`].
    pub fn det_tables(&self) -> &[Vec<u32>] {
        &self.det_tables
    }

    /// The deterministic shift table `id`: entry `v` is where the shift ends from vertex `v`,
    /// or [`NONE`].
    #[inline(always)]
    pub fn det_table(&self, id: DetTableId) -> &[u32] {
        &self.det_tables[id.index()]
    }

    /// Branching shift tables of fan nodes ([`NodeKind::Fan`]), indexed by [`FanTableId`].
    pub fn fan_tables(&self) -> &[FanTable] {
        &self.fan_tables
    }

    #[inline(always)]
    pub fn fan_table(&self, id: FanTableId) -> &FanTable {
        &self.fan_tables[id.index()]
    }

    /// Precomputed vertex sets of [`Op::InSet`], indexed by [`CellSetId`].
    pub fn cell_sets(&self) -> &[CellSet] {
        &self.cell_sets
    }

    #[inline(always)]
    pub fn cell_set(&self, id: CellSetId) -> &CellSet {
        &self.cell_sets[id.index()]
    }

    /// Piece sets of [`Op::OnSet`], indexed by [`PieceSetId`]; one bool per piece.
    pub fn piece_sets(&self) -> &[Vec<bool>] {
        &self.piece_sets
    }

    /// The piece set `id`: entry `p` is whether piece `p` is in it.
    #[inline(always)]
    pub fn piece_set(&self, id: PieceSetId) -> &[bool] {
        &self.piece_sets[id.index()]
    }

    /// Arithmetic expressions of [`Op::Assign`] and [`Op::Compare`], indexed by [`ExprId`].
    pub fn exprs(&self) -> &[Expr] {
        &self.exprs
    }

    #[inline(always)]
    pub fn expr(&self, id: ExprId) -> &Expr {
        &self.exprs[id.index()]
    }

    /// What each action index does, indexed by action index (`0..=num_modifiers`).
    pub fn modifiers(&self) -> &[Modifier] {
        &self.modifiers
    }

    /// Number of visited slots; visited layers hold `visited_slots * vertices` stamps.
    pub fn visited_slots(&self) -> u32 {
        self.visited_slots
    }

    /// Whether states maintain piece counts (some expression reads one, or forced).
    pub fn counts_pieces(&self) -> bool {
        self.counts_pieces
    }

    /// The monotonic classes (empty when the analysis is off).
    pub fn monotonic(&self) -> &[MonotonicClass] {
        &self.monotonic
    }

    /// The index in [`Program::monotonic`] of the class at rules position `node`, if any.
    #[inline]
    pub fn node_class(&self, node: NodeId) -> Option<u32> {
        self.node_class.get(node.index()).copied().filter(|&c| c != NONE)
    }

    /// The rules position of the initial state.
    pub fn start(&self) -> NodeId {
        self.automaton(AutomatonId::RULES).start()
    }

    /// All nodes reachable from `start` through edges and fan continuations, in BFS order.
    pub fn reachable(&self, start: NodeId) -> Vec<NodeId> {
        analysis::reachable(self, start.0).into_iter().map(NodeId).collect()
    }

    /// The outgoing edges of a node (empty for fan nodes).
    #[inline(always)]
    pub fn node_edges(&self, node: NodeId) -> &[Edge] {
        self.edges_of(node.0)
    }

    pub(crate) fn edges_of(&self, node: u32) -> &[Edge] {
        let n = &self.nodes[node as usize];
        &self.edges[n.first_edge as usize..n.end_edge as usize]
    }

    /// Whether the edge ends a move (its last op is a switch).
    pub fn ends_move(&self, edge: &Edge) -> bool {
        Op::ends_move(self.edge_ops(edge))
    }

    /// The ops of an edge, run in order; the edge fails at the first that does not hold.
    #[inline(always)]
    pub fn edge_ops(&self, edge: &Edge) -> &[Op] {
        &self.ops[edge.first_op as usize..edge.end_op as usize]
    }

    /// Number of nodes with a visited check.
    pub fn checked_nodes(&self) -> usize {
        self.nodes.iter().filter(|n| n.slot != NONE).count()
    }

    /// A listing of every node and edge, for debugging and for reading what the analyses did.
    pub fn dump(&self) -> String {
        use std::fmt::Write;
        let mut out = String::new();
        for (i, a) in self.automata.iter().enumerate() {
            let _ = writeln!(
                out,
                "automaton {i}: start {}{}",
                a.start,
                if a.is_pattern { " (pattern)" } else { "" }
            );
        }
        for (i, n) in self.nodes.iter().enumerate() {
            let slot = if n.slot == NONE { String::new() } else { format!(" slot {}", n.slot) };
            let acc = if n.accepting { " accepting" } else { "" };
            if n.is_fan() {
                let t = &self.fan_tables[n.fan as usize];
                let kind = if t.covers_all_vertices() {
                    "all"
                } else if t.is_uniform() {
                    "uniform"
                } else {
                    "rows"
                };
                let filter =
                    if n.filter == u64::MAX { String::new() } else { format!(" filter {:#x}", n.filter) };
                let _ =
                    writeln!(out, "node {i}{slot}{acc}: fan table {} ({kind}){filter} -> {}", n.fan, n.next);
                continue;
            }
            let _ = writeln!(out, "node {i}{slot}{acc}:");
            for e in self.edges_of(i as u32) {
                let _ = writeln!(out, "    {:?} -> {}", self.edge_ops(e), e.target);
            }
        }
        out
    }

    /// A short human-readable summary (sizes and analysis results), for diagnostics.
    pub fn summary(&self) -> String {
        format!(
            "{} automata, {} nodes ({} fan, {} checked), {} edges, {} ops, {} det tables, {} fan tables, \
             {} precomputed sets, {} monotonic classes, piece counts {}",
            self.automata.len(),
            self.nodes.len(),
            self.nodes.iter().filter(|n| n.is_fan()).count(),
            self.checked_nodes(),
            self.edges.len(),
            self.ops.len(),
            self.det_tables.len(),
            self.fan_tables.len(),
            self.cell_sets.len(),
            self.monotonic.len(),
            if self.counts_pieces { "on" } else { "off" },
        )
    }
}
