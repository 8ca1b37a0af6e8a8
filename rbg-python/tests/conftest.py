"""Paths of the games the tests read, and the reference perft table.

The corpus and the reference results live beside the workspace (../shared), or where
$RBG_CORPUS and $RBG_CONFORMANCE point, as for the Rust tests. Missing data fails the tests
unless RBG_SKIP_CONFORMANCE=1 outside CI (the Rust tests' policy).
"""

import csv
import os
from pathlib import Path

import pytest

WORKSPACE = Path(__file__).resolve().parents[2]
GAMES = WORKSPACE / "games"
CORPUS = Path(os.environ.get("RBG_CORPUS", WORKSPACE / ".." / "shared" / "corpus"))
CONFORMANCE = Path(os.environ.get("RBG_CONFORMANCE", WORKSPACE / ".." / "shared" / "conformance"))


def require(path: Path) -> Path:
    """`path`, or a failure (a skip when asked for outside CI) if it is missing."""
    if not path.exists():
        if os.environ.get("RBG_SKIP_CONFORMANCE") == "1" and os.environ.get("CI") != "true":
            pytest.skip(f"{path} is missing (RBG_SKIP_CONFORMANCE=1)")
        pytest.fail(f"{path} is missing: put the corpus in ../shared or set RBG_CORPUS/RBG_CONFORMANCE")
    return path


def corpus_game(name: str) -> Path:
    return require(CORPUS / f"{name}.rbg")


def reference_perft(game: str):
    """{depth: (leaves, states)} of `game` from the reference table (rows that finished)."""
    table = require(CONFORMANCE / "reference-perft.csv")
    rows = {}
    with open(table, newline="") as f:
        for row in csv.DictReader(f):
            if row["game"] == game and row["leaves"]:
                rows[int(row["depth"])] = (int(row["leaves"]), int(row["states"]))
    assert rows, f"no reference perft of {game}"
    return rows


@pytest.fixture(scope="session")
def tictactoe():
    import rbg

    return rbg.load(GAMES / "ticTacToe.rbg")


@pytest.fixture(scope="session")
def breakthrough():
    import rbg

    return rbg.load(corpus_game("breakthrough"))
