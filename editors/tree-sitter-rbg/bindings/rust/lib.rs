//! tree-sitter-rbg: the tree-sitter grammar of high-level RBG for editors (Helix, Neovim).
//!
//! The grammar lives in `grammar.js`; `generate.sh` turns it into the checked-in `src/parser.c`,
//! which this crate compiles. The tree groups each directive's tokens by their brackets only
//! (see `grammar.js` for why); `HIGHLIGHTS_QUERY` colours it. The crate's tests parse every
//! corpus game and every file of `games/` without an error node.

use tree_sitter_language::LanguageFn;

extern "C" {
    fn tree_sitter_rbg() -> *const ();
}

/// The RBG grammar, for `tree_sitter::Parser::set_language(&LANGUAGE.into())`.
// SAFETY: `tree_sitter_rbg` is the generated parser's constructor; it takes no arguments and
// returns a pointer to a static `TSLanguage`, as `LanguageFn` requires.
pub const LANGUAGE: LanguageFn = unsafe { LanguageFn::from_raw(tree_sitter_rbg) };

/// The highlight query (`queries/highlights.scm`), with Helix's capture names.
pub const HIGHLIGHTS_QUERY: &str = include_str!("../../queries/highlights.scm");

/// The node types of the grammar (`src/node-types.json`).
pub const NODE_TYPES: &str = include_str!("../../src/node-types.json");
