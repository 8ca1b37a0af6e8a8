//! rbg-sbg: Simplified Boardgames (Kowalski, Sutowicz, Szykuła), a class of fairy-chess-like
//! games whose pieces move by regular expressions over letters `(dx, dy, on)`.
//!
//! * [`parse`] reads a description (the grammar and validity rules of the spec, sections 2.1 and
//!   2.3) into an [`SbgGame`], or returns diagnostics with byte spans, rendered like RBG's.
//! * [`SbgReasoner`] plays a game directly ([`rbg_core::Game`]): each rule compiled to a position
//!   automaton ([`automaton`]), moves found by walking it from each of the mover's pieces.
//! * [`to_rbg`] translates a game into commented high-level RBG, so the interpreter and the
//!   compiler run it; its perft counts equal the direct reasoner's (see [`translate`] for why
//!   each (from, to) pair is exactly one RBG move).
//! * [`to_gdl`] translates a game into GDL (KIF), one relation per state of each piece's
//!   determinised automaton (see [`gdl`]).
//!
//! Where the spec leaves room we follow `design/sbg-notes.md` (the RBG group's sbg2gdl); the one
//! case neither decides, both sides' goals holding after one move, is a draw here.

#![forbid(unsafe_code)]

pub mod automaton;
pub mod file;
pub mod gdl;
pub mod parser;
pub mod reasoner;
pub mod syntax;
pub mod translate;

pub use gdl::to_gdl;
pub use parser::parse;
pub use reasoner::{SbgReasoner, SbgScratch, SbgState};
pub use syntax::SbgGame;
pub use translate::{rbg_move_squares, to_rbg, to_rbg_writer, to_rbg_writer_with_source};
