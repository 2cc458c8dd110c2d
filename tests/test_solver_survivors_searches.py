"""`connected(…)` on a symbolic state that would pass the encoding's limit (checker/solver/searches.py): the
search gives up with what it found so far — how many values it reached, and about how many elements each one's
next values cost (the elements spent since it started, divided by the values followed).  The encoding is started
near its limit (`spent` set so), on the empty table of tests/fixtures/good/grid_tiles.rules: each cell's next
values cost 24 elements there.  Survivor of the blind mutation sample -e (searches.py:177, the division by the
values followed + 2), which no test of the solver set ran."""

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
