"""The bound a lemma's induction looks for is the least up to ``most`` INCLUDED (checker/solver/unroll_step.py
`stepped_bound`, checker/solver/unroll_rank.py `ranked_bound`: "the least B - lo (up to most)"): on the market by
turns of tests/fixtures/ranking/ (a permit of one purchase a turn), asked with ``most`` = 1, each proves 1, the
bound the permit gives; with ``most`` = 0, neither proves anything (a purchase is possible: 0 is false).  Survivor of
the targeted mutation sample h181 (seed 181) of the reach machinery: unroll_step.py:318 `lo + most + 1` →
`lo + most - 1` (the largest bounds never tried; the reach command asks up to 12, which no test reached)."""

from __future__ import annotations

import pytest

from test_reach_ranking import ONE_A_TURN, _lemma
from test_reach_step import _step


@pytest.mark.parametrize("most", [1, 0])
def test_one_question_proves_a_bound_equal_to_the_most_asked_and_none_below_the_true_one(most):
    from checker.solver.unroll_step import stepped_bound
    step, before, p = _step(ONE_A_TURN)
    answer = stepped_bound(step, before, p, most)
    if most == 1:
        assert isinstance(answer, tuple) and answer[0] == 1, answer
    else:
        assert isinstance(answer, str), answer          # no bound: 0 is false


@pytest.mark.parametrize("most", [1, 0])
def test_the_ranking_proves_a_bound_equal_to_the_most_asked_and_none_below_the_true_one(most):
    from checker.reach.summary import _arrivals
    from checker.solver.unroll_rank import ranked_bound
    lemma, before, p = _lemma(ONE_A_TURN)
    answer = ranked_bound(lemma, before, p, most, _arrivals(lemma, before, p))
    if most == 1:
        assert isinstance(answer, tuple) and answer[0] == 1, answer
    else:
        assert isinstance(answer, str), answer          # no bound: 0 is false
