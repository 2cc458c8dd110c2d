"""Deterministic cost counters, budgeted by tests/test_budgets.py against tests/budgets.toml.

Counts, never times: the same on every machine (for one Python and one Z3 version) and at any load.

- ``play.*``: Python function calls (Python and built-in, as ``sys.setprofile`` sees them) per decision,
  over fixed seeded random games of each bundled game, the engine built beforehand: what the generated
  code, the engine and the invariants cost per decision.
- ``check.*``: Python function calls of checking a spec (parse, lower, resolve, typecheck).
- ``effects.*``: the legality and quantity terms the encoder builds for the effects of some moves, each encoded
  as the effect-failure search does (checker/conflicts/effects.py; the memos it keeps: checker/solver/memo.py).
- ``conflicts.*``: Z3's resource count (``rlimit count``, Z3's own steps) summed over every query of a
  conflict search, the largest of one query, and the number of queries.

    python tests/budgets.py          # every count now, as lines of tests/budgets.toml
"""

from __future__ import annotations

import contextlib
import functools
import io
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BUDGETS = Path(__file__).resolve().parent / "budgets.toml"

# name -> (spec and overlays, configuration, players, seeds)
GAMES = {
    "citadelles": (["spec/citadelles"], "Violente", ((4, (0, 1)), (6, (0, 1)))),
    "fan": (["spec/citadelles", "spec/extension-fan"], "Nouveaux Personnages", ((3, (0,)),)),
    "carcassonne": (["spec/carcassonne"], "Jeu de base", ((2, (0,)),)),
}
CHECKED = {"citadelles": ["spec/citadelles"]}
SEARCHES = {"maison": ["spec/citadelles", "spec/maison/bâtisseuse.rules"]}
# name -> (spec, moves): moves of the 4th edition whose effects build many legality terms (the Condottiere's and the
# Poudrière's ask `can` of every district of every city; the Capitaine's is the Condottiere's again)
EFFECTS = {"citadelles": (["spec/citadelles"], ('"Condottiere".détruire_un_quartier', '"Poudrière".poudrière_exploser',
                                                "bâtir"))}


def calls(fn) -> tuple[int, object]:
    """(Python function calls made while running ``fn()``, its result)."""
    count = 0

    def profile(frame, event, arg):
        nonlocal count
        if event == "call" or event == "c_call":
            count += 1
    previous = sys.getprofile()
    sys.setprofile(profile)
    try:
        result = fn()
    finally:
        sys.setprofile(previous)
    return count, result


@contextlib.contextmanager
def _at_root():
    here = os.getcwd()
    os.chdir(ROOT)
    try:
        yield
    finally:
        os.chdir(here)


@functools.cache
def play_counts(name: str) -> dict[str, float]:
    from checker.front.check import check_paths
    from checker.front.configurations import select
    from checker.runtime import Engine, RandomAgent
    paths, config, rows = GAMES[name]
    with _at_root():
        result = check_paths([Path(p) for p in paths])
    engine = Engine(result.typed)
    engine.recording = False
    total_calls = total_decisions = 0
    for players, seeds in rows:
        selection = select(result.program, result.program.configurations[config], players)
        for seed in seeds:
            agents = [RandomAgent(seed * 100 + i) for i in range(players)]
            n, game = calls(lambda: engine.play(selection.cards, players, seed, agents))
            total_calls += n
            total_decisions += game.decisions
    return {f"play.{name}.calls_per_decision": round(total_calls / total_decisions, 1)}


@functools.cache
def check_counts(name: str) -> dict[str, float]:
    from checker.front import diskcache
    from checker.front.check import ParseCache, check_paths
    paths = [Path(p) for p in CHECKED[name]]
    with _at_root():
        with diskcache.suspended():     # the check itself, not reading back one kept on disk (run outside pytest)
            check_paths(paths)      # once first: what is built once per process (the parser) is not counted
            n, _ = calls(lambda: check_paths(paths, cache=ParseCache()))   # parsed again, not the process's
    return {f"check.{name}.calls": n}


@functools.cache
def conflict_counts(name: str) -> dict[str, float]:
    from checker.cli import main
    from checker.conflicts import batches
    from checker.solver import factory, minimise, search, selection
    counted: list[int] = []

    def run(solver, *assumptions):
        before = _rlimit(solver)
        outcome = factory.run(solver, *assumptions)
        counted.append(_rlimit(solver) - before)
        return outcome
    modules = (search, minimise, selection, batches)
    saved = [m.run for m in modules]
    for m in modules:
        m.run = run
    try:
        with _at_root(), contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            main(["conflicts", *SEARCHES[name], "--json", "--workers", "1"])
    finally:
        for m, saved_run in zip(modules, saved):
            m.run = saved_run
    return {f"conflicts.{name}.queries": len(counted), f"conflicts.{name}.rlimit_total": sum(counted),
            f"conflicts.{name}.rlimit_max_query": max(counted, default=0)}


@functools.cache
def effect_counts(name: str) -> dict[str, float]:
    from checker.conflicts.effects import encode_effect
    from checker.conflicts.questions import Search
    from checker.front.check import check_paths
    paths, moves = EFFECTS[name]
    with _at_root():
        result = check_paths([Path(p) for p in paths])
    search = Search(result.typed, None)
    built = {"legal": 0, "quantities": 0}
    for label in moves:
        enc = search.encoder()
        decl = card = None
        if label.startswith('"'):
            card = search.p.cards[label[1:].split('".')[0]]
            decl = next(x for x in card.powers if x.name == label.split('".')[1])
        encode_effect(search, enc, label, decl, card)
        for k in built:
            built[k] += enc.memos.built[k]
    return {f"effects.{name}.legality_terms": built["legal"], f"effects.{name}.quantity_terms": built["quantities"]}


def _rlimit(solver) -> int:
    stats = solver.statistics()
    return int(stats.get_key_value("rlimit count")) if "rlimit count" in stats.keys() else 0


def measure(key: str) -> float:
    """The count named ``key`` (a key of tests/budgets.toml), measured now."""
    group, name, _ = key.split(".", 2)
    counts = {"play": play_counts, "check": check_counts, "effects": effect_counts, "conflicts": conflict_counts}
    table = counts[group](name)
    return table[key]


def every_key() -> list[str]:
    return ([f"play.{n}.calls_per_decision" for n in GAMES] + [f"check.{n}.calls" for n in CHECKED]
            + [f"effects.{n}.{c}" for n in EFFECTS for c in ("legality_terms", "quantity_terms")]
            + [f"conflicts.{n}.{c}" for n in SEARCHES for c in ("queries", "rlimit_total", "rlimit_max_query")])


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    for key in every_key():
        print(f'"{key}" = {measure(key)}', flush=True)
