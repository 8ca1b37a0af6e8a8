//! The 75 corpus games against the reference parser's output (shared/conformance):
//! byte-exact lowered text, a printing fixed point, the four straightness figures, and speed.

mod corpus_support;

use std::collections::HashMap;

use rbg_parser::ir::{Game, Straightness};
use rbg_parser::print::print_game;
use rbg_parser::{parse, ParseOutput};

const GAMES_IN_CORPUS: usize = 75;

/// Reads a game and insists on no diagnostic at all (no error, no warning).
fn parse_cleanly(name: &str, bytes: &[u8]) -> Result<Game, String> {
    let ParseOutput { source, game, diagnostics } = parse(name, bytes);
    if let Some(d) = diagnostics.first() {
        return Err(format!("{name}: {}", d.reference_text(&source)));
    }
    game.ok_or_else(|| format!("{name}: no game and no diagnostic"))
}

/// A game's path relative to the corpus (e.g. `nsplit/pentago_nsplit.rbg`) and its bytes.
type NamedGame = (String, Vec<u8>);

/// The corpus games, or `None` (after a note) when the corpus is absent
/// outside CI.
fn games() -> Option<Vec<NamedGame>> {
    let corpus = corpus_support::corpus()?;
    let games = corpus_support::corpus_games(&corpus);
    assert_eq!(games.len(), GAMES_IN_CORPUS, "games found in {}", corpus.display());
    Some(games)
}

/// Fails with every problem listed, one per line.
fn assert_no_failures(what: &str, failures: &[String]) {
    assert!(
        failures.is_empty(),
        "{what}: {} of {GAMES_IN_CORPUS} games fail:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The first differing line, to keep failure messages short.
fn first_difference(ours: &str, reference: &str) -> String {
    let line = ours.lines().zip(reference.lines()).position(|(a, b)| a != b);
    match line {
        Some(i) => format!(
            "line {}: ours {:?}, reference {:?}",
            i + 1,
            ours.lines().nth(i).unwrap_or(""),
            reference.lines().nth(i).unwrap_or("")
        ),
        None => format!("lengths differ: ours {} bytes, reference {} bytes", ours.len(), reference.len()),
    }
}

#[test]
fn every_game_lowers_byte_for_byte_as_the_reference() {
    let Some(games) = games() else { return };
    let lowered = corpus_support::lowered_dir();
    let mut failures = Vec::new();
    for (name, bytes) in &games {
        let reference = std::fs::read_to_string(lowered.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        match parse_cleanly(name, bytes) {
            Ok(game) => {
                let ours = print_game(&game);
                if ours != reference {
                    failures.push(format!("{name}: {}", first_difference(&ours, &reference)));
                }
            }
            Err(e) => failures.push(e),
        }
    }
    assert_no_failures("lowered text", &failures);
}

/// Spec 14.4 lists outputs the reference cannot read back (edge-less vertices, stars over
/// actions, empty alternatives); no corpus game produces one, so every printed game must read
/// back to the same text.
#[test]
fn printed_games_read_back_to_the_same_text() {
    let Some(games) = games() else { return };
    let mut failures = Vec::new();
    for (name, bytes) in &games {
        let printed = match parse_cleanly(name, bytes) {
            Ok(game) => print_game(&game),
            Err(e) => {
                failures.push(e);
                continue;
            }
        };
        match parse_cleanly(name, printed.as_bytes()) {
            Ok(again) if print_game(&again) == printed => {}
            Ok(again) => {
                failures.push(format!("{name}: {}", first_difference(&print_game(&again), &printed)))
            }
            Err(e) => failures.push(format!("reprinted {e}")),
        }
    }
    assert_no_failures("fixed point", &failures);
}

/// The reference's own lowered files are valid input and print unchanged.
#[test]
fn reference_lowered_files_print_unchanged() {
    let Some(games) = games() else { return };
    let lowered = corpus_support::lowered_dir();
    let mut failures = Vec::new();
    for (name, _) in &games {
        let reference = std::fs::read_to_string(lowered.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        match parse_cleanly(name, reference.as_bytes()) {
            Ok(game) if print_game(&game) == reference => {}
            Ok(game) => {
                failures.push(format!("{name}: {}", first_difference(&print_game(&game), &reference)))
            }
            Err(e) => failures.push(e),
        }
    }
    assert_no_failures("reference lowered files", &failures);
}

/// `game,verification,applicational,main,move,semimove` rows keyed by game (e.g. `nsplit/x`).
fn reference_straightness() -> HashMap<String, Straightness> {
    let path = rbg_testdata::conformance_dir().join("straightness.csv");
    let mut rows = HashMap::new();
    for fields in rbg_testdata::read_csv(&path) {
        let [game, _verification, app, main, moves, semimoves] = fields.as_slice() else {
            panic!("malformed row {fields:?}");
        };
        let number = |f: &str| f.parse::<i64>().unwrap_or_else(|e| panic!("{fields:?}: {e}"));
        let figures = Straightness {
            applicational: number(app),
            main: number(main),
            moves: number(moves),
            semimoves: number(semimoves),
        };
        rows.insert(game.clone(), figures);
    }
    rows
}

#[test]
fn straightness_matches_the_reference() {
    let Some(games) = games() else { return };
    let reference = reference_straightness();
    assert_eq!(reference.len(), GAMES_IN_CORPUS);
    let mut failures = Vec::new();
    for (name, bytes) in &games {
        let key = name.trim_end_matches(".rbg");
        let expected = reference.get(key).unwrap_or_else(|| panic!("{key} missing from straightness.csv"));
        match parse_cleanly(name, bytes) {
            Ok(game) if game.straightness == *expected => {}
            Ok(game) => {
                failures.push(format!("{name}: ours {:?}, reference {expected:?}", game.straightness))
            }
            Err(e) => failures.push(e),
        }
    }
    assert_no_failures("straightness", &failures);
}

/// The four label arguments `up, down, left, right` of a board made by the rectangle generator
/// (read from the expanded board section, so macros are resolved), or `None` for other boards.
fn rectangle_labels(name: &str, bytes: &[u8]) -> Option<[String; 4]> {
    use rbg_parser::token::{Keyword, TokenKind};
    let lexed = rbg_parser::lexer::lex(bytes).unwrap_or_else(|e| panic!("{name}: {}", e.message));
    let expanded = rbg_parser::expand::expand(lexed.tokens, &mut Vec::new())
        .unwrap_or_else(|e| panic!("{name}: {}", e.message));
    let tokens = &expanded.board.tokens;
    if tokens.first()?.kind != TokenKind::Keyword(Keyword::Rectangle) {
        return None;
    }
    // `rectangle ( up , down , left , right ,`: the labels are tokens 2, 4, 6 and 8.
    let label = |i: usize| tokens[i].kind.ident().map(|l| l.to_string()).expect("a label");
    Some([label(2), label(4), label(6), label(8)])
}

/// On every corpus board made by the rectangle generator, following `right` adds 1 to x,
/// `left` subtracts 1, `down` adds 1 to y and `up` subtracts 1, in coordinates and in the
/// drawing point alike.
#[test]
fn rectangle_positions_follow_the_generator_directions() {
    let Some(games) = games() else { return };
    let mut boards = 0;
    let mut failures = Vec::new();
    for (name, bytes) in &games {
        let Some(directions) = rectangle_labels(name, bytes) else { continue };
        boards += 1;
        let game = parse_cleanly(name, bytes).unwrap_or_else(|e| panic!("{e}"));
        let board = &game.board;
        let positions = board.positions.as_ref().unwrap_or_else(|| panic!("{name}: no positions"));
        assert_eq!(positions.len(), board.vertices.len(), "{name}");
        let steps = [[0, -1], [0, 1], [-1, 0], [1, 0]];
        for (from, vertex) in board.vertices.iter().enumerate() {
            for edge in &vertex.edges {
                let label = &board.labels[edge.label as usize];
                let direction = directions.iter().position(|d| d == label).expect("a generator label");
                let (a, b) = (positions[from], positions[edge.target as usize]);
                let moved = [b.coords[0] - a.coords[0], b.coords[1] - a.coords[1], b.coords[2] - a.coords[2]];
                let drawn = [b.point[0] - a.point[0], b.point[1] - a.point[1]];
                let step = steps[direction];
                if moved != [step[0], step[1], 0] || drawn != step.map(f64::from) {
                    failures.push(format!("{name}: {label} from {} moves {moved:?}", vertex.name));
                }
            }
        }
    }
    // 60 corpus games use the rectangle generator; insist that the check saw them.
    assert_eq!(boards, 60);
    assert_no_failures("rectangle positions", &failures);
}
