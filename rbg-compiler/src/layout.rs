//! The state layout: which integer type holds each kind of value (design notes 6.5).
//!
//! With compact state on, cells, pieces, variables, counters and rules positions each get the
//! smallest unsigned type that holds every value they can take, so a chess state is under 80
//! bytes and copy-make is a few vector moves. Cells use `u8` whenever the board plus the
//! off-board sentinel fits; then every per-cell static table is padded to 256 rows so indexing
//! it with a `u8` needs no bounds check.

use proc_macro2::TokenStream;
use quote::quote;
use rbg_automaton::Program;

use crate::CompileError;

/// An unsigned integer type of the generated code.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Uint {
    U8,
    U16,
    U32,
}

impl Uint {
    /// The smallest type holding `0..=max`.
    pub(crate) fn for_max(max: u64) -> Option<Uint> {
        if max <= u8::MAX as u64 {
            Some(Uint::U8)
        } else if max <= u16::MAX as u64 {
            Some(Uint::U16)
        } else if max <= u32::MAX as u64 {
            Some(Uint::U32)
        } else {
            None
        }
    }

    pub(crate) fn max(self) -> u64 {
        match self {
            Uint::U8 => u8::MAX as u64,
            Uint::U16 => u16::MAX as u64,
            Uint::U32 => u32::MAX as u64,
        }
    }

    pub(crate) fn tokens(self) -> TokenStream {
        match self {
            Uint::U8 => quote!(u8),
            Uint::U16 => quote!(u16),
            Uint::U32 => quote!(u32),
        }
    }

    /// A literal of this type.
    pub(crate) fn lit(self, value: u64) -> TokenStream {
        match self {
            Uint::U8 => {
                let v = value as u8;
                quote!(#v)
            }
            Uint::U16 => {
                let v = value as u16;
                quote!(#v)
            }
            Uint::U32 => {
                let v = value as u32;
                quote!(#v)
            }
        }
    }
}

/// Types and sizes of the generated state and tables.
#[derive(Clone, Debug)]
pub(crate) struct Layout {
    pub vertices: usize,
    /// Cell ids: `0..vertices` are vertices, `vertices` is the off-board sentinel.
    pub cell: Uint,
    /// Rows of per-cell static tables (256 for `u8` cells, else `vertices + 1`).
    pub cell_rows: usize,
    pub piece: Uint,
    pub var: Uint,
    pub count: Uint,
    pub node: Uint,
    pub player: Uint,
    /// Per-vertex tables are packed string literals decoded at run time (a board of more than
    /// [`crate::packed::LARGE_BOARD_VERTICES`] vertices), not array literals.
    pub packed: bool,
}

impl Layout {
    pub(crate) fn new(p: &Program, compact: bool) -> Result<Layout, CompileError> {
        let vertices = p.board().vertices() as usize;
        let too_large = |what: &str| CompileError::TooLarge(what.to_string());
        let pick = |max: u64, what: &str| -> Result<Uint, CompileError> {
            let t = Uint::for_max(max).ok_or_else(|| too_large(what))?;
            Ok(if compact { t } else { Uint::U32 })
        };
        let cell = pick(vertices as u64, "vertices")?;
        let cell_rows = if cell == Uint::U8 { 256 } else { vertices + 1 };
        // The piece sentinel on the off-board cell is the type's maximum, never a piece id.
        let piece = pick(p.num_pieces() as u64, "pieces")?;
        let max_bound = p.bounds().iter().copied().max().unwrap_or(0).max(0) as u64;
        let var = pick(max_bound, "variable bounds")?;
        let count = pick(vertices as u64, "vertices")?;
        // Node ids plus one spare id for "no rules position" (an unreachable switch target).
        let node = pick(p.nodes().len() as u64, "automaton nodes")?;
        let player = pick(p.bounds().len() as u64 + 1, "players")?;
        let packed = vertices > crate::packed::LARGE_BOARD_VERTICES;
        Ok(Layout { vertices, cell, cell_rows, piece, var, count, node, player, packed })
    }

    /// The off-board sentinel cell.
    pub(crate) fn off(&self) -> u64 {
        self.vertices as u64
    }

    /// The piece stored on the off-board cell: no on-test accepts it.
    pub(crate) fn piece_sentinel(&self) -> u64 {
        self.piece.max()
    }

    /// The rules position of states whose last switch can never be reached.
    pub(crate) fn dead_node(p: &Program) -> u64 {
        p.nodes().len() as u64
    }
}
