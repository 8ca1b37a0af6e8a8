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
//! MAST (move-average sampling): every move made in an iteration, in the tree or in the
//! playout, adds the final reward of its mover to a table keyed by (mover, hash of the move's
//! actions); playouts then play the move with the best average (unseen moves count 0.5) except
//! with probability `mast_epsilon`, when they play a uniformly random move. The table is kept
//! for the whole game.

use rand::Rng;
use rand_core::SeedableRng;
use rbg_core::moves::DEFAULT_MAX_ACTIONS;
use rbg_core::perft::DEFAULT_KEEPER_LIMIT;
use rbg_core::playout::PlayoutBuffers;
use rbg_core::{Action, Game, MoveList, Player, PlayoutRng, SearchError};

use crate::agent::{
    move_hash, mover, rewards_into, sort_root, splitmix, Agent, AgentError, Decision, RootMove, SearchStats,
};
use crate::budget::{Budget, Meter};
use crate::flat_mc::random_playout;
use crate::uct;

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
    /// MAST's probability of a uniformly random playout move.
    pub mast_epsilon: f64,
    /// Keep the subtree of the move played (see [`Agent::observe`]).
    pub reuse_tree: bool,
    /// Playouts longer than this many player moves stop and are scored where they stand.
    pub max_playout_plies: u64,
    /// When the tree grows beyond this many nodes, the search stops expanding it (iterations
    /// then only run playouts below existing leaves).
    pub max_nodes: usize,
}

impl Default for MctsConfig {
    fn default() -> Self {
        MctsConfig {
            c: std::f64::consts::SQRT_2,
            budget: Budget::default(),
            mast: false,
            mast_epsilon: 0.1,
            reuse_tree: true,
            max_playout_plies: 10_000,
            max_nodes: 4_000_000,
        }
    }
}

/// Iterations per move when the budget sets no limit.
pub const DEFAULT_MCTS_ITERATIONS: u64 = 1000;

const MAST_BITS: u32 = 16;

/// A node of the tree; its actions are the move leading to it.
type Node = uct::Node<()>;

/// UCT MCTS (see the module documentation).
pub struct Mcts<G: Game> {
    config: MctsConfig,
    scratch: G::Scratch,
    rng: PlayoutRng,
    nodes: Vec<Node>,
    actions: Vec<Action>,
    /// The state the tree's root (node 0) stands for, if there is a tree.
    root_state: Option<G::State>,
    state: Option<G::State>,
    moves: MoveList,
    playout: PlayoutBuffers,
    path: Vec<u32>,
    rewards: Vec<f64>,
    /// MAST: (sum of rewards, count) per hashed (mover, move).
    mast: Vec<(f64, u32)>,
    /// MAST keys of the moves made in the current iteration.
    trail: Vec<(Player, usize)>,
}

impl<G: Game> Mcts<G> {
    pub fn new(game: &G, config: MctsConfig, seed: u64) -> Self {
        let mast = if config.mast { vec![(0.0, 0); 1 << MAST_BITS] } else { Vec::new() };
        Mcts {
            config,
            scratch: game.new_scratch(),
            rng: PlayoutRng::seed_from_u64(seed),
            nodes: Vec::new(),
            actions: Vec::new(),
            root_state: None,
            state: None,
            moves: MoveList::new(),
            playout: PlayoutBuffers::new(game, DEFAULT_MAX_ACTIONS),
            path: Vec::new(),
            rewards: vec![0.0; game.info().num_players()],
            mast,
            trail: Vec::new(),
        }
    }

    /// Number of nodes in the current tree (root included; 0 before the first search).
    pub fn tree_size(&self) -> usize {
        self.nodes.len()
    }

    fn clear_tree(&mut self) {
        self.nodes.clear();
        self.actions.clear();
        self.root_state = None;
    }

    fn mast_slot(player: Player, mv: &[Action]) -> usize {
        ((move_hash(mv) ^ splitmix(player as u64)) & ((1 << MAST_BITS) - 1)) as usize
    }

    fn node_move(&self, node: u32) -> &[Action] {
        let n = &self.nodes[node as usize];
        &self.actions[n.actions_start as usize..(n.actions_start + n.actions_len) as usize]
    }

    fn expand(&mut self, game: &G, node: u32, player: Player) -> Result<(), SearchError> {
        let state = self.state.as_mut().expect("search state");
        game.legal_moves(state, &mut self.scratch, &mut self.moves)?;
        let first = self.nodes.len() as u32;
        for mv in self.moves.iter() {
            let start = self.actions.len() as u32;
            self.actions.extend_from_slice(mv);
            self.nodes.push(Node::new(player, start, mv.len() as u32, ()));
        }
        let n = &mut self.nodes[node as usize];
        n.expanded = true;
        n.first_child = first;
        n.num_children = self.moves.len() as u32;
        n.terminal = self.moves.is_empty();
        Ok(())
    }

    /// Plays a MAST playout from the search state; returns the number of moves made.
    fn mast_playout(&mut self, game: &G) -> Result<u64, SearchError> {
        let state = self.state.as_mut().expect("search state");
        let mut plies = 0;
        while plies < self.config.max_playout_plies {
            game.legal_moves(state, &mut self.scratch, &mut self.moves)?;
            if self.moves.is_empty() {
                break;
            }
            let player = game.current_player(state);
            let n = self.moves.len();
            let pick = if self.rng.gen_bool(self.config.mast_epsilon.clamp(0.0, 1.0)) {
                self.rng.gen_range(0..n as u32) as usize
            } else {
                let mut best = 0;
                let mut best_mean = f64::NEG_INFINITY;
                for (i, mv) in self.moves.iter().enumerate() {
                    let (sum, count) = self.mast[Self::mast_slot(player, mv)];
                    let mean = if count == 0 { 0.5 } else { sum / count as f64 };
                    if mean > best_mean {
                        best_mean = mean;
                        best = i;
                    }
                }
                best
            };
            let mv = self.moves.get(pick);
            self.trail.push((player, Self::mast_slot(player, mv)));
            game.apply_move(state, mv);
            plies += 1;
            if !game.complete_keeper(state, &mut self.scratch, DEFAULT_KEEPER_LIMIT)? {
                break;
            }
        }
        Ok(plies)
    }

    /// One selection-expansion-playout-backpropagation pass; returns (states visited, depth).
    fn iterate(&mut self, game: &G) -> Result<(u64, u32), SearchError> {
        let root_state = self.root_state.as_ref().expect("tree root");
        match &mut self.state {
            Some(s) => s.clone_from(root_state),
            None => self.state = Some(root_state.clone()),
        }
        self.path.clear();
        self.path.push(0);
        self.trail.clear();
        let mut node = 0u32;
        let mut visited = 0u64;
        let mut terminal = false;
        loop {
            let n = &self.nodes[node as usize];
            if n.terminal {
                terminal = true;
                break;
            }
            if !n.expanded {
                if self.nodes.len() >= self.config.max_nodes {
                    break;
                }
                let player = game.current_player(self.state.as_ref().expect("search state"));
                self.expand(game, node, player)?;
                if self.nodes[node as usize].terminal {
                    terminal = true;
                    break;
                }
            }
            let child = uct::select_child(&self.nodes, node, self.config.c, &mut self.rng);
            let fresh = self.nodes[child as usize].visits == 0;
            let c = &self.nodes[child as usize];
            let (start, len, player) = (c.actions_start as usize, c.actions_len as usize, c.mover);
            let state = self.state.as_mut().expect("search state");
            let mv = &self.actions[start..start + len];
            if self.config.mast {
                self.trail.push((player, Self::mast_slot(player, mv)));
            }
            game.apply_move(state, mv);
            visited += 1;
            self.path.push(child);
            node = child;
            if !game.complete_keeper(state, &mut self.scratch, DEFAULT_KEEPER_LIMIT)? {
                let c = &mut self.nodes[child as usize];
                c.expanded = true;
                c.terminal = true;
                terminal = true;
                break;
            }
            if fresh {
                break;
            }
        }
        if !terminal {
            visited += if self.config.mast {
                self.mast_playout(game)?
            } else {
                let state = self.state.as_mut().expect("search state");
                random_playout(
                    game,
                    state,
                    &mut self.scratch,
                    &mut self.playout,
                    &mut self.rng,
                    self.config.max_playout_plies,
                )?
            };
        }
        rewards_into(game, self.state.as_ref().expect("search state"), &mut self.rewards);
        for &i in &self.path {
            let n = &mut self.nodes[i as usize];
            n.visits = n.visits.saturating_add(1);
            if n.mover != 0 {
                n.reward += self.rewards[n.mover as usize - 1];
            }
        }
        for &(player, slot) in &self.trail {
            let entry = &mut self.mast[slot];
            entry.0 += self.rewards[player as usize - 1];
            entry.1 += 1;
        }
        Ok((visited, self.path.len() as u32 - 1))
    }

    /// Makes `new_root` (a child of the root) the root, keeping only its subtree.
    fn reroot(&mut self, new_root: u32) {
        uct::reroot(&mut self.nodes, &mut self.actions, new_root);
    }
}

impl<G: Game> Agent<G> for Mcts<G> {
    fn name(&self) -> String {
        format!("mcts:c={}{}", self.config.c, if self.config.mast { ",mast=true" } else { "" })
    }

    fn reset(&mut self, seed: u64) {
        self.rng = PlayoutRng::seed_from_u64(seed);
        self.clear_tree();
        self.mast.iter_mut().for_each(|e| *e = (0.0, 0));
    }

    fn budget(&self) -> Budget {
        self.config.budget
    }

    fn select_move(&mut self, game: &G, state: &G::State, budget: &Budget) -> Result<Decision, AgentError> {
        mover(game, state)?;
        let meter = Meter::start(budget.with_default_iterations(DEFAULT_MCTS_ITERATIONS));
        if self.root_state.as_ref() != Some(state) || !self.config.reuse_tree {
            self.clear_tree();
            self.nodes.push(Node::new(0, 0, 0, ()));
            self.root_state = Some(state.clone());
        }
        let mut stats = SearchStats::default();
        loop {
            let depth_reached = meter.depth_limit().is_some_and(|d| stats.depth >= d);
            if depth_reached || meter.exhausted(stats.iterations) {
                break;
            }
            let (visited, depth) = self.iterate(game).inspect_err(|_| self.clear_tree())?;
            stats.nodes += visited;
            stats.depth = stats.depth.max(depth);
            stats.iterations += 1;
            // A root without moves (game over) or with one move needs no further search.
            let root = &self.nodes[0];
            if root.terminal || (root.expanded && root.num_children == 1) {
                break;
            }
        }
        let root = &self.nodes[0];
        if root.terminal {
            return Err(AgentError::NoLegalMove);
        }
        if !root.expanded {
            // Not even one iteration ran (a zero budget): expand to have moves to choose from.
            let player = game.current_player(state);
            self.state = Some(state.clone());
            self.expand(game, 0, player)?;
            if self.nodes[0].terminal {
                return Err(AgentError::NoLegalMove);
            }
        }
        let best = uct::robust_child(&self.nodes, 0);
        let chosen = &self.nodes[best as usize];
        stats.value = (chosen.visits > 0).then(|| chosen.mean());
        stats.elapsed = meter.elapsed();
        let root = &self.nodes[0];
        stats.root = (root.first_child..root.first_child + root.num_children)
            .map(|c| {
                let node = &self.nodes[c as usize];
                RootMove {
                    mv: self.node_move(c).to_vec(),
                    visits: node.visits.into(),
                    value: (node.visits > 0).then(|| node.mean()),
                }
            })
            .collect();
        sort_root(&mut stats.root);
        Ok(Decision { mv: self.node_move(best).to_vec(), stats })
    }

    fn observe(&mut self, game: &G, before: &G::State, mv: &[Action]) -> Result<(), AgentError> {
        if !self.config.reuse_tree || self.root_state.as_ref() != Some(before) || !self.nodes[0].expanded {
            self.clear_tree();
            return Ok(());
        }
        let root = &self.nodes[0];
        let child =
            (root.first_child..root.first_child + root.num_children).find(|&c| self.node_move(c) == mv);
        let mut after = before.clone();
        game.apply_move(&mut after, mv);
        let live = game.complete_keeper(&mut after, &mut self.scratch, DEFAULT_KEEPER_LIMIT);
        match (child, live) {
            (Some(c), Ok(true)) => {
                self.reroot(c);
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
