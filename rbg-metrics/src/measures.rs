//! The measures of a set of played games (see `docs/analysis.md` for each definition and its
//! source). Everything here is computed from [`GameTrace`]s alone, in the order given, so the
//! numbers depend only on the games, not on how or where they were played.

use rbg_agents::Outcome;
use rbg_core::GameInfo;
use serde::Serialize;

use crate::stats::{Distribution, Rate};
use crate::trace::{End, GameTrace, Ply};

/// Wins, draws and losses of one seat or one agent, over finished games, with their rates.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Results {
    /// The seat's player, or the agent's specification.
    pub name: String,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    pub win: Option<Rate>,
    pub draw: Option<Rate>,
    pub loss: Option<Rate>,
    /// Points (a win 1, a draw ½) per game: the score fraction.
    pub score: Option<Rate>,
}

impl Results {
    fn named(name: &str) -> Results {
        Results { name: name.to_string(), ..Results::default() }
    }

    fn add(&mut self, outcome: Outcome) {
        match outcome {
            Outcome::Win => self.wins += 1,
            Outcome::Draw => self.draws += 1,
            Outcome::Loss => self.losses += 1,
        }
    }

    fn with_rates(mut self) -> Results {
        let n = self.wins + self.draws + self.losses;
        self.win = Rate::count(self.wins, n);
        self.draw = Rate::count(self.draws, n);
        self.loss = Rate::count(self.losses, n);
        self.score = Rate::of(self.wins as f64 + self.draws as f64 / 2.0, n);
        self
    }
}

/// Legal moves per position where a player moved.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Branching {
    /// Positions counted and the sum of their legal moves.
    pub positions: u64,
    pub sum: u64,
    /// `sum / positions` (0 without positions).
    pub mean: f64,
    /// `by_ply[i]`: the mean over the games that reached ply `i` (from 0).
    pub by_ply: Vec<f64>,
    /// `reached[i]`: how many games reached ply `i`.
    pub reached: Vec<u64>,
}

impl Branching {
    pub fn of<'t>(traces: impl IntoIterator<Item = &'t GameTrace>) -> Branching {
        let mut b = Branching::default();
        let mut sums: Vec<u64> = Vec::new();
        for trace in traces {
            if sums.len() < trace.plies.len() {
                sums.resize(trace.plies.len(), 0);
                b.reached.resize(trace.plies.len(), 0);
            }
            for (i, ply) in trace.plies.iter().enumerate() {
                b.positions += 1;
                b.sum += u64::from(ply.branching);
                sums[i] += u64::from(ply.branching);
                b.reached[i] += 1;
            }
        }
        b.mean = if b.positions == 0 { 0.0 } else { b.sum as f64 / b.positions as f64 };
        b.by_ply = sums.iter().zip(&b.reached).map(|(&s, &n)| s as f64 / n as f64).collect();
        b
    }
}

/// The mean length in player moves of `traces` (0 without games).
pub fn mean_length<'t>(traces: impl IntoIterator<Item = &'t GameTrace>) -> f64 {
    let (mut games, mut plies) = (0u64, 0u64);
    for t in traces {
        games += 1;
        plies += t.length();
    }
    if games == 0 {
        0.0
    } else {
        plies as f64 / games as f64
    }
}

/// Moves made with each piece (indexed by piece id, `pieces` of them) among `plies`.
pub fn piece_moves<'p>(plies: impl IntoIterator<Item = &'p Ply>, pieces: usize) -> Vec<u64> {
    let mut counts = vec![0u64; pieces];
    for ply in plies {
        if let Some(c) = ply.piece.and_then(|p| counts.get_mut(p as usize)) {
            *c += 1;
        }
    }
    counts
}

/// A piece's share of the moves.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PieceUse {
    pub piece: String,
    pub moves: u64,
    /// `moves` over all moves that used a piece.
    pub share: f64,
}

/// The measures of a set of games.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Measures {
    pub games: u64,
    pub finished: u64,
    pub move_limit: u64,
    pub errors: u64,
    /// Finished games over all games.
    pub completion: Option<Rate>,
    /// Why games did not finish, when some did not (plain sentences).
    pub notes: Vec<String>,
    /// Results per seat (seat `j` plays player `j + 1`), over finished games.
    pub seats: Vec<Results>,
    /// Results per agent, over finished games.
    pub agents: Vec<Results>,
    /// Finished games without a sole winner.
    pub draws: Option<Rate>,
    /// The first seat's score fraction (a win 1, a draw ½).
    pub first_mover: Option<Rate>,
    /// 1 minus the spread (largest minus smallest) of the seats' win rates.
    pub balance: Option<f64>,
    /// Lengths in player moves of all games, and of the finished ones.
    pub duration: Distribution,
    pub finished_duration: Distribution,
    pub branching: Branching,
    /// Per piece (pieces used by no move left out), in piece order.
    pub pieces: Vec<PieceUse>,
    /// The mean share of the board's vertices whose piece changed during a game.
    pub coverage: Option<f64>,
}

impl Measures {
    /// The measures of `traces`, played by `agents` (names, indexed by the traces' seating) on
    /// the game of `info`. `watched_cells`: whether the traces counted touched cells.
    pub fn of(info: &GameInfo, agents: &[String], traces: &[GameTrace], watched_cells: bool) -> Measures {
        let mut m = Measures { games: traces.len() as u64, ..Measures::default() };
        let mut seats: Vec<Results> = info.players.iter().map(|p| Results::named(p)).collect();
        let mut by_agent: Vec<Results> = agents.iter().map(|a| Results::named(a)).collect();
        let mut draws = 0u64;
        for trace in traces {
            match &trace.end {
                End::Finished => m.finished += 1,
                End::MoveLimit => m.move_limit += 1,
                End::Error(_) => m.errors += 1,
            }
            let Some(outcomes) = trace.outcomes() else { continue };
            draws += u64::from(!outcomes.contains(&Outcome::Win));
            for (seat, &outcome) in outcomes.iter().enumerate() {
                if let Some(r) = seats.get_mut(seat) {
                    r.add(outcome);
                }
                if let Some(r) = trace.seating.get(seat).and_then(|&a| by_agent.get_mut(a)) {
                    r.add(outcome);
                }
            }
        }
        m.completion = Rate::count(m.finished, m.games);
        m.notes = notes(&m, traces);
        m.seats = seats.into_iter().map(Results::with_rates).collect();
        m.agents = by_agent.into_iter().map(Results::with_rates).collect();
        m.draws = Rate::count(draws, m.finished);
        m.first_mover = m.seats.first().and_then(|s| s.score);
        let win_rates: Vec<f64> = m.seats.iter().filter_map(|s| s.win.map(|r| r.rate)).collect();
        if win_rates.len() > 1 {
            let spread = win_rates.iter().cloned().fold(f64::MIN, f64::max)
                - win_rates.iter().cloned().fold(f64::MAX, f64::min);
            m.balance = Some(1.0 - spread);
        }
        let lengths: Vec<u64> = traces.iter().map(GameTrace::length).collect();
        m.duration = Distribution::of(&lengths);
        let finished: Vec<u64> =
            traces.iter().filter(|t| t.end == End::Finished).map(GameTrace::length).collect();
        m.finished_duration = Distribution::of(&finished);
        m.branching = Branching::of(traces);
        let counts = piece_moves(traces.iter().flat_map(|t| &t.plies), info.pieces.len());
        let used: u64 = counts.iter().sum();
        m.pieces = info
            .pieces
            .iter()
            .zip(&counts)
            .filter(|(_, &n)| n > 0)
            .map(|(p, &n)| PieceUse { piece: p.clone(), moves: n, share: n as f64 / used as f64 })
            .collect();
        let vertices = info.vertices.len();
        if watched_cells && vertices > 0 && !traces.is_empty() {
            let sum: f64 = traces.iter().map(|t| f64::from(t.cells_touched) / vertices as f64).sum();
            m.coverage = Some(sum / traces.len() as f64);
        }
        m
    }
}

/// Sentences on games that did not finish.
fn notes(m: &Measures, traces: &[GameTrace]) -> Vec<String> {
    let mut notes = Vec::new();
    if m.move_limit > 0 {
        let longest = traces.iter().filter(|t| t.end == End::MoveLimit).map(GameTrace::length).max();
        let limit = longest.unwrap_or(0);
        notes.push(if m.move_limit == m.games {
            format!(
                "no game ended within the move limit of {limit} moves, so completion is 0: the rules \
                 may never end the game (no final position is reachable), or the agents avoid ending it"
            )
        } else {
            format!(
                "{} of {} games did not end within the move limit of {limit} moves",
                m.move_limit, m.games
            )
        });
    }
    if let Some(error) = traces.iter().find_map(|t| match &t.end {
        End::Error(e) => Some(e),
        _ => None,
    }) {
        notes.push(format!("{} games failed; the first: {error}", m.errors));
    }
    notes
}
