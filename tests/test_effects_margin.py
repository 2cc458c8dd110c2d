"""The Diplomate's exchange is proved (no failure, tests/test_effects_undecided.py) whatever Z3's unknowns are
named: its one question that hung on the names — may its payment be negative (11-personnages-5-9.rules:391,
`greatest(valeur(d) - valeur(x), 0) + surcoût_rang_8(…)`) — took Z3 0.15 to 0.99 million steps on the relaxed
solver (RELAXED_RLIMIT: 1 million) as the `requires`' unknowns were renamed, and past it the full question ran
out of its 50 million (undecided: bench/results/mutation-2026-11-29-h153.txt, NOTICED).  The ranges of the terms
now refute it before Z3 (checker/conflicts/effects.py ``_ruled_out``); the two questions left take a fifth of the
relaxed limit or less, whatever the names."""

from __future__ import annotations

import pytest
import z3

import checker.conflicts.effects as effects
import checker.conflicts.relaxed as relaxed
from checker.conflicts.effects import _range, _ruled_out
from checker.conflicts.instances import exists
from checker.conflicts.relaxed import RELAXED_RLIMIT
from conftest import bundled


def test_the_greater_and_the_lesser_of_two_terms_have_their_own_ranges():
    a, b, n = z3.Ints("a b n")
    bounds = {a.get_id(): (0, 100), b.get_id(): (0, 100)}
    greater = z3.If(a - b > 0, a - b, 0)            # `greatest(a - b, 0)`, as the encoding writes it
    assert _range(greater, bounds, {}) == (0, 100) and _range(a - b, bounds, {}) == (-100, 100)
    assert _range(z3.If(a < 7, a, 7), bounds, {}) == (0, 7)                   # the lesser
    assert _range(z3.If(a >= b, b, a), bounds, {}) == (0, 100)                # not an extremum: either branch
    surcharge = greater + z3.If(n > 2, 1, 0)
    assert _ruled_out(z3.And(n > 1, z3.And(a > 3, surcharge < 0)), bounds, {})
    assert not _ruled_out(z3.And(n > 1, a - b < 0), bounds, {})
    assert not _ruled_out(z3.And(a > 3, greater + n < 0), bounds, {})        # n is not bounded: not told
    assert _ruled_out(z3.And(b <= 100, a > 100), bounds, {}) and not _ruled_out(a >= 100, bounds, {})


def _named(offset: int):
    """instances.requires with its unknowns named from ``!requis{1 + offset}`` (offset 1: the h153 mutant)."""
    def requires(enc, expr, env, negated=False):
        count = iter(range(1 + offset, 1 << 30))
        return exists(enc, expr, env, lambda hint: f"{hint}!requis{next(count)}", negated)
    return requires


@pytest.mark.parametrize("offset", [1, 13])
def test_the_diplomates_proof_does_not_hang_on_the_names_of_its_unknowns(monkeypatch, offset):
    from checker.conflicts.questions import Search
    steps = []

    def run(solver, *assumptions):
        before = _rlimit(solver)
        outcome = relaxed_run(solver, *assumptions)
        steps.append((outcome.status, _rlimit(solver) - before))
        return outcome
    relaxed_run = relaxed.run
    monkeypatch.setattr(relaxed, "run", run)
    monkeypatch.setattr(effects, "requires", _named(offset))
    search = Search(bundled().typed, None)
    assert search.effect_failures({'"Diplomate".échanger_un_quartier'}) == []
    # the negative payment is no question; the two left (`the(…)` of détenteur, a payment beyond the treasury)
    assert len(steps) == 2 and all(status == "unsat" for status, _ in steps), steps
    assert max(n for _, n in steps) <= RELAXED_RLIMIT // 4, steps


def _rlimit(solver) -> int:
    stats = solver.statistics()
    return next((stats.get_key_value(k) for k in stats.keys() if k == "rlimit count"), 0)
