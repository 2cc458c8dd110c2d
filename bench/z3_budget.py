"""What Z3's limits cost: every query of a conflict search, with its resource count and its time.

    python bench/z3_budget.py                      # the 4th edition
    python bench/z3_budget.py spec/citadelles spec/extension-fan

Z3 bounds a query two ways: ``timeout`` (wall-clock milliseconds, so it depends on the machine and on its
load) and ``rlimit`` (a count of Z3's own steps, the same on every machine).  This runs the conflict
search with the project's limits (or the environment's: ``RULEBOOK_Z3_TIMEOUT_MS``,
``RULEBOOK_Z3_RLIMIT``), records each query's resource count (``rlimit count`` before and
after the check) and its seconds, and prints, per outcome, how many queries there were and the
quantiles of both: the numbers the project's limits (checker/solver/factory.py) are chosen from.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.chdir(ROOT)

from checker.front.check import check_paths  # noqa: E402
from checker.conflicts.questions import find_conflicts  # noqa: E402
from checker.solver import factory  # noqa: E402

RECORDS: list[tuple[str, int, float]] = []
SLOW = 2.0      # seconds: a query slower than this is printed as it ends


def _counted(solver, *assumptions):
    before = _rlimit(solver)
    start = time.perf_counter()
    outcome = _run(solver, *assumptions)
    record = (outcome.status, _rlimit(solver) - before, time.perf_counter() - start)
    RECORDS.append(record)
    if record[2] > SLOW:
        print(f"  slow query: {record[0]} after {record[1]:,} rlimit, {record[2]:.1f} s", flush=True)
    return outcome


def _rlimit(solver) -> int:
    stats = solver.statistics()
    return int(stats.get_key_value("rlimit count")) if "rlimit count" in stats.keys() else 0


_run = factory.run


def _quantiles(values: list, qs=(0.5, 0.9, 0.99, 1.0)) -> list:
    values = sorted(values)
    return [values[min(len(values) - 1, int(q * len(values)))] for q in qs] if values else [0] * len(qs)


def main(paths: list[str]) -> None:
    for module in ("checker.solver.search", "checker.solver.minimise", "checker.solver.selection",
                   "checker.conflicts.batches"):
        setattr(sys.modules[module], "run", _counted)
    result = check_paths([Path(p) for p in paths])
    start = time.perf_counter()
    with factory.steady_collector():    # as the command asks: the same steps whatever ran before (factory.py)
        find_conflicts(result)
    wall = time.perf_counter() - start
    print(f"{' '.join(paths)}: {len(RECORDS)} queries, {wall:.1f} s")
    print(f"{'outcome':<8} | {'queries':>7} | {'rlimit p50':>11} | {'p90':>11} | {'p99':>11} | {'max':>11} | "
          f"{'s p50':>6} | {'s p99':>6} | {'s max':>6}")
    print("-" * 100)
    for status in ("sat", "unsat", "unknown"):
        rows = [r for r in RECORDS if r[0] == status]
        if not rows:
            continue
        r = _quantiles([x[1] for x in rows])
        s = _quantiles([x[2] for x in rows])
        print(f"{status:<8} | {len(rows):>7} | {r[0]:>11,} | {r[1]:>11,} | {r[2]:>11,} | {r[3]:>11,} | "
              f"{s[0]:>6.2f} | {s[2]:>6.2f} | {s[3]:>6.2f}")


if __name__ == "__main__":
    main(sys.argv[1:] or ["spec/citadelles"])
