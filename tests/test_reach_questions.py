"""A lemma's offer closed by one question from a symbolic state (checker/solver/unroll_step.py `stepped_questions`):
where a counter grows at each question that lets the offer ask again and stays at most B (both proven once for
every question), the offer asks at most B - c1 + 1 questions (c1: the counter at its first question), and the
lemma's unrolling stops there without asking Z3 whether the next question is asked (on the 4th edition, the
Architecte's fifth question: a fresh solver unknown at 100 million steps, then the ranking facts, about 180 s).  On
the market by turns of tests/fixtures/ranking/ (one purchase a turn), with every question of the unrolling made to
end unknown; and on the markets where a turn may buy two lots or take one uncounted: not closed."""

from __future__ import annotations

import pytest

from test_reach_ranking import MISREAD, ONE_A_TURN
from test_reach_summary import market_lemma


def _questions(spec):
    """(stepped_questions's answer, the offer's span) for `tour` of a market spec."""
    from checker.solver.unroll_step import StepUnrolled, stepped_questions
    step, _, _ = market_lemma(spec, members_before=True, cls=StepUnrolled)
    return stepped_questions(step, 12), step.target.span


def _blind(most, span):
    """A lemma's unrolling whose every question "does the offer ask again?" ends unknown (its solver has one step),
    and whose fresh solver, ranking and cases prove nothing: only the step may close the offer."""
    from checker.solver.factory import SolverSettings, make_solver
    from checker.solver.unroll_summary import LemmaUnrolled

    class Blind(LemmaUnrolled):
        def __init__(self, *a, **kw):
            super().__init__(*a, **kw)
            self._solver = make_solver(SolverSettings(incremental=True, rlimit=1, minimize_cores=False))
            self.most_questions = lambda previous: most if previous.span == span else None

        def _afresh(self, here):
            return None

        def rank(self):
            return False

        def by_option(self, *a, **kw):
            return False

    return Blind


def test_one_purchase_a_turn_closes_the_offer_after_two_questions():
    """`achats_du_tour` is 0 at the first question, grows at each question that asks again and stays at most 1:
    at most two questions (buy, then finish).  With Z3 answering nothing while unrolling, the lemma's offer is
    unrolled twice, and no path reaches a place it does not follow."""
    proven, span = _questions(ONE_A_TURN)
    assert not isinstance(proven, str) and proven[0] == 2, proven
    assert "achats_du_tour grows at each question" in proven[1], proven
    lemma, _, _ = market_lemma(ONE_A_TURN, cls=_blind(proven[0], span))
    assert sum(m.choice.span == span for m in lemma.marks) == 2
    assert lemma.stepped and not lemma.cuts, (lemma.stepped, lemma.cuts)


def test_without_the_step_the_blind_offer_is_unrolled_to_its_limit():
    """The same unrolling without a bound from the step: the offer is followed to the cut unrolling's limit, and a
    path reaches its next question (a place not followed) — what the step saves."""
    _, span = _questions(ONE_A_TURN)
    lemma, _, _ = market_lemma(ONE_A_TURN, cls=_blind(None, span))
    assert sum(m.choice.span == span for m in lemma.marks) > 2 and lemma.cuts


@pytest.mark.parametrize("spec, why", [(MISREAD, "not proven at most 12"), ("unlimited", "not proven to grow")])
def test_an_offer_that_may_ask_more_is_not_closed(tmp_path, spec, why):
    """The permit read only from the second round on (`achats_du_tour` unbounded), and a lot whose power, usable
    any number of times, takes a second lot and lets the offer ask again with the counter as it was: no bound on the
    questions, a reason (the power limited to once a turn: tests/test_reach_step_uses.py)."""
    if spec == "unlimited":
        from test_reach_step_uses import unlimited_market
        spec = unlimited_market(tmp_path)
    proven, _ = _questions(spec)
    assert isinstance(proven, str) and why in proven, proven
