//! `rbg::open` with the interpreter and the direct SBG engine, and its errors as data.
//!
//! Expected counts are derived by hand: tic-tac-toe has 9 first moves, then 8, then 7 (no line
//! of three can exist before the fifth mark), so 9, 72, 504. Breakthrough on 5x5 (games/sbg):
//! white's front row has 5 straight steps and 8 diagonal ones (edge pawns have one diagonal),
//! the back row none, so 13; each reply of black has 13 moves less the straight step of the
//! black pawn facing the white pawn that advanced (diagonals may capture), so 13 x 12 = 156.

use std::io::ErrorKind;
use std::path::{Path, PathBuf};

use rbg::open::{Engine, OpenError, OpenOptions};
use rbg_core::perft::{perft, PerftOptions};
use rbg_core::Game;

fn game_path(relative: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../games").join(relative)
}

fn leaves<G: Game>(game: &G, depths: std::ops::RangeInclusive<u32>) -> Vec<u64> {
    let options = PerftOptions { threads: 1, ..PerftOptions::default() };
    depths.map(|d| perft(game, d, &options).expect("perft runs").leaves).collect()
}

const TIC_TAC_TOE: [u64; 3] = [9, 72, 504];
const BREAKTHROUGH5: [u64; 2] = [13, 156];

#[test]
fn the_interpreter_opens_rbg_and_sbg_games() {
    let ttt = rbg::open(&game_path("ticTacToe.rbg"), &OpenOptions::default()).unwrap();
    assert_eq!(ttt.engine, Engine::Interpreter);
    assert_eq!(ttt.file.name, "ticTacToe");
    assert!(ttt.file.warnings.is_empty());
    assert_eq!(ttt.file.rbg_text, std::fs::read(game_path("ticTacToe.rbg")).unwrap());
    assert_eq!(ttt.game.info().players, ["cross", "nought"]);
    assert_eq!(leaves(&ttt.game, 1..=3), TIC_TAC_TOE);

    let bt = rbg::open(&game_path("sbg/breakthrough5.sbg"), &OpenOptions::default()).unwrap();
    assert_eq!(bt.file.name, "breakthrough5");
    assert_eq!(bt.file.language, rbg_sbg::file::Language::Sbg);
    assert!(String::from_utf8_lossy(&bt.file.rbg_text).contains("#rules"), "the RBG translation");
    assert_eq!(leaves(&bt.game, 1..=2), BREAKTHROUGH5);
}

#[test]
fn the_sbg_engine_opens_sbg_games_only() {
    let bt = rbg::open(&game_path("sbg/breakthrough5.sbg"), &OpenOptions::new(Engine::Sbg)).unwrap();
    assert_eq!(bt.engine, Engine::Sbg);
    assert_eq!(leaves(&bt.game, 1..=2), BREAKTHROUGH5);

    let wrong = rbg::open(&game_path("ticTacToe.rbg"), &OpenOptions::new(Engine::Sbg)).unwrap_err();
    assert!(
        matches!(&wrong, OpenError::WrongLanguage { path } if path.ends_with("ticTacToe.rbg")),
        "{wrong:?}"
    );
    // Even a broken RBG file is first of all the wrong language for this engine.
    let broken = rbg::open_bytes(Path::new("x.rbg"), b"#rules = ((".to_vec(), &OpenOptions::new(Engine::Sbg));
    assert!(matches!(broken, Err(OpenError::WrongLanguage { .. })));
}

#[test]
fn bytes_open_under_the_name_of_their_path() {
    let text = std::fs::read(game_path("ticTacToe.rbg")).unwrap();
    let path = Path::new("/nowhere/renamed.rbg");
    let opened = rbg::open_bytes(path, text, &OpenOptions::default()).unwrap();
    assert_eq!((opened.file.name.as_str(), opened.file.path.as_path()), ("renamed", path));
    assert_eq!(leaves(&opened.game, 1..=2), TIC_TAC_TOE[..2]);
    // SBG by content, under an extension that does not say.
    let sbg = std::fs::read(game_path("sbg/breakthrough5.sbg")).unwrap();
    let opened = rbg::open_bytes(Path::new("bt.txt"), sbg, &OpenOptions::new(Engine::Sbg)).unwrap();
    assert_eq!(leaves(&opened.game, 1..=1), BREAKTHROUGH5[..1]);
}

#[test]
fn a_missing_file_is_not_found_with_its_path() {
    let path = game_path("no-such-game.rbg");
    let error = rbg::open(&path, &OpenOptions::default()).unwrap_err();
    match &error {
        OpenError::Io { path: p, kind, .. } => assert_eq!((p, *kind), (&path, ErrorKind::NotFound)),
        other => panic!("{other:?}"),
    }
    assert!(error.to_string().starts_with(&format!("cannot read {}: ", path.display())), "{error}");
}

/// Line 5 is `#rules = ->a [zz]`: the undeclared piece `zz` starts at column 15.
const UNDECLARED: &str =
    "#players = a(1)\n#pieces = e\n#variables =\n#board = rectangle(up, down, left, right, [e])\n#rules = ->a [zz]\n";

#[test]
fn an_invalid_game_is_diagnostics_with_their_place() {
    let error =
        rbg::open_bytes(Path::new("bad.rbg"), UNDECLARED.into(), &OpenOptions::default()).unwrap_err();
    let OpenError::Invalid { source, diagnostics } = &error else { panic!("{error:?}") };
    assert_eq!(source.name, "bad.rbg");
    assert!(diagnostics.iter().any(|d| d.is_error()));
    assert_eq!(error.first_error_place(), Some(("bad.rbg", 5, 15)));
    let text = error.to_string();
    assert!(text.starts_with("bad.rbg:5:15: error: "), "{text}");
    // Reading the same text from a file gives the same place, named by the file's path.
    let dir = std::env::temp_dir().join(format!("rbg-open-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("bad.rbg");
    std::fs::write(&file, UNDECLARED).unwrap();
    let error = rbg::read_game(&file).unwrap_err();
    assert_eq!(error.first_error_place().map(|(_, l, c)| (l, c)), Some((5, 15)));
    assert!(error.to_string().starts_with(&format!("{}:5:15: error: ", file.display())), "{error}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn warnings_of_a_valid_game_are_kept() {
    let mut text = std::fs::read(game_path("ticTacToe.rbg")).unwrap();
    let stray_line = text.split(|&b| b == b'\n').count() as u32 + 1;
    text.extend_from_slice(b"\n`\n");
    let game = rbg::parse_game(Path::new("warned.rbg"), text).unwrap();
    assert_eq!(game.warnings.len(), 1, "{:?}", game.warnings);
    assert!(
        !game.warnings[0].is_error() && game.warnings[0].message.contains("Stray"),
        "{:?}",
        game.warnings
    );
    let span = game.warnings[0].span.expect("a place");
    assert_eq!(game.source.line_col(span.start), (stray_line, 1));
}

#[test]
fn engine_names_read_back() {
    for engine in [Engine::Interpreter, Engine::Compiled, Engine::Sbg] {
        assert_eq!(engine.name().parse::<Engine>(), Ok(engine));
    }
    assert_eq!("interp".parse::<Engine>(), Ok(Engine::Interpreter));
    assert!("fast".parse::<Engine>().is_err());
}
