"""Z3 terms built through Z3's C API: the same terms as ``z3.If``, ``z3.And`` and ``z3.Or``, for less Python work.

z3py's constructors find the context, cast and coerce every argument (several API calls each) before the
one call that makes the term; encoding a spec with grids makes millions of such terms, and that checking
took most of `rulebook conflicts`'s time.  These take the short way when the arguments need no coercion
(Booleans, or integers and Python ints, of one context) and call z3py otherwise, so the terms, and
every answer Z3 gives on them, are the same.  The same holds for the state's cells (:func:`mk_const`: z3py
makes a sort object per constant), equalities with a number (:func:`mk_eq`), the assertions of a question
(:func:`assert_all`: z3py casts each formula to Bool again) and counting a model's true Booleans when a
witness is made small (:func:`count_true_in`).

The short way calls Z3's C functions through function objects of its own (:func:`_raw`): z3core's wrappers
convert each argument in Python (``from_param``) and ask Z3 for its error code after every call, which
doubled the calls into Z3 of every term made; here a call that fails is told by its null result, and only
then is the error code asked.  A term is wrapped as z3py wraps one (the same ``inc_ref``, the same
``dec_ref`` when the wrapper goes), and a numeral made for one term is held, as z3py's wrapper held it, until
the term is made: Z3 numbers terms, and reuses the numbers of those it frees, so each term is made and freed
where z3py made and freed it, and gets the number it got.

A wrapper that goes lets its term go through :func:`_release` (z3py's ``AstRef.__del__``, replaced when this
module is imported): the same ``dec_ref`` at the same moment, without z3py's four calls in Python around it (the
context asked twice, ``as_ast``, z3core's argument conversions) — a conflict search lets go of millions of terms.
"""

from __future__ import annotations

import ctypes

import z3
from z3 import z3core
from z3.z3types import Ast, Symbol

__all__ = ["term_id", "conjuncts", "mk_if", "mk_and", "mk_or", "mk_implies", "mk_atmost", "mk_const", "count_true_in", "assert_all", "mk_eq", "mk_not", "mk_cmp", "mk_arith"]

_int_sort: list = [None, None, None]    # (context, its Int sort, its address) for the last context asked: the sort
#                                         object is kept, since Z3 frees a term nothing holds a reference to


def _raw(name: str, restype):
    """Z3's C function ``name``, as a function object of its own that converts no argument in Python (its
    arguments are ctypes objects z3py made, or ints and bytes) and asks for no error code."""
    theirs = getattr(z3core, name).__defaults__[0].f          # z3core's (its wrapper's Elementaries)
    f = type(theirs)(ctypes.cast(theirs, ctypes.c_void_p).value)     # the same function, without argtypes
    f.restype = restype
    return f


_mk_ite, _mk_and, _mk_or, _mk_not, _mk_eq, _mk_implies = (_raw(n, Ast) for n in (
    "Z3_mk_ite", "Z3_mk_and", "Z3_mk_or", "Z3_mk_not", "Z3_mk_eq", "Z3_mk_implies"))
_mk_atmost, _mk_numeral, _mk_const, _mk_add, _mk_sub = (_raw(n, Ast) for n in (
    "Z3_mk_atmost", "Z3_mk_numeral", "Z3_mk_const", "Z3_mk_add", "Z3_mk_sub"))
_mk_cmp = {op: _raw(n, Ast) for op, n in (("<", "Z3_mk_lt"), ("<=", "Z3_mk_le"), (">", "Z3_mk_gt"), (">=", "Z3_mk_ge"))}
_mk_symbol = _raw("Z3_mk_string_symbol", Symbol)
_inc_ref, _dec_ref = _raw("Z3_inc_ref", None), _raw("Z3_dec_ref", None)
_sort_of = _raw("Z3_get_sort", ctypes.c_void_p)      # the address of a term's sort
_get_ast_id = _raw("Z3_get_ast_id", ctypes.c_uint)


def _release(self, _dec=_dec_ref):
    """``AstRef.__del__``: the wrapper's term let go (``dec_ref``) while its context lives, as z3py's does (the
    function is a default argument: it is still there while the interpreter shuts down)."""
    ast = self.ast
    if ast is not None:
        ref = self.ctx.ctx
        if ref is not None:
            _dec(ref, ast)
            self.ast = None


z3.AstRef.__del__ = _release
_new = object.__new__
_BoolRef, _ArithRef, _IntNumRef = z3.BoolRef, z3.ArithRef, z3.IntNumRef


def _failed(ctx):
    """Z3's error after a call that made no term, raised as z3py raises it."""
    ref = ctx.ref()
    code = z3core.Z3_get_error_code(ref)
    raise z3.Z3Exception(z3core.Z3_get_error_msg(ref, code) if code else "Z3 made no term")


def _term(cls, ctx, a):
    """The term ``a`` Z3 just made, wrapped as z3py wraps it (``cls(a, ctx)``: one ``inc_ref``)."""
    if not a:
        _failed(ctx)
    t = _new(cls)
    t.ast = a
    t.ctx = ctx
    _inc_ref(ctx.ctx, a)
    return t


def _int(ctx):
    if _int_sort[0] is not ctx:
        sort = z3.IntSort(ctx)
        _int_sort[0], _int_sort[1], _int_sort[2] = ctx, sort, sort.ast.value
    return _int_sort[1]


_bools: list = [None, None, None]       # (context, its `false`, its `true`), kept as ``_int_sort``


def _bool(ctx, value: bool):
    """Z3's ``true`` or ``false`` of ``ctx`` (what z3py makes of a Python bool there)."""
    if _bools[0] is not ctx:
        _bools[0], _bools[1], _bools[2] = ctx, z3.BoolVal(False, ctx), z3.BoolVal(True, ctx)
    return _bools[2] if value else _bools[1]


def term_id(t) -> int:
    """``t.get_id()``: Z3's number of the term ``t``."""
    return _get_ast_id(t.ctx.ctx, t.ast)


def _is_int(ctx, a) -> bool:
    """Is the arithmetic term ``a`` of ``ctx`` an integer?  Z3 makes one Int sort per context: its sort is that one."""
    if type(a) is _IntNumRef:
        return True
    if _int_sort[0] is not ctx:
        _int(ctx)
    return _sort_of(ctx.ctx, a.ast) == _int_sort[2]


class _Held:
    """The raw integer terms of a term being made, and the numerals made for it, held (``inc_ref``) until it is
    made, as z3py's wrappers of them held them; :meth:`release` lets the numerals go (``dec_ref``)."""
    __slots__ = ("ref", "numerals")

    def __init__(self, ref):
        self.ref, self.numerals = ref, []

    def arg(self, ctx, a):
        """``a`` (an integer term of ``ctx`` or a Python int) as a raw integer term, or None when z3py must
        coerce it."""
        if type(a) is int:
            ref = self.ref
            n = _mk_numeral(ref, str(a).encode(), _int(ctx).ast)
            if not n:
                _failed(ctx)
            _inc_ref(ref, n)
            self.numerals.append(n)
            return n
        if (type(a) is _IntNumRef or isinstance(a, _ArithRef)) and a.ctx is ctx and _is_int(ctx, a):
            return a.ast
        return None

    def release(self) -> None:
        ref = self.ref
        for n in self.numerals:
            _dec_ref(ref, n)
        self.numerals = []


def mk_if(c, a, b):
    """``z3.If(c, a, b)`` for a Boolean term ``c``."""
    if type(c) is not _BoolRef:
        return z3.If(c, a, b)
    ctx = c.ctx
    ta, tb = type(a), type(b)
    if tb is _BoolRef and b.ctx is ctx:
        if ta is _BoolRef and a.ctx is ctx:
            return _term(_BoolRef, ctx, _mk_ite(ctx.ctx, c.ast, a.ast, b.ast))
        if ta is bool:          # (z3py casts the Python bool: the same term)
            return _term(_BoolRef, ctx, _mk_ite(ctx.ctx, c.ast, _bool(ctx, a).ast, b.ast))
    if ta is _BoolRef and tb is bool and a.ctx is ctx:
        return _term(_BoolRef, ctx, _mk_ite(ctx.ctx, c.ast, a.ast, _bool(ctx, b).ast))
    if ta is _ArithRef and tb is _ArithRef and a.ctx is ctx and b.ctx is ctx and _is_int(ctx, a) and _is_int(ctx, b):
        return _term(_ArithRef, ctx, _mk_ite(ctx.ctx, c.ast, a.ast, b.ast))     # (no numeral to hold)
    if ta is not bool and tb is not bool:
        held = _Held(ctx.ctx)
        try:
            x, y = held.arg(ctx, a), held.arg(ctx, b)
            if x is not None and y is not None:
                return _term(_ArithRef, ctx, _mk_ite(ctx.ctx, c.ast, x, y))
            return z3.If(c, a, b)
        finally:
            held.release()
    return z3.If(c, a, b)


def _connective(xs: list, make, fallback):
    ctx = xs[0].ctx
    for x in xs:
        if type(x) is not _BoolRef or x.ctx is not ctx:
            return fallback(xs)
    return _term(_BoolRef, ctx, make(ctx.ctx, len(xs), (Ast * len(xs))(*[x.ast for x in xs])))


def mk_and(xs: list):
    """``z3.And(xs)`` for a non-empty list of Boolean terms."""
    return _connective(xs, _mk_and, z3.And)


def mk_or(xs: list):
    """``z3.Or(xs)`` for a non-empty list of Boolean terms."""
    return _connective(xs, _mk_or, z3.Or)


def mk_implies(a, b):
    """``z3.Implies(a, b)`` for Boolean terms."""
    if type(a) is _BoolRef and type(b) is _BoolRef and a.ctx is b.ctx:
        return _term(_BoolRef, a.ctx, _mk_implies(a.ctx.ctx, a.ast, b.ast))
    return z3.Implies(a, b)


def mk_atmost(xs: list, k: int):
    """``z3.AtMost(*xs, k)`` for a non-empty list of Boolean terms."""
    return _connective(xs, lambda ref, n, arr: _mk_atmost(ref, n, arr, k), lambda xs: z3.AtMost(*xs, k))


_sorts: list = [None, None, None]       # (context, its Bool sort, its Int sort), as ``_int_sort``


def mk_const(name: str, boolean: bool):
    """``z3.Bool(name)`` (or ``z3.Int(name)``) in the main context: the same constant, without z3py making a
    sort object per call."""
    ctx = z3.main_ctx()
    if _sorts[0] is not ctx:
        _sorts[0], _sorts[1], _sorts[2] = ctx, z3.BoolSort(ctx), z3.IntSort(ctx)
    ref = ctx.ctx
    symbol = _mk_symbol(ref, name.encode())
    if not symbol:
        _failed(ctx)
    const = _mk_const(ref, symbol, (_sorts[1] if boolean else _sorts[2]).ast)
    return _term(_BoolRef if boolean else _ArithRef, ctx, const)


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
    ta = type(a)
    if ta is _BoolRef:
        if type(b) is _BoolRef and a.ctx is b.ctx:
            return _term(_BoolRef, a.ctx, _mk_eq(a.ctx.ctx, a.ast, b.ast))
        return a == b
    if ta is int and isinstance(b, _ArithRef):
        a, b = b, a
    if isinstance(a, _ArithRef):
        ctx = a.ctx
        if type(b) is int:
            if _is_int(ctx, a):
                held = _Held(ctx.ctx)
                try:
                    return _term(_BoolRef, ctx, _mk_eq(ctx.ctx, a.ast, held.arg(ctx, b)))
                finally:
                    held.release()
        elif isinstance(b, _ArithRef) and b.ctx is ctx and _is_int(ctx, a) and _is_int(ctx, b):
            return _term(_BoolRef, ctx, _mk_eq(ctx.ctx, a.ast, b.ast))
    return a == b


def mk_not(a):
    """``z3.Not(a)`` for a Boolean term ``a``."""
    if type(a) is _BoolRef:
        return _term(_BoolRef, a.ctx, _mk_not(a.ctx.ctx, a.ast))
    return z3.Not(a)


def conjuncts(value) -> list:
    """The top-level conjunction ``value`` flattened (a value that is not a Z3 `and`: itself alone)."""
    if not isinstance(value, z3.ExprRef) or not z3.is_and(value):
        return [value]
    return [x for child in value.children() for x in conjuncts(child)]


_SWAPPED = {"<": ">", "<=": ">=", ">": "<", ">=": "<="}
_PY_CMP = {"<": lambda a, b: a < b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b}


def mk_cmp(op: str, a, b):
    """``a < b`` (``op`` one of ``<``, ``<=``, ``>``, ``>=``) for integer terms and Python ints: the term z3py
    makes, without its coercions — with a Python int on the left, z3py's reflected ``b > a``, as Python asks it."""
    if type(a) is int and isinstance(b, _ArithRef):
        a, b, op = b, a, _SWAPPED[op]
    if isinstance(a, _ArithRef) and (type(b) is int or isinstance(b, _ArithRef) and b.ctx is a.ctx):
        ctx = a.ctx
        if _is_int(ctx, a):
            held = _Held(ctx.ctx)
            try:
                y = held.arg(ctx, b)
                if y is not None:
                    return _term(_BoolRef, ctx, _mk_cmp[op](ctx.ctx, a.ast, y))
            finally:
                held.release()
    return _PY_CMP[op](a, b)


def mk_arith(op: str, a, b):
    """``a + b`` or ``a - b`` (``op``) for integer terms and Python ints: the term z3py makes — with a Python
    int on the left, its reflected ``__radd__``/``__rsub__``, which keep the int on the left — without its
    coercions (anything else through Python's operator, so z3py)."""
    make = _mk_add if op == "+" else _mk_sub
    x = y = None
    held = None
    try:
        if isinstance(a, _ArithRef) and (type(b) is int or isinstance(b, _ArithRef) and b.ctx is a.ctx):
            ctx = a.ctx
            if _is_int(ctx, a):
                held = _Held(ctx.ctx)
                x, y = a.ast, held.arg(ctx, b)
        elif type(a) is int and isinstance(b, _ArithRef):
            ctx = b.ctx
            if _is_int(ctx, b):
                held = _Held(ctx.ctx)
                x, y = held.arg(ctx, a), b.ast
        if x is None or y is None:
            return a + b if op == "+" else a - b
        return _term(_ArithRef, ctx, make(ctx.ctx, 2, (Ast * 2)(x, y)))
    finally:
        if held is not None:
            held.release()
