"""``python -m rbg.cluster play|perft|mc|analyze|evolve ...``: the runs of ``rbg.cluster`` from a
shell, on the Ray cluster at ``--address`` (or a Ray started here), or with ``--local`` in this
process. Exit codes as ``rbg``'s: 0 done, 1 an invalid game or a failed run, 2 a usage error.
"""

from __future__ import annotations

import argparse
import sys
from typing import Callable, List, Optional

import rbg
from rbg import cluster


def _progress(label: str) -> Optional[Callable[[int, int], None]]:
    """Progress on stderr: a tqdm bar when tqdm is installed, else a line per tenth."""
    try:
        from tqdm import tqdm
    except ImportError:
        tqdm = None
    state = {"bar": None, "shown": -1}

    def update(done: int, total: int) -> None:
        if tqdm is not None:
            # A new run of tasks (evolution maps each generation's) gets a bar of its own.
            if state["bar"] is None or done < state["bar"].n or total != state["bar"].total:
                if state["bar"] is not None:
                    state["bar"].close()
                state["bar"] = tqdm(total=total, desc=label, unit="task", file=sys.stderr)
            state["bar"].update(done - state["bar"].n)
            if done == total:
                state["bar"].close()
            return
        tenth = done * 10 // total
        if tenth != state["shown"]:
            state["shown"] = tenth
            print(f"{label}: {done}/{total} tasks", file=sys.stderr, flush=True)

    return update


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m rbg.cluster", description=__doc__.split("\n\n")[0])
    common = argparse.ArgumentParser(add_help=False)
    where = common.add_mutually_exclusive_group()
    where.add_argument("--address", help="the Ray cluster (HOST:PORT, ray://HOST:PORT or auto); default: a Ray started here")
    where.add_argument("--local", action="store_true", help="run in this process, without Ray")
    common.add_argument("--num-cpus", type=int, help="CPUs of a Ray started here")
    common.add_argument("--timeout", type=float, default=10.0, help="seconds to reach --address (default 10)")
    common.add_argument("--engine", choices=["interpreter", "compiled"], default="interpreter")
    common.add_argument("--quiet", action="store_true", help="no progress on stderr")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("play", parents=[common], help="a tournament, as rbg play")
    p.add_argument("game")
    p.add_argument("--agents", required=True, help="one per player, as rbg play --agents")
    p.add_argument("--games", type=int, default=1)
    p.add_argument("--seed", type=int, default=0)
    budget = p.add_mutually_exclusive_group()
    budget.add_argument("--time", type=_seconds, help="time per move (e.g. 100ms, 1.5s)")
    budget.add_argument("--iterations", type=int)
    p.add_argument("--max-moves", type=int)
    p.add_argument("--log", help="write the games as rbg play --log does")
    p.add_argument("--chunk", type=int, default=1, help="games a task (default 1)")

    p = sub.add_parser("perft", parents=[common], help="perft, split at the root's children")
    p.add_argument("game")
    p.add_argument("depth", type=int)
    p.add_argument("--split", type=int, default=1, help="plies counted here before the tasks (default 1)")
    p.add_argument("--tasks", type=int, default=64)

    p = sub.add_parser("mc", parents=[common], help="random playouts, as rbg mc")
    p.add_argument("game")
    p.add_argument("--playouts", type=int, required=True)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--tasks", type=int, default=16)

    p = sub.add_parser("analyze", parents=[common], help="rbg analyze's measures, the games as tasks")
    p.add_argument("game")
    p.add_argument("--agents", help="one for self-play, or one per player (default: mcts:iterations=100)")
    p.add_argument("--games", type=int, help="self-play games (100)")
    p.add_argument("--seed", type=int)
    p.add_argument("--max-moves", type=int)
    p.add_argument("--samples", type=int, help="sample games with value estimates (4)")
    p.add_argument("--evaluator", help="the agent estimating values (mcts:iterations=200)")
    p.add_argument("--strength", help="WEAK,STRONG of the strength test")
    p.add_argument("--strength-games", type=int, help="games of the strength test (20; 0 for none)")
    p.add_argument("--chunk", type=int, default=4, help="games a task (default 4)")
    p.add_argument("--html", help="write rbg analyze's HTML report here")

    p = sub.add_parser("evolve", parents=[common], help="evolution of games, as rbg evolve (a task per candidate)")
    p.add_argument("--out", required=True, help="directory for the checkpoint, the CSV and the best games")
    p.add_argument("--resume", help="continue the run saved in this checkpoint (only --generations may change)")
    for option, kind in (("width", int), ("height", int), ("weak", int), ("light", int), ("strong", int),
                         ("population", int), ("generations", int), ("playouts", int), ("branching", float),
                         ("turn-limit", int), ("depth", int), ("nodes-per-move", int), ("nld-weight", float),
                         ("seed", int)):
        p.add_argument(f"--{option}", type=kind, help="as rbg evolve")
    p.add_argument("--best", type=int, default=3, help="how many of the best distinct games to write (3)")
    return parser


def _seconds(text: str) -> float:
    """``100ms``, ``1.5s`` or a plain number of seconds."""
    for suffix, scale in (("ms", 1e-3), ("s", 1.0)):
        if text.endswith(suffix):
            text, factor = text[: -len(suffix)], scale
            break
    else:
        factor = 1.0
    try:
        return float(text) * factor
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a time: {text!r} (e.g. 100ms, 1.5s)") from None


def _backend(args):
    if args.local:
        return cluster.Local()
    return cluster.Ray(args.address, num_cpus=args.num_cpus, timeout=args.timeout)


#: The options of ``evolve`` that set the run's settings.
_EVOLVE_SETTINGS = ("width", "height", "weak", "light", "strong", "population", "playouts", "branching",
                    "turn_limit", "depth", "nodes_per_move", "nld_weight", "seed")


def _evolve(args, backend, progress) -> None:
    settings = {name: getattr(args, name) for name in _EVOLVE_SETTINGS}
    report = None if args.quiet else (lambda line: print(f"evolve: {line}", file=sys.stderr, flush=True))
    written = cluster.evolve(args.out, resume=args.resume, generations=args.generations, best=args.best,
                             backend=backend, progress=progress, report=report, **settings)
    for path in written:
        print(f"wrote {path} (and .rbg, .json)")


def _run(args) -> None:
    progress = None if args.quiet else _progress(args.command)
    if args.command == "evolve":
        _evolve(args, _backend(args), progress)
        return
    game = cluster.GameText.read(args.game, engine=args.engine)
    backend = _backend(args)
    if args.command == "play":
        result = cluster.play(
            game, args.agents, args.games, seed=args.seed, time=args.time, iterations=args.iterations,
            max_moves=args.max_moves, backend=backend, chunk=args.chunk, progress=progress,
        )
        if args.log:
            with open(args.log, "w", encoding="utf-8") as out:
                out.writelines(line + "\n" for line in result.log_lines())
        sys.stdout.write(result.table)
    elif args.command == "perft":
        leaves, nodes = cluster.perft(game, args.depth, split=args.split, tasks=args.tasks, backend=backend,
                                      progress=progress)
        print(f"depth {args.depth}: {leaves} leaves, {nodes} nodes")
    elif args.command == "mc":
        r = cluster.mc(game, args.playouts, seed=args.seed, tasks=args.tasks, backend=backend, progress=progress)
        means = ", ".join(f"{m:.3f}" for m in r.mean_scores)
        print(f"{r.playouts} playouts, {r.plies} plies, mean scores {means}, {r.seconds:.2f} s")
    elif args.command == "analyze":
        agents = cluster.split_agents(args.agents) if args.agents else None
        strength = tuple(cluster.split_agents(args.strength)) if args.strength else None
        if strength is not None and len(strength) != 2:
            raise ValueError("--strength: give WEAK,STRONG")
        result = cluster.report(
            game, args.games, agents=agents[0] if agents and len(agents) == 1 else agents, seed=args.seed,
            max_moves=args.max_moves, samples=args.samples, evaluator=args.evaluator, strength=strength,
            strength_games=args.strength_games, chunk=args.chunk, backend=backend, progress=progress,
        )
        if args.html:
            with open(args.html, "w", encoding="utf-8") as out:
                out.write(result.html)
        print(result.json)


def main(argv: Optional[List[str]] = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if args.command == "evolve" and args.best < 1:
        parser.error("--best must be at least 1")
    try:
        _run(args)
    except cluster.SettingsError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except (rbg.ParseError, OSError, ConnectionError, TimeoutError, RuntimeError, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
