"""The ranking's bound is the OWNER's (checker/solver/unroll_rank.py `_closes`): "more than b lots arrived in a
watched zone" is asked of the owner's seat only.  `tour(p)` here first gives the two dearest lots to the other
player's basket (two arrivals there, none counted), then p buys one lot a turn as on the market of
tests/fixtures/ranking/: p's bound of one lot a turn is proven; the other basket's two lots are no part of it.
Survivor of the blind mutation sample 9171 against the whole suite: unroll_rank.py:278 `q != v` → `q == v` (the
other seats' zones asked instead of the owner's: the bound closed without the owner's question, and not closed
where another seat receives more)."""

from __future__ import annotations

from test_reach_ranking import ONE_A_TURN, _ranked

START = "  set achats_du_tour = 0\n  offer p {"
GIFT = "  for q in players { if q != p { for l in selected(Lot) { if l.prix >= 2 { move l to panier[q] } } } }\n"


def test_lots_given_to_another_player_leave_the_owners_bound_of_one_lot_a_turn_proven(tmp_path):
    text = ONE_A_TURN.read_text(encoding="utf-8")
    assert START in text
    spec = tmp_path / "marché_cadeau.rules"
    spec.write_text(text.replace(START, START.replace("  offer", GIFT + "  offer")), encoding="utf-8")
    bound, shown = _ranked(spec)
    assert bound == 1 and "achats_du_tour stays at most 1" in shown, shown
