"""Every prohibition that forbids an illegal move is named by `legal`: the minimised core, then the others that
apply too (checker/solver/legal.py's `also`), those whose condition the state folds to a constant included.  On the
spice market with two house rules that close the market while a purse holds under 100 coins (constants in any
state the game is in) and a purse of 2 coins, the Safran d'Iran (3) is forbidden by `payer` and by both house rules
— each named once, and no rule that does not forbid it.  Survivor of the blind solver sample 9171 (the lead, s24):
legal.py:527 `return not formula` → `return formula` (`_violated` inverted for a constant: the house rule left
out of the core dropped, and every rule that does not apply named)."""

from __future__ import annotations

from checker.front.check import check_paths
from conftest import ROOT, verdict_at_first_decision
from test_solver_survivors_legal_overruled import two_coins_for_the_safran

FERMÉ = """
rule marché_fermé { forbid acheter(p, l) when bourse[p] < 100 }
rule marché_clos { forbid acheter(p, l) when bourse[p] < 100 }
"""


def test_every_prohibition_of_an_illegal_move_is_named_once_those_the_state_decides_included(tmp_path):
    house = tmp_path / "fermé.rules"
    house.write_text(FERMÉ, encoding="utf-8")
    result = check_paths([ROOT / "tests" / "fixtures" / "good" / "minimal_game.rules", house])
    assert result.ok, result.reporter.sorted()
    verdict = verdict_at_first_decision(result, two_coins_for_the_safran)
    assert verdict.status == "illegal"
    named = [(r.kind, r.name) for r in verdict.reasons + verdict.also]
    assert sorted(named) == [("forbid", "marché_clos"), ("forbid", "marché_fermé"), ("forbid", "payer")], named
