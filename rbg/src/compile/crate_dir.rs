//! A generated crate written to a directory of the user's (`rbg compile FILE -o DIR`): the
//! reasoner's sources, the vendored dependencies in `DIR/vendor/` and the lock file, ready for
//! `cargo build --release` anywhere, offline.

use std::path::{Path, PathBuf};

use rbg_compiler::{write_crate, CompileOptions, CrateDeps, WrittenCrate, GENERATED_MARKER};

use super::vendor::{write_lock_file, write_vendored};
use super::BuildError;
use crate::open::GameFile;

/// How a crate is written to its output directory.
#[derive(Clone, Copy, Debug, Default)]
pub struct CrateTarget {
    /// Write into a non-empty directory that is not a generated crate.
    pub force: bool,
    /// Build for this machine's CPU (the code may not run on another machine).
    pub native: bool,
}

/// Why a directory cannot take a generated crate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutputDirProblem {
    /// The path exists and is not a directory.
    NotADirectory,
    /// The directory holds something else than a crate generated before (its `Cargo.toml` and
    /// sources would be replaced), and writing was not forced.
    Foreign,
}

/// Writes the crate of `game` with its vendored dependencies into `out`.
pub fn write_crate_dir(
    game: &GameFile,
    options: &CompileOptions,
    out: &Path,
    target: &CrateTarget,
) -> Result<WrittenCrate, BuildError> {
    check_output_dir(out, target.force)?;
    write_vendored(&out.join("vendor"))?;
    let deps = CrateDeps {
        rbg_core: PathBuf::from("vendor/rbg-core"),
        rbg_runner: PathBuf::from("vendor/rbg-runner"),
        rbg_dynlib: PathBuf::from("vendor/rbg-dynlib"),
        native_cpu: target.native,
    };
    let written = write_crate(&game.ir, &game.name, options, out, &deps, "").map_err(BuildError::Generate)?;
    write_lock_file(out)?;
    Ok(written)
}

/// Refuses a path that is not a directory, and a non-empty directory holding anything but a
/// crate generated before unless `force`.
fn check_output_dir(out: &Path, force: bool) -> Result<(), BuildError> {
    let problem = |problem| Err(BuildError::OutputDir { dir: out.to_path_buf(), problem });
    if out.exists() && !out.is_dir() {
        return problem(OutputDirProblem::NotADirectory);
    }
    let Ok(mut entries) = std::fs::read_dir(out) else { return Ok(()) };
    if force || entries.next().is_none() {
        return Ok(());
    }
    let manifest = std::fs::read_to_string(out.join("Cargo.toml")).unwrap_or_default();
    if manifest.starts_with(GENERATED_MARKER) {
        return Ok(());
    }
    problem(OutputDirProblem::Foreign)
}
