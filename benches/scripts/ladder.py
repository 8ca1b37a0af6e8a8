#!/usr/bin/env python3
"""The agent ladder of docs/results.md ("Ladder"): matches with `rbg play`, one table row each.

Three steps, each a subcommand; every match rotates the seats, plays two games at a time
(`--threads 2`) and prints one Markdown row (game, engine, games, W/D/L, score, Elo with its
95% interval as `rbg play` prints it, budget):

    screen   candidates against the earlier default `mcts` at an iteration budget (the same
             games on any machine: the results depend on the seed alone)
    equal    the default `mcts` against the earlier default at a time per move
    ladder   every agent of --agents against the default `mcts` at a time per move

Usage (from the workspace root, after `cargo build --release -p rbg-cli`; for time budgets
give the process priority over other work, e.g. `setsid bash -c 'echo -15 >
/proc/self/autogroup; exec python3 benches/scripts/ladder.py equal'`):

    python3 benches/scripts/ladder.py screen [--round 1|2|3] [--iterations 400] [--games N]
        [--seed S] [GAME ...]
    python3 benches/scripts/ladder.py equal [--time 100ms] [--games 40] [--seed 11] [GAME ...]
    python3 benches/scripts/ladder.py ladder [--time 100ms] [--games 20] [--seed 13]
        [--agents SPEC;SPEC...] [GAME ...]

GAME is a file of $RBG_CORPUS (default /work/shared/corpus, then games/) without `.rbg`,
optionally with `@compiled` (the compiled engine, built once by the compile cache) and
`/M` (stop a game after M moves; unfinished games are left out of the Elo) and `/M/N` (N
games in this row), e.g. `chess@compiled/300/20`. The defaults are the runs of
docs/results.md. Progress and the commands go to stderr, the table to stdout.
"""
import argparse
import os
import re
import subprocess
import sys

# The default of `mcts` before the ladder, by the specification docs/cli.md gives for it.
CLASSIC = "mcts:c=1.4142135623730951,nst=0,rave=0,split-width=off,cutoff=0"
ELO = re.compile(r"Elo difference \(1 minus 2\): (.*); score ([0-9.]+) over (\d+) games")
SCREEN = "breakthrough connect4 reversi englishDraughts hex_9x9".split()
PANEL = "breakthrough connect4 reversi hex_9x9 englishDraughts/200".split() + [
    "amazons@compiled", "amazons_split3@compiled/10000/20", "chess@compiled/300/20"]
LADDER_GAMES = "breakthrough connect4 reversi".split()
NST = "epsilon=0.4,decay=0.2"
# The screening rounds of docs/results.md: (games, seed, [(agent 1, agent 2), ...]).
ROUNDS = {
    "1": (20, 7, [
        (f"mcts:c=0.7,mast=true,{NST},nst=0", CLASSIC),
        ("mcts:c=0.7,rave=250,grave=30,nst=0", CLASSIC),
        (f"mcts:c=0.7,mast=true,{NST},rave=250,grave=30,nst=0", CLASSIC),
        (f"mcts:c=0.7,nst=1,{NST}", CLASSIC),
    ]),
    "2": (40, 8, [
        (f"mcts:c=0.7,nst=1,{NST}", CLASSIC),
        (f"mcts:c=0.7,nst=1,{NST},rave=250,grave=30", CLASSIC),
        (f"mcts:c=0.4,nst=1,{NST},rave=250,grave=30", CLASSIC),
        (f"mcts:c=0.7,nst=2,{NST},rave=250,grave=30", CLASSIC),
    ]),
    # Each enhancement's own gain: GRAVE on top of NST, NST on top of c = 0.7.
    "3": (40, 9, [
        (f"mcts:c=0.7,nst=1,{NST},rave=250,grave=30", f"mcts:c=0.7,nst=1,{NST}"),
        (f"mcts:c=0.7,nst=1,{NST}", "mcts:c=0.7,nst=0"),
    ]),
}
LADDER = ";".join([CLASSIC, "split-mcts:c=0.4", "alphabeta:eval=learned", "flatmc"])


def game_path(name):
    corpus = os.environ.get("RBG_CORPUS", "/work/shared/corpus")
    for directory in (corpus, "games"):
        path = os.path.join(directory, f"{name}.rbg")
        if os.path.exists(path):
            return path
    raise SystemExit(f"no game file {name}.rbg in {corpus} or games/")


def parse_game(text):
    """`chess@compiled/300/20` -> ("chess", "compiled", "300", "20"): name, engine, move limit
    and games (when not the step's number)."""
    text, _, limits = text.partition("/")
    max_moves, _, games = limits.partition("/")
    name, _, engine = text.partition("@")
    return name, engine or "interp", max_moves or "10000", games


def play(args, game, agents, budget):
    name, engine, max_moves, games = parse_game(game)
    games = games or str(args.games)
    cmd = [
        args.rbg, "play", game_path(name), "--agents", ",".join(agents), "--engine", engine,
        *budget, "--games", games, "--seed", str(args.seed), "--threads", "2",
        "--max-moves", max_moves,
    ]
    print(" ".join(cmd), file=sys.stderr, flush=True)
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    wdl = None
    for line in out.splitlines():
        # The first agent's line of the per-agent table: `1 NAME all N W/D/L score`.
        fields = line.split()
        if wdl is None and len(fields) >= 6 and fields[0] == "1" and fields[2] == "all":
            wdl = fields[4]
        m = ELO.search(line)
        if m:
            elo = m.group(1).replace("95%: ", "")
            return f"{name} | {engine} | {m.group(3)} of {games} | {wdl} | {m.group(2)} | {elo}"
    raise RuntimeError(f"no Elo line in the output of {' '.join(cmd)}:\n{out}")


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("step", choices=["screen", "equal", "ladder"])
    p.add_argument("--rbg", default="target/release/rbg")
    p.add_argument("--games", type=int)
    p.add_argument("--seed", type=int)
    p.add_argument("--iterations", type=int, default=400)
    p.add_argument("--time", default="100ms")
    p.add_argument("--round", choices=sorted(ROUNDS), default="2")
    p.add_argument("--agents", default=LADDER)
    p.add_argument("game", nargs="*")
    args = p.parse_intermixed_args()
    header = "| {} | game | engine | games (decided of played) | W/D/L | score | Elo (95% interval) | budget |"
    if args.step == "screen":
        games, seed, pairs = ROUNDS[args.round]
        args.games, args.seed = args.games or games, args.seed if args.seed is not None else seed
        budget = ["--iterations", str(args.iterations)]
        games = args.game or SCREEN
    elif args.step == "equal":
        args.games, args.seed = args.games or 40, args.seed if args.seed is not None else 11
        budget = ["--time", args.time]
        pairs = [("mcts", CLASSIC)]
        games = args.game or PANEL
    else:
        args.games, args.seed = args.games or 20, args.seed if args.seed is not None else 13
        budget = ["--time", args.time]
        pairs = [(a, "mcts") for a in args.agents.split(";")]
        games = args.game or LADDER_GAMES
    print(header.format("agents (1 against 2)"))
    print("|---|---|---|---|---|---|---|---|")
    for game in games:
        for first, second in pairs:
            row = play(args, game, [first, second], budget)
            print(f"| `{first}` against `{second}` | {row} | {' '.join(budget[1:])} |", flush=True)


if __name__ == "__main__":
    main()
