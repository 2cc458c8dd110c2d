"""Z3 terms built through Z3's C API: the same terms as ``z3.If``, ``z3.And`` and ``z3.Or``, for less Python work.

z3py's constructors find the context, cast and coerce every argument (several API calls each) before the
one call that makes the term; encoding a spec with grids makes millions of such terms, and that checking
took most of `rulebook conflicts`'s time.  These take the short way when the arguments need no coercion
(Booleans, or integers and Python ints, of one context) and call z3py otherwise, so the terms, and
every answer Z3 gives on them, are the same.  The same holds for the state's cells (:func:`mk_const`: z3py
makes a sort object per constant), equalities with a number (:func:`mk_eq`), the assertions of a question
(:func:`assert_all`: z3py casts each formula to Bool again) and counting a model's true Booleans when a
witness is made small (:func:`count_true_in`).
"""

from __future__ import annotations

import z3
from z3 import z3core

__all__ = ["conjuncts", "mk_if", "mk_and", "mk_or", "mk_implies", "mk_atmost", "mk_const", "count_true_in", "assert_all", "mk_eq", "mk_not", "mk_cmp", "mk_arith"]

_INT = z3.Z3_INT_SORT
_int_sort: list = [None, None]          # (context, its Int sort) for the last context asked: the sort object
#                                         is kept, since Z3 frees a term nothing holds a reference to


def _int(ctx):
    if _int_sort[0] is not ctx:
        _int_sort[0], _int_sort[1] = ctx, z3.IntSort(ctx)
    return _int_sort[1]


_bools: list = [None, None, None]       # (context, its `false`, its `true`), kept as ``_int_sort``


def _bool(ctx, value: bool):
    """Z3's ``true`` or ``false`` of ``ctx`` (what z3py makes of a Python bool there)."""
    if _bools[0] is not ctx:
        _bools[0], _bools[1], _bools[2] = ctx, z3.BoolVal(False, ctx), z3.BoolVal(True, ctx)
    return _bools[2] if value else _bools[1]


def _is_int(ctx, a) -> bool:
    return z3core.Z3_get_sort_kind(ctx.ref(), z3core.Z3_get_sort(ctx.ref(), a.as_ast())) == _INT


def _int_arg(ctx, a):
    """``a`` (an integer term of ``ctx`` or a Python int) as an integer term, or None when z3py must coerce
    it (a numeral is wrapped, so that Z3 keeps it until the term is made)."""
    if type(a) is int:
        return z3.IntNumRef(z3core.Z3_mk_numeral(ctx.ref(), str(a), _int(ctx).ast), ctx)
    if type(a) is z3.IntNumRef and a.ctx is ctx or isinstance(a, z3.ArithRef) and a.ctx is ctx and _is_int(ctx, a):
        return a
    return None


def mk_if(c, a, b):
    """``z3.If(c, a, b)`` for a Boolean term ``c``."""
    if type(c) is not z3.BoolRef:
        return z3.If(c, a, b)
    ctx = c.ctx
    if type(a) is z3.BoolRef and type(b) is z3.BoolRef and a.ctx is ctx and b.ctx is ctx:
        return z3.BoolRef(z3core.Z3_mk_ite(ctx.ref(), c.as_ast(), a.as_ast(), b.as_ast()), ctx)
    if type(a) is bool and type(b) is z3.BoolRef and b.ctx is ctx:     # (z3py casts the Python bool: the same term)
        return z3.BoolRef(z3core.Z3_mk_ite(ctx.ref(), c.as_ast(), _bool(ctx, a).as_ast(), b.as_ast()), ctx)
    if type(b) is bool and type(a) is z3.BoolRef and a.ctx is ctx:
        return z3.BoolRef(z3core.Z3_mk_ite(ctx.ref(), c.as_ast(), a.as_ast(), _bool(ctx, b).as_ast()), ctx)
    if type(a) is not bool and type(b) is not bool:
        x, y = _int_arg(ctx, a), _int_arg(ctx, b)
        if x is not None and y is not None:
            return z3.ArithRef(z3core.Z3_mk_ite(ctx.ref(), c.as_ast(), x.as_ast(), y.as_ast()), ctx)
    return z3.If(c, a, b)


def _connective(xs: list, make, fallback):
    ctx = xs[0].ctx
    if all(type(x) is z3.BoolRef and x.ctx is ctx for x in xs):
        arr = (z3.Ast * len(xs))(*(x.as_ast() for x in xs))
        return z3.BoolRef(make(ctx.ref(), len(xs), arr), ctx)
    return fallback(xs)


def mk_and(xs: list):
    """``z3.And(xs)`` for a non-empty list of Boolean terms."""
    return _connective(xs, z3core.Z3_mk_and, z3.And)


def mk_or(xs: list):
    """``z3.Or(xs)`` for a non-empty list of Boolean terms."""
    return _connective(xs, z3core.Z3_mk_or, z3.Or)


def mk_implies(a, b):
    """``z3.Implies(a, b)`` for Boolean terms."""
    if type(a) is z3.BoolRef and type(b) is z3.BoolRef and a.ctx is b.ctx:
        return z3.BoolRef(z3core.Z3_mk_implies(a.ctx.ref(), a.as_ast(), b.as_ast()), a.ctx)
    return z3.Implies(a, b)


def mk_atmost(xs: list, k: int):
    """``z3.AtMost(*xs, k)`` for a non-empty list of Boolean terms."""
    ctx = xs[0].ctx
    if all(type(x) is z3.BoolRef and x.ctx is ctx for x in xs):
        arr = (z3.Ast * len(xs))(*(x.as_ast() for x in xs))
        return z3.BoolRef(z3core.Z3_mk_atmost(ctx.ref(), len(xs), arr, k), ctx)
    return z3.AtMost(*xs, k)


_sorts: list = [None, None, None]       # (context, its Bool sort, its Int sort), as ``_int_sort``


def mk_const(name: str, boolean: bool):
    """``z3.Bool(name)`` (or ``z3.Int(name)``) in the main context: the same constant, without z3py making a
    sort object per call."""
    ctx = z3.main_ctx()
    if _sorts[0] is not ctx:
        _sorts[0], _sorts[1], _sorts[2] = ctx, z3.BoolSort(ctx), z3.IntSort(ctx)
    ref = ctx.ref()
    const = z3core.Z3_mk_const(ref, z3core.Z3_mk_string_symbol(ref, name), (_sorts[1] if boolean else _sorts[2]).ast)
    return z3.BoolRef(const, ctx) if boolean else z3.ArithRef(const, ctx)


def count_true_in(model: z3.ModelRef, terms) -> int:
    """How many of the Boolean ``terms`` are true in ``model`` (completed): ``sum(is_true(model.eval(t, True)))``
    without a Python object per value (each value is Z3's ``true`` or ``false``, which the context keeps)."""
    ctx = model.ctx
    ref, m, out, n = ctx.ref(), model.model, (z3.Ast * 1)(), 0
    for t in terms:
        if not z3core.Z3_model_eval(ref, m, t.as_ast(), True, out):
            raise z3.Z3Exception("failed to evaluate expression in the model")
        n += z3core.Z3_get_bool_value(ref, out[0]) == z3.Z3_L_TRUE
    return n


def assert_all(solver: z3.Solver, formulas) -> None:
    """``solver.add(*formulas)``: a Boolean term of the solver's context is asserted as it is (z3py casts each
    one to Bool first, several API calls that change nothing), anything else through z3py."""
    ctx = solver.ctx
    ref, s = ctx.ref(), solver.solver
    for f in formulas:
        if type(f) is z3.BoolRef and f.ctx is ctx:
            z3core.Z3_solver_assert(ref, s, f.as_ast())
        else:
            solver.add(f)


def mk_eq(a, b):
    """``a == b`` for an integer term and a Python int (either side), two integer terms or two Boolean terms of
    one context (anything else through Python's ``==``, so z3py): the term z3py makes, without its coercions.
    ``3 == x`` is z3py's ``x == 3`` (Python asks the term), and so is it here."""
    if type(a) is int and isinstance(b, z3.ArithRef):
        a, b = b, a
    if isinstance(a, z3.ArithRef):
        ctx = a.ctx
        if type(b) is int:
            if _is_int(ctx, a):
                y = _int_arg(ctx, b)
                return z3.BoolRef(z3core.Z3_mk_eq(ctx.ref(), a.as_ast(), y.as_ast()), ctx)
        elif isinstance(b, z3.ArithRef) and b.ctx is ctx and _is_int(ctx, a) and _is_int(ctx, b):
            return z3.BoolRef(z3core.Z3_mk_eq(ctx.ref(), a.as_ast(), b.as_ast()), ctx)
    elif type(a) is z3.BoolRef and type(b) is z3.BoolRef and a.ctx is b.ctx:
        return z3.BoolRef(z3core.Z3_mk_eq(a.ctx.ref(), a.as_ast(), b.as_ast()), a.ctx)
    return a == b


def mk_not(a):
    """``z3.Not(a)`` for a Boolean term ``a``."""
    if type(a) is z3.BoolRef:
        return z3.BoolRef(z3core.Z3_mk_not(a.ctx.ref(), a.as_ast()), a.ctx)
    return z3.Not(a)


def conjuncts(value) -> list:
    """The top-level conjunction ``value`` flattened (a value that is not a Z3 `and`: itself alone)."""
    if not isinstance(value, z3.ExprRef) or not z3.is_and(value):
        return [value]
    return [x for child in value.children() for x in conjuncts(child)]


_CMP = {"<": (z3core.Z3_mk_lt, ">"), "<=": (z3core.Z3_mk_le, ">="), ">": (z3core.Z3_mk_gt, "<"),
        ">=": (z3core.Z3_mk_ge, "<=")}
_PY_CMP = {"<": lambda a, b: a < b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b}


def mk_cmp(op: str, a, b):
    """``a < b`` (``op`` one of ``<``, ``<=``, ``>``, ``>=``) for integer terms and Python ints: the term z3py
    makes, without its coercions — with a Python int on the left, z3py's reflected ``b > a``, as Python asks it."""
    if type(a) is int and isinstance(b, z3.ArithRef):
        a, b, op = b, a, _CMP[op][1]
    if isinstance(a, z3.ArithRef) and (type(b) is int or isinstance(b, z3.ArithRef) and b.ctx is a.ctx):
        ctx = a.ctx
        if _is_int(ctx, a):
            y = _int_arg(ctx, b)
            if y is not None:
                return z3.BoolRef(_CMP[op][0](ctx.ref(), a.as_ast(), y.as_ast()), ctx)
    return _PY_CMP[op](a, b)


def mk_arith(op: str, a, b):
    """``a + b`` or ``a - b`` (``op``) for integer terms and Python ints: the term z3py makes — with a Python
    int on the left, its reflected ``__radd__``/``__rsub__``, which keep the int on the left — without its
    coercions (anything else through Python's operator, so z3py)."""
    make = z3core.Z3_mk_add if op == "+" else z3core.Z3_mk_sub
    x = y = None
    if isinstance(a, z3.ArithRef) and (type(b) is int or isinstance(b, z3.ArithRef) and b.ctx is a.ctx):
        ctx = a.ctx
        if _is_int(ctx, a):
            x, y = a, _int_arg(ctx, b)
    elif type(a) is int and isinstance(b, z3.ArithRef):
        ctx = b.ctx
        if _is_int(ctx, b):
            x, y = _int_arg(ctx, a), b
    if x is None or y is None:
        return a + b if op == "+" else a - b
    args = (z3.Ast * 2)(x.as_ast(), y.as_ast())
    return z3.ArithRef(make(ctx.ref(), 2, args), ctx)
