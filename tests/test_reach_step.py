"""A lemma's bound proven by one question of the offer from a symbolic state (checker/solver/unroll_step.py): the
offer's loop body encoded once, every kept cell it may write an unknown at the question, and the two steps of the
induction — the owner's arrivals at most the growth of a counter a `forbid` reads, the counter at most a bound —
proven once for every question.  On the market by turns of tests/fixtures/ranking/ (a permit of one purchase a
turn), and the two markets where a turn may put two lots in a basket: there nothing is proven, never a bound."""

from __future__ import annotations

from pathlib import Path

import pytest
import z3

from test_reach_ranking import MISREAD, ONE_A_TURN, TWO_LOTS, _reach, _unknown_for_p
from test_reach_summary import KEEP, _market, market_lemma


def _step(spec):
    """The procedure `tour` of a market spec unrolled by StepUnrolled from the lemma's start (`tours_joués == 0`, as
    the command finds), 2 players: (the unrolling, the baskets' members at the start, the owner)."""
    from checker.solver.unroll_step import StepUnrolled
    return market_lemma(spec, members_before=True, cls=StepUnrolled)


def _bound(spec):
    from checker.solver.unroll_step import stepped_bound
    step, before, p = _step(spec)
    return stepped_bound(step, before, p, 12)


def test_the_question_state_is_symbolic_and_the_offer_is_encoded_once():
    """At the offer's question every kept cell its body writes is an unknown (the counter, the baskets' members),
    one that it does not write keeps its value (`tours_joués`, 0): the step is the same at every question.  The
    offer is unrolled once: its next question is a point of the step, not encoded further."""
    from checker.solver.formulas import is_const
    step, _, _ = _step(ONE_A_TURN)
    here, _, entry, members, counters = step.question
    assert entry["achats_du_tour"] is not None and not is_const(counters["achats_du_tour"])
    assert counters["tours_joués"] == 0
    assert all(not is_const(m) for m in members[("panier", 0)])
    assert step.next is not None and len(step.marks) == 1


def test_one_question_proves_one_lot_a_turn():
    """One purchase a turn: from any question state, a question adds at most the growth of `achats_du_tour` to the
    owner's basket, and keeps it at most 1 where it was: the bound is 1."""
    bound, shown = _bound(ONE_A_TURN)
    assert bound == 1 and "achats_du_tour" in shown and "every question" in shown, shown


@pytest.mark.parametrize("spec, why", [(MISREAD, "not proven at most 12"), ("second", "at most the growth")])
def test_a_false_bound_is_never_proven(tmp_path, spec, why):
    """The permit read only from the second round on (a turn of the first may buy two lots: `achats_du_tour` grows
    without a bound), and a lot whose power takes a second lot uncounted: no bound, a reason."""
    spec = _market(tmp_path, second=True) if spec == "second" else spec
    answer = _bound(spec)
    assert isinstance(answer, str) and why in answer, answer


def test_a_place_the_step_does_not_follow_proves_nothing():
    """A path cut inside the step (not followed: the points after it are not asked) makes the step refuse."""
    from checker.solver.unroll_step import stepped_bound
    step, before, p = _step(ONE_A_TURN)
    step.cuts.append((z3.Bool("coupé"), None, "a place not followed"))
    answer = stepped_bound(step, before, p, 12)
    assert isinstance(answer, str) and "does not follow" in answer, answer


def test_where_the_bound_question_is_unknown_one_question_proves_it(capsys, monkeypatch):
    """With every question "more than b lots arrived in p's basket" unknown, the step proves 1 (the lemma says so)
    and the first round is proved."""
    _unknown_for_p(monkeypatch)
    code, s = _reach(capsys, ONE_A_TURN, TWO_LOTS, "--rounds", "1", "--summarise", "tour", *KEEP)
    assert (code, s["status"]) == (1, "proved"), s
    assert "at most 1 for p" in s["lemmas"][0] and "proven once for every question" in s["lemmas"][0], s["lemmas"]


def _gift(tmp_path) -> str:
    """The market with a lot whose power puts a lot of the stall in the basket of a player of one's choice."""
    spec = Path(_market(tmp_path, second=True))
    text = spec.read_text(encoding="utf-8").replace(
        "    choose l in étal by me\n    move l to panier[me]",
        "    choose l in étal by me\n    choose q in players by me\n    move l to panier[q]")
    assert "move l to panier[q]" in text
    spec.write_text(text, encoding="utf-8")
    return str(spec)


def test_the_bound_for_another_player_is_proven_only_where_nothing_reaches_his_zone(tmp_path):
    """The bound 0 for another player, by the same step: proven on the market (a purchase goes to the buyer's
    basket), refused where a power may put a lot in another player's basket."""
    from checker.solver.unroll_step import stepped_others
    step, before, p = _step(ONE_A_TURN)
    proven = stepped_others(step, before, p)
    assert not isinstance(proven, str) and proven[0] == 0, proven
    step, before, p = _step(_gift(tmp_path))
    answer = stepped_others(step, before, p)
    assert isinstance(answer, str) and "another player" in answer, answer


def test_a_fact_is_asked_whole_with_few_steps_then_by_cases_then_whole_again(monkeypatch):
    """A step's fact is asked whole with FIRST_RLIMIT steps, then (unknown) by the option taken at S, then (a case
    unknown) whole again with STEP_RLIMIT steps: on the 4th edition "grows" ended unknown at 100 million steps
    (54 s) where its cases were unsat in 4 s.  Here the first question is made unknown (1 step): the bound of one
    lot a turn is proven by the cases (14 questions, as when the whole question was made unknown); with the cases
    made unknown too, by the whole question again (3 facts, each: whole, one case, whole).  A version that asked the
    whole question with STEP_RLIMIT first proves it in 3 questions."""
    import checker.solver.unroll_step as unroll_step
    monkeypatch.setattr(unroll_step, "FIRST_RLIMIT", 1, raising=False)
    bound, shown = _bound(ONE_A_TURN)
    assert bound == 1 and shown.endswith("(14 questions)"), shown
    monkeypatch.setattr(unroll_step, "CASE_RLIMIT", 1)
    bound, shown = _bound(ONE_A_TURN)
    assert bound == 1 and shown.endswith("(9 questions)"), shown
