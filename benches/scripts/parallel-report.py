import json, statistics, sys
from collections import defaultdict
med = statistics.median
def load(path):
    try: return [json.loads(l) for l in open(path)]
    except FileNotFoundError: return []
perft = load(sys.argv[1]); mc = load(sys.argv[2]) if len(sys.argv) > 2 else []
g = defaultdict(list); order = []
for r in perft:
    g[(r["game"], r["engine"], r["depth"], r["threads"], r["split"])].append(r)
    k = (r["game"], r["engine"], r["depth"])
    if k not in order: order.append(k)
cpu = lambda r: r["user"] + r["sys"]
def est(t1s, r):
    """Speedup on an idle machine, from one 2-thread run alone: its CPU time over its critical
    path (the main thread's CPU, which is serial, plus the busier worker's). Same-run figures,
    so the CPU time inflation of a loaded machine cancels; extra work of the split is not seen
    here (see the CPU overhead column)."""
    tc = r["thread_cpu"]; main = tc[0]; workers = tc[1:]
    return cpu(r) / max(main + (max(workers) if workers else 0), 1e-3)
def balance(r):
    # The two busiest threads besides the main one (a Ctrl-C handler thread idles beside them).
    w = r["thread_cpu"][1:3]
    return min(w) / max(w) if len(w) >= 2 and max(w) > 0 else float("nan")
print("| game | engine | depth | nodes | 1 thread ms | 2 threads ms | wall speedup | est. speedup (CPU) | worker balance | 2 threads, root split: wall speedup | est. speedup (CPU) | worker balance | CPU/wall 1 | CPU/wall 2 | peak RSS 1 | peak RSS 2 | load |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
for (game, eng, d) in order:
    a = g[(game, eng, d, 1, "balanced")]; b = g[(game, eng, d, 2, "balanced")]; c = g[(game, eng, d, 2, "root")]
    if not (a and b and c): continue
    ms = lambda rs: med([r["ms"] for r in rs])
    cw = lambda rs: med([cpu(r) / max(r["wall"], 1e-3) for r in rs])
    rss = lambda rs: max(r["rss_kib"] for r in rs)
    nodes = {r["nodes"] for r in a + b + c}
    assert len(nodes) == 1, (game, eng, nodes)
    ld = med([r["load"] for r in a + b + c])
    eb = med([est(a, r) for r in b]); ec = med([est(a, r) for r in c])
    bb = med([balance(r) for r in b]); bc = med([balance(r) for r in c])
    print(f"| {game} | {eng} | {d} | {nodes.pop()} | {ms(a):.0f} | {ms(b):.0f} | {ms(a)/max(ms(b),1):.2f}x | {eb:.2f}x | {bb:.2f} | {ms(a)/max(ms(c),1):.2f}x | {ec:.2f}x | {bc:.2f} | {cw(a):.2f} | {cw(b):.2f} | {rss(a)/1024:.1f} MiB | {rss(b)/1024:.1f} MiB | {ld:.1f} |")
m = defaultdict(list); keys = []
for r in mc:
    m[(r["game"], r["engine"], r["threads"])].append(r)
    if (r["game"], r["engine"]) not in keys: keys.append((r["game"], r["engine"]))
if keys:
    print()
    print("| game | engine | 1 thread playouts/s | 2 threads playouts/s | wall speedup | est. speedup (CPU) | worker balance | CPU/wall 1 | CPU/wall 2 | load |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for (game, eng) in keys:
        a = m[(game, eng, 1)]; b = m[(game, eng, 2)]
        if not (a and b): continue
        p = lambda rs: med([r["pps"] for r in rs])
        cw = lambda rs: med([cpu(r) / max(r["wall"], 1e-3) for r in rs])
        # Playouts per CPU second of the workers, times two workers, over a single thread's.
        per_cpu1 = med([r["playouts"] / max(cpu(r), 1e-3) for r in a])
        e = med([2 * r["playouts"] / max(sum(r["thread_cpu"][1:]), 1e-3) / per_cpu1 for r in b])
        bal = med([balance(r) for r in b])
        ld = med([r["load"] for r in a + b])
        print(f"| {game} | {eng} | {p(a):.1f} | {p(b):.1f} | {p(b)/max(p(a),1e-9):.2f}x | {e:.2f}x | {bal:.2f} | {cw(a):.2f} | {cw(b):.2f} | {ld:.1f} |")
