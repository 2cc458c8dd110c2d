"""codegen, continued: Python source for grids, records, searches and the union/collect aggregates.

At run time a cell of a grid is an integer (see :mod:`checker.base.grids`), a record is a tuple of its
fields in declaration order (a card in a record is its definition: cards compare by name), and the
result of `connected(…)` is a tuple in the canonical order of :mod:`checker.base.graphs`.  The handlers
are registered in :mod:`checker.runtime.codegen`'s table by that module, which this one does not import
(``Generator`` in the annotations is :class:`checker.runtime.codegen.Generator`).
"""

from __future__ import annotations

from checker.front import ast
from checker.base.grids import Grid
from checker.base.graphs import TooFar, reachable, shortest_path
from checker.runtime.state import SpecRuntimeError
from checker.front.types import Coll, GridT, KindT, Opt, RecordT

__all__ = ["Steppers", "runtime_helpers", "record_fields", "shape_call", "record_attr", "aggregate", "show_value",
           "constant", "connected_source", "path_source"]


class Steppers:
    """One fast ``step`` per grid: a cell and a direction → the next cell (an error off the grid).
    The next cell in each direction is a table, made once per grid."""

    def __init__(self, grid: Grid):
        self.grid = grid
        self.tables = {d: [grid.step(c, d) for c in range(grid.cells)] for d in grid.directions}

    def __call__(self, cell: int, direction: str, span=None) -> int:
        nxt = self.tables[direction][cell]
        if nxt is None:
            g = self.grid
            raise SpecRuntimeError(f"step({g.show(cell)}, {direction}) leaves the grid {g.name} "
                                   f"({g.width} by {g.height}): declare a larger grid", span)
        return nxt


def _cards_by_name(engine):
    def_of = engine.def_of
    return lambda v: def_of.get(v, v) if isinstance(v, int) else v


def runtime_helpers(engine) -> dict:
    """The names the generated code of this module calls."""
    by_name = _cards_by_name(engine)

    def connected(starts, successors, span):
        try:
            return reachable(starts, successors)
        except TooFar:
            raise SpecRuntimeError("connected(…) reached more values than a search may visit", span) from None

    def connected_cards(starts, successors, span):
        try:
            return reachable(starts, successors, by_name)
        except TooFar:
            raise SpecRuntimeError("connected(…) reached more values than a search may visit", span) from None

    def path(starts, goals, successors, cards, span):
        try:
            return shortest_path(starts, goals, successors, by_name if cards else (lambda v: v))
        except TooFar:
            raise SpecRuntimeError("path(…) visited more values than a search may visit", span) from None

    def distinct(values, cards):
        if cards:
            seen = {}
            for v in values:
                seen.setdefault(by_name(v), v)
            return tuple(seen.values())
        return tuple(dict.fromkeys(values))

    def single(value):
        return () if value is None else (value,)

    return {"_connected": connected, "_connected_cards": connected_cards, "_path": path, "_distinct": distinct,
            "_one": single}


def record_fields(program, name: str) -> list[str]:
    return [f.name for f in program.records[name].fields]


def _is_card_type(ty) -> bool:
    ty = ty.inner if isinstance(ty, Opt) else ty
    return isinstance(ty, KindT)


# ==================================================================== built-ins

def shape_call(g, e: ast.Call, scope) -> str | None:
    """Source for a grid built-in, `rotate`, or a record's constructor; None for other calls."""
    p = g.p
    if e.func in p.records:
        parts = []
        for f, arg in zip(p.records[e.func].fields, e.args):
            src = g.expr(arg, scope)
            # a card in a record is its definition (cards compare by name)
            parts.append(f"DEF[{src}]" if _is_card_type(g.E.resolve_type(f.type)) else src)
        return "(" + "".join(x + ", " for x in parts) + ")"
    if e.func == "center":
        return repr(g.grids[e.args[0].id].center())
    if e.func == "rotate":
        ty = g.type_of(e.args[0])
        members = tuple(m.name for m in p.enums[ty.name].members)
        index = g.const({m: i for i, m in enumerate(members)}, "order")
        return f"{g.const(members, 'members')}[({index}[{g.expr(e.args[0], scope)}] + " \
               f"({g.expr(e.args[1], scope)})) % {len(members)}]"
    if e.func in ("row", "column", "step"):
        ty = g.type_of(e.args[0])
        grid = g.grids[ty.name]
        cell = g.expr(e.args[0], scope)
        if e.func == "row":
            return f"(({cell}) // {grid.width} - {(grid.height - 1) // 2})"
        if e.func == "column":
            return f"(({cell}) % {grid.width} - {(grid.width - 1) // 2})"
        steppers = g.__dict__.setdefault("steppers", {})          # one table per grid, shared by every call
        if grid.name not in steppers:
            steppers[grid.name] = g.const(Steppers(grid), f"step{grid.name}")
        stepper = steppers[grid.name]
        direction = g.expr(e.args[1], scope)
        call = f"{stepper}({cell}, {direction}, {g.const(e.span, 'span')})"
        if len(cell) + len(direction) > 240:
            return call
        # the table read inline; the call only for cell 0 or off the grid (it raises)
        tables = g.const(g.ns[stepper].tables, f"steps{grid.name}")
        return f"({tables}[{direction}][{cell}] or {call})"
    return None


def record_attr(g, e: ast.Attr, scope) -> str | None:
    ty = g.type_of(e.obj)
    if not isinstance(ty, RecordT):
        return None
    return f"({g.expr(e.obj, scope)})[{record_fields(g.p, ty.name).index(e.name)}]"


def aggregate(g, e: ast.Aggregate, scope) -> str:
    """`union(x in c: coll)` and `collect(x in c: value)`: distinct values, in the order first met."""
    coll = g.expr(e.coll, scope)
    x = g.fresh("x")
    inner = scope.with_fixed(e.var, x)
    ty = g.type_of(e)
    cards = isinstance(ty, Coll) and _is_card_type(ty.elem)
    if e.kind == "collect":
        return f"_distinct([{g.expr(e.body, inner)} for {x} in {coll}], {cards})"
    y = g.fresh("y")
    if isinstance(e.body, ast.Aggregate) and e.body.kind == "collect":
        # the union of collects: one pass (the union's own distinct keeps each value's first occurrence)
        return f"_distinct([{g.expr(e.body.body, inner.with_fixed(e.body.var, y))} for {x} in {coll} " \
               f"for {y} in {g.expr(e.body.coll, inner)}], {cards})"
    return f"_distinct([{y} for {x} in {coll} for {y} in {g.expr(e.body, inner)}], {cards})"


def _successors(g, var: str, step: ast.Expr, scope) -> str:
    x = g.fresh("x")
    body = g.expr(step, scope.with_fixed(var, x))
    if isinstance(g.type_of(step), Coll):
        return f"(lambda {x}: {body})"
    return f"(lambda {x}: _one({body}))"


def connected_source(g, e: ast.Connected, scope):
    starts = _values(g, e.start, scope)
    elem = g.type_of(e).elem if isinstance(g.type_of(e), Coll) else None
    helper = "_connected_cards" if _is_card_type(elem) else "_connected"
    return f"{helper}({starts}, {_successors(g, e.var, e.step, scope)}, {g.const(e.span, 'span')})"


def _values(g, e: ast.Expr, scope) -> str:
    """A value, an optional value or a collection, as a collection."""
    src = g.expr(e, scope)
    return src if isinstance(g.type_of(e), Coll) else f"_one({src})"


def path_source(g, e: ast.Path, scope):
    elem = g.type_of(e).elem if isinstance(g.type_of(e), Coll) else None
    return (f"_path({_values(g, e.start, scope)}, {_values(g, e.goal, scope)}, "
            f"{_successors(g, e.var, e.step, scope)}, {_is_card_type(elem)}, {g.const(e.span, 'span')})")


def show_value(engine, value, ty) -> str | None:
    """French text for a cell or a record (None: another type)."""
    if isinstance(ty, GridT):
        grid = engine.grids.get(ty.name)
        return grid.show(value) if grid is not None and isinstance(value, int) else str(value)
    if isinstance(ty, RecordT) and isinstance(value, tuple):
        decl = engine.program.records[ty.name]
        shown = [engine.show_typed(v, engine.resolve_type(f.type)) for f, v in zip(decl.fields, value)]
        return f"{ty.name}({', '.join(shown)})"
    return None


def constant(engine, e: ast.Expr):
    """A constant the engine can evaluate once: a set of constants, a grid's centre, a record of constants.
    Raises KeyError when ``e`` is none of these."""
    if isinstance(e, ast.SetLit):
        return tuple(engine._constant(x) for x in e.items)
    if isinstance(e, ast.Call) and e.func == "center" and e.args and isinstance(e.args[0], ast.Name) \
            and e.args[0].id in engine.grids:
        return engine.grids[e.args[0].id].center()
    if isinstance(e, ast.Call) and e.func in engine.program.records:
        return tuple(engine._constant(a) for a in e.args)
    raise KeyError(type(e).__name__)

