"""Decision points of the kinds random tests rarely judge (checker/solver/points.py, legal.py): a reaction (a
power answering a window) and a subset's stop.  At the first of each that a seeded game of the bundled spec
reaches: the reaction's local names are kept (the state file writes them), `legal` says yes and no to it are
legal and anything else is not offered, and stopping a subset before its least size is illegal with the
reason.  Survivors of the blind mutation sample -e: points.py:40 (a reaction's names dropped) and legal.py:381,
:383 (a reaction or a stop judged), which no test of the solver set ran; and the interpreter's own options at the
reaction, sample -j's legal.py:587."""

from __future__ import annotations

import functools

from checker.front.configurations import select
from checker.runtime import Engine, RandomAgent
from checker.solver.legal import Legality, interpreter_options, point_of
from checker.solver.scopes import Scopes
from checker.solver.statefile import dump_state, load_state
from conftest import bundled


class _Found(Exception):
    pass


@functools.cache
def first_points() -> dict:
    """kind -> (decision's player, its local names, the state file written there), for a reaction and a subset."""
    program, typed = bundled().program, bundled().typed
    scopes = Scopes(typed)
    e = Engine(typed)
    e.recording = False
    selection = select(program, program.configurations["Bluff"], 4)
    found: dict = {}

    def observe(decision):
        point = point_of(decision, scopes)
        if point.kind in ("react", "subset") and point.kind not in found:
            found[point.kind] = (decision, dict(decision.env or {}), dump_state(e, decision, scopes,
                                                                                ["spec/citadelles"]))
            if len(found) == 2:
                raise _Found()
    e.observer = observe
    try:
        e.play(selection.cards, 4, 3, [RandomAgent(300 + k) for k in range(4)])
    except _Found:
        pass
    return found


def _loaded(state: dict):
    typed = bundled().typed
    other = Engine(typed)
    other.recording = False
    scopes = Scopes(typed)
    return load_state(other, state, scopes), Legality(other, scopes)


def test_a_reaction_keeps_its_powers_names_in_the_state_file_and_when_read_back():
    decision, env, state = first_points()["react"]
    names = state["decision"]["names"]
    assert set(names) == {"me", "this", *decision.site.names} and len(names) >= 3, names
    assert names["me"] == f"Joueur {decision.player + 1}" and names["this"] == state["decision"]["card"]
    point = point_of(decision, Scopes(bundled().typed))       # the point as `apply` and the examples take it
    assert point.env == {k: env[k] for k in names} and point.card == env["this"]
    loaded, _ = _loaded(state)
    assert loaded.point.kind == "react"
    assert loaded.point.env == {k: env[k] for k in names}
    assert loaded.point.card == env["this"]


def test_yes_and_no_to_a_reaction_are_legal_and_nothing_else_is_offered():
    _decision, _env, state = first_points()["react"]
    loaded, legality = _loaded(state)
    assert legality.moves(loaded.point) == [("react", True), ("react", False)]
    for yes in (True, False):
        assert legality.check(loaded.point, ("react", yes)).status == "legal"
    verdict = legality.check(loaded.point, ("react", "peut-être"))
    assert verdict.status == "illegal" and [r.text for r in verdict.reasons] == [
        "no option of this kind is offered here (react)"], verdict.reasons


def test_the_interpreter_offers_yes_and_no_to_a_reaction_as_z3_does():
    """At the reaction, the interpreter's own options (legal.py's `interpreter_options`, the oracle the
    interpreter-vs-Z3 tests compare with) are yes and no, each once, as Z3's moves are.  Survivor of the blind
    mutation sample -j: legal.py:587 True → False (the interpreter's options "no" twice), which no test of the
    solver set ran (the random games they compare at never stop at a reaction)."""
    _decision, _env, state = first_points()["react"]
    loaded, legality = _loaded(state)
    assert interpreter_options(legality.E, loaded.point) == legality.moves(loaded.point) == [
        ("react", True), ("react", False)]


def test_stopping_a_subset_before_its_least_size_is_illegal_and_says_how_many():
    """The first subset of the seeded game: a player keeps 1 of the 2 cards drawn (`gardées`, n = 1), none kept
    yet: stopping is not a move, and `legal` says why, with the count."""
    _decision, _env, state = first_points()["subset"]
    assert state["decision"]["names"]["n"] == 1 and state["decision"]["names"]["gardées"] == []
    loaded, legality = _loaded(state)
    assert [m[0] for m in legality.moves(loaded.point)] == ["choose", "choose"]
    verdict = legality.check(loaded.point, ("nothing",))
    assert verdict.status == "illegal"
    assert [(r.kind, r.text, r.ok) for r in verdict.reasons] == [
        ("optional", "at least 1 element(s) must be chosen", "0 element(s) are chosen, at least 1 must be")]
