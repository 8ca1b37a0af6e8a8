//! The translation of a Simplified Boardgames description into readable, commented high-level
//! RBG, written with [`RbgWriter`] so that errors the RBG parser finds point at the SBG source.
//!
//! # One RBG move per (from, to)
//!
//! RBG's legal moves are the distinct sequences of modifiers (offs, assignments, switches) with
//! the vertices they were applied at; shifts and checks are not part of a move. SBG identifies a
//! move by its two squares, so the translation makes the modifiers of a move depend on those two
//! squares only:
//!
//! ```text
//! ->white anySquare {whiteX} [whiteOrigin] walkX(up; down; white; black) land(whiteX; white) ->> ...
//! ```
//!
//! * `[whiteOrigin]` marks the start square (one off per piece type, at `from`);
//! * `walkX` is the rule of `X` with every letter `(dx, dy, on)` written as shifts and a check
//!   (`right^dx forward^dy {empty}`), so it has no modifiers at all: every word of the rule that
//!   reaches the same square leads to the same next modifier at the same vertex, and RBG merges
//!   them (a modifier is tried once per vertex after a given prefix);
//! * `land` puts `whiteX` on the destination (one off, at `to`) and, unless the destination is
//!   the marked square itself, walks to the mark and empties it (one off, at `from`).
//!
//! The mark is an own piece for the checks (`w` accepts it, `e` and `p` do not): the spec says
//! the board is not changed while moves are computed, so a walk passing over or ending on its
//! start square sees the moving piece there. A straight shift sequence such as `right^2 up`
//! stays on the board exactly when its end does (the board is a rectangle), which is SBG's
//! "jump" semantics of a letter.
//!
//! So a player's move is `[(origin, from), (piece, to), (empty, from), (->>, from)]`, or the
//! first two and the switch when `to == from`; [`rbg_move_squares`] reads (from, to) off it.
//!
//! # Goals and scores
//!
//! After each move the keeper adds 1 to `halfMoves` and judges the position as the direct
//! reasoner does ([`crate::reasoner`]): `@` goals are patterns that walk to the bottom-left
//! corner (`left* {! left} down* {! down}`) and then to each listed square; `#` goals compare the
//! piece count (`{$ blackK <= 0}`). If the game goes on, the mover is credited 100 and the
//! opponent 0, which stands if the opponent has no legal move.

use rbg_core::Action;
use rbg_parser::generate::RbgWriter;

use crate::reasoner::HALF_MOVES;
use crate::syntax::{Goal, Letter, On, Piece, Power, Regex, SbgGame, Side};

/// The RBG text of a game.
pub fn to_rbg(game: &SbgGame) -> String {
    to_rbg_writer(game).text().to_string()
}

/// The (from, to) vertices of a player's move in the translation (see the module docs).
pub fn rbg_move_squares(m: &[Action]) -> Option<(u32, u32)> {
    match m {
        [origin, landing, ..] => Some((origin.vertex, landing.vertex)),
        _ => None,
    }
}

/// One line of source text for a comment: control characters and runs of space collapsed.
fn one_line(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    text.split(|c: char| c.is_whitespace() || c.is_control())
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The RBG text of a game with the origins of its parts; `source` is the SBG text the game was
/// parsed from (quoted in comments; pass an empty slice to leave the quotes out).
pub fn to_rbg_writer_with_source(game: &SbgGame, source: &[u8]) -> RbgWriter {
    let quote = |span: rbg_parser::source::Span| {
        source.get(span.start as usize..span.end as usize).map(one_line).unwrap_or_default()
    };
    let mut w = RbgWriter::new();
    let kinds = game.kinds();
    let file = one_line(game.file.as_bytes());
    w.push(&format!(
        "// {}: translated from the Simplified Boardgames description {file}.\n",
        one_line(game.name.as_bytes())
    ));
    w.push(concat!(
        "// Piece whiteX is white's X, blackX black's; a side's Origin marks the start square of the\n",
        "// move being made. A move walks the piece's rule with shifts and checks only, then puts the\n",
        "// piece on the destination and empties the start square, so each (from, to) is one move.\n",
        "// After each move the keeper counts the half-move and applies the goals; a player with no\n",
        "// legal move loses (the last mover is credited 100 before the turn passes).\n\n",
    ));
    w.push("#players = white(100), black(100)\n#pieces = empty, whiteOrigin, blackOrigin");
    for &kind in &kinds {
        w.push(&format!(", white{0}, black{0}", kind as char));
    }
    w.push(&format!(
        "\n#variables = {HALF_MOVES}({}) // half-moves played; the game is drawn when it reaches {}\n",
        half_moves_bound(game),
        game.turn_limit
    ));
    w.open(game.turn_limit_span).close();
    w.push("#board = rectangle(up, down, left, right,\n");
    for (row, span) in game.row_spans.iter().enumerate() {
        let cells: Vec<String> = game.cells[row * game.width as usize..(row + 1) * game.width as usize]
            .iter()
            .map(|cell| cell.map_or("empty".to_string(), Piece::rbg_name))
            .collect();
        w.push("    ").push_from(&format!("[{}]", cells.join(", ")), *span).push("\n");
    }
    w.push(")\n\n#anySquare = ((left* + right*)(up* + down*))\n");

    if !game.rules.is_empty() {
        let side: Vec<String> = kinds.iter().map(|&k| format!("color~{}", k as char)).collect();
        w.push(&format!("#side(color) = {}\n", side.join(", ")));
        w.push("// What a `w` letter accepts: the mover's pieces and its origin mark (the moving piece).\n");
        w.push("#own(color) = side(color), color~Origin\n");
        w.push(concat!(
            "// The end of a move: the piece lands on the destination; unless the walk came back to\n",
            "// the marked start square, the mark is found and removed.\n",
            "#land(piece; color) = (\n",
            "      {color~Origin} [piece]\n",
            "    + {empty, side(white), side(black)} [piece] anySquare {color~Origin} [empty]\n",
            "  )\n\n",
        ));
    }
    let mut rules: Vec<_> = game.rules.iter().collect();
    rules.sort_by_key(|r| r.kind);
    for rule in &rules {
        let kind = rule.kind as char;
        w.push(&format!("// {kind}: {}\n", quote(rule.span)));
        w.open(rule.span);
        w.push(&format!("#walk{kind}(forward; backward; color; opponent) = (\n      "));
        match &rule.regex {
            Regex::Alt(branches) => {
                for (i, branch) in branches.iter().enumerate() {
                    if i > 0 {
                        w.push("\n    + ");
                    }
                    write_regex(&mut w, branch, false);
                }
            }
            other => write_regex(&mut w, other, false),
        }
        w.push("\n  )\n");
        w.close();
    }
    w.push("\n// A move of a piece that has a rule, from any square.\n#move(forward; backward; color; opponent) = ");
    if rules.is_empty() {
        w.push("{}\n");
    } else {
        w.push("anySquare (\n");
        for (i, rule) in rules.iter().enumerate() {
            let kind = rule.kind as char;
            w.push(if i == 0 { "      " } else { "    + " });
            w.open(rule.span);
            w.push(&format!(
                "{{color~{kind}}} [color~Origin] walk{kind}(forward; backward; color; opponent) land(color~{kind}; color)\n"
            ));
            w.close();
        }
        w.push("  )\n");
    }

    let wins = [Side::White, Side::Black].map(|side| write_wins(&mut w, game, side));
    w.push("\n// The keeper's verdict after a move of `me` (and on the initial position, as if black had\n");
    w.push("// just moved): a side whose win condition holds wins, both at once is a draw, the turn\n");
    w.push("// limit draws, otherwise the game goes on with `me` credited.\n");
    w.push("#outcome(me; opponent) = (\n");
    let (white, black) = (wins[0], wins[1]);
    let mut branches: Vec<String> = Vec::new();
    let end = |scores: (u32, u32)| format!("[$ white = {}, black = {}] ->> {{}}", scores.0, scores.1);
    let not_white = if white { "{! whiteWins} " } else { "" };
    let not_black = if black { "{! blackWins} " } else { "" };
    if white {
        branches.push(format!("{{? whiteWins}} {not_black}{}", end((100, 0))));
    }
    if black {
        branches.push(format!("{{? blackWins}} {not_white}{}", end((0, 100))));
    }
    if white && black {
        branches.push(format!("{{? whiteWins}} {{? blackWins}} {}", end((50, 50))));
    }
    let limit = game.turn_limit;
    branches.push(format!(
        "{not_white}{not_black}(\n          {{$ {HALF_MOVES} >= {limit}}} {}\n        + {{$ {HALF_MOVES} < {limit}}} [$ me = 100, opponent = 0]\n      )",
        end((50, 50))
    ));
    w.push("      ").push(&branches.join("\n    + ")).push("\n  )\n\n");
    w.push(concat!(
        "#turn(forward; backward; color; opponent) =\n",
        "    ->color move(forward; backward; color; opponent) ->>\n",
        "    [$ halfMoves = halfMoves + 1] outcome(color; opponent)\n\n",
        "#rules = outcome(black; white) (turn(up; down; white; black) turn(down; up; black; white))*\n",
    ));
    w
}

/// The RBG text of a game with the origins of its parts, without source quotes.
pub fn to_rbg_writer(game: &SbgGame) -> RbgWriter {
    to_rbg_writer_with_source(game, &[])
}

/// Writes `#whiteWins = ...` (or black's) if the side has a win condition; returns whether.
fn write_wins(w: &mut RbgWriter, game: &SbgGame, side: Side) -> bool {
    let area = u64::from(game.width) * u64::from(game.height);
    let mut conditions: Vec<(&Goal, String)> = Vec::new();
    for goal in &game.goals {
        match goal {
            Goal::Reach { piece, squares, .. } if piece.side == side => {
                let paths: Vec<String> = squares
                    .iter()
                    .map(|&(x, y)| {
                        let path = [shift("right", x), shift("up", y)]
                            .into_iter()
                            .flatten()
                            .collect::<Vec<_>>()
                            .join(" ");
                        if path.is_empty() {
                            ".".to_string()
                        } else {
                            path
                        }
                    })
                    .collect();
                conditions.push((
                    goal,
                    format!(
                        "{{? left* {{! left}} down* {{! down}} ({}) {{{}}}}}",
                        paths.join(" + "),
                        piece.rbg_name()
                    ),
                ));
            }
            Goal::Count { piece, count, .. } if piece.side != side => {
                // Counts never exceed the board's area; clamping keeps the literal small.
                conditions.push((goal, format!("{{$ {} <= {}}}", piece.rbg_name(), (*count).min(area))));
            }
            _ => {}
        }
    }
    if conditions.is_empty() {
        return false;
    }
    let name = side.name();
    w.push(&format!(
        "\n// {name} wins: one of its `@` goals holds (a piece on a listed square, counted from the\n// bottom-left corner) or one of the opponent's `#` goals does (too few pieces of a type left).\n#{name}Wins = (\n      "
    ));
    for (i, (goal, text)) in conditions.iter().enumerate() {
        if i > 0 {
            w.push("\n    + ");
        }
        w.push_from(text, goal.span());
    }
    w.push("\n  )\n");
    true
}

/// The bound of `halfMoves`: the turn limit, but at least 1 (RBG bounds are positive; with a
/// limit of 0 the game ends before any move, so the variable stays 0 anyway).
pub fn half_moves_bound(game: &SbgGame) -> u64 {
    game.turn_limit.max(1)
}

/// `label^n`, `label` or nothing.
fn shift(label: &str, n: u32) -> Option<String> {
    match n {
        0 => None,
        1 => Some(label.to_string()),
        n => Some(format!("{label}^{n}")),
    }
}

/// One letter: the horizontal shift, the vertical one (relative to the mover), the check.
fn letter_text(letter: &Letter) -> String {
    let horizontal = if letter.dx >= 0 {
        shift("right", letter.dx as u32)
    } else {
        shift("left", letter.dx.unsigned_abs())
    };
    let vertical = if letter.dy >= 0 {
        shift("forward", letter.dy as u32)
    } else {
        shift("backward", letter.dy.unsigned_abs())
    };
    let check = match letter.on {
        On::Empty => "{empty}",
        On::Opponent => "{side(opponent)}",
        On::Own => "{own(color)}",
    };
    [horizontal, vertical, Some(check.to_string())].into_iter().flatten().collect::<Vec<_>>().join(" ")
}

/// Writes a rule expression; `in_sequence` says it is a part of a concatenation (so an
/// alternative needs parentheses).
fn write_regex(w: &mut RbgWriter, regex: &Regex, in_sequence: bool) {
    match regex {
        Regex::Letter(letter) => {
            w.push_from(&letter_text(letter), letter.span);
        }
        Regex::Concat(parts) => {
            for (i, part) in parts.iter().enumerate() {
                if i > 0 {
                    w.push(" ");
                }
                write_regex(w, part, true);
            }
        }
        Regex::Alt(branches) => {
            if in_sequence {
                w.push("(");
            }
            for (i, branch) in branches.iter().enumerate() {
                if i > 0 {
                    w.push(" + ");
                }
                write_regex(w, branch, false);
            }
            if in_sequence {
                w.push(")");
            }
        }
        Regex::Power(inner, power) => {
            // RBG reads `m^0` as `m`, so the empty word is written as the no-op `.`.
            if *power == Power::Times(0) {
                w.push(".");
                return;
            }
            w.push("(");
            write_regex(w, inner, false);
            match power {
                Power::Star => w.push(")*"),
                Power::Times(1) => w.push(")"),
                Power::Times(n) => w.push(&format!(")^{n}")),
            };
        }
    }
}
