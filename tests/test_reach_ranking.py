"""A lemma's bound proven by a *ranking* (checker/solver/unroll_rank.py): the cards that arrive in the owner's
watched zone are at most the growth of a counter a `forbid` reads, step by step, and the counter at most a bound,
step by step — asked where the lemma's bound question ends unknown (on the 4th edition, the Architecte's three
districts a turn and the Condottiere's one).  On the market by turns of tests/fixtures/ranking/ (a counter of
purchases, a permit of one a turn, a basket that grows), held to what the game allows: the permit's bound is
proven, and a bound the permit does not check, or a lot that arrives without being counted, is never proven."""

from __future__ import annotations

import json
import sys

import pytest

from checker.cli import main
from conftest import ROOT
from test_reach_summary import KEEP, _market, market_lemma

FIXTURES = ROOT / "tests" / "fixtures" / "ranking"
ONE_A_TURN = FIXTURES / "marché_par_tour.rules"
MISREAD = FIXTURES / "marché_permis_mal_lu.rules"
TWO_LOTS = "tours_joués == 0 and count(l in panier[Joueur 1]) >= 2"


def _lemma(spec):
    """The lemma of `tour` (from any state where `tours_joués == 0`, as the command finds), unrolled, and the
    baskets' members where it starts."""
    return market_lemma(spec, members_before=True)


def _ranked(spec):
    from checker.reach.summary import _arrivals
    from checker.solver.unroll_rank import ranked_bound
    lemma, before, p = _lemma(spec)
    return ranked_bound(lemma, before, p, 12, _arrivals(lemma, before, p))


def test_the_counter_is_the_kept_int_var_a_forbid_reads():
    """Read from the spec: `achats_du_tour` (the permit's `when`); with the permit also reading `tours_joués`, both
    are candidates (each is tried)."""
    from checker.solver.unroll_rank import counters
    assert counters(_lemma(ONE_A_TURN)[0]) == ["achats_du_tour"]
    assert counters(_lemma(MISREAD)[0]) == ["achats_du_tour", "tours_joués"]


def test_the_permit_bounds_the_lots_a_turn_puts_in_the_basket():
    """One purchase a turn: the arrivals are at most the growth of `achats_du_tour` (a purchase counts itself), which
    stays at most 1 (the permit): the bound is 1, and the facts are added to the lemma's constraints."""
    bound, shown = _ranked(ONE_A_TURN)
    assert bound == 1 and "achats_du_tour" in shown, shown


def test_a_counter_the_permit_does_not_check_proves_no_bound():
    """The permit read only from the second round on: in the first (`tours_joués == 0`, the lemma's precondition) a
    turn may buy two lots.  `achats_du_tour` grows with each lot but nothing bounds it at a step; `tours_joués` is
    bounded but does not grow with the lots: neither proves a bound (a version that trusted the permit's text, or
    took the lots' count for granted, would say 1)."""
    answer = _ranked(MISREAD)
    assert isinstance(answer, str), answer
    assert "not proven" in answer, answer


def test_a_lot_that_arrives_uncounted_proves_no_bound(tmp_path):
    """The market with a lot whose power takes a second lot from the stall, not counted in `achats_du_tour`: the
    arrivals are not at most the counter's growth at that step, and nothing is proven (the plain search reaches
    two lots in one turn there: tests/test_reach_summary.py)."""
    answer = _ranked(_market(tmp_path, second=True))
    assert isinstance(answer, str) and "arrivals are not proven" in answer, answer


def _reach(capsys, spec, *args):
    code = main(["reach", str(spec), *args, "-n", "2", "-s", "1", "--json"])
    return code, json.loads(capsys.readouterr().out)


def _unknown_for_p(monkeypatch):
    """Every bound question of the owner's zones ends unknown (as the Architecte's and the Condottiere's do)."""
    import checker.reach.summary as summary
    from checker.solver.factory import Outcome
    real = summary.run

    def run(solver, *assumptions):
        if sys._getframe(1).f_locals.get("mine") is True:
            return Outcome("unknown", reason="max. resource limit exceeded (made so by the test)")
        return real(solver, *assumptions)
    monkeypatch.setattr(summary, "run", run)


def test_where_the_bound_question_is_unknown_the_ranking_proves_it(capsys, monkeypatch):
    """With every question "more than b lots arrived in p's basket" unknown, the lemma was undecided; the ranking
    proves 1, and the first round is proved ("two lots in a basket in round 1": never, as the plain search says).
    The step from a symbolic state, tried first (tests/test_reach_step.py), is made to prove nothing here."""
    import checker.reach.summary as summary
    _unknown_for_p(monkeypatch)
    monkeypatch.setattr(summary, "stepped_bound", lambda *a: "no step (made so by the test)")
    code, s = _reach(capsys, ONE_A_TURN, TWO_LOTS, "--rounds", "1", "--summarise", "tour", *KEEP)
    assert (code, s["status"]) == (1, "proved"), s
    assert "at most 1 for p" in s["lemmas"][0] and "ranking" in s["lemmas"][0], s["lemmas"]


@pytest.mark.parametrize("spec", [MISREAD, "second"])
def test_where_the_ranking_proves_nothing_the_round_is_not_proved(tmp_path, capsys, monkeypatch, spec):
    """The same, on the two markets where a turn may put two lots in a basket: undecided, never proved."""
    _unknown_for_p(monkeypatch)
    spec = _market(tmp_path, second=True) if spec == "second" else spec
    code, s = _reach(capsys, spec, TWO_LOTS, "--rounds", "1", "--summarise", "tour", *KEEP)
    assert (code, s["status"]) == (4, "undecided"), s
