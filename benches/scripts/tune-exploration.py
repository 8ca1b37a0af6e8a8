#!/usr/bin/env python3
"""Sweeps the UCB1 exploration constant `c` of `mcts` and `split-mcts` per game.

Each candidate `c` plays a match against the same agent at its default `c` (sqrt 2 = 1.414),
at a fixed iteration budget per move and a fixed seed, seats rotated, with `rbg play`; the
Elo of the candidate with its 95% interval (as `rbg play` prints it) is one cell of a Markdown
table, one row per game and agent. The best `c` of a row is the candidate with the highest
Elo (the reference counts 0). With an iteration budget the results depend on the seed alone,
not on the machine's load, so a run is reproducible.

Usage (from the workspace root, after `cargo build --release -p rbg-cli`):

    python3 benches/scripts/tune-exploration.py [--rbg target/release/rbg] [--games N]
        [--iterations K] [--seed S] [--threads T] [--c 0.2,0.4,0.7,1.0]
        [--agents mcts,split-mcts] [GAME ...]

GAME names a file of games/ without `.rbg` (default: breakthrough connect4 reversi
englishDraughts). Progress goes to stderr, the table to stdout.
"""
import argparse
import re
import subprocess
import sys

ELO = re.compile(r"Elo difference \(1 minus 2\): (.*); score ([0-9.]+) over (\d+) games")


def elo_cell(line):
    """`+53 (-13 .. +122)` from `rbg play`'s Elo line (bounds kept as printed)."""
    m = ELO.search(line)
    if not m:
        return None, None
    text = m.group(1).replace("95%: ", "")
    return text, float(m.group(2))


def play(args, game, agent, c):
    cmd = [
        args.rbg, "play", f"games/{game}.rbg",
        "--agents", f"{agent}:c={c},{agent}",
        "--iterations", str(args.iterations), "--games", str(args.games),
        "--seed", str(args.seed), "--threads", str(args.threads),
    ]
    print(" ".join(cmd), file=sys.stderr, flush=True)
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        cell, score = elo_cell(line)
        if cell is not None:
            return cell, score
    raise RuntimeError(f"no Elo line in the output of {' '.join(cmd)}:\n{out}")


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rbg", default="target/release/rbg")
    p.add_argument("--games", type=int, default=40)
    p.add_argument("--iterations", type=int, default=400)
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--c", default="0.2,0.4,0.7,1.0")
    p.add_argument("--agents", default="mcts,split-mcts")
    p.add_argument("game", nargs="*", default=["breakthrough", "connect4", "reversi", "englishDraughts"])
    args = p.parse_args()
    cs = args.c.split(",")
    print(f"| game | agent | {' | '.join('c = ' + c for c in cs)} | best c |")
    print("|---|---|" + "---|" * (len(cs) + 1))
    for game in args.game:
        for agent in args.agents.split(","):
            cells, best, best_score = [], "1.414", 0.5
            for c in cs:
                cell, score = play(args, game, agent, c)
                cells.append(cell)
                if score > best_score:
                    best, best_score = c, score
            print(f"| {game} | `{agent}` | {' | '.join(cells)} | {best} |", flush=True)


if __name__ == "__main__":
    main()
