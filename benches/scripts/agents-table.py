#!/usr/bin/env python3
"""The agent-speed table of docs/results.md from the medians of `cargo bench --bench agents`.

Reads target/criterion/agents/*/new/{benchmark,estimates}.json (or the directory given as the
first argument) and prints a Markdown table: per game and engine, MCTS and split-move MCTS
iterations/s (steps listed and generated; step-by-step playouts listed and generated), flat Monte Carlo playouts/s, the MCTS/flat MC ratio, the reasoner's own playout
driver (rbg_core::playout) from the same state, and alpha-beta nodes/s.
"""
import json
import pathlib
import sys

root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "target/criterion") / "agents"
rate = {}
for bench in root.glob("*/new/benchmark.json"):
    info = json.loads(bench.read_text())
    median_ns = json.loads((bench.parent / "estimates.json").read_text())["median"]["point_estimate"]
    what, game, engine = info["function_id"].split("/")
    rate[(game, engine, what)] = info["throughput"]["Elements"] / (median_ns * 1e-9)

def fmt(x):
    return f"{x:,.0f}" if x >= 100 else f"{x:.1f}"

print("| game | engine | MCTS it/s | split-MCTS it/s (listed / generated steps) | split playouts (listed / generated) | flat MC playouts/s | MCTS / flat MC | driver playouts/s | alpha-beta nodes/s (depth) |")
print("|---|---|---|---|---|---|---|---|---|")
for game in ["breakthrough", "chess", "connect4", "amazons"]:
    for engine in ["interpreter", "compiled"]:
        r = {w: v for (g, e, w), v in rate.items() if g == game and e == engine}
        if not r:
            continue
        ab = next((w for w in r if w.startswith("alphabeta")), None)
        depth = ab.rsplit("depth", 1)[1] if ab else "?"
        mcts, split, flat = r.get("mcts_iterations"), r.get("split_mcts_iterations"), r.get("flatmc_playouts")
        ratio = f"{mcts / flat:.2f}" if mcts and flat else "n/a"
        driver = r.get("driver_playouts")
        generated = r.get("split_mcts_generated_iterations")
        split_playout = r.get("split_mcts_split_playout_iterations")
        generated_split_playout = r.get("split_mcts_generated_split_playout_iterations")
        cells = [
            fmt(x) if x else "n/a"
            for x in (mcts, split, flat, driver, generated, split_playout, generated_split_playout)
        ]
        print(
            f"| {game} | {engine} | {cells[0]} | {cells[1]} / {cells[4]} | {cells[5]} / {cells[6]} "
            f"| {cells[2]} | {ratio} | {cells[3]} | {fmt(r[ab]) if ab else 'n/a'} ({depth}) |"
        )
