//! rbg-ide: the 75 corpus games through the formatter (the lowered text, shared/conformance,
//! is kept; formatting twice changes nothing) and the analysis; definitions, references,
//! renames, hovers, completions and quick fixes on a small game with expectations read off
//! its text; random edits that never panic.

use std::time::Instant;

use proptest::prelude::*;
use rbg_ide::format::format;
use rbg_ide::{Analysis, SymbolKind, TokenClass};
use rbg_parser::print::print_game;
use rbg_parser::source::Span;

const GAMES_IN_CORPUS: usize = 75;

fn corpus() -> Option<Vec<(String, String)>> {
    let dir = rbg_testdata::corpus()?;
    let games: Vec<(String, String)> = rbg_testdata::corpus_games(&dir)
        .into_iter()
        .map(|g| (g.name.clone(), String::from_utf8(g.bytes()).expect("corpus games are UTF-8")))
        .collect();
    assert_eq!(games.len(), GAMES_IN_CORPUS);
    Some(games)
}

fn lowered(name: &str, text: &str) -> Result<String, String> {
    let out = rbg_parser::parse(name, text.as_bytes());
    match &out.game {
        Some(game) => Ok(print_game(game)),
        None => {
            Err(out.diagnostics.iter().map(|d| d.reference_text(&out.source)).collect::<Vec<_>>().join("\n"))
        }
    }
}

#[test]
fn formatting_the_corpus_keeps_the_lowered_text_and_is_idempotent() {
    let Some(games) = corpus() else { return };
    let conformance = rbg_testdata::conformance();
    let mut failures = Vec::new();
    for (name, text) in &games {
        let formatted = match format(text) {
            Ok(formatted) => formatted,
            Err(e) => {
                failures.push(format!("{name}: {}", e.message));
                continue;
            }
        };
        let expected = match &conformance {
            Some(dir) => std::fs::read_to_string(dir.join("lowered").join(format!("{name}.rbg"))).unwrap(),
            None => lowered(name, text).unwrap(),
        };
        match lowered(name, &formatted) {
            Ok(got) if got == expected => {}
            Ok(_) => failures.push(format!("{name}: the formatted game lowers differently")),
            Err(e) => failures.push(format!("{name}: the formatted game does not parse: {e}")),
        }
        match format(&formatted) {
            Ok(again) if again == formatted => {}
            Ok(again) => {
                let line = formatted.lines().zip(again.lines()).position(|(a, b)| a != b);
                failures.push(format!("{name}: formatting twice changes line {line:?}"));
            }
            Err(e) => failures.push(format!("{name}: formatting the formatted text fails: {}", e.message)),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn corpus_games_analyse_without_diagnostics_and_quickly() {
    let Some(games) = corpus() else { return };
    let mut slowest = (0.0, String::new());
    for (name, text) in &games {
        let start = Instant::now();
        let analysis = Analysis::new(&format!("{name}.rbg"), text);
        let seconds = start.elapsed().as_secs_f64();
        if seconds > slowest.0 {
            slowest = (seconds, name.clone());
        }
        assert!(analysis.diagnostics().is_empty(), "{name}: {:?}", analysis.diagnostics());
        assert!(analysis.game().is_some(), "{name}");
        // Every written reference's span spells its symbol's name.
        for reference in analysis.symbols().references.iter().filter(|r| !r.pasted) {
            let symbol = &analysis.symbols().symbols[reference.symbol];
            let written = &text[reference.span.start as usize..reference.span.end as usize];
            assert_eq!(written, symbol.name, "{name}");
        }
    }
    eprintln!("slowest analysis: {} in {:.1} ms", slowest.1, slowest.0 * 1e3);
}

/// A small game; the expectations below are read off this text by hand.
const GAME: &str = "\
#players = white(100), black(100)
#pieces = empty, wPawn, bPawn
#variables = turns(10)
#board = rectangle(up, down, left, right, [empty, empty] [wPawn, bPawn])
#step(piece; dir) = {piece} [empty] dir [piece]
#rules = ->white (step(wPawn; up) ->black step(bPawn; down) [$ turns = turns + 1])*
";

/// The span of the `n`-th (0-based) occurrence of `what` in `text` as a whole word (or as a
/// whole, if it is not a word).
fn nth(text: &str, what: &str, n: usize) -> Span {
    let word = |b: Option<&u8>| b.is_some_and(|b| b.is_ascii_alphanumeric());
    let is_word = what.bytes().all(|b| b.is_ascii_alphanumeric());
    let start = text
        .match_indices(what)
        .map(|(i, _)| i)
        .filter(|&i| {
            !is_word
                || (!word(text.as_bytes().get(i.wrapping_sub(1)))
                    && !word(text.as_bytes().get(i + what.len())))
        })
        .nth(n)
        .unwrap_or_else(|| panic!("{what} #{n}")) as u32;
    Span::new(start, start + what.len() as u32)
}

fn analyse(text: &str) -> Analysis {
    Analysis::new("game.rbg", text)
}

#[test]
fn the_small_game_is_valid() {
    let analysis = analyse(GAME);
    assert!(analysis.diagnostics().is_empty(), "{:?}", analysis.diagnostics());
}

#[test]
fn definition_of_a_piece_passed_to_a_macro() {
    let analysis = analyse(GAME);
    // `wPawn` in `step(wPawn; up)` is the 3rd occurrence; it is declared in #pieces (the 1st).
    let use_site = nth(GAME, "wPawn", 2);
    assert_eq!(analysis.definition(use_site.start + 1), Some(nth(GAME, "wPawn", 0)));
}

#[test]
fn references_of_a_parameter_and_of_a_macro() {
    let analysis = analyse(GAME);
    // `piece`: the parameter and its two uses in the body.
    let spans: Vec<Span> = analysis.references(nth(GAME, "piece", 0).start).iter().map(|r| r.span).collect();
    assert_eq!(spans, [nth(GAME, "piece", 0), nth(GAME, "piece", 1), nth(GAME, "piece", 2)]);
    // `step`: its definition and the two calls.
    let spans: Vec<Span> = analysis.references(nth(GAME, "step", 2).start).iter().map(|r| r.span).collect();
    assert_eq!(spans, [nth(GAME, "step", 0), nth(GAME, "step", 1), nth(GAME, "step", 2)]);
}

fn apply(text: &str, mut edits: Vec<rbg_ide::TextEdit>) -> String {
    edits.sort_by_key(|e| std::cmp::Reverse(e.span.start));
    edits.iter().fold(text.to_string(), |t, e| rbg_ide::apply_edit(&t, e.span, &e.text))
}

#[test]
fn renaming_a_piece_renames_it_in_every_section_and_macro_argument() {
    let analysis = analyse(GAME);
    let edits = analysis.rename(nth(GAME, "wPawn", 1).start, "whitePawn").expect("a rename");
    // Declared in #pieces, placed on the board, passed to `step` in the rules.
    let spans: Vec<Span> = edits.iter().map(|e| e.span).collect();
    assert_eq!(spans, [nth(GAME, "wPawn", 0), nth(GAME, "wPawn", 1), nth(GAME, "wPawn", 2)]);
    let renamed = apply(GAME, edits);
    // The same game: its lowered text is the old one with the name replaced (the sorted order
    // of the pieces, bPawn < empty < whitePawn, is unchanged).
    let before = print_game(analysis.game().unwrap()).replace("wPawn", "whitePawn");
    assert_eq!(print_game(analyse(&renamed).game().expect("valid after the rename")), before);
}

#[test]
fn renaming_a_parameter_stays_in_its_macro() {
    let analysis = analyse(GAME);
    let edits = analysis.rename(nth(GAME, "dir", 1).start, "way").expect("a rename");
    assert_eq!(edits.iter().map(|e| e.span).collect::<Vec<_>>(), [nth(GAME, "dir", 0), nth(GAME, "dir", 1)]);
}

#[test]
fn renames_that_would_change_the_game_are_refused() {
    let analysis = analyse(GAME);
    let at = nth(GAME, "wPawn", 0).start;
    assert!(analysis.rename(at, "bPawn").is_err(), "a name in use");
    assert!(analysis.rename(at, "2x").is_err(), "not an identifier");
    assert!(analysis.rename(at, "rules").is_err(), "a keyword");
    // A name made by pasting cannot be renamed where it is not written.
    let pasted = GAME
        .replace("#pieces = empty, wPawn, bPawn", "#colored(c) = c~Pawn\n#pieces = empty, colored(w), bPawn");
    let analysis = analyse(&pasted);
    assert!(analysis.diagnostics().is_empty(), "{:?}", analysis.diagnostics());
    let error = analysis.rename(nth(&pasted, "wPawn", 0).start, "whitePawn").unwrap_err();
    assert!(error.message.contains("pasting"), "{}", error.message);
    // Its references include the pasted one, at the `w` of `colored(w)`.
    let references = analysis.references(nth(&pasted, "wPawn", 0).start);
    assert!(references.iter().any(|r| r.pasted && r.span == nth(&pasted, "w", 0)), "{references:?}");
}

#[test]
fn hover_shows_a_call_expansion_and_the_lowered_rule() {
    let analysis = analyse(GAME);
    let call = nth(GAME, "step", 1);
    let hover = analysis.hover(call.start).expect("a hover");
    assert_eq!(hover.span, call);
    assert!(hover.text.contains("#step(piece; dir)"), "{}", hover.text);
    // The body `{piece} [empty] dir [piece]` with piece = wPawn, dir = up.
    assert!(hover.text.contains("{wPawn} [empty] up [wPawn]"), "{}", hover.text);
    // The innermost parenthesised rule around the call is the starred one, printed as spec
    // 14.2 says: children back to back, a shift with one space after it, a switch `->name `,
    // an assignment `[$ v=expr]`.
    let lowered = "{wPawn}[empty]up [wPawn]->black {bPawn}[empty]down [bPawn][$ turns=turns+1]";
    assert!(hover.text.contains(lowered), "{}", hover.text);
    // Inside the body of `step` (it has parameters): the body lowered as its first call,
    // `step(wPawn; up)` on line 6, column 19, expands it: `{wPawn}[empty]up [wPawn]`.
    let hover = analysis.hover(nth(GAME, "empty", 3).start).expect("a hover");
    assert!(hover.text.contains("as expanded at the call on line 6, column 19"), "{}", hover.text);
    assert!(hover.text.contains("```rbg\n{wPawn}[empty]up [wPawn]\n```"), "{}", hover.text);
    let hover = analysis.hover(nth(GAME, "turns", 0).start).expect("a hover");
    assert!(hover.text.contains("variable `turns`, from 0 to 10"), "{}", hover.text);
    let hover = analysis.hover(nth(GAME, "wPawn", 0).start).expect("a hover");
    assert!(hover.text.contains("on 1 of the 4 vertices"), "{}", hover.text);
}

#[test]
fn completion_offers_names_and_macros_with_parameters() {
    let text = GAME.replace("[$ turns = turns + 1])*", "[$ turns = turns + 1] st)*");
    let analysis = analyse(&text);
    let at = nth(&text, " st)", 0).start + 3;
    let items = analysis.completions(at);
    assert_eq!(items.iter().map(|c| c.label.as_str()).collect::<Vec<_>>(), ["step"]);
    assert_eq!(items[0].insert, "step(${1:piece}; ${2:dir})");
    assert!(items[0].snippet);
    // After `{` the pieces come first.
    let text = GAME.replace("[$ turns = turns + 1])*", "[$ turns = turns + 1] {)*");
    let items = analyse(&text).completions(nth(&text, " {)", 0).start + 2);
    let first: Vec<&str> = items.iter().take(3).map(|c| c.label.as_str()).collect();
    assert_eq!(first, ["bPawn", "empty", "wPawn"]);
    // After `#` the sections.
    let items = analyse("#pl").completions(3);
    assert_eq!(items.iter().map(|c| c.label.as_str()).collect::<Vec<_>>(), ["players"]);
}

/// The text with the one quick fix of its one diagnostic applied.
fn fixed(text: &str) -> String {
    let analysis = analyse(text);
    let diagnostics = analysis.diagnostics();
    let fixes: Vec<_> = diagnostics.iter().flat_map(|d| d.fixes.clone()).collect();
    assert_eq!(fixes.len(), 1, "{diagnostics:?}");
    apply(text, fixes[0].edits.clone())
}

#[test]
fn quick_fixes_bar_unknown_piece_and_missing_bracket() {
    let bar = GAME.replace("->black step", "->black (up | down) step");
    assert_eq!(fixed(&bar), GAME.replace("->black step", "->black (up + down) step"));
    let typo = GAME.replace("step(wPawn; up)", "step(wPawm; up)");
    assert_eq!(fixed(&typo), GAME);
    let unclosed = GAME.replace("[empty, empty] [wPawn", "[empty, empty [wPawn");
    // The `]` goes right after the last cell of the row.
    assert_eq!(fixed(&unclosed), GAME);
}

#[test]
fn an_error_in_a_macro_body_points_back_at_the_call() {
    let text = GAME.replace("#rules = ->white (", "#bad = {nothing}\n#rules = ->white (bad ");
    let analysis = analyse(&text);
    let error = analysis.diagnostics().into_iter().find(|d| d.severity == rbg_ide::Severity::Error).unwrap();
    assert_eq!(error.span, nth(&text, "nothing", 0));
    assert_eq!(error.related.iter().map(|r| r.span).collect::<Vec<_>>(), [nth(&text, "bad", 1)]);
}

#[test]
fn outline_and_highlights() {
    let analysis = analyse(GAME);
    let outline = analysis.outline();
    let names: Vec<&str> = outline.iter().map(|i| i.name.as_str()).collect();
    assert_eq!(names, ["#players", "#pieces", "#variables", "#board", "#step", "#rules"]);
    let pieces: Vec<&str> = outline[1].children.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(pieces, ["empty", "wPawn", "bPawn"]);
    let highlights = analysis.highlights();
    let class_at = |span: Span| highlights.iter().find(|h| h.span == span).map(|h| h.class);
    assert_eq!(class_at(nth(GAME, "wPawn", 2)), Some(TokenClass::Symbol(SymbolKind::Piece)));
    assert_eq!(class_at(nth(GAME, "step", 1)), Some(TokenClass::Symbol(SymbolKind::Macro)));
    assert_eq!(class_at(nth(GAME, "dir", 1)), Some(TokenClass::Symbol(SymbolKind::Parameter)));
    assert_eq!(class_at(nth(GAME, "black", 1)), Some(TokenClass::Symbol(SymbolKind::Player)));
}

#[test]
fn sbg_files_get_their_diagnostics() {
    let analysis = Analysis::new("game.sbg", "<<name>> this is not SBG");
    assert!(analysis.diagnostics().iter().any(|d| d.severity == rbg_ide::Severity::Error));
}

#[test]
fn the_formatter_keeps_comments_and_separates_what_must_stay_apart() {
    let text = "// head\n#a   =   x-  >y  // tail\n\n\n\n#b(p;q)=( p\n+ q )  /* c */\n";
    let formatted = format(text).unwrap();
    // A continuation line: one level for the directive, one for the open `(`.
    assert_eq!(formatted, "// head\n#a = x - > y // tail\n\n#b(p; q) = (p\n        + q) /* c */\n");
    assert_eq!(format(&formatted).unwrap(), formatted);
    // Board rows on lines of their own line up in columns: column 0 is as wide as `wPawn`,
    // column 1 as `wKing`, column 2 as `e`.
    let board = "#board = rectangle(up, down, left, right,\n [e, wKing,e]\n [wPawn,e, e])\n";
    let aligned =
        "#board = rectangle(up, down, left, right,\n        [e    , wKing, e]\n        [wPawn, e    , e])\n";
    assert_eq!(format(board).unwrap(), aligned);
    assert_eq!(format(aligned).unwrap(), aligned);
    let error = format("#rules = (up | down)").unwrap_err();
    assert_eq!(error.span, Some(Span::new(13, 14)));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Random edits of a corpus game (or of the small game without the corpus): every
    /// question gets an answer and nothing panics.
    #[test]
    fn random_edits_never_panic(
        game in 0usize..3,
        edits in proptest::collection::vec((any::<u16>(), 0u32..6, proptest::sample::select(FRAGMENTS.to_vec())), 1..4),
        at in any::<u16>(),
    ) {
        let text = match rbg_testdata::corpus() {
            Some(dir) => std::fs::read_to_string(dir.join(["ticTacToe.rbg", "chess.rbg", "arimaa.rbg"][game])).unwrap(),
            None => GAME.to_string(),
        };
        let mut analysis = analyse(&text);
        for (start, length, insert) in edits {
            let start = u32::from(start) % (analysis.source().bytes.len() as u32 + 1);
            analysis = analysis.edited(Span::new(start, start + length), insert);
        }
        let at = u32::from(at) % (analysis.source().bytes.len() as u32 + 2);
        let _ = (analysis.diagnostics(), analysis.outline(), analysis.highlights());
        let _ = (analysis.hover(at), analysis.completions(at), analysis.references(at), analysis.definition(at));
        let _ = analysis.rename(at, "fresh");
        if let Ok(formatted) = format(&analysis.text()) {
            prop_assert_eq!(format(&formatted), Ok(formatted.clone()), "formatting twice");
        }
    }
}

/// What random edits insert: brackets, operators, names, pasting, directives, strings,
/// comments, line breaks, non-ASCII.
const FRAGMENTS: [&str; 21] = [
    "", "(", ")", "[", "]", "{", "}", "~", "#", ";", ",", "->", "x", "up", "é", "\u{0}", "\"", "/*", "//",
    "\n", " ",
];

/// A small SBG game: a king each (`K` has a rule), a rook `r` without one.
const SBG: &str = "\
<<Duel>>
<BOARD> 3 3
|..k|
|.r.|
|K..|
<PIECES>
K (0,1,e) + (1,0,e) &
<GOALS>
6 &
#K 0 &
#k 0 &
";

/// Every `.sbg` file under `games/` (the SBG games and the NLD examples).
fn sbg_games() -> Vec<(std::path::PathBuf, String)> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../games/sbg");
    let mut out = Vec::new();
    let mut dirs = vec![root];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).expect("games/sbg").flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "sbg") {
                out.push((path.clone(), std::fs::read_to_string(&path).expect("SBG games are UTF-8")));
            }
        }
    }
    out.sort();
    out
}

/// The low-level text of an SBG file's RBG translation: equal texts mean the same game.
fn sbg_lowered(name: &str, text: &str) -> String {
    let parsed = rbg_sbg::file::parse_file(std::path::Path::new(name), text.as_bytes().to_vec());
    print_game(parsed.game.as_ref().unwrap_or_else(|| panic!("{name} is valid: {:?}", parsed.diagnostics)))
}

/// Spaces added inside lines without comments: around `(`, `,`, `|`, `&`, `+` and `^`.
fn messy(text: &str) -> String {
    let mut in_comment = false;
    text.lines()
        .map(|line| {
            let was_in_comment = in_comment;
            in_comment = (in_comment || line.contains("/*")) && !line.contains("*/");
            if was_in_comment || line.contains("//") || line.contains("/*") {
                return line.to_string();
            }
            let mut out = String::new();
            for c in line.chars() {
                match c {
                    '(' | ',' | '|' | '&' | '+' | '^' => out.extend([' ', c, ' ']),
                    _ => out.push(c),
                }
            }
            out
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn formatting_the_sbg_games_keeps_the_game_and_is_idempotent() {
    let games = sbg_games();
    assert!(games.len() >= 25, "{} games", games.len());
    for (path, text) in &games {
        let name = path.display().to_string();
        let formatted = rbg_ide::format::format_as(rbg_ide::Language::Sbg, text).unwrap();
        assert_eq!(sbg_lowered(&name, &formatted), sbg_lowered(&name, text), "{name}");
        let again = rbg_ide::format::format_as(rbg_ide::Language::Sbg, &formatted).unwrap();
        assert_eq!(again, formatted, "{name}: formatting twice");
        let spaced = messy(text);
        assert_ne!(spaced, *text);
        assert_eq!(rbg_ide::format::format_as(rbg_ide::Language::Sbg, &spaced).unwrap(), formatted, "{name}");
    }
}

#[test]
fn sbg_pieces_are_symbols_with_definitions_references_and_hover() {
    let analysis = Analysis::new("duel.sbg", SBG);
    assert!(analysis.diagnostics().is_empty(), "{:?}", analysis.diagnostics());
    // `k` on the board is the piece type K, defined by the letter of its rule.
    let rule_letter = nth(SBG, "K", 1);
    assert_eq!(analysis.definition(nth(SBG, "k", 0).start), Some(rule_letter));
    // K is written five times: `k` and `K` on the board, its rule, `#K` and `#k`.
    let spans: Vec<Span> = analysis.references(rule_letter.start).iter().map(|r| r.span).collect();
    let expected = [
        nth(SBG, "k", 0),
        nth(SBG, "K", 0),
        rule_letter,
        Span::new(nth(SBG, "#K", 0).start + 1, nth(SBG, "#K", 0).end),
        Span::new(nth(SBG, "#k", 0).start + 1, nth(SBG, "#k", 0).end),
    ];
    assert_eq!(spans, expected);
    // The rook has no rule: its definition is where it stands.
    assert_eq!(analysis.definition(nth(SBG, "r", 0).start), Some(nth(SBG, "r", 0)));
    let hover = analysis.hover(nth(SBG, "K", 0).start).expect("a hover");
    assert_eq!(hover.span, nth(SBG, "K", 0));
    assert!(hover.text.contains("on the board at the start 1 white, 1 black"), "{}", hover.text);
    assert!(hover.text.contains("K (0,1,e) + (1,0,e) &"), "{}", hover.text);
    assert!(hover.text.contains("NLD complexity"), "{}", hover.text);
    let rook = analysis.hover(nth(SBG, "r", 0).start).expect("a hover").text;
    assert!(rook.contains("0 white, 1 black") && rook.contains("never move"), "{rook}");
    assert!(analysis.rename(rule_letter.start, "Q").is_err(), "renaming is for RBG");
}

#[test]
fn sbg_outline_completion_and_highlights() {
    let analysis = Analysis::new("duel.sbg", SBG);
    let outline = analysis.outline();
    let names: Vec<&str> = outline.iter().map(|i| i.name.as_str()).collect();
    assert_eq!(names, ["<<Duel>>", "<BOARD>", "<PIECES>", "<GOALS>"]);
    assert_eq!(outline[1].detail, "3 × 3");
    assert_eq!(outline[1].children.iter().map(|c| c.name.as_str()).collect::<Vec<_>>(), ["R"]);
    assert_eq!(outline[2].children.len(), 1);
    assert_eq!(
        (outline[2].children[0].name.as_str(), outline[2].children[0].detail.as_str()),
        ("K", "(0,1,e) + (1,0,e)")
    );
    assert_eq!(outline[3].detail, "turn limit 6");
    // After `#` in a goal: both colours of both types; at the start of a rule: white only.
    let labels =
        |offset: u32| -> Vec<String> { analysis.completions(offset).into_iter().map(|c| c.label).collect() };
    assert_eq!(labels(nth(SBG, "#k", 0).start + 1), ["K", "R", "k", "r"]);
    assert_eq!(labels(nth(SBG, "K (", 0).start), ["K", "R"]);
    assert_eq!(labels(nth(SBG, "1,0", 0).start), Vec::<String>::new());
    let highlights = analysis.highlights();
    let class_at = |span: Span| highlights.iter().find(|h| h.span == span).map(|h| (h.class, h.definition));
    assert_eq!(class_at(nth(SBG, "k", 0)), Some((TokenClass::Symbol(SymbolKind::Piece), false)));
    assert_eq!(class_at(nth(SBG, "K", 1)), Some((TokenClass::Symbol(SymbolKind::Piece), true)));
    assert_eq!(class_at(nth(SBG, "<PIECES>", 0)), Some((TokenClass::Keyword, false)));
    assert_eq!(class_at(nth(SBG, "e", 0)), Some((TokenClass::Keyword, false)));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Random edits of an SBG game: every question gets an answer, nothing panics, and what
    /// formats formats to itself again.
    #[test]
    fn random_sbg_edits_never_panic(
        edits in proptest::collection::vec((any::<u16>(), 0u32..6, proptest::sample::select(SBG_FRAGMENTS.to_vec())), 1..4),
        at in any::<u16>(),
    ) {
        let mut analysis = Analysis::new("duel.sbg", SBG);
        for (start, length, insert) in edits {
            let start = u32::from(start) % (analysis.source().bytes.len() as u32 + 1);
            analysis = analysis.edited(Span::new(start, start + length), insert);
        }
        let at = u32::from(at) % (analysis.source().bytes.len() as u32 + 2);
        let _ = (analysis.diagnostics(), analysis.outline(), analysis.highlights());
        let _ = (analysis.hover(at), analysis.completions(at), analysis.references(at), analysis.definition(at));
        if let Ok(formatted) = analysis.format() {
            let again = rbg_ide::format::format_as(rbg_ide::Language::Sbg, &formatted);
            prop_assert_eq!(again, Ok(formatted.clone()), "formatting twice");
        }
    }
}

/// What random SBG edits insert.
const SBG_FRAGMENTS: [&str; 18] =
    ["", "(", ")", "|", "&", "+", "^", "*", ",", "-", "k", "<<", ">>", "<GOALS>", "é", "/*", "//", "\n"];
