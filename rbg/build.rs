//! Packs the sources of `rbg-core`, `rbg-dynlib` (the C ABI, without its loader) and `rbg-runner` and the workspace's `Cargo.lock` into the
//! `rbg` library (and so into every program using it: the `rbg` binary, the Python module), so
//! that the crates it generates can carry their own copy of them (`vendor/`) and build
//! offline, wherever this checkout is later moved or even deleted.
//!
//! The vendored manifests are standalone: every key inherited from the workspace
//! (`version.workspace = true`, `rbg-core.workspace = true`) is replaced by its value, and
//! sections a dependency does not need (dev-dependencies, benches, tests) are dropped. An
//! inherited key this script does not know fails the build, so a manifest change cannot slip
//! through into generated crates that do not build.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The crates generated code depends on, in dependency order.
const VENDORED: &[&str] = &["rbg-core", "rbg-dynlib", "rbg-runner"];

fn main() {
    let manifest_dir = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR"));
    let root = manifest_dir.parent().expect("rbg lives in the workspace").to_path_buf();
    let workspace_manifest = read(&root.join("Cargo.toml"));
    let package_values = workspace_package_values(&workspace_manifest);
    let mut files = String::new();
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut add = |files: &mut String, relative: &str, contents: &[u8], source: Option<&Path>| {
        for &b in relative.as_bytes().iter().chain(&[0xff]).chain(contents).chain(&[0xff]) {
            hash ^= b as u64;
            hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
        }
        match source {
            // Sources are included by path, so cargo also tracks them through dep-info.
            Some(path) => {
                let _ =
                    writeln!(files, "    ({relative:?}, include_bytes!({:?})),", path.display().to_string());
            }
            None => {
                let text = String::from_utf8_lossy(contents);
                let _ = writeln!(files, "    ({relative:?}, {text:?}.as_bytes()),");
            }
        }
    };
    for krate in VENDORED {
        let dir = root.join(krate);
        println!("cargo:rerun-if-changed={}", dir.join("Cargo.toml").display());
        println!("cargo:rerun-if-changed={}", dir.join("src").display());
        let manifest = standalone_manifest(krate, &read(&dir.join("Cargo.toml")), &package_values);
        add(&mut files, &format!("{krate}/Cargo.toml"), manifest.as_bytes(), None);
        let mut sources = Vec::new();
        collect_files(&dir.join("src"), &mut sources);
        sources.sort();
        for path in sources {
            let relative =
                path.strip_prefix(&root).expect("below the root").to_string_lossy().replace('\\', "/");
            let contents =
                std::fs::read(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
            add(&mut files, &relative, &contents, Some(&path));
        }
    }
    let lock_path = root.join("Cargo.lock");
    println!("cargo:rerun-if-changed={}", lock_path.display());
    let lock = std::fs::read_to_string(&lock_path).unwrap_or_default();
    let lock_hash = {
        let mut h: u64 = hash;
        for &b in lock.as_bytes() {
            h ^= b as u64;
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
        h
    };
    let code = format!(
        "/// The vendored crates' files, as `(path below vendor/, contents)`.\n\
         pub const FILES: &[(&str, &[u8])] = &[\n{files}];\n\
         /// The workspace's lock file (empty if there was none).\n\
         pub const CARGO_LOCK: &str = {lock:?};\n\
         /// A hash of all of the above, naming the vendored copy in the cache.\n\
         pub const HASH: u64 = {lock_hash:#x};\n"
    );
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("OUT_DIR")).join("vendored.rs");
    std::fs::write(&out, code).unwrap_or_else(|e| panic!("cannot write {}: {e}", out.display()));
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

fn collect_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()));
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect_files(&path, out);
        } else {
            out.push(path);
        }
    }
}

/// `key = value` lines of the workspace's `[workspace.package]` table.
fn workspace_package_values(manifest: &str) -> Vec<(String, String)> {
    let mut in_table = false;
    let mut values = Vec::new();
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            in_table = line == "[workspace.package]";
            continue;
        }
        if let (true, Some((key, value))) = (in_table, line.split_once('=')) {
            values.push((key.trim().to_string(), value.trim().to_string()));
        }
    }
    values
}

/// The crate's manifest with workspace inheritance resolved and test-only sections dropped.
fn standalone_manifest(krate: &str, manifest: &str, package_values: &[(String, String)]) -> String {
    let mut out = String::from("# Vendored by rbg for generated crates; do not edit.\n");
    let mut keep = true;
    for line in manifest.lines() {
        let trimmed = line.trim();
        if trimmed.starts_with('[') {
            keep = !matches!(
                trimmed,
                "[dev-dependencies]"
                    | "[[bench]]"
                    | "[[test]]"
                    | "[[example]]"
                    | "[lints]"
                    | "[build-dependencies]"
            );
        }
        if !keep {
            continue;
        }
        let Some(key) = trimmed.strip_suffix(".workspace = true") else {
            out.push_str(line);
            out.push('\n');
            continue;
        };
        if let Some((_, value)) = package_values.iter().find(|(k, _)| k == key) {
            let _ = writeln!(out, "{key} = {value}");
        } else if VENDORED.contains(&key) {
            let _ = writeln!(out, "{key} = {{ path = \"../{key}\" }}");
        } else {
            panic!("{krate}/Cargo.toml: `{trimmed}` cannot be vendored; rbg/build.rs must learn it");
        }
    }
    out
}
