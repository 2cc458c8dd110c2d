"""Benchmark of `rulebook diff`: the 4th edition against each edition and variant, and (with
--ablations) against itself minus each of its clarifications.

    python bench/diff.py                 # the editions and variants
    python bench/diff.py --ablations     # also the 52 ablations of rules and the 17 inside bodies
    python bench/diff.py --bodies        # only the 17 ablations inside power and action bodies

Prints one row per comparison: its time, its Z3 queries and unknowns, the actions and quantities
searched, and the differences found (behavioural by kind, changes that change no game, undecided).  An
ablation inside a body (a condition, an amount, a target filter of a power or an action) is compared by
behaviour: its row says whether both interpreters confirmed the witness, and whether it was found on small states
(a question too large whole, asked again on fewer cards and players: checker.diff.narrow).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.chdir(ROOT)

from checker.front.check import check_paths  # noqa: E402
from checker.diff.pair import Side  # noqa: E402
from checker.diff.run import diff_results  # noqa: E402

BASE = [Path("spec/citadelles")]
JEU_DE_BASE = Path("spec/éditions/jeu-de-base")
PREMIÈRE = Path("spec/éditions/première-édition")
PAIRS = [
    ("jeu de base (004)", [JEU_DE_BASE]),
    ("+ partie rapide 7", [JEU_DE_BASE, Path("spec/variantes/jeu-de-base/partie-rapide-7.rules")]),
    ("+ partie rapide 6", [JEU_DE_BASE, Path("spec/variantes/jeu-de-base/partie-rapide-6.rules")]),
    ("+ Roi garde la Couronne",
     [JEU_DE_BASE, Path("spec/variantes/jeu-de-base/roi-assassiné-garde-la-couronne.rules")]),
    ("+ pioche améliorée", [JEU_DE_BASE, Path("spec/variantes/jeu-de-base/pioche-améliorée.rules")]),
    ("+ la peste", [JEU_DE_BASE, Path("spec/variantes/jeu-de-base/peste.rules")]),
    ("première édition (003)", [PREMIÈRE]),
    ("+ partie raccourcie", [PREMIÈRE, Path("spec/variantes/première-édition/partie-raccourcie.rules")]),
]

HEADER = f"{'B = 4th edition +':<32} | {'seconds':>7} | {'queries':>7} | {'unknown':>7} | {'searched':>8} | " \
         f"{'behavioural':>11} | {'neutral':>7} | semantic differences"


def row(label: str, result, seconds: float) -> str:
    kinds: dict[str, int] = {}
    for d in result.behavioural:
        if d.kind in ("legality", "value", "order"):
            kinds[d.kind] = kinds.get(d.kind, 0) + 1
    searched = f"{result.checked.get('actions', 0)}+{result.checked.get('quantities', 0)}"
    return (f"{label[:32]:<32} | {seconds:>7.1f} | {result.queries:>7} | {result.unknowns:>7} | {searched:>8} | "
            f"{len(result.behavioural):>11} | {len(result.neutral):>7} | "
            + (", ".join(f"{n} {k}" for k, n in kinds.items()) or result.status))


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--ablations", action="store_true")
    parser.add_argument("--bodies", action="store_true", help="only the ablations inside bodies")
    args = parser.parse_args()
    base = check_paths(BASE)
    side = Side("a", base, BASE)
    if not args.bodies:
        print("\n4th edition against each edition and variant (witnesses minimised, up to 3 causes per action)")
        print(HEADER)
        print("-" * len(HEADER))
        for label, paths in PAIRS:
            t = time.perf_counter()
            other = check_paths(BASE + paths)
            result = diff_results(side, BASE, other, BASE + paths)
            print(row(label, result, time.perf_counter() - t), flush=True)
    if args.ablations or args.bodies:
        from tests.test_diff_ablation import _ablations, _body_ablations
        print("\n4th edition against itself minus one clarification")
        print(HEADER.replace("B = 4th edition +", "removed"))
        print("-" * len(HEADER))
        folder = Path(tempfile.mkdtemp())
        totals = {"different": 0, "equivalent": 0, "undecided": 0}
        confirmed = {True: 0, False: 0, None: 0}
        start = time.perf_counter()
        cpu = time.process_time()
        ablations = [] if args.bodies else _ablations(base.program)
        for name, lines in ablations + _body_ablations(base.program, base.sources):
            overlay = folder / "ablation.rules"
            overlay.write_text('overlay "Ablation" on "Citadelles"\n' + "\n".join(lines) + "\n", encoding="utf-8")
            t = time.perf_counter()
            result = diff_results(side, BASE, check_paths(BASE + [overlay]), BASE + [overlay])
            totals[result.status] += 1
            line = row(name, result, time.perf_counter() - t)
            effects = [d for d in result.differences if d.kind == "effect"
                       or d.kind == "undecided" and d.subject.startswith(("power ", "action "))]
            for d in effects:
                if d.kind == "effect" and d.behavioural:
                    confirmed[d.confirmed] += 1
                    line += "; witness " + ("confirmed" if d.confirmed else "NOT CONFIRMED" if d.confirmed is False
                                            else "not replayed: " + d.sides.get("replay", "?"))
                    line += " (on small states)" if "found on the states of" in d.message else ""
                elif d.kind == "effect":
                    line += "; proven the same"
                else:
                    line += f"; undecided: {d.unknown[:90]}"
            print(line, flush=True)
        print(f"\n{sum(totals.values())} ablations in {time.perf_counter() - start:.0f} s "
              f"({time.process_time() - cpu:.0f} s CPU): " + ", ".join(f"{n} {k}" for k, n in totals.items())
              + f"; effect witnesses: {confirmed[True]} confirmed by both interpreters, {confirmed[False]} not "
                f"confirmed, {confirmed[None]} not replayed")
    return 0


if __name__ == "__main__":
    from checker.solver.factory import steady_collector
    with steady_collector():    # as the command asks: the same witnesses whatever ran before (factory.py)
        sys.exit(main())
