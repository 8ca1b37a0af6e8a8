//! `rbg compile` and the compiled engine of `rbg perft|mc|bench --engine compiled`.
//!
//! # Crates that travel
//!
//! A generated crate depends on `rbg-core`, `rbg-dynlib` (the C ABI, without its loader) and
//! `rbg-runner`. Their sources and the workspace's `Cargo.lock` are packed into this binary (see `build.rs`) and written beside the crate: into
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
use rbg_interp::program::{Switch, SwitchKind, Switches};
use rbg_interp::{InterpOptions, ProgramOptions};

use crate::diagnostics::Format;
use crate::load::{load, Loaded};
use crate::Failure;

/// Which engines a switch affects.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// A switch of the program both engines share ([`ProgramOptions`]).
    BothEngines,
    /// A switch of the compiler only ([`CompileOptions`]).
    Compiler,
    /// A switch of the interpreter only ([`InterpOptions`]).
    Interpreter,
}

impl Scope {
    fn describe(self) -> &'static str {
        match self {
            Scope::BothEngines => "both engines",
            Scope::Compiler => "compiled engine only",
            Scope::Interpreter => "interpreter only",
        }
    }
}

/// Every switch of both engines with the engines it affects: the one table the command-line
/// flags, the options they produce and the README's list are built from.
pub fn all_switches() -> Vec<(Switch, Scope)> {
    let tagged = |switches: &'static [Switch], scope: Scope| switches.iter().map(move |s| (*s, scope));
    tagged(ProgramOptions::SWITCHES, Scope::BothEngines)
        .chain(tagged(CompileOptions::SWITCHES, Scope::Compiler))
        .chain(tagged(InterpOptions::SWITCHES, Scope::Interpreter))
        .collect()
}

/// The help text of a switch's flag.
fn flag_help(switch: &Switch, scope: Scope) -> String {
    let kind = match switch.kind {
        SwitchKind::Optimisation => "optimisation, on by default",
        SwitchKind::Check => "correctness check, off by default",
        SwitchKind::Measurement => "measurement, off by default",
    };
    format!("{} [{kind}; {}]", switch.summary(), scope.describe())
}

/// The README's list of switches (one line per flag), checked by a test against the table.
#[cfg(test)]
fn readme_switch_list() -> String {
    all_switches()
        .iter()
        .map(|(switch, scope)| format!("- `--{}`: {}\n", switch.flag, flag_help(switch, *scope)))
        .collect()
}

/// The switches of both engines, as set on the command line: `--no-<name>` turns off an
/// optimisation, `--<name>` turns on a check (see [`all_switches`]). The flags are generated from
/// the switch tables, so every switch is reachable and documented in `--help`.
#[derive(Clone, Debug, Default)]
pub struct CompileFlags {
    compile: CompileOptions,
    interp: InterpOptions,
}

impl CompileFlags {
    /// Flags with the named switch moved away from its default (`None` for an unknown name).
    #[cfg(test)]
    fn with_flag(mut self, flag: &str) -> Option<Self> {
        let (switch, _) = all_switches().into_iter().find(|(s, _)| s.flag == flag)?;
        self.set(&switch, !switch.default);
        Some(self)
    }

    fn set(&mut self, switch: &Switch, on: bool) {
        // A program switch lives in both option sets; an engine's own switch in one of them.
        let in_compiler = self.compile.set_switch(switch.name, on);
        let in_interp = self.interp.set_switch(switch.name, on);
        debug_assert!(in_compiler || in_interp, "switch {} is in no option set", switch.name);
    }

    pub fn compile_options(&self) -> CompileOptions {
        self.compile.clone()
    }

    pub fn interp_options(&self) -> InterpOptions {
        self.interp.clone()
    }
}

impl clap::FromArgMatches for CompileFlags {
    fn from_arg_matches(matches: &clap::ArgMatches) -> Result<Self, clap::Error> {
        let mut flags = CompileFlags::default();
        flags.update_from_arg_matches(matches)?;
        Ok(flags)
    }

    fn update_from_arg_matches(&mut self, matches: &clap::ArgMatches) -> Result<(), clap::Error> {
        for (switch, _) in all_switches() {
            if matches.try_get_one::<bool>(switch.flag).ok().flatten() == Some(&true) {
                self.set(&switch, !switch.default);
            }
        }
        Ok(())
    }
}

impl clap::Args for CompileFlags {
    fn augment_args(command: clap::Command) -> clap::Command {
        command.args(all_switches().into_iter().map(|(switch, scope)| {
            clap::Arg::new(switch.flag)
                .long(switch.flag)
                .action(clap::ArgAction::SetTrue)
                .help(flag_help(&switch, scope))
                .help_heading("Switches")
        }))
    }

    fn augment_args_for_update(command: clap::Command) -> clap::Command {
        Self::augment_args(command)
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
    let Loaded { name, game, .. } = load(path, Format::Human, true)?;
    let vendor = out.join("vendor");
    write_vendored(&vendor)?;
    let deps = CrateDeps {
        rbg_core: PathBuf::from("vendor/rbg-core"),
        rbg_runner: PathBuf::from("vendor/rbg-runner"),
        rbg_dynlib: PathBuf::from("vendor/rbg-dynlib"),
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

/// A built compiled engine: the binary to run, and the reasoner library to load in-process
/// (with `rbg_dynlib::load`).
pub struct Engine {
    pub binary: PathBuf,
    pub library: PathBuf,
    pub name: String,
}

/// Generates (if needed) and builds the cached crate of the game at `path`.
pub fn build_engine(path: &Path, flags: &CompileFlags) -> Result<Engine, Failure> {
    // Keyed by the RBG text, so a changed SBG translator rebuilds the engines of SBG games.
    let Loaded { name, game, rbg_text: bytes, .. } = load(path, Format::Human, true)?;
    let options = flags.compile_options();
    let cache = cache_dir();
    let vendor = format!("vendor-{:016x}", vendored::HASH);
    write_vendored(&cache.join(&vendor))?;
    let deps = CrateDeps {
        rbg_core: Path::new("..").join(&vendor).join("rbg-core"),
        rbg_runner: Path::new("..").join(&vendor).join("rbg-runner"),
        rbg_dynlib: Path::new("..").join(&vendor).join("rbg-dynlib"),
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
    let library = target.join("release").join(format!(
        "{}{}{}",
        std::env::consts::DLL_PREFIX,
        written.package.replace('-', "_"),
        std::env::consts::DLL_SUFFIX
    ));
    for built in [&binary, &library] {
        if !built.exists() {
            return Err(Failure::new(format!("cargo reported success but {} is missing", built.display())));
        }
    }
    Ok(Engine { binary, library, name })
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
    let parts: [&[u8]; 7] = [
        bytes,
        name.as_bytes(),
        fingerprint.as_bytes(),
        GENERATOR_VERSION.as_bytes(),
        deps.rbg_core.as_os_str().as_encoded_bytes(),
        deps.rbg_runner.as_os_str().as_encoded_bytes(),
        deps.rbg_dynlib.as_os_str().as_encoded_bytes(),
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
        let a = cache_key(b"game a", "a", &on, &deps);
        assert_eq!(a, cache_key(b"game a", "a", &on, &deps));
        assert_ne!(a, cache_key(b"game b", "a", &on, &deps));
        assert_ne!(a, cache_key(b"game a", "b", &on, &deps));
        for (switch, scope) in all_switches() {
            if scope == Scope::Interpreter {
                continue;
            }
            let flags = CompileFlags::default().with_flag(switch.flag).unwrap();
            let key = cache_key(b"game a", "a", &flags.compile_options(), &deps);
            assert_ne!(a, key, "--{} does not change the cache key", switch.flag);
        }
    }

    #[test]
    fn every_flag_reaches_the_options() {
        let mut all = CompileFlags::default();
        for (switch, _) in all_switches() {
            all = all.with_flag(switch.flag).unwrap();
        }
        let compile = all.compile_options();
        assert_eq!(compile.program, ProgramOptions::baseline());
        assert!(!compile.unchecked_modifiers && !compile.compact_state && !compile.deferred_checks);
        assert!(!compile.pattern_order && !compile.piece_sets);
        let interp = all.interp_options();
        assert_eq!(interp.program, ProgramOptions::baseline());
        assert!(interp.checked_keeper && !interp.fuse_ops && !interp.pure_patterns && !interp.piece_bitsets);
        assert_eq!(CompileFlags::default().compile_options(), CompileOptions::default());
        assert_eq!(CompileFlags::default().interp_options(), InterpOptions::default());
        assert!(CompileFlags::default().with_flag("no-such-switch").is_none());
    }

    #[test]
    fn switch_names_and_flags_are_unique() {
        let switches = all_switches();
        for (i, (a, _)) in switches.iter().enumerate() {
            for (b, _) in &switches[i + 1..] {
                assert_ne!(a.name, b.name);
                assert_ne!(a.flag, b.flag);
            }
        }
    }

    /// The README lists every switch between two markers, exactly as the table renders it.
    #[test]
    fn readme_lists_every_switch() {
        let readme = include_str!("../../README.md");
        let start = "<!-- switches: generated from the switch tables, checked by a test -->\n";
        let end = "<!-- /switches -->";
        let from = readme.find(start).expect("README has no switch list start marker") + start.len();
        let to = from + readme[from..].find(end).expect("README has no switch list end marker");
        assert_eq!(
            &readme[from..to],
            readme_switch_list(),
            "README's switch list is out of date; replace it by the expected text"
        );
    }
}
