"""The values a summarised call's var may take, read off the leaves of its if-then-else term
(checker/solver/unroll_summary.py `_leaves`): `_holding` asks Z3 first whether one of them is the only value on every
path (an unsat question), before the model it would otherwise ask for (a sat one, which often ends unknown: then the
var is no precondition of the lemma and the summary is weaker).  Written for the survivor unroll_summary.py:279
`In → NotIn` of the blind solver sample h169 (bench/results/mutation-2026-11-29-h169.txt): the mutant skips every
term, so no leaf is ever tried and each var costs the model's question; tests/test_reach_summary.py's answers are the
same either way on its games (the model found the same constants there), so the helper is pinned directly, as that
file pins `_under` and `entailed`."""

from __future__ import annotations

import z3

from checker.solver.unroll_summary import _leaves


def test_the_leaves_of_a_nested_if_are_its_constants_in_order_each_once():
    g, h = z3.Bools("g h")
    y = z3.Int("y")
    leaves = _leaves(z3.If(g, z3.IntVal(0), z3.If(h, z3.IntVal(1), y)))
    assert [v.as_long() for v in leaves] == [0, 1]
    shared = z3.If(h, z3.IntVal(2), y)                  # one subterm reached twice: its leaf listed once
    assert [v.as_long() for v in _leaves(z3.If(g, shared, z3.If(h, shared, z3.IntVal(3))))] == [2, 3]
    assert [z3.is_true(v) for v in _leaves(z3.If(g, z3.BoolVal(True), z3.Bool("b")))] == [True]


def test_at_most_four_leaves_and_none_for_a_constant():
    g = z3.Bools("g0 g1 g2 g3 g4")
    value = z3.IntVal(9)
    for k, c in enumerate(g):
        value = z3.If(c, z3.IntVal(k), value)
    assert [v.as_long() for v in _leaves(value)] == [4, 3, 2, 1]
    assert _leaves(3) == [] and _leaves(z3.Int("y")) == []
