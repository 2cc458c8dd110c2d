"""Survivors of the blind runtime sample s21 (seed 5169) in checker/runtime/agents.py's `_aimed_values`, the aiming
greedy player's values: agents.py:136 (`not all(valued)` → `all(valued)`).  An option that is not an action (here
« Passer », a `finish`) is worth the position as it is, measured like the actions: the lead now plus the weight
times the aim's progress now; not 0, which would compare a measured action with an unmeasured nothing."""

from __future__ import annotations

import test_agents_plan as plan
from checker.runtime.agents import GreedyAgent, option_values
from conftest import engine_of

OFFER = '    cueillir(p)\n    tailler(p)\n    finish "Fini" when joué'


def test_the_aiming_player_takes_a_point_rather_than_pass(tmp_path):
    """« Chantier » (tests/test_agents_plan.py) where a turn offers a point (`cueillir`) or « Passer »: the tower
    is 2 storeys away and no move brings it nearer (its progress, weight 4: -4 after either).  The point is worth
    1 - 4, passing 0 - 4: each aiming player takes a point each round, 6 points each after the 6 rounds."""
    text = plan.CHANTIER.replace("MAÇONNER", plan.DIRECT).replace(OFFER, '    cueillir(p)\n    finish "Passer"')
    engine = engine_of(tmp_path / "chantier.rules", text, recording=False)
    seen = []

    class Aiming(GreedyAgent):
        def choose(self, decision):
            if not seen:
                seen.append(option_values(decision, "tour_achevée", 4))
            return super().choose(decision)

    engine.play({}, 2, 1, [Aiming(s, aim="tour_achevée", weight=4) for s in range(2)])
    assert seen == [[1 - 4, 0 - 4]]
    assert engine.st.vars["points"] == {0: 6, 1: 6} and engine.st.vars["numéro"] == 6
