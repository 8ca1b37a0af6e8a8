//! UCT Monte Carlo tree search with tree reuse and an optional MAST playout policy.
//!
//! One iteration: *selection* from the root by UCB1 (a child never visited is tried first,
//! picked at random among the unvisited ones), *expansion* of the first unexpanded node reached
//! (all its children are created at once and one is played), a *playout* to the end of the game,
//! and *backpropagation* of the final rewards: each node adds the reward of the player who made
//! its move (rewards are scores divided by their bounds, in [0, 1]). Because every node is
//! scored for its own mover, the same code serves any number of players and turn orders that do
//! not alternate (the max^n flavour of UCT). The move finally played is the robust child: the
//! root child with the most visits (ties: the better mean, then the first in move order).
//!
//! The tree lives in one vector of nodes whose children are contiguous, with the moves' actions
//! in a second vector; states are not stored but recomputed along the path from the root state
//! (applying moves is cheap next to generating them). [`Agent::observe`] moves the root to the
//! child of the move played and compacts the vectors to the subtree kept.
//!
//! Action statistics ([`crate::action_stats`]): with MAST (`mast`) and NST (`nst`, n-grams
//! of the last 1 or 2 moves) every move made in an iteration, in the tree or in the playout,
//! adds the final reward of its mover to its statistics, and playouts play the best scored
//! move except with probability `mast_epsilon`; `mast_decay` weighs down what earlier searches
//! learned. RAVE (`rave`, the equivalence parameter k): each child also keeps all-moves-as-first
//! (AMAF) statistics, the rewards of the iterations through its parent in which its move was
//! played later by the same player, and selection scores
//! [`rave_value`](crate::uct::rave_value) in place of the mean; a child not yet visited is
//! scored by its AMAF mean (and tried first, at random, only while it has none). GRAVE (`grave_ref`): the AMAF
//! statistics come from the nearest ancestor with the same player to move and at least
//! `grave_ref` visits (the node itself when it has them), which are more reliable at nodes
//! visited only a few times. Both live in [`crate::uct::Rave`], shared with split-move MCTS.
//!
//! Semi-split playouts (`playout = split`): each playout move is found one next action at a
//! time, the next action drawn uniformly among those that can still complete a move
//! ([`StepGenerator::complete_randomly`], the split-moves paper's random walk): no state's moves
//! are listed whole, so a playout move costs one short search per choice instead of generating
//! every move. A move's chance is then the product of its choices' 1/k, not uniform over moves.
//! With RAVE the walked moves are recorded as any other; MAST and NST rank whole moves and
//! need them listed, so they keep whole-move playouts (the specification refuses the mix).
//!
//! Threads (`threads`), by [`Parallelism`]. Tree parallelism (the default): every thread runs
//! iterations on the one tree, behind a lock held for the descent (selection and expansion) and
//! the backpropagation, not for the playout, which is most of an iteration's work. A descent
//! counts its visit on every node of its path at once (a virtual loss until the reward comes
//! back), so the other threads go down other paths. Each thread has its own generator; the
//! playout statistics (MAST, NST) are one table that all threads read without a lock and add
//! to a batch of iterations at a time (see [`crate::action_stats`]); an iteration budget counts
//! over all threads. With more than
//! one thread the result depends on how the threads interleave. Root parallelism
//! (`parallel = root`): each extra thread runs a search of its own, with its own tree,
//! statistics and seed, within the same budget (iterations are counted per thread); the root
//! moves' visits and rewards are summed and the most visited move is played. With an iteration
//! budget its result depends only on the seed, whatever the machine's load. With one thread
//! both are the same search, reproducible from the seed.

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use rand::Rng;
use rand_core::SeedableRng;
use rbg_core::moves::DEFAULT_MAX_ACTIONS;
use rbg_core::perft::DEFAULT_KEEPER_LIMIT;
use rbg_core::playout::PlayoutBuffers;
use rbg_core::split::StepGenerator;
use rbg_core::{Action, Game, MoveList, PlayoutRng, SearchError};

use crate::action_stats::{ActionStats, DeferredUpdates, PolicySettings, TrailEntry};
use crate::agent::{
    move_hash, mover, rewards_into, sort_root, splitmix, Agent, AgentError, Decision, RootMove, SearchStats,
};
use crate::budget::{Budget, Meter};
use crate::flat_mc::random_playout;
use crate::learn::{learn_cached, piece_counts, LearnConfig, LearnedWeights};
use crate::split_mcts::{SplitMcts, SplitMctsConfig, SplitPlayout};
use crate::uct::{self, Amaf, Rave};

/// Settings of [`Mcts`].
#[derive(Clone, Debug, PartialEq)]
pub struct MctsConfig {
    /// The UCB1 exploration constant (rewards are in [0, 1]).
    pub c: f64,
    /// The budget used by [`play_game`](crate::play_game); without a time or iteration limit,
    /// 1000 iterations are added.
    pub budget: Budget,
    /// Use the MAST playout policy instead of uniformly random playouts.
    pub mast: bool,
    /// MAST's and NST's probability of a uniformly random playout move.
    pub mast_epsilon: f64,
    /// Factor applied to the action statistics at the start of each search (1: keep all).
    pub mast_decay: f64,
    /// NST: moves of context in the n-gram statistics (0: off, 1 or 2); implies the policy.
    pub nst: usize,
    /// The MAST/NST playout policy is used only while the search's root has at most this many
    /// moves; from a wider root the playouts are uniformly random. The policy lists and scores
    /// every move of each playout state, which in a game of thousands of moves a state costs
    /// more iterations than the policy gains (docs/results.md, "Ladder": amazons).
    pub policy_width: u32,
    /// RAVE's equivalence parameter k (0: no RAVE).
    pub rave: f64,
    /// GRAVE's reference threshold: visits an ancestor needs to lend its AMAF statistics
    /// (0: plain RAVE).
    pub grave_ref: u32,
    /// RAVE is used only while the search's root has more than this many moves (0: always).
    /// AMAF values pay where a node has many children and each is visited rarely; among a
    /// handful of moves the plain means settle fast and the AMAF bias only costs (connect4's
    /// 7 columns, docs/results.md "Ladder").
    pub rave_width: u32,
    /// A game whose first position the agent searches (after it is built or reset) has more
    /// than this many moves is played by split-move MCTS (`split-mcts:c=0.4`, one thread, the
    /// same budget; [`crate::split_mcts`]), whose tree splits each move into its actions;
    /// [`SPLIT_NEVER`]: never. With thousands of moves a state, a tree of whole moves spends
    /// its iterations giving each move one visit (docs/results.md, "Ladder": amazons). The
    /// choice holds for the whole game: amazons' moves fall below a thousand within a few
    /// turns, and a switch back to whole moves there played no better than never splitting.
    pub split_width: u32,
    /// Threads of the search (see [`Parallelism`]).
    pub threads: usize,
    /// How several threads share the search.
    pub parallel: Parallelism,
    /// Keep the subtree of the move played (see [`Agent::observe`]).
    pub reuse_tree: bool,
    /// How playouts choose their moves: uniformly among the listed moves (`Full`) or by a
    /// random walk over next actions (`Split`, see the module documentation).
    pub playout: SplitPlayout,
    /// Playouts longer than this many player moves stop and are scored where they stand.
    pub max_playout_plies: u64,
    /// Playouts stop after this many moves, and where the game goes on, the evaluation learned
    /// by self-play ([`crate::learn`], the `eval=learned` of alpha-beta) predicts each player's
    /// reward instead of the game's end (0: playouts run to the end). [`CUTOFF_AUTO`], the
    /// default, is decided per game when the agent is built from its specification
    /// ([`auto_cutoff`]); an [`Mcts`] made without an evaluation plays its playouts to the end.
    pub cutoff: u64,
    /// When the tree grows beyond this many nodes, the search stops expanding it (iterations
    /// then only run playouts below existing leaves).
    pub max_nodes: usize,
}

impl Default for MctsConfig {
    fn default() -> Self {
        // Chosen by measurement against the earlier default (docs/results.md, "Ladder"): the
        // UCB1 constant 0.7 and NST over one move of context with the split-moves paper's MAST
        // parameters (epsilon 0.4, decay 0.2). GRAVE (k 250, reference 30) only from roots of
        // more than 32 moves: it gains much at hex and amazons but loses at connect4, whose
        // roots have 7 moves. `MctsConfig::classic` keeps the earlier default.
        MctsConfig {
            c: 0.7,
            budget: Budget::default(),
            mast: false,
            mast_epsilon: 0.4,
            mast_decay: 0.2,
            nst: 1,
            policy_width: DEFAULT_POLICY_WIDTH,
            rave: 250.0,
            grave_ref: 30,
            rave_width: DEFAULT_RAVE_WIDTH,
            split_width: DEFAULT_SPLIT_WIDTH,
            threads: 1,
            parallel: Parallelism::Tree,
            reuse_tree: true,
            playout: SplitPlayout::Full,
            max_playout_plies: 10_000,
            cutoff: CUTOFF_AUTO,
            max_nodes: 4_000_000,
        }
    }
}

/// How the threads of a search with [`MctsConfig::threads`] above 1 share it (see the module
/// documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Parallelism {
    /// One tree for all threads, behind a lock, with virtual loss.
    Tree,
    /// A tree per thread; the root moves' statistics are summed.
    Root,
}

/// Iterations per move when the budget sets no limit.
pub const DEFAULT_MCTS_ITERATIONS: u64 = 1000;

/// The default [`MctsConfig::policy_width`]: above the opening width of the games where the
/// policy was measured to gain (breakthrough 22 moves, reversi 4, draughts 7, hex 81), below
/// those of amazons (about 2,000) and 19x19 go (361), where it was not.
pub const DEFAULT_POLICY_WIDTH: u32 = 256;

/// The default [`MctsConfig::rave_width`]: above the widths of connect4 (7), reversi (at most
/// about 20) and draughts (about 10), where GRAVE lost or did not gain, below hex 9x9's opening
/// 81 moves and amazons' 2,000, where it gained (docs/results.md, "Ladder").
pub const DEFAULT_RAVE_WIDTH: u32 = 32;

/// The default [`MctsConfig::split_width`]: below amazons' opening (2,176 moves), where
/// `split-mcts:c=0.4` won 19 of 20 games against whole-move MCTS at 100 ms a move, above
/// 19x19 go's 361 and hex 9x9's 81, where whole-move MCTS is the one measured to be stronger
/// (hex: split-mcts -191; docs/results.md, "Ladder").
pub const DEFAULT_SPLIT_WIDTH: u32 = 1000;

/// [`MctsConfig::split_width`] that never hands a move to split-move MCTS (written `off`).
pub const SPLIT_NEVER: u32 = u32::MAX;

/// [`MctsConfig::cutoff`] decided per game by [`auto_cutoff`] (written `auto`).
pub const CUTOFF_AUTO: u64 = u64::MAX;

/// The cut-off of [`auto_cutoff`] where it cuts: the one measured at chess, where it won 20
/// of 20 games against whole playouts at 100 ms a move (docs/results.md, "Learned
/// evaluation").
pub const AUTO_CUTOFF_MOVES: u64 = 10;

/// The share of drawn random games from which [`auto_cutoff`] cuts playouts off.
pub const AUTO_CUTOFF_DRAWS: f64 = 0.5;

/// The cut-off for `game` when [`MctsConfig::cutoff`] is [`CUTOFF_AUTO`]:
/// [`AUTO_CUTOFF_MOVES`] where at least [`AUTO_CUTOFF_DRAWS`] of a probe's random games
/// (up to 32, started within 250 ms, at least 8) end in a draw or unfinished, else 0 (whole
/// playouts). A playout that ends level tells the players apart no better than a coin, and
/// the learned evaluation then judges better than the game's end: random chess is drawn 85% of
/// the time and `cutoff=10` won there, while at reversi (7% drawn), English draughts (12%),
/// connect4, breakthrough and hex (none) whole playouts were as strong or stronger
/// (docs/results.md, "Learned evaluation" and "Cut-off where random games end level").
/// One-player games never cut (every playout "ends level").
pub fn auto_cutoff<G: Game>(game: &G) -> Result<u64, SearchError> {
    if game.info().num_players() < 2 {
        return Ok(0);
    }
    let probe = LearnConfig { games: 32, time: Duration::from_millis(250), ..LearnConfig::default() };
    let drawn = learn_cached(game, &probe)?.draw_share(8).is_some_and(|share| share >= AUTO_CUTOFF_DRAWS);
    Ok(if drawn { AUTO_CUTOFF_MOVES } else { 0 })
}

impl MctsConfig {
    /// The default of `mcts` until the ladder (docs/results.md): UCB1 with `c` = sqrt 2 and
    /// uniformly random playouts, no action statistics, no RAVE. As a specification:
    /// `mcts:c=1.4142135623730951,epsilon=0.1,decay=1,nst=0,rave=0,split-width=off,cutoff=0` (epsilon
    /// and decay do nothing without MAST or NST, so `mcts:c=1.414,nst=0,rave=0,split-width=off,cutoff=0`
    /// plays the same way but for the last digits of `c`).
    pub fn classic() -> Self {
        MctsConfig {
            c: std::f64::consts::SQRT_2,
            mast_epsilon: 0.1,
            mast_decay: 1.0,
            nst: 0,
            rave: 0.0,
            split_width: SPLIT_NEVER,
            cutoff: 0,
            ..MctsConfig::default()
        }
    }

    /// Whether playouts follow the action statistics' policy.
    fn policy(&self) -> bool {
        self.mast || self.nst > 0
    }
}

/// A node of the tree; its actions are the move leading to it, its extra part the move's hash
/// and AMAF statistics (RAVE).
type Node = uct::Node<Amaf>;

/// The tree of a search: its nodes (node 0 is the root, children are contiguous) and the arena
/// of the moves leading to them. The threads of a tree-parallel search share it behind a lock.
#[derive(Default)]
struct Tree {
    nodes: Vec<Node>,
    actions: Vec<Action>,
}

impl Tree {
    fn clear(&mut self) {
        self.nodes.clear();
        self.actions.clear();
    }

    fn node_move(&self, node: u32) -> &[Action] {
        let n = &self.nodes[node as usize];
        &self.actions[n.actions_start as usize..(n.actions_start + n.actions_len) as usize]
    }

    /// Whether the search from this root is decided: no move (game over) or a single one.
    fn root_decided(&self) -> bool {
        let root = &self.nodes[0];
        root.terminal || (root.expanded && root.num_children == 1)
    }

    /// Whether iterations play out by the MAST/NST policy: the policy is on and the root has
    /// few enough moves (see [`MctsConfig::policy_width`]; the root is node 0, expanded by the
    /// first iteration). From a wider root the search runs as without the policy: no move
    /// hashes, no trail, uniform playouts.
    fn policy_active(&self, config: &MctsConfig) -> bool {
        config.policy() && self.nodes[0].num_children <= config.policy_width
    }

    /// Whether iterations use RAVE: it is on and the root has more moves than
    /// [`MctsConfig::rave_width`] (checked like [`Self::policy_active`]).
    fn rave_active(&self, config: &MctsConfig) -> bool {
        config.rave > 0.0 && self.nodes[0].num_children > config.rave_width
    }

    /// Whether iterations record their moves (for an active policy or RAVE).
    fn records_trail(&self, config: &MctsConfig) -> bool {
        self.policy_active(config) || self.rave_active(config)
    }
}

/// What one thread needs to run iterations on a tree: its generator, the search state and
/// buffers, its playout statistics (MAST, NST) and RAVE's scratch. A tree-parallel search has
/// one per thread; they all learn and read the first one's action statistics ([`StatsHome`]).
struct Worker<G: Game> {
    scratch: G::Scratch,
    rng: PlayoutRng,
    state: Option<G::State>,
    moves: MoveList,
    playout: PlayoutBuffers,
    path: Vec<u32>,
    rewards: Vec<f64>,
    /// MAST and NST statistics.
    stats: ActionStats,
    /// Iterations not yet added to the statistics of a tree-parallel search.
    deferred: DeferredUpdates,
    /// The moves made in the current iteration (when recorded, see [`Tree::records_trail`]).
    trail: Vec<TrailEntry>,
    /// RAVE and GRAVE.
    rave: Rave,
    /// Semi-split playouts: the random walk's buffers and the move being walked.
    walker: StepGenerator,
    walked: Vec<Action>,
    /// The current iteration records its moves (decided when its descent began).
    record: bool,
    /// The current iteration's playout follows the policy (decided when its descent ended).
    by_policy: bool,
    /// The learned evaluation that judges playouts cut off by [`MctsConfig::cutoff`].
    evaluation: Option<Arc<LearnedWeights>>,
    /// The current iteration's playout was cut off before the game ended.
    cut: bool,
    /// Piece counts of a cut-off state.
    counts: Vec<u32>,
}

/// How an iteration's descent through the tree ended.
struct Descent {
    /// States visited (moves applied) on the way.
    visited: u64,
    /// The game is over at the node reached: there is nothing to play out.
    terminal: bool,
}

/// Where an iteration's MAST/NST statistics live: the worker's own, or the one table of a
/// tree-parallel search, which every thread reads in its playouts and adds its iterations to
/// (statistics split over the threads would each learn from a fraction of the playouts).
#[derive(Clone, Copy)]
enum StatsHome<'a> {
    Own,
    Shared(&'a ActionStats),
}

/// What the threads of a tree-parallel search share besides the tree.
struct SharedSearch<'a, S> {
    tree: &'a Mutex<Tree>,
    /// The action statistics (MAST, NST).
    stats: &'a ActionStats,
    root_state: &'a S,
    meter: &'a Meter,
    /// Iterations begun by all threads.
    iterations: AtomicU64,
    /// The deepest path of any thread.
    depth: AtomicU32,
    /// Set when the search is decided or a thread failed: the others stop.
    stop: AtomicBool,
}

impl<G: Game> Worker<G> {
    fn new(game: &G, config: &MctsConfig, seed: u64) -> Self {
        let settings = PolicySettings { epsilon: config.mast_epsilon, context: config.nst };
        Worker {
            scratch: game.new_scratch(),
            rng: PlayoutRng::seed_from_u64(seed),
            state: None,
            moves: MoveList::new(),
            playout: PlayoutBuffers::new(game, DEFAULT_MAX_ACTIONS),
            path: Vec::new(),
            rewards: vec![0.0; game.info().num_players()],
            stats: ActionStats::new(config.policy(), settings),
            deferred: DeferredUpdates::default(),
            trail: Vec::new(),
            rave: Rave::new(config.rave, config.grave_ref),
            walker: StepGenerator::new(),
            walked: Vec::new(),
            record: false,
            by_policy: false,
            evaluation: None,
            cut: false,
            counts: Vec::new(),
        }
    }

    fn reset(&mut self, seed: u64) {
        self.rng = PlayoutRng::seed_from_u64(seed);
        self.stats.clear();
    }

    fn expand(
        &mut self,
        game: &G,
        tree: &mut Tree,
        node: u32,
        config: &MctsConfig,
    ) -> Result<(), SearchError> {
        let state = self.state.as_mut().expect("search state");
        let player = game.current_player(state);
        game.legal_moves(state, &mut self.scratch, &mut self.moves)?;
        let first = tree.nodes.len() as u32;
        let hashed = tree.records_trail(config);
        for mv in self.moves.iter() {
            let start = tree.actions.len() as u32;
            tree.actions.extend_from_slice(mv);
            let amaf = Amaf { key: if hashed { move_hash(mv) } else { 0 }, ..Amaf::default() };
            tree.nodes.push(Node::new(player, start, mv.len() as u32, amaf));
        }
        let n = &mut tree.nodes[node as usize];
        n.expanded = true;
        n.first_child = first;
        n.num_children = self.moves.len() as u32;
        n.terminal = self.moves.is_empty();
        Ok(())
    }

    /// Plays a playout from the search state by the action statistics' policy (uniformly at
    /// random when it is not active, for RAVE), recording its moves in the trail; returns the
    /// number of moves made.
    fn policy_playout(&mut self, game: &G, limit: u64, home: StatsHome) -> Result<u64, SearchError> {
        let state = self.state.as_mut().expect("search state");
        let mut plies = 0;
        while plies < limit {
            game.legal_moves(state, &mut self.scratch, &mut self.moves)?;
            if self.moves.is_empty() {
                break;
            }
            let player = game.current_player(state);
            let pick = if self.by_policy {
                let hashes = self.moves.iter().map(move_hash);
                match home {
                    StatsHome::Own => self.stats.pick(&mut self.rng, &self.trail, player, hashes),
                    StatsHome::Shared(stats) => stats.pick(&mut self.rng, &self.trail, player, hashes),
                }
            } else {
                self.rng.gen_range(0..self.moves.len() as u32) as usize
            };
            let mv = self.moves.get(pick);
            self.trail.push((player, move_hash(mv)));
            game.apply_move(state, mv);
            plies += 1;
            if !game.complete_keeper(state, &mut self.scratch, DEFAULT_KEEPER_LIMIT)? {
                break;
            }
        }
        Ok(plies)
    }

    /// Plays a semi-split playout from the search state (see the module documentation),
    /// recording its moves in the trail when the iteration records them; returns the number of
    /// moves made.
    fn walk_playout(&mut self, game: &G, limit: u64) -> Result<u64, SearchError> {
        let state = self.state.as_mut().expect("search state");
        let mut plies = 0;
        while plies < limit {
            self.walked.clear();
            let walker = &mut self.walker;
            if !walker.complete_randomly(game, state, &mut self.scratch, &mut self.walked, &mut self.rng)? {
                break;
            }
            if self.record {
                self.trail.push((game.current_player(state), move_hash(&self.walked)));
            }
            game.apply_move(state, &self.walked);
            plies += 1;
            if !game.complete_keeper(state, &mut self.scratch, DEFAULT_KEEPER_LIMIT)? {
                break;
            }
        }
        Ok(plies)
    }

    /// The child of `node` (the path's last node) to descend to: UCB1, or with RAVE the
    /// blended value.
    fn select(&mut self, tree: &Tree, node: u32, config: &MctsConfig) -> u32 {
        if !tree.rave_active(config) {
            return uct::select_child(&tree.nodes, node, config.c, &mut self.rng);
        }
        self.rave.select(&tree.nodes, &self.path, |_| true, config.c, &mut self.rng)
    }

    /// Selection and expansion: from the root state down the tree to a node visited for the
    /// first time (or a terminal one), applying the moves to the search state. Every node of
    /// the path then counts the visit, before its reward is known: to the other threads of a
    /// tree-parallel search the iteration in flight reads as a loss (virtual loss), which
    /// sends them down other paths.
    fn descend(
        &mut self,
        game: &G,
        tree: &mut Tree,
        root_state: &G::State,
        config: &MctsConfig,
    ) -> Result<Descent, SearchError> {
        match &mut self.state {
            Some(s) => s.clone_from(root_state),
            None => self.state = Some(root_state.clone()),
        }
        self.path.clear();
        self.path.push(0);
        self.trail.clear();
        self.cut = false;
        self.record = tree.records_trail(config);
        let mut node = 0u32;
        let mut descent = Descent { visited: 0, terminal: false };
        loop {
            let n = &tree.nodes[node as usize];
            if n.terminal {
                descent.terminal = true;
                break;
            }
            if !n.expanded {
                if tree.nodes.len() >= config.max_nodes {
                    break;
                }
                self.expand(game, tree, node, config)?;
                if tree.nodes[node as usize].terminal {
                    descent.terminal = true;
                    break;
                }
            }
            let child = self.select(tree, node, config);
            let c = &tree.nodes[child as usize];
            let fresh = c.visits == 0;
            if self.record {
                self.trail.push((c.mover, c.extra.key));
            }
            let state = self.state.as_mut().expect("search state");
            game.apply_move(state, tree.node_move(child));
            descent.visited += 1;
            self.path.push(child);
            node = child;
            if !game.complete_keeper(state, &mut self.scratch, DEFAULT_KEEPER_LIMIT)? {
                let c = &mut tree.nodes[child as usize];
                c.expanded = true;
                c.terminal = true;
                descent.terminal = true;
                break;
            }
            if fresh {
                break;
            }
        }
        for &i in &self.path {
            let n = &mut tree.nodes[i as usize];
            n.visits = n.visits.saturating_add(1);
        }
        self.by_policy = tree.policy_active(config);
        Ok(descent)
    }

    /// The playout from where the descent ended; returns the number of moves made. It reads
    /// nothing of the tree, so tree-parallel threads run it without the lock.
    fn play_out(&mut self, game: &G, config: &MctsConfig, home: StatsHome) -> Result<u64, SearchError> {
        let limit = self.playout_limit(config);
        let plies = if config.playout == SplitPlayout::Split {
            self.walk_playout(game, limit)?
        } else if self.record {
            self.policy_playout(game, limit, home)?
        } else {
            let state = self.state.as_mut().expect("search state");
            random_playout(game, state, &mut self.scratch, &mut self.playout, &mut self.rng, limit)?
        };
        self.cut = self.evaluation.is_some() && plies == limit && {
            let state = self.state.as_mut().expect("search state");
            game.has_legal_move(state, &mut self.scratch)?
        };
        Ok(plies)
    }

    /// The most moves a playout makes: the cut-off where an evaluation judges the rest.
    fn playout_limit(&self, config: &MctsConfig) -> u64 {
        if self.evaluation.is_some() && config.cutoff > 0 {
            config.cutoff.min(config.max_playout_plies)
        } else {
            config.max_playout_plies
        }
    }

    /// Each player's reward at the end of the iteration: the game's scores, or the learned
    /// evaluation's prediction (within [0, 1]) where the playout was cut off.
    fn rewards_of_iteration(&mut self, game: &G) {
        let state = self.state.as_ref().expect("search state");
        match (&self.evaluation, self.cut) {
            (Some(weights), true) => {
                piece_counts(game, state, &mut self.counts);
                let mover = (game.current_player(state) as usize).saturating_sub(1);
                weights.predict_into(&self.counts, mover, 0, &mut self.rewards);
                self.rewards.iter_mut().for_each(|r| *r = r.clamp(0.0, 1.0));
            }
            _ => rewards_into(game, state, &mut self.rewards),
        }
    }

    /// Backpropagation: each node of the path adds the final reward of its mover (the visits
    /// were counted by the descent), then the action statistics and RAVE learn the iteration.
    fn back_up(&mut self, game: &G, tree: &mut Tree, config: &MctsConfig, home: StatsHome) {
        self.rewards_of_iteration(game);
        for &i in &self.path {
            let n = &mut tree.nodes[i as usize];
            if n.mover != 0 {
                n.reward += self.rewards[n.mover as usize - 1];
            }
        }
        match home {
            StatsHome::Own => self.stats.update(&self.trail, &self.rewards),
            StatsHome::Shared(stats) => self.deferred.push(stats, &self.trail, &self.rewards),
        }
        if tree.rave_active(config) {
            // The `d`-th node of the path made the `d`-th move of the trail.
            self.rave.update(&mut tree.nodes, &self.path, |d| d, &self.trail, &self.rewards);
        }
    }

    /// One selection-expansion-playout-backpropagation pass; returns (states visited, depth).
    fn iterate(
        &mut self,
        game: &G,
        tree: &mut Tree,
        root_state: &G::State,
        config: &MctsConfig,
    ) -> Result<(u64, u32), SearchError> {
        let mut descent = self.descend(game, tree, root_state, config)?;
        if !descent.terminal {
            descent.visited += self.play_out(game, config, StatsHome::Own)?;
        }
        self.back_up(game, tree, config, StatsHome::Own);
        Ok((descent.visited, self.path.len() as u32 - 1))
    }

    /// One thread of a tree-parallel search: iterations on the shared tree, holding its lock
    /// for the descent and the backpropagation but not for the playout, until the budget (counted
    /// over all threads) is spent, the search is decided or another thread failed.
    fn run_shared(
        &mut self,
        game: &G,
        shared: &SharedSearch<'_, G::State>,
        config: &MctsConfig,
    ) -> Result<SearchStats, AgentError> {
        let mut stats = SearchStats::default();
        let result = self.iterate_shared(game, shared, config, &mut stats);
        self.deferred.flush(shared.stats);
        if result.is_err() {
            shared.stop.store(true, Ordering::Relaxed);
        }
        result.map(|()| stats)
    }

    fn iterate_shared(
        &mut self,
        game: &G,
        shared: &SharedSearch<'_, G::State>,
        config: &MctsConfig,
        stats: &mut SearchStats,
    ) -> Result<(), AgentError> {
        let (meter, home) = (shared.meter, StatsHome::Shared(shared.stats));
        while !shared.stop.load(Ordering::Relaxed) {
            // Claiming the iteration first keeps an iteration budget exact over the threads.
            let claimed = shared.iterations.fetch_add(1, Ordering::Relaxed);
            if meter.search_over(claimed, shared.depth.load(Ordering::Relaxed)) {
                break;
            }
            let mut descent = self.descend(game, &mut *lock(shared.tree)?, shared.root_state, config)?;
            if !descent.terminal {
                descent.visited += self.play_out(game, config, home)?;
            }
            let mut tree = lock(shared.tree)?;
            self.back_up(game, &mut tree, config, home);
            if tree.root_decided() {
                shared.stop.store(true, Ordering::Relaxed);
            }
            drop(tree);
            let depth = self.path.len() as u32 - 1;
            // Read first: a write at every iteration would move the word between the cores.
            if depth > shared.depth.load(Ordering::Relaxed) {
                shared.depth.fetch_max(depth, Ordering::Relaxed);
            }
            stats.count_iteration(descent.visited, depth);
        }
        Ok(())
    }
}

/// The shared tree, or an error if a thread panicked while holding it.
fn lock(tree: &Mutex<Tree>) -> Result<MutexGuard<'_, Tree>, AgentError> {
    tree.lock().map_err(|_| AgentError::Aborted("a search thread failed".to_string()))
}

/// The threads beyond the first, by [`Parallelism`].
enum Helpers<G: Game> {
    /// Root parallelism: searches of their own.
    Root(Vec<Mcts<G>>),
    /// Tree parallelism: workers on the shared tree.
    Tree(Vec<Worker<G>>),
}

/// UCT MCTS (see the module documentation).
pub struct Mcts<G: Game> {
    config: MctsConfig,
    tree: Tree,
    /// The state the tree's root (node 0) stands for, if there is a tree.
    root_state: Option<G::State>,
    /// The first thread's working memory.
    worker: Worker<G>,
    /// The other threads (`threads - 1`).
    helpers: Helpers<G>,
    /// The search of games that open wider than [`MctsConfig::split_width`].
    split: Option<Box<SplitMcts<G>>>,
    /// Whether this game is played by `split`: decided at the first search after the agent
    /// is built or reset.
    splitting: Option<bool>,
}

impl<G: Game> Mcts<G> {
    pub fn new(game: &G, config: MctsConfig, seed: u64) -> Self {
        let helper_seeds = (1..config.threads).map(|i| helper_seed(seed, i));
        let helpers = match config.parallel {
            Parallelism::Root => {
                // The first search alone decides whether a game is split.
                let one = MctsConfig { threads: 1, split_width: SPLIT_NEVER, ..config.clone() };
                Helpers::Root(helper_seeds.map(|s| Mcts::new(game, one.clone(), s)).collect())
            }
            Parallelism::Tree => Helpers::Tree(helper_seeds.map(|s| Worker::new(game, &config, s)).collect()),
        };
        let split = (config.split_width != SPLIT_NEVER)
            .then(|| Box::new(SplitMcts::new(game, split_config(&config), split_seed(seed))));
        Mcts {
            worker: Worker::new(game, &config, seed),
            config,
            tree: Tree::default(),
            root_state: None,
            helpers,
            split,
            splitting: None,
        }
    }

    /// The agent with `weights` judging the playouts that [`MctsConfig::cutoff`] cuts off (on
    /// every thread); without it, or with a cut-off of 0, playouts run to the end.
    pub fn with_evaluation(mut self, weights: Arc<LearnedWeights>) -> Self {
        self.worker.evaluation = Some(weights.clone());
        match &mut self.helpers {
            Helpers::Root(searches) => {
                searches.iter_mut().for_each(|m| m.worker.evaluation = Some(weights.clone()))
            }
            Helpers::Tree(workers) => workers.iter_mut().for_each(|w| w.evaluation = Some(weights.clone())),
        }
        self
    }

    /// Whether `state` has more moves than [`MctsConfig::split_width`].
    fn root_is_wide(&mut self, game: &G, state: &G::State) -> Result<bool, AgentError> {
        let mut root = state.clone();
        let w = &mut self.worker;
        let moves = match game.count_moves(&mut root, &mut w.scratch)? {
            Some(n) => n,
            None => {
                game.legal_moves(&mut root, &mut w.scratch, &mut w.moves)?;
                w.moves.len() as u64
            }
        };
        Ok(moves > u64::from(self.config.split_width))
    }

    /// Number of nodes in the current tree (root included; 0 before the first search).
    pub fn tree_size(&self) -> usize {
        self.tree.nodes.len()
    }

    fn clear_tree(&mut self) {
        self.tree.clear();
        self.root_state = None;
    }

    /// Starts a search from `state`: keeps the tree if it stands for `state` (and trees are
    /// reused), else starts a new one; weighs down the action statistics (a tree-parallel
    /// search's are the first worker's).
    fn prepare(&mut self, state: &G::State) {
        self.worker.stats.decay(self.config.mast_decay);
        if self.root_state.as_ref() != Some(state) || !self.config.reuse_tree {
            self.clear_tree();
            self.tree.nodes.push(Node::new(0, 0, 0, Amaf::default()));
            self.root_state = Some(state.clone());
        }
    }

    /// One thread's search from `state` (see [`Agent::select_move`]).
    fn search(&mut self, game: &G, state: &G::State, budget: &Budget) -> Result<Decision, AgentError> {
        mover(game, state)?;
        let meter = Meter::start(budget.with_default_iterations(DEFAULT_MCTS_ITERATIONS));
        self.prepare(state);
        let mut stats = SearchStats::default();
        let root_state = self.root_state.as_ref().expect("tree root");
        loop {
            if meter.search_over(stats.iterations, stats.depth) {
                break;
            }
            let (visited, depth) = match self.worker.iterate(game, &mut self.tree, root_state, &self.config) {
                Ok(done) => done,
                Err(e) => {
                    self.clear_tree();
                    return Err(e.into());
                }
            };
            stats.count_iteration(visited, depth);
            if self.tree.root_decided() {
                break;
            }
        }
        self.decide(game, state, stats, &meter)
    }

    /// A tree-parallel search from `state`: this thread and one per worker iterate on the one
    /// tree.
    fn search_tree_parallel(
        &mut self,
        game: &G,
        state: &G::State,
        budget: &Budget,
        workers: &mut [Worker<G>],
    ) -> Result<Decision, AgentError> {
        mover(game, state)?;
        let meter = Meter::start(budget.with_default_iterations(DEFAULT_MCTS_ITERATIONS));
        self.prepare(state);
        let tree = Mutex::new(core::mem::take(&mut self.tree));
        let no_stats = ActionStats::new(false, PolicySettings { epsilon: 0.0, context: 0 });
        let mut stats = core::mem::replace(&mut self.worker.stats, no_stats);
        stats.allocate();
        let shared = SharedSearch {
            tree: &tree,
            stats: &stats,
            root_state: self.root_state.as_ref().expect("tree root"),
            meter: &meter,
            iterations: AtomicU64::new(0),
            depth: AtomicU32::new(0),
            stop: AtomicBool::new(false),
        };
        let (config, own) = (&self.config, &mut self.worker);
        let results = std::thread::scope(|scope| {
            let handles: Vec<_> =
                workers.iter_mut().map(|w| scope.spawn(|| w.run_shared(game, &shared, config))).collect();
            let mut results = vec![own.run_shared(game, &shared, config)];
            for handle in handles {
                let failed = Err(AgentError::Aborted("a search thread failed".to_string()));
                results.push(handle.join().unwrap_or(failed));
            }
            results
        });
        self.worker.stats = stats;
        match tree.into_inner() {
            Ok(tree) => self.tree = tree,
            Err(_) => self.clear_tree(),
        }
        let mut stats = SearchStats::default();
        for result in results {
            let thread = match result {
                Ok(thread) => thread,
                Err(e) => {
                    self.clear_tree();
                    return Err(e);
                }
            };
            stats.add_counts(&thread);
        }
        self.decide(game, state, stats, &meter)
    }

    /// The move to play after a search from `state`: the root's robust child, with the root's
    /// statistics.
    fn decide(
        &mut self,
        game: &G,
        state: &G::State,
        mut stats: SearchStats,
        meter: &Meter,
    ) -> Result<Decision, AgentError> {
        if self.tree.nodes[0].terminal {
            return Err(AgentError::NoLegalMove);
        }
        if !self.tree.nodes[0].expanded {
            // Not even one iteration ran (a zero budget): expand to have moves to choose from.
            self.worker.state = Some(state.clone());
            self.worker.expand(game, &mut self.tree, 0, &self.config)?;
            if self.tree.nodes[0].terminal {
                return Err(AgentError::NoLegalMove);
            }
        }
        let tree = &self.tree;
        let best = uct::robust_child(&tree.nodes, 0);
        let chosen = &tree.nodes[best as usize];
        stats.value = (chosen.visits > 0).then(|| chosen.mean());
        stats.elapsed = meter.elapsed();
        let root = &tree.nodes[0];
        stats.root = (root.first_child..root.first_child + root.num_children)
            .map(|c| {
                let node = &tree.nodes[c as usize];
                RootMove {
                    mv: tree.node_move(c).to_vec(),
                    visits: node.visits.into(),
                    value: (node.visits > 0).then(|| node.mean()),
                }
            })
            .collect();
        sort_root(&mut stats.root);
        Ok(Decision { mv: tree.node_move(best).to_vec(), stats })
    }

    /// Root parallelism: a search of its own on this thread and on one per helper, root
    /// statistics merged.
    fn search_root_parallel(
        &mut self,
        game: &G,
        state: &G::State,
        budget: &Budget,
        helpers: &mut [Mcts<G>],
    ) -> Result<Decision, AgentError> {
        let start = std::time::Instant::now();
        let (own, others) = std::thread::scope(|scope| {
            let handles: Vec<_> =
                helpers.iter_mut().map(|h| scope.spawn(move || h.search(game, state, budget))).collect();
            let own = self.search(game, state, budget);
            let others: Vec<_> = handles.into_iter().map(|h| h.join()).collect();
            (own, others)
        });
        let mut decisions = vec![own?];
        for other in others {
            let other = other.map_err(|_| AgentError::Aborted("a search thread failed".to_string()))?;
            decisions.push(other?);
        }
        let mut merged = merge_root_decisions(decisions);
        merged.stats.elapsed = start.elapsed();
        Ok(merged)
    }
}

impl<G: Game> Agent<G> for Mcts<G> {
    fn name(&self) -> String {
        let c = &self.config;
        let mut name = format!("mcts:c={}", c.c);
        let options = [
            (c.mast, "mast=true".to_string()),
            (c.nst > 0, format!("nst={}", c.nst)),
            (c.rave > 0.0, format!("rave={}", c.rave)),
            (c.grave_ref > 0, format!("grave={}", c.grave_ref)),
            (c.threads > 1, format!("threads={}", c.threads)),
            (c.threads > 1 && c.parallel == Parallelism::Root, "parallel=root".to_string()),
            (c.playout == SplitPlayout::Split, "playout=split".to_string()),
            (c.split_width != SPLIT_NEVER, format!("split-width={}", c.split_width)),
            (c.cutoff > 0 && self.worker.evaluation.is_some(), format!("cutoff={}", c.cutoff)),
        ];
        for (_, option) in options.iter().filter(|(on, _)| *on) {
            name.push(',');
            name.push_str(option);
        }
        name
    }

    fn reset(&mut self, seed: u64) {
        self.worker.reset(seed);
        self.clear_tree();
        if let Some(split) = &mut self.split {
            split.reset(split_seed(seed));
        }
        self.splitting = None;
        match &mut self.helpers {
            Helpers::Root(helpers) => {
                for (i, helper) in helpers.iter_mut().enumerate() {
                    helper.reset(helper_seed(seed, i + 1));
                }
            }
            Helpers::Tree(workers) => {
                for (i, worker) in workers.iter_mut().enumerate() {
                    worker.reset(helper_seed(seed, i + 1));
                }
            }
        }
    }

    fn budget(&self) -> Budget {
        self.config.budget
    }

    fn select_move(&mut self, game: &G, state: &G::State, budget: &Budget) -> Result<Decision, AgentError> {
        if self.split.is_some() && self.splitting.is_none() {
            self.splitting = Some(self.root_is_wide(game, state)?);
        }
        if let (Some(split), Some(true)) = (&mut self.split, self.splitting) {
            return split.select_move(game, state, budget);
        }
        // The helpers are taken out for the search, which borrows the rest of `self`.
        match core::mem::replace(&mut self.helpers, Helpers::Root(Vec::new())) {
            Helpers::Root(mut helpers) if !helpers.is_empty() => {
                let decision = self.search_root_parallel(game, state, budget, &mut helpers);
                self.helpers = Helpers::Root(helpers);
                decision
            }
            Helpers::Tree(mut workers) if !workers.is_empty() => {
                let decision = self.search_tree_parallel(game, state, budget, &mut workers);
                self.helpers = Helpers::Tree(workers);
                decision
            }
            none => {
                self.helpers = none;
                self.search(game, state, budget)
            }
        }
    }

    fn observe(&mut self, game: &G, before: &G::State, mv: &[Action]) -> Result<(), AgentError> {
        if let Some(split) = &mut self.split {
            split.observe(game, before, mv)?;
        }
        if let Helpers::Root(helpers) = &mut self.helpers {
            for helper in helpers {
                helper.observe(game, before, mv)?;
            }
        }
        if !self.config.reuse_tree || self.root_state.as_ref() != Some(before) || !self.tree.nodes[0].expanded
        {
            self.clear_tree();
            return Ok(());
        }
        let root = &self.tree.nodes[0];
        let child =
            (root.first_child..root.first_child + root.num_children).find(|&c| self.tree.node_move(c) == mv);
        let mut after = before.clone();
        game.apply_move(&mut after, mv);
        let live = game.complete_keeper(&mut after, &mut self.worker.scratch, DEFAULT_KEEPER_LIMIT);
        match (child, live) {
            (Some(c), Ok(true)) => {
                uct::reroot(&mut self.tree.nodes, &mut self.tree.actions, c);
                self.root_state = Some(after);
            }
            (_, Err(e)) => {
                self.clear_tree();
                return Err(e.into());
            }
            _ => self.clear_tree(),
        }
        Ok(())
    }
}

/// The split-move search of an `mcts` agent's wide roots: `split-mcts:c=0.4` (the setting
/// of the ladder, docs/results.md) with the agent's budget.
fn split_config(config: &MctsConfig) -> SplitMctsConfig {
    SplitMctsConfig { c: 0.4, budget: config.budget, ..SplitMctsConfig::default() }
}

/// The seed of the split-move search of an agent seeded `seed`.
fn split_seed(seed: u64) -> u64 {
    splitmix(seed ^ 0x5911_75ed)
}

/// The seed of the `i`-th extra thread's search.
fn helper_seed(seed: u64, i: usize) -> u64 {
    splitmix(seed ^ splitmix(i as u64))
}

/// One decision from the root statistics of several searches of the same state: each root
/// move's visits and rewards summed; the most visited (ties: the better mean, then the first
/// listed) is played.
fn merge_root_decisions(decisions: Vec<Decision>) -> Decision {
    let mut stats = SearchStats::default();
    let mut root: Vec<(RootMove, f64)> = Vec::new();
    for d in decisions {
        stats.add_counts(&d.stats);
        for m in d.stats.root {
            let reward = m.value.unwrap_or(0.0) * m.visits as f64;
            match root.iter_mut().find(|(r, _)| r.mv == m.mv) {
                Some((r, sum)) => {
                    r.visits += m.visits;
                    *sum += reward;
                }
                None => root.push((m, reward)),
            }
        }
    }
    stats.root = root
        .into_iter()
        .map(|(m, sum)| RootMove { value: (m.visits > 0).then(|| sum / m.visits as f64), ..m })
        .collect();
    sort_root(&mut stats.root);
    let mv = stats.root.first().map(|m| m.mv.clone()).unwrap_or_default();
    stats.value = stats.root.first().and_then(|m| m.value);
    Decision { mv, stats }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agent::{move_hash, Agent};
    use crate::budget::Budget;

    /// White picks one of two pieces, black puts its filler, then the game ends: every
    /// iteration's trail is white's move, then black's one move.
    use rbg_testdata::ONE_PIECE_DECIDES as PICK_THEN_FILL;

    /// In a game that opens wider than `split-width` the agent plays as `split-mcts:c=0.4`
    /// with its budget (the same decision as that agent seeded alike); in a narrower one, or
    /// with `off`, as without split-width.
    #[test]
    fn wide_roots_are_searched_by_split_move_mcts() {
        let parsed = rbg_parser::parse("pick.rbg", PICK_THEN_FILL.as_bytes()).game.expect("parses");
        let game = rbg_interp::Interpreter::new(&parsed, "pick.rbg", Default::default()).expect("builds");
        let mut root = game.initial_state();
        assert!(game.complete_keeper(&mut root, &mut game.new_scratch(), 100).unwrap());
        let budget = Budget::iterations(60);
        let decide = |agent: &mut dyn Agent<_>| {
            let d = agent.select_move(&game, &root, &budget).unwrap();
            (
                d.mv,
                d.stats.iterations,
                d.stats.nodes,
                d.stats.root.iter().map(|m| m.visits).collect::<Vec<_>>(),
            )
        };
        // White has 2 moves: wider than 1, not wider than 2.
        let config = |split_width| MctsConfig { split_width, ..MctsConfig::default() };
        let split = decide(&mut Mcts::new(&game, config(1), 9));
        let alone = decide(&mut SplitMcts::new(&game, split_config(&config(1)), split_seed(9)));
        assert_eq!(split, alone);
        let narrow = decide(&mut Mcts::new(&game, config(2), 9));
        let off = decide(&mut Mcts::new(&game, config(SPLIT_NEVER), 9));
        assert_eq!(narrow, off);
        assert!(Mcts::new(&game, config(2), 9).name().contains("split-width=2"));
    }

    /// White picks one of four pieces, black fills the second cell: `good` wins for white,
    /// `bad` for black, the others leave both at 50 (level). `level` is how many of the four
    /// are level, so a uniformly random game ends level with probability `level / 4`.
    fn pick_one_of_four(level: usize) -> rbg_interp::Interpreter {
        let outcome = ["[$ white = 100, black = 0]", "[$ white = 0, black = 100]"];
        let arms: Vec<String> = (0..4)
            .map(|k| {
                format!("{{p{k}}} {}", if k < level { "[$ white = 50, black = 50]" } else { outcome[k % 2] })
            })
            .collect();
        let text = format!(
            "#players = white(100), black(100)\n#pieces = e, p0, p1, p2, p3, filler\n#variables =\n\
             #board = rectangle(up, down, left, right, [e, e])\n\
             #rules = ->white ([p0] + [p1] + [p2] + [p3]) right ->black [filler] ->> left ({}) ->> {{}}\n",
            arms.join(" + ")
        );
        // Named apart: learned weights are cached by name, pieces, start and first moves.
        let name = format!("four{level}");
        let parsed = rbg_parser::parse(&name, text.as_bytes()).game.expect("parses");
        rbg_interp::Interpreter::new(&parsed, &name, Default::default()).expect("builds")
    }

    /// `cutoff=auto` cuts playouts off where most random games end level: none of the four
    /// picks level (no draws) or one (a quarter) plays to the end; three or four (three
    /// quarters, all) cut after [`AUTO_CUTOFF_MOVES`], and the agent built from the default
    /// specification says so in its name. A one-player game never cuts.
    #[test]
    fn auto_cutoff_cuts_where_random_games_mostly_end_level() {
        for (level, expected) in [(0, 0), (1, 0), (3, AUTO_CUTOFF_MOVES), (4, AUTO_CUTOFF_MOVES)] {
            let game = pick_one_of_four(level);
            assert_eq!(auto_cutoff(&game).unwrap(), expected, "{level} of 4 picks level");
            let agent = "mcts".parse::<crate::AgentSpec>().unwrap().build(&game).unwrap();
            assert_eq!(
                agent.name().contains(&format!("cutoff={AUTO_CUTOFF_MOVES}")),
                expected > 0,
                "{}",
                agent.name()
            );
            let whole = "mcts:cutoff=0".parse::<crate::AgentSpec>().unwrap().build(&game).unwrap();
            assert!(!whole.name().contains("cutoff"), "{}", whole.name());
        }
        let alone = "#players = solo(1)\n#pieces = e, x\n#variables =\n\
                     #board = rectangle(up, down, left, right, [e])\n#rules = ->solo [x] ->> {}\n";
        let parsed = rbg_parser::parse("solo.rbg", alone.as_bytes()).game.expect("parses");
        let solo = rbg_interp::Interpreter::new(&parsed, "solo.rbg", Default::default()).expect("builds");
        assert_eq!(auto_cutoff(&solo).unwrap(), 0);
    }

    /// The threads of a tree-parallel search keep iterations back and add them in batches;
    /// by the end of the search every iteration of every thread is in the statistics: black's
    /// filler move counts exactly one visit per iteration (fewer than a batch per thread here,
    /// so only the flush at the end adds them).
    #[test]
    fn tree_parallel_statistics_hold_every_iteration_at_the_end() {
        let parsed = rbg_parser::parse("pick.rbg", PICK_THEN_FILL.as_bytes()).game.expect("parses");
        let game = rbg_interp::Interpreter::new(&parsed, "pick.rbg", Default::default()).expect("builds");
        let mut sc = game.new_scratch();
        let mut root = game.initial_state();
        assert!(game.complete_keeper(&mut root, &mut sc, 100).unwrap());
        let mut moves = MoveList::new();
        game.legal_moves(&mut root, &mut sc, &mut moves).unwrap();
        let mut after = root.clone();
        game.apply_move(&mut after, moves.get(0));
        assert!(game.complete_keeper(&mut after, &mut sc, 100).unwrap());
        game.legal_moves(&mut after, &mut sc, &mut moves).unwrap();
        assert_eq!(moves.len(), 1, "black has its one filler move");
        let filler = move_hash(moves.get(0));
        let iterations = 300;
        assert!(iterations / 2 < DeferredUpdates::BATCH as u64);
        for threads in [1, 2, 3] {
            let config = MctsConfig { threads, reuse_tree: false, mast_decay: 1.0, ..MctsConfig::default() };
            let mut mcts = Mcts::new(&game, config, 5);
            let d = mcts.select_move(&game, &root, &Budget::iterations(iterations)).unwrap();
            assert_eq!(d.stats.iterations, iterations);
            let (_, count) = mcts.worker.stats.entry(&[], 0, 2, filler);
            assert_eq!(count, iterations as f64, "{threads} threads");
        }
    }
}
