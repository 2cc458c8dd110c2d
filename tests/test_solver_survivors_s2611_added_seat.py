"""The cards that may have arrived in a watched zone (checker/solver/unroll_summary.py `LemmaUnrolled.added`), read
for one seat of the lemma's owner: a member that can be true only where the owner is another seat (a card moved to
the owner's zone, read in this seat's) adds nothing there, whatever it was before — also where it was surely out
(`before` false: a card not in the zone at the start).  Survivor of the lead's blind mutation sample 2611 (whole
suite): unroll_summary.py:465 `not is_const(m) and fixed is not None and _false_where(…)` → `is_const(m) and …`
(the shape read only for constants: such a member kept as an arrival where its card was out at the start — asked
with the owner at that seat it is false, so the answers stayed; the Bools were more)."""

from __future__ import annotations

import z3

from test_reach_summary import _market, market_lemma


def test_a_member_true_only_at_another_seat_adds_nothing_at_this_one(tmp_path):
    lemma, _, owner = market_lemma(_market(tmp_path, second=False))
    other = z3.Bool("ailleurs")
    before = {("panier", 0): [False, False, other]}
    now = {("panier", 0): [owner == 1, z3.And(owner == 1, other), other]}
    assert lemma.added(before, now, owner, 0) == {("panier", 0): []}
    at_one = lemma.added(before, now, owner, 1)[("panier", 0)]
    assert len(at_one) == 2 and all(z3.is_expr(x) for x in at_one), at_one     # at seat 1 both may arrive
    assert lemma.added(before, now)[("panier", 0)] != [], "no seat given: nothing read by the owner's seat"
