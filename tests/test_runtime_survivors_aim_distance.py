"""Survivors of the blind runtime sample s21 (seed 5169) in checker/runtime/aim_measure.py, an ending's distance:
aim_measure.py:268 (`1 → 2`: a comparison a side of which the state cannot give), :256 (`1 → 2`: `any` over an
empty collection) and :147 (`depth + 1` → `depth - 1`: quantities measured through, 3 deep at most).  On « Trésor »
(tests/test_runtime_survivors_aim_budget.py), whose ending `trouvé` is tested in `vérifier`, the test made
`numéro > 5 and …` (5 rounds away in round 1, never reached: the game stops after round 3)."""

from __future__ import annotations

import pytest

from checker.runtime.aim import distances
from conftest import at_first_decision, engine_of
from test_runtime_survivors_aim_budget import TRÉSOR

QUANTITIES = """
quantity prêt1(): Bool = prêt2()
quantity prêt2(): Bool = prêt3()
quantity prêt3(): Bool = prêt4()
quantity prêt4(): Bool = numéro >= 5
"""


def _first_distance(tmp_path, condition: str) -> int:
    text = TRÉSOR.replace("CLÉ", "200").replace("  if trésor >= 1 {", f"  if numéro > 5 and {condition} {{")
    text = text.replace("var clé: Int", "var zéro: Int = 0\nvar clé: Int") + QUANTITIES
    engine = engine_of(tmp_path / "tresor.rules", text, recording=False)
    return at_first_decision(engine, lambda p: distances(engine)["trouvé"])


@pytest.mark.parametrize("condition, far", [
    ("trésor >= 1", 5 + 1),
    # a side the state cannot give (a division by zero): not held, 1 away
    ("trésor >= 1 / zéro", 5 + 1),
    # `any` over nothing (the range 1..0): not held, 1 away; so is `not all` over nothing
    ("any(x in 1..least(zéro, 5): x == clé)", 5 + 1),
    ("not all(x in 1..least(zéro, 5): x != clé)", 5 + 1),
    # a quantity measured through its formula, 3 calls deep: `numéro >= 5`, 4 away in round 1
    ("prêt2()", 5 + 4),
    # 4 calls deep: the fourth is not opened, a condition that does not hold, 1 away
    ("prêt1()", 5 + 1),
])
def test_how_far_a_condition_is_in_round_one(tmp_path, condition, far):
    assert _first_distance(tmp_path, condition) == far
