"""A question whose `connected(…)` through the symbolic state is too large for one encoding, asked again with
the search narrowed to the cells round the grid's centre (checker/solver/narrowed.py): the narrowed fixpoint
against the interpreter, on the states of seeded games and on small grid states; and Carcassonne's two
questions about `partie(e)` it decides."""

from __future__ import annotations

import functools

import pytest
import z3
from hypothesis import HealthCheck, given, settings, strategies as st

from checker.base.limits import MAX_NARROWED
from checker.conflicts.questions import Search
from checker.runtime.engine import Engine
from checker.solver.narrowed import RADII, narrowed
from checker.solver.scopes import Scopes
from checker.solver.searches import TooLarge
from checker.solver.witness import interpreter_rules, witness_files
from test_carcassonne import checked, engine, play_observed
from test_solver_searches import _cells, _lay, _pinned, _search, _states


@functools.cache
def _carcassonne() -> Search:
    return Search(checked().typed, players=2)


def _narrowed_encoder(search: Search, radius: int):
    enc = search.encoder()
    enc.narrowed, enc.limit = radius, MAX_NARROWED
    return enc


def _question(search: Search, rule: str):
    p = search.p

    def encode(enc):
        args, domain = search.params_args(enc, "placer", p.actions["placer"].params)
        return [*domain, enc.applies(p.rules[rule], p.rules[rule].heads[0], args)], args
    return encode


# ---------------------------------------------------------------- the narrowed fixpoint, differentially

@functools.cache
def _seeded_tables() -> tuple:
    """The tiles on the table (cell -> (tile, rotation)) and the walls, after the first tiles of seeded
    two-player games, when the last tile laid is the centre's or next to it: small tables, where a part of the
    centre's tile is sometimes joined to a neighbour's and sometimes not."""
    e = engine()
    grid = e.grids["Case"]
    near = {grid.center(), *(grid.step(grid.center(), d) for d in grid.directions)}
    out = []
    for seed in range(1, 4):
        taken = []

        def observe(decision, taken=taken):
            vars_ = e.st.vars
            if vars_["tuile_posée"] and vars_["dernière_case"] in near:
                laid = {c: (t, vars_["rotation_en"].get(c, 0)) for c, t in vars_["tuile_en"].items()
                        if t is not None}
                if not taken or taken[-1][0] != laid:
                    taken.append((laid, {b for b, v in vars_["muré"].items() if v}))
            if len(taken) == 4 or len(e.st.vars["tuile_en"]) > 8:
                raise _Enough
        with pytest.raises(_Enough):
            play_observed(2, seed, observe)
        out.extend(taken)
    return tuple(out)


class _Enough(Exception):
    """Enough tables taken from a game: it is stopped."""


def test_partie_narrowed_to_the_centre_is_the_interpreters_on_seeded_tables():
    """Each part of the centre's tile, on tables of seeded games pinned cell by cell: when the interpreter's
    `partie` stays on the centre cell, the narrowed encoding (the 1 by 1 window) reaches exactly its parts;
    when it joins a neighbour's, the state is one the narrowed encoding excludes (unsat)."""
    search = _carcassonne()
    E = search.engine
    grid = E.grids["Case"]
    centre = grid.center()
    inside = outside = 0
    for laid, walls in _seeded_tables():
        E.st.vars["tuile_en"].clear()
        E.st.vars["rotation_en"].clear()
        E.st.vars["muré"].clear()
        for cell, (tile, rotation) in laid.items():
            E.st.vars["tuile_en"][cell] = tile
            E.st.vars["rotation_en"][cell] = rotation
        for b in walls:
            E.st.vars["muré"][b] = True
        E.invalidate()
        for start in E.quantity("emplacements_en", (centre,)):
            expected = set(E.quantity("partie", (start,)))
            enc = _narrowed_encoder(search, 0)
            ty = enc.resolve(search.p.quantities["partie"].params[0].type)
            reached = enc.quantity("partie", (enc.from_runtime(start, ty),))
            s = z3.Solver()
            s.add(*enc.defined, *_pinned(enc, search))
            encoded = {enc.from_runtime(m, ty) for m in expected}
            if any(m[0] != centre for m in encoded):
                outside += 1
                assert s.check() == z3.unsat, start
                continue
            inside += 1
            assert s.check() == z3.sat, start
            assert encoded <= {y for _, y in reached}
            for guard, y in reached:
                s.push()
                s.add(guard != (y in encoded))
                assert s.check() == z3.unsat, (start, y)
                s.pop()
    assert inside >= 3 and outside >= 3, (inside, outside)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(state=_states(), radius=st.sampled_from(RADII))
def test_a_narrowed_search_is_the_interpreters_or_excluded(state, radius):
    """On small grid states pinned cell by cell: a search that stays within ``radius`` of the centre is reached
    in the narrowed encoding exactly as the interpreter reaches it; one that starts or steps further is in a
    state the narrowed encoding excludes."""
    laid, start = state
    search = _search()
    _lay(search, laid)
    grid = search.engine.grids["Case"]
    expected = set(search.engine.quantity("réseau", (start,)))
    enc = _narrowed_encoder(search, radius)
    reached = enc.quantity("réseau", (start,))
    s = z3.Solver()
    s.add(*enc.defined, *_pinned(enc, search))
    near = {c for c in _cells(search)[0] if max(map(abs, grid.coordinates(c))) <= radius}
    if not expected <= near:
        assert s.check() == z3.unsat
        return
    assert s.check() == z3.sat
    for guard, y in reached:
        s.push()
        s.add(guard != (y in expected))
        assert s.check() == z3.unsat, (y, y in expected)
        s.pop()


# ---------------------------------------------------------------- Carcassonne's questions

@pytest.mark.parametrize("rule", ["partie_déjà_occupée", "partie_terminée_par_la_tuile"])
def test_the_partie_question_is_too_large_for_the_whole_window(rule):
    """Why they are narrowed: over the 5 by 5 window, `partie(e)` would range over millions of elements."""
    search = _carcassonne()
    with pytest.raises(TooLarge) as caught:
        _question(search, rule)(search.encoder())
    assert "at least 2,450 values" in caught.value.message


@pytest.mark.parametrize("rule", ["partie_déjà_occupée", "partie_terminée_par_la_tuile"])
def test_the_partie_rule_can_apply_found_on_the_centre_cell(rule):
    """Each rule applies in a state the narrowed search finds on the centre cell: the interpreter, on the
    witness loaded, finds the rule forbidding the move (it was undecided: the encoding was too large)."""
    search = _carcassonne()
    enc = _narrowed_encoder(search, 0)
    formulas, args = _question(search, rule)(enc)
    status, model, _ = search.solve(enc, *formulas, legal=True)
    assert status == "sat" and not search.legality
    state, move, _ = witness_files(search, enc, model, "placer", args)
    judge = Engine(search.typed)
    judge.recording = False
    forbids, _ = interpreter_rules(judge, Scopes(search.typed), state, move)
    assert rule in forbids
    assert move["args"][1]["case"] == [0, 0]


def test_a_narrowed_question_without_a_state_stays_undecided():
    """No state on the narrowed windows proves nothing of the whole window: the answer is never "cannot
    apply", and the reason says which windows were tried."""
    search = _carcassonne()
    encode = _question(search, "partie_déjà_occupée")

    def impossible(enc):
        formulas, args = encode(enc)
        return [*formulas, z3.BoolVal(False)], args
    found, why = narrowed(search, impossible, "partie_déjà_occupée", "placer")
    assert not found
    assert "1 by 1: none" in why and "3 by 3: too large as well" in why
