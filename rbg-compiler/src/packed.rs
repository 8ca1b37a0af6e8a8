//! Per-vertex data of large boards, packed into string literals and decoded at run time.
//!
//! Written as array literals, a table costs the generator a token per entry (quote, syn and
//! prettyplease hold several copies of each: about 14 KB of generator memory per vertex) and
//! rustc as much again. Above [`LARGE_BOARD_VERTICES`] vertices every table that grows with the
//! board is one string literal instead: a single token, however long. The generated statics are
//! then `LazyLock`s decoded on first use, indexed with the same expressions as the arrays of
//! small boards (indexing dereferences through the lock), so the search code does not change;
//! small boards keep their arrays and their generated source byte for byte.
//!
//! Why text in a string literal rather than a byte string or `include_bytes!`: the generated
//! module is also expanded in place by `rbg_game!` and included by build scripts, where no file
//! next to it exists, so the data must travel inside the tokens; and a byte string of
//! arbitrary bytes prints as `\xNN` escapes, four characters a byte, while the digits below
//! are printable and need no escape.
//!
//! The format of a table of integers: each value is the value `stride` places before it (0 for
//! the first row) plus a delta; the delta, zigzag-encoded, is written in base-64 digits
//! (`A-Za-z0-9+/`) of five bits each, least significant first, with the digit's sixth bit set
//! on every digit but the last. On board tables the delta from the previous row is small
//! (`right` of cell v is v + 1, of cell v + 1 is v + 2), so most entries take one character.

use proc_macro2::{Ident, Literal, TokenStream};
use quote::quote;

/// Boards with more vertices than this get packed tables. Far above every corpus game (the
/// largest, paperSoccer, has 1147 vertices), so their generated code does not change, and low
/// enough that a packed board costs well under a second of generation.
pub(crate) const LARGE_BOARD_VERTICES: usize = 4096;

const DIGITS: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// The packed text of `values` (see the module docs), as a string literal.
pub(crate) fn pack(values: impl IntoIterator<Item = u64>, stride: usize) -> Literal {
    let stride = stride.max(1);
    let mut text = String::new();
    let mut prev: Vec<u64> = Vec::new();
    for value in values {
        let base = if prev.len() >= stride { prev[prev.len() - stride] } else { 0 };
        let delta = value.wrapping_sub(base) as i64;
        let mut z = ((delta << 1) ^ (delta >> 63)) as u64;
        loop {
            let low = (z & 31) as usize;
            z >>= 5;
            if z == 0 {
                text.push(DIGITS[low] as char);
                break;
            }
            text.push(DIGITS[low | 32] as char);
        }
        prev.push(value);
    }
    Literal::string(&text)
}

/// The decoder of [`pack`]'s format, an item of the generated module. Malformed text (never
/// produced by the generator) decodes to some values rather than panicking; callers read the
/// result with `get`, so a short table gives defaults, not an index panic.
pub(crate) fn decoder() -> TokenStream {
    quote! {
        /// Decodes a table packed by the generator (rbg-compiler's `packed` module): each value
        /// is the one `stride` places before plus a zigzag delta in base-64 digits of five bits,
        /// low first, the sixth bit marking a digit that is not the last.
        fn unpack(text: &str, stride: usize) -> Vec<u64> {
            let mut out: Vec<u64> = Vec::with_capacity(text.len());
            let (mut acc, mut shift) = (0u64, 0u32);
            for b in text.bytes() {
                let d = u64::from(match b {
                    b'A'..=b'Z' => b - b'A',
                    b'a'..=b'z' => b - b'a' + 26,
                    b'0'..=b'9' => b - b'0' + 52,
                    b'+' => 62,
                    _ => 63,
                });
                acc |= (d & 31).checked_shl(shift).unwrap_or(0);
                shift = shift.saturating_add(5);
                if d < 32 {
                    let delta = (acc >> 1) ^ (acc & 1).wrapping_neg();
                    let base = out.len().checked_sub(stride).and_then(|i| out.get(i)).copied().unwrap_or(0);
                    out.push(base.wrapping_add(delta));
                    (acc, shift) = (0, 0);
                }
            }
            out
        }
    }
}

/// A packed one-dimensional table: `static NAME: LazyLock<Box<[TY]>>` of `len` entries, entry
/// `i` being `convert` applied to the `i`-th of `values` (a `u64` named `x`), or `default`
/// past the end of the packed values.
pub(crate) fn column(
    name: &Ident,
    ty: &TokenStream,
    values: impl IntoIterator<Item = u64>,
    len: usize,
    convert: TokenStream,
    default: TokenStream,
) -> TokenStream {
    let text = pack(values, 1);
    let len = Literal::usize_unsuffixed(len);
    quote! {
        static #name: ::std::sync::LazyLock<Box<[#ty]>> = ::std::sync::LazyLock::new(|| {
            let flat = unpack(#text, 1);
            (0..#len).map(|i| flat.get(i).map_or(#default, |&x| #convert)).collect()
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The generated decoder, transcribed: the test checks the generator's encoding against it
    /// (the generated copy is exercised by the compiled-engine tests of large boards).
    fn unpack(text: &str, stride: usize) -> Vec<u64> {
        let mut out: Vec<u64> = Vec::new();
        let (mut acc, mut shift) = (0u64, 0u32);
        for b in text.bytes() {
            let d = DIGITS.iter().position(|&x| x == b).unwrap() as u64;
            acc |= (d & 31).checked_shl(shift).unwrap_or(0);
            shift += 5;
            if d < 32 {
                let delta = (acc >> 1) ^ (acc & 1).wrapping_neg();
                let base = out.len().checked_sub(stride).map_or(0, |i| out[i]);
                out.push(base.wrapping_add(delta));
                (acc, shift) = (0, 0);
            }
        }
        out
    }

    fn text(l: &Literal) -> String {
        let s = l.to_string();
        s[1..s.len() - 1].to_string()
    }

    #[test]
    fn small_deltas_take_one_digit() {
        // Rows of (v - 1, v + 1): the first row is 0 (digit 'A') and 2 (zigzag 4, 'E'); every
        // later delta from the row before is +1, zigzag 2, digit 'C'.
        let values: Vec<u64> = (1..=5u64).flat_map(|v| [v - 1, v + 1]).collect();
        let packed = text(&pack(values.iter().copied(), 2));
        assert_eq!(packed, format!("AE{}", "CC".repeat(4)));
        assert_eq!(unpack(&packed, 2), values);
    }

    #[test]
    fn extreme_values_round_trip() {
        let values = vec![0, u64::MAX, 1, u32::MAX as u64, 0, 1 << 63, 12_345_678_901, 7, 7, 0];
        for stride in [1, 2, 3, 10, 11] {
            assert_eq!(unpack(&text(&pack(values.iter().copied(), stride)), stride), values, "{stride}");
        }
        assert_eq!(text(&pack(std::iter::empty(), 1)), "");
    }
}
