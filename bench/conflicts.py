"""Benchmark of `rulebook conflicts` on the bundled 4th edition, with and without its clarifications, and
on the 4th edition with a house-rule file or the fan expansion, scoped to the file and not.

    python bench/conflicts.py              # both tables
    python bench/conflicts.py scoped       # only the house-rule table
    python bench/conflicts.py assumed [--runs N] [SPEC...]   # invariants assumed lazily or in every question
    python bench/conflicts.py carcassonne [--json PATH]  # Carcassonne's search: CPU seconds of each kind, Z3's
                                                         # share of it (and its findings, witnesses included, as JSON)

Prints, for each search, its time, its Z3 queries and unknowns, then the conflicts found with the
spec as it is and with every `precedence` and `overrides` taken away (what the rulebook's
clarifications settle).  Then, for the 4th edition with `spec/maison/bâtisseuse.rules` and with
`spec/extension-fan`: the whole search scoped to the added files (what `rulebook conflicts` does), with
`--all-rules`, and with `--all-rules` keeping Z3's first model as the witness ("first": what making
witnesses small costs), on one process: seconds, questions searched of all, Z3 queries, findings,
unresolved, and the largest witness (players, cards placed).

``assumed``: the whole search of SPEC (by default the 4th edition; scoped to the files after the first, as
`rulebook conflicts` does) with the invariants assumed only when a model breaks one (the default,
:class:`checker.solver.search.Assumed`) and assumed in every question, runs alternated in one process: CPU
seconds of each run, queries, the checks whose model broke an invariant, and whether the findings are the same.
"""

from __future__ import annotations

import dataclasses
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.chdir(ROOT)

from checker.front.check import check_paths, spec_files  # noqa: E402
from checker.conflicts.questions import Search  # noqa: E402
from checker.conflicts.scope import Scope  # noqa: E402
from checker.base.diagnostics import Reporter  # noqa: E402

SEARCHES = ("contradictions", "competing_values", "order_dependence", "dead_rules", "dangling")


def assumed(args: list[str]) -> int:
    """Lazy and eager invariants, alternated: CPU seconds, queries, models that broke one, same findings."""
    from checker.solver.search import SymbolicSearch
    runs = 3
    if args[:1] == ["--runs"]:
        runs, args = int(args[1]), args[2:]
    paths = [Path(a) for a in args] or [Path("spec/citadelles")]
    result = check_paths(paths)
    files = [f for added in paths[1:] for f in spec_files(added, Reporter())]
    print(f"{' '.join(map(str, paths))}: invariants assumed lazily or in every question")
    print(f"{'run':>3} | {'mode':<6} | {'CPU s':>6} | {'queries':>7} | {'assumed':>7} | {'findings':>8} | same")
    print("-" * 62)
    seen: dict = {}
    for i in range(runs):
        for lazy in (True, False):
            SymbolicSearch.lazy = lazy
            search = Search(result.typed, scope=Scope(result, files) if files else None)
            start = time.process_time()
            found = [f for name in SEARCHES for f in getattr(search, name)()]
            spent = time.process_time() - start
            key = [(f.kind, f.rules, f.witness) for f in found]
            seen.setdefault(lazy, key)
            print(f"{i + 1:>3} | {'lazy' if lazy else 'eager':<6} | {spent:>6.2f} | {search.queries:>7} | "
                  f"{search.assumed:>7} | {len(found):>8} | "
                  f"{[(k, r) for k, r, _ in key] == [(k, r) for k, r, _ in seen[True]]}", flush=True)
    SymbolicSearch.lazy = True
    return 0


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


def _largest(findings) -> str:
    sizes = [(f.witness["players"], sum(len(z) if isinstance(z, list) else sum(map(len, z.values()))
                                        for z in f.witness["zones"].values())) for f in findings if f.witness]
    return "{} pl. {} cards".format(*max(sizes)) if sizes else "-"


def scoped() -> int:
    """The house-rule table: each overlay, scoped to its files and with every question."""
    print(f"\n{'spec':<30} | {'mode':<9} | {'seconds':>7} | {'questions':>9} | {'queries':>7} | "
          f"{'findings':>8} | {'unresolved':>10} | largest witness")
    print("-" * 112)
    for label, added in (("4e + maison/bâtisseuse", Path("spec/maison/bâtisseuse.rules")),
                         ("4e + extension-fan", Path("spec/extension-fan"))):
        result = check_paths([Path("spec/citadelles"), added])
        files = spec_files(added, Reporter())
        for mode in ("scoped", "all-rules", "first"):
            search = Search(result.typed, scope=Scope(result, files) if mode == "scoped" else None)
            search.minimal = mode != "first"
            start = time.perf_counter()
            found = [f for name in SEARCHES for f in getattr(search, name)()]
            print(f"{label:<30} | {mode:<9} | {time.perf_counter() - start:>7.1f} | "
                  f"{f'{search.units}/{search.questions}':>9} | {search.queries:>7} | {len(found):>8} | "
                  f"{sum(f.unresolved for f in found):>10} | {_largest(found)}", flush=True)
    return 0


def carcassonne(dump: Path | None = None) -> int:
    """Carcassonne's whole search on one process: each kind's CPU seconds, those in Z3's checks, its queries,
    undecided questions and findings; with ``dump``, the findings written there as JSON, as the book keeps them
    and with their state and move files (to tell that a change to the search left them as they were)."""
    from checker.solver import factory
    spent_in_z3 = [0.0]
    check = factory.z3.Solver.check

    def timed(solver, *args):
        start = time.process_time()
        try:
            return check(solver, *args)
        finally:
            spent_in_z3[0] += time.process_time() - start
    factory.z3.Solver.check = timed
    search = Search(check_paths([Path("spec/carcassonne")]).typed)
    print(f"{'search':<20} | {'CPU s':>7} | {'in Z3':>7} | {'queries':>7} | {'unknown':>7} | findings")
    print("-" * 70)
    everything = []
    with factory.steady_collector():        # as the command asks them: the same witnesses
        for name in (*SEARCHES, None):
            t, z, q, u = time.process_time(), spent_in_z3[0], search.queries, search.unknowns
            found = getattr(search, name)() if name else []
            everything += found
            if name is None:
                t, z, q, u = 0.0, 0.0, 0, 0
            print(f"{name or 'all (process)':<20} | {time.process_time() - t:>7.1f} | {spent_in_z3[0] - z:>7.1f} | "
                  f"{search.queries - q:>7} | {search.unknowns - u:>7} | {', '.join(f.kind for f in found)}",
                  flush=True)
    factory.z3.Solver.check = check
    if dump is not None:
        from checker.sphinxext.kept import findings_json
        rows = [{**row, "witness": f.witness, "move": f.move} for row, f in zip(findings_json(everything), everything)]
        dump.write_text(json.dumps(rows, ensure_ascii=False, indent=1, sort_keys=True, default=str) + "\n",
                        encoding="utf-8")
    return 0 if search.unknowns == 0 else 1


def main() -> int:
    if sys.argv[1:2] == ["carcassonne"]:
        return carcassonne(Path(sys.argv[3]) if sys.argv[2:3] == ["--json"] else None)
    if sys.argv[1:] == ["scoped"]:
        return scoped()
    if sys.argv[1:2] == ["assumed"]:
        return assumed(sys.argv[2:])
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
    scoped()
    return 0 if not any(f.unresolved for f in with_them) else 1


if __name__ == "__main__":
    sys.exit(main())
