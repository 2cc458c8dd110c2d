"""Which prohibitions a permission with `overrides` claims to lift (checker/solver/search.py `claim`,
`special_cases`): a prohibition that is a special case of a *prohibition* of a rule it overrides.  A rule it
overrides may also permit; that permission is no prohibition the overriding rule lifts, so a prohibition that is
a special case of it is not claimed: the pair is unrelated, and `conflicts` finds no contradiction between them.
Survivor of the blind mutation sample -l (search.py:459, now :570, `and` → `or`: the overridden rule's permit
heads taken for prohibitions)."""

from __future__ import annotations

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
