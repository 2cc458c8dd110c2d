"""Where `simulate`'s workers lose time on a many-core machine: the machine's own scaling, then per worker.

    python bench/scaling_probe.py [--per-worker 600] [--workers 1,2,4,8,16]

Why: on a lent 16-core machine (bench/results/device-2026-11-28.txt) `simulate` kept 66 % of its one-worker
throughput on 2 workers and 59 % on 16, while on this 2-core machine the per-game CPU in a worker is the one
in process.  Two tables tell the machine from our code:

1. the machine: a fixed pure-Python loop in N spawned processes at once: CPU per loop and the slowest loop's
   wall time (if the CPU per loop grows with N, the cores are shared: SMT siblings, a clock that drops);
2. simulate's own work split: N workers (one in process, else a spawn pool, as `simulate -j N`) play
   ``per-worker × N`` random 6-player games of the 4th edition; per run, the engine preparation's CPU (summed
   over workers), the games' CPU and the CPU per game, and the largest resident size of a worker.

Nothing is asserted; worker counts above the machine's cores are left out.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import multiprocessing
import os
import resource
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def loop(n: int) -> tuple[float, float]:
    start, wall, x = time.process_time(), time.perf_counter(), 0
    for i in range(n):
        x += i * i % 7
    return time.process_time() - start, time.perf_counter() - wall


def chunk(task) -> tuple:
    """One chunk as a worker plays it: (pid, prepared here, preparation CPU, games CPU, games, max RSS kB)."""
    from checker.simulate import games
    job = task[0]
    first = job.key not in getattr(games._local, "engines", {})
    start = time.process_time()
    if first:
        games._prepared(job)
    ready = time.process_time()
    records = games.play_chunk(task)
    return (os.getpid(), first, ready - start, time.process_time() - ready, len(records),
            resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)


def _job():
    from checker.front import diskcache
    from checker.front.command import prepare_game
    from checker.simulate.games import Job, spec_files
    paths = [ROOT / "spec" / "citadelles"]
    result, selection = prepare_game("simulate", paths, None, 6, [], [])
    files, roots, digest = spec_files(paths)
    order = tuple((kind, tuple(names)) for kind, names in selection.cards.items())
    return Job(files, roots, order, 6, ("random",) * 6, 0, 24, 300, digest, diskcache.dumps(result) or b"")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-worker", type=int, default=600)
    parser.add_argument("--workers", default="1,2,4,8,16")
    args = parser.parse_args()
    cores = len(os.sched_getaffinity(0))
    counts = [n for n in (int(x) for x in args.workers.split(",") if x) if n <= cores]
    print(f"cores: {cores}, load average: {os.getloadavg()[0]:.2f}, python {sys.version.split()[0]}")
    spawn = multiprocessing.get_context("spawn")
    for n in counts:
        with concurrent.futures.ProcessPoolExecutor(n, mp_context=spawn) as pool:
            runs = list(pool.map(loop, [3_000_000] * n))
        print(f"machine   {n:3} processes: pure-Python loop CPU {sum(r[0] for r in runs) / n:6.2f} s each, "
              f"slowest wall {max(r[1] for r in runs):6.2f} s", flush=True)
    from checker.base.parallel import chunks, ordered_map
    job = _job()
    for n in counts:
        games = args.per_worker * n
        tasks = [(job, part.start, part.stop) for part in chunks(games, n)]
        start = time.perf_counter()
        out = [chunk(t) for t in tasks] if n == 1 else ordered_map(chunk, tasks, n)
        wall = time.perf_counter() - start
        prepare = sum(o[2] for o in out if o[1])
        play = sum(o[3] for o in out)
        print(f"simulate  {n:3} workers: {games:6} games, wall {wall:6.2f} s, {games / wall:7.1f} games/s, "
              f"{len({o[0] for o in out})} processes, preparation CPU {prepare:6.2f} s, games CPU {play:7.2f} s "
              f"= {1000 * play / games:5.2f} ms a game, max RSS {max(o[5] for o in out) // 1024} MB", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
