"""aggregates: the encoding of an aggregate (`any`, `all`, `count`, `sum`, `max`/`min`, `argmax`/`argmin`, a
filter, `only`/`the`) over a collection, element by element (moved out of :mod:`checker.solver.encode`, which
imports it to register the handler).
"""

from __future__ import annotations

import z3

from checker.front import ast
from checker.solver.formulas import AND, ITE, NONE, NOT, OR, _num, _on, as_bool, is_const
from checker.solver.terms import mk_arith

__all__: list[str] = []


@_on(ast.Aggregate)
def _(enc, e: ast.Aggregate, env):
    if e.kind in ("union", "collect"):
        from checker.solver import shapes
        return shapes.aggregate(enc, e, env)
    coll = enc.coll(e.coll, env)
    enc.spend(len(coll), e.span)
    kind, var = e.kind, e.var
    results = []
    local = dict(env)
    for g, x in coll:
        if is_const(g) and not g:
            continue
        local[var] = x
        r = enc.expr(e.body, local) if e.body is not None else True
        results.append((g, x, r))
    if kind == "count":
        return _sum(ITE(AND(g, r), 1, 0) for g, _, r in results)
    if kind == "sum":
        return _sum(ITE(g, _num(r), 0) for g, _, r in results)
    if kind == "any":
        return OR(*(AND(g, r) for g, _, r in results))
    if kind == "all":
        return AND(*(OR(NOT(g), r) for g, _, r in results))
    if kind == "filter":
        return [(AND(g, r), x) for g, x, r in results]
    if kind in ("max", "min"):
        better = (lambda a, b: a > b) if kind == "max" else (lambda a, b: a < b)
        acc, seen = 0, False
        for g, _, r in results:
            r = _num(r)
            take = AND(g, OR(NOT(seen), better(r, acc)))
            acc, seen = ITE(take, r, acc), OR(seen, g)
        return acc
    if kind in ("argmax", "argmin"):
        better = (lambda a, b: a >= b) if kind == "argmax" else (lambda a, b: a <= b)
        return [(AND(g, *(OR(NOT(h), better(_num(r), _num(s))) for h, _, s in results)), x)
                for g, x, r in results]
    # the / only: the first element that qualifies (`only` with several is an error in the interpreter,
    # so a state where it is not exactly one is not one the encoding describes)
    if kind in ("only", "the"):
        hits = [AND(g, r) for g, _, r in results]
        # for the effects (checker.solver.transition): when does it find one (the interpreter stops otherwise)?
        if all(is_const(h) for h in hits):
            found = sum(1 for h in hits if h)
            enc.partial.append((e.span, found == 1 or (kind == "the" and found == 0),
                                f"{kind}(…) found {found} elements, not one"))
        else:
            exact = z3.PbEq([(as_bool(h), 1) for h in hits], 1) if kind == "only" else \
                z3.AtMost(*[as_bool(h) for h in hits], 1)
            if kind == "only":
                enc.defined.append(exact)
            enc.partial.append((e.span, exact, f"{kind}(…) found {'0 or ' if kind == 'only' else ''}"
                                               f"several elements, not one"))
    out = NONE
    values = []
    for g, x, r in reversed(results):
        out = ITE(AND(g, r), x, out)
        values.append(x)
    if not is_const(out) and all(is_const(v) for v in values):
        enc.domains[out.get_id()] = tuple(values) + (NONE,)
        enc._alive.append(out)
    return out


def _sum(terms):
    total = 0
    for t in terms:
        total = mk_arith("+", total, t) if not (is_const(t) and t == 0) else total
    return total
