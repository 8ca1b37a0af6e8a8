"""The speed-up of ``rbg.cluster`` from one to two Ray nodes on this machine (docs/cluster.md).

Plays GAMES games between two MCTS agents at ITERATIONS iterations a move (CPU-bound), one game
a task, REPEAT times on a Ray node of one CPU, then as often after adding a second node, then in
this process; prints each run's wall time (on the driver) and the tasks' user+sys time (each
task's ``time.process_time()`` in its worker, summed). Every Ray run follows a warm-up run that
starts the workers. On a shared machine, give the session priority first (Linux shares the CPUs
between sessions before ``nice`` counts):

    setsid bash -c 'echo -15 > /proc/self/autogroup; exec python cluster_scale.py GAME 24 300 3'
"""

import argparse
import os
import time

os.environ["RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"] = "0"
os.environ["RAY_USAGE_STATS_ENABLED"] = "0"

import ray  # noqa: E402
from ray.cluster_utils import Cluster  # noqa: E402

from rbg import cluster  # noqa: E402


def timed_games(game, agents, seed, indices, options):
    """A task: the games' records and the worker's CPU time for them."""
    start = time.process_time()
    records = cluster._play_chunk(game, agents, seed, indices, options)
    return records, time.process_time() - start


def run(backend, game, agents, games):
    tasks = [(game, agents, 1, range(i, i + 1), {}) for i in range(games)]
    start = time.monotonic()
    parts = backend.map(timed_games, tasks)
    wall = time.monotonic() - start
    moves = sum(len(r["moves"]) for p in parts for r in p[0])
    return wall, sum(p[1] for p in parts), moves, os.getloadavg()[0]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game")
    parser.add_argument("games", type=int, nargs="?", default=24)
    parser.add_argument("iterations", type=int, nargs="?", default=300)
    parser.add_argument("repeat", type=int, nargs="?", default=3)
    args = parser.parse_args()
    game = cluster.GameText.read(args.game)
    agents = [f"mcts:iterations={args.iterations}"] * 2
    loopback = {"num_cpus": 1, "node_ip_address": "127.0.0.1", "include_dashboard": False}
    nodes = Cluster(initialize_head=True, head_node_args=loopback)
    rows = []
    try:
        backend = cluster.Ray(nodes.address)
        for label in ("one node", "two nodes"):
            if label == "two nodes":
                nodes.add_node(**loopback)
                nodes.wait_for_nodes()
                cluster.check_workers()
            run(backend, game, agents, args.games)
            rows += [(label, *run(backend, game, agents, args.games)) for _ in range(args.repeat)]
    finally:
        ray.shutdown()
        nodes.shutdown()
    rows += [("this process", *run(cluster.Local(), game, agents, args.games)) for _ in range(args.repeat)]
    for label, wall, cpu, moves, load in rows:
        print(f"{label:>12}: wall {wall:6.2f} s, tasks' user+sys {cpu:6.2f} s, {moves} moves, load {load:.1f}")


if __name__ == "__main__":
    main()
