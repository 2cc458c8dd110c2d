"""A ranking's fact skipped where the state is the same (checker/solver/unroll_rank.py's `_State.same`): the
counter the same at the two states — the same object, equal terms, or equal constants — and the watched zones'
members the same.  There "the invariant at the question before" IS "the invariant here": no question is asked and
no fact added.  On the one-purchase market (tests/test_reach_ranking.py) four of the eleven (question, point)
pairs are such: the ranking asks 36 questions and keeps 8 facts, where asking them all takes 56 and keeps 12
(measured on fd27c9e; not asserted, the lemma's unrolling may change).
Survivor of the lead's blind mutation sample 2611 (whole suite): unroll_rank.py:79 `a is b or … or …` → `and`
(never the same: every fact asked — the same answer, more questions; only the cost showed it, and no test read the
cost)."""

from __future__ import annotations

import z3

from checker.solver import unroll_rank
from checker.solver.unroll_rank import _State
from test_reach_ranking import ONE_A_TURN, _ranked


def _state(counter, members):
    return _State(True, members, {"n": counter}, 0, 0)


def test_the_same_counter_and_members_are_the_same_state():
    n, m = z3.Int("n"), z3.Bool("m")
    members = {("panier", 0): [m, False]}
    assert _state(n, members).same(_state(n, members), "n")                        # the same object
    assert _state(n + 1, members).same(_state(n + 1, dict(members)), "n")         # equal terms, two objects
    assert _state(2, members).same(_state(2, members), "n")                        # equal constants
    assert not _state(n, members).same(_state(n + 1, members), "n")
    assert not _state(2, members).same(_state(3, members), "n")
    assert not _state(n, members).same(_state(2, members), "n")                    # a term and a constant
    assert not _state(n, members).same(_state(n, {("panier", 0): [z3.Bool("autre"), False]}), "n")


def test_the_ranking_of_the_market_skips_the_pairs_whose_state_is_the_same(monkeypatch):
    answers = []
    same = _State.same

    def spy(self, other, v):
        answers.append(same(self, other, v))
        return answers[-1]
    monkeypatch.setattr(unroll_rank._State, "same", spy)
    bound, shown = _ranked(ONE_A_TURN)
    assert bound == 1, shown
    assert any(answers) and not all(answers), answers
