"""An integer that could pass ±MAX_INT is asked of Z3 only when its range, on the states the question asks of
(each `Int` var 0..BOUND: the well-formed state), does not already keep it within (checker/conflicts/effects.py
_within): the 4th edition's three such questions (the Diplomate's and the Maître-Chanteuse's payments) took 37
million Z3 steps to answer *no*, which the ranges of the treasuries answer at once."""

from __future__ import annotations

import z3

from checker.conflicts.effects import _within
from checker.solver.factory import SolverSettings
from conftest import ROOT

MARKET = ROOT / "tests" / "fixtures" / "good" / "minimal_game.rules"

# half of a purse given to another: the purse that receives it holds at most BOUND + BOUND // 2
DON = """
action donner(p: Player, q: Player) "Donner la moitié de sa bourse à un autre joueur." {
  transfer half(bourse[p]) from bourse[p] to bourse[q]
}
"""


def test_ranges_of_sums_branches_and_quotients_of_bounded_cells():
    a, b, n = z3.Ints("a b n")
    bounds = {a.get_id(): (0, 100), b.get_id(): (0, 100)}
    assert _within(z3.If(n > 3, a + b / 2, a - 3 * b) % 7 + a, bounds, 0, 106)
    assert not _within(a + b / 2 + 1, bounds, 0, 150)         # 151 at most: past it
    assert _within(a + b / 2 + 1, bounds, 0, 151)
    assert not _within(a + n, bounds, -10**9, 10**9)          # n is not bounded: not told
    assert not _within(a / n, bounds, -10**9, 10**9)          # nor a quotient by a term


def test_a_payment_between_bounded_purses_is_no_question_for_z3(tmp_path, monkeypatch):
    """With a step limit too small for Z3 to answer anything, the question whether the purse receiving half of
    another can pass ±1,000,000,000 is still answered (no): the ranges of the purses keep it within."""
    from checker.conflicts.questions import Search
    from checker.front.check import check_paths
    house = tmp_path / "maison.rules"
    house.write_text(DON, encoding="utf-8")
    search = Search(check_paths([MARKET, house]).typed, None, settings=SolverSettings(rlimit=1))
    findings = search.effect_failures({"donner"})
    assert findings, "the step limit leaves the other questions of the move undecided"
    assert all(f.kind == "unknown" for f in findings)
    assert not [f for f in findings if "beyond ±1,000,000,000" in f.message], [f.message for f in findings]
