"""Benchmarks, printed as tables.  Run: python bench/run.py [--repeat N]

`rulebook check` on the bundled spec (goal: under 1 s):
  - cold: a new `python -m checker check` process, as a user runs it (Lark's LALR tables cached);
  - first run: the same with an empty cache directory (the tables are built once per grammar);
  - warm: check_paths() again in one process, per pass.
Timings are medians (and p95) of several runs: machines are noisy, so nothing here is asserted.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from checker.front.check import check_paths  # noqa: E402

SPEC = Path("spec/citadelles")


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]


def _row(name: str, values: list[float], unit: str = "ms") -> str:
    scale = 1000 if unit == "ms" else 1
    return f"| {name:<38} | {statistics.median(values) * scale:>9.1f} | {_p95(values) * scale:>9.1f} | {len(values):>4} |"


def _subprocess_times(repeat: int, env: dict | None = None, fresh_cache: bool = False) -> list[float]:
    times = []
    for _ in range(repeat):
        run_env = dict(os.environ if env is None else env)
        with tempfile.TemporaryDirectory() as tmp:
            if fresh_cache:
                run_env["TMPDIR"] = tmp
            start = time.perf_counter()
            done = subprocess.run([sys.executable, "-m", "checker", "check", str(SPEC), "-q"], cwd=ROOT,
                                  env=run_env, capture_output=True)
            times.append(time.perf_counter() - start)
            if done.returncode != 0:
                raise SystemExit(f"the bundled spec does not check clean:\n{done.stdout.decode()}")
    return times


def spec_size() -> list[str]:
    result = check_paths([SPEC])
    program = result.program
    lines = sum(len((ROOT / f).read_text(encoding="utf-8").split("\n")) for f in program.files)

    def span_lines(card) -> int:
        return card.span.end_line - card.span.line + 1

    characters = [span_lines(c) for c in program.cards_of("Character")]
    wonders = [span_lines(c) for c in program.cards_of("District")
               if any(a.name == "type" and getattr(a.value, "id", "") == "Merveille" for a in c.attrs)]
    counts = program.counts()
    return [
        "| spec measure                           |     value |",
        "|----------------------------------------|-----------|",
        f"| files / lines                          | {len(program.files):>3} / {lines:<5}|",
        f"| characters / lines per character (avg) | {len(characters):>3} / {statistics.mean(characters):<5.1f}|",
        f"| Merveilles / lines per Merveille (avg) | {len(wonders):>3} / {statistics.mean(wonders):<5.1f}|",
        f"| rules / powers / decisions             | {counts['rules']} / {counts['powers']} / {counts['decisions']} |",
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=15, help="runs per measure (default 15)")
    args = parser.parse_args()
    os.chdir(ROOT)

    check_paths([SPEC])  # warm the grammar cache and the imports
    warm: list[float] = []
    passes: dict[str, list[float]] = {}
    for _ in range(args.repeat):
        start = time.perf_counter()
        result = check_paths([SPEC])
        warm.append(time.perf_counter() - start)
        for name, seconds in result.timings.items():
            passes.setdefault(name, []).append(seconds)
    tracemalloc.start()
    check_paths([SPEC])
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()

    cold = _subprocess_times(max(3, args.repeat // 3))
    first = _subprocess_times(3, fresh_cache=True)

    print("rulebook check spec/citadelles (goal: under 1 s)\n")
    print("| measure                                |    median |       p95 | runs |")
    print("|----------------------------------------|-----------|-----------|------|")
    print(_row("cold: new process, tables cached", cold))
    print(_row("first run: new process, no cache", first))
    print(_row("warm: check_paths() in process", warm))
    for name, values in passes.items():
        print(_row(f"  pass: {name}", values))
    print(f"\npeak Python memory of one warm check: {peak / 2**20:.1f} MiB\n")
    print("\n".join(spec_size()))


if __name__ == "__main__":
    main()
