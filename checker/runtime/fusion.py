"""Aggregates compiled as one pass where the straightforward code would nest loops.

``all(x in xs: sum(y in ys: count(z in zs where key == x)) <= k)`` (or with `any`, any comparison, and
without the `sum`) counts, for every ``x``, the ``z`` whose key is ``x``: the straightforward code walks
every ``zs`` once per ``x``.  When neither ``ys``, ``zs``, ``key`` nor ``k`` mention ``x``, the keys are
counted in one pass and each ``x`` looks its count up.  Same value: the expressions are pure, the key and
``k`` are read only when ``xs`` is not empty (as before), and ``k`` once.
"""

from __future__ import annotations

import operator

from checker.front import ast
from checker.front.ast import names_in

__all__ = ["per_key_count", "count_per_key"]

_COMPARE = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge, "==": operator.eq,
            "!=": operator.ne}


def count_per_key(values, keys, test, bound, every: bool) -> bool:
    """Runtime helper: ``all`` (``every``) or ``any`` of ``test(how many keys equal v, bound())`` over
    ``values``; ``keys()`` and ``bound()`` are called only when there are values."""
    if not values:
        return every
    counts: dict = {}
    for key in keys():
        counts[key] = counts.get(key, 0) + 1
    k = bound()
    if every:
        return all(test(counts.get(v, 0), k) for v in values)
    return any(test(counts.get(v, 0), k) for v in values)


def per_key_count(g, e: ast.Aggregate, scope) -> str | None:
    """The one-pass source of ``e`` when it has the shape above, else None."""
    if e.kind not in ("all", "any") or not isinstance(e.body, ast.Binary) or e.body.op not in _COMPARE:
        return None
    left, bound, x = e.body.left, e.body.right, e.var
    outer = None
    if isinstance(left, ast.Aggregate) and left.kind == "sum" and isinstance(left.body, ast.Aggregate):
        outer, left = left, left.body
    if not (isinstance(left, ast.Aggregate) and left.kind == "count" and isinstance(left.body, ast.Binary)
            and left.body.op == "=="):
        return None
    a, b = left.body.left, left.body.right
    key = b if isinstance(a, ast.Name) and a.id == x else a if isinstance(b, ast.Name) and b.id == x else None
    if key is None or g.is_card(a) or g.is_card(b):
        return None
    free = [key, left.coll, bound] + ([outer.coll] if outer is not None else [])
    if any(x in names_in(part) for part in free) or (outer is not None and outer.var == x) or left.var == x:
        return None
    span = g.const(e.span, "span")
    z = g.fresh("z")
    if outer is None:
        keys = f"[{g.expr(key, scope.with_fixed(left.var, z))} for {z} in {g.expr(left.coll, scope)}]"
    else:
        y = g.fresh("y")
        around = scope.with_fixed(outer.var, y)
        keys = f"[{g.expr(key, around.with_fixed(left.var, z))} for {y} in SPEND({g.expr(outer.coll, scope)}, " \
               f"{span}) for {z} in {g.expr(left.coll, around)}]"
    test = g.const(_COMPARE[e.body.op], "cmp")
    return (f"COUNT_PER_KEY(SPEND({g.expr(e.coll, scope)}, {span}), lambda: SPEND({keys}, {span}), {test}, "
            f"lambda: {g.expr(bound, scope)}, {e.kind == 'all'})")
