"""A lemma's question "does the offer ask again?" split by the option taken at the question before it
(`LemmaUnrolled.by_option` in checker/solver/unroll_summary.py): where the question ends unknown as a whole, one case
per option, proven only when the cases are shown to be the whole question and every case is unsat."""

from __future__ import annotations

import dataclasses

import z3

import checker.solver.unroll as unroll
import checker.solver.unroll_summary as unroll_summary
from test_reach_summary import GRAB, _haggling, _market, market_lemma


def _lemma(tmp_path, spec=None):
    """The lemma of `tour` on the market by turns (one purchase a turn; or ``spec``), unrolled."""
    return market_lemma(spec or _market(tmp_path, second=False))[0]


def test_an_offer_question_unknown_as_a_whole_is_proven_option_by_option(tmp_path, monkeypatch):
    """Both questions "does a path ask again?" — the unrolling's and the fresh solver's — cut to one step (unknown,
    as the 4th edition's Architecte's fifth question ends at 100 million steps): the question is asked once per
    option of the question before it, and the third question is proven unreachable (after a purchase only "Passer"
    is legal); the second is asked (a purchase lets the offer ask again: that case is satisfiable).  The version
    before this one followed the offer to its 12th question and cut the 13th (undecided)."""
    monkeypatch.setattr(unroll, "FEASIBLE_RLIMIT", 1)
    monkeypatch.setattr(unroll_summary, "OFFER_RLIMIT", 1)
    lemma = _lemma(tmp_path)
    offers = [c for c in lemma.choices if c.kind == "offer"]
    assert len(offers) == 2 and not lemma.cuts, (len(offers), lemma.cuts)


def test_cases_that_are_not_the_whole_question_prove_nothing(tmp_path):
    """The second question of the market's offer is asked only after a purchase.  Split over the first question's
    "Passer" alone, its one case is unsat — but "Passer" is not every option: the check that the cases cover the
    question (no path asks it with none of them taken) fails, and nothing is proven.  Over every option, the
    purchases' cases are satisfiable: nothing is proven either."""
    lemma = _lemma(tmp_path)
    first, second = [c for c in lemma.choices if c.kind == "offer"][:2]
    passer = [i for i, (_, o) in enumerate(first.options) if o[0] == "finish"]
    assert passer
    only = dataclasses.replace(first, options=[o if i in passer else (False, o[1])
                                               for i, o in enumerate(first.options)])
    assert lemma.by_option(second.reached, only) is False
    assert lemma.by_option(second.reached, first) is False
    assert lemma.by_option(z3.And(second.reached, z3.BoolVal(False)), first) is True


def test_a_counter_that_grows_at_every_step_of_the_offer_is_a_fact_of_the_lemma(tmp_path, monkeypatch):
    """With both questions "does the offer ask again?" cut to one step (unknown), the lemma proves, option
    by option, that a path that asks the offer again has one more purchase counted than at the question before
    (`achats_du_tour`: a purchase counts itself; "Passer" ends the offer) and adds that fact to its constraints (the
    4th edition's Architecte's turn needs it at every question: `quartiers_bâtis`)."""
    monkeypatch.setattr(unroll, "FEASIBLE_RLIMIT", 1)
    monkeypatch.setattr(unroll_summary, "OFFER_RLIMIT", 1)
    lemma = _lemma(tmp_path)
    assert any(r.startswith("achats_du_tour grows") for r in lemma.ranked), lemma.ranked


def test_a_counter_that_a_move_leaves_as_it_was_is_no_fact(tmp_path, monkeypatch):
    """`marchander` puts a lot in the basket and then aborts: the offer asks again with `achats_du_tour` as it was.
    The fact "it grew" is false there, a case is satisfiable, and it is not added (adding it would cut that path:
    a second lot in the basket in one turn, which the plain search reaches)."""
    monkeypatch.setattr(unroll, "FEASIBLE_RLIMIT", 1)
    monkeypatch.setattr(unroll_summary, "OFFER_RLIMIT", 1)
    lemma = _lemma(tmp_path, _haggling(tmp_path, GRAB, "marchander(p, l) for l in étal"))
    assert not any(r.startswith("achats_du_tour") for r in lemma.ranked), lemma.ranked
