"""The lemma unrolling's counters at an offer's question (checker/solver/unroll_summary.py,
`LemmaUnrolled.asks_again`): a kept Int var whose value is a term built on the way is put under a name of its own and
written back; one that still holds a constant or the symbolic value it started as is left alone — nothing is
written for it.  On the market's `tour` (tests/test_reach_summary.py's lemma): `achats_du_tour` grows, `réserve` is
not written by the turn.  Survivor of the blind solver sample h171 (seed 7171): unroll_summary.py:457 `and` → `or`
(every counter written back, `réserve` with the value it already had: the same answers — the cell holds what it
held — and one more write in the store, which the lemma's marks compare; its 12 covering tests and their files
passed).  And the ranking facts of its questions (below), for unroll_summary.py:509."""

from __future__ import annotations


import z3

from test_reach_summary import _market, market_lemma


def _lemma(tmp_path):
    lemma = market_lemma(_market(tmp_path, second=False))[0]
    assert len([c for c in lemma.choices if c.kind == "offer"]) == 2 and not lemma.cuts
    return lemma


def test_a_counter_the_turn_does_not_change_is_not_written_at_the_offers_question(tmp_path):
    lemma = _lemma(tmp_path)
    [step] = lemma._steps
    counters = step[4]
    assert z3.is_const(counters["achats_du_tour"]) and str(counters["achats_du_tour"]).startswith("achats_du_tour!")
    assert str(counters["réserve"]) == "réserve"
    written = sorted(k[1] for k in lemma.store.writes if k[0] == "var")
    assert "réserve" not in written and "achats_du_tour" in written, written


def test_only_a_counter_that_changes_is_ranked(tmp_path, monkeypatch):
    """With the unrolling's own question and the fresh solver's both cut to one step (unknown, as on the 4th
    edition's turns), the lemma proves its ranking facts (`rank`): `achats_du_tour` grows at each question that
    follows one, and nothing is said of `réserve`, which the turn leaves as it was (the same term at both
    questions: a fact "it grows" would be false wherever the question is reached).  Survivor of the blind solver
    sample h171 (seed 7171): unroll_summary.py:509 `not removed` (a counter whose term is the same at both questions
    is ranked: « réserve grows … » claimed, and 7 more questions asked: 30, not 23); its 1 covering test and its
    file passed."""
    import checker.solver.unroll as unroll
    import checker.solver.unroll_summary as summary
    monkeypatch.setattr(unroll, "FEASIBLE_RLIMIT", 1)
    monkeypatch.setattr(summary, "OFFER_RLIMIT", 1)
    lemma = _lemma(tmp_path)
    assert lemma.ranked and all(fact.startswith("achats_du_tour grows at each question") for fact in lemma.ranked), \
        lemma.ranked
