//! The translation of a Simplified Boardgames description into GDL (KIF), as section V of
//! Kowalski and Szykuła's "Procedural Content Generation for GDL Descriptions of Simplified
//! Boardgames" outlines it, with the game's meaning that of [`crate::reasoner`].
//!
//! # State and moves
//!
//! The state holds `(cell X Y C)` for every square (`C` is `empty` or a piece such as
//! `white_k`; GDL symbols are case-insensitive, hence no `wK`), `(control R)` and `(step N)`,
//! the number of half-moves played. A move is `(move X0 Y0 X Y)`, the squares of the spec's
//! coordinates ((0, 0) bottom left); the player not in control plays `noop`.
//!
//! # Legal moves: one predicate per automaton state
//!
//! The paper's plain rule per word of a piece's language repeats every shared prefix and cannot
//! express `^*`. Instead each rule becomes a deterministic automaton over its letters (the
//! subset construction on the position automaton of [`crate::automaton`]), and each of its
//! states `q` a relation `(reach_K_q R X0 Y0 X Y)`: "a word leading to `q` walks the piece of
//! kind `K` of player `R` from (X0, Y0) to (X, Y)". A transition reading `(dx, dy, on)` is one
//! rule extending the relation of its source state by one step, so words with a common prefix
//! share the relations of that prefix, and stars become recursive rules. The moves are the
//! relations of accepting states. Determinising cannot grow the automaton much for the rules of
//! real games; should it pass [`MAX_DFA_STATES`], the position automaton itself is written (one
//! relation per letter occurrence), which is as correct and shares less.
//!
//! Arithmetic is by fact tables: `(xstep X DX X2)` and `(ystep R Y DY Y2)` for the offsets the
//! rules use, only where the target lies on the board (so leaving the board fails), with `dy`
//! mirrored for black as the spec says.
//!
//! # End and goals
//!
//! As in the direct reasoner: `(wins R)` when a piece of `R` stands on one of its `@` squares or
//! the opponent's count of a `#` piece has fallen to its bound (counted as "not more than n
//! pieces", a chain of n + 1 cells in square order); both sides winning is a draw (50 each);
//! otherwise the turn limit draws; otherwise the game ends when the player in control has no
//! legal move, and that player loses.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::automaton::PieceAutomaton;
use crate::syntax::{Goal, Letter, On, Piece, SbgGame, Side};

/// The most states of a determinised rule; beyond it the position automaton is written.
pub const MAX_DFA_STATES: usize = 4096;

/// The most half-moves written as successor facts.
pub const MAX_TURN_LIMIT: u64 = 100_000;

/// The most pieces a `#` goal may count (its rule has one condition per piece).
const MAX_COUNTED: u64 = 64;

/// A letter as the automaton reads it, without its span.
type Symbol = (i32, i32, OnKey);

/// `On` with an order, for map keys.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum OnKey {
    Empty,
    Opponent,
    Own,
}

fn symbol(letter: &Letter) -> Symbol {
    let on = match letter.on {
        On::Empty => OnKey::Empty,
        On::Opponent => OnKey::Opponent,
        On::Own => OnKey::Own,
    };
    (letter.dx, letter.dy, on)
}

/// An automaton as written: state 0 is the start; transitions `(from, symbol, to)`.
struct WrittenAutomaton {
    states: usize,
    transitions: Vec<(usize, Symbol, usize)>,
    accepting: Vec<bool>,
}

/// The position automaton as it is: state 0 the start, state `i + 1` letter occurrence `i`.
fn positions(automaton: &PieceAutomaton) -> WrittenAutomaton {
    let mut transitions = Vec::new();
    for &to in &automaton.first {
        transitions.push((0, symbol(&automaton.letters[to as usize]), to as usize + 1));
    }
    for (from, follow) in automaton.follow.iter().enumerate() {
        for &to in follow {
            transitions.push((from + 1, symbol(&automaton.letters[to as usize]), to as usize + 1));
        }
    }
    let mut accepting = vec![automaton.accepts_empty];
    accepting.extend(&automaton.accepting);
    WrittenAutomaton { states: automaton.letters.len() + 1, transitions, accepting }
}

/// The subset construction over [`positions`], or `None` past [`MAX_DFA_STATES`].
fn determinised(nfa: &WrittenAutomaton) -> Option<WrittenAutomaton> {
    let mut outgoing: Vec<Vec<(Symbol, usize)>> = vec![Vec::new(); nfa.states];
    for &(from, sym, to) in &nfa.transitions {
        outgoing[from].push((sym, to));
    }
    let mut ids: BTreeMap<Vec<usize>, usize> = BTreeMap::new();
    let mut sets = vec![vec![0usize]];
    ids.insert(vec![0], 0);
    let mut transitions = Vec::new();
    let mut next = 0;
    while next < sets.len() {
        let mut by_symbol: BTreeMap<Symbol, Vec<usize>> = BTreeMap::new();
        for &state in &sets[next] {
            for &(sym, to) in &outgoing[state] {
                by_symbol.entry(sym).or_default().push(to);
            }
        }
        for (sym, mut targets) in by_symbol {
            targets.sort_unstable();
            targets.dedup();
            let id = match ids.get(&targets) {
                Some(&id) => id,
                None => {
                    if sets.len() >= MAX_DFA_STATES {
                        return None;
                    }
                    ids.insert(targets.clone(), sets.len());
                    sets.push(targets);
                    sets.len() - 1
                }
            };
            transitions.push((next, sym, id));
        }
        next += 1;
    }
    let accepting = sets.iter().map(|set| set.iter().any(|&s| nfa.accepting[s])).collect();
    Some(WrittenAutomaton { states: sets.len(), transitions, accepting })
}

/// The GDL constant of a piece.
fn piece_constant(piece: Piece) -> String {
    format!("{}_{}", piece.side.name(), piece.kind.to_ascii_lowercase() as char)
}

/// The GDL text of a game, or why it cannot be written (a turn limit or a count too large for
/// the fact tables).
pub fn to_gdl(game: &SbgGame) -> Result<String, String> {
    if game.turn_limit > MAX_TURN_LIMIT {
        return Err(format!(
            "the turn limit {} is above {MAX_TURN_LIMIT}, the most half-moves written as GDL facts",
            game.turn_limit
        ));
    }
    let mut out = String::new();
    let (width, height) = (game.width as i64, game.height as i64);
    let _ = writeln!(
        out,
        "; {} ({}): Simplified Boardgames translated to GDL by rbg sbg2gdl",
        game.name, game.file
    );
    out.push_str("\n(role white)\n(role black)\n(opponent white black)\n(opponent black white)\n");

    // Pieces: (piece C R K).
    let kinds = game.kinds();
    out.push('\n');
    for &kind in &kinds {
        for side in [Side::White, Side::Black] {
            let piece = Piece { side, kind };
            let _ = writeln!(out, "(piece {} {} {})", piece_constant(piece), side.name(), kind_name(kind));
        }
    }

    // The initial state (cells are listed with row 0 on top).
    out.push('\n');
    for (index, cell) in game.cells.iter().enumerate() {
        let (x, row) = (index as i64 % width, index as i64 / width);
        let y = height - 1 - row;
        let content = cell.map_or_else(|| "empty".to_string(), piece_constant);
        let _ = writeln!(out, "(init (cell {x} {y} {content}))");
    }
    out.push_str("(init (control white))\n(init (step 0))\n");
    for n in 0..game.turn_limit {
        let _ = writeln!(out, "(succ {n} {})", n + 1);
    }

    // Offsets as fact tables, only for those the rules use.
    let automata: Vec<(u8, WrittenAutomaton)> = game
        .rules
        .iter()
        .map(|rule| {
            let nfa = positions(&PieceAutomaton::compile(&rule.regex));
            (rule.kind, determinised(&nfa).unwrap_or(nfa))
        })
        .collect();
    let mut dxs: Vec<i32> = automata.iter().flat_map(|(_, a)| a.transitions.iter().map(|t| t.1 .0)).collect();
    let mut dys: Vec<i32> = automata.iter().flat_map(|(_, a)| a.transitions.iter().map(|t| t.1 .1)).collect();
    dxs.sort_unstable();
    dxs.dedup();
    dys.sort_unstable();
    dys.dedup();
    out.push('\n');
    for &dx in &dxs {
        for x in 0..width {
            let to = x + i64::from(dx);
            if (0..width).contains(&to) {
                let _ = writeln!(out, "(xstep {x} {dx} {to})");
            }
        }
    }
    for &dy in &dys {
        for y in 0..height {
            for (side, forward) in [(Side::White, 1), (Side::Black, -1)] {
                let to = y + forward * i64::from(dy);
                if (0..height).contains(&to) {
                    let _ = writeln!(out, "(ystep {} {y} {dy} {to})", side.name());
                }
            }
        }
    }

    out.push_str(
        "\n(<= (empty_at ?x ?y) (true (cell ?x ?y empty)))\n\
         (<= (enemy_at ?r ?x ?y) (true (cell ?x ?y ?c)) (piece ?c ?o ?k) (opponent ?r ?o))\n\
         (<= (own_at ?r ?x ?y) (true (cell ?x ?y ?c)) (piece ?c ?r ?k))\n",
    );

    // Legal moves, one relation per automaton state.
    for (kind, automaton) in &automata {
        let k = kind_name(*kind);
        let _ = writeln!(out, "\n; moves of {}", *kind as char);
        let _ = writeln!(
            out,
            "(<= (reach_{k}_0 ?r ?x0 ?y0 ?x0 ?y0) (true (control ?r)) (true (cell ?x0 ?y0 ?c)) (piece ?c ?r {k}))"
        );
        for &(from, (dx, dy, on), to) in &automaton.transitions {
            let condition = match on {
                OnKey::Empty => "(empty_at ?x2 ?y2)",
                OnKey::Opponent => "(enemy_at ?r ?x2 ?y2)",
                OnKey::Own => "(own_at ?r ?x2 ?y2)",
            };
            let _ = writeln!(
                out,
                "(<= (reach_{k}_{to} ?r ?x0 ?y0 ?x2 ?y2) (reach_{k}_{from} ?r ?x0 ?y0 ?x1 ?y1) \
                 (xstep ?x1 {dx} ?x2) (ystep ?r ?y1 {dy} ?y2) {condition})"
            );
        }
        for (state, _) in automaton.accepting.iter().enumerate().filter(|(_, &a)| a) {
            let _ =
                writeln!(out, "(<= (legal ?r (move ?x0 ?y0 ?x ?y)) (reach_{k}_{state} ?r ?x0 ?y0 ?x ?y))");
        }
    }
    out.push_str(
        "\n(<= (legal ?r noop) (role ?r) (not (true (control ?r))))\n\
         \n(<= (next (cell ?x ?y ?c)) (does ?r (move ?x0 ?y0 ?x ?y)) (true (cell ?x0 ?y0 ?c)))\n\
         (<= (next (cell ?x0 ?y0 empty)) (does ?r (move ?x0 ?y0 ?x ?y)) (distinct ?x0 ?x))\n\
         (<= (next (cell ?x0 ?y0 empty)) (does ?r (move ?x0 ?y0 ?x ?y)) (distinct ?y0 ?y))\n\
         (<= (touched ?x ?y) (does ?r (move ?x ?y ?x1 ?y1)))\n\
         (<= (touched ?x ?y) (does ?r (move ?x0 ?y0 ?x ?y)))\n\
         (<= (next (cell ?x ?y ?c)) (true (cell ?x ?y ?c)) (not (touched ?x ?y)))\n\
         (<= (next (control black)) (true (control white)))\n\
         (<= (next (control white)) (true (control black)))\n\
         (<= (next (step ?n)) (true (step ?m)) (succ ?m ?n))\n",
    );

    // Goals.
    out.push('\n');
    let mut square_order_needed = false;
    for goal in &game.goals {
        match goal {
            Goal::Reach { piece, squares, .. } => {
                for &(x, y) in squares {
                    let _ = writeln!(out, "(goal_square {} {x} {y})", piece_constant(*piece));
                }
            }
            Goal::Count { piece, count, .. } => {
                let winner = piece.side.opponent().name();
                let constant = piece_constant(*piece);
                let area = u64::from(game.width) * u64::from(game.height);
                if *count >= area.min(MAX_COUNTED) {
                    if *count < area {
                        return Err(format!(
                            "a # goal counts up to {count} pieces; at most {MAX_COUNTED} are written"
                        ));
                    }
                    // The board cannot hold more: the goal holds from the start.
                    let _ = writeln!(out, "(<= (wins {winner}) (true (control ?r)))");
                    continue;
                }
                let more = format!("more_than_{count}_{constant}");
                let _ = writeln!(out, "(<= (wins {winner}) (not {more}))");
                let cells: Vec<String> =
                    (0..=*count).map(|i| format!("(true (cell ?x{i} ?y{i} {constant}))")).collect();
                let order: Vec<String> =
                    (1..=*count).map(|i| format!("(before ?x{} ?y{} ?x{i} ?y{i})", i - 1, i - 1)).collect();
                square_order_needed |= *count > 0;
                let _ = writeln!(out, "(<= {more} {} {})", cells.join(" "), order.join(" "));
            }
        }
    }
    if square_order_needed {
        let squares: Vec<(i64, i64)> = (0..height).flat_map(|y| (0..width).map(move |x| (x, y))).collect();
        for (i, (x1, y1)) in squares.iter().enumerate() {
            for (x2, y2) in &squares[i + 1..] {
                let _ = writeln!(out, "(before {x1} {y1} {x2} {y2})");
            }
        }
    }
    out.push_str(
        "(<= (wins ?r) (goal_square ?c ?x ?y) (true (cell ?x ?y ?c)) (piece ?c ?r ?k))\n\
         (<= decided (wins ?r))\n\
         (<= at_limit (true (step LIMIT)))\n\
         (<= can_move (true (control ?r)) (legal ?r (move ?x0 ?y0 ?x ?y)))\n\
         \n(<= terminal decided)\n\
         (<= terminal at_limit)\n\
         (<= terminal (not can_move))\n\
         \n(<= (goal ?r 100) (wins ?r) (opponent ?r ?o) (not (wins ?o)))\n\
         (<= (goal ?r 50) (wins ?r) (opponent ?r ?o) (wins ?o))\n\
         (<= (goal ?r 0) (wins ?o) (opponent ?r ?o) (not (wins ?r)))\n\
         (<= (goal ?r 50) (role ?r) (not decided) at_limit)\n\
         (<= (goal ?r 100) (role ?r) (not decided) (not at_limit) (not (true (control ?r))))\n\
         (<= (goal ?r 0) (role ?r) (not decided) (not at_limit) (true (control ?r)))\n"
            .replace("LIMIT", &game.turn_limit.to_string())
            .as_str(),
    );
    Ok(out)
}

/// A piece kind as a GDL constant (lower case: GDL ignores case).
fn kind_name(kind: u8) -> String {
    format!("k{}", kind.to_ascii_lowercase() as char)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(text: &str) -> SbgGame {
        crate::parse("test.sbg", text.as_bytes()).expect("a valid game")
    }

    #[test]
    fn a_shared_prefix_is_one_relation() {
        // Two words that share (1,2,e): determinised, the prefix is read by one rule.
        let g = game("<<T>>\n<BOARD> 5 5\n|....k|\n|.....|\n|.....|\n|.....|\n|K....|\n<PIECES>\nK (1,2,e)(2,0,e) + (1,2,e)(2,1,e) &\n<GOALS>\n10 &\n");
        let text = to_gdl(&g).unwrap();
        let prefix_rules =
            text.lines().filter(|l| l.contains("(xstep ?x1 1 ?x2) (ystep ?r ?y1 2 ?y2)")).count();
        assert_eq!(prefix_rules, 1, "{text}");
        assert_eq!(text.matches("(<= (legal ?r (move").count(), 2, "{text}");
    }

    #[test]
    fn a_star_is_a_recursive_rule() {
        let g = game("<<T>>\n<BOARD> 3 3\n|..k|\n|...|\n|K..|\n<PIECES>\nK (0,1,e)^* &\n<GOALS>\n10 &\n");
        let text = to_gdl(&g).unwrap();
        // The start accepts (the empty word) and one state loops on itself.
        assert!(
            text.contains("(<= (legal ?r (move ?x0 ?y0 ?x ?y)) (reach_kk_0 ?r ?x0 ?y0 ?x ?y))"),
            "{text}"
        );
        assert!(text.contains("(<= (reach_kk_1 ?r ?x0 ?y0 ?x2 ?y2) (reach_kk_1 ?r"), "{text}");
    }

    #[test]
    fn a_huge_turn_limit_is_an_error() {
        let g = game("<<T>>\n<BOARD> 1 2\n|k|\n|K|\n<PIECES>\n<GOALS>\n999999999 &\n");
        assert!(to_gdl(&g).unwrap_err().contains("turn limit"));
    }
}
