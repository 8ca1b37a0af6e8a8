//! Split-move MCTS: UCT whose tree branches on parts of moves rather than on whole moves, after
//! Kowalski et al., "Split Moves for Monte-Carlo Tree Search" (AAAI 2022).
//!
//! A node's children are the distinct next *steps* of the partial move that leads to it
//! ([`rbg_core::split::SplitMoves`]): one action at a time, or with `compress` (the default)
//! the longest run of actions on which all completions agree, so that every node offers a real
//! choice. A node whose partial move is a whole legal move is *complete*: its state is the
//! state after that move (keeper completed), a *nodal* state, whose children are the first steps
//! of the next player's moves. The root is nodal too. Steps come from full legal moves, so a
//! partial move can always be completed and the tree has no dead ends.
//!
//! States are kept only at nodal nodes' level, and not stored: an iteration replays the moves
//! along its path from the root state, collecting the actions of the steps since the last nodal
//! state and applying them as one move when a complete node is reached.
//!
//! Steps come from one of two sources ([`StepSource`]). **Generated** (the default): the
//! reasoner's move-by-move interface ([`Game::next_actions`], through
//! [`rbg_core::split::StepGenerator`]) finds the next steps of the collected partial move by a
//! search that follows the prefix and stops at the first completion of each step, so no state's
//! moves are ever listed whole (amazons: a few dozen steps per choice instead of two thousand
//! moves). **Listed**: the nodal state's legal moves are listed and sorted
//! ([`Game::split_moves`]) and a partial node records its range in that list, generated again
//! (the reasoners are deterministic, so it is the same) when the iteration expands a node
//! below that ancestor.
//!
//! One iteration: *selection* from the root by UCB1 over steps (unvisited children first, at
//! random); *expansion*, either **nodal** (the default: from the first unvisited child picked,
//! keep adding one random untried child per level until a complete move is reached, so every
//! playout starts at a real state) or **single** (add one node; a partial move is then finished
//! by a random completion: uniform over its range of listed moves, or a random walk over
//! generated steps); a *playout*, either **full** (uniform over whole moves per turn, through
//! [`Game::random_playout`], which uses the reasoner's fast paths: monotonic classes,
//! library-side loops) or **split** (at each turn a walk over steps, uniform at every choice;
//! with generated steps, the paper's semi-split playout, which never lists a state's moves); *backpropagation*: every node adds the final reward of its mover,
//! the player to move at the nodal state above it (a partial move is made by one player).
//!
//! Split MAST (`mast`, after the paper's MAST split variant) keeps the action statistics of
//! [`crate::action_stats`] per single action (a semimove of one action): every action of the
//! steps chosen in the tree and of the playout's moves adds its mover's final reward, and
//! playouts walk each move one next action at a time (through [`Game::next_actions`], whatever
//! `playout` says), choosing the best scored action except with probability `mast_epsilon`.
//! With `nst` the n-grams span the preceding 1 or 2 actions.
//!
//! RAVE (`rave`, the equivalence parameter) and GRAVE (`grave`) over actions, as for whole-move
//! MCTS ([`crate::uct::Rave`], one implementation for both): a child's all-moves-as-first
//! statistics gather its mover's rewards of the iterations through its parent in which that
//! player made the first action of the child's step at the parent or later (in the tree, in
//! the playout); selection blends them in. The iteration's actions are recorded in order, and
//! the playout records its own: whole moves uniformly at random (`playout=full`, listed) or a
//! uniformly random next action at every choice (`playout=split`, or split MAST's walk when
//! the action statistics are on). A GRAVE reference must stand as many steps into its move as
//! the node selecting (its children's steps are then the same kind of decision).
//!
//! Roll-up (`rollup`, the split-moves paper's tree strategy of that name): a partial child
//! whose children have all been visited, and which has at least `rollup` times as many visits
//! as it has children, is merged into its parent: the parent gets the child's children in its
//! place, each with the child's step prefixed to its own and with its own statistics (an only
//! child takes the merged child's AMAF key and statistics: it was no choice). The tree
//! thus starts split (cheap to explore: one choice at a time) and becomes a whole-move tree
//! where the search has looked at every continuation. `compress` is a different thing: it
//! merges only runs of actions without any choice, when the steps are made.
//!
//! The move played is found by the robust-child rule at every level: from the root, the child
//! with the most visits (ties: the better mean, then the first in step order) until a complete
//! node. [`Agent::observe`] follows the played move's actions down the tree and keeps the
//! subtree of the complete node it reaches.

use rand::Rng;
use rand_core::SeedableRng;
use rbg_core::moves::DEFAULT_MAX_ACTIONS;
use rbg_core::perft::DEFAULT_KEEPER_LIMIT;
use rbg_core::playout::PlayoutBuffers;
use rbg_core::split::{PartialMove, SplitMoves, StepGenerator};
use rbg_core::PlayoutRng;

use crate::flat_mc::random_playout;
use crate::uct;
use rbg_core::{Action, Game, MoveList, Player, SearchError};

use crate::action_stats::{ActionStats, PolicySettings, TrailEntry};
use crate::agent::{move_hash, mover, rewards_into, Agent, AgentError, Decision, SearchStats};
use crate::budget::{Budget, Meter};
use crate::uct::{Amaf, Rave, WithAmaf};

/// How an iteration grows the tree.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Expansion {
    /// Add one random untried child per level until a complete move: every playout starts at a
    /// real state.
    Nodal,
    /// Add one node; a partial move is finished by a uniformly random completion.
    Single,
}

/// Where a partial move's steps come from.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum StepSource {
    /// The nodal state's legal moves, listed and sorted ([`Game::split_moves`]): one move
    /// generation serves every partial move below that state.
    Listed,
    /// The reasoner's move-by-move interface ([`Game::next_actions`] through
    /// [`StepGenerator`]): one search per expanded node, each stopping at the first completion
    /// of every step, so a state with many moves is never listed whole.
    Generated,
}

/// How playouts choose moves.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SplitPlayout {
    /// Uniformly random whole moves.
    Full,
    /// A uniformly random step at every choice of a move.
    Split,
}

/// Settings of [`SplitMcts`].
#[derive(Clone, Debug, PartialEq)]
pub struct SplitMctsConfig {
    /// The UCB1 exploration constant (rewards are in [0, 1]).
    pub c: f64,
    /// The budget used by [`play_game`](crate::play_game); without a time or iteration limit,
    /// [`DEFAULT_SPLIT_MCTS_ITERATIONS`] iterations are added.
    pub budget: Budget,
    /// Steps are runs of actions without a choice, not single actions.
    pub compress: bool,
    /// Where steps come from.
    pub steps: StepSource,
    /// How the tree grows.
    pub expansion: Expansion,
    /// How playouts choose moves.
    pub playout: SplitPlayout,
    /// Keep the subtree of the move played (see [`Agent::observe`]).
    pub reuse_tree: bool,
    /// Split MAST: playouts choose each next action by its statistics.
    pub mast: bool,
    /// MAST's and NST's probability of a uniformly random action.
    pub mast_epsilon: f64,
    /// Factor applied to the action statistics at the start of each search (1: keep all).
    pub mast_decay: f64,
    /// NST: actions of context in the n-gram statistics (0: off, 1 or 2); implies the policy.
    pub nst: usize,
    /// RAVE's equivalence parameter k over actions (0: no RAVE).
    pub rave: f64,
    /// GRAVE's reference threshold (0: plain RAVE).
    pub grave_ref: u32,
    /// Roll-up: a partial child with every child visited and at least this many visits per
    /// child is merged into its parent (0: off).
    pub rollup: f64,
    /// Playouts longer than this many player moves stop and are scored where they stand.
    pub max_playout_plies: u64,
    /// When the tree grows beyond this many nodes, the search stops expanding it.
    pub max_nodes: usize,
    /// With listed steps, most actions one state's move list may hold
    /// ([`rbg_core::MoveList::with_limit`]; generated steps list no state's moves). A
    /// state below the root whose moves do not fit stays a leaf, valued by playouts, which
    /// then sample its moves one by one; at the root the search fails with
    /// [`SearchError::TooManyMoves`].
    pub max_move_actions: usize,
}

impl Default for SplitMctsConfig {
    fn default() -> Self {
        SplitMctsConfig {
            c: std::f64::consts::SQRT_2,
            budget: Budget::default(),
            compress: true,
            steps: StepSource::Generated,
            expansion: Expansion::Nodal,
            playout: SplitPlayout::Full,
            reuse_tree: true,
            mast: false,
            mast_epsilon: 0.1,
            mast_decay: 1.0,
            nst: 0,
            rave: 0.0,
            grave_ref: 0,
            rollup: 0.0,
            max_playout_plies: 10_000,
            max_nodes: 4_000_000,
            max_move_actions: DEFAULT_MAX_ACTIONS,
        }
    }
}

/// Iterations per move when the budget sets no limit.
pub const DEFAULT_SPLIT_MCTS_ITERATIONS: u64 = 1000;

/// What split-move MCTS adds to a tree node (whose actions are the step leading to it).
#[derive(Clone, Debug)]
struct Split {
    /// The steps from the nodal ancestor to here make a whole move.
    complete: bool,
    /// A nodal node whose moves do not fit in a move list: it stays a leaf, valued by
    /// playouts (which sample such states' moves one by one instead of listing them).
    unlisted: bool,
    /// The moves of the nodal ancestor's sorted list that this node's partial move prefixes.
    range: PartialMove,
    /// RAVE: the hash of the step's first action and its AMAF statistics.
    amaf: Amaf,
}

impl WithAmaf for Split {
    fn amaf(&self) -> &Amaf {
        &self.amaf
    }
    fn amaf_mut(&mut self) -> &mut Amaf {
        &mut self.amaf
    }
}

type Node = uct::Node<Split>;

/// A node for a step of `len` actions at `start` of the arena; `key` is its AMAF key.
fn step_node(mover: Player, start: u32, len: u32, range: PartialMove, complete: bool, key: u64) -> Node {
    let amaf = Amaf { key, ..Amaf::default() };
    Node::new(mover, start, len, Split { complete, unlisted: false, range, amaf })
}

/// Split-move UCT (see the module documentation).
pub struct SplitMcts<G: Game> {
    config: SplitMctsConfig,
    scratch: G::Scratch,
    rng: PlayoutRng,
    nodes: Vec<Node>,
    /// The actions of every node's step, back to back.
    actions: Vec<Action>,
    /// The state the tree's root (node 0) stands for, if there is a tree.
    root_state: Option<G::State>,
    /// The nodal state an iteration has reached.
    state: G::State,
    /// The moves of `state` when `splits_fresh`.
    splits: SplitMoves,
    splits_fresh: bool,
    /// Steps generated move by move ([`StepSource::Generated`]).
    generator: StepGenerator,
    /// The actions of the steps taken since the last nodal state.
    partial: Vec<Action>,
    path: Vec<u32>,
    rewards: Vec<f64>,
    playout_buffers: PlayoutBuffers,
    /// Split MAST and NST statistics, per action.
    stats: ActionStats,
    /// The actions made in the current iteration (when the statistics are on).
    trail: Vec<TrailEntry>,
    /// The next actions of a partial move, in MAST playouts.
    next: Vec<Action>,
    /// RAVE and GRAVE.
    rave: Rave,
    /// Per node of `path`: where the actions chosen at it begin in `trail`, and how many
    /// steps into its move it stands (0 for a nodal node).
    marks: Vec<u32>,
    levels: Vec<u32>,
    /// One state's moves, in playouts that record whole moves.
    moves: MoveList,
}

/// The statistics key of one action.
fn action_hash(a: Action) -> u64 {
    move_hash(&[a])
}

impl<G: Game> SplitMcts<G> {
    pub fn new(game: &G, config: SplitMctsConfig, seed: u64) -> Self {
        let settings = PolicySettings { epsilon: config.mast_epsilon, context: config.nst };
        let stats = ActionStats::new(config.mast || config.nst > 0, settings);
        SplitMcts {
            stats,
            trail: Vec::new(),
            next: Vec::new(),
            rave: Rave::new(config.rave, config.grave_ref),
            marks: Vec::new(),
            levels: Vec::new(),
            moves: MoveList::with_limit(config.max_move_actions),
            splits: SplitMoves::with_limit(config.max_move_actions),
            playout_buffers: PlayoutBuffers::new(game, config.max_move_actions),
            config,
            scratch: game.new_scratch(),
            rng: PlayoutRng::seed_from_u64(seed),
            nodes: Vec::new(),
            actions: Vec::new(),
            root_state: None,
            state: game.initial_state(),
            splits_fresh: false,
            generator: StepGenerator::new(),
            partial: Vec::new(),
            path: Vec::new(),
            rewards: vec![0.0; game.info().num_players()],
        }
    }

    /// Number of nodes in the current tree (root included; 0 before the first search).
    pub fn tree_size(&self) -> usize {
        self.nodes.len()
    }

    /// Visits of the root (the iterations that went through the current tree, including those
    /// of earlier moves whose subtree was kept).
    pub fn root_visits(&self) -> u32 {
        self.nodes.first().map_or(0, |n| n.visits)
    }

    fn clear_tree(&mut self) {
        self.nodes.clear();
        self.actions.clear();
        self.root_state = None;
    }

    /// Whether iterations record their actions (for the action statistics or RAVE).
    fn records_trail(&self) -> bool {
        self.stats.enabled() || self.rave.enabled()
    }

    /// The AMAF key of a step (0 without RAVE, which needs none).
    fn step_key(&self, step: &[Action]) -> u64 {
        match step.first() {
            Some(&a) if self.rave.enabled() => action_hash(a),
            _ => 0,
        }
    }

    fn is_nodal(&self, node: u32) -> bool {
        node == 0 || self.nodes[node as usize].extra.complete
    }

    fn step(&self, node: u32) -> &[Action] {
        let n = &self.nodes[node as usize];
        &self.actions[n.actions_start as usize..(n.actions_start + n.actions_len) as usize]
    }

    /// Makes `splits` hold the moves of `state`.
    fn ensure_splits(&mut self, game: &G) -> Result<(), SearchError> {
        if !self.splits_fresh {
            game.split_moves(&mut self.state, &mut self.scratch, &mut self.splits)?;
            self.splits_fresh = true;
        }
        Ok(())
    }

    /// Creates the children of `node`, whose nodal ancestor's state is `state`: one per step of
    /// its partial move. A node without steps is terminal.
    /// With generated steps, `partial` must hold the node's partial move.
    fn expand(&mut self, game: &G, node: u32) -> Result<(), SearchError> {
        let player = game.current_player(&self.state);
        let first = self.nodes.len() as u32;
        match self.config.steps {
            StepSource::Listed => self.add_listed_children(game, node, player)?,
            StepSource::Generated => self.add_generated_children(game, player)?,
        }
        let count = self.nodes.len() as u32 - first;
        let n = &mut self.nodes[node as usize];
        n.expanded = true;
        n.first_child = first;
        n.num_children = count;
        // Only a nodal node can lack steps (a partial move always has a completion); should the
        // reasoner disagree with itself, the node is scored where it stands rather than entered.
        n.terminal = count == 0;
        Ok(())
    }

    fn add_listed_children(&mut self, game: &G, node: u32, player: Player) -> Result<(), SearchError> {
        self.ensure_splits(game)?;
        let range =
            if self.is_nodal(node) { self.splits.root() } else { self.nodes[node as usize].extra.range };
        for step in self.splits.steps(range, self.config.compress) {
            let start = self.actions.len() as u32;
            self.actions.extend_from_slice(step.actions);
            let complete = self.splits.is_complete(step.next);
            let (len, key) = (step.actions.len() as u32, self.step_key(step.actions));
            self.nodes.push(step_node(player, start, len, step.next, complete, key));
        }
        Ok(())
    }

    fn add_generated_children(&mut self, game: &G, player: Player) -> Result<(), SearchError> {
        self.generator.generate(
            game,
            &mut self.state,
            &mut self.scratch,
            &self.partial,
            self.config.compress,
        )?;
        for step in self.generator.iter() {
            let start = self.actions.len() as u32;
            self.actions.extend_from_slice(step.actions);
            let (len, key) = (step.actions.len() as u32, self.step_key(step.actions));
            self.nodes.push(step_node(player, start, len, PartialMove::default(), step.complete, key));
        }
        Ok(())
    }

    /// Applies the move made of the steps since the last nodal state to `state` and completes
    /// the keeper; `false` if the game is over.
    fn apply_partial(&mut self, game: &G) -> Result<bool, SearchError> {
        game.apply_move(&mut self.state, &self.partial);
        self.enter_nodal_state(game)
    }

    /// Applies a uniformly random completion of `range` (a partial move of `splits`, which must
    /// be fresh) and completes the keeper; `false` if the game is over.
    /// With generated steps, `partial` (the partial move of `range`) is completed instead, one
    /// random step at a time.
    fn apply_random_completion(&mut self, game: &G, range: PartialMove) -> Result<bool, SearchError> {
        let player = game.current_player(&self.state);
        let recorded = self.partial.len();
        if self.config.steps == StepSource::Listed {
            let i = self.rng.gen_range(0..range.completions().max(1) as u32) as usize;
            let Some(mv) = self.splits.completion(range, i) else { return Ok(false) };
            self.partial.clear();
            self.partial.extend_from_slice(mv);
        } else {
            let (state, scratch) = (&mut self.state, &mut self.scratch);
            if !self.generator.complete_randomly(game, state, scratch, &mut self.partial, &mut self.rng)? {
                return Ok(false);
            }
        }
        if self.records_trail() {
            self.trail.extend(self.partial[recorded..].iter().map(|&a| (player, action_hash(a))));
        }
        self.apply_partial(game)
    }

    fn enter_nodal_state(&mut self, game: &G) -> Result<bool, SearchError> {
        self.partial.clear();
        self.splits_fresh = false;
        game.complete_keeper(&mut self.state, &mut self.scratch, DEFAULT_KEEPER_LIMIT)
    }

    /// Plays the rest of the game at random from `state`; returns the moves made.
    fn playout(&mut self, game: &G) -> Result<u64, SearchError> {
        if self.records_trail() {
            return self.recorded_playout(game);
        }
        match self.config.playout {
            SplitPlayout::Full => self.full_playout(game, self.config.max_playout_plies),
            SplitPlayout::Split => self.split_playout(game),
        }
    }

    /// Uniformly random whole moves, at most `max_plies` of them, through the reasoner's
    /// [`Game::random_playout`].
    fn full_playout(&mut self, game: &G, max_plies: u64) -> Result<u64, SearchError> {
        let (state, scratch) = (&mut self.state, &mut self.scratch);
        random_playout(game, state, scratch, &mut self.playout_buffers, &mut self.rng, max_plies)
    }

    /// A uniformly random step at every choice of every move.
    fn split_playout(&mut self, game: &G) -> Result<u64, SearchError> {
        if self.config.steps == StepSource::Generated {
            return self.generated_split_playout(game);
        }
        self.splits_fresh = false;
        let mut plies = 0;
        while plies < self.config.max_playout_plies {
            match game.split_moves(&mut self.state, &mut self.scratch, &mut self.splits) {
                // Moves too many to list are sampled one by one by the whole-move playout.
                Err(SearchError::TooManyMoves { .. }) => {
                    return Ok(plies + self.full_playout(game, self.config.max_playout_plies - plies)?);
                }
                other => other?,
            }
            let mut p = self.splits.root();
            while !self.splits.is_complete(p) {
                let count = self.splits.step_count(p, true);
                if count == 0 {
                    break;
                }
                let k = self.rng.gen_range(0..count as u32) as usize;
                match self.splits.steps(p, true).nth(k) {
                    Some(step) => p = step.next,
                    None => break,
                }
            }
            let Some(mv) = self.splits.complete_move(p) else { break };
            game.apply_move(&mut self.state, mv);
            plies += 1;
            if !game.complete_keeper(&mut self.state, &mut self.scratch, DEFAULT_KEEPER_LIMIT)? {
                break;
            }
        }
        Ok(plies)
    }

    /// A random next action at every choice, from the reasoner's move-by-move interface: no
    /// state's moves are listed whole.
    fn generated_split_playout(&mut self, game: &G) -> Result<u64, SearchError> {
        let mut plies = 0;
        while plies < self.config.max_playout_plies {
            self.partial.clear();
            let (state, scratch) = (&mut self.state, &mut self.scratch);
            if !self.generator.complete_randomly(game, state, scratch, &mut self.partial, &mut self.rng)? {
                break;
            }
            plies += 1;
            if !self.apply_partial(game)? {
                break;
            }
        }
        Ok(plies)
    }

    /// A playout that records every action in the trail: each move walked one next action at
    /// a time (by split MAST's statistics when they are on, else uniformly: `playout=split`),
    /// or, for RAVE alone with `playout=full`, a uniformly random whole move.
    fn recorded_playout(&mut self, game: &G) -> Result<u64, SearchError> {
        let listed = !self.stats.enabled() && self.config.playout == SplitPlayout::Full;
        let mut plies = 0;
        while plies < self.config.max_playout_plies {
            self.partial.clear();
            let player = game.current_player(&self.state);
            let found = if listed { self.random_listed_move(game, player)? } else { None };
            // A state whose moves are too many to list is walked action by action.
            if !found.map_or_else(|| self.walk_move(game, player), Ok)? {
                // No legal move (or a dead end the reasoner should not have offered).
                return Ok(plies);
            }
            plies += 1;
            if !self.apply_partial(game)? {
                break;
            }
        }
        Ok(plies)
    }

    /// Sets `partial` to a uniformly random legal move of `state`, recorded for `player`:
    /// `Some(false)` if there is none, `None` if they are too many to list.
    fn random_listed_move(&mut self, game: &G, player: Player) -> Result<Option<bool>, SearchError> {
        match game.legal_moves(&mut self.state, &mut self.scratch, &mut self.moves) {
            Err(SearchError::TooManyMoves { .. }) => return Ok(None),
            other => other?,
        }
        if self.moves.is_empty() {
            return Ok(Some(false));
        }
        let k = self.rng.gen_range(0..self.moves.len() as u32) as usize;
        self.partial.extend_from_slice(self.moves.get(k));
        self.trail.extend(self.partial.iter().map(|&a| (player, action_hash(a))));
        Ok(Some(true))
    }

    /// Sets `partial` to a move of `player` walked one next action at a time, each chosen by
    /// the action statistics (uniformly when they are off) and recorded; `false` if there is
    /// no move.
    fn walk_move(&mut self, game: &G, player: Player) -> Result<bool, SearchError> {
        while self.partial.last().is_none_or(|a| !game.info().is_switch(a.index)) {
            game.next_actions(&mut self.state, &mut self.scratch, &self.partial, &mut self.next)?;
            if self.next.is_empty() {
                return Ok(false);
            }
            let hashes = self.next.iter().map(|&a| action_hash(a));
            let a = self.next[self.stats.pick(&mut self.rng, &self.trail, player, hashes)];
            self.partial.push(a);
            self.trail.push((player, action_hash(a)));
        }
        Ok(true)
    }

    /// The child of `node` (the path's last node) to descend to: UCB1, or with RAVE the
    /// blended value, GRAVE's reference standing as many steps into its move.
    fn select(&mut self, node: u32) -> u32 {
        if !self.rave.enabled() {
            return uct::select_child(&self.nodes, node, self.config.c, &mut self.rng);
        }
        let levels = &self.levels;
        let level = levels.last().copied().unwrap_or(0);
        let comparable = |d: usize| levels[d] == level;
        self.rave.select(&self.nodes, &self.path, comparable, self.config.c, &mut self.rng)
    }

    /// Roll-up of `child` into `parent` (see the module documentation), if it is ripe: the
    /// parent's children are copied to the end of the node vector with the child replaced by
    /// its own children, their steps prefixed by its step. The old copies stay unreachable
    /// until the next reroot compacts the tree.
    fn roll_up(&mut self, parent: u32, child: u32) {
        if !self.ripe_for_rollup(child) {
            return;
        }
        let (first, count) =
            (self.nodes[parent as usize].first_child, self.nodes[parent as usize].num_children);
        let new_first = self.nodes.len() as u32;
        for c in first..first + count {
            if c != child {
                self.nodes.push(self.nodes[c as usize].clone());
                continue;
            }
            let n = &self.nodes[child as usize];
            let prefix = n.actions_start as usize..(n.actions_start + n.actions_len) as usize;
            // A single child was no choice: the merged node stands for the child's decision
            // (its AMAF key and statistics); among several, for the grandchild's.
            let only_amaf = (n.num_children == 1).then(|| n.extra.amaf.clone());
            for g in n.first_child..n.first_child + n.num_children {
                let mut merged = self.nodes[g as usize].clone();
                if let Some(amaf) = &only_amaf {
                    merged.extra.amaf = amaf.clone();
                }
                let start = self.actions.len();
                self.actions.extend_from_within(prefix.clone());
                let own = merged.actions_start as usize..(merged.actions_start + merged.actions_len) as usize;
                self.actions.extend_from_within(own);
                merged.actions_start = start as u32;
                merged.actions_len = (self.actions.len() - start) as u32;
                self.nodes.push(merged);
            }
        }
        let count = self.nodes.len() as u32 - new_first;
        let p = &mut self.nodes[parent as usize];
        (p.first_child, p.num_children) = (new_first, count);
    }

    /// A partial node with children, all visited, and at least `rollup` visits per child.
    fn ripe_for_rollup(&self, node: u32) -> bool {
        let n = &self.nodes[node as usize];
        // Never index by `first_child` of a node without children: it means nothing there.
        let Some((first, count)) = n.children() else { return false };
        let children = &self.nodes[first as usize..(first + count) as usize];
        !n.extra.complete
            && !n.terminal
            && n.visits as f64 >= self.config.rollup * count as f64
            && children.iter().all(|c| c.visits > 0)
    }

    /// One selection-expansion-playout-backpropagation pass; returns (states visited, whole
    /// moves below the root on the path).
    fn iterate(&mut self, game: &G) -> Result<(u64, u32), SearchError> {
        let Some(root_state) = &self.root_state else { return Ok((0, 0)) };
        self.state.clone_from(root_state);
        self.splits_fresh = false;
        self.partial.clear();
        self.path.clear();
        self.path.push(0);
        self.trail.clear();
        self.marks.clear();
        self.marks.push(0);
        self.levels.clear();
        self.levels.push(0);
        let mut node = 0u32;
        let mut visited = 0u64;
        let mut plies = 0u32;
        let mut over = false;
        loop {
            if self.nodes[node as usize].terminal {
                over = true;
                break;
            }
            if self.nodes[node as usize].extra.unlisted {
                break;
            }
            if !self.nodes[node as usize].expanded {
                if self.nodes.len() >= self.config.max_nodes {
                    // The tree is full: a partial move is finished at random so that the
                    // playout starts at a real state.
                    if !self.is_nodal(node) {
                        if self.config.steps == StepSource::Listed {
                            self.ensure_splits(game)?;
                        }
                        over = !self.apply_random_completion(game, self.nodes[node as usize].extra.range)?;
                        visited += 1;
                    }
                    break;
                }
                match self.expand(game, node) {
                    // Below the root, a state with too many moves to list is valued by playouts
                    // alone; at the root there is nothing to choose from (as for every agent).
                    Err(SearchError::TooManyMoves { .. }) if node != 0 => {
                        self.nodes[node as usize].extra.unlisted = true;
                        self.splits_fresh = false;
                        break;
                    }
                    other => other?,
                }
                if self.nodes[node as usize].terminal {
                    over = true;
                    break;
                }
            }
            let child = self.select(node);
            let c = &self.nodes[child as usize];
            let (fresh, complete, range) = (c.visits == 0, c.extra.complete, c.extra.range);
            let (start, len, player) = (c.actions_start as usize, c.actions_len as usize, c.mover);
            let step = &self.actions[start..start + len];
            self.partial.extend_from_slice(step);
            if self.records_trail() {
                self.trail.extend(step.iter().map(|&a| (player, action_hash(a))));
            }
            let level = if complete { 0 } else { self.levels.last().map_or(0, |l| l + 1) };
            self.levels.push(level);
            self.path.push(child);
            self.marks.push(self.trail.len() as u32);
            node = child;
            if complete {
                visited += 1;
                plies += 1;
                if !self.apply_partial(game)? {
                    let c = &mut self.nodes[child as usize];
                    c.expanded = true;
                    c.terminal = true;
                    over = true;
                    break;
                }
                if fresh {
                    break;
                }
            } else if fresh && self.config.expansion == Expansion::Single {
                // The child's range indexes the moves of the current nodal state, which were
                // generated if its parent was just expanded and are generated now otherwise.
                if self.config.steps == StepSource::Listed {
                    self.ensure_splits(game)?;
                }
                visited += 1;
                over = !self.apply_random_completion(game, range)?;
                break;
            }
        }
        if !over {
            visited += self.playout(game)?;
        }
        rewards_into(game, &self.state, &mut self.rewards);
        for &i in &self.path {
            let n = &mut self.nodes[i as usize];
            n.visits = n.visits.saturating_add(1);
            if n.mover != 0 {
                n.reward += self.rewards[n.mover as usize - 1];
            }
        }
        self.stats.update(&self.trail, &self.rewards);
        if self.rave.enabled() {
            let marks = &self.marks;
            self.rave.update(&mut self.nodes, &self.path, |d| marks[d] as usize, &self.trail, &self.rewards);
        }
        if self.config.rollup > 0.0 {
            // Bottom up: a node's roll-up moves its children, never the node itself.
            for d in (1..self.path.len()).rev() {
                self.roll_up(self.path[d - 1], self.path[d]);
            }
        }
        Ok((visited, plies))
    }

    /// Makes `new_root` (a complete node on a path from the root) the root, keeping only its
    /// subtree.
    fn reroot(&mut self, new_root: u32) {
        uct::reroot(&mut self.nodes, &mut self.actions, new_root);
    }
}

impl<G: Game> Agent<G> for SplitMcts<G> {
    fn name(&self) -> String {
        let mut name = format!("split-mcts:c={}", self.config.c);
        if !self.config.compress {
            name.push_str(",compress=false");
        }
        if self.config.expansion == Expansion::Single {
            name.push_str(",expansion=single");
        }
        if self.config.playout == SplitPlayout::Split {
            name.push_str(",playout=split");
        }
        if self.config.steps == StepSource::Listed {
            name.push_str(",steps=listed");
        }
        if self.config.mast {
            name.push_str(",mast=true");
        }
        let c = &self.config;
        let options = [
            (c.nst > 0, format!("nst={}", c.nst)),
            (c.rave > 0.0, format!("rave={}", c.rave)),
            (c.grave_ref > 0, format!("grave={}", c.grave_ref)),
            (c.rollup > 0.0, format!("rollup={}", c.rollup)),
        ];
        for (_, option) in options.iter().filter(|(on, _)| *on) {
            name.push(',');
            name.push_str(option);
        }
        name
    }

    fn reset(&mut self, seed: u64) {
        self.rng = PlayoutRng::seed_from_u64(seed);
        self.clear_tree();
        self.stats.clear();
    }

    fn budget(&self) -> Budget {
        self.config.budget
    }

    fn select_move(&mut self, game: &G, state: &G::State, budget: &Budget) -> Result<Decision, AgentError> {
        mover(game, state)?;
        let meter = Meter::start(budget.with_default_iterations(DEFAULT_SPLIT_MCTS_ITERATIONS));
        self.stats.decay(self.config.mast_decay);
        if self.root_state.as_ref() != Some(state) || !self.config.reuse_tree {
            self.clear_tree();
            self.nodes.push(step_node(0, 0, 0, PartialMove::default(), false, 0));
            self.root_state = Some(state.clone());
        }
        let mut stats = SearchStats::default();
        loop {
            if meter.search_over(stats.iterations, stats.depth) {
                break;
            }
            let (visited, depth) = self.iterate(game).inspect_err(|_| self.clear_tree())?;
            stats.count_iteration(visited, depth);
            // A root without moves (game over) or with a single move needs no further search.
            let root = &self.nodes[0];
            if root.terminal
                || (root.expanded
                    && root.num_children == 1
                    && self.nodes[root.first_child as usize].extra.complete)
            {
                break;
            }
        }
        // Descend by robust child to a complete node, expanding nodes the search never reached
        // (a zero budget, or a partial node visited once under single expansion).
        self.state.clone_from(state);
        self.splits_fresh = false;
        self.partial.clear();
        let mut node = 0u32;
        loop {
            if !self.nodes[node as usize].expanded {
                self.expand(game, node).inspect_err(|_| self.clear_tree())?;
            }
            if self.nodes[node as usize].num_children == 0 {
                // Only the root can be without steps (see `expand`).
                self.clear_tree();
                return Err(AgentError::NoLegalMove);
            }
            node = uct::robust_child(&self.nodes, node);
            let n = &self.nodes[node as usize];
            let step = n.actions_start as usize..(n.actions_start + n.actions_len) as usize;
            self.partial.extend_from_slice(&self.actions[step]);
            if self.nodes[node as usize].extra.complete {
                break;
            }
        }
        let mv = core::mem::take(&mut self.partial);
        let chosen = &self.nodes[node as usize];
        stats.value = (chosen.visits > 0).then(|| chosen.mean());
        stats.elapsed = meter.elapsed();
        Ok(Decision { mv, stats })
    }

    fn observe(&mut self, game: &G, before: &G::State, mv: &[Action]) -> Result<(), AgentError> {
        if !self.config.reuse_tree || self.root_state.as_ref() != Some(before) || self.nodes.is_empty() {
            self.clear_tree();
            return Ok(());
        }
        // Follow the move's actions down the steps; the node reached must be complete.
        let mut node = 0u32;
        let mut rest = mv;
        while !rest.is_empty() {
            let n = &self.nodes[node as usize];
            let found = (n.first_child..n.first_child + n.num_children)
                .find(|&c| self.nodes[c as usize].actions_len > 0 && rest.starts_with(self.step(c)));
            let Some(child) = found else { break };
            rest = &rest[self.step(child).len()..];
            node = child;
            if self.nodes[node as usize].extra.complete {
                break;
            }
        }
        if node == 0 || !rest.is_empty() || !self.nodes[node as usize].extra.complete {
            self.clear_tree();
            return Ok(());
        }
        let mut after = before.clone();
        game.apply_move(&mut after, mv);
        match game.complete_keeper(&mut after, &mut self.scratch, DEFAULT_KEEPER_LIMIT) {
            Ok(true) => {
                self.reroot(node);
                self.root_state = Some(after);
            }
            Ok(false) => self.clear_tree(),
            Err(e) => {
                self.clear_tree();
                return Err(e.into());
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rbg_interp::{InterpOptions, Interpreter};

    fn tic_tac_toe() -> Interpreter {
        let text = include_bytes!("../../games/ticTacToe.rbg");
        let game = rbg_parser::parse("ticTacToe", text).game.expect("tic-tac-toe parses");
        Interpreter::new(&game, "ticTacToe", InterpOptions::default()).expect("tic-tac-toe builds")
    }

    /// An agent whose tree is the root of the empty grid, after `iterations` iterations.
    fn searched(game: &Interpreter, config: SplitMctsConfig, iterations: u32) -> SplitMcts<Interpreter> {
        let mut root = game.initial_state();
        assert!(game.complete_keeper(&mut root, &mut game.new_scratch(), 1000).unwrap());
        let mut agent = SplitMcts::new(game, config, 9);
        agent.nodes.push(step_node(0, 0, 0, PartialMove::default(), false, 0));
        agent.root_state = Some(root);
        for _ in 0..iterations {
            agent.iterate(game).unwrap();
        }
        agent
    }

    fn children(agent: &SplitMcts<Interpreter>, node: u32) -> core::ops::Range<u32> {
        let n = &agent.nodes[node as usize];
        n.first_child..n.first_child + n.num_children
    }

    /// One iteration from the empty grid: cross's moves that were made in it, in the tree or
    /// the playout, are exactly the cells holding an X at its end (nothing is ever erased), so
    /// the root children credited with AMAF statistics must be those cells' moves, each with
    /// cross's final reward (score / 100), and no other. With single-action steps the visited
    /// child's only child (the switch that followed its mark) is credited as well.
    #[test]
    fn amaf_credits_the_moves_made_later_in_the_iteration() {
        let game = tic_tac_toe();
        let x = game.info().pieces.iter().position(|p| p == "X").unwrap() as u32;
        for (compress, playout) in [(true, SplitPlayout::Full), (false, SplitPlayout::Split)] {
            let config = SplitMctsConfig { rave: 10.0, compress, playout, ..SplitMctsConfig::default() };
            let agent = searched(&game, config, 1);
            let cross = game.score(&agent.state, 1) as f64 / 100.0;
            let root_children = children(&agent, 0);
            assert_eq!(root_children.len(), 9);
            for c in root_children {
                let vertex = agent.step(c)[0].vertex;
                let amaf = &agent.nodes[c as usize].extra.amaf;
                let expected = if game.piece(&agent.state, vertex) == x { (cross, 1) } else { (0.0, 0) };
                assert_eq!((amaf.sum, amaf.count), expected, "compress {compress}, cell {vertex}");
            }
            if !compress {
                let mark = agent.path[1];
                let [switch] = children(&agent, mark).collect::<Vec<_>>()[..] else { panic!("one switch") };
                assert_eq!(agent.nodes[switch as usize].extra.amaf.count, 1);
            }
        }
    }

    /// Roll-up without compression: each root child is a mark (partial) whose only child is
    /// the switch; once that child is visited (at once, by nodal expansion) the mark is rolled
    /// up, so after a search the root's children are the 9 whole moves, each a mark and a
    /// switch, whose visits add up to the iterations (every iteration went through one), and
    /// whose AMAF key is its mark's. With a threshold never reached the marks stay.
    #[test]
    fn roll_up_merges_explored_partial_children_into_their_parent() {
        let game = tic_tac_toe();
        let config =
            SplitMctsConfig { compress: false, rollup: 1.0, rave: 10.0, ..SplitMctsConfig::default() };
        let agent = searched(&game, config.clone(), 200);
        let root_children: Vec<_> = children(&agent, 0).collect();
        assert_eq!(root_children.len(), 9);
        let mut cells = Vec::new();
        for &c in &root_children {
            let (step, node) = (agent.step(c), &agent.nodes[c as usize]);
            assert!(
                node.extra.complete && step.len() == 2 && game.info().is_switch(step[1].index),
                "{step:?}"
            );
            // The merged move stands for its mark (the switch after it was no choice).
            assert_eq!(node.extra.amaf.key, action_hash(step[0]));
            cells.push(step[0].vertex);
        }
        cells.sort_unstable();
        assert_eq!(cells, (0..9).collect::<Vec<_>>());
        let visits: u32 = root_children.iter().map(|&c| agent.nodes[c as usize].visits).sum();
        assert_eq!((visits, agent.nodes[0].visits), (200, 200));
        let kept = searched(&game, SplitMctsConfig { rollup: 1000.0, ..config }, 200);
        assert!(children(&kept, 0).all(|c| !kept.nodes[c as usize].extra.complete && kept.step(c).len() == 1));
    }

    /// The `first_child` of a node without children (here a terminal one) means nothing: the
    /// roll-up check must not index by it (a connect4 match once panicked on a stale one that
    /// a reroot had left).
    #[test]
    fn roll_up_ignores_the_first_child_of_a_node_without_children() {
        let game = tic_tac_toe();
        let config = SplitMctsConfig { compress: false, rollup: 1.0, ..SplitMctsConfig::default() };
        let mut agent = searched(&game, config, 1);
        let leaf = agent.nodes.len() - 1;
        let n = &mut agent.nodes[leaf];
        (n.expanded, n.terminal, n.first_child, n.num_children, n.visits) = (true, true, 1 << 30, 0, 5);
        assert!(!agent.ripe_for_rollup(leaf as u32));
    }
}
