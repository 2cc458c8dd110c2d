"""A question asked first on the states with one copy of each card in each place (checker/solver/search.py
`one_copy_first`, `_one_copy_each`): what those states cannot answer (no model there) is asked again on every
state, where two copies of a card may be in one place.  Survivor of the blind mutation sample h164 (solver, seed
6164), search.py:559 `Is → IsNot` (a question with no model on those states raised AttributeError; after an
undecided check, their « unsat » was taken for the question's).  Through the search's `solve`: the conflict
search asks it so for the rules a batch could not decide, which no small game reaches."""

from __future__ import annotations

import z3

from checker.conflicts.questions import Search
from checker.front.check import check_paths
from checker.solver.formulas import AND

GAME = """\
game "Doubles" { players: 2..2  flow: partie }

kind Carte { valeur: Int in 1..2  copies: Int = 1  start: pioche }
zone pioche: pile of Carte public
zone main[Player]: set of Carte public

card Carte "Un" { valeur: 1  copies: 2 }
card Carte "Deux" { valeur: 2 }

procedure partie() { }

configuration "Tout" { include Carte: "Un", "Deux" }
"""


def test_two_copies_in_one_hand_are_found_after_the_states_with_one_copy_each(tmp_path):
    path = tmp_path / "doubles.rules"
    path.write_text(GAME, encoding="utf-8")
    result = check_paths([path])
    assert result.ok, result.reporter.sorted()
    search = Search(result.typed, players=2)
    engine = search.engine
    first = engine.card("Un")
    copies = engine.instances[engine.definition(first)]
    assert len(copies) == 2
    enc = search.encoder()
    both = AND(*(enc.cells.member("main", 0, c) for c in copies))       # both copies in the first hand
    status, model, _ = search.solve(enc, both, one_copy_first=True)
    assert status == "sat" and z3.is_true(model.eval(both, model_completion=True))
