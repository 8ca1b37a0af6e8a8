//! Human play in the terminal: the `human` agent, reading moves, and the interactive game
//! loop (which adds `undo`, over `rbg::session::Session`). The board is drawn by
//! `rbg_render::TextBoard`, whose chess-style square names move input accepts.
//!
//! Before each of its moves the human player sees the board (a grid for boards with positions,
//! i.e. made by `rectangle`, `hexagon` or `cuboid`; a list of occupied vertices otherwise), the
//! scores and the numbered legal moves. A line of input is read as, in this order:
//!
//! 1. a command: `help`, `moves` (all legal moves), `board`, `undo`, `quit`;
//! 2. a move number from the list;
//! 3. a move in pair notation (`4@rx0y0 5@rx0y0`), when the line holds an `@`;
//! 4. vertices: names separated by spaces, `-` or `,`, or written together (`a2a3`). On a
//!    rectangle board, squares may also be named as in chess: a file letter from `a` on the left
//!    and a rank from `1` at the bottom (`a1` is the bottom-left square), unless the game names
//!    a vertex so. The vertices must be the squares the move goes through (its modifiers'
//!    vertices, repeats removed: `a2 a3` for a piece moved from a2 to a3; one square for a move
//!    made on a single square); if no move matches them exactly, moves that start at the first,
//!    end at the last and pass the others in order are taken. One match is played; several are
//!    listed so that the player can pick one by number.
//!
//! Anything else gets an explanation and a new prompt. The end of the input (or `quit`) ends
//! the game without a result.

use std::io::{self, BufRead, Write};

use rbg::session::{Session, SessionError, SessionOptions};
use rbg_agents::{
    seat_seed, Agent, AgentError, Budget, Decision, GameResult, PlayLimits, PlayedMove, SearchStats,
    Termination,
};
use rbg_core::notation::{self, VertexStyle};
use rbg_core::{Action, Game, GameInfo, MoveList, Player, KEEPER};
use rbg_render::TextBoard;

const KEEPER_LIMIT: u64 = rbg_core::perft::DEFAULT_KEEPER_LIMIT;

/// Moves listed before each human move; `moves` lists them all.
const SHOWN_MOVES: usize = 40;

const HELP: &str = "\
Enter one of:
  N            the move numbered N in the list
  a2 a3, a2a3  the squares (vertices) the move goes through, in order; one square for a move
               made on a single square. Vertex names work everywhere; on rectangle boards
               also chess-style names (file letter from a on the left, rank from 1 at the bottom)
  4@rx0y0 ...  a move in index@vertex notation (as `rbg moves` prints it)
  moves        list all legal moves
  board        draw the board again
  undo         take back your last move and the replies to it
  quit         stop the game (so does the end of the input)
  help         this text";

/// What the human player answered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// A legal move.
    Move(Vec<Action>),
    /// Take back the last human move (only when the caller allowed it).
    Undo,
    /// The player typed `quit`.
    Quit,
    /// The input ended.
    Eof,
}

/// A human player at a terminal: reads lines from `input`, writes to `out`.
pub struct Human<R, W> {
    input: R,
    out: W,
    /// Echo each line read (when the input is not a terminal, so that a transcript shows it).
    echo: bool,
    view: Option<(String, TextBoard)>,
}

impl<R: BufRead, W: Write> Human<R, W> {
    pub fn new(input: R, out: W, echo: bool) -> Self {
        Human { input, out, echo, view: None }
    }

    /// Where the game's messages go.
    pub fn out(&mut self) -> &mut W {
        &mut self.out
    }

    /// The drawing of `game`'s board (built once per game).
    fn view<G: Game>(&mut self, game: &G) -> &TextBoard {
        let name = &game.info().name;
        if self.view.as_ref().is_none_or(|(n, _)| n != name) {
            self.view = Some((name.clone(), TextBoard::new(game)));
        }
        &self.view.as_ref().expect("just set").1
    }

    /// Draws the state and asks for a move until a legal one (or a command that ends the
    /// question) is entered. `undo` is offered only when `can_undo`.
    pub fn ask<G: Game>(&mut self, game: &G, state: &G::State, can_undo: bool) -> io::Result<Reply> {
        let info = game.info();
        let mut sc = game.new_scratch();
        let mut legal = MoveList::new();
        if let Err(e) = game.legal_moves(&mut state.clone(), &mut sc, &mut legal) {
            return Err(io::Error::other(e.to_string()));
        }
        let player = game.current_player(state);
        let who = player_name(info, player);
        self.view(game);
        let (_, view) = self.view.as_ref().expect("built above");
        let shown = describe_moves(game, state, &legal);
        let lines = move_lines(info, view, &shown);
        draw(view, game, state, &mut self.out)?;
        writeln!(self.out, "{who} to move; {} legal moves:", legal.len())?;
        for line in lines.iter().take(SHOWN_MOVES) {
            writeln!(self.out, "{line}")?;
        }
        if lines.len() > SHOWN_MOVES {
            writeln!(
                self.out,
                "  ... and {} more (type `moves` to list them all)",
                lines.len() - SHOWN_MOVES
            )?;
        }
        loop {
            write!(self.out, "{who}> ")?;
            self.out.flush()?;
            // Bytes, not `read_line`: input that is not UTF-8 is junk to explain, not an error.
            let mut bytes = Vec::new();
            if self.input.read_until(b'\n', &mut bytes)? == 0 {
                writeln!(self.out)?;
                return Ok(Reply::Eof);
            }
            let line = String::from_utf8_lossy(&bytes);
            if self.echo {
                writeln!(self.out, "{}", printable(line.trim_end()))?;
            }
            let (_, view) = self.view.as_ref().expect("built above");
            match interpret(view, info, &legal, &shown, &line) {
                Input::Empty => {}
                Input::Move(i) => return Ok(Reply::Move(legal.get(i).to_vec())),
                Input::Help => writeln!(self.out, "{HELP}")?,
                Input::Moves => {
                    for line in &lines {
                        writeln!(self.out, "{line}")?;
                    }
                }
                Input::Board => draw(view, game, state, &mut self.out)?,
                Input::Undo if can_undo => return Ok(Reply::Undo),
                Input::Undo => writeln!(self.out, "nothing to undo: no move of yours has been played yet")?,
                Input::Quit => return Ok(Reply::Quit),
                Input::Problem(message) => writeln!(self.out, "{message}")?,
            }
        }
    }
}

/// The human agent, for drivers that know nothing of humans (such as `play_game`): asks for a
/// move as [`Human::ask`] does, without `undo`; `quit` and the end of the input give
/// [`AgentError::Aborted`].
impl<G: Game, R: BufRead, W: Write> Agent<G> for Human<R, W> {
    fn name(&self) -> String {
        "human".into()
    }

    fn reset(&mut self, _seed: u64) {}

    fn budget(&self) -> Budget {
        Budget::default()
    }

    fn select_move(&mut self, game: &G, state: &G::State, _budget: &Budget) -> Result<Decision, AgentError> {
        if game.current_player(state) == KEEPER {
            return Err(AgentError::KeeperToMove);
        }
        let start = std::time::Instant::now();
        match self.ask(game, state, false) {
            Ok(Reply::Move(mv)) => {
                Ok(Decision { mv, stats: SearchStats { elapsed: start.elapsed(), ..SearchStats::default() } })
            }
            Ok(Reply::Quit) => Err(AgentError::Aborted("the player quit".into())),
            Ok(Reply::Eof | Reply::Undo) => Err(AgentError::Aborted("the input ended".into())),
            Err(e) => Err(AgentError::Aborted(format!("cannot talk to the player: {e}"))),
        }
    }
}

/// `text` with control characters escaped (`\u{1b}`), safe to print to a terminal.
fn printable(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { c.escape_default().to_string() } else { c.to_string() })
        .collect()
}

fn player_name(info: &GameInfo, player: Player) -> String {
    match info.players.get((player as usize).wrapping_sub(1)) {
        Some(name) => name.clone(),
        None => format!("player {player}"),
    }
}

/// What a line of input means.
#[derive(Debug, PartialEq, Eq)]
enum Input {
    Empty,
    Move(usize),
    Help,
    Moves,
    Board,
    Undo,
    Quit,
    Problem(String),
}

/// Reads one line of input against the legal moves (see the module documentation).
fn interpret(view: &TextBoard, info: &GameInfo, legal: &MoveList, shown: &[Shown], line: &str) -> Input {
    let text = line.trim();
    match text.to_ascii_lowercase().as_str() {
        "" => return Input::Empty,
        "help" | "?" | "h" => return Input::Help,
        "moves" | "list" => return Input::Moves,
        "board" => return Input::Board,
        "undo" | "u" => return Input::Undo,
        "quit" | "exit" | "q" => return Input::Quit,
        _ => {}
    }
    if text.bytes().all(|b| b.is_ascii_digit()) {
        return match text.parse::<usize>() {
            Ok(n) if (1..=legal.len()).contains(&n) => Input::Move(n - 1),
            _ if legal.len() == 1 => Input::Problem(format!("there is no move {text}: the only move is 1")),
            _ => Input::Problem(format!("there is no move {text}: moves are numbered 1 to {}", legal.len())),
        };
    }
    if text.contains('@') {
        return match notation::parse_move(info, text) {
            Err(e) => Input::Problem(format!("cannot read that move: {}", printable(&e.to_string()))),
            Ok(mv) => match legal.iter().position(|m| m == mv.as_slice()) {
                Some(i) => Input::Move(i),
                None => Input::Problem(format!(
                    "{} is not a legal move here (type `moves` for the list)",
                    notation::format_move(info, &mv, VertexStyle::Name)
                )),
            },
        };
    }
    let mut wanted = Vec::new();
    for token in text.split(|c: char| c.is_whitespace() || c == '-' || c == ',').filter(|t| !t.is_empty()) {
        match split_vertices(view, info, token) {
            Some(vs) => wanted.extend(vs),
            None => {
                return Input::Problem(format!(
                    "'{}' is not a move number, a vertex name or a command (type `help`)",
                    printable(token)
                ))
            }
        }
    }
    let said = wanted.iter().map(|&v| view.vertex_label(info, v)).collect::<Vec<_>>().join(" ");
    let paths: Vec<&[u32]> = shown.iter().map(|m| m.squares.as_slice()).collect();
    let exact: Vec<usize> = (0..paths.len()).filter(|&i| paths[i] == wanted).collect();
    let found = if exact.is_empty() {
        (0..paths.len()).filter(|&i| passes_through(paths[i], &wanted)).collect()
    } else {
        exact
    };
    match found.as_slice() {
        [i] => Input::Move(*i),
        [] => Input::Problem(format!("no legal move goes through {said} (type `moves` for the list)")),
        several => {
            let mut message = format!("{said} matches {} legal moves:", several.len());
            for &i in several.iter().take(SHOWN_MOVES) {
                let text = &shown[i].pair;
                message.push_str(&format!("\n  {}) {}  {text}", i + 1, view.path_label(info, paths[i])));
            }
            message.push_str("\ntype the number of the one you mean");
            Input::Problem(message)
        }
    }
}

/// A legal move as the player sees it.
struct Shown {
    /// The squares it goes through (see [`squares`]).
    squares: Vec<u32>,
    /// Pair notation.
    pair: String,
    /// What it changes.
    changes: String,
}

/// The legal moves with their squares and effects.
fn describe_moves<G: Game>(game: &G, state: &G::State, legal: &MoveList) -> Vec<Shown> {
    let info = game.info();
    let mut sc = game.new_scratch();
    legal
        .iter()
        .map(|m| {
            let (changed, changes) = match notation::describe_move(game, state, &mut sc, m, KEEPER_LIMIT) {
                Ok(c) => (changed_vertices(&c), c.display(info).to_string()),
                Err(e) => (Vec::new(), format!("(keeper fails: {e})")),
            };
            Shown {
                squares: squares(m, &changed),
                pair: notation::format_move(info, m, VertexStyle::Name),
                changes,
            }
        })
        .collect()
}

fn changed_vertices(changes: &notation::MoveChanges) -> Vec<u32> {
    changes
        .changes
        .iter()
        .filter_map(|c| match c {
            notation::Change::Piece { vertex, .. } => Some(*vertex),
            _ => None,
        })
        .collect()
}

/// The squares a move goes through, as a player names them: the vertices of its modifiers, in
/// order and each once, that the move changes the piece of (`a2 a3` for a pawn moved from a2
/// to a3, not the vertex where a score was set first). A move that changes no piece: all its
/// modifiers' vertices, repeats in a row removed.
fn squares(m: &[Action], changed: &[u32]) -> Vec<u32> {
    let mut out: Vec<u32> = Vec::new();
    for a in m {
        if changed.contains(&a.vertex) && !out.contains(&a.vertex) {
            out.push(a.vertex);
        }
    }
    if out.is_empty() {
        out = m.iter().map(|a| a.vertex).collect();
        out.dedup();
    }
    out
}

/// Whether `path` starts at `wanted`'s first vertex, ends at its last and passes its other
/// vertices in order (a single vertex: the path passes it).
fn passes_through(path: &[u32], wanted: &[u32]) -> bool {
    match wanted {
        [] => false,
        [v] => path.contains(v),
        [first, middle @ .., last] => {
            if path.first() != Some(first) || path.last() != Some(last) {
                return false;
            }
            let mut rest = path[1..path.len() - 1].iter();
            middle.iter().all(|v| rest.any(|p| p == v))
        }
    }
}

/// The legal moves as numbered lines: number, squares, notation, what the move changes.
fn move_lines(info: &GameInfo, view: &TextBoard, shown: &[Shown]) -> Vec<String> {
    let width = shown.len().to_string().len();
    let paths: Vec<String> = shown.iter().map(|m| view.path_label(info, &m.squares)).collect();
    let path_width = paths.iter().map(|p| p.chars().count()).max().unwrap_or(0);
    let pair_width = shown.iter().map(|m| m.pair.chars().count()).max().unwrap_or(0);
    shown
        .iter()
        .zip(&paths)
        .enumerate()
        .map(|(i, (m, p))| {
            format!("  {:>width$}) {p:<path_width$}  {:<pair_width$}  {}", i + 1, m.pair, m.changes)
        })
        .collect()
}

/// The vertex named `token`: a vertex name, or a chess-style name (any case).
fn vertex(view: &TextBoard, info: &GameInfo, token: &str) -> Option<u32> {
    info.vertex_id(token).or_else(|| view.vertex_of_alias(token))
}

/// The vertices named by `token`: one name, or names written together (`a2a3`). When
/// several splits exist, the one with the longest first name wins.
fn split_vertices(view: &TextBoard, info: &GameInfo, token: &str) -> Option<Vec<u32>> {
    if let Some(v) = vertex(view, info, token) {
        return Some(vec![v]);
    }
    if token.len() > 200 {
        return None;
    }
    // ends[i]: token[i..] splits into names (character boundaries only).
    let bounds: Vec<usize> = token.char_indices().map(|(i, _)| i).chain([token.len()]).collect();
    let n = bounds.len();
    let mut next: Vec<Option<(usize, u32)>> = vec![None; n];
    let mut ok = vec![false; n];
    ok[n - 1] = true;
    for i in (0..n - 1).rev() {
        for j in (i + 1..n).rev() {
            if ok[j] {
                if let Some(v) = vertex(view, info, &token[bounds[i]..bounds[j]]) {
                    next[i] = Some((j, v));
                    ok[i] = true;
                    break;
                }
            }
        }
    }
    let mut out = Vec::new();
    let mut i = 0;
    while i < n - 1 {
        let (j, v) = next[i]?;
        out.push(v);
        i = j;
    }
    Some(out)
}

/// Draws the board (after an empty line).
fn draw<G: Game, W: Write>(view: &TextBoard, game: &G, state: &G::State, out: &mut W) -> io::Result<()> {
    writeln!(out)?;
    out.write_all(view.draw(game, state).as_bytes())
}

/// A seat of an interactive game: the human at the terminal or an agent.
pub enum Seat<'a, G: Game> {
    Human,
    Agent { label: String, agent: Box<dyn Agent<G> + 'a> },
}

/// How an interactive game ended.
pub enum HumanGameEnd {
    /// By its rules, by the move limit or by an agent's failure (see the result's termination).
    Played(GameResult),
    /// The human quit or the input ended: the moves so far, and why.
    Abandoned(GameResult, String),
}

/// Plays one game with at least one human seat, one move at a time, talking to `human`.
/// `undo` takes back the last move made by a human seat and every move after it, and resets the
/// agents (their searches start afresh, with new seeds derived from `seed`). The game is a
/// [`Session`]: every move, the agents' too, is checked before it is played.
pub fn play_interactive<G: Game, R: BufRead, W: Write>(
    game: &G,
    seats: &mut [Seat<'_, G>],
    human: &mut Human<R, W>,
    index: u64,
    seed: u64,
    seating: Vec<usize>,
    limits: &PlayLimits,
) -> io::Result<HumanGameEnd> {
    let info = game.info();
    let players = info.num_players();
    let mut sc = game.new_scratch();
    let reset_agents = |seats: &mut [Seat<'_, G>], round: u64| {
        for (i, seat) in seats.iter_mut().enumerate() {
            if let Seat::Agent { agent, .. } = seat {
                agent.reset(seat_seed(seed ^ round.wrapping_mul(0x9e37_79b9_7f4a_7c15), i));
            }
        }
    };
    reset_agents(seats, 0);
    let result = |moves: &[PlayedMove], state: &G::State, termination| GameResult {
        index,
        seed,
        seating: seating.clone(),
        moves: moves.to_vec(),
        scores: (1..=players as Player).map(|p| game.score(state, p)).collect(),
        termination,
    };
    let error = |e: rbg_core::SearchError| Termination::Error(e.to_string());
    let options = SessionOptions {
        max_history: usize::try_from(limits.max_moves).unwrap_or(usize::MAX),
        keeper_limit: limits.keeper_limit,
    };
    let mut session = match Session::new(game, options) {
        Ok(session) => session,
        Err(e) => return Ok(HumanGameEnd::Played(result(&[], &game.initial_state(), error(e)))),
    };
    if !session.ongoing() && game.current_player(session.state()) == KEEPER {
        let why = Termination::Error("the game is over before any player moves".into());
        return Ok(HumanGameEnd::Played(result(&[], session.state(), why)));
    }
    // The moves of the session's history, with who played them and the search statistics.
    let mut played: Vec<PlayedMove> = Vec::new();
    let mut undos = 0u64;
    loop {
        let state = session.state().clone();
        if !session.ongoing() {
            return Ok(HumanGameEnd::Played(result(&played, &state, Termination::Finished)));
        }
        if played.len() as u64 >= limits.max_moves {
            return Ok(HumanGameEnd::Played(result(&played, &state, Termination::MoveLimit)));
        }
        let player = game.current_player(&state);
        let who = player_name(info, player);
        if (player as usize).wrapping_sub(1) >= seats.len() {
            let why = Termination::Error(format!("no seat for player {player}"));
            return Ok(HumanGameEnd::Played(result(&played, &state, why)));
        }
        let (mv, stats) = match &mut seats[player as usize - 1] {
            Seat::Human => {
                let can_undo = played.iter().any(|m| is_human(seats, m.player));
                match human.ask(game, &state, can_undo)? {
                    Reply::Move(mv) => (mv, SearchStats::default()),
                    Reply::Undo => {
                        let mut taken = 0;
                        while let Some(last) = played.pop() {
                            if session.undo().is_err() {
                                break;
                            }
                            taken += 1;
                            if is_human(seats, last.player) {
                                break;
                            }
                        }
                        undos += 1;
                        reset_agents(seats, undos);
                        let s = if taken == 1 { "" } else { "s" };
                        writeln!(human.out(), "took back {taken} move{s}")?;
                        continue;
                    }
                    Reply::Quit => {
                        let why = "the player quit".to_string();
                        return Ok(HumanGameEnd::Abandoned(
                            result(&played, &state, Termination::Error(why.clone())),
                            why,
                        ));
                    }
                    Reply::Eof => {
                        let why = "the input ended".to_string();
                        return Ok(HumanGameEnd::Abandoned(
                            result(&played, &state, Termination::Error(why.clone())),
                            why,
                        ));
                    }
                }
            }
            Seat::Agent { agent, .. } => {
                let budget = agent.budget();
                match agent.select_move(game, &state, &budget) {
                    Ok(d) => (d.mv, d.stats),
                    Err(e) => {
                        let why = Termination::Error(format!("the agent of {who} failed: {e}"));
                        return Ok(HumanGameEnd::Played(result(&played, &state, why)));
                    }
                }
            }
        };
        match session.play(&mv) {
            Ok(()) => {}
            Err(SessionError::Illegal(_)) => {
                let text = notation::format_move(info, &mv, VertexStyle::Name);
                let why = Termination::Error(format!("the agent of {who} chose an illegal move {text}"));
                return Ok(HumanGameEnd::Played(result(&played, &state, why)));
            }
            Err(SessionError::Search(e)) => {
                // The move was legal; the keeper's moves after it failed.
                played.push(PlayedMove { player, mv, stats });
                return Ok(HumanGameEnd::Played(result(&played, &state, error(e))));
            }
            Err(e) => {
                return Ok(HumanGameEnd::Played(result(&played, &state, Termination::Error(e.to_string()))))
            }
        }
        if let Seat::Agent { label, .. } = &seats[player as usize - 1] {
            let text = notation::format_move(info, &mv, VertexStyle::Name);
            let changed = notation::describe_move(game, &state, &mut sc, &mv, limits.keeper_limit)
                .map(|c| changed_vertices(&c))
                .unwrap_or_default();
            let label = label.clone();
            let view = human.view(game);
            let at = view.path_label(info, &squares(&mv, &changed));
            writeln!(human.out(), "{who} ({label}) plays {at}: {text}")?;
        }
        for seat in seats.iter_mut() {
            if let Seat::Agent { agent, label } = seat {
                if let Err(e) = agent.observe(game, &state, &mv) {
                    let why = Termination::Error(format!("the agent {label} failed: {e}"));
                    return Ok(HumanGameEnd::Played(result(&played, &state, why)));
                }
            }
        }
        played.push(PlayedMove { player, mv, stats });
    }
}

fn is_human<G: Game>(seats: &[Seat<'_, G>], player: Player) -> bool {
    matches!(seats.get((player as usize).wrapping_sub(1)), Some(Seat::Human))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The human agent through `play_game` (which has no undo): in Nim with 3 stones the human
    /// takes one stone (move 1) after a junk line; the end of the input, or `quit`, aborts the
    /// game with the agent's error.
    #[test]
    fn the_human_agent_plays_through_play_game() {
        use rbg_agents::{play_game, AgentSpec, PlayError};
        use rbg_core::toy::Nim;
        let game = Nim::new(3);
        let play = |input: &'static str| {
            let human = Human::new(io::Cursor::new(input), Vec::new(), true);
            let random = "random".parse::<AgentSpec>().unwrap().build(&game).unwrap();
            let mut agents: Vec<Box<dyn Agent<Nim>>> = vec![Box::new(human), random];
            play_game(&game, &mut agents, 1, &PlayLimits::default())
        };
        // Enough answers for every line of play (each "1" takes a stone).
        let record = play("junk\n1\n1\n1\n").unwrap();
        assert!(record.finished);
        assert_eq!(record.moves[0].mv, vec![Action::new(1, 0)]);
        match play("junk\n") {
            Err(PlayError::Agent { player: 1, error: AgentError::Aborted(why) }) => {
                assert_eq!(why, "the input ended")
            }
            other => panic!("{other:?}"),
        }
        match play("undo\nquit\n") {
            Err(PlayError::Agent { player: 1, error: AgentError::Aborted(why) }) => {
                assert_eq!(why, "the player quit")
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn the_squares_of_a_move_are_those_it_changes_in_its_order() {
        let m = [Action::new(1, 0), Action::new(2, 7), Action::new(3, 5), Action::new(4, 5)];
        // A score set at vertex 0 first, a piece moved from 7 to 5.
        assert_eq!(squares(&m, &[5, 7]), vec![7, 5]);
        // Nothing changed: every vertex, repeats in a row removed.
        assert_eq!(squares(&m, &[]), vec![0, 7, 5]);
    }

    #[test]
    fn paths_match_exactly_or_by_their_ends() {
        assert!(passes_through(&[1, 2, 3], &[1, 3]));
        assert!(passes_through(&[1, 2, 3], &[2]));
        assert!(!passes_through(&[1, 2, 3], &[2, 3]));
        assert!(passes_through(&[1, 2, 4, 3], &[1, 4, 3]));
        assert!(!passes_through(&[1, 2, 4, 3], &[1, 5, 3]));
        assert!(!passes_through(&[1], &[]));
    }
}
