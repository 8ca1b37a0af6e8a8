//! The interpreter: [`rbg_core::Game`] for any game, on top of a compiled [`Program`].
//!
//! # Design
//!
//! * [`Interpreter`] owns the immutable [`Program`] and the search limits; it is `Sync` and is
//!   shared by reference between threads. Each thread passes its own [`Scratch`].
//! * [`State`] is flat: one byte per vertex for pieces, `i32` per variable, optional piece counts
//!   (only when some expression reads one), optional piece-location bitsets (only when some
//!   filtered fan covers the whole board), the current vertex, player and rules position.
//!   `clone_from` reuses the buffers, so drivers copy states without allocating.
//! * Moves are applied without re-validation (spec 10.4): each pair's modifier is looked up by
//!   action index in [`Program::modifiers`]; assignments are re-evaluated in order, so later ones
//!   see earlier ones; the final switch sets the player and the rules position.
//! * The keeper applies the first move its search finds, in place, by keeping the search's
//!   modifications instead of undoing them. A checked mode ([`InterpOptions::checked_keeper`])
//!   instead generates every keeper move and fails with [`SearchError::AmbiguousKeeper`] when two
//!   of them lead to different states.
//! * States are encoded with the core's format ([`Game::encode_state`]); decoding checks that
//!   the (player, rules position) pair is one a state can have (the start, or a switch's) and
//!   rebuilds the derived data (piece counts, piece bitsets).

use core::ops::ControlFlow;

use rbg_core::split::NextActionsFilter;
use rbg_core::state_codec::{Fnv1a, StateCodecError, StateParts};
use rbg_core::{Action, Game, GameInfo, MoveList, Player, SearchError, VertexPosition, KEEPER};
use rbg_parser::ir;

use crate::code::{self, ExecEdge, ExecModifier, ExecNode, Instr, PatternEval, Ray};
use crate::program::{BuildError, Modifier, NodeId, NodeKind, Program, ProgramOptions, NONE};
use crate::search::{Scratch, Sink};

crate::program::option_switches! {
    /// Interpreter configuration: program analyses, search bounds and the interpreter's own
    /// switches (declared with [`crate::program::option_switches!`]: see
    /// [`InterpOptions::SWITCHES`]).
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub struct InterpOptions {
        nested {
            /// The analyses of the shared program.
            pub program: ProgramOptions,
        }
        fields {
            /// Most modifiers (offs and assignments, including those applied inside patterns) on
            /// one search path; beyond it the search fails with [`SearchError::MoveTooLong`].
            pub max_modifiers: usize = 10_000,
            /// Most search branch points (nodes entered with more than one alternative left,
            /// patterns included) in one move generation or keeper step; beyond it
            /// [`SearchError::SearchTooLarge`].
            pub max_search_nodes: u64 = 1 << 32,
        }
        switches {
            /// Verify that all keeper moves lead to the same state (slow; a check of the game
            /// description, not an optimisation).
            pub checked_keeper: bool = false, "checked-keeper", Check;
            /// Fuse frequent op pairs into single interpreter instructions.
            pub fuse_ops: bool = true, "fuse-ops", Optimisation;
            /// Evaluate patterns that write nothing and need no visited checks by plain
            /// recursion.
            pub pure_patterns: bool = true, "pure-patterns", Optimisation;
            /// Also evaluate by plain recursion the patterns that write nothing but need
            /// visited checks or evaluate nested patterns, over one visited layer of their own
            /// (needs `pure_patterns`).
            pub read_only_patterns: bool = true, "read-only-patterns", Optimisation;
            /// Evaluate patterns whose every edge from the start reaches acceptance in one step
            /// (e.g. `{! down {e}}`) in place, without a call or the result memo.
            pub probe_patterns: bool = true, "probe-patterns", Optimisation;
            /// Run shifts and deterministic shift-table steps as lookups in one flat table (and,
            /// with `fuse_ops`, fuse an on-test followed by such a step).
            pub flat_steps: bool = true, "flat-steps", Optimisation;
            /// In patterns, walk ray loops (`({x} up)* {y}` with disjoint `x`, `y`) in one
            /// loop instead of a recursive call per step (needs `flat_steps` and `fuse_ops`).
            pub ray_patterns: bool = true, "ray-patterns", Optimisation;
            /// Skip the on-test at the start of an edge entered from a piece-filtered fan when
            /// the filter already guarantees it.
            pub skip_filtered_tests: bool = true, "skip-filtered-tests", Optimisation;
            /// Keep piece-location bitsets in states, so a filtered fan over the whole board
            /// ("any square {P}") visits only the vertices holding a piece of P (design notes
            /// 6.2).
            pub piece_bitsets: bool = true, "piece-bitsets", Optimisation;
        }
    }
}

/// Search bounds, copied out of the options for the hot path.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Limits {
    pub max_modifiers: usize,
    pub max_search_nodes: u64,
}

/// A game state of the interpreter.
#[derive(Debug, PartialEq, Eq)]
pub struct State {
    pub(crate) pieces: Vec<u8>,
    pub(crate) vars: Vec<i32>,
    /// Pieces of each kind on the board; empty when the program does not count pieces.
    pub(crate) counts: Vec<i32>,
    /// Piece-location bitsets: bit `v % 64` of word `piece * occ_words + v / 64` is set when
    /// vertex `v` holds `piece`; empty when the interpreter does not use them.
    pub(crate) occ: Vec<u64>,
    pub(crate) occ_words: usize,
    pub(crate) vertex: u32,
    pub(crate) player: u32,
    pub(crate) node: u32,
}

impl Clone for State {
    fn clone(&self) -> Self {
        State {
            pieces: self.pieces.clone(),
            vars: self.vars.clone(),
            counts: self.counts.clone(),
            occ: self.occ.clone(),
            occ_words: self.occ_words,
            vertex: self.vertex,
            player: self.player,
            node: self.node,
        }
    }

    fn clone_from(&mut self, source: &Self) {
        self.pieces.clone_from(&source.pieces);
        self.vars.clone_from(&source.vars);
        self.counts.clone_from(&source.counts);
        self.occ.clone_from(&source.occ);
        self.occ_words = source.occ_words;
        self.vertex = source.vertex;
        self.player = source.player;
        self.node = source.node;
    }
}

impl State {
    /// Puts a piece on a vertex, keeping the counts (if any) up to date.
    #[inline(always)]
    pub(crate) fn set_piece(&mut self, vertex: u32, piece: u8) {
        let slot = &mut self.pieces[vertex as usize];
        if !self.counts.is_empty() {
            self.counts[*slot as usize] -= 1;
            self.counts[piece as usize] += 1;
        }
        if !self.occ.is_empty() {
            let words = self.occ_words;
            let (word, bit) = (vertex as usize / 64, 1u64 << (vertex % 64));
            self.occ[*slot as usize * words + word] &= !bit;
            self.occ[piece as usize * words + word] |= bit;
        }
        *slot = piece;
    }
}

/// The RBG interpreter for one game.
#[derive(Clone, Debug)]
pub struct Interpreter {
    pub(crate) program: Program,
    /// The program's nodes in the search loop's encoding.
    pub(crate) nodes: Vec<ExecNode>,
    /// The program's edges with their executable instruction ranges.
    pub(crate) edges: Vec<ExecEdge>,
    pub(crate) code: Vec<Instr>,
    /// The flat step table of [`Instr::Step`] (see [`code::Lowered::steps`]).
    pub(crate) steps: Vec<u32>,
    /// The ray nodes' loops (see [`code::rays`]), indexed by [`ExecNode::ray`].
    pub(crate) rays: Vec<Ray>,
    /// The program's modifiers by action index, encoded for applying moves.
    modifiers: Vec<ExecModifier>,
    /// Per automaton: how to evaluate it (see [`code::pattern_evals`]).
    pub(crate) pattern_evals: Vec<PatternEval>,
    /// States keep piece-location bitsets (some filtered fan covers the whole board).
    pub(crate) piece_bitsets: bool,
    pub(crate) limits: Limits,
    checked_keeper: bool,
    info: GameInfo,
    /// For switch indices of monotonic classes: the accepted pieces.
    class_masks: Vec<Vec<bool>>,
    /// The (player, rules position) pairs a state can have between moves, sorted: the
    /// keeper at the start, and each switch's player and target.
    positions: Vec<(Player, u32)>,
    /// See [`Game::rules_fingerprint`].
    rules_fingerprint: u64,
}

impl Interpreter {
    /// A state with these parts and its derived data (piece counts, piece bitsets) built.
    fn state_with(&self, pieces: Vec<u8>, vars: Vec<i32>, vertex: u32, player: Player, node: u32) -> State {
        let p = &self.program;
        let counts = if p.counts_pieces() {
            let mut c = vec![0i32; p.num_pieces() as usize];
            pieces.iter().for_each(|&x| c[x as usize] += 1);
            c
        } else {
            Vec::new()
        };
        let occ_words = (p.board().vertices() as usize).div_ceil(64);
        let occ = if self.piece_bitsets {
            let mut occ = vec![0u64; p.num_pieces() as usize * occ_words];
            for (v, &x) in pieces.iter().enumerate() {
                occ[x as usize * occ_words + v / 64] |= 1 << (v % 64);
            }
            occ
        } else {
            Vec::new()
        };
        State { pieces, vars, counts, occ, occ_words, vertex, player, node }
    }

    /// Compiles `game`; `name` is reported in [`GameInfo::name`].
    pub fn new(game: &ir::Game, name: &str, options: InterpOptions) -> Result<Self, BuildError> {
        let program = Program::build(game, &options.program)?;
        let mut class_masks = vec![Vec::new(); program.modifiers().len()];
        for class in program.monotonic() {
            for (index, mask) in class.switches() {
                class_masks[*index as usize] = mask.clone();
            }
        }
        let code::Lowered { mut edges, mut code, steps } =
            code::lower(&program, options.fuse_ops, options.flat_steps);
        if options.probe_patterns {
            code::probes(&program, &edges, &mut code);
        }
        let pattern_evals = if options.pure_patterns {
            code::pattern_evals(&program, &edges, &code, options.read_only_patterns)
        } else {
            vec![PatternEval::Search; program.automata().len()]
        };
        let piece_bitsets = options.piece_bitsets
            && program.nodes().iter().any(|n| {
                matches!(n.kind(), NodeKind::Fan { table, filter: Some(_), .. }
                    if program.fan_table(table).covers_all_vertices())
            });
        let mut nodes = code::lower_nodes(&program);
        if options.skip_filtered_tests {
            code::skip_filtered_tests(&mut nodes, &mut edges, &code);
        }
        let rays = if options.ray_patterns { code::rays(&mut nodes, &edges, &code) } else { Vec::new() };
        let mut positions: Vec<(Player, u32)> = program
            .modifiers()
            .iter()
            .filter_map(|m| match *m {
                Modifier::Switch { player, target } => Some((player, target.map_or(NONE, NodeId::get))),
                _ => None,
            })
            .chain([(KEEPER, program.start().get())])
            .collect();
        positions.sort_unstable();
        positions.dedup();
        Ok(Interpreter {
            rules_fingerprint: rules_fingerprint(&program),
            positions,
            modifiers: code::lower_modifiers(&program),
            nodes,
            rays,
            piece_bitsets,
            pattern_evals,
            edges,
            code,
            steps,
            limits: Limits {
                max_modifiers: options.max_modifiers,
                max_search_nodes: options.max_search_nodes,
            },
            checked_keeper: options.checked_keeper,
            info: game_info(game, name),
            class_masks,
            program,
        })
    }

    /// The compiled program.
    pub fn program(&self) -> &Program {
        &self.program
    }

    fn checked_keeper_step(&self, s: &mut State, sc: &mut Scratch) -> Result<bool, SearchError> {
        let mut moves = MoveList::new();
        self.legal_moves(s, sc, &mut moves)?;
        if moves.is_empty() {
            return Ok(false);
        }
        let mut first = s.clone();
        self.apply_move(&mut first, moves.get(0));
        let mut other = s.clone();
        for m in moves.iter().skip(1) {
            other.clone_from(s);
            self.apply_move(&mut other, m);
            if other != first {
                return Err(SearchError::AmbiguousKeeper);
            }
        }
        *s = first;
        Ok(true)
    }
}

/// A fingerprint of the program's numbering of rules positions: its size, its start and where
/// each switch leads. Programs built with other analyses number nodes differently.
fn rules_fingerprint(program: &Program) -> u64 {
    let mut h = Fnv1a::default();
    h.write(b"rbg-interp nodes");
    h.write_u64(program.nodes().len() as u64);
    h.write_u64(program.edges().len() as u64);
    h.write_u64(u64::from(program.start().get()));
    for (index, m) in program.modifiers().iter().enumerate() {
        if let Modifier::Switch { player, target } = *m {
            h.write_u64(index as u64);
            h.write_u64(u64::from(player));
            h.write_u64(u64::from(target.map_or(NONE, NodeId::get)));
        }
    }
    h.finish()
}

fn game_info(game: &ir::Game, name: &str) -> GameInfo {
    let edges = game
        .board
        .vertices
        .iter()
        .enumerate()
        .flat_map(|(v, vertex)| vertex.edges.iter().map(move |e| (v as u32, e.label, e.target)))
        .collect();
    GameInfo {
        name: name.to_string(),
        players: game.players.iter().map(|p| p.name.clone()).collect(),
        pieces: game.pieces.clone(),
        variables: (0..game.num_vars() as u32).map(|v| game.var_name(v).to_string()).collect(),
        bounds: game.var_bounds(),
        vertices: game.board.vertices.iter().map(|v| v.name.clone()).collect(),
        modifiers: game.modifiers,
        switches: game.switch_indices(),
        labels: game.board.labels.clone(),
        edges,
        positions: game.board.positions.as_ref().map(|positions| {
            positions.iter().map(|p| VertexPosition { coords: p.coords, point: p.point }).collect()
        }),
    }
}

/// Streams moves to a visitor.
struct VisitSink<F> {
    visit: F,
}

impl<F: FnMut(&[Action]) -> ControlFlow<()>> Sink for VisitSink<F> {
    #[inline(always)]
    fn found(&mut self, mv: &[Action]) -> bool {
        (self.visit)(mv).is_break()
    }
}

/// The next actions of a partial move ([`Game::next_actions`]): prunes modifiers that
/// disagree with the prefix and abandons a next action's subtree at its first completion.
struct NextActionsSink<'a>(NextActionsFilter<'a>);

impl Sink for NextActionsSink<'_> {
    const FILTER: bool = true;
    #[inline(always)]
    fn found(&mut self, mv: &[Action]) -> bool {
        self.0.found(mv)
    }
    #[inline(always)]
    fn admit(&mut self, position: usize, action: Action) -> bool {
        self.0.admit(position, action)
    }
    #[inline(always)]
    fn resume(&mut self) -> Option<usize> {
        Some(self.0.resume_position())
    }
}

/// Stops at the first move and remembers its switch.
struct FirstMove {
    last: Option<Action>,
}

impl Sink for FirstMove {
    fn found(&mut self, mv: &[Action]) -> bool {
        self.last = mv.last().copied();
        true
    }
}

impl Game for Interpreter {
    type State = State;
    type Scratch = Scratch;

    fn info(&self) -> &GameInfo {
        &self.info
    }

    fn new_scratch(&self) -> Scratch {
        Scratch::default()
    }

    fn initial_state(&self) -> State {
        let p = &self.program;
        self.state_with(p.initial_pieces().to_vec(), vec![0; p.bounds().len()], 0, KEEPER, p.start().get())
    }

    fn rules_fingerprint(&self) -> u64 {
        self.rules_fingerprint
    }

    fn state_from_parts(&self, parts: &StateParts) -> Result<State, StateCodecError> {
        let p = &self.program;
        let out_of_range = |what, value: i128| StateCodecError::OutOfRange { what, value };
        if self.positions.binary_search(&(parts.player, parts.rules_state)).is_err() {
            return Err(out_of_range("rules state", i128::from(parts.rules_state)));
        }
        if parts.pieces.len() != p.board().vertices() as usize {
            return Err(out_of_range("vertex count", parts.pieces.len() as i128));
        }
        if parts.variables.len() != p.bounds().len() {
            return Err(out_of_range("variable count", parts.variables.len() as i128));
        }
        if parts.vertex >= p.board().vertices() {
            return Err(out_of_range("current vertex", i128::from(parts.vertex)));
        }
        let pieces = parts
            .pieces
            .iter()
            .map(|&x| u8::try_from(x).ok().filter(|&x| u32::from(x) < p.num_pieces()))
            .collect::<Option<Vec<u8>>>()
            .ok_or(StateCodecError::OutOfRange { what: "piece id", value: -1 })?;
        let vars = parts
            .variables
            .iter()
            .zip(p.bounds())
            .map(|(&v, &bound)| i32::try_from(v).ok().filter(|&x| x >= 0 && i64::from(x) <= bound))
            .collect::<Option<Vec<i32>>>()
            .ok_or(StateCodecError::OutOfRange { what: "variable value", value: -1 })?;
        Ok(self.state_with(pieces, vars, parts.vertex, parts.player, parts.rules_state))
    }

    fn current_player(&self, s: &State) -> Player {
        s.player
    }

    fn current_vertex(&self, s: &State) -> u32 {
        s.vertex
    }

    fn piece(&self, s: &State, vertex: u32) -> u32 {
        s.pieces.get(vertex as usize).map_or(0, |&p| p as u32)
    }

    fn variable(&self, s: &State, var: usize) -> i64 {
        s.vars.get(var).map_or(0, |&v| v as i64)
    }

    fn rules_state(&self, s: &State) -> u32 {
        s.node
    }

    fn visit_moves<F>(
        &self,
        s: &mut State,
        sc: &mut Scratch,
        visit: F,
    ) -> Result<ControlFlow<()>, SearchError>
    where
        F: FnMut(&[Action]) -> ControlFlow<()>,
    {
        let mut sink = VisitSink { visit };
        let result = self.search_moves(s, sc, &mut sink);
        self.finish_search(s, sc, false);
        Ok(if result? { ControlFlow::Break(()) } else { ControlFlow::Continue(()) })
    }

    fn next_actions(
        &self,
        s: &mut State,
        sc: &mut Scratch,
        prefix: &[Action],
        out: &mut Vec<Action>,
    ) -> Result<(), SearchError> {
        let mut sink = NextActionsSink(NextActionsFilter::new(prefix, out));
        let result = self.search_moves(s, sc, &mut sink);
        self.finish_search(s, sc, false);
        result.map(|_| ())
    }

    fn apply_move(&self, s: &mut State, m: &[Action]) {
        let p = &self.program;
        for a in m {
            match self.modifiers.get(a.index as usize) {
                Some(ExecModifier::Off { piece }) => {
                    if (a.vertex as usize) < s.pieces.len() {
                        s.set_piece(a.vertex, *piece as u8);
                    }
                }
                Some(ExecModifier::Assign { var, expr }) => {
                    if let Some(value) = p.expr(*expr).eval(&s.vars, &s.counts) {
                        s.vars[*var as usize] = value as i32;
                    }
                }
                Some(ExecModifier::Switch { player, node }) => {
                    s.player = *player;
                    s.node = *node;
                }
                Some(ExecModifier::None) | None => {}
            }
        }
        if let Some(last) = m.last() {
            s.vertex = last.vertex;
        }
    }

    fn keeper_step(&self, s: &mut State, sc: &mut Scratch) -> Result<bool, SearchError> {
        if s.player != KEEPER {
            return Ok(false);
        }
        if self.checked_keeper {
            return self.checked_keeper_step(s, sc);
        }
        let mut sink = FirstMove { last: None };
        let result = self.search_moves(s, sc, &mut sink);
        let found = matches!(result, Ok(true));
        self.finish_search(s, sc, found);
        result?;
        let Some(last) = sink.last.filter(|_| found) else { return Ok(false) };
        s.vertex = last.vertex;
        if let Some(ExecModifier::Switch { player, node }) = self.modifiers.get(last.index as usize) {
            s.player = *player;
            s.node = *node;
        }
        Ok(true)
    }

    fn monotonic_class(&self, s: &State) -> Option<u32> {
        let class = self.program.node_class(NodeId::new(s.node))?;
        (s.player != KEEPER).then_some(class)
    }

    fn is_still_legal(&self, s: &State, m: &[Action]) -> bool {
        let [a] = m else { return false };
        let Some(mask) = self.class_masks.get(a.index as usize) else { return false };
        s.pieces.get(a.vertex as usize).is_some_and(|&p| mask.get(p as usize).copied().unwrap_or(false))
    }

    fn monotonic_classes(&self) -> u32 {
        self.program.monotonic().len() as u32
    }
}
