//! Building reasoner libraries for the tests: small fake libraries with `rustc`, the toy Nim and
//! compiled games with cargo (in a target directory of their own under cargo's test temp dir,
//! reused between runs).
#![allow(dead_code)] // each test crate uses a different subset

use std::path::{Path, PathBuf};
use std::process::Command;

use rbg_compiler::{write_crate, CompileOptions, CrateDeps};
use rbg_parser::ir;

/// Where the test libraries are built.
pub fn work_dir() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("rbg-dynlib")
}

fn target_dir() -> PathBuf {
    work_dir().join("target")
}

/// The file name of a cdylib called `lib` on this platform.
pub fn cdylib_name(lib: &str) -> String {
    format!("{}{lib}{}", std::env::consts::DLL_PREFIX, std::env::consts::DLL_SUFFIX)
}

/// Compiles one Rust source file into a cdylib with rustc; returns its path.
pub fn rustc_cdylib(name: &str, source: &str) -> PathBuf {
    let dir = work_dir().join("fakes");
    std::fs::create_dir_all(&dir).unwrap();
    let src = dir.join(format!("{name}.rs"));
    std::fs::write(&src, source).unwrap();
    let out = dir.join(cdylib_name(name));
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let status = Command::new(rustc)
        .args(["--edition", "2021", "--crate-type", "cdylib", "-O", "-o"])
        .arg(&out)
        .arg(&src)
        .status()
        .expect("cannot run rustc");
    assert!(status.success(), "rustc failed on {}", src.display());
    out
}

fn cargo_build(dir: &Path) {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let status = Command::new(cargo)
        .args(["build", "--release", "--quiet", "--manifest-path"])
        .arg(dir.join("Cargo.toml"))
        .env("CARGO_TARGET_DIR", target_dir())
        .current_dir(dir)
        .status()
        .expect("cannot run cargo");
    assert!(status.success(), "cargo build failed in {}", dir.display());
}

fn workspace_crate(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().join(name)
}

/// A cdylib exporting the toy Nim (pile of 7) through `rbg_dynlib::export_c_abi!`, built with
/// the default `panic = "unwind"` so the library's panic guards are live.
pub fn nim_library() -> PathBuf {
    let dir = work_dir().join("nim");
    std::fs::create_dir_all(dir.join("src")).unwrap();
    let core = workspace_crate("rbg-core");
    let dynlib = workspace_crate("rbg-dynlib");
    let manifest = format!(
        "[package]\nname = \"rbg-dynlib-test-nim\"\nversion = \"0.1.0\"\nedition = \"2021\"\npublish = false\n\n\
         [lib]\ncrate-type = [\"cdylib\"]\n\n[dependencies]\nrbg-core = {{ path = {:?} }}\n\
         rbg-dynlib = {{ path = {:?}, default-features = false }}\n\n[workspace]\n",
        core.display().to_string(),
        dynlib.display().to_string()
    );
    write_if_changed(&dir.join("Cargo.toml"), &manifest);
    write_if_changed(
        &dir.join("src/lib.rs"),
        "rbg_dynlib::export_c_abi!(rbg_core::toy::Nim = rbg_core::toy::Nim::new(7));\n",
    );
    cargo_build(&dir);
    target_dir().join("release").join(cdylib_name("rbg_dynlib_test_nim"))
}

/// Parses a game of the workspace's `games/` directory.
pub fn game_ir(file: &str) -> ir::Game {
    let path = workspace_crate("games").join(file);
    let bytes = std::fs::read(&path).unwrap();
    let out = rbg_parser::parse(&path.display().to_string(), &bytes);
    out.game.unwrap_or_else(|| panic!("cannot parse {}: {:?}", path.display(), out.diagnostics))
}

/// Generates the compiled crate of `games/<file>` with `rbg_compiler::write_crate`, builds it
/// and returns the path of its cdylib.
pub fn compiled_library(file: &str, name: &str) -> PathBuf {
    let dir = work_dir().join(format!("compiled-{name}"));
    let written =
        write_crate(&game_ir(file), name, &CompileOptions::default(), &dir, &CrateDeps::default(), "dyn")
            .unwrap_or_else(|e| panic!("cannot compile {file}: {e}"));
    cargo_build(&written.dir);
    target_dir().join("release").join(cdylib_name(&written.lib))
}

fn write_if_changed(path: &Path, contents: &str) {
    if std::fs::read_to_string(path).is_ok_and(|old| old == contents) {
        return;
    }
    std::fs::write(path, contents).unwrap();
}

/// Generates the compiled crate of a game given as RBG text, builds it and returns the path of
/// its cdylib.
pub fn compiled_library_of_text(text: &str, name: &str) -> PathBuf {
    let out = rbg_parser::parse(&format!("{name}.rbg"), text.as_bytes());
    let game = out.game.unwrap_or_else(|| panic!("cannot parse {name}: {:?}", out.diagnostics));
    let dir = work_dir().join(format!("compiled-{name}"));
    let written = write_crate(&game, name, &CompileOptions::default(), &dir, &CrateDeps::default(), "dyn")
        .unwrap_or_else(|e| panic!("cannot compile {name}: {e}"));
    cargo_build(&written.dir);
    target_dir().join("release").join(cdylib_name(&written.lib))
}
