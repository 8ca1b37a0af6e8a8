//! The static analyses find what the design notes report for the reference compiler on corpus
//! games (section 2): monotonic classes exactly for the placement games, no visited checks in
//! the main automaton of breakthrough, amazons, chess, reversi and English draughts, and shift
//! tables wherever `anySquare` appears.

mod common;

use rbg_core::Game;
use rbg_interp::program::{NodeId, NodeKind};
use rbg_interp::{InterpOptions, ProgramOptions};

use common::{conformance_dir, corpus_dir, data_available, interpreter};

fn data() -> bool {
    data_available(&[corpus_dir(), conformance_dir().join("lowered")])
}

#[test]
fn placement_games_have_one_monotonic_class_per_player() {
    if !data() {
        return;
    }
    // rbg2cpp reports MONOTONIC_CLASSES = 2 for hex, connect4, gomoku and tic-tac-toe.
    for game in ["hex_9x9", "connect4", "gomoku_standard", "ticTacToe"] {
        assert_eq!(interpreter(game, InterpOptions::default()).monotonic_classes(), 2, "{game}");
    }
    for game in ["breakthrough", "chess", "reversi", "amazons", "englishDraughts"] {
        assert_eq!(interpreter(game, InterpOptions::default()).monotonic_classes(), 0, "{game}");
    }
    let off = InterpOptions {
        program: ProgramOptions { monotonic_classes: false, ..Default::default() },
        ..Default::default()
    };
    assert_eq!(interpreter("hex_9x9", off).monotonic_classes(), 0);
}

#[test]
fn main_automata_need_no_visited_checks_where_the_reference_has_none() {
    if !data() {
        return;
    }
    for game in ["breakthrough", "amazons", "chess", "reversi", "englishDraughts"] {
        let interp = interpreter(game, InterpOptions::default());
        let p = interp.program();
        let main_checked = p
            .nodes()
            .iter()
            .enumerate()
            .filter(|(i, n)| n.slot().is_some() && reachable_from_main(p, NodeId::new(*i as u32)))
            .count();
        assert_eq!(main_checked, 0, "{game}: checked nodes in the main automaton");
    }
    // Without the analysis every node is checked.
    let all = InterpOptions {
        program: ProgramOptions { visited_elimination: false, ..Default::default() },
        ..Default::default()
    };
    let p = interpreter("breakthrough", all);
    assert_eq!(p.program().checked_nodes(), p.program().nodes().len());
}

#[test]
fn any_square_becomes_a_whole_board_fan() {
    if !data() {
        return;
    }
    for game in ["breakthrough", "chess", "amazons", "reversi"] {
        let interp = interpreter(game, InterpOptions::default());
        let p = interp.program();
        assert!(
            p.nodes().iter().any(|n| matches!(n.kind(),
                NodeKind::Fan { table, .. } if p.fan_table(table).covers_all_vertices())),
            "{game}: no any-square table"
        );
    }
    let off = InterpOptions {
        program: ProgramOptions { shift_tables: false, ..Default::default() },
        ..Default::default()
    };
    let interp = interpreter("breakthrough", off);
    assert!(interp.program().fan_tables().is_empty() && interp.program().det_tables().is_empty());
}

/// Whether `node` belongs to the rules automaton (automaton 0).
fn reachable_from_main(p: &rbg_interp::Program, node: NodeId) -> bool {
    let mut seen = vec![false; p.nodes().len()];
    let mut stack = vec![p.start()];
    while let Some(n) = stack.pop() {
        if std::mem::replace(&mut seen[n.index()], true) {
            continue;
        }
        if n == node {
            return true;
        }
        if let NodeKind::Fan { next, .. } = p.node(n).kind() {
            stack.push(next);
        }
        stack.extend(p.node_edges(n).iter().map(|e| e.target()));
    }
    false
}
