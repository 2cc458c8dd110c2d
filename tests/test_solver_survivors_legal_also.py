"""Every prohibition that forbids an illegal move is named by `legal`: the minimised core, then the others that
apply too (checker/solver/legal.py's `also`), those whose condition the state folds to a constant included.  On the
spice market with two house rules that close the market while a purse holds under 100 coins (constants in any
state the game is in) and a purse of 2 coins, the Safran d'Iran (3) is forbidden by `payer` and by both house rules
— each named once, and no rule that does not forbid it.  Survivor of the blind solver sample 9171 (the lead, s24):
legal.py:527 `return not formula` → `return formula` (`_violated` inverted for a constant: the house rule left
out of the core dropped, and every rule that does not apply named)."""

from __future__ import annotations

from checker.front.check import check_paths
from checker.front.configurations import select
from checker.runtime import Engine, RandomAgent
from checker.solver.legal import Legality, point_of
from checker.solver.scopes import Scopes
from conftest import ROOT

FERMÉ = """
rule marché_fermé { forbid acheter(p, l) when bourse[p] < 100 }
rule marché_clos { forbid acheter(p, l) when bourse[p] < 100 }
"""


class _Asked(Exception):
    pass


def test_every_prohibition_of_an_illegal_move_is_named_once_those_the_state_decides_included(tmp_path):
    house = tmp_path / "fermé.rules"
    house.write_text(FERMÉ, encoding="utf-8")
    result = check_paths([ROOT / "tests" / "fixtures" / "good" / "minimal_game.rules", house])
    assert result.ok, result.reporter.sorted()
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
    assert verdict.status == "illegal"
    named = [(r.kind, r.name) for r in verdict.reasons + verdict.also]
    assert sorted(named) == [("forbid", "marché_clos"), ("forbid", "marché_fermé"), ("forbid", "payer")], named
