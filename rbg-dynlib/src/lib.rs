//! rbg-dynlib: the C ABI through which a compiled reasoner library (a `cdylib`) is loaded into a
//! running process, both halves of it.
//!
//! * [`declaration`]: the ABI's functions, declared once ([`rbg_abi_functions!`]); the export
//!   shims, the loader's function table, [`SYMBOLS`] and [`ABI_VERSION`] are derived from it.
//! * [`abi`]: the `#[repr(C)]` types, status codes and the game-information encoding.
//! * [`export`]: [`export_c_abi!`], which a reasoner crate (every crate `rbg compile` writes)
//!   expands to export its reasoner, and the bodies of the exported functions ([`Exports`]).
//!   An exporting crate depends on this crate with `default-features = false`: no libloading.
//! * the loader (feature `loader`, default): [`load`] and [`LibGame`], which implements
//!   [`Game`](rbg_core::Game) by calling a loaded library, so the drivers run at compiled speed
//!   in the calling process (a server, a Python binding, a match runner) without a subprocess.
//!
//! ```no_run
//! use rbg_core::{perft::perft, Game};
//! let game = rbg_dynlib::load("target/release/librbg_game_tic_tac_toe.so").unwrap();
//! println!("{}: {:?}", game.info().name, perft(&game, 9, &Default::default()).unwrap());
//! ```
//!
//! # Cost
//!
//! Every [`Game`](rbg_core::Game) call of a [`LibGame`] crosses the ABI once (moves come back
//! through a visitor that pushes them into the caller's list), so per-move work that a static
//! build inlines becomes calls. Whole perft subtrees and whole random playouts run inside the
//! library (`rbg_perft_subtree`, `rbg_random_playout`: one call each), so the drivers' bulk
//! work is at compiled speed; the example `dyn_overhead` measures the rest with callgrind.
//!
//! # Safety model
//!
//! Loading runs the library's initialisers and trusts it to implement the ABI as documented:
//! only load libraries built from this project's crates. Everything else is checked: the ABI
//! version first ([`LoadError::VersionMismatch`]), then every symbol, then the game information.
//! After loading, the safe API cannot pass the library a bad pointer: states and scratch
//! remember the library they came from ([`LibState`] and [`LibScratch`] hold it) and a value
//! from another library reads as a finished game, like foreign states of
//! [`AnyGame`](rbg_core::dynamic::AnyGame). Errors from the library come back as data; panics
//! inside it do not unwind into this process (the library turns them into error codes, or
//! aborts when built with `panic = "abort"`). The exported bodies ([`export`]) are the only
//! other unsafe code: they turn the caller's raw pointers back into references.

pub mod abi;
pub mod declaration;
pub mod export;
#[cfg(feature = "loader")]
mod loader;

pub use declaration::{ABI_VERSION, SYMBOLS};
pub use export::{Exporter, Exports};
#[cfg(feature = "loader")]
pub use loader::{load, LibGame, LibScratch, LibState, LoadError};
