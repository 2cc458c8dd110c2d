"""The bounds a symbolic state gets for the cells a question made (checker/solver/search.py `well_formed`): a
card is in one place at most, a var holding a cell of a grid is one of its cells.  Survivor of the
blind mutation sample -h: search.py:224 (a grid var's cell different from
some cell of the grid, instead of equal to one: any integer), which no test of the solver set ran."""

from __future__ import annotations

import pytest
import z3

from checker.conflicts.questions import Search
from checker.front.check import check_paths
from checker.solver.shapes import window

GAME = """\
game "Places" { players: 2..2  flow: partie }

enum Dir { haut, droite, bas, gauche }
grid Case 3 by 3 directions Dir

kind Carte { valeur: Int in 1..2  start: pioche }
zone pioche: pile of Carte public
zone main[Player]: set of Carte
var pos: Case = center(Case) public

card Carte "Un" { valeur: 1 }

procedure partie() { }

configuration "Tout" { include Carte: "Un" }
"""


@pytest.fixture(scope="module")
def search(tmp_path_factory):
    path = tmp_path_factory.mktemp("places") / "places.rules"
    path.write_text(GAME, encoding="utf-8")
    result = check_paths([path])
    assert result.ok, result.reporter.sorted()
    return Search(result.typed, players=2)


def test_a_card_is_in_one_place_at_most_and_a_grid_var_is_one_of_its_cells(search):
    enc = search.encoder()
    un = enc.E.instances[enc.E.def_ids["Un"]][0]
    in_0, in_1 = enc.cells.member("main", 0, un), enc.cells.member("main", 1, un)
    assert search.solve(enc, in_0)[0] == "sat"
    assert search.solve(enc, in_0, in_1)[0] == "unsat"
    pos = enc.cells.var("pos", None)
    cells = window(enc.E.grids["Case"])
    assert len(cells) == 9
    assert search.solve(enc, in_0, pos == cells[0])[0] == "sat"
    assert search.solve(enc, in_0, z3.And([pos != c for c in cells]))[0] == "unsat"
