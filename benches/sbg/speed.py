#!/usr/bin/env python3
"""Speed of the direct SBG reasoner against the RBG translation on the interpreter and the
compiled engine: perft nodes/s and random playouts/s, medians of RUNS runs, through `rbg`.

Usage: benches/sbg/speed.py [RUNS]   (from the repository root, after
`cargo build --release -p rbg-cli`; the compiled engines are built, or taken from the cache,
first). Prints a Markdown table."""

import json
import statistics
import subprocess
import sys

RBG = "target/release/rbg"
# (game, perft depth): about a second for the direct reasoner.
GAMES = [("gardner", 7), ("nightriders", 5), ("grasshoppers", 6)]
ENGINES = ["sbg", "interp", "compiled"]
MC_SECONDS = "3"


def last_json(args):
    out = subprocess.run([RBG, *args, "--json"], check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def main():
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    rows = []
    for game, depth in GAMES:
        path = f"games/sbg/{game}.sbg"
        # Build the compiled engine once, outside the measurements.
        subprocess.run([RBG, "perft", path, "--depth", "1", "--engine", "compiled"], check=True,
                       capture_output=True)
        perft, mc = {}, {}
        for engine in ENGINES:
            perft[engine] = statistics.median(
                last_json(["perft", path, "--depth", str(depth), "--only-last", "--engine", engine])["nodes_per_s"]
                for _ in range(runs))
            mc[engine] = statistics.median(
                last_json(["mc", path, "--seconds", MC_SECONDS, "--engine", engine])["playouts_per_s"]
                for _ in range(runs))
        rows.append((game, depth, perft, mc))
    print("| game | perft depth | direct nodes/s | interp nodes/s | compiled nodes/s | direct/interp | direct/compiled "
          "| direct playouts/s | interp playouts/s | compiled playouts/s | direct/interp | direct/compiled |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for game, depth, perft, mc in rows:
        cells = [game, str(depth)]
        for figures in (perft, mc):
            cells += [f"{figures[e]:,.0f}" for e in ENGINES]
            cells += [f"{figures['sbg'] / figures['interp']:.2f}", f"{figures['sbg'] / figures['compiled']:.2f}"]
        print("| " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
