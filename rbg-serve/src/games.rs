//! The games directory: listing its game files and resolving a requested name to a file
//! inside it (never outside: `..`, absolute paths and links leading out are refused).

use std::path::{Component, Path, PathBuf};

/// Most files listed, and deepest directory walked (a bound for huge or cyclic trees).
const MAX_FILES: usize = 10_000;
const MAX_DEPTH: usize = 8;

/// Whether a file name is a game this server offers.
fn is_game_file(path: &Path) -> bool {
    matches!(path.extension().and_then(|e| e.to_str()), Some("rbg" | "sbg"))
}

/// The game files under `dir`, as `/`-separated paths relative to it, sorted.
pub fn list(dir: &Path) -> Vec<String> {
    let mut found = Vec::new();
    let mut pending = vec![(dir.to_path_buf(), 0usize)];
    while let Some((at, depth)) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&at) else { continue };
        for entry in entries.flatten() {
            let path = entry.path();
            let Ok(kind) = entry.file_type() else { continue };
            if kind.is_dir() && depth + 1 < MAX_DEPTH {
                pending.push((path, depth + 1));
            } else if kind.is_file() && is_game_file(&path) {
                if let Some(name) = relative_name(dir, &path) {
                    found.push(name);
                }
            }
            if found.len() >= MAX_FILES {
                break;
            }
        }
    }
    found.sort();
    found
}

fn relative_name(dir: &Path, path: &Path) -> Option<String> {
    let rest = path.strip_prefix(dir).ok()?;
    let parts: Vec<&str> = rest.components().map(|c| c.as_os_str().to_str()).collect::<Option<_>>()?;
    Some(parts.join("/"))
}

/// Why a requested game name was refused.
#[derive(Debug, PartialEq, Eq)]
pub enum ResolveError {
    /// Not a plain relative path of a game file (absolute, `..`, another extension).
    Invalid,
    /// No such file inside the directory (or it leads outside through a link).
    NotFound,
}

/// The file of the game `name` (as [`list`] writes it) inside `dir`.
pub fn resolve(dir: &Path, name: &str) -> Result<PathBuf, ResolveError> {
    let relative = Path::new(name);
    let plain = relative.components().all(|c| matches!(c, Component::Normal(_)));
    if name.is_empty() || name.len() > 4096 || name.contains('\0') || !plain || !is_game_file(relative) {
        return Err(ResolveError::Invalid);
    }
    let root = dir.canonicalize().map_err(|_| ResolveError::NotFound)?;
    let file = root.join(relative).canonicalize().map_err(|_| ResolveError::NotFound)?;
    if !file.starts_with(&root) || !file.is_file() {
        return Err(ResolveError::NotFound);
    }
    Ok(file)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_that_could_leave_the_directory_are_invalid() {
        let dir = std::env::temp_dir();
        for name in [
            "../x.rbg",
            "/etc/passwd",
            "a/../../x.rbg",
            "",
            "x.txt",
            "./x.rbg",
            "x\0.rbg",
            "..",
            "a//b/../c.rbg",
        ] {
            assert_eq!(resolve(&dir, name), Err(ResolveError::Invalid), "{name:?}");
        }
    }
}
