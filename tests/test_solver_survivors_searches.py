"""`connected(…)` on a symbolic state that would pass the encoding's limit (checker/solver/searches.py): the
search gives up with what it found so far — how many values it reached, and about how many elements each one's
next values cost (the elements spent since it started, divided by the values followed).  The encoding is started
near its limit (`spent` set so), on the empty table of tests/fixtures/good/grid_tiles.rules: each cell's next
values cost 24 elements there.  Survivor of the blind mutation sample -e (searches.py:177, the division by the
values followed + 2), which no test of the solver set ran; and searches.py:110 (the searches on constants kept
under a key that forgot the names their step reads), at the end."""

from __future__ import annotations

import pytest

from checker.base.limits import MAX_ENCODING
from checker.solver.encode import Unsupported
from test_solver_searches import _lay, _search


@pytest.mark.parametrize("room,values", [(40, 1), (200, 8), (400, 16)])
def test_a_search_past_the_encodings_limit_says_how_far_it_got_and_what_each_value_costs(room, values):
    search = _search()
    _lay(search, {})
    enc = search.encoder()
    enc.spent = MAX_ENCODING - room
    with pytest.raises(Unsupported) as err:
        enc.quantity("réseau", (search.engine.grids["Case"].cell(0, 0),))
    assert str(err.value).startswith("connected(…) on a symbolic state: ")
    assert str(err.value).endswith(f"(the limit of one Z3 encoding): at least {values} values, about 24 elements "
                                   f"each")


GRID = """\
game "Grille" { players: 2..2  flow: partie }

enum Côté { nord, est, sud, ouest }
grid Case 5 by 5 directions Côté

kind Carte { valeur: Int in 1..1  start: pioche }
zone pioche: pile of Carte public
var ouvert[Case]: Bool = false

quantity voisins_sauf(x: Case, interdit: Case): set of Case =
  connected(y from x via filter(z in collect(d in Côté: step(y, d)) where ouvert[z] and z != interdit))

card Carte "Un" { valeur: 1 }
procedure partie() { }
configuration "Tout" { include Carte: "Un" }
"""


def test_a_search_from_the_same_start_with_another_excluded_cell_is_searched_again(tmp_path):
    """`connected` on constants, from one start, twice in one encoding with a different name its step reads
    (`interdit`): the second search is not the first one's kept result; each is the interpreter's (the open
    cells are the 3 × 3 middle of the grid).  Survivor of sample -e: searches.py:110, the kept searches keyed
    on the search's own variable instead of the other names."""
    from checker.front.check import check_paths
    from checker.front.configurations import select
    from checker.runtime import Engine
    from checker.solver.encode import Encoder
    path = tmp_path / "grille.rules"
    path.write_text(GRID, encoding="utf-8")
    result = check_paths([path])
    assert result.ok, result.reporter.sorted()
    e = Engine(result.typed)
    e.recording = False
    e.start(select(result.program, result.program.configurations["Tout"], 2).cards, 2, 1, [None, None])
    grid = e.grids["Case"]
    for r in (-1, 0, 1):
        for c in (-1, 0, 1):
            e.st.vars["ouvert"][grid.cell(r, c)] = True
    e.invalidate()
    enc = Encoder(e, concrete=True)
    start = grid.cell(0, 0)
    for excluded in ((0, 1), (1, 0), (0, 1)):
        reached = enc.quantity("voisins_sauf", (start, grid.cell(*excluded)))
        assert all(g is True for g, _ in reached)
        expected = set(e.quantity("voisins_sauf", (start, grid.cell(*excluded))))
        assert {y for _, y in reached} == expected and len(expected) == 8 and grid.cell(*excluded) not in expected



def test_a_search_is_refused_past_max_searched_values_and_not_at_it(monkeypatch):
    """`connected` on a symbolic state follows at most MAX_SEARCHED values: from the middle of the empty table,
    `réseau` may reach the 25 cells of the 5 × 5 window around it.  With the limit at 25 that is every value it
    may reach, and the search is encoded (25 values); at 24 the 25th is one too many, and the search is refused
    with the limit named.  Survivor of the blind mutation sample -l (searches.py:184 `>=` → `>`: one value past
    the limit followed)."""
    from checker.solver import searches
    search = _search()
    _lay(search, {})
    centre = search.engine.grids["Case"].cell(0, 0)
    monkeypatch.setattr(searches, "MAX_SEARCHED", 25)
    reached = search.encoder().quantity("réseau", (centre,))
    assert len(reached) == 25
    monkeypatch.setattr(searches, "MAX_SEARCHED", 24)
    with pytest.raises(Unsupported) as err:
        search.encoder().quantity("réseau", (centre,))
    assert str(err.value) == ("connected(…) may reach more than 24 values on a symbolic state (the most one "
                              "encoding follows)")
