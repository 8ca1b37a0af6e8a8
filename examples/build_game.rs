//! A game from another input language: a tiny description language ("stones") is translated
//! into RBG text with `rbg_parser::generate::RbgWriter`, read by the ordinary parser and played
//! by the interpreter. Errors the RBG parser finds are reported at the stones source.
//!
//! The stones language has two lines:
//!
//! ```text
//! width 4
//! players red blue
//! ```
//!
//! The board is one row of `width` empty cells; the players take turns, in the order given,
//! putting a stone on any empty cell; the game ends when the row is full. So perft at depth `d`
//! is the number of ways to fill `d` of the `width` cells in order, `width! / (width - d)!`
//! (1, 4, 12, 24, 24 for width 4), and 0 beyond `width`. The example checks that.
//!
//! ```sh
//! cargo run --release --example build_game
//! ```

use rbg_core::perft::{perft, PerftOptions};
use rbg_interp::{InterpOptions, Interpreter};
use rbg_parser::diag::Diagnostic;
use rbg_parser::generate::RbgWriter;
use rbg_parser::source::{SourceFile, Span};

/// A word of the stones source and where it is.
struct Word<'a> {
    text: &'a str,
    span: Span,
}

/// The words of each line (split at spaces).
fn words(source: &str) -> Vec<Vec<Word<'_>>> {
    let mut lines = Vec::new();
    let mut line_start = 0;
    for line in source.split_inclusive('\n') {
        let mut line_words = Vec::new();
        let mut offset = line_start;
        for piece in line.split(' ') {
            let text = piece.trim_end_matches(['\n', '\r']);
            if !text.is_empty() {
                line_words.push(Word { text, span: Span::new(offset as u32, (offset + text.len()) as u32) });
            }
            offset += piece.len() + 1;
        }
        lines.push(line_words);
        line_start += line.len();
    }
    lines
}

/// Translates a stones description into RBG text; errors of the stones language itself are
/// reported directly, everything else is left to the RBG parser.
fn translate(source: &str) -> Result<RbgWriter, Diagnostic> {
    let mut width = None;
    let mut players: Vec<Word> = Vec::new();
    for line in words(source) {
        let Some((keyword, rest)) = line.split_first() else { continue };
        match keyword.text {
            "width" => {
                let value = rest.first().and_then(|w| w.text.parse::<usize>().ok().map(|n| (n, w.span)));
                width =
                    Some(value.ok_or_else(|| {
                        Diagnostic::error("'width' wants a whole number", Some(keyword.span))
                    })?);
            }
            "players" => players.extend(line.into_iter().skip(1)),
            _ => {
                return Err(Diagnostic::error(format!("unknown line '{}'", keyword.text), Some(keyword.span)))
            }
        }
    }
    let (width, width_span) = width.ok_or_else(|| Diagnostic::error("no 'width' line", None))?;
    let mut rbg = RbgWriter::new();
    rbg.push("#players = ");
    for (i, player) in players.iter().enumerate() {
        rbg.push(if i == 0 { "" } else { ", " }).push_from(player.text, player.span).push("(1)");
    }
    rbg.push("\n#pieces = empty, stone\n#variables =\n#board = rectangle(up,down,left,right, [");
    // The whole row stands for the `width` number.
    rbg.push_from(&vec!["empty"; width].join(","), width_span).push("])\n");
    rbg.push("#place = (left)* (right)* {empty} [stone]\n#rules = (");
    for player in &players {
        rbg.push(" ->").push_from(player.text, player.span).push(" place");
    }
    rbg.push(" )*\n");
    Ok(rbg)
}

/// Prints diagnostics in the reference style, positions in `file`.
fn report(file: &SourceFile, diagnostics: &[Diagnostic]) {
    for d in diagnostics {
        println!("{}", d.reference_text(file));
        for label in &d.labels {
            let (line, col) = file.line_col(label.span.start);
            println!("    line {line}, character {col}: {}", label.message);
        }
        for note in &d.notes {
            println!("    note: {note}");
        }
    }
}

/// width! / (width - depth)!, or 0 beyond the width.
fn expected_leaves(width: u64, depth: u64) -> u64 {
    if depth > width {
        return 0;
    }
    (width - depth + 1..=width).product()
}

fn main() {
    let stones = "width 4\nplayers red blue\n";
    let rbg = translate(stones).expect("a valid stones description");
    println!("generated RBG:\n{}", rbg.text());
    let generated = rbg.parse("stones.rbg");
    let game = generated.game.expect("the generated game is valid");
    let interpreter = Interpreter::new(&game, "stones", InterpOptions::default()).expect("a program");
    for depth in 0..=5 {
        let leaves = perft(&interpreter, depth, &PerftOptions::default()).expect("perft").leaves;
        println!("perft {depth}: {leaves}");
        assert_eq!(leaves, expected_leaves(4, depth as u64), "depth {depth}");
    }

    // A player named like a piece: the RBG parser's error is about the generated text, and
    // mapped back it points at the word in the stones source.
    let bad = "width 3\nplayers red empty\n";
    let rbg = translate(bad).expect("the stones language itself is fine with it");
    let generated = rbg.parse("stones.rbg");
    assert!(generated.game.is_none());
    let source = SourceFile::new("bad.stones", bad);
    println!("\nerrors in bad.stones:");
    report(&source, &generated.mapped);
    let error = generated.mapped.last().expect("an error");
    let word = bad.find("empty").expect("the word") as u32;
    assert_eq!(error.span, Some(Span::new(word, word + 5)));
}
