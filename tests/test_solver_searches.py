"""`connected(…)` through a relation that depends on a symbolic state (the conflict search's states): the Z3
fixpoint against the interpreter, on small grid states; and a Carcassonne question it lets the search decide."""

from __future__ import annotations

import functools
import tempfile
from pathlib import Path

import pytest
import z3
from hypothesis import HealthCheck, given, settings, strategies as st

from checker.front import ast
from checker.front.check import check_paths
from checker.conflicts.questions import Search
from checker.solver.encode import Cells, Unsupported
from checker.solver.shapes import window
from conftest import ROOT

TILES = ROOT / "tests" / "fixtures" / "good" / "grid_tiles.rules"


@functools.cache
def _search() -> Search:
    result = check_paths([TILES])
    assert result.ok, [str(d) for d in result.reporter.errors]
    return Search(result.typed, players=2)


def _pinned(enc, search: Search) -> list:
    """Every cell the encoding made, equal to its value in the engine's state."""
    concrete = Cells(enc, concrete=True)
    out = []
    for key, cell in enc.cells.made.items():
        if key[0] == "var":
            value = concrete.var(key[1], key[2])
        elif key[0] == "in":
            value = concrete.member(key[1], key[2], key[3])
        else:
            value = concrete.used(*key[1:])
        out.append(cell == value)
    return out


def _lay(search: Search, tiles: dict) -> None:
    """Only ``tiles`` (cell -> (tile, rotation)) on the table."""
    E = search.engine
    E.st.vars["tuile_en"].clear()
    E.st.vars["rotation_en"].clear()
    for cell, (tile, rotation) in tiles.items():
        E.st.vars["tuile_en"][cell] = tile
        E.st.vars["rotation_en"][cell] = rotation
    E.invalidate()


def _cells(search: Search):
    grid = search.engine.grids["Case"]
    inner = window(grid)
    outer = [grid.cell(r, c) for r in (-3, 3) for c in range(-3, 4)]     # just outside the window
    return inner, outer


@st.composite
def _states(draw):
    search = _search()
    inner, outer = _cells(search)
    tiles = [i for i, d in enumerate(search.engine.defs) if search.engine.def_kind[d] == "Tuile"]
    spots = draw(st.lists(st.sampled_from(inner + outer[:3]), min_size=1, max_size=min(12, len(tiles)), unique=True))
    laid = {c: (tiles[k], draw(st.integers(0, 7))) for k, c in enumerate(spots)}
    start = draw(st.sampled_from(inner))
    return laid, start


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(state=_states(), symbolic_start=st.booleans())
def test_connected_on_a_symbolic_state_agrees_with_the_interpreter(state, symbolic_start):
    """Each value the search may reach is reached in the encoding exactly when the interpreter reaches it,
    on the state pinned cell by cell; a state whose search leaves the window is one the encoding excludes."""
    laid, start = state
    search = _search()
    _lay(search, laid)
    expected = set(search.engine.quantity("réseau", (start,)))
    enc = search.encoder()
    if symbolic_start:
        x, inside = search.symbolic(enc, "x", enc.resolve(ast.TypeName("Case", None)))
        pin_start = [inside, x == start]
    else:
        x, pin_start = start, []
    reached = enc.quantity("réseau", (x,))
    assert enc.defined, "the search depends on the state: a fixpoint, not a constant"
    s = z3.Solver()
    s.add(*enc.defined, *_pinned(enc, search), *pin_start)
    inner, _ = _cells(search)
    if not expected <= set(inner):
        assert s.check() == z3.unsat
        return
    assert s.check() == z3.sat
    assert expected <= {y for _, y in reached}
    for guard, y in reached:
        s.push()
        s.add(guard != (y in expected))
        assert s.check() == z3.unsat, (y, y in expected)
        s.pop()


def test_a_road_round_the_window_is_followed_both_ways():
    """A ring of tiles (a cycle of the relation): reached from any of its cells, and not self-supported when
    the ring is cut off from the start."""
    search = _search()
    E = search.engine
    grid = E.grids["Case"]
    tiles = [i for i, d in enumerate(E.defs) if E.def_kind[d] == "Tuile"]
    virage = [i for i in tiles if E.def_names[E.defs[i]] == "Virage"]
    # four bends turned to make a loop: (0,0) east+south, (0,1) south+west, (1,1) west+north, (1,0) north+east
    ring = {grid.cell(0, 0): (virage[0], 1), grid.cell(0, 1): (virage[1], 2),
            grid.cell(1, 1): (virage[2], 3), grid.cell(1, 0): (virage[3], 0)}
    _lay(search, ring)
    loop = set(E.quantity("réseau", (grid.cell(0, 0),)))
    assert loop == set(ring)
    enc = search.encoder()
    apart = grid.cell(-2, -2)                       # empty: its search reaches itself only
    for start, expected in ((grid.cell(1, 1), loop), (apart, {apart})):
        reached = enc.quantity("réseau", (start,))
        s = z3.Solver()
        s.add(*enc.defined, *_pinned(enc, search))
        for guard, y in reached:
            s.push()
            s.add(guard != (y in expected))
            assert s.check() == z3.unsat, (grid.show(start), grid.show(y))
            s.pop()


def test_path_through_a_symbolic_state_says_why_it_is_not_encoded():
    text = TILES.read_text(encoding="utf-8").replace(
        "quantity score(p: Player)",
        "quantity chemin(x: Case): set of Case = path(y from x to center(Case) via\n"
        "  filter(z in collect(d in Côté: step(y, d)) where tuile_en[z] != none))\n"
        "quantity score(p: Player)")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "chemins.rules"
        path.write_text(text, encoding="utf-8")
        result = check_paths([path])
        assert result.ok, [str(d) for d in result.reporter.errors]
        search = Search(result.typed, players=2)
        enc = search.encoder()
        with pytest.raises(Unsupported) as caught:
            enc.quantity("chemin", (search.engine.grids["Case"].cell(1, 0),))
    assert "first one a breadth-first search meets" in caught.value.message
    assert caught.value.span is not None


# ---------------------------------------------------------------- Carcassonne

def test_the_guard_across_the_row_is_now_decided():
    """« sauf s'il y a déjà un garde sur le rempart juste à l'opposé » reads the row of tiles in front of the
    rampart (`connected` through the state): whether the rule can apply, and whether it can fail to, are
    decided (they were undecided: the search could not be encoded)."""
    from test_carcassonne import checked
    p = checked().program
    search = Search(checked().typed, players=2)
    rule = p.rules["pas_de_garde_en_face"]
    enc = search.encoder()
    args, domain = search.params_args(enc, "garder", p.actions["garder"].params)
    cond = enc.applies(rule, rule.heads[0], args)
    assert enc.defined
    assert search.solve(enc, *domain, cond)[0] == "sat"
    assert search.solve(enc, *domain, z3.Not(cond))[0] == "sat"


def test_a_set_of_records_is_searched():
    """`route_longue` gives a value to a quantity of a set of parts of tiles: the set is one Boolean per part
    the window can hold, and the rule is found to apply (it was undecided)."""
    from test_carcassonne import checked
    p = checked().program
    search = Search(checked().typed, players=2)
    rule = p.rules["route_longue"]
    head = rule.heads[0]
    enc = search.encoder()
    args, domain = search.params_args(enc, "valeur_route", p.quantities["valeur_route"].params)
    assert isinstance(args[0], list) and len(args[0]) == 25 * len(
        [d for d, k in search.engine.def_kind.items() if k == "Segment"])
    status, model, _ = search.solve(enc, *domain, enc.applies(rule, head, args))
    assert status == "sat"
    cases = {y[0] for g, y in args[0] if z3.is_true(model.eval(g, model_completion=True))}
    assert len(cases) >= 4
