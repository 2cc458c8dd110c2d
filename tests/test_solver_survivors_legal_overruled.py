"""A permission that applies to an illegal move but lifts none of the prohibitions that forbid it
(checker/solver/legal.py's `_overruled`): `legal` names it with the claim that relates the pair.  On the spice
market: the Safran d'Iran bought with 2 coins — `payer` forbids it; `marchand_de_safran` applies (its condition,
`l == "Safran d'Iran"`, is read on the offer's unknown for `l`, pinned to the move: a Z3 question, not a
constant) but only overrides `un_lot_par_épice`, so the pair is "unrelated".  Survivor of the blind mutation
sample 9171 against the whole suite: legal.py:519 `run(s).status == "sat"` → `!=` (`_holds` inverted for a
formula that is not a constant: the permission that applies dropped)."""

from __future__ import annotations

from checker.front.check import check_paths
from checker.front.configurations import select
from checker.runtime import Engine, RandomAgent
from checker.solver.legal import Legality, point_of
from checker.solver.scopes import Scopes
from conftest import ROOT


class _Asked(Exception):
    pass


def test_a_permission_that_applies_but_lifts_nothing_that_forbids_the_move_is_named():
    result = check_paths([ROOT / "tests" / "fixtures" / "good" / "minimal_game.rules"])
    assert result.ok
    scopes = Scopes(result.typed)
    e = Engine(result.typed)
    e.recording = False
    verdicts = []

    def observe(decision):
        p = decision.player
        e.st.vars["bourse"][p] = 2
        e.invalidate()
        move = ("action", "acheter", (p, e.card("Safran d'Iran")))
        verdicts.append(Legality(e, scopes).check(point_of(decision, scopes), move, p))
        raise _Asked
    e.observer = observe
    try:
        e.play(select(result.program, result.program.configurations["Standard"], 2).cards, 2, 1,
               [RandomAgent(1), RandomAgent(2)])
    except _Asked:
        pass
    [verdict] = verdicts
    assert verdict.status == "illegal" and [(r.kind, r.name) for r in verdict.reasons] == [("forbid", "payer")]
    assert [(permit, forbid, claim.status) for permit, forbid, claim in verdict.overruled] == \
        [("marchand_de_safran", "payer", "unrelated")]
