"""Small pieces of the solver's bookkeeping that the bundled games never exercise at their edge.  Survivors of
the blind mutation sample -h (bench/results/mutation-2026-11-28-h.txt): unroll.py:120 (the decision count's
``ge[0]``), bounded.py:28 (the later copies of a card in one place), encode.py:400 (value rules, winners first),
shapes.py:158 (the values of an `if` term with one branch whose values are not known)."""

from __future__ import annotations

from types import SimpleNamespace

import z3

from checker.solver.bounded import later_copies
from checker.solver.encode import Encoder
from checker.solver.shapes import known, remember
from checker.solver.unroll import Tally


def test_a_decision_asked_after_one_not_asked_is_counted():
    # the first decision is not asked on this path, the second is: the path has asked one decision
    t = Tally.zero(3).plus(False).plus(True)
    assert t.at_least(0) is True
    assert t.at_least(1) is True
    assert t.at_least(2) is False
    assert t.known() == 1
    # and symbolically: after "a" then "b", at least one decision iff a or b
    a, b = z3.Bools("a b")
    s = Tally.zero(3).plus(a).plus(b)
    solver = z3.Solver()
    solver.add(s.at_least(1) != z3.Or(a, b))
    assert solver.check() == z3.unsat


def test_only_the_copies_after_the_first_in_a_place_are_later_copies():
    # instances 0 and 1 are two copies of definition 7, instance 2 is definition 8
    cells = {("in", "main", 0, 0): "c00", ("in", "main", 0, 1): "c01", ("in", "main", 0, 2): "c02",
             ("in", "main", 1, 1): "c11", ("var", "x"): "v"}
    enc = SimpleNamespace(cells=SimpleNamespace(made=cells))
    assert later_copies(enc, {0: 7, 1: 7, 2: 8}) == ["c01"]


def test_a_value_rule_that_overrides_another_comes_first():
    # "b" overrides "a" (the pair (winner, loser) in defeats): b is tried first, whatever the order given
    a, b, c = (SimpleNamespace(name=n) for n in "abc")
    enc = SimpleNamespace(defeats={("b", "a")})
    heads = [(a, "ha"), (c, "hc"), (b, "hb")]
    assert [r.name for r, _ in Encoder.ordered(enc, heads)] == ["c", "b", "a"]


def test_the_values_of_an_if_are_known_only_when_both_branches_values_are():
    enc = SimpleNamespace(domains={}, _alive=[])
    r, x, b = z3.Int("r"), z3.Int("x"), z3.Bool("b")
    remember(enc, r, (0, 1))
    assert known(enc, z3.If(b, r, 3)) == (0, 1, 3)
    assert known(enc, z3.If(b, r, x)) is None
    assert known(enc, z3.If(b, x, r)) is None
    assert known(enc, z3.If(b, x, x + 1)) is None
