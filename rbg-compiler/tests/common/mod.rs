//! The games the generator tests read the generated source of.

use rbg_compiler::{generate_source, CompileOptions};

/// Connect-four's shape: a drop down the column the player picked, then a test of three in a
/// row from the cell (five terms away from the edges).
pub const DROP_RULES: &str = "(->a (left* + right*) {e} ->> down* {e} {! down {e}} \
                              {! left {x} left {x} + right {x} right {x} + down {x} down {x} \
                              + up left {x} up left {x} + up right {x} up right {x}} [x] ->b)*";

/// The generated source of a game on a `width`×`height` rectangle of empty cells.
pub fn source(width: usize, height: usize, rules: &str, options: &CompileOptions) -> String {
    let rows: String = (0..height).map(|_| format!("[{}]", vec!["e"; width].join(","))).collect();
    let text = format!(
        "#players = a(1), b(1)\n#pieces = e, x, o\n#variables =\n\
         #board = rectangle(up, down, left, right, {rows})\n\
         #rules = {rules}\n"
    );
    let out = rbg_parser::parse("test.rbg", text.as_bytes());
    let game = out.game.unwrap_or_else(|| panic!("{:?}", out.diagnostics));
    generate_source(&game, "test", options).expect("generates")
}
