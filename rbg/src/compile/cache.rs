//! The compile cache: one entry per game text, options and generator, built once and loaded by
//! every front end (the layout and its rules are in the [parent module](super)).

use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use rbg_compiler::{write_crate, CompileOptions, CrateDeps, WrittenCrate, GENERATOR_VERSION};

use super::vendor::{self, write_lock_file, write_vendored};
use super::BuildError;
use crate::open::GameFile;

/// Where cargo's own output goes while a compiled engine is built.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum CargoOutput {
    /// Captured; the end of it is kept in the error when the build fails (for libraries,
    /// servers and the Python module, which own no terminal).
    #[default]
    Capture,
    /// Passed through to this process's standard error (cargo's progress on a terminal).
    Inherit,
}

/// How compiled engines are built and where they are kept.
#[derive(Clone, Debug, Default)]
pub struct BuildSettings {
    /// The cache directory; `None`: [`cache_dir`].
    pub cache_dir: Option<PathBuf>,
    /// The cargo to run; `None`: `$CARGO`, else `cargo` on the path.
    pub cargo: Option<PathBuf>,
    pub cargo_output: CargoOutput,
    /// Called with the crate's directory just before cargo starts (not on a cache hit), so a
    /// front end can say why the next minute goes by.
    pub on_build: Option<fn(&Path)>,
    /// Also build the runner binary (`perft`, `mc` in a process of its own, as `rbg perft
    /// --engine compiled` and the bench suite run it). Off: the reasoner library alone, which
    /// is all that loading the engine needs and builds in a fraction of the time (the binary
    /// links the command line and the drivers with the game). Entries with and without the
    /// binary are kept apart (the choice is part of the key).
    pub runner: bool,
    /// Build for plain x86-64 instead of this machine's CPU (for valgrind, which may not decode
    /// the newest instructions). Portable entries have a key and a cargo target directory of
    /// their own, so the two kinds never rebuild each other's dependencies.
    pub portable: bool,
    /// Run cargo (and the compilers it starts) at the lowest scheduling priority (`nice -n
    /// 19`, where `nice` is on the path), so a build in the background does not take the CPU
    /// from a program that must answer in time (an agent playing while its compiled engine
    /// builds).
    pub low_priority: bool,
}

impl BuildSettings {
    /// The cargo that builds: [`BuildSettings::cargo`], else `$CARGO` (set when running under
    /// cargo), else `cargo` on the path.
    pub fn cargo_program(&self) -> PathBuf {
        self.cargo
            .clone()
            .or_else(|| std::env::var_os("CARGO").filter(|c| !c.is_empty()).map(PathBuf::from))
            .unwrap_or_else(|| PathBuf::from("cargo"))
    }
}

/// A compiled engine in the cache.
#[derive(Clone, Debug)]
pub struct Built {
    /// The game's name.
    pub name: String,
    /// The runner binary (`perft`, `mc` subcommands), built when [`BuildSettings::runner`] asked.
    pub binary: Option<PathBuf>,
    /// The reasoner library, for `rbg_dynlib::load`.
    pub library: PathBuf,
    /// The cache entry holding the crate and both files.
    pub entry: PathBuf,
    /// The entry was complete already (built earlier, or by another process meanwhile).
    pub cached: bool,
}

/// The default cache directory, the first of: `$RBG_CACHE_DIR`; `rbg-cache/` in the cargo
/// target directory the running program was built into (a program run from its checkout);
/// `$XDG_CACHE_HOME/rbg`; `~/.cache/rbg` (`%LOCALAPPDATA%\rbg` on Windows); the temporary
/// directory's `rbg-cache/`.
pub fn cache_dir() -> PathBuf {
    let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty()).map(PathBuf::from);
    if let Some(dir) = var("RBG_CACHE_DIR") {
        return dir;
    }
    if let Some(target) = exe_target_dir() {
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

/// The cargo target directory holding the running program: `target/` for `target/release/rbg`
/// or `target/release/deps/<test>` (cargo marks it with `CACHEDIR.TAG`).
fn exe_target_dir() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    exe.ancestors().skip(2).take(2).find(|dir| dir.join("CACHEDIR.TAG").exists()).map(Path::to_path_buf)
}

/// Builds the compiled engine of `game` (or finds it in the cache).
pub fn build_engine(
    game: &GameFile,
    options: &CompileOptions,
    settings: &BuildSettings,
) -> Result<Built, BuildError> {
    let cache = settings.cache_dir.clone().unwrap_or_else(cache_dir);
    let vendor = ensure_vendored(&cache)?;
    let deps = CrateDeps {
        rbg_core: Path::new("..").join(&vendor).join("rbg-core"),
        rbg_runner: Path::new("..").join(&vendor).join("rbg-runner"),
        rbg_dynlib: Path::new("..").join(&vendor).join("rbg-dynlib"),
        native_cpu: !settings.portable,
    };
    // Keyed by the RBG text, so a changed SBG translator rebuilds the engines of SBG games.
    let key = cache_key(&game.rbg_text, &game.name, options, &deps, &build_environment(), settings.runner);
    let entry = Entry { dir: cache.join(format!("{}-{key:016x}", rbg_compiler::names::snake(&game.name))) };
    if let Some(built) = entry.complete(&game.name, settings.runner) {
        return Ok(built);
    }
    let _lock = lock(&entry.dir)?;
    // Another process (or thread) may have built it while this one waited for the lock.
    if let Some(built) = entry.complete(&game.name, settings.runner) {
        return Ok(built);
    }
    let suffix = format!("{:08x}", key >> 32);
    let written = write_crate(&game.ir, &game.name, options, &entry.dir, &deps, &suffix)
        .map_err(BuildError::Generate)?;
    write_lock_file(&entry.dir)?;
    let target = cache.join(if settings.portable { "target-portable" } else { "target" });
    run_cargo(&written, &target, settings)?;
    let release = target.join("release");
    let binary = settings.runner.then(|| format!("{}{}", written.package, std::env::consts::EXE_SUFFIX));
    let library = format!("{}{}{}", std::env::consts::DLL_PREFIX, written.lib, std::env::consts::DLL_SUFFIX);
    let files: Vec<&str> = binary.iter().map(String::as_str).chain([library.as_str()]).collect();
    entry.install(&release, &files)?;
    entry.mark_complete(binary.as_deref(), &library)?;
    Ok(Built {
        name: game.name.clone(),
        binary: binary.map(|b| entry.dir.join(b)),
        library: entry.dir.join(library),
        entry: entry.dir,
        cached: false,
    })
}

/// Writes the vendored sources into `CACHE/vendor-<hash>/` once (under a lock, completion
/// marked last) and returns that directory's name.
fn ensure_vendored(cache: &Path) -> Result<String, BuildError> {
    let name = format!("vendor-{:016x}", vendor::HASH);
    let dir = cache.join(&name);
    let marker = dir.join(COMPLETE);
    if marker.exists() {
        return Ok(name);
    }
    let _lock = lock(&dir)?;
    if !marker.exists() {
        write_vendored(&dir)?;
        write_atomically(&marker, b"")?;
    }
    Ok(name)
}

/// The file whose presence makes a directory of the cache complete; written last.
const COMPLETE: &str = "complete";

/// A directory of the cache holding one game's crate and, once built, its binary and library.
struct Entry {
    dir: PathBuf,
}

impl Entry {
    /// The built engine if the entry is complete: its marker names the library (and the
    /// binary, when `runner`) and they exist.
    fn complete(&self, name: &str, runner: bool) -> Option<Built> {
        let marker = std::fs::read_to_string(self.dir.join(COMPLETE)).ok()?;
        let field = |key: &str| {
            marker
                .lines()
                .find_map(|line| line.strip_prefix(key)?.strip_prefix(' '))
                .map(|f| self.dir.join(f))
        };
        let (binary, library) = (field("binary"), field("library")?);
        let binary_ok = !runner || binary.as_ref().is_some_and(|b| b.is_file());
        (binary_ok && library.is_file()).then(|| Built {
            name: name.to_string(),
            binary,
            library,
            entry: self.dir.clone(),
            cached: true,
        })
    }

    /// Copies the named files of `from` into the entry, each under a temporary name renamed
    /// when whole (a process using an older copy keeps its own file).
    fn install(&self, from: &Path, files: &[&str]) -> Result<(), BuildError> {
        for file in files {
            let (source, installed) = (from.join(file), self.dir.join(file));
            if !source.is_file() {
                return Err(BuildError::MissingOutput { path: source });
            }
            let partial = self.dir.join(format!("{file}.partial"));
            std::fs::copy(&source, &partial)
                .map_err(|error| BuildError::Io { path: partial.clone(), error })?;
            std::fs::rename(&partial, &installed)
                .map_err(|error| BuildError::Io { path: installed, error })?;
        }
        Ok(())
    }

    fn mark_complete(&self, binary: Option<&str>, library: &str) -> Result<(), BuildError> {
        let binary = binary.map_or(String::new(), |b| format!("binary {b}\n"));
        write_atomically(&self.dir.join(COMPLETE), format!("{binary}library {library}\n").as_bytes())
    }
}

/// Writes `path` through a temporary file renamed over it, so it is never seen half written.
fn write_atomically(path: &Path, contents: &[u8]) -> Result<(), BuildError> {
    let partial = path.with_extension("partial");
    std::fs::write(&partial, contents).map_err(|error| BuildError::Io { path: partial.clone(), error })?;
    std::fs::rename(&partial, path).map_err(|error| BuildError::Io { path: path.to_path_buf(), error })
}

/// Creates `dir` and takes the exclusive lock of its `.lock` file, held until the file is
/// dropped; other processes and threads wait for it.
fn lock(dir: &Path) -> Result<File, BuildError> {
    let path = dir.join(".lock");
    let io = |error: io::Error| BuildError::Io { path: path.clone(), error };
    std::fs::create_dir_all(dir).map_err(io)?;
    let file = File::options().create(true).truncate(false).write(true).open(&path).map_err(io)?;
    file.lock().map_err(io)?;
    Ok(file)
}

/// Runs `cargo build --release` on the written crate into the shared target directory.
fn run_cargo(written: &WrittenCrate, target: &Path, settings: &BuildSettings) -> Result<(), BuildError> {
    let cargo = settings.cargo_program();
    if let Some(on_build) = settings.on_build {
        on_build(&written.dir);
    }
    let nice = nice_program(settings.low_priority);
    if nice.is_some() && find_program(&cargo).is_none() {
        let error = io::Error::new(io::ErrorKind::NotFound, "not found");
        return Err(BuildError::CargoNotRun { cargo, error });
    }
    let mut command = match nice {
        Some(nice) => {
            let mut command = Command::new(nice);
            command.args(["-n", "19"]).arg(&cargo);
            command
        }
        None => Command::new(&cargo),
    };
    command.args(["build", "--release"]);
    if !settings.runner {
        command.arg("--lib");
    }
    command
        .arg("--manifest-path")
        .arg(written.dir.join("Cargo.toml"))
        .env("CARGO_TARGET_DIR", target)
        // The crate's .cargo/config.toml (native CPU) is read from the working directory.
        .current_dir(&written.dir)
        .stdin(Stdio::null());
    let not_run = |error| BuildError::CargoNotRun { cargo: cargo.clone(), error };
    let (status, stderr) = match settings.cargo_output {
        CargoOutput::Inherit => (command.status().map_err(not_run)?, String::new()),
        CargoOutput::Capture => {
            let output = command.output().map_err(not_run)?;
            (output.status, tail(&output.stderr, CARGO_TAIL_LINES))
        }
    };
    if status.success() {
        return Ok(());
    }
    Err(BuildError::CargoFailed { crate_dir: written.dir.clone(), status, stderr })
}

/// `nice` from the path when a low-priority build is asked for and it exists (elsewhere the
/// build runs at normal priority). Under `nice` a missing cargo is cargo's failure (status
/// 127) rather than [`BuildError::CargoNotRun`], so cargo is looked for first.
fn nice_program(low_priority: bool) -> Option<PathBuf> {
    if !low_priority || !cfg!(unix) {
        return None;
    }
    find_program(Path::new("nice"))
}

/// The file `program` names: itself when it is a path, else the first match on `$PATH`.
fn find_program(program: &Path) -> Option<PathBuf> {
    if program.components().count() > 1 {
        return program.is_file().then(|| program.to_path_buf());
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).map(|dir| dir.join(program)).find(|file| file.is_file())
}

/// Lines of cargo's captured output kept in an error: the compiler's message is at the end.
const CARGO_TAIL_LINES: usize = 40;

/// The last `lines` lines of `bytes`, as text.
fn tail(bytes: &[u8], lines: usize) -> String {
    let text = String::from_utf8_lossy(bytes);
    let all: Vec<&str> = text.trim_end().lines().collect();
    all[all.len().saturating_sub(lines)..].join("\n")
}

/// The variables of this process's environment that change what cargo builds from the same
/// crate (profile overrides such as `CARGO_PROFILE_RELEASE_LTO`, compiler flags), as sorted
/// `NAME=value` lines: part of the cache key, so an engine built under an override (CI builds
/// them without link-time optimisation) is never found by a build without it.
fn build_environment() -> String {
    let mut vars: Vec<String> = std::env::vars_os()
        .filter_map(|(name, value)| {
            let name = name.into_string().ok()?;
            let affects_build = name.starts_with("CARGO_PROFILE_")
                || ["RUSTFLAGS", "CARGO_ENCODED_RUSTFLAGS", "CARGO_BUILD_RUSTFLAGS", "RUSTC"]
                    .contains(&name.as_str());
            affects_build.then(|| format!("{name}={}", value.to_string_lossy()))
        })
        .collect();
    vars.sort();
    vars.join("\n")
}

/// 64-bit FNV-1a over everything the generated crate depends on.
fn cache_key(
    bytes: &[u8],
    name: &str,
    options: &CompileOptions,
    deps: &CrateDeps,
    environment: &str,
    runner: bool,
) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    // The whole options value (not the curated `fingerprint`), so a new option can never
    // reuse a crate generated without it.
    let fingerprint = format!("{options:?}");
    let native = [deps.native_cpu as u8];
    let runner = [runner as u8];
    let parts: [&[u8]; 10] = [
        bytes,
        name.as_bytes(),
        fingerprint.as_bytes(),
        GENERATOR_VERSION.as_bytes(),
        deps.rbg_core.as_os_str().as_encoded_bytes(),
        deps.rbg_runner.as_os_str().as_encoded_bytes(),
        deps.rbg_dynlib.as_os_str().as_encoded_bytes(),
        &native,
        environment.as_bytes(),
        &runner,
    ];
    let vendored = vendor::HASH.to_le_bytes();
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
    use crate::compile::{all_switches, Scope, SwitchSettings};

    #[test]
    fn cache_keys_differ_by_game_and_options() {
        let deps = CrateDeps::default();
        let on = CompileOptions::default();
        let a = cache_key(b"game a", "a", &on, &deps, "", false);
        assert_eq!(a, cache_key(b"game a", "a", &on, &deps, "", false));
        assert_ne!(a, cache_key(b"game b", "a", &on, &deps, "", false));
        assert_ne!(a, cache_key(b"game a", "b", &on, &deps, "", false));
        assert_ne!(
            a,
            cache_key(
                b"game a",
                "a",
                &on,
                &CrateDeps { native_cpu: true, ..CrateDeps::default() },
                "",
                false
            )
        );
        for (switch, scope) in all_switches() {
            if scope == Scope::Interpreter {
                continue;
            }
            let settings = SwitchSettings::default().with_flag(switch.flag).unwrap();
            let key = cache_key(b"game a", "a", settings.compile_options(), &deps, "", false);
            assert_ne!(a, key, "--{} does not change the cache key", switch.flag);
        }
        let without_lto = cache_key(b"game a", "a", &on, &deps, "CARGO_PROFILE_RELEASE_LTO=false", false);
        assert_ne!(a, without_lto, "a profile override does not change the cache key");
        let with_runner = cache_key(b"game a", "a", &on, &deps, "", true);
        assert_ne!(a, with_runner, "an entry with the runner binary is not one without");
    }

    #[test]
    fn the_tail_keeps_the_last_lines() {
        assert_eq!(tail(b"a\nb\nc\n", 2), "b\nc");
        assert_eq!(tail(b"a\n", 5), "a");
        assert_eq!(tail(b"", 5), "");
    }
}
