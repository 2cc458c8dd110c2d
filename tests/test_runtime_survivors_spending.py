"""Tests written for the survivors of the mutation sample of checker/runtime/spending.py (h153, seed 153,
bench/results/mutation-2026-11-29-h153.txt): the limits the engine's own `spend` and `range_of` guard, at their
bounds.  The generated code counts most loops inline (tests/test_limits.py plays those bounds), so a bound of
`spend` itself was played by no test: MAX_WORK elements since the last decision are allowed, one more stops the
spec; a range holds at most MAX_RANGE integers."""

from __future__ import annotations

import pytest

from checker.base.limits import MAX_RANGE, MAX_WORK
from checker.runtime.spending import Spending
from checker.runtime.state import SpecRuntimeError


def _fresh() -> Spending:
    spending = Spending()
    spending.work = 0
    return spending


def test_spend_allows_max_work_elements_and_stops_one_more():
    spending = _fresh()
    assert spending.spend(range(MAX_WORK)) == range(MAX_WORK) and spending.work == MAX_WORK
    with pytest.raises(SpecRuntimeError, match="the limit MAX_WORK"):
        spending.spend((0,))
    # the count starts again from 0 after the error (a hypothetical stopped there does not weigh on what follows)
    assert spending.spend(range(MAX_WORK)) == range(MAX_WORK) and spending.work == MAX_WORK


def test_a_range_holds_max_range_integers_at_most():
    spending = _fresh()
    assert spending.range_of(1, MAX_RANGE) == tuple(range(1, MAX_RANGE + 1))
    assert spending.work == MAX_RANGE
    with pytest.raises(SpecRuntimeError, match="the limit of one range"):
        spending.range_of(0, MAX_RANGE)
    assert spending.range_of(-3, -1) == (-3, -2, -1) and spending.work == MAX_RANGE + 3


def test_a_range_counts_its_integers_against_max_work():
    spending = _fresh()
    spending.work = MAX_WORK - 3
    assert spending.range_of(1, 3) == (1, 2, 3) and spending.work == MAX_WORK
    with pytest.raises(SpecRuntimeError, match="the limit MAX_WORK"):
        spending.range_of(5, 5)
