"""Cost budgets: each deterministic counter of tests/budgets.py against its budget in tests/budgets.toml.
A count more than 10% over its budget fails, naming the count, the budget and by how much."""

from __future__ import annotations

import tomllib

import pytest

import budgets

TOLERANCE = 0.10
BUDGETS = tomllib.loads(budgets.BUDGETS.read_text(encoding="utf-8"))["budgets"]


def over_budget(key: str, count: float, budget: float) -> str | None:
    """The failure message when ``count`` exceeds ``budget`` by more than TOLERANCE, else None.

    >>> over_budget("play.x.calls_per_decision", 150, 100)
    'play.x.calls_per_decision is 150, 50.0% over its budget 100 (at most 110 passes; tests/budgets.toml)'
    >>> over_budget("play.x.calls_per_decision", 109, 100) is None
    True
    """
    limit = budget * (1 + TOLERANCE)
    if count <= limit:
        return None
    return (f"{key} is {count:,}, {(count - budget) / budget:.1%} over its budget {budget:,} "
            f"(at most {limit:,.0f} passes; tests/budgets.toml)")


def test_every_counter_has_a_budget_and_every_budget_a_counter():
    assert sorted(BUDGETS) == sorted(budgets.every_key())


@pytest.mark.parametrize("key", sorted(BUDGETS))
def test_cost_within_budget(key):
    problem = over_budget(key, budgets.measure(key), BUDGETS[key])
    assert problem is None, problem


def test_the_play_budget_catches_every_invariant_tested_before_every_decision(monkeypatch):
    """The cost this budget guards: the invariants tested before every decision took half of play time until
    they were tested only when something they read had changed (checker/runtime/invariants.py).  Brought back
    (every decision sees the state as changed), the Citadelles count goes past its budget and the test above
    would fail, naming it."""
    from checker.runtime.engine import Engine
    decide = Engine.decide

    def every_time(self, *args, **kwargs):
        self.st.dirty = True
        return decide(self, *args, **kwargs)

    monkeypatch.setattr(Engine, "decide", every_time)
    key = "play.citadelles.calls_per_decision"
    count = budgets.play_counts.__wrapped__("citadelles")[key]
    problem = over_budget(key, count, BUDGETS[key])
    assert problem is not None and problem.startswith(f"{key} is "), count
