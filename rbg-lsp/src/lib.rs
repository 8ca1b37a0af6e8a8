//! rbg-lsp: the RBG language server (`rbg lsp`).
//!
//! It speaks the Language Server Protocol on a byte stream (stdin/stdout for `rbg lsp`) and
//! answers every question from rbg-ide: diagnostics on open and on every change, hover,
//! definition, references, rename, completion, document symbols, semantic tokens, formatting
//! and code actions (quick fixes). Only this crate knows LSP and JSON; rbg-ide works in byte
//! offsets and plain data, and [`position`] converts.
//!
//! Messages are read one at a time and answered in order ([`server::Server`]). Nothing a
//! client sends stops the server except `exit` or the end of the input: malformed frames,
//! bad JSON, unknown methods, bad parameters and documents of any size or content get an
//! error answer or a diagnostic.

#![forbid(unsafe_code)]

pub mod position;
pub mod server;
pub mod transport;

pub use server::serve;
