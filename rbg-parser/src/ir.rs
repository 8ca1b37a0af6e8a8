//! The game IR: what the front end hands to the interpreter and the compiler.
//!
//! Everything is resolved to dense ids:
//! * pieces, edge labels and declared variables are sorted by name (byte order) and numbered
//!   from 0 in that order, so sorted ids print in the reference's sorted order;
//! * players keep declaration order; player `i` (0-based) is player number `i + 1` at run time
//!   (the keeper is 0);
//! * variables in the unified [`VarId`] numbering: ids `0..players.len()` are the players'
//!   scores, then the declared variables in sorted order;
//! * vertices are numbered in board order; vertex 0 is the starting vertex.
//!
//! The rules are the reference parser's lowered expression (simplified and flattened, spec
//! section 9.1) with the reference's action indices (9.2).

/// Index into [`Game::pieces`].
pub type PieceId = u32;
/// Index into [`Board::labels`].
pub type LabelId = u32;
/// Index into [`Board::vertices`].
pub type VertexId = u32;
/// Unified variable id: players' scores first, then declared variables (see module docs).
pub type VarId = u32;
/// 0-based index into [`Game::players`].
pub type PlayerIdx = u32;

/// A name with an upper bound (lower bound is always 0).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bounded {
    pub name: String,
    pub bound: u32,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    /// Players in declaration order. Duplicates are kept (the reference prints both); name
    /// lookups resolve to the first.
    pub players: Vec<Bounded>,
    /// Pieces, sorted, without duplicates.
    pub pieces: Vec<String>,
    /// Declared variables, sorted, without duplicates (first bound kept).
    pub variables: Vec<Bounded>,
    pub board: Board,
    /// The lowered, indexed rules.
    pub rules: Rule,
    /// Number of modifiers = the largest action index.
    pub modifiers: u32,
    pub straightness: Straightness,
}

impl Game {
    /// Number of variables in the unified numbering.
    pub fn num_vars(&self) -> usize {
        self.players.len() + self.variables.len()
    }

    /// Indices of the switches of the rules, sorted and without duplicates (patterns have none:
    /// their contents carry index 0 and cannot switch).
    pub fn switch_indices(&self) -> Vec<u32> {
        fn collect(rule: &Rule, out: &mut Vec<u32>) {
            match rule {
                Rule::Concat(cs) | Rule::Alt(cs) => cs.iter().for_each(|c| collect(c, out)),
                Rule::Star(body) => collect(body, out),
                Rule::Action(a) if a.kind.is_switch() => out.push(a.index),
                Rule::Action(_) => {}
            }
        }
        let mut out = Vec::new();
        collect(&self.rules, &mut out);
        out.sort_unstable();
        out.dedup();
        out
    }

    pub fn var_name(&self, v: VarId) -> &str {
        let v = v as usize;
        match self.players.get(v) {
            Some(p) => &p.name,
            None => &self.variables[v - self.players.len()].name,
        }
    }

    pub fn var_bound(&self, v: VarId) -> u32 {
        let v = v as usize;
        match self.players.get(v) {
            Some(p) => p.bound,
            None => self.variables[v - self.players.len()].bound,
        }
    }

    /// The bound of every variable in the unified numbering (scores first).
    pub fn var_bounds(&self) -> Vec<i64> {
        (0..self.num_vars() as u32).map(|v| self.var_bound(v) as i64).collect()
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    /// All edge labels named in the board section (for generators: all label arguments, used
    /// or not), sorted, without duplicates.
    pub labels: Vec<String>,
    /// Vertices in board order; vertex 0 is the start.
    pub vertices: Vec<Vertex>,
    /// Where each vertex lies, one entry per vertex in vertex order, for boards made by a
    /// generator; `None` for a board written as an explicit node list (it has no geometry).
    pub positions: Option<Vec<Position>>,
    /// For a board made by the `tiling` generator: its relation words and graph counts.
    pub geometry: Option<BoardGeometry>,
}

/// What a `tiling` board knows beyond its vertices (docs/language-extensions.md).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardGeometry {
    /// Relation words usable in the rules (`orthogonal`, `diagonal`, `adjacent`,
    /// `offdiagonal`, `all`) with the labels each stands for, as a choice; only relations
    /// with at least one label.
    pub relations: Vec<(String, Vec<LabelId>)>,
    /// Whether the sites are the tiling's vertices (else its cells).
    pub on_vertices: bool,
    /// The counts of the tiling's graph: vertices, edges, cells.
    pub graph_vertices: usize,
    pub graph_edges: usize,
    pub graph_cells: usize,
}

/// The place of one generated vertex: grid coordinates and a point to draw it at.
///
/// `coords` by generator (the vertex names give the row index `y` and the index in the row):
/// * `rectangle`: `[x, y, 0]`, `x` the column and `y` the row (the name `rx{x}y{y}`); `right`
///   (the fourth label) adds 1 to `x`, `down` (the second) adds 1 to `y`.
/// * `hexagon`: axial coordinates `[q, y, 0]`: `y` is the row (the name `hx{c}y{y}`) and
///   `q = c + max(0, y - m)` where `c` is the index in the row and `m` the index of the longest
///   row, so that every label moves by the same step everywhere: `e` (+1, 0), `w` (-1, 0),
///   `se` (+1, +1), `sw` (0, +1), `nw` (-1, -1), `ne` (0, -1) in the generator's argument order
///   `nw, ne, e, se, sw, w`.
/// * `cuboid`: `[x, y, z]` as in the name `cx{x}y{y}z{z}`; `right` adds 1 to `x`, `down` to `y`,
///   `front` (the fifth label) to `z`.
///
/// `point` is `[x, y]` in cell units with `y` growing downwards, as on a screen:
/// * `rectangle`: the column and the row.
/// * `hexagon`: rows are `sqrt(3)/2` apart and each row is shifted right by half a cell per row
///   it lies away from the longest row (which starts at 0), so neighbouring cells are exactly 1
///   apart and the board is drawn as a hexagon.
/// * `cuboid`: layers side by side from left to right, one empty column between layers: layer
///   `z` starts at `x = z * (width + 1)`.
///
/// Equality compares the points bit for bit (they are always finite), so `Position` is `Eq`.
#[derive(Copy, Clone, Debug)]
pub struct Position {
    pub coords: [i32; 3],
    pub point: [f64; 2],
}

impl PartialEq for Position {
    fn eq(&self, other: &Self) -> bool {
        self.coords == other.coords && self.point.map(f64::to_bits) == other.point.map(f64::to_bits)
    }
}

impl Eq for Position {}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Vertex {
    pub name: String,
    pub piece: PieceId,
    /// Outgoing edges sorted by label id (at most one per label).
    pub edges: Vec<Edge>,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Edge {
    pub label: LabelId,
    pub target: VertexId,
}

impl Vertex {
    /// The target of the edge with this label, if any.
    pub fn neighbour(&self, label: LabelId) -> Option<VertexId> {
        self.edges.iter().find(|e| e.label == label).map(|e| e.target)
    }
}

/// A lowered rules expression.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Rule {
    /// Children in order; never exactly one child after lowering.
    Concat(Vec<Rule>),
    /// Alternatives in order; may be empty (`[]`), never exactly one child.
    Alt(Vec<Rule>),
    Star(Box<Rule>),
    Action(Action),
}

/// One action occurrence with its index (spec 9.2): modifiers (off, assignment, switches)
/// carry their own number from 1; other actions carry the number the next modifier gets
/// (irrelevant for moves); everything inside a pattern carries 0.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Action {
    pub kind: ActionKind,
    pub index: u32,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ActionKind {
    Shift(LabelId),
    /// Sorted, without duplicates; empty = never valid.
    On(Vec<PieceId>),
    Off(PieceId),
    Assign(VarId, Arith),
    Compare(Arith, RelOp, Arith),
    Pattern {
        positive: bool,
        body: Box<Rule>,
    },
    SwitchPlayer(PlayerIdx),
    SwitchKeeper,
    Noop,
}

impl ActionKind {
    /// Offs, assignments and switches.
    pub fn is_modifier(&self) -> bool {
        matches!(
            self,
            ActionKind::Off(_)
                | ActionKind::Assign(..)
                | ActionKind::SwitchPlayer(_)
                | ActionKind::SwitchKeeper
        )
    }

    pub fn is_switch(&self) -> bool {
        matches!(self, ActionKind::SwitchPlayer(_) | ActionKind::SwitchKeeper)
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum RelOp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl RelOp {
    pub fn as_str(self) -> &'static str {
        match self {
            RelOp::Eq => "==",
            RelOp::Ne => "!=",
            RelOp::Lt => "<",
            RelOp::Le => "<=",
            RelOp::Gt => ">",
            RelOp::Ge => ">=",
        }
    }

    pub fn holds(self, a: i64, b: i64) -> bool {
        match self {
            RelOp::Eq => a == b,
            RelOp::Ne => a != b,
            RelOp::Lt => a < b,
            RelOp::Le => a <= b,
            RelOp::Gt => a > b,
            RelOp::Ge => a >= b,
        }
    }
}

/// Normalised arithmetic (spec 9.1): operations have at least two operands; a `Sum` has no
/// `Sum` operand and a `Product` no `Product` operand; `Difference` and `Quotient` fold left.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Arith {
    /// A non-negative literal (at most 2^31 - 1).
    Const(i64),
    /// A variable's value or a player's score.
    Var(VarId),
    /// The number of vertices holding this piece.
    Count(PieceId),
    Sum(Vec<Arith>),
    Difference(Vec<Arith>),
    Product(Vec<Arith>),
    /// Integer division truncating toward zero.
    Quotient(Vec<Arith>),
}

/// The four straightness figures of spec section 12.2 (-2 = unbounded, -1 = no segment).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Straightness {
    pub applicational: i64,
    pub main: i64,
    pub moves: i64,
    pub semimoves: i64,
}
