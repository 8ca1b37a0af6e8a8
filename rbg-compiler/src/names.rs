//! Rust names for the game's own names: `whitePawn` becomes the constant `PIECE_WHITE_PAWN`,
//! the label `up` becomes `LABEL_UP`, the variable `stagnation` becomes `VAR_STAGNATION`.
//!
//! Different game names can map to the same Rust name (`a_b` and `aB`); such collisions get the
//! id appended, so every constant stays unique.

use std::collections::HashSet;

use proc_macro2::{Ident, Span};

/// `camelCase`/`snake_case`/anything → `UPPER_SNAKE`, restricted to `[A-Z0-9_]`.
pub(crate) fn upper_snake(name: &str) -> String {
    let mut out = String::new();
    let mut prev_lower_or_digit = false;
    for ch in name.chars() {
        if ch.is_ascii_uppercase() && prev_lower_or_digit {
            out.push('_');
        }
        if ch.is_ascii_alphanumeric() {
            out.push(ch.to_ascii_uppercase());
        } else {
            out.push('_');
        }
        prev_lower_or_digit = ch.is_ascii_lowercase() || ch.is_ascii_digit();
    }
    if out.is_empty() {
        out.push('_');
    }
    out
}

/// `ticTacToe` / `hex_9x9` / `15puzzle` → `TicTacToe` / `Hex9x9` / `Game15puzzle`.
pub fn upper_camel(name: &str) -> String {
    let mut out = String::new();
    let mut upper_next = true;
    for ch in name.chars() {
        if !ch.is_ascii_alphanumeric() {
            upper_next = true;
            continue;
        }
        if upper_next {
            out.push(ch.to_ascii_uppercase());
        } else {
            out.push(ch);
        }
        upper_next = false;
    }
    if out.is_empty() || out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert_str(0, "Game");
    }
    out
}

/// `ticTacToe` / `nsplit/amazons_nsplit` → `tic_tac_toe` / `nsplit_amazons_nsplit`, a valid
/// module name (keywords get a trailing underscore).
pub fn snake(name: &str) -> String {
    let mut s = upper_snake(name).to_ascii_lowercase();
    if s.starts_with(|c: char| c.is_ascii_digit()) {
        s.insert_str(0, "game_");
    }
    if syn_keyword(&s) {
        s.push('_');
    }
    s
}

/// Whether `s` cannot be an identifier: a Rust keyword (syn's list, plus `gen`, reserved by
/// the 2024 edition) or `_`.
fn syn_keyword(s: &str) -> bool {
    s == "gen" || syn::parse_str::<syn::Ident>(s).is_err()
}

/// Constant names for a list of game names, each `PREFIX_NAME`, unique.
pub(crate) fn constants(prefix: &str, names: &[String]) -> Vec<Ident> {
    let mut used = HashSet::new();
    names
        .iter()
        .enumerate()
        .map(|(i, n)| {
            let mut s = format!("{prefix}_{}", upper_snake(n));
            if !used.insert(s.clone()) {
                s = format!("{s}_{i}");
                used.insert(s.clone());
            }
            Ident::new(&s, Span::call_site())
        })
        .collect()
}

/// Doc attributes for a multi-line text, one `#[doc]` per line so it prints as `///` lines.
pub(crate) fn doc(text: &str) -> proc_macro2::TokenStream {
    let lines = text.lines().map(|l| format!(" {l}"));
    quote::quote!(#(#[doc = #lines])*)
}

/// Inner doc attributes (`//!` lines) for a multi-line text.
pub(crate) fn inner_doc(text: &str) -> proc_macro2::TokenStream {
    let lines = text.lines().map(|l| format!(" {l}"));
    quote::quote!(#(#![doc = #lines])*)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_names_become_rust_names() {
        assert_eq!(upper_snake("whitePawn"), "WHITE_PAWN");
        assert_eq!(upper_snake("e"), "E");
        assert_eq!(upper_snake("rook2x"), "ROOK2X");
        assert_eq!(upper_camel("ticTacToe"), "TicTacToe");
        assert_eq!(upper_camel("hex_9x9"), "Hex9x9");
        assert_eq!(upper_camel("15puzzle"), "Game15puzzle");
        assert_eq!(snake("ticTacToe"), "tic_tac_toe");
        assert_eq!(snake("nsplit/amazons_nsplit"), "nsplit_amazons_nsplit");
        assert_eq!(snake("15puzzle"), "game_15puzzle");
        assert_eq!(snake("move"), "move_");
        for keyword in ["match", "self", "try", "gen", "async", "yield", "abstract"] {
            assert_eq!(snake(keyword), format!("{keyword}_"));
        }
    }

    #[test]
    fn colliding_names_stay_unique() {
        let names = vec!["aB".to_string(), "a_b".to_string(), "c".to_string()];
        let ids: Vec<String> = constants("PIECE", &names).iter().map(|i| i.to_string()).collect();
        assert_eq!(ids, ["PIECE_A_B", "PIECE_A_B_1", "PIECE_C"]);
    }
}
