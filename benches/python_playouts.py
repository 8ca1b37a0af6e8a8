"""Random playouts per second: `rbg mc` (Rust), `Game.random_playouts` (the loop in Rust,
called from Python) and a loop written in Python (legal_moves/apply), on the interpreter.

Run from the workspace root with the rbg package installed (bash rbg-python/run-tests.sh
makes target/rbg-python-venv):

    target/rbg-python-venv/bin/python benches/python_playouts.py [SECONDS] [ROUNDS]

Each round measures the Rust CLI and Game.random_playouts alternately (one thread, seed 1,
so both play the same games); the best round of each is reported, as the machine is shared.
"""

import json
import random
import subprocess
import sys
import time
from pathlib import Path

import rbg

GAMES = ["breakthrough", "connect4"]
CORPUS = Path("../shared/corpus")
RBG = Path("target/release/rbg")


def rust_cli(path: Path, seconds: float) -> float:
    out = subprocess.run(
        [str(RBG), "mc", "--seconds", str(seconds), "--seed", "1", "--json", str(path)],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return json.loads(out)["playouts_per_s"]


def rust_loop_from_python(game: rbg.Game, seconds: float, threads: int = 1) -> float:
    return game.random_playouts(seconds=seconds, threads=threads, seed=1).playouts_per_second


def python_loop(game: rbg.Game, seconds: float) -> float:
    rng = random.Random(1)
    start, playouts = time.perf_counter(), 0
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply(rng.choice(state.legal_moves()))
        playouts += 1
    return playouts / (time.perf_counter() - start)


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 5.0
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    print("| game | rbg mc (Rust) | random_playouts, 1 thread | ratio | random_playouts, all cores | Python loop | ratio |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name in GAMES:
        path = CORPUS / f"{name}.rbg"
        game = rbg.load(path)
        cli, binding = 0.0, 0.0
        for _ in range(rounds):
            cli = max(cli, rust_cli(path, seconds))
            binding = max(binding, rust_loop_from_python(game, seconds))
        parallel = rust_loop_from_python(game, seconds, threads=0)
        looped = python_loop(game, seconds)
        print(
            f"| {name} | {cli:,.0f} | {binding:,.0f} | {binding / cli:.3f} | {parallel:,.0f} "
            f"| {looped:,.0f} | {looped / cli:.4f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
