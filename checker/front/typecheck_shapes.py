"""typecheck, continued: grids, records and searches through a relation.

- a ``grid`` declares a type of cells; ``step(c, d)``, ``row(c)``, ``column(c)``, ``center(G)``
  are its built-ins, and ``rotate(e, k)`` turns any enum value ``k`` places round its enum;
- a ``record`` declares a type of values made of named fields: ``R(a, b)`` builds one, ``r.field``
  reads a field;
- ``connected(x from s via e)`` and ``path(x from s to g via e)`` follow a relation; ``union`` and
  ``collect`` are aggregates;

The handlers are registered in :mod:`checker.front.typecheck_core`'s tables; :mod:`checker.front.declarations`
calls :func:`check_grid` and :func:`check_record`.
"""

from __future__ import annotations

from checker.front import ast
from checker.base.diagnostics import Note
from checker.base.grids import DIRECTIONS, MAX_CELLS
from checker.front.program import did_you_mean
from checker.front.typecheck_core import Checker, Env, _expr
from checker.front.types import ERROR, INT, NONE, Coll, EnumT, GridT, Opt, RecordT, Ty, assignable, element

__all__ = ["SHAPE_BUILTINS", "unbounded_record", "builtin_call", "record_call", "record_field", "check_grid", "check_record",
           "aggregate_result"]

SHAPE_BUILTINS = ("step", "row", "column", "center", "rotate")


# ---------------------------------------------------------------- declarations


def check_grid(c: Checker, g: ast.GridDecl) -> None:
    if g.width < 1 or g.height < 1 or g.width * g.height > MAX_CELLS:
        c.err("E0304", f"a grid has from 1 to {MAX_CELLS} cells; {g.width} by {g.height} is "
                       f"{g.width * g.height}", g.span, hint="every cell must be reachable by a bounded search")
    name, span = g.directions
    enum = c.p.enums.get(name)
    if enum is None:
        c.err("E0202", f"unknown enum '{name}' for the directions of {g.name}", span, subject=name,
              hint=did_you_mean(name, c.p.enums) or "declare `enum Direction { up, right, down, left }`")
    elif len(enum.members) != DIRECTIONS:
        c.err("E0301", f"the directions of a grid are four (clockwise from up); '{name}' has "
                       f"{len(enum.members)}", span, notes=[Note(f"'{name}' is declared here", enum.span)])


def finite(c: Checker, ty: Ty, seen: frozenset = frozenset()) -> bool:
    """Can a record field hold this type (a single value, not a collection)?"""
    if isinstance(ty, Opt):
        return finite(c, ty.inner, seen)
    if isinstance(ty, RecordT):
        return ty.name not in seen
    return not isinstance(ty, Coll)


def unbounded_record(program, name: str, seen: frozenset = frozenset()) -> str | None:
    """The first field of record ``name`` (through nested records) that may hold any of infinitely many
    values (an Int or a Text), as ``record.field``; None when every field has finitely many values."""
    decl = program.records.get(name)
    if decl is None or name in seen:
        return None
    for f in decl.fields:
        inner = f.type.inner if isinstance(f.type, ast.OptionalType) else f.type
        if isinstance(inner, ast.TypeName):
            if inner.name in ("Int", "Text"):
                return f"{name}.{f.name}"
            found = unbounded_record(program, inner.name, seen | {name})
            if found:
                return found
    return None


def check_record(c: Checker, r: ast.RecordDecl) -> None:
    seen: dict[str, ast.Param] = {}
    for f in r.fields:
        if f.name in seen:
            c.err("E0201", f"field '{f.name}' is declared twice in {r.name}", f.span,
                  notes=[Note("first declared here", seen[f.name].span)])
        seen.setdefault(f.name, f)
        ty = c.resolve_type(f.type)
        if isinstance(ty, Coll):
            c.err("E0301", f"a record's field holds one value, not a {ty}", f.span,
                  hint="declare a zone or a quantity for a collection")
        elif isinstance(ty, RecordT) and _contains(c, ty.name, r.name, set()):
            c.err("E0303", f"{r.name} contains itself through field '{f.name}'", f.span,
                  hint="a record's values must be finite: no field may lead back to the record")


def _contains(c: Checker, name: str, target: str, seen: set) -> bool:
    if name == target:
        return True
    if name in seen or name not in c.p.records:
        return False
    seen.add(name)
    for f in c.p.records[name].fields:
        ty = c.resolve_type(f.type)
        ty = ty.inner if isinstance(ty, Opt) else ty
        if isinstance(ty, RecordT) and _contains(c, ty.name, target, seen):
            return True
    return False


# ---------------------------------------------------------------- built-ins and records


def builtin_call(c: Checker, e: ast.Call, env: Env) -> Ty:
    n = len(e.args)
    if e.func == "center":
        if n != 1 or not isinstance(e.args[0], ast.Name) or e.args[0].id not in c.p.grids:
            return c.err("E0302", "center(…) takes the name of a grid", e.span,
                         hint=f"for example center({next(iter(c.p.grids), 'Grid')})")
        return GridT(e.args[0].id)
    arity = {"step": 2, "row": 1, "column": 1, "rotate": 2}[e.func]
    if n != arity:
        return c.err("E0302", f"{e.func}(…) takes {arity} argument(s), {n} given", e.span)
    if e.func == "rotate":
        value = c.expr(e.args[0], env)
        c.expect(e.args[1], INT, env, "the number of places to turn")
        if value is ERROR:
            return ERROR
        if not isinstance(value, EnumT):
            return c.err("E0301", f"rotate(…) turns a value of an enum, not {value}", e.args[0].span)
        return value
    cell = c.expr(e.args[0], env)
    if cell is not ERROR and not isinstance(cell, GridT):
        return c.err("E0301", f"{e.func}(…) takes a cell of a grid, not {cell}", e.args[0].span,
                     hint="a value of optional type must be tested against none first" if isinstance(cell, Opt)
                     else None)
    if e.func in ("row", "column"):
        return INT
    grid = c.p.grids.get(cell.name) if isinstance(cell, GridT) else None
    want = EnumT(grid.directions[0]) if grid is not None else ERROR
    c.expect(e.args[1], want, env, "the direction of step")
    return cell


def record_call(c: Checker, e: ast.Call, env: Env, decl: ast.RecordDecl) -> Ty:
    if env.config_only:
        return c.err("E0603", f"'{e.func}' values are game state; a constraint sees only the configuration", e.span)
    c.args("record", e.func, decl.fields, e.args, env, e.span)
    return RecordT(decl.name)


def record_field(c: Checker, e: ast.Attr, base: RecordT) -> Ty:
    decl = c.p.records.get(base.name)
    if decl is None:
        return ERROR
    for f in decl.fields:
        if f.name == e.name:
            return c.resolve_type(f.type)
    return c.err("E0206", f"{base.name} has no field '{e.name}'", e.span,
                 hint=did_you_mean(e.name, [f.name for f in decl.fields])
                 or f"fields: {', '.join(f.name for f in decl.fields)}")


def aggregate_result(c: Checker, e: ast.Aggregate, inner: Env) -> Ty:
    """``union(x in c: collection)`` and ``collect(x in c: value)``."""
    if e.body is None or e.body_is_where:
        return c.err("E0302", f"{e.kind}(x in c: …) needs a value after ':'", e.span)
    body = c.expr(e.body, inner)
    if e.kind == "collect":
        return ERROR if body is ERROR else Coll(body)
    elem = element(body)
    if elem is None:
        return c.err("E0301", f"union(…) joins collections; this is {body}", e.body.span,
                     hint="collect(x in c: value) makes the set of single values")
    return Coll(elem)


# ---------------------------------------------------------------- searches


def _follow(c: Checker, var: str, var_span, start: ast.Expr, step: ast.Expr, env: Env, what: str) -> Ty:
    """The element type a search ranges over, from its start; checks the step under ``x``."""
    begin = c.expr(start, env)
    elem = element(begin) if isinstance(begin, Coll) else begin
    if isinstance(elem, Opt):
        elem = elem.inner
    if elem == NONE:
        return c.err("E0301", f"{what} cannot start from none alone", start.span)
    inner = env.bind(var, elem)
    got = c.expr(step, inner)
    nxt = element(got) if isinstance(got, Coll) else got
    if isinstance(nxt, Opt):
        nxt = nxt.inner
    if elem is not ERROR and got is not ERROR and nxt != NONE and not assignable(nxt, elem):
        c.err("E0301", f"{what} follows a relation from {elem} to {elem}; this step gives {got}", step.span,
              hint=f"`via` gives the next values of {var}: a {elem}, a {elem}? or a set of {elem}")
    return elem


@_expr(ast.Connected)
def _(c: Checker, e: ast.Connected, env: Env, want):
    elem = _follow(c, e.var, e.var_span, e.start, e.step, env, "connected(…)")
    return Coll(elem) if elem is not ERROR else ERROR


@_expr(ast.Path)
def _(c: Checker, e: ast.Path, env: Env, want):
    elem = _follow(c, e.var, e.var_span, e.start, e.step, env, "path(…)")
    goal = c.expr(e.goal, env)
    target = element(goal) if isinstance(goal, Coll) else goal
    target = target.inner if isinstance(target, Opt) else target
    if elem is not ERROR and goal is not ERROR and not assignable(target, elem):
        c.err("E0301", f"the goal of path(…) should be a {elem} (or a set of them), but this is {goal}",
              e.goal.span)
    return Coll(elem, True) if elem is not ERROR else ERROR
