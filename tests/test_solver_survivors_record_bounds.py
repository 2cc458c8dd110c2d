"""The bounds of a state a search asserts (checker/solver/search.py `well_formed`): a var holding a record is one
Z3 constant per field, each bounded by its field's values (an enum field: its members).  Survivor of the blind
mutation sample h164 (solver, seed 6164), search.py:306 `3 → 4` (the field named by the cell's fifth element, which
it has not: an IndexError in every search that reads such a var)."""

from __future__ import annotations

import z3

from checker.conflicts.questions import Search
from checker.front.check import check_paths

from test_solver_survivors_witness import MARKED


def test_each_field_of_a_record_valued_var_is_bounded_by_its_values(tmp_path):
    path = tmp_path / "marque.rules"
    path.write_text(MARKED, encoding="utf-8")
    result = check_paths([path])
    assert result.ok, result.reporter.sorted()
    search = Search(result.typed, players=2)
    enc = search.encoder()
    côté, fort = enc.var("marque")
    bounds = search.well_formed(enc)
    for value, expected in ((0, z3.sat), (1, z3.sat), (2, z3.unsat), (-1, z3.unsat)):    # Côté: nord, sud
        s = z3.Solver()
        s.add(*bounds, côté == value)
        assert s.check() == expected, value
