"""The smallest witness of a question the conflict search asks without the invariants first (checker/solver/search.py
`_first_smallest`, the lazy invariants of `Assumed`): when the smallest model breaks an invariant and no model meets
them, the question has no model — « unsat », as when the invariants are assumed from the start.  Survivor of the
blind mutation sample h164 (solver, seed 6164), search.py:477 `Is → IsNot` (no model, then tightened all the same:
an AttributeError; and a model found with the invariants dropped, found again at the cost of more checks)."""

from __future__ import annotations

import pytest

from checker.conflicts.questions import Search
from checker.front.check import check_paths

GAME = """\
game "Jetons" { players: 2..3  flow: partie }

var jetons[Player]: Int = 0

action poser(p: Player) "Poser un jeton." { set jetons[p] = jetons[p] + 1 }
rule deux { forbid poser(p) when jetons[p] >= 2 }
invariant un_jeton { require all(p in players: jetons[p] <= 1) }

procedure partie() { }

configuration "Tout" { players: 2..3 }
"""


@pytest.mark.parametrize("lazy", [True, False])
def test_a_question_only_states_breaking_an_invariant_meet_has_no_smallest_model(tmp_path, lazy):
    """Two tokens in front of a player: a model without the invariant, none with it.  Asked for its smallest
    model, as a witness is: unsat, whether the invariants are assumed at once or once a model breaks one."""
    path = tmp_path / "jetons.rules"
    path.write_text(GAME, encoding="utf-8")
    result = check_paths([path])
    assert result.ok, result.reporter.sorted()
    search = Search(result.typed)
    search.lazy, search.batches = lazy, False
    rule = search.p.rules["deux"]
    enc = search.encoder()
    args, domain = search.action_args(enc, "poser")
    cond = enc.applies(rule, rule.heads[0], args[:len(rule.heads[0].pattern.binders)])
    status, model, _ = search.solve(enc, *domain, cond, minimal=True)
    assert (status, model) == ("unsat", None)
    assert (search.assumed >= 1) == lazy
