"""The step's bound 0 for another player (checker/solver/unroll_step.py's `stepped_others`): no card arrives in
another seat's watched zone — at the points before the offer's first question as well as after it.  Here `tour`
gives each other player a lot of the stall before its offer: the bound 0 for another player must not be proven
(on the plain market it is).  Survivor of the blind mutation sample 9171 against the whole suite:
unroll_step.py:172 `mine=False` → `True` (the points before the first question checked for the owner's zone,
not the others': the gift unseen, "brings nothing to another player's panier" proven)."""

from __future__ import annotations

from test_reach_ranking import ONE_A_TURN
from test_reach_step import _step

TURN = "procedure tour(p: Player) {\n  set achats_du_tour = 0\n"


def test_a_lot_given_to_another_player_before_the_offer_is_no_bound_0_for_him(tmp_path):
    from checker.solver.unroll_step import stepped_others
    step, before, p = _step(ONE_A_TURN)
    assert stepped_others(step, before, p)[0] == 0
    text = ONE_A_TURN.read_text(encoding="utf-8")
    assert TURN in text
    spec = tmp_path / "marché_cadeau.rules"
    spec.write_text(text.replace(TURN, TURN + "  for q in players {\n    if q != p { draw 1 from étal to panier[q] }\n"
                                              "  }\n"), encoding="utf-8")
    step, before, p = _step(spec)
    assert stepped_others(step, before, p) == \
        "one question of the offer is not proven to bring nothing to another player's zones"
