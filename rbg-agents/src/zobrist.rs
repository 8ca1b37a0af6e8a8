//! Zobrist hashing of game states through the `Game` trait's accessors.

use rand::Rng;
use rand_core::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use rbg_core::{Game, GameInfo, Player};

use crate::agent::splitmix;

/// Random keys for hashing states: one per (vertex, piece), one per variable, player, rules
/// state and current vertex. The keys come from a fixed seed, so a state hashes the same in
/// every run and on every reasoner of the same game.
///
/// A state's hash is the XOR of the keys of its contents; variable values, the rules state and
/// the current vertex are folded in as `splitmix(key ^ value)` (their ranges can be large, so
/// they get no table of their own). Computing it reads every vertex: O(vertices) per state.
#[derive(Clone, Debug)]
pub struct Zobrist {
    pieces: usize,
    piece_keys: Vec<u64>,
    variable_keys: Vec<u64>,
    player_keys: Vec<u64>,
    rules_key: u64,
    vertex_key: u64,
}

const ZOBRIST_SEED: u64 = 0x5eed_0f2b_9a11;

impl Zobrist {
    pub fn new(info: &GameInfo) -> Self {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(ZOBRIST_SEED);
        let mut keys = |n: usize| (0..n).map(|_| rng.gen::<u64>()).collect::<Vec<u64>>();
        let pieces = info.pieces.len();
        let piece_keys = keys(info.vertices.len() * pieces);
        let variable_keys = keys(info.variables.len());
        let player_keys = keys(info.players.len() + 1);
        let more = keys(2);
        Zobrist { pieces, piece_keys, variable_keys, player_keys, rules_key: more[0], vertex_key: more[1] }
    }

    /// The key of a player (0 = keeper), to combine with a hash (e.g. the searching player).
    pub fn player_key(&self, player: Player) -> u64 {
        self.player_keys.get(player as usize).copied().unwrap_or_else(|| splitmix(player as u64))
    }

    pub fn hash<G: Game>(&self, game: &G, s: &G::State) -> u64 {
        let vertices = self.piece_keys.len().checked_div(self.pieces).unwrap_or(0);
        let mut h = 0u64;
        for v in 0..vertices {
            let piece = game.piece(s, v as u32) as usize;
            if let Some(k) = self.piece_keys.get(v * self.pieces + piece) {
                h ^= k;
            }
        }
        for (i, k) in self.variable_keys.iter().enumerate() {
            h ^= splitmix(k ^ game.variable(s, i) as u64);
        }
        h ^= self.player_key(game.current_player(s));
        h ^= splitmix(self.rules_key ^ game.rules_state(s) as u64);
        h ^ splitmix(self.vertex_key ^ game.current_vertex(s) as u64)
    }
}
