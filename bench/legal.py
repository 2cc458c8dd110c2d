"""Benchmark and agreement run of Z3 legality (`rulebook legal` / `rulebook moves`).

    python bench/legal.py                      # latency table (one check, one enumeration, ratio)
    python bench/legal.py --agreement 10000    # Z3 moves == interpreter options at 10,000+ decision points

Latency: decision points are sampled from seeded random games of every configuration and player
count; at each, one legal and one illegal move are checked, and all moves are enumerated by Z3 and
by the interpreter's own code.  The agreement run plays games of every configuration and player
count (seeds 0, 1, …) until enough decision points are compared, and prints what it covered.
"""

from __future__ import annotations

import argparse
import collections
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.chdir(ROOT)

from checker.front.check import check_paths  # noqa: E402
from checker.front.configurations import select  # noqa: E402
from checker.runtime import Engine, RandomAgent  # noqa: E402
from checker.solver.legal import Legality, interpreter_moves, interpreter_options, point_of  # noqa: E402
from checker.solver.scopes import Scopes  # noqa: E402
from checker.solver.statefile import dump_state, load_state  # noqa: E402


def games(result, seeds):
    program = result.program
    for seed in seeds:
        for name, counts in sorted(result.configurations.items()):
            for n in counts:
                yield name, n, seed, select(program, program.configurations[name], n)


def agreement(result, want: int) -> int:
    e = Engine(result.typed)
    e.recording = False
    scopes = Scopes(result.typed)
    rows = collections.defaultdict(collections.Counter)
    sites, characters, wonders = set(), set(), set()
    disagreements = []
    total = 0
    start = time.perf_counter()
    for name, n, seed, selection in games(result, range(1000)):
        if total >= want and seed > 0:     # every configuration and player count is played at least once
            break
        row = rows[n]

        def observe(decision, row=row):
            point = point_of(decision, scopes)
            z3_moves = Legality(e, scopes).moves(point)
            ours = interpreter_moves(decision)
            row["points"] += 1
            row[point.kind] += 1
            sites.add(str(getattr(decision.site, "span", decision.site)))
            if collections.Counter(z3_moves) != collections.Counter(ours):
                row["disagree"] += 1
                disagreements.append((name, n, seed, decision.prompt, z3_moves, ours))
        e.observer = observe
        e.play(selection.cards, n, seed, [RandomAgent(seed * 100 + k) for k in range(n)])
        row["games"] += 1
        characters.update(selection.cards.get("Character", ()))
        wonders.update(c for c in selection.cards.get("District", ())
                       if result.program.cards[c].attrs and any(a.name == "type" and getattr(a.value, "id", "") ==
                                                                  "Merveille" for a in result.program.cards[c].attrs))
        total = sum(r["points"] for r in rows.values())
    elapsed = time.perf_counter() - start
    print(f"{'players':>7} | {'games':>5} | {'decision points':>15} | {'offer':>6} | {'choose':>6} | "
          f"{'subset':>6} | {'react':>5} | {'disagreements':>13}")
    print("-" * 92)
    for n in sorted(rows):
        r = rows[n]
        print(f"{n:>7} | {r['games']:>5} | {r['points']:>15,} | {r['offer']:>6} | {r['choose']:>6} | "
              f"{r['subset']:>6} | {r['react']:>5} | {r['disagree']:>13}")
    print("-" * 92)
    print(f"{'all':>7} | {sum(r['games'] for r in rows.values()):>5} | {total:>15,} | "
          f"{'':>6} | {'':>6} | {'':>6} | {'':>5} | {len(disagreements):>13}")
    all_chars = [c.name for c in result.program.cards_of("Character")]
    all_wonders = [c.name for c in result.program.cards_of("District")
                   if any(a.name == "type" and getattr(a.value, "id", "") == "Merveille" for a in c.attrs)]
    print(f"\ncharacters in play: {len(characters)}/{len(all_chars)}; Merveilles in play: "
          f"{len(wonders)}/{len(all_wonders)}; decision sites reached: {len(sites)}; {elapsed:.0f} s")
    for d in disagreements[:10]:
        print("DISAGREEMENT", d)
    return 1 if disagreements else 0


def latency(result, samples: int) -> None:
    e = Engine(result.typed)
    e.recording = False
    scopes = Scopes(result.typed)
    states = []
    for name, n, seed, selection in games(result, (7,)):
        taken = []

        def observe(decision, taken=taken):
            if len(taken) < samples // 40 + 1 and len(decision.options) > 1 and e.decisions % 5 == 0:
                taken.append(dump_state(e, decision, scopes, ["spec/citadelles"]))
        e.observer = observe
        e.play(selection.cards, n, seed, [RandomAgent(seed * 100 + k) for k in range(n)])
        states += taken
    e.observer = None
    check_legal, check_illegal, enum_z3, enum_py = [], [], [], []
    for state in states[:samples]:
        loaded = load_state(e, state, scopes)
        point = loaded.point
        t = time.perf_counter()
        moves = Legality(e, scopes).moves(point)
        enum_z3.append(time.perf_counter() - t)
        t = time.perf_counter()
        interpreter_options(e, point)
        enum_py.append(time.perf_counter() - t)
        if moves:
            t = time.perf_counter()
            Legality(e, scopes).check(point, moves[0], point.player)
            check_legal.append(time.perf_counter() - t)
        bad = _an_illegal_move(e, point, moves)
        if bad is not None:
            t = time.perf_counter()
            Legality(e, scopes).check(point, bad, point.player)
            check_illegal.append(time.perf_counter() - t)

    def row(label, xs, goal):
        xs = sorted(xs)
        p95 = xs[min(len(xs) - 1, int(0.95 * len(xs)))]
        print(f"{label:<38} | {len(xs):>5} | {1000 * statistics.median(xs):>8.1f} | {1000 * p95:>8.1f} | {goal}")
    print(f"{'query (ms)':<38} | {'n':>5} | {'median':>8} | {'p95':>8} | goal")
    print("-" * 80)
    row("check a legal move (with the why)", check_legal, "< 10 ms median")
    row("check an illegal move (minimised core)", check_illegal, "< 10 ms median")
    row("enumerate all moves, Z3", enum_z3, "< 100 ms median")
    row("enumerate all moves, interpreter", enum_py, "")
    ratio = statistics.median(enum_z3) / statistics.median(enum_py)
    print(f"\nZ3 enumeration / interpreter enumeration (medians): {ratio:.1f}x")


def _an_illegal_move(e, point, moves):
    """A move of the same kind as a legal one, that is not legal: another card, another value."""
    legal = set(moves)
    for m in moves:
        if m[0] == "action":
            for inst in range(len(e.defs)):
                args = tuple(inst if a == m[2][-1] else a for a in m[2])
                if ("action", m[1], args) not in legal and e.def_kind[e.defs[inst]] == e.def_kind[e.defs[m[2][-1]]]:
                    return ("action", m[1], args)
        if m[0] == "choose" and isinstance(m[1], int) and m[1] >= 0:
            for inst in range(len(e.defs)):
                if ("choose", inst) not in legal and e.def_kind[e.defs[inst]] == e.def_kind[e.defs[m[1]]]:
                    return ("choose", inst)
    return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--agreement", type=int, metavar="N", help="compare at N decision points or more")
    parser.add_argument("--samples", type=int, default=300, help="decision points for the latency table")
    args = parser.parse_args()
    result = check_paths([Path("spec/citadelles")])
    if args.agreement:
        return agreement(result, args.agreement)
    latency(result, args.samples)
    return 0


if __name__ == "__main__":
    sys.exit(main())
