"""The compiled engine for ``rbg.load(path, engine="compiled")``.

The Rust code that generates and caches compiled reasoners lives in the ``rbg`` command (its
vendored sources are packed into that binary), so this module drives the command instead of
duplicating it: ``rbg compile FILE -o DIR --native`` writes the reasoner crate, cargo builds
its library, and ``rbg.load_library`` loads it.

Crates go to ``$RBG_CACHE_DIR/python`` (else ``~/.cache/rbg/python``), one directory per game
text and ``rbg`` binary, all built into one shared cargo target directory so that the
dependencies compile once. Each built library is copied next to its crate under a name of its
own, because libraries of one game's older versions share a file name in the target directory.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path


def rbg_command() -> str:
    """The ``rbg`` binary: ``$RBG``, else ``rbg`` on the PATH."""
    found = os.environ.get("RBG") or shutil.which("rbg")
    if not found:
        raise RuntimeError(
            'engine="compiled" runs the rbg command to build the reasoner: put it on the PATH '
            "(cargo install --path rbg-cli) or set $RBG to its path; cargo is needed too"
        )
    return found


def cache_dir() -> Path:
    root = os.environ.get("RBG_CACHE_DIR") or os.path.join(Path.home(), ".cache", "rbg")
    return Path(root) / "python"


def build_library(path: os.PathLike | str) -> Path:
    """Builds (or finds in the cache) the compiled reasoner library of the game at ``path``."""
    game_file = Path(path)
    text = game_file.read_bytes()
    rbg = rbg_command()
    # Keyed by the game text and the rbg binary (its generator and vendored sources).
    binary = os.stat(rbg)
    key = hashlib.sha256(text + f"{rbg}:{binary.st_size}:{binary.st_mtime_ns}".encode()).hexdigest()[:16]
    crate = cache_dir() / f"{game_file.stem}-{key}"
    library = crate / f"reasoner-{key}{_library_suffix()}"
    if library.exists():
        return library
    _run([rbg, "compile", str(game_file), "-o", str(crate), "--native"], "rbg compile")
    target = cache_dir() / "target"
    cargo = os.environ.get("CARGO", "cargo")
    env = dict(os.environ, CARGO_TARGET_DIR=str(target))
    _run([cargo, "build", "--release", "--lib", "--manifest-path", str(crate / "Cargo.toml")], "cargo build", env, crate)
    built = target / "release" / f"{_library_prefix()}{_package(crate).replace('-', '_')}{_library_suffix()}"
    shutil.copyfile(built, library)
    return library


def _package(crate: Path) -> str:
    manifest = (crate / "Cargo.toml").read_text()
    match = re.search(r'^name\s*=\s*"([^"]+)"', manifest, re.M)
    if not match:
        raise RuntimeError(f"{crate / 'Cargo.toml'} names no package")
    return match.group(1)


def _run(command, what, env=None, cwd=None) -> None:
    try:
        done = subprocess.run(command, env=env, cwd=cwd, capture_output=True, text=True)
    except FileNotFoundError as e:
        raise RuntimeError(f"cannot run {command[0]}: {e}") from e
    if done.returncode != 0:
        raise RuntimeError(f"{what} failed (exit {done.returncode}):\n{done.stderr.strip()}")


def _library_prefix() -> str:
    return "" if sys.platform == "win32" else "lib"


def _library_suffix() -> str:
    return {"win32": ".dll", "darwin": ".dylib"}.get(sys.platform, ".so")
