"""A sub-goal's guard of several conjuncts (checker/runtime/aim.py `_split`): `a and b` wanted, `a or b` not wanted,
are measured conjunct by conjunct, each one's distance added — `x >= k and x <= k` is as far as `x == k`.
Survivor of the blind runtime sample h164 (seed 4164), aim.py:392 `Add → Sub` (the conjuncts' lists subtracted:
a TypeError as soon as an aiming player's flow holds such an `if`)."""

from __future__ import annotations

import pytest

from checker.runtime.aim import subgoal_penalty
from conftest import at_first_decision, engine_of

from test_runtime_survivors_aim_budget import TRÉSOR

EQUAL = "    if x == clé {"


def _penalty(tmp_path, key: int, guard: str) -> float:
    text = TRÉSOR.replace("CLÉ", str(key)).replace(EQUAL, f"    if {guard} {{")
    engine = engine_of(tmp_path / "tresor.rules", text, recording=False)
    return at_first_decision(engine, lambda p: subgoal_penalty(engine, "trouvé", p))


@pytest.mark.parametrize("guard", ["x >= clé and x <= clé", "not (x < clé or x > clé)"])
def test_a_guard_of_two_conjuncts_is_as_far_as_their_distances_added(tmp_path, guard):
    """The key at 200, among the 256 values a chain tries: 0 away; at 280, past them: the nearest value tried,
    256, is 24 below `x >= 280` and within `x <= 280` — 24, as for `x == 280`."""
    assert _penalty(tmp_path, 200, guard) == 0
    assert _penalty(tmp_path, 280, guard) == 24 == _penalty(tmp_path, 280, "x == clé")
