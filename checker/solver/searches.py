"""encode, continued: `connected(…)` and `path(…)` for Z3.

On a known state (a decision point: the state is given, the move is the unknown) a search is followed
on constants: each possible start is searched like the interpreter does (:mod:`checker.base.graphs`), and the
result is guarded by which start it is.

On a symbolic state (the conflict search) the relation depends on the state, and `connected` is
encoded as a least fixpoint over the values the search may reach.  Those are found first by following
every edge that can exist in some state (``y`` may be in ``next(x)``: the encoding of ``next(x)`` for a
known ``x``, each element's possible values); then each such value ``y`` gets a Boolean ``r[y]`` (it is
reached) and an integer rank ``d[y]``, with

- closure: ``r[y]`` when ``y`` is a start, or when ``r[x]`` and ``y`` is in ``next(x)``;
- support: ``r[y]`` only when ``y`` is a start, or some ``r[x]`` with ``y`` in ``next(x)`` and
  ``d[x] < d[y]`` (the ranks forbid a cycle of values that only support one another).

So ``r`` is exactly the set the interpreter reaches, in every state (the ranks of the breadth-first
search exist; any ranks that hold describe a derivation from a start).  These constraints join
:attr:`Encoder.defined`.  The symbolic states of the conflict search range over a window of each grid
(:func:`~checker.solver.shapes.window`); a search that would step from a reached value to a cell outside
the window (or a record with one) is outside those states, and the constraint that it does not is
added too, so the answers hold for the states whose searches stay inside the window.

A search too large for one encoding over the whole window raises :class:`TooLarge`; a dead-rule question
is then asked again with the search narrowed nearer the centre (``enc.narrowed``, a radius: its starts and
the values it reaches within it, :mod:`checker.solver.narrowed`), where a state found settles it.

`path(…)` through a state-dependent relation is not encoded (see :func:`_path`).
Handlers register in the table of :mod:`checker.solver.formulas`; ``enc`` is always the
:class:`checker.solver.encode.Encoder`, which imports this module (so this one does not import it).
"""

from __future__ import annotations

from collections import deque

import z3

from checker.front import ast
from checker.base.limits import MAX_SEARCHED
from checker.base.graphs import TooFar, reachable, shortest_path
from checker.solver.formulas import AND, NONE, NOT, OR, Unsupported, _on, as_bool, is_const
from checker.solver.shapes import known, window
from checker.front.types import Coll, GridT, KindT, Opt, RecordT, Ty

__all__: list[str] = []        # registers the encodings of ast.Connected and ast.Path


class _Symbolic(Unsupported):
    """The next values of a search depend on what is not known in advance."""


class TooLarge(Unsupported):
    """A `connected(…)` on a symbolic state that would reach too many values, or range over too many
    elements, to be encoded over the whole window: the question may be asked again with the search kept in
    a narrower one (:mod:`checker.solver.narrowed`)."""


def _constant_successors(enc, var: str, step: ast.Expr, env: dict, node, span) -> list:
    local = dict(env)
    local[var] = node
    v = enc.expr(step, local)
    items = v if isinstance(v, list) else [(True, v)]
    out = []
    for g, x in items:
        if not is_const(g) or (isinstance(x, tuple) and not all(is_const(f) for f in x)) or \
                (not isinstance(x, tuple) and not is_const(x)):
            raise _Symbolic("a search whose next values depend on what is not known in advance (the move, or "
                            "a symbolic state): searches are followed on a known state only", span)
        if g and x != NONE:
            out.append(x)
    return out


def _starts(enc, v, span) -> list:
    """The possible starting points of a search, guarded: [(guard, constant)]."""
    return _expanded(enc, v, "a search from a value not known in advance", span)


def _expanded(enc, v, unknown: str, span) -> list:
    """A value or a collection as [(guard, constant)]: each element whose possible values are known stands
    for each of them, guarded by being it."""
    items = v if isinstance(v, list) else [(True, v)]
    out = []
    for g, x in items:
        if is_const(g) and not g:
            continue
        values = known(enc, x)
        if values is None:
            raise Unsupported(unknown, span)
        for c in values:
            guard = g if _constant(x) else AND(g, enc.eq(x, c))
            if not (is_const(guard) and not guard):
                out.append((guard, c))
    return out


def _constant(x) -> bool:
    return all(is_const(f) for f in x) if isinstance(x, tuple) else is_const(x)


@_on(ast.Connected)
def _(enc, e: ast.Connected, env):
    starts = _starts(enc, enc.expr(e.start, env), e.start.span)
    try:
        return _followed(enc, e, env, starts)
    except _Symbolic:
        if enc.cells.concrete:      # the constraints of a fixpoint are asserted by the conflict search only
            raise
    return _fixpoint(enc, e, env, starts)


def _followed(enc, e: ast.Connected, env, starts: list) -> list:
    """The search from each constant start, on constant next values; guarded by which start it is."""
    found: dict = {}
    cache = enc.__dict__.setdefault("_reached", {})
    for g, s in starts:
        if s == NONE:
            continue
        key = (id(e), enc.key(s), tuple(sorted((k, enc.key(v)) for k, v in env.items() if k != e.var)))
        reached = cache.get(key)
        if reached is None:
            try:
                reached = cache[key] = reachable(
                    [s], lambda n: _constant_successors(enc, e.var, e.step, env, n, e.step.span))
            except TooFar:
                raise Unsupported("connected(…) reached more values than a search may visit", e.span) from None
        for x in reached:
            found[x] = OR(found[x], g) if x in found else g
    return [(g, x) for x, g in found.items()]


# ---------------------------------------------------------------- the fixpoint on a symbolic state

def _edges(enc, e: ast.Connected, env: dict, node) -> list:
    """[(guard, y)]: ``y`` (a constant) is in ``next(node)`` when ``guard`` holds."""
    local = dict(env)
    local[e.var] = node
    return [(g, y) for g, y in _expanded(enc, enc.expr(e.step, local), "a search whose next values are not a "
                                         "known, finite set of values here", e.step.span)
            if y != NONE]


def _inside(enc, ty: Ty, radius: int | None = None):
    """A test: is a value of type ``ty`` one the symbolic states range over (its cells in the window, or
    within ``radius`` rows and columns of the grid's centre)?"""
    ty = ty.inner if isinstance(ty, Opt) else ty
    if isinstance(ty, GridT):
        grid = enc.E.grids[ty.name]
        cells = frozenset(window(grid) if radius is None else
                          [c for c in window(grid) if max(map(abs, grid.coordinates(c))) <= radius])
        return lambda v: v in cells
    if isinstance(ty, RecordT):
        tests = [_inside(enc, enc.resolve(f.type), radius) for f in enc.p.records[ty.name].fields]
        return lambda v: all(t(x) for t, x in zip(tests, v))
    return lambda v: True


def _fixpoint(enc, e: ast.Connected, env: dict, starts: list) -> list:
    ty = enc.type_of(e)
    elem = ty.elem if isinstance(ty, Coll) else ty
    if isinstance(elem.inner if isinstance(elem, Opt) else elem, KindT):
        raise Unsupported("connected(…) through cards whose next cards depend on a symbolic state (cards are "
                          "told apart by name there, which this encoding does not follow)", e.span)
    cache = enc.__dict__.setdefault("_fixpoints", {})
    key = (id(e), tuple((enc.key(g), enc.key(s)) for g, s in starts),
           tuple(sorted((k, enc.key(v)) for k, v in env.items() if k != e.var)))
    hit = cache.get(key)
    if hit is not None:
        return hit[0]
    radius = enc.__dict__.get("narrowed")     # set by checker.solver.narrowed: the search kept nearer the centre
    inside = _inside(enc, elem, radius)
    start_guard: dict = {}
    rules = []
    for g, s in starts:
        if s != NONE and radius is not None and not inside(s):     # a start outside the narrowed window: not searched
            rules.append(as_bool(NOT(g)))
        elif s != NONE:
            start_guard[s] = OR(start_guard[s], g) if s in start_guard else g
    order = list(start_guard)
    seen = set(order)
    incoming: dict = {}           # y -> [(x, guard)]
    leaving: list = []            # (x, guard): a step from x to a value outside the window
    todo = deque(order)
    spent, followed = enc.spent, 0
    while todo:
        x = todo.popleft()
        try:
            edges = _edges(enc, e, env, x)
            enc.spend(len(edges), e.span)
        except Unsupported:
            if enc.spent <= enc.limit:
                raise
            _too_large(e, len(seen), (enc.spent - spent) // (followed + 1), enc.limit)
        for g, y in edges:
            if not inside(y):
                leaving.append((x, g))
                continue
            incoming.setdefault(y, []).append((x, g))
            if y not in seen:
                if len(seen) >= MAX_SEARCHED:
                    raise TooLarge(f"connected(…) may reach more than {MAX_SEARCHED:,} values on a symbolic "
                                      f"state (the most one encoding follows)", e.span)
                seen.add(y)
                order.append(y)
                todo.append(y)
        followed += 1
        each = (enc.spent - spent) / followed
        # give up now, not after minutes of encoding; a narrowed search, near its limit, past its first values (the
        # first builds what the others reuse: 3,600 elements where each next one costs 2,300, measured)
        if (radius is None or followed >= 8) and enc.spent + each * len(todo) > enc.limit:
            _too_large(e, len(seen), round(each), enc.limit)
    number = enc.__dict__["_fixpoint_count"] = enc.__dict__.get("_fixpoint_count", 0) + 1
    reached, rank = {}, {}
    for i, y in enumerate(order):
        if y in incoming:
            reached[y] = z3.Bool(f"connected#{number}[{i}]")
            rank[y] = z3.Int(f"connected#{number}.rang[{i}]")
        else:                     # reached only as a start
            reached[y] = start_guard.get(y, False)
    for y in order:
        if y not in incoming:
            continue
        start = start_guard.get(y, False)
        if not (is_const(start) and not start):
            rules.append(z3.Implies(as_bool(start), reached[y]))
        support = [start]
        for x, g in incoming[y]:
            step = AND(reached[x], g)
            if is_const(step) and not step:
                continue
            rules.append(z3.Implies(as_bool(step), reached[y]))
            support.append(AND(step, rank[x] < rank[y]) if x in rank else step)
        rules.append(z3.Implies(reached[y], as_bool(OR(*support))))
    for x, g in leaving:
        out_of_window = AND(reached[x], g)
        if not (is_const(out_of_window) and not out_of_window):
            rules.append(as_bool(NOT(out_of_window)))
    enc.defined.extend(rules)
    result = [(reached[y], y) for y in order if not (is_const(reached[y]) and not reached[y])]
    cache[key] = (result, starts, env)        # keeps the terms of the key alive: their ids stay theirs
    return result


def _too_large(e: ast.Connected, values: int, each: int, limit: int):
    raise TooLarge(f"connected(…) on a symbolic state: the values it may reach, each with the next values it may "
                      f"have in some state, would range over more than {limit:,} elements (the limit of one Z3 "
                      f"encoding): at least {values:,} values, about {each:,} elements each", e.span)


# ---------------------------------------------------------------- path

@_on(ast.Path)
def _path(enc, e: ast.Path, env):
    """`path(…)` on constants.  Through a relation that depends on a symbolic state it is not encoded: the
    interpreter's answer is one shortest sequence, the first the breadth-first search meets (its starts and
    each ``next`` in their order), and which one that is depends on the order the search met every value
    before it, which the fixpoint above does not describe."""
    starts = _starts(enc, enc.expr(e.start, env), e.start.span)
    goals = _starts(enc, enc.expr(e.goal, env), e.goal.span)
    if not all(is_const(g) for g, _ in starts + goals):
        raise Unsupported("path(…) between values not known in advance", e.span)
    try:
        path = shortest_path([s for g, s in starts if g], [x for g, x in goals if g],
                             lambda n: _constant_successors(enc, e.var, e.step, env, n, e.step.span))
    except TooFar:
        raise Unsupported("path(…) visited more values than a search may visit", e.span) from None
    except _Symbolic:
        raise Unsupported("path(…) through next values that depend on a symbolic state or on the move: the "
                          "shortest sequence it gives is the first one a breadth-first search meets, and which "
                          "one that is is not encoded", e.span) from None
    return [(True, x) for x in path]
