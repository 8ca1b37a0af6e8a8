//! The games directory: listing its game files, resolving a requested name to a file inside
//! it, and choosing where a saved file goes (never outside: `..`, absolute paths and links
//! leading out are refused).

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

/// Whether `name` is a plain relative path of a game file: no `..`, `.`, root or prefix, no
/// NUL, an `.rbg` or `.sbg` extension.
pub fn is_plain_game_name(name: &str) -> bool {
    let relative = Path::new(name);
    let plain = relative.components().all(|c| matches!(c, Component::Normal(_)));
    !name.is_empty() && name.len() <= 4096 && !name.contains('\0') && plain && is_game_file(relative)
}

/// The file of the game `name` (as [`list`] writes it) inside `dir`.
pub fn resolve(dir: &Path, name: &str) -> Result<PathBuf, ResolveError> {
    if !is_plain_game_name(name) {
        return Err(ResolveError::Invalid);
    }
    let relative = Path::new(name);
    let root = dir.canonicalize().map_err(|_| ResolveError::NotFound)?;
    let file = root.join(relative).canonicalize().map_err(|_| ResolveError::NotFound)?;
    if !file.starts_with(&root) || !file.is_file() {
        return Err(ResolveError::NotFound);
    }
    Ok(file)
}

/// Why a file could not be saved under a name.
#[derive(Debug, PartialEq, Eq)]
pub enum SaveError {
    /// Not a plain relative path of a game file (absolute, `..`, another extension).
    Invalid,
    /// Its directory does not exist inside the games directory (or leads outside).
    NoDirectory,
    /// A file of that name exists (and overwriting was not asked for), or it is a link or
    /// not a plain file (never written through).
    Exists,
    /// Writing failed.
    Io(String),
}

/// Writes `text` as the game file `name` inside `dir`: its directory must exist inside `dir`
/// (links leading out are refused), an existing file is replaced only if `overwrite` (and
/// never through a link), and a new file is created exclusively (a file appearing meanwhile
/// is not overwritten). Returns the file written.
pub fn save(dir: &Path, name: &str, text: &str, overwrite: bool) -> Result<PathBuf, SaveError> {
    if !is_plain_game_name(name) {
        return Err(SaveError::Invalid);
    }
    let relative = Path::new(name);
    let (Some(parent), Some(file_name)) = (relative.parent(), relative.file_name()) else {
        return Err(SaveError::Invalid);
    };
    let root = dir.canonicalize().map_err(|_| SaveError::NoDirectory)?;
    let folder = root.join(parent).canonicalize().map_err(|_| SaveError::NoDirectory)?;
    if !folder.starts_with(&root) || !folder.is_dir() {
        return Err(SaveError::NoDirectory);
    }
    let file = folder.join(file_name);
    let io = |e: std::io::Error| SaveError::Io(e.to_string());
    match std::fs::symlink_metadata(&file) {
        Ok(meta) if !overwrite || !meta.file_type().is_file() => Err(SaveError::Exists),
        Ok(_) => std::fs::write(&file, text).map_err(io),
        Err(_) => {
            use std::io::Write;
            let mut out =
                std::fs::OpenOptions::new().write(true).create_new(true).open(&file).map_err(|e| {
                    if e.kind() == std::io::ErrorKind::AlreadyExists {
                        SaveError::Exists
                    } else {
                        io(e)
                    }
                })?;
            out.write_all(text.as_bytes()).map_err(io)
        }
    }?;
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

    #[test]
    fn saving_stays_inside_the_directory_and_overwrites_only_when_asked() {
        let dir = std::env::temp_dir().join(format!("rbg-serve-save-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        for name in ["../x.rbg", "/tmp/x.rbg", "x.txt", "a/../x.rbg", ""] {
            assert_eq!(save(&dir, name, "t", true), Err(SaveError::Invalid), "{name:?}");
        }
        assert_eq!(save(&dir, "missing/x.rbg", "t", false), Err(SaveError::NoDirectory));
        save(&dir, "x.rbg", "one", false).unwrap();
        assert_eq!(save(&dir, "x.rbg", "two", false), Err(SaveError::Exists));
        assert_eq!(std::fs::read_to_string(dir.join("x.rbg")).unwrap(), "one");
        save(&dir, "x.rbg", "two", true).unwrap();
        assert_eq!(std::fs::read_to_string(dir.join("x.rbg")).unwrap(), "two");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
