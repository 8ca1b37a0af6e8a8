//! Shift tables and precomputed patterns on a long line of cells, against what the board makes
//! obvious: on a 1×N line, `(right)*` from cell v ends at every cell from v on, `{! right}` holds
//! at the last cell only, and `(left | right right)` ends at v-1 and v+2 where they exist. The
//! line is long enough for rows both shorter and longer than one cell in 64 (the evaluator
//! orders them in two ways).

use rbg_automaton::{Program, ProgramOptions};

const CELLS: u32 = 3000;

fn line_program() -> Program {
    let row = vec!["e"; CELLS as usize].join(",");
    let text = format!(
        "#players = x(1)\n#pieces = e, p\n#variables =\n\
         #board = rectangle(up, down, left, right, [{row}])\n\
         #rules = ->x (right)* [p] {{! right}} [p] (left + right right) [p] ->>\n"
    );
    let parsed = rbg_parser::parse("line.rbg", text.as_bytes());
    let game = parsed.game.unwrap_or_else(|| panic!("{:?}", parsed.diagnostics));
    Program::build(&game, &ProgramOptions::default()).expect("the program builds")
}

#[test]
fn tables_and_patterns_of_a_long_line_are_what_the_line_gives() {
    let program = line_program();
    let rows_of = |table: &rbg_automaton::FanTable| -> Vec<Vec<u32>> {
        (0..CELLS).map(|v| table.row(v).to_vec()).collect()
    };
    let tables: Vec<Vec<Vec<u32>>> = program.fan_tables().iter().map(rows_of).collect();

    let star: Vec<Vec<u32>> = (0..CELLS).map(|v| (v..CELLS).collect()).collect();
    assert!(tables.contains(&star), "no table of (right)*");

    let alternative: Vec<Vec<u32>> = (0..CELLS)
        .map(|v| [v.checked_sub(1), Some(v + 2).filter(|&w| w < CELLS)].into_iter().flatten().collect())
        .collect();
    assert!(tables.contains(&alternative), "no table of (left + right right)");

    let last_cell_only = program.cell_sets().iter().any(|set| set.len() == 1 && set.contains(CELLS - 1));
    assert!(last_cell_only, "no cell set of {{! right}}");
}
