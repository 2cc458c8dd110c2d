"""formulas: the pieces every encoder module shares — the value of `none`, the located "unsupported" error,
the folding constructors (Python constants fold, a term grows only where a cell or a symbolic argument
flows) and the table the expression handlers of :mod:`checker.solver.encode`, :mod:`checker.solver.shapes`
and :mod:`checker.solver.searches` register in.  It imports none of them, so they can all import it.
"""

from __future__ import annotations

from typing import Callable

import z3

from checker.base.registry import registrar
from checker.solver.terms import mk_and, mk_eq, mk_if, mk_not, mk_or

__all__ = ["NONE", "Unsupported", "AND", "OR", "NOT", "ITE", "EQ", "is_const", "as_bool", "_EXPR", "_on"]

NONE = -1_000_000          # `none`, for every optional type


class Unsupported(Exception):
    """A construct this encoding cannot express (reported with the spec location)."""

    def __init__(self, message: str, span=None):
        super().__init__(message)
        self.message, self.span = message, span

    def located(self) -> str:
        """The message, after the location in the spec it is about."""
        return f"{self.span}: {self.message}" if self.span is not None else self.message


# ---------------------------------------------------------------- folding constructors

_Expr = z3.ExprRef


def is_const(x) -> bool:
    return not isinstance(x, _Expr)


def as_bool(x):
    """A Boolean as a Z3 term (a Python bool made one), for what takes terms only (Implies, PbEq, assertions)."""
    return z3.BoolVal(x) if is_const(x) else x


def AND(*xs):
    out = []
    for x in xs:
        if x is True:
            continue
        if x is False:
            return False
        if isinstance(x, _Expr):
            out.append(x)
        elif not x:
            return False
    return True if not out else out[0] if len(out) == 1 else mk_and(out)


def OR(*xs):
    out = []
    for x in xs:
        if x is False:
            continue
        if x is True:
            return True
        if isinstance(x, _Expr):
            out.append(x)
        elif x:
            return True
    return False if not out else out[0] if len(out) == 1 else mk_or(out)


def NOT(x):
    return mk_not(x) if isinstance(x, _Expr) else (not x)


def ITE(c, a, b):
    if not isinstance(c, _Expr):
        return a if c else b
    if isinstance(a, tuple) or isinstance(b, tuple):       # records: field by field
        if not (isinstance(a, tuple) and isinstance(b, tuple)):
            raise Unsupported("a value that may be a record or none")
        return tuple(ITE(c, x, y) for x, y in zip(a, b))
    a_term, b_term = isinstance(a, _Expr), isinstance(b, _Expr)
    if not a_term and not b_term and a == b and type(a) is type(b):
        return a
    if a_term and b_term and a.ast.value == b.ast.value and a.ctx is b.ctx:
        return a        # ``a.eq(b)``: Z3 shares equal terms, so the same term is the same pointer
    return mk_if(c, a, b)


def _mod(a, n, largest: int):
    """``a`` modulo the number of players ``n``; with ``n`` a Z3 term (every player count at once, the largest
    ``largest``), the remainder by each count: ``a % n`` is not linear, and Z3's QF_LIA solver, asked without
    a `push`, refuses it ("Benchmark contains uninterpreted function symbols": its `mod0`)."""
    if is_const(n):
        return a % n
    out = a % largest
    for k in range(largest - 1, 0, -1):
        out = ITE(n == k, a % k, out)
    return out


def EQ(a, b):
    """``a == b``: a Python bool for two constants, a Z3 term otherwise (records field by field)."""
    if isinstance(a, tuple) or isinstance(b, tuple):
        if not (isinstance(a, tuple) and isinstance(b, tuple)):
            return False
        return AND(*(EQ(x, y) for x, y in zip(a, b)))
    return mk_eq(a, b) if isinstance(a, _Expr) or isinstance(b, _Expr) else a == b


def _num(x):
    return int(x) if isinstance(x, bool) else x


# ---------------------------------------------------------------- the table of expression handlers

_EXPR: dict[type, Callable] = {}


_on = registrar(_EXPR)
