//! rbg-compiler: turns an RBG game into Rust source for a specialised reasoner.
//!
//! # Pipeline
//!
//! 1. The game IR (from `rbg_parser`) is compiled into the interpreter's analysed
//!    [`rbg_automaton::Program`] (rules NFA with shift tables, precomputed patterns, folded edge
//!    chains, visited slots, monotonic classes). Both engines walk this very same graph, so they
//!    generate the same moves in the same order by construction.
//! 2. [`generate_module`] translates the program into the items of one Rust module
//!    ([`proc_macro2::TokenStream`]): the board and every table as `static` arrays, one function
//!    per automaton node whose edges are straight-line code with every id an immediate, the
//!    state as a small `Copy` struct, and an `impl rbg_core::Game` for a zero-sized `Reasoner`.
//! 3. The module is used three ways: written as a standalone crate by [`write_crate`] (library
//!    plus a `perft`/`mc` binary built on `rbg_runner`), expanded in place by the `rbg_game!`
//!    macro (crate `rbg-macros`), or included as a module by a build script.
//!
//! # What the generated code looks like
//!
//! ```text
//! /// Node 2: `{w} [e] up` → node 3
//! fn node_2<K: Sink>(st: &mut State, sc: &mut Scratch, k: &mut K, v: Cell) -> bool {
//!     let stop = 'edge0: {
//!         let mut w = v;
//!         if !matches!(st.pieces[w as usize], PIECE_W) { break 'edge0 false; }
//!         let at0 = w;
//!         let old0 = st.pieces[at0 as usize];
//!         st.pieces[at0 as usize] = PIECE_E;
//!         sc.path.push(Action::new(2, at0 as u32));
//!         let stop = 'mod0: { w = NEIGHBOURS[w as usize][LABEL_UP]; ... node_3(st, sc, k, w) };
//!         if !(K::KEEP && stop) { st.pieces[at0 as usize] = old0; sc.path.pop(); }
//!         stop
//!     };
//!     ...
//! }
//! ```
//!
//! Each optimisation of the design notes is a field of [`CompileOptions`] so its effect can be
//! measured and a miscompile bisected; turning one off never changes the set of moves.

#![forbid(unsafe_code)]

mod apply;
mod board_sets;
mod children;
mod count_replay;
mod crate_files;
mod ctx;
mod exprs;
mod fewer_searches;
mod game_impl;
mod layout;
mod module;
mod monotonic;
pub mod names;
mod packed;
mod ray_captures;
mod scratch;
mod search;
mod set_moves;
mod stack_plan;
mod state;
mod tables;
mod word_tests;

use proc_macro2::TokenStream;
use rbg_automaton::{BuildError, Program, ProgramOptions, Switches};
use rbg_parser::ir;

pub use crate_files::{write_crate, CrateDeps, WrittenCrate, GENERATED_MARKER};

/// The version of the generator, part of every cache key: bump it when the generated code
/// changes in a way that cargo's own change detection would not notice.
pub const GENERATOR_VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), "-g21");

rbg_automaton::option_switches! {
    /// What to generate. Every switch defaults to on; turning one off keeps the moves identical
    /// (their set always, their order too unless stated) and only costs speed. Declared with
    /// [`rbg_automaton::option_switches!`]: see [`CompileOptions::SWITCHES`].
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub struct CompileOptions {
        nested {
            /// The analyses of the shared program: shift tables, precomputed patterns, chain
            /// folding, visited-check elimination, constant folding, fan filters, monotonic
            /// classes, pattern sharing.
            pub program: ProgramOptions,
        }
        fields {}
        switches {
            /// Apply moves with a `match` on the action index and no validation (design notes
            /// 2.11). Off: a move is applied by replaying the move search until it finds that
            /// move.
            pub unchecked_modifiers: bool = true, "unchecked-modifiers", Optimisation;
            /// Smallest integer types for cells, pieces, variables and counters (design notes
            /// 6.5). Off: every field is 32 bits wide, as in the reference compiler's states.
            pub compact_state: bool = true, "compact-state", Optimisation;
            /// After a shift, check for the off-board sentinel only where the cell is next used,
            /// letting an on-test or a set test double as the check (design notes 2.9). Off:
            /// check after every shift.
            pub deferred_checks: bool = true, "deferred-checks", Optimisation;
            /// Inside patterns, try the edges closest to an accepting node first, and among
            /// them a memoised pattern that the rules ask again before a piece changes (a
            /// pattern's result does not depend on the order). Off: program order.
            pub pattern_order: bool = true, "pattern-order", Optimisation;
            /// Keep, per piece filter of a fan over every cell, the set of cells holding such a
            /// piece in the state, and iterate its bits instead of scanning the board (design
            /// notes 6.2).
            pub piece_sets: bool = true, "piece-sets", Optimisation;
            /// Fill a monotonic class's cached move list, at its first visit in a playout, by a
            /// scan of the class's cells (or of its piece-location set) instead of a move search
            /// (design notes 2.15). Off: the playout driver lists the class's moves with a search.
            pub monotonic_fill: bool = true, "monotonic-fill", Optimisation;
            /// `apply_move` tests an action's vertex only in the arms that put a piece (a
            /// switch or an assignment ignores it). Off: every action's vertex is tested.
            pub lean_apply: bool = true, "lean-apply", Optimisation;
            /// Count the moves, and find a drawn move again, by searches that record no move, so
            /// that a playout in a state with many moves draws one without storing the move list
            /// (the same move for the same seed). Off: playouts always list the moves.
            pub count_replay: bool = true, "count-replay", Optimisation;
            /// Perft takes each child state from the search that finds the move (the working
            /// state copied at the move's switch) instead of listing the moves and applying
            /// each. Off: perft lists and applies at every ply.
            pub visit_children: bool = true, "visit-children", Optimisation;
            /// Evaluate a pattern that a fan of at least 16 cells asks at each of its cells for the
            /// whole board at once with word operations, once per semi-state, on boards of at
            /// most 128 vertices (design notes 6.3). Off: a search at each cell.
            pub board_patterns: bool = true, "board-patterns", Optimisation;
            /// Keep the cells holding each piece set that word tests read as words in the state
            /// (boards of at most 128 vertices), evaluate an acyclic pattern asked at one cell as
            /// an OR of masked word tests, and let a fan whose rows run in cell order visit only
            /// the cells where its continuation's first tests hold (design notes 6.3). Off: a
            /// search at each cell.
            pub word_tests: bool = true, "word-tests", Optimisation;
            /// A playout's move from a monotonic class's cached list goes from its switch straight
            /// into the keeper's search at the switch's target (`Game::play_class_move`). Off:
            /// the move is applied through `apply_move`, then the keeper's steps through the
            /// dispatch on the rules position.
            pub fused_class_moves: bool = true, "fused-class-moves", Optimisation;
            /// `Game::random_playout` runs its own loop where every monotonic class has one
            /// switch: per class a fixed array of cells filled at the class's first visit,
            /// freshness as bits, the rejection draw and the class's move (`fused-class-moves`)
            /// inline, no calls through the driver's lookups (the same draws, so the same games
            /// from a seed). Off: rbg-core's generic playout loop.
            pub class_playouts: bool = true, "class-playouts", Optimisation;
            /// The whole-board sets of `board-patterns` read their pieces from words that the
            /// state keeps (`set_piece` moves one bit per word) instead of collecting them from
            /// the board at every evaluation, and a set that reads nothing else stays memoised
            /// from one search to the next while those words are unchanged. Off: a pass over the
            /// board per piece set read, and a memo per search.
            pub board_words: bool = true, "board-words", Optimisation;
            /// Count the moves, find the drawn one and build perft's children with word
            /// operations at a rules position whose moves each take a piece of one set along a
            /// fixed offset onto a cell holding given pieces (breakthrough's pawn steps): a
            /// popcount per offset instead of a search (design notes 5 and 6.3). Off: a search.
            pub set_moves: bool = true, "set-moves", Optimisation;
            /// `visit_moves` hands the caller's closure, as a `&mut dyn FnMut`, to one search,
            /// compiled once in the game's crate instead of once per caller's closure and crate
            /// (the drivers' streaming fallbacks, the C ABI's visitor, `has_legal_move`): a
            /// quarter to a third less build time, at one indirect call per move streamed
            /// (docs/results.md, "Compile time"). Listing, counting, drawing and perft's
            /// children keep their own searches. Off: one search per visitor.
            pub shared_visitor: bool = true, "shared-visitor", Optimisation;
            /// On games whose search code is large (the arimaa games), compile the search
            /// for four sinks instead of seven: the keeper's first move, drawing and perft's
            /// children share one sink type, the visitor and the move-by-move filter another,
            /// each choosing at run time what it does. About a third less build time there;
            /// smaller games keep every search specialised (docs/results.md, "Fewer searches
            /// for large games"). Off: one search per sink on every game.
            pub fewer_searches: bool = true, "fewer-searches", Optimisation;
            /// Run a rules position that either finds no capture along a ray or flips the
            /// ray's run of enemy pieces (reversi's `swapDirection`: a negated pattern, then a
            /// modifier per flipped cell and a walk back) as one loop over the ray, in keeper
            /// moves, counting and replay (design notes 5). Off: a pattern search and a
            /// modifier per cell.
            pub ray_captures: bool = true, "ray-captures", Optimisation;
            /// Where every cell of a fan's whole-board set (`board-patterns`) is one move, with
            /// nothing after the tests the set has read but the move's switch (reversi's move:
            /// an empty cell where a flip is possible), count those moves with a popcount and
            /// find the drawn one by dropping the cells before it, instead of entering the
            /// continuation at each cell. Off: a visit per cell.
            pub bulk_counts: bool = true, "bulk-counts", Optimisation;
            /// Build the written crate with fat link-time optimisation across crates (its
            /// profile; no generated code changes). Off: each crate is optimised on its own
            /// and linked as built (the game's code is still one codegen unit): the runner
            /// binary builds in about a third of the time, at up to 10% more instructions in
            /// perft and playouts (docs/results.md, "Compile time").
            pub fat_lto: bool = true, "fat-lto", Optimisation;
        }
    }
}

impl CompileOptions {
    /// A short stable description of the options, for cache keys and generated headers: every
    /// switch (those of the program first) as `+name` or `-name`.
    pub fn fingerprint(&self) -> String {
        Self::all_switches()
            .iter()
            .map(|switch| {
                let on = self.switch(switch.name).unwrap_or(switch.default);
                format!("{}{}", if on { "+" } else { "-" }, switch.name)
            })
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// Why a game could not be compiled.
#[derive(Debug)]
pub enum CompileError {
    /// The shared program could not be built.
    Program(BuildError),
    /// The game exceeds a limit of the generated code.
    TooLarge(String),
    /// The program has a shape the generator does not handle.
    Unsupported(String),
    /// Writing the crate failed.
    Io { path: std::path::PathBuf, error: std::io::Error },
    /// The generated tokens did not form valid Rust (a generator bug).
    Syntax(String),
}

impl std::fmt::Display for CompileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CompileError::Program(e) => write!(f, "cannot compile the game: {e}"),
            CompileError::TooLarge(what) => write!(f, "the game is too large for the compiler: {what}"),
            CompileError::Unsupported(what) => write!(f, "the compiler does not support this game: {what}"),
            CompileError::Io { path, error } => write!(f, "cannot write {}: {error}", path.display()),
            CompileError::Syntax(e) => write!(f, "internal error: generated code does not parse: {e}"),
        }
    }
}

impl std::error::Error for CompileError {}

impl From<BuildError> for CompileError {
    fn from(e: BuildError) -> Self {
        CompileError::Program(e)
    }
}

/// The items of a module implementing the reasoner of `game` (named `name` in its
/// `GameInfo`). The module refers to `::rbg_core`, which the including crate must depend on.
/// Its main type is `Reasoner`, a unit struct implementing `rbg_core::Game`.
pub fn generate_module(
    game: &ir::Game,
    name: &str,
    options: &CompileOptions,
) -> Result<TokenStream, CompileError> {
    let program = Program::build(game, &options.program)?;
    module::module(game, &program, name, options)
}

/// [`generate_module`] formatted as the text of a Rust source file (with `prettyplease`).
pub fn generate_source(
    game: &ir::Game,
    name: &str,
    options: &CompileOptions,
) -> Result<String, CompileError> {
    let tokens = generate_module(game, name, options)?;
    format_file(tokens)
}

/// Formats the tokens of a whole file.
pub fn format_file(tokens: TokenStream) -> Result<String, CompileError> {
    let file: syn::File = syn::parse2(tokens).map_err(|e| CompileError::Syntax(e.to_string()))?;
    Ok(prettyplease::unparse(&file))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fingerprint of the defaults is the text generated headers carried before the switch
    /// tables existed, so default output stays byte-identical.
    #[test]
    fn default_fingerprint_is_unchanged() {
        assert_eq!(
            CompileOptions::default().fingerprint(),
            "+shift-tables +precomputed-patterns +fold-chains +tail-duplication \
             +visited-elimination +constant-folding +fan-filters -always-count-pieces \
             +monotonic-classes +pattern-sharing +pattern-tails +unchecked-modifiers +compact-state \
             +deferred-checks +pattern-order +piece-sets +monotonic-fill +lean-apply +count-replay \
             +visit-children +board-patterns +word-tests +fused-class-moves +class-playouts \
             +board-words +set-moves +shared-visitor +fewer-searches +ray-captures +bulk-counts \
             +fat-lto"
        );
    }

    #[test]
    fn fingerprint_changes_with_every_switch() {
        let default = CompileOptions::default().fingerprint();
        let switches = CompileOptions::all_switches();
        assert_eq!(switches.len(), ProgramOptions::SWITCHES.len() + CompileOptions::SWITCHES.len());
        for switch in switches {
            let mut options = CompileOptions::default();
            assert_eq!(options.switch(switch.name), Some(switch.default));
            assert!(options.set_switch(switch.name, !switch.default));
            assert_ne!(options, CompileOptions::default(), "{} changes no field", switch.name);
            let flipped = options.fingerprint();
            assert_ne!(flipped, default, "{} leaves the fingerprint unchanged", switch.name);
            let sign = if switch.default { '-' } else { '+' };
            assert!(flipped.split(' ').any(|part| part == format!("{sign}{}", switch.name)), "{flipped}");
        }
        assert!(!CompileOptions::default().set_switch("no-such-switch", false));
    }
}
