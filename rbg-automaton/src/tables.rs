//! The board graph, vertex sets, and the static evaluation of shift-only ("positional")
//! sub-expressions into shift tables and precomputed pattern sets (design notes 2.2-2.4).
//!
//! A positional expression reads nothing but the board graph: shifts, no-ops, and patterns whose
//! body is itself positional. Its effect is a pure relation between start and end vertices, so it
//! can be evaluated once per start vertex at build time. Evaluation works on vertex sets
//! (`reach(expr, S)` = end vertices of words of `expr` from any vertex of `S`), which makes stars
//! a frontier fixpoint. The sets are lists of the vertices reached, not board-sized bit sets, so
//! a table costs its vertices times what each reaches: a line of a million cells used to spend
//! O(V²/64) words on one pattern set.

use std::collections::HashMap;

use rbg_parser::ir::{ActionKind, Board, Rule};

use super::{BuildError, NONE};

/// The board as a dense neighbour table over vertices `0..vertices()` and edge labels
/// `0..labels()` (the numbering of the game IR); [`BoardGraph::neighbour`] reads it. Built only
/// from a checked IR board, so every stored target is a vertex or [`NONE`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardGraph {
    vertices: u32,
    labels: u32,
    /// `neighbours[v * labels + l]`: the target of the edge labelled `l` at vertex `v`, or
    /// [`NONE`].
    neighbours: Vec<u32>,
}

impl BoardGraph {
    pub(crate) fn from_ir(board: &Board) -> Result<Self, BuildError> {
        let vertices = u32::try_from(board.vertices.len())
            .ok()
            .filter(|&v| v < NONE / 2)
            .ok_or(BuildError::TooLarge { what: "vertices" })?;
        if vertices == 0 {
            return Err(BuildError::EmptyBoard);
        }
        let labels =
            u32::try_from(board.labels.len()).map_err(|_| BuildError::TooLarge { what: "labels" })?;
        let size = (vertices as usize)
            .checked_mul(labels as usize)
            .filter(|&s| s < NONE as usize)
            .ok_or(BuildError::TooLarge { what: "board edges" })?;
        let mut neighbours = vec![NONE; size];
        for (v, vertex) in board.vertices.iter().enumerate() {
            for e in &vertex.edges {
                if e.label >= labels || e.target >= vertices {
                    return Err(BuildError::BadIr { what: format!("edge {e:?} of vertex {v}") });
                }
                neighbours[v * labels as usize + e.label as usize] = e.target;
            }
        }
        Ok(BoardGraph { vertices, labels, neighbours })
    }

    /// Number of vertices (at least 1; vertex 0 is the start).
    #[inline]
    pub fn vertices(&self) -> u32 {
        self.vertices
    }

    /// Number of edge labels.
    #[inline]
    pub fn labels(&self) -> u32 {
        self.labels
    }

    /// The target of the edge labelled `label` at `vertex`, or [`NONE`]. Panics if `vertex` or
    /// `label` is out of range (callers iterate `0..vertices()` and `0..labels()`).
    #[inline]
    pub fn neighbour(&self, vertex: u32, label: u32) -> u32 {
        self.neighbours[vertex as usize * self.labels as usize + label as usize]
    }
}

/// A set of vertices as a bitset.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct CellSet {
    words: Vec<u64>,
}

impl CellSet {
    pub fn empty(vertices: u32) -> Self {
        CellSet { words: vec![0; (vertices as usize).div_ceil(64)] }
    }

    pub fn full(vertices: u32) -> Self {
        let mut s = Self::empty(vertices);
        for v in 0..vertices {
            s.insert(v);
        }
        s
    }

    #[inline]
    pub fn contains(&self, v: u32) -> bool {
        self.words.get(v as usize / 64).is_some_and(|w| (w >> (v % 64)) & 1 == 1)
    }

    pub fn insert(&mut self, v: u32) {
        self.words[v as usize / 64] |= 1 << (v % 64);
    }

    fn remove(&mut self, v: u32) {
        self.words[v as usize / 64] &= !(1 << (v % 64));
    }

    pub fn is_empty(&self) -> bool {
        self.words.iter().all(|&w| w == 0)
    }

    pub fn len(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }

    pub fn union_with(&mut self, other: &CellSet) {
        self.words.iter_mut().zip(&other.words).for_each(|(a, b)| *a |= b);
    }

    pub fn difference(&self, other: &CellSet) -> CellSet {
        CellSet { words: self.words.iter().zip(&other.words).map(|(a, b)| a & !b).collect() }
    }

    pub fn intersection(&self, other: &CellSet) -> CellSet {
        CellSet { words: self.words.iter().zip(&other.words).map(|(a, b)| a & b).collect() }
    }

    /// Complement within `0..vertices`.
    pub fn complement(&self, vertices: u32) -> CellSet {
        Self::full(vertices).difference(self)
    }

    /// Members in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        self.words.iter().enumerate().flat_map(|(i, &w)| {
            let mut w = w;
            core::iter::from_fn(move || {
                if w == 0 {
                    return None;
                }
                let bit = w.trailing_zeros();
                w &= w - 1;
                Some(i as u32 * 64 + bit)
            })
        })
    }
}

/// A branching shift table: for each vertex, its *row*, the vertices where some word of the
/// expression ends (ascending, no repeats). The rows are stored back to back in
/// [`FanTable::targets`] in vertex order (compressed sparse rows); a *uniform* table stores one
/// row used by every vertex.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FanTable {
    /// `(start, end)` of each vertex's row in `targets`.
    rows: Vec<(u32, u32)>,
    targets: Vec<u32>,
    uniform: bool,
    all_vertices: bool,
}

impl FanTable {
    /// The row of `vertex`: the vertices it fans out to, ascending. Panics if `vertex` is not a
    /// vertex of the board the table was built for.
    #[inline]
    pub fn row(&self, vertex: u32) -> &[u32] {
        let (start, end) = self.rows[vertex as usize];
        &self.targets[start as usize..end as usize]
    }

    /// The row of `vertex` as a `(start, end)` range of [`FanTable::targets`] (lets a search
    /// keep its place in a row as a plain index). Rows of successive vertices are successive
    /// ranges, except in a uniform table where every vertex has the one stored row.
    #[inline]
    pub fn row_span(&self, vertex: u32) -> (u32, u32) {
        self.rows[vertex as usize]
    }

    /// Every row, back to back; see [`FanTable::row_span`].
    #[inline]
    pub fn targets(&self) -> &[u32] {
        &self.targets
    }

    /// Every vertex has the same row (stored once).
    #[inline]
    pub fn is_uniform(&self) -> bool {
        self.uniform
    }

    /// Every row is the whole board in order (the "any square" idiom), so a search may iterate
    /// `0..vertices` without reading the table. Implies [`FanTable::is_uniform`].
    #[inline]
    pub fn covers_all_vertices(&self) -> bool {
        self.all_vertices
    }

    pub(crate) fn from_rows(rows: &[Vec<u32>], vertices: u32) -> FanTable {
        let uniform = rows.windows(2).all(|w| w[0] == w[1]);
        let all_vertices = uniform && rows.first().is_some_and(|r| r.len() == vertices as usize);
        let mut targets = Vec::new();
        let mut spans = Vec::with_capacity(rows.len());
        for (i, row) in rows.iter().enumerate() {
            if uniform && i > 0 {
                spans.push(spans[0]);
                continue;
            }
            let start = targets.len() as u32;
            targets.extend_from_slice(row);
            spans.push((start, targets.len() as u32));
        }
        FanTable { rows: spans, targets, uniform, all_vertices }
    }
}

/// Whether a rule only reads the board graph. Inside patterns, switches count as no-ops.
pub(crate) fn is_positional(rule: &Rule, in_pattern: bool, with_patterns: bool) -> bool {
    match rule {
        Rule::Concat(cs) | Rule::Alt(cs) => cs.iter().all(|c| is_positional(c, in_pattern, with_patterns)),
        Rule::Star(body) => is_positional(body, in_pattern, with_patterns),
        Rule::Action(a) => match &a.kind {
            ActionKind::Shift(_) | ActionKind::Noop => true,
            ActionKind::SwitchPlayer(_) | ActionKind::SwitchKeeper => in_pattern,
            ActionKind::Pattern { body, .. } => with_patterns && is_positional(body, true, with_patterns),
            _ => false,
        },
    }
}

/// Static evaluator of positional rules on one board.
pub(crate) struct Positional<'a> {
    board: &'a BoardGraph,
    /// Vertices where a positional pattern body has a complete word, by body address.
    pattern_sets: HashMap<*const Rule, CellSet>,
    /// Scratch of [`Positional::reach`]: one vertex set per nesting depth of stars, empty
    /// between evaluations.
    star_marks: Vec<CellSet>,
    star_depth: usize,
    /// Scratch of [`Positional::distinct`], empty between calls.
    distinct_marks: CellSet,
}

impl<'a> Positional<'a> {
    pub(crate) fn new(board: &'a BoardGraph) -> Self {
        Positional {
            board,
            pattern_sets: HashMap::new(),
            star_marks: Vec::new(),
            star_depth: 0,
            distinct_marks: CellSet::empty(board.vertices()),
        }
    }

    /// The end vertices of words of the positional `rule` started at any vertex of `from` (no
    /// repeats, in no particular order; so is the result). Sets are lists of the vertices
    /// reached, so a vertex's evaluation costs what it reaches, whatever the board's size.
    pub(crate) fn reach(&mut self, rule: &Rule, from: Vec<u32>) -> Vec<u32> {
        match rule {
            Rule::Concat(cs) => {
                let mut set = from;
                for c in cs {
                    if set.is_empty() {
                        break;
                    }
                    set = self.reach(c, set);
                }
                set
            }
            Rule::Alt(cs) => {
                let mut set = Vec::new();
                for c in cs {
                    set.extend(self.reach(c, from.clone()));
                }
                self.distinct(set)
            }
            Rule::Star(body) => {
                // The vertices reached so far, as a list and as marks on the board (a bit set
                // of this star's nesting depth, kept between evaluations and cleared after).
                let depth = self.star_depth;
                if self.star_marks.len() == depth {
                    self.star_marks.push(CellSet::empty(self.board.vertices()));
                }
                let mut marks = core::mem::take(&mut self.star_marks[depth]);
                from.iter().for_each(|&v| marks.insert(v));
                let mut all = from.clone();
                let mut frontier = from;
                self.star_depth += 1;
                while !frontier.is_empty() {
                    frontier = self.reach(body, frontier);
                    frontier.retain(|&v| !marks.contains(v));
                    frontier.iter().for_each(|&v| marks.insert(v));
                    all.extend_from_slice(&frontier);
                }
                self.star_depth -= 1;
                all.iter().for_each(|&v| marks.remove(v));
                self.star_marks[depth] = marks;
                all
            }
            Rule::Action(a) => match &a.kind {
                ActionKind::Shift(l) => {
                    let ends = from.iter().map(|&v| self.board.neighbour(v, *l)).filter(|&w| w != NONE);
                    self.distinct(ends.collect())
                }
                ActionKind::Pattern { positive, body } => {
                    let holds = self.pattern_set(body);
                    let mut set = from;
                    set.retain(|&v| holds.contains(v) == *positive);
                    set
                }
                // No-ops and, inside patterns, switches.
                _ => from,
            },
        }
    }

    /// `set` without repeats (the first of each kept, in order).
    fn distinct(&mut self, mut set: Vec<u32>) -> Vec<u32> {
        if set.len() > 1 {
            let marks = &mut self.distinct_marks;
            set.retain(|&v| {
                let new = !marks.contains(v);
                marks.insert(v);
                new
            });
            set.iter().for_each(|&v| marks.remove(v));
        }
        set
    }

    /// `set` (without repeats) in ascending order: sorted when short, read off the board's
    /// marks when it holds at least one vertex in 64 (then the scan costs less than sorting).
    fn ascending(&mut self, mut set: Vec<u32>) -> Vec<u32> {
        if set.len() * 64 < self.board.vertices() as usize {
            set.sort_unstable();
            return set;
        }
        let marks = &mut self.distinct_marks;
        set.iter().for_each(|&v| marks.insert(v));
        set.clear();
        set.extend(marks.iter());
        set.iter().for_each(|&v| marks.remove(v));
        set
    }

    /// The vertices at which the positional pattern body has a complete word.
    pub(crate) fn pattern_set(&mut self, body: &Rule) -> &CellSet {
        let key = body as *const Rule;
        if !self.pattern_sets.contains_key(&key) {
            let mut holds = CellSet::empty(self.board.vertices());
            for v in 0..self.board.vertices() {
                if !self.reach(body, vec![v]).is_empty() {
                    holds.insert(v);
                }
            }
            self.pattern_sets.insert(key, holds);
        }
        &self.pattern_sets[&key]
    }

    /// The table rows of a positional sequence (`alternative` = false) or alternative of rules
    /// taken from the game IR: `rows[v]` = the end vertices from `{v}`. The rules must outlive
    /// this evaluator (pattern results are cached by address).
    pub(crate) fn rows(&mut self, items: &[&Rule], alternative: bool) -> Vec<Vec<u32>> {
        (0..self.board.vertices())
            .map(|v| {
                let row = if alternative {
                    let ends = items.iter().flat_map(|item| self.reach(item, vec![v])).collect();
                    self.distinct(ends)
                } else {
                    items.iter().fold(vec![v], |set, item| self.reach(item, set))
                };
                self.ascending(row)
            })
            .collect()
    }
}
