"""Multi-core scaling of `rulebook simulate` and `rulebook conflicts --workers`, as whole processes.

    python bench/scaling.py [--per-worker 1500] [--workers 1,2,4,8,16] [--conflicts 1,4,16] [--players 6]
                            [--root CHECKOUT --root OTHER]      # side by side, runs alternated

`simulate` plays ``per-worker × workers`` random games (the same work per worker, so a perfect machine keeps
the wall time flat); `conflicts` searches the 4th edition with each number of workers.  Prints one table per
command: workers, wall seconds, CPU seconds of the processes (the command and its workers, from
``getrusage(RUSAGE_CHILDREN)``), games per second, and the parallel efficiency — the throughput on N workers
over N times the throughput on one.  Worker counts above the machine's cores are left out.  Nothing is
asserted: read the numbers with the machine's load (printed).
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _run(command: list[str], ok: tuple[int, ...] = (0,), root: Path = ROOT) -> tuple[float, float, str]:
    """(wall seconds, CPU seconds of the process and its children, its stdout's last line)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, cwd=root, capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, (str(root), os.environ.get("PYTHONPATH"))))})
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if done.returncode not in ok:
        sys.exit(f"{' '.join(command)} failed ({done.returncode}):\n{done.stderr[-2000:]}")
    lines = [line for line in done.stdout.splitlines() if line.strip()]
    return wall, cpu, lines[-1] if lines else ""


def _counts(text: str) -> list[int]:
    cores = len(os.sched_getaffinity(0))
    return [n for n in (int(x) for x in text.split(",") if x) if n <= cores]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-worker", type=int, default=1500, help="simulate: games per worker")
    parser.add_argument("--workers", default="1,2,4,8,16", help="simulate: worker counts")
    parser.add_argument("--conflicts", default="1,4,16", help="conflicts: worker counts ('' leaves it out)")
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--root", action="append", type=Path, help="a checkout to measure (repeatable: the runs "
                        "alternate between them, for a side-by-side comparison; default: this one)")
    args = parser.parse_args()
    roots = [r.resolve() for r in args.root] if args.root else [ROOT]
    print(f"cores: {len(os.sched_getaffinity(0))}, load average: {os.getloadavg()[0]:.2f}, python {sys.version.split()[0]}")
    rows: dict[Path, list] = {root: [] for root in roots}
    firsts: dict[Path, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for workers in _counts(args.workers):
            for root in roots:
                games = args.per_worker * workers
                wall, cpu, _ = _run([sys.executable, "-m", "checker", "simulate", "spec/citadelles", "-n", str(games),
                                     "-p", str(args.players), "--agent", "random", "-j", str(workers),
                                     "--json", f"{tmp}/s{workers}.json", "--force"], root=root)
                rows[root].append((workers, games, wall, cpu, games / wall))
                base = rows[root][0][4]
                print(f"{root.name:12} simulate  workers {workers:3}  games {games:6}  wall {wall:7.1f} s  CPU "
                      f"{cpu:8.1f} s  {games / wall:8.1f} games/s  efficiency {games / wall / (workers * base):5.0%}",
                      flush=True)
        for workers in _counts(args.conflicts):
            for root in roots:
                wall, cpu, last = _run([sys.executable, "-m", "checker", "conflicts", "spec/citadelles",
                                        "--workers", str(workers)], ok=(0, 1), root=root)
                first = firsts.setdefault(root, wall)
                print(f"{root.name:12} conflicts workers {workers:3}  wall {wall:7.1f} s  CPU {cpu:8.1f} s  speed-up "
                      f"{first / wall:5.1f}×  efficiency {first / wall / workers:5.0%}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
