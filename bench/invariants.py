"""Benchmark of the *invariant broken* search (`rulebook conflicts --effects`, checker/conflicts/inductive.py) on
the bundled specs: per invariant, the moves that keep it (writing nothing it reads, or proven by Z3), break it
or are undecided; the same for the procedures run between decisions that write what it reads or call one with a
precondition (each run from its start, on a state that meets every invariant and its own precondition, to its
end: past an `offer`, from what its moves may leave, every invariant holding); those broken or undecided alone that only run inside procedures keeping it; those not
proven; and the CPU time of the search on one process.

    python bench/invariants.py              # every bundled spec
    python bench/invariants.py citadelles   # the 4th edition only

Nothing is asserted (tests/test_inductive.py holds the small cases); the CPU time is process time, the
spec's checking and the engine's start excluded.
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
from checker.conflicts.inductive import broken_invariants  # noqa: E402
from checker.conflicts.questions import Search  # noqa: E402

SPECS = {"citadelles": ["spec/citadelles"],
         "citadelles + extension-fan": ["spec/citadelles", "spec/extension-fan"],
         "citadelles + maison/bâtisseuse": ["spec/citadelles", "spec/maison/bâtisseuse.rules"],
         "citadelles + éditions/jeu-de-base": ["spec/citadelles", "spec/éditions/jeu-de-base"],
         "citadelles + éditions/première-édition": ["spec/citadelles", "spec/éditions/première-édition"],
         "carcassonne": ["spec/carcassonne"]}


def run(label: str, paths: list[str]) -> None:
    result = check_paths([Path(p) for p in paths])
    search = Search(result.typed)
    start = time.process_time()
    found = broken_invariants(search, procedures=True)
    cpu = time.process_time() - start
    print(f"\n{label}: {cpu:.1f} s CPU, {search.queries} Z3 queries, {search.unknowns} unknown, "
          f"{len(found)} finding(s)")
    if not search.inductive:
        print("  the spec has no invariant")
    procs = search.p.procedures
    for name, all_of in search.inductive.items():
        tally = {s: [m for m in v if m not in procs] for s, v in all_of.items() if s != "uncovered"}
        moves = sum(len(tally[s]) for s in ("unchanged", "proven", "broken", "undecided"))
        print(f"  {name}: {moves} moves — {len(tally['unchanged'])} write nothing it reads, "
              f"{len(tally['proven'])} proven by Z3 ({', '.join(tally['proven']) or '-'}), "
              f"broken by {', '.join(tally['broken']) or 'none'}, "
              f"undecided for {', '.join(tally['undecided']) or 'none'}")
        own = {s: [m for m in all_of[s] if m in procs] for s in ("proven", "broken", "undecided")}
        print(f"    procedures writing what it reads, run from their start to their end: "
              f"proven for {', '.join(own['proven']) or 'none'}; broken by {', '.join(own['broken']) or 'none'}; "
              f"undecided for {', '.join(own['undecided']) or 'none'}")
        if all_of.get("covered"):
            print(f"    broken or undecided alone, but only run inside procedures that keep it: "
                  f"{', '.join(all_of['covered'])}")
        print(f"    not covered (not proven): {', '.join(all_of['uncovered']) or 'none'}")
    for caller, callees in getattr(search, "summarised", {}).items():
        print(f"  {caller}: the calls of {', '.join(callees)} summarised (proven before: what it may write any values, then every "
              f"invariant holds)")
    for f in found:
        print(f"  [{f.kind}] {f.message}")
        if f.situation:
            print(f"    witness: {'; '.join(f.situation)}")
        if getattr(f, "configuration", ""):
            print(f"    selection: {f.configuration}")
        if f.witness and f.witness.get("selection"):
            print("    selected: " + "; ".join(f"{len(v)} {k}" for k, v in f.witness["selection"].items()))
        if f.replayed:
            print(f"    the interpreter: {f.replayed} (confirmed: {f.confirmed})")
        if f.unknown:
            print(f"    undecided: {f.unknown}")
        if f.resolution:
            print(f"    dealt with: {f.resolution}")


def main() -> int:
    wanted = sys.argv[1:]
    for label, paths in SPECS.items():
        if not wanted or label in wanted:
            run(label, paths)
    return 0


if __name__ == "__main__":
    from checker.solver.factory import steady_collector
    with steady_collector():    # as the command asks: the same witnesses whatever ran before (factory.py)
        sys.exit(main())
