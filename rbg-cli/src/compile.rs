//! `rbg compile` and the compiled engine of `rbg perft|mc|bench --engine compiled`.
//!
//! # Crates that travel
//!
//! A generated crate depends on `rbg-core` and `rbg-runner`. Their sources and the workspace's
//! `Cargo.lock` are packed into this binary (see `build.rs`) and written beside the crate: into
//! `DIR/vendor/` for `rbg compile -o DIR`, into `CACHE/vendor-<hash>/` for the cache. The crate
//! names them by relative paths and gets a copy of the lock file, so it builds offline (no
//! index update for each game) after the checkout `rbg` was built from has moved or gone.
//! `rbg compile` writes portable code; `--native` (and the cache) build for this CPU.
//!
//! # Cache
//!
//! The compiled engine writes the game's crate into `CACHE/<game>-<key>/`, where the key hashes
//! the game file's bytes, the compile options, the generator version and the vendored sources,
//! and builds all cached crates into one shared `CACHE/target/` so the dependencies (rbg-core,
//! rbg-runner, clap, …) are built once. `CACHE` is the first of: `$RBG_CACHE_DIR`; `rbg-cache/`
//! in the cargo target directory this `rbg` binary was built into (`target/rbg-cache/`, for a
//! binary run from its checkout); `$XDG_CACHE_HOME/rbg`; `~/.cache/rbg` (`%LOCALAPPDATA%\rbg`
//! on Windows); the system temporary directory's `rbg-cache/`. Files are rewritten only when
//! their contents change, so an unchanged game costs one quick `cargo build` that finds
//! nothing to do.

use std::path::{Path, PathBuf};
use std::process::Command;

use rbg_compiler::{
    write_crate, CompileOptions, CrateDeps, WrittenCrate, GENERATED_MARKER, GENERATOR_VERSION,
};
use rbg_interp::ProgramOptions;

use crate::diagnostics::Format;
use crate::load::{load, Loaded};
use crate::Failure;

/// Optimisations of the compiler (and of the program both engines share); each can be turned
/// off to measure its gain or to bisect a miscompile. None changes the moves generated.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct CompileFlags {
    /// No shift tables: shift-only sub-expressions stay NFA loops.
    #[arg(long)]
    pub no_shift_tables: bool,
    /// No precomputed patterns: shift-only patterns are searched at run time.
    #[arg(long)]
    pub no_precomputed_patterns: bool,
    /// No chain folding: one edge per action, epsilon transitions kept.
    #[arg(long)]
    pub no_fold_chains: bool,
    /// No tail duplication: short exits of join nodes are not copied into their entries.
    #[arg(long)]
    pub no_tail_duplication: bool,
    /// Visited checks at every node instead of only where the analysis needs them.
    #[arg(long)]
    pub no_visited_elimination: bool,
    /// No constant folding of arithmetic and tests.
    #[arg(long)]
    pub no_constant_folding: bool,
    /// No piece filters on fan tables (every row cell enters the continuation).
    #[arg(long)]
    pub no_fan_filters: bool,
    /// No monotonic classes (flat MC regenerates moves at every state).
    #[arg(long)]
    pub no_monotonic_classes: bool,
    /// No sharing of equal pattern automata (and, in the interpreter, no pattern memo).
    #[arg(long)]
    pub no_pattern_sharing: bool,
    /// Maintain piece counts even when no expression reads them.
    #[arg(long)]
    pub always_count_pieces: bool,
    /// Compiler: apply moves by replaying the search instead of a match on action indices.
    #[arg(long)]
    pub no_unchecked_modifiers: bool,
    /// Compiler: 32-bit fields everywhere instead of the smallest integer types.
    #[arg(long)]
    pub no_compact_state: bool,
    /// Compiler: check for the off-board sentinel after every shift.
    #[arg(long)]
    pub no_deferred_checks: bool,
    /// Compiler: try pattern edges in program order instead of closest-to-acceptance first.
    #[arg(long)]
    pub no_pattern_order: bool,
    /// Compiler: scan the board for "any square {P}" instead of keeping piece-location sets.
    #[arg(long)]
    pub no_piece_sets: bool,
}

impl CompileFlags {
    pub fn program_options(&self) -> ProgramOptions {
        ProgramOptions {
            shift_tables: !self.no_shift_tables,
            precomputed_patterns: !self.no_precomputed_patterns,
            fold_chains: !self.no_fold_chains,
            tail_duplication: !self.no_tail_duplication,
            visited_elimination: !self.no_visited_elimination,
            constant_folding: !self.no_constant_folding,
            fan_filters: !self.no_fan_filters,
            always_count_pieces: self.always_count_pieces,
            monotonic_classes: !self.no_monotonic_classes,
            pattern_memo: !self.no_pattern_sharing,
        }
    }

    pub fn compile_options(&self) -> CompileOptions {
        CompileOptions {
            program: self.program_options(),
            unchecked_modifiers: !self.no_unchecked_modifiers,
            compact_state: !self.no_compact_state,
            deferred_checks: !self.no_deferred_checks,
            pattern_order: !self.no_pattern_order,
            piece_sets: !self.no_piece_sets,
        }
    }
}

/// The sources vendored into generated crates (generated by `build.rs`).
mod vendored {
    include!(concat!(env!("OUT_DIR"), "/vendored.rs"));
}

/// How `rbg compile` writes its output directory.
#[derive(Clone, Copy, Debug, Default)]
pub struct CompileTo {
    /// Write into a non-empty directory that is not a generated crate.
    pub force: bool,
    /// Build for this machine's CPU.
    pub native: bool,
}

/// `rbg compile FILE -o DIR`: writes the reasoner crate with its vendored dependencies.
pub fn compile(path: &Path, out: &Path, how: &CompileTo, flags: &CompileFlags) -> Result<(), Failure> {
    check_output_dir(out, how.force)?;
    let Loaded { name, game } = load(path, Format::Human, true)?;
    let vendor = out.join("vendor");
    write_vendored(&vendor)?;
    let deps = CrateDeps {
        rbg_core: PathBuf::from("vendor/rbg-core"),
        rbg_runner: PathBuf::from("vendor/rbg-runner"),
        native_cpu: how.native,
    };
    let written = write_crate(&game, &name, &flags.compile_options(), out, &deps, "")
        .map_err(|e| Failure::new(format!("{}: {e}", path.display())))?;
    write_lock_file(out)?;
    crate::say!(
        "wrote crate {} to {}{}\n  build:  cargo build --release --manifest-path {}\n  run:    {} perft --depth 4",
        written.package,
        out.display(),
        if how.native { " (code for this machine's CPU)" } else { "" },
        out.join("Cargo.toml").display(),
        out.join("target").join("release").join(&written.package).display()
    );
    Ok(())
}

/// Refuses to write into a directory holding anything but a crate generated before, unless
/// `force`: `rbg compile` would replace its `Cargo.toml` and sources.
fn check_output_dir(out: &Path, force: bool) -> Result<(), Failure> {
    if out.exists() && !out.is_dir() {
        return Err(Failure::new(format!("{} exists and is not a directory", out.display())));
    }
    let Ok(mut entries) = std::fs::read_dir(out) else { return Ok(()) };
    if force || entries.next().is_none() {
        return Ok(());
    }
    let manifest = std::fs::read_to_string(out.join("Cargo.toml")).unwrap_or_default();
    if manifest.starts_with(GENERATED_MARKER) {
        return Ok(());
    }
    Err(Failure::new(format!(
        "{} is not empty and holds no crate generated by rbg (its Cargo.toml and sources would be \
         replaced); choose another directory or give --force",
        out.display()
    )))
}

/// Writes the vendored crates into `dir` (files rewritten only when changed).
fn write_vendored(dir: &Path) -> Result<(), Failure> {
    for (relative, contents) in vendored::FILES {
        let path = dir.join(relative);
        if std::fs::read(&path).is_ok_and(|old| old == *contents) {
            continue;
        }
        let io = |e: std::io::Error| Failure::new(format!("cannot write {}: {e}", path.display()));
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(io)?;
        }
        std::fs::write(&path, contents).map_err(io)?;
    }
    Ok(())
}

/// Gives the crate in `dir` the lock file `rbg` was built with, unless it has one: then cargo
/// resolves nothing new and needs no registry index (it drops the entries the crate does not
/// use on its first build).
fn write_lock_file(dir: &Path) -> Result<(), Failure> {
    let path = dir.join("Cargo.lock");
    if vendored::CARGO_LOCK.is_empty() || path.exists() {
        return Ok(());
    }
    std::fs::write(&path, vendored::CARGO_LOCK)
        .map_err(|e| Failure::new(format!("cannot write {}: {e}", path.display())))
}

/// A built compiled engine: the binary to run.
pub struct Engine {
    pub binary: PathBuf,
    pub name: String,
}

/// Generates (if needed) and builds the cached crate of the game at `path`.
pub fn build_engine(path: &Path, flags: &CompileFlags) -> Result<Engine, Failure> {
    let bytes =
        std::fs::read(path).map_err(|e| Failure::new(format!("cannot read {}: {e}", path.display())))?;
    let Loaded { name, game } = load(path, Format::Human, true)?;
    let options = flags.compile_options();
    let cache = cache_dir();
    let vendor = format!("vendor-{:016x}", vendored::HASH);
    write_vendored(&cache.join(&vendor))?;
    let deps = CrateDeps {
        rbg_core: Path::new("..").join(&vendor).join("rbg-core"),
        rbg_runner: Path::new("..").join(&vendor).join("rbg-runner"),
        native_cpu: true,
    };
    let key = cache_key(&bytes, &name, &options, &deps);
    let dir = cache.join(format!("{}-{key:016x}", rbg_compiler::names::snake(&name)));
    let suffix = format!("{:08x}", key >> 32);
    let written = write_crate(&game, &name, &options, &dir, &deps, &suffix)
        .map_err(|e| Failure::new(format!("{}: {e}", path.display())))?;
    write_lock_file(&dir)?;
    let target = cache.join("target");
    cargo_build(&written, &target)?;
    let binary = target.join("release").join(format!("{}{}", written.package, std::env::consts::EXE_SUFFIX));
    if !binary.exists() {
        return Err(Failure::new(format!("cargo reported success but {} is missing", binary.display())));
    }
    Ok(Engine { binary, name })
}

fn cargo_build(written: &WrittenCrate, target: &Path) -> Result<(), Failure> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    crate::say!("rbg: building the compiled reasoner in {} ...", written.dir.display());
    let status = Command::new(&cargo)
        .args(["build", "--release", "--manifest-path"])
        .arg(written.dir.join("Cargo.toml"))
        .env("CARGO_TARGET_DIR", target)
        // The crate's .cargo/config.toml (native CPU) is read from the working directory.
        .current_dir(&written.dir)
        .status()
        .map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => Failure::new(format!(
                "cannot run '{}': the compiled engine builds a Rust crate and needs cargo \
                 (install a Rust toolchain, or set $CARGO to cargo's path)",
                cargo.to_string_lossy()
            )),
            _ => Failure::new(format!("cannot run '{}': {e}", cargo.to_string_lossy())),
        })?;
    if !status.success() {
        return Err(Failure::new(format!(
            "building the compiled reasoner failed (cargo: {status}); its crate is in {}",
            written.dir.display()
        )));
    }
    Ok(())
}

/// The cache directory (see the module docs).
pub fn cache_dir() -> PathBuf {
    let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty()).map(PathBuf::from);
    if let Some(dir) = var("RBG_CACHE_DIR") {
        return dir;
    }
    let exe_target = std::env::current_exe()
        .ok()
        .and_then(|exe| exe.parent().and_then(Path::parent).map(Path::to_path_buf))
        .filter(|t| t.join("CACHEDIR.TAG").exists());
    if let Some(target) = exe_target {
        return target.join("rbg-cache");
    }
    let user_cache = if cfg!(windows) {
        var("LOCALAPPDATA")
    } else {
        var("XDG_CACHE_HOME").filter(|d| d.is_absolute()).or_else(|| var("HOME").map(|h| h.join(".cache")))
    };
    match user_cache {
        Some(dir) => dir.join("rbg"),
        None => std::env::temp_dir().join("rbg-cache"),
    }
}

/// 64-bit FNV-1a over everything the generated crate depends on.
fn cache_key(bytes: &[u8], name: &str, options: &CompileOptions, deps: &CrateDeps) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    // The whole options value (not the curated `fingerprint`), so a new option can never
    // reuse a crate generated without it.
    let fingerprint = format!("{options:?}");
    let parts: [&[u8]; 6] = [
        bytes,
        name.as_bytes(),
        fingerprint.as_bytes(),
        GENERATOR_VERSION.as_bytes(),
        deps.rbg_core.as_os_str().as_encoded_bytes(),
        deps.rbg_runner.as_os_str().as_encoded_bytes(),
    ];
    let vendored = vendored::HASH.to_le_bytes();
    for part in parts.iter().copied().chain([&vendored[..]]) {
        for &b in part.iter().chain(&[0xff]) {
            h ^= b as u64;
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cache_keys_differ_by_game_and_options() {
        let deps = CrateDeps::default();
        let on = CompileOptions::default();
        let off = CompileFlags { no_shift_tables: true, ..Default::default() }.compile_options();
        let a = cache_key(b"game a", "a", &on, &deps);
        assert_eq!(a, cache_key(b"game a", "a", &on, &deps));
        assert_ne!(a, cache_key(b"game b", "a", &on, &deps));
        assert_ne!(a, cache_key(b"game a", "b", &on, &deps));
        assert_ne!(a, cache_key(b"game a", "a", &off, &deps));
    }

    #[test]
    fn every_flag_reaches_the_options() {
        let all_off = CompileFlags {
            no_shift_tables: true,
            no_precomputed_patterns: true,
            no_fold_chains: true,
            no_tail_duplication: true,
            no_visited_elimination: true,
            no_constant_folding: true,
            no_fan_filters: true,
            no_monotonic_classes: true,
            no_pattern_sharing: true,
            always_count_pieces: true,
            no_unchecked_modifiers: true,
            no_compact_state: true,
            no_deferred_checks: true,
            no_pattern_order: true,
            no_piece_sets: true,
        }
        .compile_options();
        assert_eq!(all_off.program, ProgramOptions::baseline());
        assert!(!all_off.unchecked_modifiers && !all_off.compact_state && !all_off.deferred_checks);
        assert!(!all_off.pattern_order && !all_off.piece_sets);
        assert_eq!(CompileFlags::default().compile_options(), CompileOptions::default());
    }
}
