"""A step's question that Z3 leaves unknown (checker/solver/unroll_step.py's `_Facts._unsat`): asked again once
per option of the offer's choice at the question, and once for "none of them" — each case its own resource
limit — and the bound is proven when every case is unsat.  Here the whole question is made unknown (its limit
set to 1 step): the market's bound of one lot a turn (tests/fixtures/ranking/) is still proven, by the cases (14
questions instead of 3), and with the cases' limit at 1 step too it is not.  Survivor of the blind mutation
sample 9171 against the whole suite: unroll_step.py:204 `+` → `-` (the cases' list built with a `-` of lists: a
TypeError, an internal error), which no test executed — no step question of the suite is unknown to Z3."""

from __future__ import annotations

from test_reach_ranking import ONE_A_TURN
from test_reach_step import _bound


def test_a_step_question_z3_leaves_unknown_is_proven_case_by_case(monkeypatch):
    import checker.solver.unroll_step as unroll_step
    bound, shown = _bound(ONE_A_TURN)
    assert bound == 1 and shown.endswith("(3 questions)"), shown
    monkeypatch.setattr(unroll_step, "STEP_RLIMIT", 1)
    bound, shown = _bound(ONE_A_TURN)
    assert bound == 1 and shown.endswith("(14 questions)"), shown
    monkeypatch.setattr(unroll_step, "CASE_RLIMIT", 1)
    assert _bound(ONE_A_TURN) == "one question of the offer is not proven to add at most the growth of " \
                                 "achats_du_tour"
