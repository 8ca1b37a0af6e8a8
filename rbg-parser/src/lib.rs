//! rbg-parser: reads RBG game descriptions exactly as the reference parser does.
//!
//! Pipeline (language reference, section 1): [`lexer`] (bytes → tokens, grammar in `rbg.pest`)
//! → directives and macro expansion → section parsers (declarations, board, rules) → typing →
//! lowering and action indices → the game IR ([`ir::Game`]) and the printed low-level form.
//!
//! Errors and warnings are data ([`diag::Diagnostic`]) with spans and macro-expansion trails; the
//! library never prints and never panics on any input.

pub mod diag;
pub mod ir;
pub mod lexer;
pub mod source;
pub mod token;
