"""A `connected(…)` through a symbolic state searched in a narrowed window (checker/solver/searches.py's fixpoint
with ``enc.narrowed`` set, as checker/solver/narrowed.py asks it), where the start is certain and nothing steps
back into it: it is reached by the constant True, and a step out of the window may be constant True too.

Written for h169's open survivor `searches.py:240 not removed @1` (bench/results/mutation-2026-11-29-h169.txt;
searches.py is the same on 6a54d72 and 8ece4f5).  Line 240 is the result's filter, `if not (is_const(reached[y])
and not reached[y])`: the mutant (`… and reached[y]`) drops exactly the values reached for certain — the start —
so the narrowed search from the centre reaches nothing (`count(y in réseau(x))` would be 0 where the game counts
1).  h169's note described line 237's filter of the steps out of the window, `if not (is_const(out_of_window) and
not out_of_window)`; its mutant `not removed @1` (not in a sample) drops the constraint exactly when the step out is
constant TRUE, so the narrowed search answers from a window its path leaves.  Both are killed here, and the
blind sample h171's narrowed.py:55 (below: a question with no state in any window)."""

from __future__ import annotations

import functools
import tempfile
from pathlib import Path

import pytest
import z3

from checker.base.limits import MAX_NARROWED
from checker.conflicts.questions import Search
from checker.front.check import check_paths
from checker.solver.narrowed import narrowed
from test_solver_searches import TILES, _lay, _pinned, _search as _tiles

# a step that depends on the tiles laid, and one that does not: east of the centre, whatever is laid
EASTWARD = """quantity vers_l_est(x: Case): set of Case =
  connected(y from x via filter(z in collect(d in Côté: step(y, d)) where
                                 (y == center(Case) and z == step(y, est)) or tuile_en[z] != none))
quantity vers(x: Case, d: Côté): set of Case =
  connected(y from x via filter(z in collect(e in Côté: step(y, e)) where
                                 (y == x and z == step(y, d)) or tuile_en[z] != none))
quantity score(p: Player)"""


@functools.cache
def _search() -> Search:
    text = TILES.read_text(encoding="utf-8").replace("quantity score(p: Player)", EASTWARD)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "eastward.rules"
        path.write_text(text, encoding="utf-8")
        result = check_paths([path])
    assert result.ok, [str(d) for d in result.reporter.errors]
    return Search(result.typed, players=2)


def _reached(radius):
    search = _search()
    _lay(search, {})
    enc = search.encoder()
    if radius is not None:
        enc.narrowed, enc.limit = radius, MAX_NARROWED
    grid = search.engine.grids["Case"]
    reached = enc.quantity("vers_l_est", (grid.center(),))
    assert enc.defined, "the step depends on the state: a fixpoint, not a constant search"
    return search, enc, grid, reached


def test_a_certain_step_out_of_the_narrowed_centre_excludes_every_state():
    _search_, enc, grid, reached = _reached(0)
    s = z3.Solver()
    s.add(*enc.defined)
    assert s.check() == z3.unsat                 # the mutant: sat, the centre alone « reached »


@pytest.mark.parametrize("radius", [0, 1])
def test_the_narrowed_search_on_the_empty_table_is_the_interpreters_or_excluded(radius):
    """Pinned to the empty table: the interpreter's search (the centre and the cell east of it) leaves the 1 by 1
    window, which excludes the state; it stays in the 3 by 3 one, where the encoding reaches what it reaches."""
    search, enc, grid, reached = _reached(radius)
    expected = set(search.engine.quantity("vers_l_est", (grid.center(),)))
    assert expected == {grid.center(), grid.step(grid.center(), "est")}
    s = z3.Solver()
    s.add(*enc.defined, *_pinned(enc, search))
    if radius == 0:
        assert s.check() == z3.unsat
        return
    assert s.check() == z3.sat
    for guard, y in reached:
        s.push()
        s.add(guard != (y in expected))
        assert s.check() == z3.unsat, grid.show(y)
        s.pop()


@pytest.mark.parametrize("radius", [0, 1])
def test_the_narrowed_search_reaches_its_certain_start(radius):
    """grid_tiles.rules' `réseau` from the centre on the empty table: the interpreter reaches the centre alone, and
    so does the narrowed encoding.  In the 1 by 1 window nothing steps back into the centre, so it is reached only
    as its start, by the constant True — the entry the result must keep (h169's searches.py:240 `not removed @1`,
    the same line on 8ece4f5, keeps the constant False ones instead and drops it: the search then reaches nothing,
    and `count(y in réseau(x))` would be 0 where the game counts 1)."""
    search = _tiles()
    _lay(search, {})
    grid = search.engine.grids["Case"]
    centre = grid.center()
    assert set(search.engine.quantity("réseau", (centre,))) == {centre}
    enc = search.encoder()
    enc.narrowed, enc.limit = radius, MAX_NARROWED
    reached = enc.quantity("réseau", (centre,))
    s = z3.Solver()
    s.add(*enc.defined, *_pinned(enc, search))
    assert s.check() == z3.sat
    assert centre in {y for _, y in reached}
    for guard, y in reached:
        s.push()
        s.add(guard != (y == centre))
        assert s.check() == z3.unsat, grid.show(y)
        s.pop()


def _question(extra):
    """`vers_l_est(centre)` encoded, and ``extra`` asserted: (formulas, the move's arguments: none)."""
    def encode(enc):
        grid = enc.E.grids["Case"]
        enc.quantity("vers_l_est", (grid.center(),))
        return list(extra), ()
    return encode


def test_a_narrowed_question_is_found_in_the_first_window_that_has_a_state():
    """checker/solver/narrowed.py tries the 1 by 1 window, then the 3 by 3: the search from the centre always
    steps east, so the first has no state (the step leaves it) and the second has one: found."""
    found, why = narrowed(_search(), _question([]), "vers_l_est")
    assert (found, why) == (True, "")


def test_a_narrowed_question_without_a_state_in_any_window_is_not_found():
    """No state in either window: not found, and the reason names both windows.  Survivor of the blind solver
    sample h171 (seed 7171): narrowed.py:55 `and` → `or` (`status == "sat" or not search.legality`: an unsat
    question with no legality note taken for a state found — a question settled by a state that does not
    exist), run by no test of the solver's set (tests/test_solver_narrowed.py, which has this case on
    Carcassonne, is not in it)."""
    found, why = narrowed(_search(), _question([z3.BoolVal(False)]), "vers_l_est")
    assert not found
    assert why.endswith("1 by 1: none; 3 by 3: none"), why


def test_a_narrowed_search_from_a_start_outside_its_window_has_no_state():
    """grid_tiles.rules' `réseau` from the cell east of the centre, in the 1 by 1 window (the centre): a search
    that starts outside the window is not searched — every state where it starts there is excluded (unsat); in the
    3 by 3 window it is searched (sat, reaching its start).  Kills searches.py:176 `!=` → `==` (not in a sample:
    `s == NONE and …`, a start outside the window searched all the same, so the narrowed question answers for a
    search the window does not hold)."""
    search = _tiles()
    _lay(search, {})
    grid = search.engine.grids["Case"]
    east = grid.step(grid.center(), "est")
    for radius, expected in ((0, z3.unsat), (1, z3.sat)):
        enc = search.encoder()
        enc.narrowed, enc.limit = radius, MAX_NARROWED
        reached = enc.quantity("réseau", (east,))
        s = z3.Solver()
        s.add(*enc.defined, *_pinned(enc, search))
        assert s.check() == expected, radius
        if expected == z3.sat:
            assert east in {y for _, y in reached}


def test_two_searches_from_one_start_whose_steps_read_another_name_are_not_taken_for_each_other():
    """`vers(centre, est)` and `vers(centre, ouest)`: one start, one `connected`, the step reading the quantity's
    other parameter `d`.  On the empty table the interpreter reaches the centre and the cell east of it, then the
    centre and the cell west of it; so does the encoding, each search its own fixpoint.  Survivor of the blind
    solver sample h171 (seed 7171): searches.py:167 `!=` → `==` (the fixpoints' cache key keeps the search's own
    name instead of every other one: the second search is answered with the first's values — east, not west)."""
    search = _search()
    _lay(search, {})
    grid = search.engine.grids["Case"]
    centre = grid.center()
    enc = search.encoder()
    for side in ("est", "ouest"):
        code = enc.enum_codes["Côté"][side]
        expected = set(search.engine.quantity("vers", (centre, side)))
        assert expected == {centre, grid.step(centre, side)}
        reached = enc.quantity("vers", (centre, code))
        s = z3.Solver()
        s.add(*enc.defined, *_pinned(enc, search))
        assert s.check() == z3.sat
        for guard, y in reached:
            s.push()
            s.add(guard != (y in expected))
            assert s.check() == z3.unsat, (side, grid.show(y))
            s.pop()
        assert expected <= {y for _, y in reached}, side
