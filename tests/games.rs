//! Tests of our own game descriptions in `games/`.
//!
//! * Every `games/*.rbg` parses without errors or warnings.
//! * Each game with a corpus counterpart (same rules, independently written description) has
//!   exactly the counterpart's reference perft counts (`reference-perft.csv` of the conformance
//!   data), at every depth up to at least the first one with 10^5 leaves.
//! * Small perft values derived by hand, which need no reference data.
//! * Random playouts with the keeper checked for determinism (the descriptions are proper) and
//!   with outcomes that fit each game's scoring.
//!
//! Run with `cargo test --release --test games` (debug builds are slow for the deeper counts).

use std::path::PathBuf;

use rbg_core::perft::{perft, PerftOptions};
use rbg_core::playout::{flat_monte_carlo, McLimit, McOptions};
use rbg_interp::{InterpOptions, Interpreter};

fn games_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("games")
}

/// Reads and parses one of our games, failing on any diagnostic.
fn load(file: &str) -> rbg_parser::ir::Game {
    let path = games_dir().join(file);
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    parse(file, &bytes)
}

/// Parses a game description named `name`, failing on any diagnostic.
fn parse(name: &str, bytes: &[u8]) -> rbg_parser::ir::Game {
    let out = rbg_parser::parse(name, bytes);
    let texts: Vec<String> = out.diagnostics.iter().map(|d| d.reference_text(&out.source)).collect();
    assert!(texts.is_empty(), "{name}: diagnostics:\n{}", texts.join("\n"));
    out.game.unwrap_or_else(|| panic!("{name}: no game produced"))
}

fn interpreter(file: &str, options: InterpOptions) -> Interpreter {
    let game = load(file);
    Interpreter::new(&game, file, options).unwrap_or_else(|e| panic!("{file}: interpreter: {e:?}"))
}

/// (leaves, nodes) at one depth. The last ply is counted without being applied, which gives
/// exactly the reference driver's counts (every move at the last ply is one node and one leaf).
fn count(interp: &Interpreter, depth: u32) -> (u64, u64) {
    let options = PerftOptions { bulk_last_ply: true, ..PerftOptions::default() };
    let c = perft(interp, depth, &options).unwrap_or_else(|e| panic!("perft {depth}: {e}"));
    (c.leaves, c.nodes)
}

/// Our games, their corpus counterparts, and the deepest depth compared. The depth is the first
/// one with at least 10^5 reference leaves, or one more where that is still cheap and reaches
/// the first terminal positions (connect4 at 7, ticTacToe's whole tree, foxAndHounds at 10).
const COUNTERPARTS: &[(&str, &str, u32)] = &[
    ("ticTacToe.rbg", "ticTacToe", 10),
    ("breakthrough.rbg", "breakthrough", 4),
    ("connect4.rbg", "connect4", 7),
    ("hex.rbg", "hex_9x9", 3),
    ("chessLosAlamos.rbg", "chessLosAlamos6x6_kingCapture", 5),
    ("chessGardner.rbg", "chessGardner5x5_kingCapture", 6),
    ("englishDraughts.rbg", "englishDraughts", 7),
    ("reversi.rbg", "reversi", 8),
    ("foxAndHounds.rbg", "foxAndHounds", 10),
    ("amazons.rbg", "amazons", 2),
];

#[test]
fn every_game_parses_without_diagnostics() {
    let mut files: Vec<PathBuf> = std::fs::read_dir(games_dir())
        .expect("games/ directory")
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "rbg"))
        .collect();
    files.sort();
    let names: Vec<String> =
        files.iter().map(|p| p.file_name().unwrap().to_string_lossy().into_owned()).collect();
    for (file, _, _) in COUNTERPARTS {
        assert!(names.iter().any(|n| n == file), "games/{file} is missing");
    }
    for name in &names {
        let game = load(name);
        // It must also be something the interpreter accepts.
        Interpreter::new(&game, name, InterpOptions::default())
            .unwrap_or_else(|e| panic!("{name}: interpreter: {e:?}"));
    }
}

#[test]
fn perft_equals_corpus_counterparts() {
    let Some(conformance) = rbg_testdata::conformance() else { return };
    let rows = rbg_testdata::reference_perft(&conformance);
    for &(file, counterpart, max_depth) in COUNTERPARTS {
        let reference: Vec<(u32, u64, u64)> =
            rows.iter().filter(|r| r.game == counterpart).map(|r| (r.depth, r.leaves, r.nodes)).collect();
        assert!(
            reference.iter().any(|&(d, leaves, _)| d <= max_depth && leaves >= 100_000)
                || reference.iter().any(|&(d, leaves, _)| d == max_depth && leaves == 0),
            "{counterpart}: the compared depths must reach 10^5 leaves (or the end of the game)"
        );
        let interp = interpreter(file, InterpOptions::default());
        for depth in 1..=max_depth {
            let &(_, leaves, nodes) = reference
                .iter()
                .find(|r| r.0 == depth)
                .unwrap_or_else(|| panic!("{counterpart}: no reference count at depth {depth}"));
            assert_eq!(
                count(&interp, depth),
                (leaves, nodes),
                "{file} vs {counterpart}: perft({depth}) (leaves, nodes)"
            );
        }
    }
}

/// Perft leaves derived by hand (no reference data needed). Nodes follow as 1 + the sum of the
/// leaves of all smaller depths whenever no game ends before the last depth listed.
#[test]
fn perft_values_counted_by_hand() {
    let cases: &[(&str, &[u64])] = &[
        // 9 * 8 * 7 * 6 * 5 placements; nobody can have a line before ply 5. Of the 15120
        // five-ply games, 8 lines * 3! orders of the crosses * 6 * 5 placements of the two
        // noughts = 1440 are won by cross at ply 5, the others leave 4 cells: 13680 * 4 = 54720.
        ("ticTacToe.rbg", &[9, 72, 504, 3024, 15120, 54720]),
        // Each side's front row: two edge pawns with 2 steps and six with 3: 22 moves, and the
        // two armies cannot meet within two plies.
        ("breakthrough.rbg", &[22, 484]),
        // 7 columns; a column is full only after 6 discs, so the first 6 plies have 7^d games.
        // At ply 7 the 7 games that filled one column have one column less: 7^7 - 7.
        ("connect4.rbg", &[7, 49, 343, 2401, 16807, 117649, 823_543 - 7]),
        // 81 cells; a winning chain needs at least 9 stones.
        ("hex.rbg", &[81, 81 * 80, 81 * 80 * 79]),
        // Six pawn steps plus two moves for each knight; black has the same ten replies.
        ("chessLosAlamos.rbg", &[10, 100]),
        // Five pawn steps plus two knight moves (the pawns cannot advance two squares yet, the
        // enemy pawns stand right in front of them).
        ("chessGardner.rbg", &[7]),
        // Black's front men: three with two forward squares, one at the edge with one.
        ("englishDraughts.rbg", &[7, 49]),
        // Four opening squares; every opening leaves white three replies.
        ("reversi.rbg", &[4, 12]),
        // Four entry squares; then 2 + 2 + 2 + 1 fox steps; then 1 + 2 + 2 + 2 hound steps.
        ("foxAndHounds.rbg", &[4, 7, 49]),
    ];
    for &(file, leaves) in cases {
        let interp = interpreter(file, InterpOptions::default());
        let mut nodes = 1;
        for (i, &expected) in leaves.iter().enumerate() {
            let depth = i as u32 + 1;
            nodes += expected;
            assert_eq!(count(&interp, depth), (expected, nodes), "{file}: perft({depth}) (leaves, nodes)");
        }
    }
}

/// Random playouts with a checked keeper: every keeper completion must be unique (spec 12.1
/// condition 2). The outcomes must fit the rules: each playout ends within the game's length
/// bounds and the two scores always sum to 100 (a win is 100 : 0, a draw 50 : 50), except in
/// hex where the loser keeps 0 and the winner gets 100 (still a sum of 100).
#[test]
fn playouts_are_proper_and_plausible() {
    // (file, playouts, shortest and longest possible game in plies)
    let cases: &[(&str, u64, u64, u64)] = &[
        ("ticTacToe.rbg", 200, 5, 9),
        ("breakthrough.rbg", 20, 11, 1000),
        ("connect4.rbg", 100, 7, 42),
        ("hex.rbg", 20, 17, 81),
        ("chessLosAlamos.rbg", 20, 1, 10_000),
        ("chessGardner.rbg", 20, 1, 10_000),
        ("englishDraughts.rbg", 20, 1, 10_000),
        ("reversi.rbg", 10, 9, 120),
        ("foxAndHounds.rbg", 100, 4, 1000),
        ("amazons.rbg", 2, 1, 92),
        ("chessSplit.rbg", 4, 2, 10_000),
    ];
    for &(file, playouts, shortest, longest) in cases {
        let interp = interpreter(file, InterpOptions { checked_keeper: true, ..InterpOptions::default() });
        let options = McOptions { seed: 7, limit: McLimit::Playouts(playouts), ..McOptions::default() };
        let mut sums_ok = true;
        let stats = flat_monte_carlo(&interp, &options, |s| {
            // The statistics so far: the scores of every finished playout add up to 100.
            sums_ok &= s.score_sum.iter().sum::<i64>() == 100 * s.playouts as i64;
        })
        .unwrap_or_else(|e| panic!("{file}: playouts: {e}"));
        assert_eq!(stats.playouts, playouts, "{file}");
        assert!(sums_ok, "{file}: a playout ended with scores not summing to 100: {stats:?}");
        assert!(
            shortest <= stats.min_plies && stats.max_plies <= longest,
            "{file}: playout lengths {}..={} outside {shortest}..={longest}",
            stats.min_plies,
            stats.max_plies
        );
    }
}

/// Loads a game from its text, failing on any diagnostic.
fn interpreter_of_text(name: &str, text: &str) -> Interpreter {
    let game = parse(name, text.as_bytes());
    Interpreter::new(&game, name, InterpOptions::default())
        .unwrap_or_else(|e| panic!("{name}: interpreter: {e:?}"))
}

/// A chess position for [`with_chess_board`]: eight rows from black's back row, one letter a
/// square as in FEN (`.` empty), except that a king or rook that may still castle is `K`/`R`
/// (`k`/`r`) and one that may not is `J`/`T` (`j`/`t`).
type ChessRows = [&'static str; 8];

/// `text` (a chess description) with its `#board` replaced by `rows`, the pieces named by
/// `name` (a letter of [`ChessRows`] to the description's piece) and the directions `dirs`.
fn with_chess_board(text: &str, rows: &ChessRows, dirs: &str, name: impl Fn(char) -> &'static str) -> String {
    let start = text.find("#board").expect("a #board declaration");
    let end = start + text[start..].find(')').expect("the board's closing parenthesis");
    let board: Vec<String> = rows
        .iter()
        .map(|row| format!("[{}]", row.chars().map(&name).collect::<Vec<_>>().join(", ")))
        .collect();
    format!("{}#board = rectangle({dirs},\n{})\n{}", &text[..start], board.join("\n"), &text[end + 1..])
}

/// Piece names of `games/chessSplit.rbg`.
fn split_piece(letter: char) -> &'static str {
    match letter {
        '.' => "vacant",
        'P' => "wP",
        'N' => "wN",
        'B' => "wB",
        'Q' => "wQ",
        'R' => "wRc",
        'T' => "wR",
        'K' => "wKc",
        'J' => "wK",
        'p' => "bP",
        'n' => "bN",
        'b' => "bB",
        'q' => "bQ",
        'r' => "bRc",
        't' => "bR",
        'k' => "bKc",
        'j' => "bK",
        other => panic!("no piece {other}"),
    }
}

/// Piece names of the corpus game `chess` (castling rights of kings are its variables, all
/// zero at the start: whether a king may castle follows from where it stands).
fn corpus_chess_piece(letter: char) -> &'static str {
    match letter {
        '.' => "empty",
        'P' => "whitePawn",
        'N' => "whiteKnight",
        'B' => "whiteBishop",
        'Q' => "whiteQueen",
        'R' => "whiteRookUnmoved",
        'T' => "whiteRookMoved",
        'K' | 'J' => "whiteKing",
        'p' => "blackPawn",
        'n' => "blackKnight",
        'b' => "blackBishop",
        'q' => "blackQueen",
        'r' => "blackRookUnmoved",
        't' => "blackRookMoved",
        'k' | 'j' => "blackKing",
        other => panic!("no piece {other}"),
    }
}

/// Two plies of `games/chessSplit.rbg` (choose a piece, move it) are one ply of chess: its perft
/// leaves at depth 2d are chess's at depth d. Checked against the reference counts of the
/// corpus game `chess` from the start, and in three positions with castling, en passant, pins
/// and promotions against the corpus game with the same board (a description written apart)
/// and the published perft counts of those positions (white to move; "Kiwipete",
/// r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -, 48, 2039, 97862; position
/// 3, 8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - -, 14, 191, 2812, 43238; position 4,
/// r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq -, 6, 264, 9467).
#[test]
fn chess_split_two_plies_are_one_ply_of_chess() {
    let split = interpreter("chessSplit.rbg", InterpOptions::default());
    // Odd depths by hand: white can move its 8 pawns and 2 knights, and after any first move
    // black its 8 pawns and 2 knights (no white piece reaches black's half in one move).
    assert_eq!(count(&split, 1).0, 10);
    assert_eq!(count(&split, 3).0, 20 * 10);
    if let Some(conformance) = rbg_testdata::conformance() {
        let rows = rbg_testdata::reference_perft(&conformance);
        for depth in 1..=4 {
            let chess = rows.iter().find(|r| r.game == "chess" && r.depth == depth).expect("chess perft");
            assert_eq!(count(&split, 2 * depth).0, chess.leaves, "chessSplit perft({})", 2 * depth);
        }
    }
    let positions: [(&str, ChessRows, &[u64]); 3] = [
        (
            "kiwipete",
            ["r...k..r", "p.ppqpb.", "bn..pnp.", "...PN...", ".p..P...", "..N..Q.p", "PPPBBPPP", "R...K..R"],
            &[48, 2039, 97862],
        ),
        (
            "position 3",
            ["........", "..p.....", "...p....", "JP.....t", ".T...p.j", "........", "....P.P.", "........"],
            &[14, 191, 2812, 43238],
        ),
        (
            "position 4",
            ["r...k..r", "Pppp.ppp", ".b...nbN", "nP......", "BBP.P...", "q....N..", "Pp.P..PP", "T..Q.TJ."],
            &[6, 264, 9467],
        ),
    ];
    let split_text = std::fs::read_to_string(games_dir().join("chessSplit.rbg")).expect("chessSplit.rbg");
    let corpus_text =
        rbg_testdata::corpus().map(|dir| std::fs::read_to_string(dir.join("chess.rbg")).expect("chess.rbg"));
    for (name, rows, published) in positions {
        let ours =
            interpreter_of_text(name, &with_chess_board(&split_text, &rows, "n, s, w, e", split_piece));
        let corpus = corpus_text.as_ref().map(|text| {
            interpreter_of_text(
                name,
                &with_chess_board(text, &rows, "up, down, left, right", corpus_chess_piece),
            )
        });
        for (depth, &expected) in (1..).zip(published) {
            assert_eq!(count(&ours, 2 * depth).0, expected, "{name}: chessSplit perft({})", 2 * depth);
            if let Some(corpus) = &corpus {
                assert_eq!(count(corpus, depth).0, expected, "{name}: corpus chess perft({depth})");
            }
        }
    }
}

/// A chosen piece can always be moved: in random games of `games/chessSplit.rbg` the player to
/// move has a move at every second ply (the piece's move); a game only ends where a piece is to
/// be chosen.
#[test]
fn chess_split_never_stops_half_way_through_a_move() {
    use rand::{Rng, SeedableRng};
    use rbg_core::moves::MoveList;
    use rbg_core::{Game, KEEPER};
    let split = interpreter("chessSplit.rbg", InterpOptions::default());
    let mut rng = rbg_core::rng::PlayoutRng::seed_from_u64(5);
    let mut scratch = split.new_scratch();
    let mut moves = MoveList::default();
    for game in 0..6 {
        let mut state = split.initial_state();
        let mut plies = 0u64;
        loop {
            while split.current_player(&state) == KEEPER
                && split.keeper_step(&mut state, &mut scratch).unwrap()
            {}
            if split.current_player(&state) == KEEPER {
                break;
            }
            split.legal_moves(&mut state, &mut scratch, &mut moves).unwrap();
            if moves.is_empty() {
                break;
            }
            let pick = rng.gen_range(0..moves.len());
            split.apply_move(&mut state, moves.get(pick));
            plies += 1;
        }
        assert_eq!(plies % 2, 0, "game {game} stopped after {plies} plies, half-way through a move");
        assert!(plies >= 2, "game {game}: {plies} plies");
    }
}
