"""The ranking's induction skips a case only where the state is the same (checker/solver/unroll_rank.py
`_State.same`): the same counter AND the same members of the watched zones, each member compared as a term or as a
constant.  Here a lot comes into p's basket without being counted, at a step where the counter `achats_du_tour` does
not change: the arrivals are then NOT at most the counter's growth, and the ranking must say so — a case skipped
there would call a false invariant proven.  Three ways, each a member that differs while the counter does not:

- `theft`: after the purchase offer, a second offer whose `voler` takes a lot of the stall (a term, then another);
- `steal_known`: the cheapest lot first put back on the stall, a question that changes nothing, then the theft offer
  (the lot's place in the basket the constant false, then a term; the counter the constant 0 at both);
- `given_sometimes`: the cheapest lot put back, a question, the lot given to p where p holds 2 coins, a question
  (the constant false, then a term; the other lots' places the same terms).
And one where a lot only LEAVES (`left_known`): the step is asked too, and proven.

Survivor of the targeted reach sample (h181, #27): unroll_rank.py:83 `(m is n)` → `(m is not n)` (any two member
terms taken for the same: the arrivals case skipped, "the arrivals are proven", the bound then refused later), and
the same line's first `and` → `or` (any term taken for the same as any other), and its `not is_const(m)` →
`is_const(m)`, `not is_const(n)` → `is_const(n)`, second `and` → `or` (a term compared with a constant through `.eq`
of a Python bool: an internal error).
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
GIVEN = "  if bourse[p] >= 2 { for l in selected(Lot) { if l.prix == 1 { move l to panier[p] } } }\n"
TOURS = {"theft": PURCHASE + THEFT, "steal_known": BACK + WAIT + THEFT, "given_sometimes": BACK + WAIT + GIVEN + WAIT,
         "left_known": WAIT + BACK + WAIT}
UNCOUNTED = ["given_sometimes", "steal_known", "theft"]
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


def _differing(spec):
    """The ranking of `achats_du_tour`, and each (question, later state) with the same counter and another basket."""
    from checker.solver.unroll_rank import _Ranking
    lemma, before, p = _lemma(spec)
    r = _Ranking(lemma, before, p, "achats_du_tour")
    pairs = [(k, t) for t in r.marks + r.points for k in r.marks[:t.marks]
             if _same(k.counters["achats_du_tour"], t.counters["achats_du_tour"])
             and any(not _same(m, n) for key in k.members for m, n in zip(k.members[key], t.members[key]))]
    assert pairs, "the fixture no longer has a step that moves a lot without changing the counter"
    return r, pairs


@pytest.mark.parametrize("way", UNCOUNTED)
def test_a_lot_that_arrives_uncounted_where_the_counter_stays_leaves_the_arrivals_unproven(tmp_path, way):
    spec = _spec(tmp_path, way)
    answer = _ranked(spec)
    assert isinstance(answer, str) and "the arrivals are not proven at most the growth of achats_du_tour" in answer, \
        answer
    r, pairs = _differing(spec)         # the induction must ask each of them
    assert not any(k.same(t, "achats_du_tour") for k, t in pairs)
    assert not r.proven(r.inv_arrivals)


def test_a_lot_that_leaves_where_the_counter_stays_is_asked_and_the_bound_proven(tmp_path):
    """`left_known`: a question, the cheapest lot put back on the stall (its place in each basket a term, then the
    constant false), another question: no lot arrives, nothing is counted — the bound 0 is proven, the step where the
    basket lost a lot asked like any other (`same` compares a term with a constant and says no)."""
    spec = _spec(tmp_path, "left_known")
    bound, shown = _ranked(spec)
    assert bound == 0 and "achats_du_tour stays at most 0" in shown, shown
    r, pairs = _differing(spec)
    assert not any(k.same(t, "achats_du_tour") for k, t in pairs)
