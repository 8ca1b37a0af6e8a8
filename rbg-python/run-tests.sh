#!/usr/bin/env bash
# Builds the `rbg` Python package into a virtual environment and runs its pytest tests.
#
# The environment lives in the cargo target directory ($CARGO_TARGET_DIR, else target/ of the
# workspace) as rbg-python-venv/, made on first use; maturin and pytest are pinned. The
# extension is built in release mode by `maturin develop`, sharing the workspace's target
# directory, so after the workspace's own release build only pyo3 and this crate compile.
# Extra arguments go to pytest (e.g. `-k serialize`). RBG_OPENSPIEL=1 also installs open_spiel
# (pinned) so that tests/test_openspiel.py runs instead of being skipped; RBG_RAY=1 installs Ray
# (pinned; 15 s) so that tests/test_cluster.py runs, and makes a missing Ray fail it; RBG_PYTHON_COMPILED=1
# runs tests/test_compiled.py (it builds connect4's compiled reasoner in-process with cargo;
# set RBG_CACHE_DIR to the rbg binary's cache, e.g. $CARGO_TARGET_DIR/rbg-cache, to reuse its built dependencies).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
target="${CARGO_TARGET_DIR:-$root/target}"
venv="$target/rbg-python-venv"
python="${PYTHON:-python3}"

if [ ! -x "$venv/bin/python" ]; then
    "$python" -m venv "$venv"
fi
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check maturin==1.16.0 pytest==9.2.0
# OpenSpiel (and numpy, scipy) only on request: a minute of downloads; its tests skip without it.
if [ "${RBG_OPENSPIEL:-0}" = 1 ]; then
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --only-binary :all: open_spiel==2.0.2
fi
# Ray (rbg.cluster's tests: a two-node cluster on loopback) only on request too.
if [ "${RBG_RAY:-0}" = 1 ]; then
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --only-binary :all: ray==2.60.0
fi

cd "$here"
VIRTUAL_ENV="$venv" PATH="$venv/bin:$PATH" maturin develop --release --quiet
"$venv/bin/python" -m pytest -q tests "$@"
