"""The ranking's symbolic state (checker/solver/unroll_rank.py `_Ranking._symbolic`): the watched zones' members at a
question, each term for a Bool unknown of its own — but a member the encoding knows (a Python constant: a lot that
cannot be in the basket there) stays as it is.  `tour` here first puts the cheapest lot back on the stall (a known
card, moved on every path: at the questions after it, its place in each basket is the constant false); one lot a turn
is still bought, and the permit's bound of one lot a turn is proven, as on the market of tests/fixtures/ranking/.
Survivor of the blind mutation sample 9171 against the whole suite: unroll_rank.py:208 `is_const(m) or z3.is_const(m)
or …` → `and` (a constant member taken for a term: an AttributeError, an internal error)."""

from __future__ import annotations

from test_reach_ranking import ONE_A_TURN, _ranked

START = "  set achats_du_tour = 0\n  offer p {"
BACK = "  for l in selected(Lot) { if l.prix == 1 { move l to étal } }\n"


def test_a_lot_put_back_on_the_stall_before_the_offer_leaves_one_lot_a_turn_proven(tmp_path):
    text = ONE_A_TURN.read_text(encoding="utf-8")
    assert START in text
    spec = tmp_path / "marché_remis.rules"
    spec.write_text(text.replace(START, START.replace("  offer", BACK + "  offer")), encoding="utf-8")
    bound, shown = _ranked(spec)
    assert bound == 1 and "achats_du_tour stays at most 1" in shown, shown
