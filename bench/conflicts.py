"""Benchmark of `rulebook conflicts` on the bundled 4th edition, with and without its clarifications.

    python bench/conflicts.py

Prints, for each search, its time, its Z3 queries and unknowns, then the conflicts found with the
spec as it is and with every `precedence` and `overrides` taken away (what the rulebook's
clarifications settle).
"""

from __future__ import annotations

import dataclasses
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.chdir(ROOT)

from checker.check import check_paths  # noqa: E402
from checker.conflicts import Search  # noqa: E402

SEARCHES = ("contradictions", "competing_values", "order_dependence", "dead_rules", "dangling")


def run(typed, label: str) -> list:
    search = Search(typed)
    print(f"\n{label}")
    print(f"{'search':<20} | {'seconds':>7} | {'queries':>7} | {'unknown':>7} | {'findings':>8} | unresolved")
    print("-" * 75)
    everything, start = [], time.perf_counter()
    for name in SEARCHES:
        t, q, u = time.perf_counter(), search.queries, search.unknowns
        found = getattr(search, name)()
        everything += found
        print(f"{name:<20} | {time.perf_counter() - t:>7.1f} | {search.queries - q:>7} | {search.unknowns - u:>7} | "
              f"{len(found):>8} | {sum(f.unresolved for f in found)}")
    print("-" * 75)
    print(f"{'all (2 cores, 1 used)':<20} | {time.perf_counter() - start:>7.1f} | {search.queries:>7} | "
          f"{search.unknowns:>7} | {len(everything):>8} | {sum(f.unresolved for f in everything)}")
    for f in everything:
        if f.kind != "resolved":
            print(f"  [{f.kind}] {f.message}")
    return everything


def main() -> int:
    result = check_paths([Path("spec/citadelles")])
    with_them = run(result.typed, "4th edition, with its clarifications (precedences and overrides)")
    program = dataclasses.replace(result.typed.program, precedences=[],
                                  rules={n: dataclasses.replace(r, overrides=()) for n, r in
                                         result.typed.program.rules.items()})
    without = run(dataclasses.replace(result.typed, program=program),
                  "4th edition, without any precedence or overrides")
    settled = [f for f in with_them if f.kind == "resolved"]
    print(f"\nwith the clarifications: {sum(f.unresolved for f in with_them)} unresolved; "
          f"without: {sum(f.unresolved for f in without)} unresolved")
    print(f"\n{len(settled)} conflicts settled by the spec's resolutions:")
    for f in settled:
        print(f"  {' / '.join(f.rules)}: {f.resolution}")
    return 0 if not any(f.unresolved for f in with_them) else 1


if __name__ == "__main__":
    sys.exit(main())
