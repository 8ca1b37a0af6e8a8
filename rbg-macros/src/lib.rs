//! `rbg_game!`: a game description compiled into a reasoner type when the using crate builds.
//!
//! ```ignore
//! rbg_macros::rbg_game!("games/breakthrough.rbg");            // type `Breakthrough`
//! rbg_macros::rbg_game!(Tic = "games/ticTacToe.rbg");          // type `Tic`
//!
//! use rbg_core::Game;
//! let game = Breakthrough;                                     // a unit struct
//! let state = game.initial_state();
//! ```
//!
//! The path is relative to the using crate's `CARGO_MANIFEST_DIR`. The macro expands to a
//! module named after the file (`breakthrough`, holding the state type, the tables and the
//! constants such as `breakthrough::PIECE_W`) and a `pub use` of its `Reasoner` under the type
//! name (the file stem in `UpperCamelCase`, or the name given before `=`). The using crate must
//! depend on `rbg-core`. The file is RBG or Simplified Boardgames (`.sbg`, read through its RBG
//! translation), as everywhere else (`rbg_sbg::file`). Errors in the file become compile errors
//! carrying the parser's message and the line and column in the game file (the SBG file for an
//! SBG game); the expansion also `include_bytes!`s the file, so editing the game rebuilds the
//! crate.

#![forbid(unsafe_code)]

use std::path::{Path, PathBuf};

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote};
use syn::parse::{Parse, ParseStream};
use syn::{Ident, LitStr, Token};

use rbg_compiler::{generate_module, names, CompileOptions};

/// `"path"` or `Name = "path"`.
struct Input {
    name: Option<Ident>,
    path: LitStr,
}

impl Parse for Input {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        if input.peek(LitStr) {
            return Ok(Input { name: None, path: input.parse()? });
        }
        let name: Ident = input.parse()?;
        input.parse::<Token![=]>()?;
        Ok(Input { name: Some(name), path: input.parse()? })
    }
}

/// Compiles the RBG game at the given path into a reasoner type implementing `rbg_core::Game`
/// (see the crate docs).
#[proc_macro]
pub fn rbg_game(input: proc_macro::TokenStream) -> proc_macro::TokenStream {
    let input = syn::parse_macro_input!(input as Input);
    match expand(&input) {
        Ok(tokens) => tokens.into(),
        Err(message) => {
            let span = input.path.span();
            quote::quote_spanned!(span=> compile_error!(#message);).into()
        }
    }
}

fn expand(input: &Input) -> Result<TokenStream, String> {
    let base = std::env::var_os("CARGO_MANIFEST_DIR").map(PathBuf::from).unwrap_or_default();
    expand_file(&base, &input.path.value(), input.name.clone())
}

/// The expansion for the game file `relative` to `base`, or the compile error's message.
fn expand_file(base: &Path, relative: &str, name: Option<Ident>) -> Result<TokenStream, String> {
    let path = base.join(relative);
    let bytes = std::fs::read(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_else(|| "game".into());
    // Named by the path as written, so errors read `games/x.rbg:5:3: error: ...`.
    let parsed = rbg_sbg::file::parse_file(Path::new(relative), bytes);
    let game = match parsed.game {
        Some(game) if !parsed.diagnostics.iter().any(|d| d.is_error()) => game,
        _ => return Err(rbg_sbg::file::errors_text(&parsed.source, &parsed.diagnostics)),
    };
    let module =
        generate_module(&game, &stem, &CompileOptions::default()).map_err(|e| format!("{relative}: {e}"))?;
    let module_name = format_ident!("{}", names::snake(&stem));
    let type_name = name.unwrap_or_else(|| Ident::new(&type_name_for(&stem), Span::call_site()));
    let absolute = path.to_string_lossy().into_owned();
    let doc = format!("The compiled reasoner of `{relative}` (see module [`{module_name}`]).");
    Ok(quote! {
        pub mod #module_name {
            #module
            /// The game file, so that editing it rebuilds the crate.
            const _SOURCE: &[u8] = include_bytes!(#absolute);
        }
        #[doc = #doc]
        pub use #module_name::Reasoner as #type_name;
    })
}

/// The type name for a game file's stem: `UpperCamelCase`, with a trailing `_` if that is a
/// keyword (`Self.rbg` gives `Self_`), as module names get one.
fn type_name_for(stem: &str) -> String {
    let mut name = names::upper_camel(stem);
    if syn::parse_str::<Ident>(&name).is_err() {
        name.push('_');
    }
    name
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch_dir(tag: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("rbg-macros-test-{tag}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        dir
    }

    /// A two-cell game: the only player puts a piece on an empty cell, then the keeper ends it.
    const STRIP: &str = "#players = solo(1)\n#pieces = e, x\n#variables =\n\
        #board = rectangle(up, down, left, right, [e, e])\n\
        #rules = ->solo (left* + right*) {e} [x] ->> {}\n";

    #[test]
    fn a_valid_game_expands_to_a_module_and_a_type() {
        let dir = scratch_dir("ok");
        std::fs::write(dir.join("strip.rbg"), STRIP).expect("write");
        let tokens = expand_file(&dir, "strip.rbg", None).expect("expands").to_string();
        assert!(tokens.contains("pub mod strip"), "{tokens:.200}");
        assert!(tokens.contains("Reasoner as Strip"));
        let named =
            expand_file(&dir, "strip.rbg", Some(Ident::new("Line", Span::call_site()))).expect("expands");
        assert!(named.to_string().contains("Reasoner as Line"));
    }

    #[test]
    fn a_keyword_file_name_still_gives_valid_names() {
        assert_eq!(type_name_for("Self"), "Self_");
        assert_eq!(type_name_for("ticTacToe"), "TicTacToe");
        let dir = scratch_dir("keyword");
        std::fs::write(dir.join("Self.rbg"), STRIP).expect("write");
        let tokens = expand_file(&dir, "Self.rbg", None).expect("expands");
        // The expansion must parse as items (a keyword as a name would not).
        let file: syn::File = syn::parse2(tokens).expect("valid Rust items");
        assert_eq!(file.items.len(), 2);
    }

    #[test]
    fn a_simplified_boardgames_file_expands_too() {
        let dir = scratch_dir("sbg");
        let duel = Path::new(env!("CARGO_MANIFEST_DIR")).join("../games/sbg/duel.sbg");
        std::fs::copy(duel, dir.join("duel.sbg")).expect("copy");
        let tokens = expand_file(&dir, "duel.sbg", None).expect("expands").to_string();
        assert!(tokens.contains("pub mod duel") && tokens.contains("Reasoner as Duel"), "{tokens:.200}");
    }

    #[test]
    fn parse_errors_carry_message_and_location() {
        let dir = scratch_dir("bad");
        // Line 5 uses an undeclared piece `y`.
        let bad = STRIP.replace("{e} [x]", "{e} [y]");
        std::fs::write(dir.join("bad.rbg"), bad).expect("write");
        let err = expand_file(&dir, "bad.rbg", None).expect_err("must fail");
        assert!(err.starts_with("bad.rbg:5:"), "{err}");
        let missing = expand_file(&dir, "missing.rbg", None).expect_err("must fail");
        assert!(missing.contains("cannot read"), "{missing}");
    }
}
