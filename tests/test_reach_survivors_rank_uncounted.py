"""The ranking's induction skips a case only where the state is the same (checker/solver/unroll_rank.py
`_State.same`): the same counter AND the same members of the watched zones, each member compared as a term.  Here
`tour` has a second offer, after the purchase, whose `voler` puts a lot of the stall in p's basket without counting
it: from the first offer's last question to the second offer's, the counter `achats_du_tour` is the same term, the
basket is not.  The arrivals are then NOT at most the counter's growth (a purchase and a theft: two lots, one
counted), and the ranking must say so — a case skipped there would call a false invariant proven.
Survivor of the targeted reach sample (h181, #27): unroll_rank.py:83 `(m is n)` → `(m is not n)` (any two member
terms taken for the same: the arrivals case skipped, "the arrivals are proven", the bound then refused later).
The bound itself is safe either way: every fact added is proven on its own and the bound is asked of the lemma with
all of them (`_closes`); what the mutant breaks is the induction's claim (`_Ranking.proven`)."""

from __future__ import annotations

from test_reach_ranking import ONE_A_TURN, _lemma, _ranked

TURN_END = '    acheter(p, l) for l in étal\n    powers of panier[p]\n    finish "Passer"\n  }\n}'
THEFT = '\n  offer p {\n    voler(p, l) for l in étal\n    finish "Finir"\n  }\n}'
VOLER = '\naction voler(p: Player, l: Lot) "Voler un lot de l\'étal." { move l to panier[p] }\n'


def _spec(tmp_path):
    text = ONE_A_TURN.read_text(encoding="utf-8")
    assert TURN_END in text
    spec = tmp_path / "marché_volé.rules"
    spec.write_text(text.replace(TURN_END, TURN_END[:-2] + THEFT) + VOLER, encoding="utf-8")
    return spec


def test_a_lot_that_arrives_uncounted_in_a_later_offer_leaves_the_arrivals_unproven(tmp_path):
    spec = _spec(tmp_path)
    answer = _ranked(spec)
    assert isinstance(answer, str) and "the arrivals are not proven at most the growth of achats_du_tour" in answer, \
        answer
    from checker.solver.unroll_rank import _Ranking
    lemma, before, p = _lemma(spec)
    r = _Ranking(lemma, before, p, "achats_du_tour")
    # the states where the counter is the same term and the basket is not: the induction must ask them
    pairs = [(k, t) for t in r.marks + r.points for k in r.marks[:t.marks]
             if k.counters["achats_du_tour"] is t.counters["achats_du_tour"] and k.members != t.members]
    assert pairs, "the fixture no longer has a step that moves a lot without changing the counter"
    assert not any(k.same(t, "achats_du_tour") for k, t in pairs)
    assert not r.proven(r.inv_arrivals)
