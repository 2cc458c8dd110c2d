"""The ranking's induction skips a case only where the state is the same (checker/solver/unroll_rank.py
`_State.same`): the same counter AND the same members of the watched zones, each member compared as a term or as a
constant.  Here a lot comes into p's basket without being counted, at a step where the counter `achats_du_tour` does
not change: the arrivals are then NOT at most the counter's growth, and the ranking must say so — a case skipped
there would call a false invariant proven.  Two ways, each a member that differs while the counter does not:

- `theft`: after the purchase offer, a second offer whose `voler` takes a lot of the stall (a term, then another);
- `steal_known`: the cheapest lot first put back on the stall, a question that changes nothing, then the theft offer
  (the lot's place in the basket the constant false, then a term; the counter the constant 0 at both).

Survivor of the targeted reach sample (h181, #27): unroll_rank.py:83 `(m is n)` → `(m is not n)` (any two member
terms taken for the same: the arrivals case skipped, "the arrivals are proven", the bound then refused later), and
the same line's first `and` → `or` (any term taken for the same as any other).
The bound itself is safe either way: every fact added is proven on its own and the bound is asked of the lemma with
all of them (`_closes`); what these mutants break is the induction's claim (`_Ranking.proven`)."""

from __future__ import annotations

import pytest

from test_reach_ranking import ONE_A_TURN, _lemma, _ranked

START = "  set achats_du_tour = 0\n"
PURCHASE = '  offer p {\n    acheter(p, l) for l in étal\n    powers of panier[p]\n    finish "Passer"\n  }\n'
BACK = "  for l in selected(Lot) { if l.prix == 1 { move l to étal } }\n"
WAIT = '  offer p {\n    finish "Attendre"\n    finish "Continuer"\n  }\n'
THEFT = '  offer p {\n    voler(p, l) for l in étal\n    finish "Finir"\n  }\n'
VOLER = '\naction voler(p: Player, l: Lot) "Voler un lot de l\'étal." { move l to panier[p] }\n'
TOURS = {"theft": PURCHASE + THEFT, "steal_known": BACK + WAIT + THEFT}
HEAD = "procedure tour(p: Player) {\n"


def _spec(tmp_path, way):
    text = ONE_A_TURN.read_text(encoding="utf-8")
    before, after = text.split(HEAD)
    assert after.startswith(START + PURCHASE + "}\n"), after[:200]
    spec = tmp_path / f"marché_{way}.rules"
    spec.write_text(before + HEAD + START + TOURS[way] + after[len(START + PURCHASE):] + VOLER, encoding="utf-8")
    return spec


def _same(a, b) -> bool:
    """The same constant, or the same term."""
    if isinstance(a, (bool, int)) or isinstance(b, (bool, int)):
        return type(a) is type(b) and a == b
    return a.eq(b)


@pytest.mark.parametrize("way", sorted(TOURS))
def test_a_lot_that_arrives_uncounted_where_the_counter_stays_leaves_the_arrivals_unproven(tmp_path, way):
    spec = _spec(tmp_path, way)
    answer = _ranked(spec)
    assert isinstance(answer, str) and "the arrivals are not proven at most the growth of achats_du_tour" in answer, \
        answer
    from checker.solver.unroll_rank import _Ranking
    lemma, before, p = _lemma(spec)
    r = _Ranking(lemma, before, p, "achats_du_tour")
    # a question and a later state where the counter is the same and the basket is not: the induction must ask it
    pairs = [(k, t) for t in r.marks + r.points for k in r.marks[:t.marks]
             if _same(k.counters["achats_du_tour"], t.counters["achats_du_tour"])
             and any(not _same(m, n) for key in k.members for m, n in zip(k.members[key], t.members[key]))]
    assert pairs, "the fixture no longer has a step that moves a lot without changing the counter"
    assert not any(k.same(t, "achats_du_tour") for k, t in pairs)
    assert not r.proven(r.inv_arrivals)
