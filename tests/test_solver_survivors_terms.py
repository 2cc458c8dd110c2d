"""Tests written for the survivors of the mutation sample of checker/solver/terms.py (h153, seed 153,
bench/results/mutation-2026-11-29-h153.txt): every builder, on every shape of arguments it takes the short way
for, makes z3py's very term and asks Z3 for no error code (a builder that fell back to z3py there, or took the
short way with arguments it must not, is seen); the shapes it leaves to z3py give z3py's term or z3py's error."""

from __future__ import annotations

import pytest
import z3
from z3 import z3core

from checker.solver.terms import (assert_all, count_true_in, mk_and, mk_arith, mk_atmost, mk_cmp, mk_const, mk_eq,
                                  mk_if, mk_implies, mk_not, mk_or)


def _short_way_cases(a, b, x, y):
    """(name, made by terms.py, made by z3py) for the arguments the builders take the short way for."""
    cases = [("if of Booleans", lambda: mk_if(a, a, b), lambda: z3.If(a, a, b)),
             ("if, then a Python bool", lambda: mk_if(a, True, b), lambda: z3.If(a, True, b)),
             ("if, else a Python bool", lambda: mk_if(a, b, False), lambda: z3.If(a, b, False)),
             ("if of integers", lambda: mk_if(a, x, y), lambda: z3.If(a, x, y)),
             ("if of an integer and ints", lambda: mk_if(a, 4, x), lambda: z3.If(a, 4, x)),
             ("and", lambda: mk_and([a, b, a]), lambda: z3.And(a, b, a)),
             ("or", lambda: mk_or([a, b]), lambda: z3.Or(a, b)),
             ("implies", lambda: mk_implies(a, b), lambda: z3.Implies(a, b)),
             ("at most", lambda: mk_atmost([a, b, a], 1), lambda: z3.AtMost(a, b, a, 1)),
             ("not", lambda: mk_not(a), lambda: z3.Not(a)),
             ("== of Booleans", lambda: mk_eq(a, b), lambda: a == b),
             ("== of integers", lambda: mk_eq(x, y), lambda: x == y),
             ("== an int", lambda: mk_eq(x, 5), lambda: x == 5),
             ("an int ==", lambda: mk_eq(5, x), lambda: 5 == x)]
    for op, py in (("<", lambda p, q: p < q), ("<=", lambda p, q: p <= q), (">", lambda p, q: p > q),
                   (">=", lambda p, q: p >= q)):
        cases += [(f"{op} of integers", lambda op=op: mk_cmp(op, x, y), lambda py=py: py(x, y)),
                  (f"{op} an int", lambda op=op: mk_cmp(op, x, 6), lambda py=py: py(x, 6)),
                  (f"an int {op}", lambda op=op: mk_cmp(op, 6, x), lambda py=py: py(6, x))]
    cases += [("+", lambda: mk_arith("+", x, y), lambda: x + y), ("+ an int", lambda: mk_arith("+", x, 2), lambda: x + 2),
              ("an int +", lambda: mk_arith("+", 2, x), lambda: 2 + x), ("-", lambda: mk_arith("-", x, y), lambda: x - y),
              ("- an int", lambda: mk_arith("-", x, 2), lambda: x - 2), ("an int -", lambda: mk_arith("-", 2, x), lambda: 2 - x)]
    return cases


def test_each_builder_takes_the_short_way_and_makes_z3pys_term():
    ctx = z3.Context()
    a, b, x, y = z3.Bool("a", ctx), z3.Bool("b", ctx), z3.Int("x", ctx), z3.Int("y", ctx)
    cases = _short_way_cases(a, b, x, y)
    for _, ours, _ in cases:         # the sorts and Booleans of the context, made once by z3py
        ours()
    checks = []
    check = z3core.Elementaries.Check
    z3core.Elementaries.Check = lambda self, c: checks.append(1) or check(self, c)
    try:
        made = [(name, ours()) for name, ours, _ in cases]
    finally:
        z3core.Elementaries.Check = check
    assert checks == [], "a builder went through z3py"
    for (name, term), (_, _, theirs) in zip(made, cases):
        assert term.eq(theirs()), name
        assert term.ctx is ctx and type(term) is type(theirs()), name


def test_what_the_builders_leave_to_z3py_is_z3pys():
    ctx, other = z3.Context(), z3.Context()
    a, b, x = z3.Bool("a", ctx), z3.Bool("b", ctx), z3.Int("x", ctx)
    r, elsewhere = z3.Real("r", ctx), z3.Bool("c", other)
    assert mk_implies(True, a).eq(z3.Implies(True, a)) and mk_implies(a, False).eq(z3.Implies(a, False))
    assert mk_if(a, r, 1).eq(z3.If(a, r, 1)) and mk_if(a, x, r).eq(z3.If(a, x, r))
    assert mk_eq(a, True).eq(a == True) and mk_eq(r, 1).eq(r == 1) and mk_eq(x, r).eq(x == r)  # noqa: E712
    assert mk_cmp("<", r, 1).eq(r < 1) and mk_cmp(">=", 1, r).eq(1 >= r)
    assert mk_arith("+", r, 1).eq(r + 1) and mk_arith("-", 1, r).eq(1 - r)
    assert mk_arith("+", x, r).eq(x + r) and mk_arith("-", x, True).eq(x - True)     # an integer term and no int
    assert mk_cmp("<", x, r).eq(x < r) and mk_cmp("<=", x, True).eq(x <= True)
    assert mk_cmp("<", 1, 2) is True and mk_arith("-", 1, 2) == -1 and mk_eq(2, 2) is True
    for ours in (lambda: mk_and([a, elsewhere]), lambda: mk_or([a, elsewhere]), lambda: mk_implies(a, elsewhere),
                 lambda: mk_eq(a, elsewhere)):
        with pytest.raises(z3.Z3Exception):
            ours()
    assert not mk_not(z3.BoolVal(True, ctx)).eq(z3.BoolVal(True, ctx))


def test_constants_models_and_assertions():
    x = mk_const("h153 x", False)
    p, q = mk_const("h153 p", True), mk_const("h153 q", True)
    assert x.eq(z3.Int("h153 x")) and p.eq(z3.Bool("h153 p")) and type(x) is z3.ArithRef and type(p) is z3.BoolRef
    solver = z3.Solver()
    added = []
    add = solver.add
    solver.add = lambda *fs: added.extend(fs) or add(*fs)
    assert_all(solver, [p, z3.Not(q), x > 3, True])
    assert added == [True], "a Boolean term of the solver's context is asserted as it is, not through z3py"
    assert [str(f) for f in solver.assertions()] == ["h153 p", "Not(h153 q)", "h153 x > 3", "True"]
    assert solver.check() == z3.sat
    model = solver.model()
    assert count_true_in(model, [p, q, z3.Not(q), p]) == 3 and count_true_in(model, []) == 0
