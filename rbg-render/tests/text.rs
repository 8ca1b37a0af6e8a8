//! The text picture against pictures written by hand, the one empty-piece rule on every corpus
//! game, and connect4's colours in the SVG.

use rbg_core::{notation, Game};
use rbg_interp::{InterpOptions, Interpreter};
use rbg_render::pieces::{is_empty_name, Look};
use rbg_render::{game_piece_looks, render_svg, TextBoard};

fn interpreter(bytes: &[u8], name: &str) -> Interpreter {
    let out = rbg_parser::parse(name, bytes);
    let game = out.game.unwrap_or_else(|| panic!("{name} parses: {:?}", out.diagnostics));
    Interpreter::new(&game, name, InterpOptions::default()).expect("the game builds")
}

fn workspace_game(file: &str) -> Interpreter {
    let path = rbg_testdata::workspace_root().join("games").join(file);
    interpreter(&std::fs::read(&path).expect("workspace game"), file.trim_end_matches(".rbg"))
}

/// The keeper-completed state after `moves` (pair notation), each checked.
fn play(game: &Interpreter, moves: &[&str]) -> <Interpreter as Game>::State {
    let mut sc = game.new_scratch();
    let mut state = game.initial_state();
    assert!(game.complete_keeper(&mut state, &mut sc, 100).unwrap());
    for text in moves {
        let m = notation::parse_move(game.info(), text).unwrap();
        rbg_core::moves::apply_if_legal(game, &mut state, &mut sc, &m).unwrap();
        game.complete_keeper(&mut state, &mut sc, 100).unwrap();
    }
    state
}

/// Cross in the centre, nought top left, cross top right: files a-c from the left, rank 3 at
/// the top (row y0), free cells as dots, the labels are the names (no legend line).
#[test]
fn tic_tac_toe_after_three_moves() {
    let game = workspace_game("ticTacToe.rbg");
    let state = play(&game, &["4@rx1y1 5@rx1y1", "10@rx0y0 11@rx0y0", "4@rx2y0 5@rx2y0"]);
    let text = TextBoard::new(&game).draw(&game, &state);
    assert_eq!(text, "   a b c\n3  O . X\n2  . X .\n1  . . .\nscores: cross=50 nought=50\n");
    let board = TextBoard::new(&game);
    assert_eq!(board.alias(0).unwrap(), "a3");
    assert_eq!(board.vertex_of_alias("C1"), game.info().vertex_id("rx2y2"));
}

/// Every corpus game: the piece named as an empty cell (`empty`, `e`, `none` ...) is drawn
/// empty, in the text and in the SVG alike; a game without such a name has the piece filling
/// most of the initial board drawn empty (when it has no colour of a player).
#[test]
fn the_empty_piece_rule_holds_on_the_corpus() {
    let Some(corpus) = rbg_testdata::corpus() else { return };
    let games = rbg_testdata::corpus_games(&corpus);
    assert!(games.len() >= 70, "{} corpus games", games.len());
    for g in games {
        let game = interpreter(&g.bytes(), &g.name);
        let info = game.info();
        let initial = game.initial_state();
        let mut counts = vec![0usize; info.pieces.len()];
        for v in 0..info.vertices.len() as u32 {
            counts[game.piece(&initial, v) as usize] += 1;
        }
        let named = info.pieces.iter().position(|p| is_empty_name(p));
        let most = (0..counts.len()).max_by_key(|&i| (counts[i], std::cmp::Reverse(i))).unwrap();
        let empty = named.unwrap_or(most);
        let board = TextBoard::new(&game);
        let looks = game_piece_looks(&game);
        assert!(board.is_empty(empty as u32), "{}: {} is drawn as a piece", g.name, info.pieces[empty]);
        assert_eq!(looks[empty], Look::Hidden, "{}: {}", g.name, info.pieces[empty]);
        // Text and SVG agree on every piece.
        for (p, look) in looks.iter().enumerate() {
            assert_eq!(board.is_empty(p as u32), *look == Look::Hidden, "{}: {}", g.name, info.pieces[p]);
        }
    }
}

/// Connect four: red's disc is filled red (#d03b3b), yellow's yellow (#f2c81e): the pieces `R`
/// and `Y` take the colours of the players `red` and `yellow`.
#[test]
fn connect4_red_is_red() {
    let game = workspace_game("connect4.rbg");
    let mut state = play(&game, &[]);
    let mut sc = game.new_scratch();
    // Red drops a disc, yellow another: the first legal moves.
    for _ in 0..2 {
        let mut legal = rbg_core::MoveList::new();
        game.legal_moves(&mut state, &mut sc, &mut legal).unwrap();
        let m = legal.get(0).to_vec();
        game.apply_move(&mut state, &m);
        game.complete_keeper(&mut state, &mut sc, 100).unwrap();
    }
    let svg = render_svg(&game, &state, None, &Default::default());
    let doc = roxmltree::Document::parse(&svg).expect("well-formed SVG");
    let fill_of = |piece: &str| -> Vec<String> {
        doc.descendants()
            .filter(|n| n.attribute("class") == Some("piece") && n.attribute("data-piece") == Some(piece))
            .filter_map(|g| g.children().find(|c| c.has_tag_name("circle")))
            .filter_map(|c| c.attribute("fill").map(str::to_string))
            .collect()
    };
    // The discs on the board (the legend has one of each too, outside the `piece` groups).
    assert_eq!(fill_of("R"), vec!["#d03b3b".to_string()]);
    assert_eq!(fill_of("Y"), vec!["#f2c81e".to_string()]);
}
