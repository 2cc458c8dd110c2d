"""The effect-failure questions of a move asked first on one relaxed solver (checker.conflicts.relaxed): its
*no* is the full question's, its *yes* or *cannot tell* sends the question on.  The fan's real failures are
still found and replayed with it (tests/test_fan_breakages.py); here, what it answers alone."""

from __future__ import annotations

import types

import z3

from checker.conflicts.relaxed import Relaxed
from checker.solver.factory import SolverSettings
from conftest import bundled


def _relaxed(shared, constraints):
    search = types.SimpleNamespace(settings=SolverSettings(), queries=0)
    return search, Relaxed(search, shared, constraints)


def test_a_question_is_refuted_only_with_the_formulas_the_full_question_has():
    x, y = z3.Ints("x y")
    search, relaxed = _relaxed([x >= 0], [y == x + 1, y < 0])
    assert relaxed.refuted(x < 0, upto=0)            # the shared formulas alone
    assert not relaxed.refuted(y < 1, upto=0)        # y is free before its constraint
    assert relaxed.refuted(y < 1, upto=1)
    assert not relaxed.refuted(y > 5, upto=1)        # a model: the full question is asked
    assert relaxed.refuted(True, upto=2)             # the two constraints together have no model
    # the solver now holds both constraints: a question that needs only the first is not asked here (its
    # unsat would not be the full question's, which has one formula fewer)
    assert not relaxed.refuted(x > 100, upto=1)
    assert search.queries == 5
    assert relaxed.refuted(False) and not _relaxed([], [])[1].refuted(x > 0)


def test_every_way_of_building_of_the_4th_edition_is_decided():
    """Each way of building pays, runs the reactions to `quartier_payé` (the Échevin's confiscation builds the
    district and opens `quartier_bâti`) and checks every city: followed 60 statements and one window deep, each
    stopped at `if not quartier_confisqué`, undecided; the Tripot's "negative amount" question ran out of steps
    on the full question.  Followed 200 statements and two windows deep, with the relaxed solver first, each
    move is decided: no failure, nothing undecided."""
    from checker.conflicts.questions import Search
    search = Search(bundled().typed, None)
    moves = {"bâtir", "bâtir_le_tripot", "bâtir_avec_l_aide_de", '"Échevin".confiscation'}
    assert search.effect_failures(moves) == []
    assert search.unknowns == 0
