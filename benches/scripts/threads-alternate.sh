#!/bin/bash
# Iterations per second of MCTS with one thread, two threads on one tree and two threads with a
# tree each (root parallelism), in alternating 1 s searches from a game's initial state, so that
# a host whose speed drifts between runs slows all three alike; prints the sums and their ratios.
#
#   benches/scripts/threads-alternate.sh ROUNDS [GAME.rbg]   (GAME from games/; default connect4.rbg)
#
# Uses the ignored test `threads_speed` of rbg-agents (tests/agents.rs), built here in release.
set -euo pipefail
rounds=${1:?rounds}
game=${2:-connect4.rbg}
cd "$(dirname "$0")/../.."
binary=$(cargo test --release -p rbg-agents --test agents --no-run --message-format=json 2>/dev/null |
    python3 -c 'import json,sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m["target"]["name"] == "agents" and m.get("executable"):
        print(m["executable"])')
export RBG_SPEED_GAMES=$game RBG_SPEED_SECONDS=1
speed() { RBG_SPEED_OPTIONS=$1 "$binary" --ignored --nocapture threads_speed 2>&1 | grep -o '[0-9]* it/s wall' | cut -d' ' -f1; }
one=0 tree=0 root=0
for _ in $(seq "$rounds"); do
    one=$((one + $(speed threads=1)))
    tree=$((tree + $(speed threads=2)))
    root=$((root + $(speed threads=2,parallel=root)))
done
python3 -c "o,t,r=$one,$tree,$root; print(f'$game: one thread {o}, tree {t}, root {r} iterations; tree/one {t/o:.3f}, root/one {r/o:.3f}, tree/root {t/r:.3f}')"
