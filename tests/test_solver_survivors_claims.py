"""Which prohibitions a permission with `overrides` claims to lift (checker/solver/search.py `claim`,
`special_cases`): a prohibition that is a special case of a *prohibition* of a rule it overrides.  A rule it
overrides may also permit; that permission is no prohibition the overriding rule lifts, so a prohibition that is
a special case of it is not claimed: the pair is unrelated, and `conflicts` finds no contradiction between them.
Survivor of the blind mutation sample -l (search.py:459, now :570, `and` → `or`: the overridden rule's permit
heads taken for prohibitions).  On the same game, what the search asks Z3 for a claim (one check: no witness is
made for a yes-or-no question) and how it tightens a witness (the bounds up from the least value, past an
undecided one): survivors of sample -l in search.py."""

from __future__ import annotations

import pytest

from checker.conflicts.questions import Search
from checker.front.check import check_paths

GAME = """\
game "Veto" { players: 2..2  flow: partie }

kind Jeton { valeur: Int in 1..1  start: réserve }
zone réserve: pile of Jeton public
var x: Int = 0
var y: Int = 0

action jouer(p: Player) "Jouer." { }

rule ancienne {
  forbid jouer(p) when x == 1
  permit jouer(p) when y == 1
}
rule exception {
  permit jouer(p) when x == 2
  overrides ancienne
}
rule prudence { forbid jouer(p) when y == 1 and x == 2 }

card Jeton "Un" { valeur: 1 }
procedure partie() { for p in players { offer p { jouer(p)  finish "Passer" } } }
configuration "Tout" { include Jeton: "Un" }
"""


def test_a_prohibition_that_is_a_special_case_of_an_overridden_permission_is_not_claimed(tmp_path):
    """`prudence` (y == 1 and x == 2) is a special case of `ancienne`'s permission (y == 1), not of its prohibition
    (x == 1): `exception`, which overrides `ancienne`, does not claim to lift it.  Both apply where x == 2 and
    y == 1, and that is no contradiction: `prudence` forbids the move there.  The general permission of
    `ancienne` does contradict `prudence` (and its own prohibition), as a check that the search asks."""
    path = tmp_path / "veto.rules"
    path.write_text(GAME, encoding="utf-8")
    result = check_paths([path])
    assert result.ok, result.reporter.sorted()
    search = Search(result.typed)
    permit, forbid = result.program.rules["exception"], result.program.rules["prudence"]
    claim = search.claim(permit, permit.heads[0], forbid, forbid.heads[0])
    assert (claim.status, claim.via) == ("unrelated", None)
    found = {f.rules for f in search.contradictions() if f.unresolved}
    assert found == {("ancienne", "ancienne"), ("ancienne", "prudence")}


def _search(tmp_path) -> Search:
    path = tmp_path / "veto.rules"
    path.write_text(GAME, encoding="utf-8")
    result = check_paths([path])
    assert result.ok, result.reporter.sorted()
    return Search(result.typed)


def _counting(monkeypatch, into: list):
    """Every Z3 check the search, its selection and its tightening make, as tests/budgets.py counts them."""
    from checker.solver import factory, minimise, search, selection

    def run(solver, *assumptions):
        outcome = factory.run(solver, *assumptions)
        into.append(outcome.status)
        return outcome
    for module in (search, minimise, selection):
        monkeypatch.setattr(module, "run", run)


def test_a_special_case_question_is_one_check_with_no_witness_to_make(tmp_path, monkeypatch):
    """Whether `prudence` is a special case of `ancienne`'s prohibition is a yes-or-no question: one Z3 check (sat:
    it is not), no legal game set up for its model and no model tightened — `solve` makes a witness only when asked
    (`minimal`).  Survivor of the blind mutation sample -l (search.py:254, now :333, `minimal` True by default:
    three checks, the selection's and a tightening's, for the same answer)."""
    search = _search(tmp_path)
    permit, forbid = search.p.rules["exception"], search.p.rules["prudence"]
    checks: list = []
    _counting(monkeypatch, checks)
    assert search.claim(permit, permit.heads[0], forbid, forbid.heads[0]).status == "unrelated"
    assert checks == ["sat"]


@pytest.mark.parametrize("undecided", [False, True])
def test_a_witness_is_tightened_from_the_least_value_up_even_past_an_undecided_bound(tmp_path, monkeypatch,
                                                                                    undecided):
    """Each contradiction's witness changes two vars (x and y: `ancienne`'s two heads, x == 1 and y == 1, and
    `prudence` with `ancienne`'s permission, y == 1 and x == 2), the least there can be: the tightening
    (search.py `_smallest`) tries the bounds up from the least value, 0 then 1, each refuted (unsat).  With every
    tightening check undecided (its resource limit 1), both bounds are still tried — the bound above an undecided
    one is tried next — and the witness is the first model, the same.  Survivors of the blind mutation sample -l
    (search.py:303, now :412, each `True` → `False`: `from_floor` — the binary search's one check of bound 1 — and
    `past_undecided` — the tightening ended at the first undecided check)."""
    from checker.solver import factory, minimise, search as searching
    if undecided:
        monkeypatch.setattr(searching, "SEARCH_TIGHTENING_RLIMIT", 1)
    search = _search(tmp_path)
    checked: list = []          # witness by witness, (bound, its check's answer) of each tightening check
    last: list = []             # the bound last made, until a check answers it (not the one kept at the end)
    real_at_most, real_smallest = minimise._at_most, searching.smallest

    def at_most(term, bound):
        last[:] = [bound]
        return real_at_most(term, bound)

    def smallest(*args, **kwargs):
        checked.append([])
        last.clear()
        try:
            return real_smallest(*args, **kwargs)
        finally:
            last.clear()

    def run(solver, *assumptions):
        outcome = factory.run(solver, *assumptions)
        if last:
            checked[-1].append((last.pop(), outcome.status))
        return outcome
    monkeypatch.setattr(minimise, "_at_most", at_most)
    monkeypatch.setattr(searching, "smallest", smallest)
    monkeypatch.setattr(searching, "run", run)
    monkeypatch.setattr(minimise, "run", run)
    found = [f for f in search.contradictions() if f.unresolved]
    assert [f.rules for f in found] == [("ancienne", "ancienne"), ("ancienne", "prudence")]
    assert [f.witness["vars"] for f in found] == [{"x": 1, "y": 1}, {"x": 2, "y": 1}]
    answer = "unknown" if undecided else "unsat"
    assert checked == [[(0, answer), (1, answer)]] * 2
