"""Tests written for the survivors of the mutation sample of checker/solver/formulas.py (h153, seed 153,
bench/results/mutation-2026-11-29-h153.txt): the folding constructors on Python constants (what they fold, what they
leave a term), on records (field by field, and a record against a non-record), the remainder by a player count
that is a term, and equality with a number made without z3py's coercions."""

from __future__ import annotations

import pytest
import z3
from z3 import z3core

from checker.solver.formulas import AND, EQ, ITE, NOT, OR, Unsupported, _mod


def test_and_or_not_fold_python_constants():
    a = z3.Bool("h153 a")
    assert AND() is True and AND(True, True) is True and AND(a, False) is False and AND(a, 0) is False
    assert AND(a, 1).eq(a) and AND(True, a).eq(a) and AND(a, a).eq(z3.And(a, a))
    assert OR() is False and OR(False, False) is False and OR(a, True) is True and OR(True, a) is True
    assert OR(a, 1) is True and OR(a, 0).eq(a) and OR(False, a).eq(a) and OR(a, a).eq(z3.Or(a, a))
    assert NOT(True) is False and NOT(0) is True and NOT(a).eq(z3.Not(a))


def test_ite_folds_what_it_can_and_goes_field_by_field_on_records():
    c, x, y = z3.Bool("h153 c"), z3.Int("h153 x"), z3.Int("h153 y")
    assert ITE(True, 1, 2) == 1 and ITE(False, 1, 2) == 2
    assert ITE(c, 3, 3) == 3 and type(ITE(c, 3, 3)) is int                  # the same constant: no term
    assert ITE(c, True, 1).eq(z3.If(c, True, 1))                             # equal, but not of one type
    assert ITE(c, x, x).eq(x) and ITE(c, x, y).eq(z3.If(c, x, y))
    record = ITE(c, (1, x), (2, y))
    assert isinstance(record, tuple) and record[0].eq(z3.If(c, 1, 2)) and record[1].eq(z3.If(c, x, y))
    assert ITE(c, (1, 2), (1, 2)) == (1, 2)
    for a, b in (((1, 2), 3), (3, (1, 2))):
        with pytest.raises(Unsupported, match="a value that may be a record or none"):
            ITE(c, a, b)


def test_eq_of_constants_records_and_terms():
    x, y = z3.Int("h153 x"), z3.Int("h153 y")
    assert EQ(2, 2) is True and EQ(2, 3) is False
    assert EQ((1, 2), (1, 2)) is True and EQ((1, 2), (1, 3)) is False
    assert EQ((1, 2), 3) is False and EQ(3, (1, 2)) is False
    assert EQ((1, x), (1, y)).eq(x == y)
    assert EQ(x, 3).eq(x == 3) and EQ(3, x).eq(x == 3) and EQ(x, y).eq(x == y)
    EQ(x, 4)                         # the context's Int sort, made once by z3py
    checks = []
    check = z3core.Elementaries.Check
    z3core.Elementaries.Check = lambda self, ctx: checks.append(1) or check(self, ctx)
    try:
        made = [EQ(x, 5), EQ(6, x), EQ(x, y)]
    finally:
        z3core.Elementaries.Check = check
    assert checks == [] and len(made) == 3, "an equality with a term went through z3py's coercions"


def test_the_remainder_by_a_player_count_that_is_a_term_is_the_remainder_by_each_count():
    n = z3.Int("h153 n")
    for a in (0, 5, 7, 12):
        assert _mod(a, 4, 6) == a % 4
        term = _mod(a, n, 6)
        if a == 0:
            assert term == 0           # every remainder 0: folded
            continue
        for count in range(1, 7):
            assert z3.simplify(z3.substitute(term, (n, z3.IntVal(count)))).as_long() == a % count, (a, count)
