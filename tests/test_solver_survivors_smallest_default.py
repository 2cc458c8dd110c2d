"""`smallest` (checker/solver/minimise.py) by default tightens each objective by a binary search below the model it has:
each check halves what is left, so within ``checks`` checks it reaches the least value of an objective whose values
span at most 2**checks integers, wherever that least value lies.  `diff` relies on it (checker/diff/pair.py: at most
TIGHTENING = 6 checks an objective, no `from_floor`); the conflict search's `from_floor` (bounds tried up from the
least value first, each step twice the last) reaches a small value sooner and a large one later.  Survivor of the
blind mutation sample 9171 against the whole suite: minimise.py:90 `from_floor: bool = False` → `True` (diff's
tightening then climbs from the floor, and stops short of a least value past its reach)."""

from __future__ import annotations

import pytest
import z3

from checker.solver.minimise import smallest

CHECKS = 6


@pytest.mark.parametrize("least", [0, 1, 17, 40, 62, 63])
def test_the_binary_search_reaches_the_least_value_within_log2_of_the_span_checks(least):
    x = z3.Int("x")
    s = z3.Solver()
    s.add(x >= least, x <= 2 ** CHECKS - 1)
    s.push()
    s.add(x == 2 ** CHECKS - 1)
    assert s.check() == z3.sat
    model = s.model()
    s.pop()
    found = smallest(s, model, [(x, 0)], checks=CHECKS)
    assert found.values == [least]
    assert found.checks <= CHECKS


def test_from_the_floor_a_small_least_value_is_reached_in_fewer_checks():
    x = z3.Int("x")
    s = z3.Solver()
    s.add(x >= 1, x <= 2 ** CHECKS - 1)
    s.push()
    s.add(x == 2 ** CHECKS - 1)
    assert s.check() == z3.sat
    model = s.model()
    s.pop()
    halving = smallest(s, model, [(x, 0)], checks=CHECKS)
    s2 = z3.Solver()
    s2.add(x >= 1, x <= 2 ** CHECKS - 1)
    floor = smallest(s2, model, [(x, 0)], checks=CHECKS, from_floor=True)
    assert halving.values == floor.values == [1]
    assert floor.checks < halving.checks


def test_from_the_floor_an_undecided_bound_is_counted_once_and_followed_by_the_next_value_up():
    """`from_floor` with `past_undecided` (the conflict search's tightening): a bound Z3 leaves undecided is passed
    over and counted (`Tightened.undecided`: one), and the next bound tried is the next value up, so the least value
    just above it is tried next.  Bounds 0 (unsat), 2 (made undecided here), then 3, the least value.  Survivor of
    the blind mutation sample 5181 (answered ahead of the run): minimise.py:138 `out.undecided += 1` → `+= 2` (an
    undecided check counted twice; nothing in checker/ reads the count — the test holds the documented field)."""
    from checker.solver.factory import Outcome, run
    x = z3.Int("x")
    s = z3.Solver()
    s.add(x >= 3, x <= 2 ** CHECKS - 1)
    s.push()
    s.add(x == 2 ** CHECKS - 1)
    assert s.check() == z3.sat
    model = s.model()
    s.pop()
    tried = []

    def check(solver):
        bound = solver.assertions()[-1].arg(1).as_long()       # the bound asked: `x <= bound`
        tried.append(bound)
        return Outcome("unknown", reason="made so by the test") if bound == 2 else run(solver)
    found = smallest(s, model, [(x, 0)], checks=CHECKS, past_undecided=True, from_floor=True, check=check)
    assert tried[:3] == [0, 2, 3] and found.values == [3], tried
    assert (found.undecided, found.checks) == (1, 3)
