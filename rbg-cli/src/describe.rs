//! `rbg describe`: natural-language descriptions of a Simplified Boardgames game's pieces
//! (crate rbg-nld): each piece's classes and operators, its sentence and complexity, and the
//! game's NLD score; `--json` for tools, `--markdown` for a "How to play" page.

use std::fmt::Write as _;
use std::path::Path;

use rbg_nld::{Component, GameDescription, Operator, PartDescription, PieceDescription};
use rbg_sbg::syntax::{Goal, Piece, Side};
use rbg_sbg::SbgGame;

use crate::check::write_out;
use crate::diagnostics::Format;
use crate::Failure;

/// What `rbg describe` writes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Output {
    Text,
    Json,
    Markdown,
}

/// Describes the game in `path` and writes the chosen output to `to` or stdout.
pub fn run(path: &Path, output: Output, to: Option<&Path>, format: Format) -> Result<(), Failure> {
    let (game, _) = crate::sbg::read_sbg(path, format, "describe")?;
    let description = rbg_nld::describe_game(&game);
    let text = match output {
        Output::Text => text(&description),
        Output::Json => {
            let mut json = serde_json::to_string_pretty(&description)
                .map_err(|e| Failure::new(format!("cannot write JSON: {e}")))?;
            json.push('\n');
            json
        }
        Output::Markdown => markdown(&game, &description),
    };
    write_out(&text, to)
}

/// At most two decimals, none when they are zeros ("6", "265.71").
fn number(value: f64) -> String {
    let text = format!("{value:.2}");
    let trimmed = text.trim_end_matches('0').trim_end_matches('.');
    trimmed.to_string()
}

fn text(description: &GameDescription) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "game: {}", description.name);
    for piece in &description.pieces {
        let _ = writeln!(
            out,
            "\npiece {} ({} on the board): complexity {}",
            piece.letter,
            piece.count,
            number(piece.complexity)
        );
        for component in &piece.components {
            let _ = writeln!(out, "  {}", component_line(component));
        }
        let _ = writeln!(out, "  sentence: {}", piece.sentence);
    }
    let _ = writeln!(out, "\nscore: {}", number(description.score));
    out
}

/// "leaper (1,1) [without capturing] then rider (1,0) [outwards] -> 36".
fn component_line(component: &Component) -> String {
    match component {
        Component::Classes { parts, complexity } => {
            let parts: Vec<String> = parts.iter().map(part_line).collect();
            format!("{} -> {}", parts.join(" then "), number(*complexity))
        }
        Component::Pattern { pattern, complexity, .. } if pattern.is_empty() => {
            format!("stays in place -> {}", number(*complexity))
        }
        Component::Pattern { pattern, complexity, .. } => {
            format!("pattern {pattern} -> {}", number(*complexity))
        }
    }
}

fn part_line(part: &PartDescription) -> String {
    let kind = match part.class.kind {
        rbg_nld::ClassKind::Leaper => "leaper",
        rbg_nld::ClassKind::Rider => "rider",
    };
    let operators: Vec<String> = part.operators.iter().map(operator_name).collect();
    format!("{kind} ({},{}) [{}]", part.class.x, part.class.y, operators.join(", "))
}

fn letters(on: &[char]) -> String {
    on.iter().collect()
}

fn operator_name(op: &Operator) -> String {
    match op {
        Operator::Forwards => "forwards".into(),
        Operator::Backwards => "backwards".into(),
        Operator::Leftwards => "leftwards".into(),
        Operator::Rightwards => "rightwards".into(),
        Operator::Outwards => "outwards".into(),
        Operator::Inwards => "inwards".into(),
        Operator::Sideways => "sideways".into(),
        Operator::WithoutCapturing => "without capturing".into(),
        Operator::OnlyCapturing => "only capturing".into(),
        Operator::Ends { on } => format!("ends on {}", letters(on)),
        Operator::Maximum { steps } => format!("maximum {steps}"),
        Operator::Minimum { steps } => format!("minimum {steps}"),
        Operator::Exactly { steps } => format!("exactly {steps}"),
        Operator::RidingOver { on } => format!("riding over {}", letters(on)),
        Operator::Hopping => "hopping".into(),
        Operator::Hurdle { on } => format!("hurdle {}", letters(on)),
        Operator::Approach { min, max: Some(max) } => format!("approach {min}..{max}"),
        Operator::Approach { min, max: None } => format!("approach {min}.."),
    }
}

// ---------------------------------------------------------------------------------------------
// The "How to play" page

fn markdown(game: &SbgGame, description: &GameDescription) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "# How to play {}\n", game.name);
    let _ = writeln!(
        out,
        "Two players, white and black, take turns moving one of their pieces; white moves first. \
         A move that ends on a piece removes it from the board.\n"
    );
    board_section(&mut out, game);
    pieces_section(&mut out, description);
    goals_section(&mut out, game);
    let _ = writeln!(out, "## Turn limit\n");
    let limit = game.turn_limit;
    let _ = writeln!(
        out,
        "The game is a draw when {limit} half-moves ({} by white, {} by black) have been played \
         and nobody has won.\n",
        limit.div_ceil(2),
        limit / 2
    );
    let _ = writeln!(out, "## Rules complexity\n");
    let _ = writeln!(
        out,
        "NLD score {} (equation (3) of the NLD paper by Kowalski et al.: the mean piece \
         complexity over the initial position times 10 plus the number of piece types; lower \
         is easier to learn).",
        number(description.score)
    );
    out
}

fn board_section(out: &mut String, game: &SbgGame) {
    let _ = writeln!(out, "## Board\n");
    let _ = writeln!(
        out,
        "{} columns by {} rows. White's pieces are the uppercase letters and start at the \
         bottom, black's are the lowercase ones at the top; forward is up for white and down \
         for black.\n",
        game.width, game.height
    );
    let width = game.width as usize;
    let label_width = game.height.to_string().len();
    let border = format!("{} +{}+", " ".repeat(label_width), "-".repeat(width));
    let _ = writeln!(out, "```text\n{border}");
    for (row, cells) in game.cells.chunks(width.max(1)).enumerate() {
        let rank = (game.height as usize).saturating_sub(row);
        let squares: String = cells.iter().map(|cell| cell.map_or('.', letter_of)).collect();
        let _ = writeln!(out, "{rank:>label_width$} |{squares}|");
    }
    let _ = writeln!(out, "{border}");
    if game.width <= 26 {
        let files: String = (0..game.width).map(file_letter).collect();
        let _ = writeln!(out, "{}  {files}", " ".repeat(label_width));
    }
    let _ = writeln!(out, "```\n");
}

fn letter_of(piece: Piece) -> char {
    let letter = char::from(piece.kind);
    match piece.side {
        Side::White => letter,
        Side::Black => letter.to_ascii_lowercase(),
    }
}

fn file_letter(x: u32) -> char {
    char::from_u32('a' as u32 + x).unwrap_or('?')
}

/// A square as on the drawn board: file letter and rank (`a1` is the bottom left), or
/// `(x, y)` on boards wider than the alphabet.
fn square_name(game: &SbgGame, (x, y): (u32, u32)) -> String {
    if game.width <= 26 {
        format!("{}{}", file_letter(x), u64::from(y) + 1)
    } else {
        format!("({x}, {y})")
    }
}

fn pieces_section(out: &mut String, description: &GameDescription) {
    let _ = writeln!(out, "## Pieces\n");
    let _ = writeln!(out, "| Piece | On the board | How it moves | Complexity |");
    let _ = writeln!(out, "|---|---|---|---|");
    for piece in &description.pieces {
        let _ = writeln!(
            out,
            "| {} / {} | {} | {} | {} |",
            piece.letter,
            piece.letter.to_ascii_lowercase(),
            piece.count,
            piece_text(piece),
            number(piece.complexity)
        );
    }
    let _ = writeln!(
        out,
        "\nDirections are the moving player's: forward is towards the opponent. Unless its \
         description says otherwise a piece ends its move on an empty square or on an \
         opponent's piece (capturing it), and a rider passes over empty squares only.\n"
    );
}

fn piece_text(piece: &PieceDescription) -> String {
    // Pipes would end the table cell.
    piece.sentence.replace('|', "\\|")
}

fn goals_section(out: &mut String, game: &SbgGame) {
    let _ = writeln!(out, "## Goals\n");
    let _ = writeln!(out, "- A player who has no legal move on their turn loses.");
    for goal in &game.goals {
        let _ = writeln!(out, "- {}", goal_text(game, goal));
    }
    let _ = writeln!(out);
}

fn goal_text(game: &SbgGame, goal: &Goal) -> String {
    match goal {
        Goal::Reach { piece, squares, .. } => {
            let names: Vec<String> = squares.iter().map(|&s| square_name(game, s)).collect();
            format!(
                "{} wins when one of its {} pieces stands on {}.",
                capital(piece.side.name()),
                letter_of(*piece),
                or_list(&names)
            )
        }
        Goal::Count { piece, count, .. } => {
            let left = if *count == 0 { "no".to_string() } else { format!("at most {count}") };
            format!(
                "{} loses when it has {left} {} pieces left.",
                capital(piece.side.name()),
                letter_of(*piece)
            )
        }
    }
}

fn capital(word: &str) -> String {
    let mut chars = word.chars();
    chars.next().map(|c| c.to_uppercase().chain(chars).collect()).unwrap_or_default()
}

fn or_list(items: &[String]) -> String {
    match items {
        [] => "no square".into(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}
