#!/usr/bin/env python3
"""Parallel perft / mc measurements: threads 1 vs 2, medians of 3, wall + CPU + RSS."""
import json, os, re, subprocess, sys, statistics, glob, time

WT = os.environ.get("RBG_WORKTREE", os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
RBG = f"{WT}/target/release/rbg"
CORPUS = os.environ.get("RBG_CORPUS", os.path.join(WT, "..", "shared", "corpus"))
REL = f"{WT}/target/rbg-cache/target/release"

def compiled_binary(game):
    snake = re.sub(r'(?<!^)(?=[A-Z])', '_', game).lower().replace('_', '-')
    cands = [p for p in glob.glob(f"{REL}/rbg-game-*") if re.fullmatch(r"rbg-game-(.+)-[0-9a-f]{8}", os.path.basename(p))]
    cands = [p for p in cands if re.fullmatch(r"rbg-game-(.+)-[0-9a-f]{8}", os.path.basename(p)).group(1).replace('-', '') == snake.replace('-', '')]
    cands.sort(key=os.path.getmtime)
    if not cands:
        raise SystemExit(f"no compiled binary for {game}")
    return cands[-1]

def task_cpu(pid):
    """CPU seconds (user + system) of each thread of `pid`, by thread id."""
    out = {}
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            f = open(f"/proc/{pid}/task/{tid}/stat").read()
        except OSError:
            continue
        fields = f[f.rindex(")") + 2:].split()
        out["main" if tid == str(pid) else tid] = (int(fields[11]) + int(fields[12])) / TICKS
    return out

TICKS = os.sysconf("SC_CLK_TCK")

def timed(cmd):
    """Runs cmd; returns its stdout and wall, user, sys, peak RSS and the CPU time of each of
    its threads (sampled every 5 ms; a thread's last few ms before it exits are missed)."""
    start = time.monotonic()
    # GNU time for the peak RSS: a child forked from this Python process keeps Python's
    # high-water mark in its own rusage.
    p = subprocess.Popen(["/usr/bin/time", "-f", "RSS %M"] + cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    threads = {}
    child = None
    while True:
        pid, status, ru = os.wait4(p.pid, os.WNOHANG)
        if pid:
            break
        try:
            if child is None:
                kids = open(f"/proc/{p.pid}/task/{p.pid}/children").read().split()
                child = kids[0] if kids else None
            if child is not None:
                threads.update(task_cpu(child))
        except OSError:
            pass
        time.sleep(0.005)
    wall = time.monotonic() - start
    out = p.stdout.read(); err = p.stderr.read()
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{cmd}: {err[-2000:]}")
    main = threads.pop("main", 0.0)
    cpus = [main] + sorted(threads.values(), reverse=True)
    rss = int(err.strip().splitlines()[-1].split()[-1])
    return out, dict(wall=wall, user=ru.ru_utime, sys=ru.ru_stime, rss_kib=rss, thread_cpu=cpus)

def perft(game, engine, depth, threads, root_split=False):
    if engine == "compiled":
        cmd = [compiled_binary(game), "perft"]
    else:
        cmd = [RBG, "perft", f"{CORPUS}/{game}.rbg"]
    cmd += ["--depth", str(depth), "--only-last", "--json", "--threads", str(threads)]
    if root_split: cmd.append("--root-split")
    out, t = timed(cmd)
    row = json.loads(out.strip().splitlines()[-1])
    t.update(ms=row["ms"], leaves=row["leaves"], nodes=row["nodes"])
    return t

def mc(game, engine, seconds, threads):
    if engine == "compiled":
        cmd = [compiled_binary(game), "mc"]
    else:
        cmd = [RBG, "mc", f"{CORPUS}/{game}.rbg"]
    cmd += ["--seconds", str(seconds), "--json", "--threads", str(threads)]
    out, t = timed(cmd)
    row = json.loads(out.strip().splitlines()[-1])
    t.update(pps=row["playouts_per_s"], playouts=row["playouts"])
    return t

if __name__ == "__main__":
    kind = sys.argv[1]
    out = open(sys.argv[2], "a")
    if kind == "perft":
        for spec in sys.argv[3:]:
            game, engine, depth = spec.split(":")
            for rep in range(3):
                for threads, rs in [(1, False), (2, False), (2, True)][: 3 if rep == 0 else 2]:
                    t = perft(game, engine, int(depth), threads, rs)
                    rec = dict(kind="perft", game=game, engine=engine, depth=int(depth), threads=threads, split="root" if rs else "balanced", rep=rep, load=os.getloadavg()[0], **t)
                    out.write(json.dumps(rec) + "\n"); out.flush()
                    print(json.dumps(rec), flush=True)
    elif kind == "mc":
        for spec in sys.argv[3:]:
            game, engine, secs = spec.split(":")
            for rep in range(3):
                for threads in [1, 2]:
                    t = mc(game, engine, float(secs), threads)
                    rec = dict(kind="mc", game=game, engine=engine, seconds=float(secs), threads=threads, rep=rep, load=os.getloadavg()[0], **t)
                    out.write(json.dumps(rec) + "\n"); out.flush()
                    print(json.dumps(rec), flush=True)
