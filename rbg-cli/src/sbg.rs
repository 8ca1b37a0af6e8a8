//! `rbg sbg2rbg` and `rbg sbg2gdl`: a Simplified Boardgames description translated to RBG or to
//! GDL (rbg-sbg). SBG errors and, should the RBG translation be rejected, the RBG parser's errors
//! mapped back are rendered like any RBG diagnostics, at the SBG source.

use std::path::Path;

use rbg_parser::source::SourceFile;

use crate::check::write_out;
use crate::diagnostics::{emit, Format};
use crate::Failure;

/// Translates `path` and writes the RBG text to `output` or stdout.
pub fn sbg2rbg(path: &Path, output: Option<&Path>, format: Format) -> Result<(), Failure> {
    let bytes =
        std::fs::read(path).map_err(|e| Failure::new(format!("cannot read {}: {e}", path.display())))?;
    let name = path.display().to_string();
    let source = SourceFile::new(name.clone(), bytes.clone());
    refuse_rbg(path, &bytes)?;
    let game = rbg_sbg::parse(&name, &bytes).map_err(|diagnostics| {
        emit(&source, &diagnostics, format);
        Failure::silent()
    })?;
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
    let bytes =
        std::fs::read(path).map_err(|e| Failure::new(format!("cannot read {}: {e}", path.display())))?;
    let name = path.display().to_string();
    refuse_rbg(path, &bytes)?;
    let game = rbg_sbg::parse(&name, &bytes).map_err(|diagnostics| {
        emit(&SourceFile::new(name.clone(), bytes.clone()), &diagnostics, format);
        Failure::silent()
    })?;
    let text = rbg_sbg::to_gdl(&game).map_err(Failure::new)?;
    write_out(&text, output)
}

/// An error if the file is RBG rather than Simplified Boardgames (the SBG parser would only say
/// that it expected `<`).
fn refuse_rbg(path: &Path, bytes: &[u8]) -> Result<(), Failure> {
    if rbg_sbg::file::looks_like_rbg(bytes) {
        return Err(Failure::new(format!(
            "{} looks like an RBG game, not a Simplified Boardgames one (.sbg, starting with \
             `<<` and a game name): it needs no translation",
            path.display()
        )));
    }
    Ok(())
}
