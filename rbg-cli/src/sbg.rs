//! `rbg sbg2rbg` and `rbg sbg2gdl`: a Simplified Boardgames description translated to RBG or to
//! GDL (rbg-sbg). SBG errors and, should the RBG translation be rejected, the RBG parser's errors
//! mapped back are rendered like any RBG diagnostics, at the SBG source.

use std::path::Path;

use rbg_parser::source::SourceFile;

use rbg_sbg::SbgGame;

use crate::check::write_out;
use crate::diagnostics::{emit, Format};
use crate::load::{language, Language};
use crate::Failure;

/// Translates `path` and writes the RBG text to `output` or stdout.
pub fn sbg2rbg(path: &Path, output: Option<&Path>, format: Format) -> Result<(), Failure> {
    let (game, bytes) = read_sbg(path, format, "sbg2rbg")?;
    let name = path.display().to_string();
    let source = SourceFile::new(name.clone(), bytes.clone());
    let writer = rbg_sbg::to_rbg_writer_with_source(&game, &bytes);
    // The translation is checked before it is written: a rejected one is a bug of ours, but
    // its errors still point at the SBG source.
    let generated = writer.parse(&format!("{name}.rbg"));
    if generated.game.is_none() {
        emit(&source, &generated.mapped, format);
        return Err(Failure::new("the RBG translation was rejected (a bug of the translator)"));
    }
    write_out(writer.text(), output)
}

/// Translates `path` into GDL (KIF) and writes it to `output` or stdout.
pub fn sbg2gdl(path: &Path, output: Option<&Path>, format: Format) -> Result<(), Failure> {
    let (game, _) = read_sbg(path, format, "sbg2gdl")?;
    let text = rbg_sbg::to_gdl(&game).map_err(Failure::new)?;
    write_out(&text, output)
}

/// Reads and parses the SBG file of a command that takes SBG only (`rbg COMMAND`): the game
/// and the file's bytes. SBG errors are rendered here; an RBG file (by its name or its `#`
/// directives) is refused saying so, not with the SBG parser's "Expected '<'".
pub fn read_sbg(path: &Path, format: Format, command: &str) -> Result<(SbgGame, Vec<u8>), Failure> {
    let bytes =
        std::fs::read(path).map_err(|e| Failure::new(format!("cannot read {}: {e}", path.display())))?;
    let name = path.display().to_string();
    if language(path, &bytes) == Language::Rbg || rbg_sbg::file::looks_like_rbg(&bytes) {
        return Err(Failure::new(format!(
            "{name}:1:1: not a Simplified Boardgames description: it looks like an RBG game \
             (rbg {command} reads .sbg files)"
        )));
    }
    match rbg_sbg::parse(&name, &bytes) {
        Ok(game) => Ok((game, bytes)),
        Err(diagnostics) => {
            emit(&SourceFile::new(name, bytes), &diagnostics, format);
            Err(Failure::silent())
        }
    }
}
