//! Alpha-beta search with iterative deepening, a transposition table and move ordering.
//!
//! The search is minimax from the view of the player to move at the root (the *searcher*):
//! states where the searcher moves maximise, all other states minimise the searcher's
//! [`Evaluation`]. With two players this is plain minimax (equivalent to negamax, but it also
//! handles players that move several times in a row); with more players it is the *paranoid*
//! search (all others are assumed to play against the searcher).
//!
//! * Iterative deepening from depth 1 up to the budget's depth (4 for an empty budget, 64 at
//!   most); it stops early when an iteration saw the whole game tree (no state was cut off by the
//!   depth), since deeper iterations would give the same result. When the time or node budget
//!   runs out during an iteration, the best move of the last completed one is played.
//! * Transposition table: a fixed array of `2^tt_bits` entries indexed by the [`Zobrist`] hash of
//!   the state combined with the searcher's key; always-replace. It keeps its entries between
//!   the moves of a game.
//! * Move ordering: the table's best move first, then the two killer moves of the ply, then by
//!   the history score (`depth^2` added for each cut-off the move caused), then move order.
//! * Terminal states (no legal move, or the keeper stuck) are evaluated by their scores, with a
//!   bonus of `MAX_PLY - ply` towards the winning side so that faster wins are preferred.
//!
//! * Evaluation: [`Evaluation`] of the configured kind; with `eval=learned` the weights are
//!   learned when the agent is built ([`AlphaBeta::new`], before any move, so the learning
//!   never eats into a move's budget; cached per process, see [`crate::learn`]), and a learned
//!   mobility term counts the legal moves at each leaf.
//!
//! No allocation per node: states, move lists and orderings live in per-ply stacks reused
//! across searches.

use std::cmp::Reverse;

use rbg_core::perft::DEFAULT_KEEPER_LIMIT;
use rbg_core::{Game, MoveList, Player, SearchError};

use crate::agent::{move_hash, mover, Agent, AgentError, Decision, SearchStats};
use crate::budget::{Budget, Meter};
use crate::eval::{EvalKind, Evaluation};
use crate::learn::{learn_cached, LearnConfig, LearnedWeights};
use crate::spec::BuildError;
use crate::zobrist::Zobrist;

/// Settings of [`AlphaBeta`].
#[derive(Clone, Debug, PartialEq)]
pub struct AlphaBetaConfig {
    /// The budget used by [`play_game`](crate::play_game); empty means depth 4.
    pub budget: Budget,
    /// log2 of the number of transposition table entries.
    pub tt_bits: u32,
    /// Weight of every piece the name heuristic attributes to a player (see [`Evaluation`]).
    pub material: i64,
    /// Weights of pieces by name, overriding `material`.
    pub piece_weights: Vec<(String, i64)>,
    /// Which evaluation: the user's weights or learned ones.
    pub eval: EvalKind,
    /// How to learn the weights of [`EvalKind::Learned`].
    pub learn: LearnConfig,
}

impl Default for AlphaBetaConfig {
    fn default() -> Self {
        AlphaBetaConfig {
            budget: Budget::default(),
            tt_bits: 16,
            material: 0,
            piece_weights: Vec::new(),
            eval: EvalKind::Material,
            learn: LearnConfig::default(),
        }
    }
}

/// The depth searched when the budget sets no limit at all.
pub const DEFAULT_ALPHA_BETA_DEPTH: u32 = 4;
/// The deepest iteration ever started.
pub const MAX_ALPHA_BETA_DEPTH: u32 = 64;
const MAX_PLY: i64 = 1000;
const INFINITY: i64 = i64::MAX / 2;
/// Table depth of an entry whose subtree was searched to the end of the game.
const SOLVED: u32 = u32::MAX;

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Bound {
    Exact,
    Lower,
    Upper,
}

#[derive(Copy, Clone, Debug)]
struct Entry {
    key: u64,
    value: i64,
    depth: u32,
    bound: Bound,
    best: u32,
}

enum Stop {
    Budget,
    Search(SearchError),
}

impl From<SearchError> for Stop {
    fn from(e: SearchError) -> Self {
        Stop::Search(e)
    }
}

/// Alpha-beta search (see the module documentation).
pub struct AlphaBeta<G: Game> {
    config: AlphaBetaConfig,
    eval: Evaluation,
    learned: Option<std::sync::Arc<LearnedWeights>>,
    zobrist: Zobrist,
    scratch: G::Scratch,
    table: Vec<Option<Entry>>,
    /// Per ply: the state, its legal moves and their order.
    states: Vec<G::State>,
    lists: Vec<MoveList>,
    orders: Vec<Vec<(Reverse<i64>, u32)>>,
    killers: Vec<[u64; 2]>,
    history: Vec<i64>,
    searcher: Player,
    searcher_key: u64,
    nodes: u64,
    horizon_hit: bool,
    /// The best root move index of the iteration in progress.
    root_best: Option<(u32, i64)>,
}

const HISTORY_BITS: u32 = 14;

impl<G: Game> AlphaBeta<G> {
    pub fn new(game: &G, config: AlphaBetaConfig) -> Result<Self, BuildError> {
        let (eval, learned) = match config.eval {
            EvalKind::Material => (
                Evaluation::new(game.info(), config.material, &config.piece_weights)
                    .map_err(BuildError::UnknownPiece)?,
                None,
            ),
            EvalKind::Learned => {
                let learned = learn_cached(game, &config.learn).map_err(BuildError::Learn)?;
                (Evaluation::learned(game.info(), &learned), Some(learned))
            }
        };
        let tt_bits = config.tt_bits.min(30);
        Ok(AlphaBeta {
            eval,
            learned,
            zobrist: Zobrist::new(game.info()),
            scratch: game.new_scratch(),
            table: vec![None; 1 << tt_bits],
            states: Vec::new(),
            lists: Vec::new(),
            orders: Vec::new(),
            killers: Vec::new(),
            history: vec![0; 1 << HISTORY_BITS],
            searcher: 0,
            searcher_key: 0,
            nodes: 0,
            horizon_hit: false,
            root_best: None,
            config: AlphaBetaConfig { tt_bits, ..config },
        })
    }

    pub fn evaluation(&self) -> &Evaluation {
        &self.eval
    }

    /// The learned weights behind the evaluation (with `eval=learned`).
    pub fn learned(&self) -> Option<&LearnedWeights> {
        self.learned.as_deref()
    }

    /// The evaluation of the state at `ply`, a leaf of the search: scores, material and (when
    /// learned) mobility, whose move count uses the ply's move list as working memory.
    fn leaf_value(&mut self, game: &G, ply: usize) -> Result<i64, SearchError> {
        let v = self.eval.evaluate(game, &self.states[ply], self.searcher);
        if !self.eval.uses_mobility() {
            return Ok(v);
        }
        let mobility = self.eval.mobility(
            game,
            &mut self.states[ply],
            &mut self.scratch,
            &mut self.lists[ply],
            self.searcher,
        )?;
        Ok(v.saturating_add(mobility))
    }

    fn ensure_ply(&mut self, ply: usize, template: &G::State) {
        while self.states.len() <= ply {
            self.states.push(template.clone());
            self.lists.push(MoveList::new());
            self.orders.push(Vec::new());
            self.killers.push([0; 2]);
        }
    }

    fn terminal_value(&self, game: &G, s: &G::State, ply: usize) -> i64 {
        let v = self.eval.evaluate(game, s, self.searcher);
        let diff = self.eval.score_difference(game, s, self.searcher);
        v + diff.signum() * (MAX_PLY - ply as i64).max(0)
    }

    fn search(
        &mut self,
        game: &G,
        meter: &Meter,
        ply: usize,
        depth: u32,
        mut alpha: i64,
        mut beta: i64,
    ) -> Result<i64, Stop> {
        self.nodes += 1;
        // The clock is read every 1024 nodes only: it costs as much as a small node.
        if meter.over_iterations(self.nodes) || (self.nodes & 1023 == 0 && meter.over_time()) {
            return Err(Stop::Budget);
        }
        if depth == 0 {
            self.horizon_hit = true;
            return self.leaf_value(game, ply).map_err(Stop::from);
        }
        let hash = self.zobrist.hash(game, &self.states[ply]) ^ self.searcher_key;
        let slot = (hash & (self.table.len() as u64 - 1)) as usize;
        let mut table_move = None;
        if let Some(e) = self.table[slot].filter(|e| e.key == hash) {
            table_move = Some(e.best);
            if ply > 0 && e.depth >= depth {
                let usable = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => e.value >= beta,
                    Bound::Upper => e.value <= alpha,
                };
                if usable {
                    if e.depth != SOLVED {
                        self.horizon_hit = true;
                    }
                    return Ok(e.value);
                }
            }
        }
        let mut moves = std::mem::take(&mut self.lists[ply]);
        let generated = game.legal_moves(&mut self.states[ply], &mut self.scratch, &mut moves);
        if let Err(e) = generated {
            self.lists[ply] = moves;
            return Err(e.into());
        }
        if moves.is_empty() {
            self.lists[ply] = moves;
            return Ok(self.terminal_value(game, &self.states[ply], ply));
        }
        let maximising = game.current_player(&self.states[ply]) == self.searcher;
        let mut order = std::mem::take(&mut self.orders[ply]);
        order.clear();
        let killers = self.killers[ply];
        let history_mask = (self.history.len() - 1) as u64;
        for (i, mv) in moves.iter().enumerate() {
            let h = move_hash(mv);
            let key = if table_move == Some(i as u32) {
                i64::MAX
            } else if h == killers[0] {
                i64::MAX - 1
            } else if h == killers[1] {
                i64::MAX - 2
            } else {
                self.history[(h & history_mask) as usize]
            };
            order.push((Reverse(key), i as u32));
        }
        order.sort_unstable();
        let (alpha0, beta0) = (alpha, beta);
        let outer_horizon = std::mem::replace(&mut self.horizon_hit, false);
        let mut best_value = if maximising { -INFINITY } else { INFINITY };
        let mut best_index = order[0].1;
        let mut result = Ok(());
        if self.states.len() <= ply + 1 {
            let template = self.states[ply].clone();
            self.ensure_ply(ply + 1, &template);
        }
        for &(_, i) in &order {
            let (parents, children) = self.states.split_at_mut(ply + 1);
            let child = &mut children[0];
            child.clone_from(&parents[ply]);
            game.apply_move(child, moves.get(i as usize));
            let value = match game.complete_keeper(child, &mut self.scratch, DEFAULT_KEEPER_LIMIT) {
                Err(e) => Err(Stop::Search(e)),
                Ok(false) => {
                    self.nodes += 1;
                    Ok(self.terminal_value(game, &self.states[ply + 1], ply + 1))
                }
                Ok(true) => self.search(game, meter, ply + 1, depth - 1, alpha, beta),
            };
            let value = match value {
                Ok(v) => v,
                Err(e) => {
                    result = Err(e);
                    break;
                }
            };
            let improved = if maximising { value > best_value } else { value < best_value };
            if improved {
                best_value = value;
                best_index = i;
                if ply == 0 {
                    self.root_best = Some((i, value));
                }
            }
            if maximising {
                alpha = alpha.max(value);
            } else {
                beta = beta.min(value);
            }
            if alpha >= beta {
                let h = move_hash(moves.get(i as usize));
                let k = &mut self.killers[ply];
                if k[0] != h {
                    k[1] = k[0];
                    k[0] = h;
                }
                let slot = &mut self.history[(h & history_mask) as usize];
                *slot = slot.saturating_add(depth as i64 * depth as i64);
                break;
            }
        }
        let solved = !self.horizon_hit;
        self.horizon_hit |= outer_horizon;
        self.lists[ply] = moves;
        self.orders[ply] = order;
        result?;
        let bound = if best_value <= alpha0 {
            Bound::Upper
        } else if best_value >= beta0 {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.table[slot] = Some(Entry {
            key: hash,
            value: best_value,
            depth: if solved { SOLVED } else { depth },
            bound,
            best: best_index,
        });
        Ok(best_value)
    }
}

impl<G: Game> Agent<G> for AlphaBeta<G> {
    fn name(&self) -> String {
        "alphabeta".into()
    }

    fn reset(&mut self, _seed: u64) {
        // The search is deterministic: the seed has nothing to reseed.
        self.table.iter_mut().for_each(|e| *e = None);
        self.history.iter_mut().for_each(|h| *h = 0);
        self.killers.iter_mut().for_each(|k| *k = [0; 2]);
    }

    fn budget(&self) -> Budget {
        self.config.budget
    }

    fn select_move(&mut self, game: &G, state: &G::State, budget: &Budget) -> Result<Decision, AgentError> {
        let player = mover(game, state)?;
        let budget = budget.or(Budget::depth(DEFAULT_ALPHA_BETA_DEPTH));
        let meter = Meter::start(budget);
        let max_depth = budget.depth.unwrap_or(MAX_ALPHA_BETA_DEPTH).clamp(1, MAX_ALPHA_BETA_DEPTH);
        self.searcher = player;
        self.searcher_key = self.zobrist.player_key(player).rotate_left(17);
        self.nodes = 0;
        self.ensure_ply(0, state);
        self.states[0].clone_from(state);
        let mut root_moves = MoveList::new();
        game.legal_moves(&mut self.states[0], &mut self.scratch, &mut root_moves)?;
        if root_moves.is_empty() {
            return Err(AgentError::NoLegalMove);
        }
        let mut stats = SearchStats::default();
        let mut chosen: Option<(u32, i64)> = None;
        if root_moves.len() > 1 {
            for depth in 1..=max_depth {
                self.root_best = None;
                self.horizon_hit = false;
                match self.search(game, &meter, 0, depth, -INFINITY, INFINITY) {
                    Ok(_) => {
                        chosen = self.root_best;
                        stats.depth = depth;
                        if !self.horizon_hit {
                            break;
                        }
                    }
                    Err(Stop::Budget) => {
                        if chosen.is_none() {
                            chosen = self.root_best;
                        }
                        break;
                    }
                    Err(Stop::Search(e)) => return Err(e.into()),
                }
                if meter.exhausted(self.nodes) {
                    break;
                }
            }
        }
        let (index, value) = chosen.map_or((0, None), |(i, v)| (i, Some(v as f64)));
        stats.nodes = self.nodes;
        stats.iterations = self.nodes;
        stats.value = value;
        stats.elapsed = meter.elapsed();
        Ok(Decision { mv: root_moves.get(index as usize).to_vec(), stats })
    }
}
