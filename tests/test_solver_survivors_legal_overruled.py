"""A permission that applies to an illegal move but lifts none of the prohibitions that forbid it
(checker/solver/legal.py's `_overruled`): `legal` names it with the claim that relates the pair.  On the spice
market: the Safran d'Iran bought with 2 coins — `payer` forbids it; `marchand_de_safran` applies (its condition,
`l == "Safran d'Iran"`, is read on the offer's unknown for `l`, pinned to the move: a Z3 question, not a
constant) but only overrides `un_lot_par_épice`, so the pair is "unrelated".  Survivor of the blind mutation
sample 9171 against the whole suite: legal.py:519 `run(s).status == "sat"` → `!=` (`_holds` inverted for a
formula that is not a constant: the permission that applies dropped)."""

from __future__ import annotations

from checker.front.check import check_paths
from conftest import ROOT, verdict_at_first_decision


def two_coins_for_the_safran(e, decision):
    """The Safran d'Iran (3) bought by the player deciding, his purse set to 2 coins."""
    e.st.vars["bourse"][decision.player] = 2
    return ("action", "acheter", (decision.player, e.card("Safran d'Iran")))


def test_a_permission_that_applies_but_lifts_nothing_that_forbids_the_move_is_named():
    result = check_paths([ROOT / "tests" / "fixtures" / "good" / "minimal_game.rules"])
    assert result.ok
    verdict = verdict_at_first_decision(result, two_coins_for_the_safran)
    assert verdict.status == "illegal" and [(r.kind, r.name) for r in verdict.reasons] == [("forbid", "payer")]
    assert [(permit, forbid, claim.status) for permit, forbid, claim in verdict.overruled] == \
        [("marchand_de_safran", "payer", "unrelated")]
