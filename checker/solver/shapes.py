"""encode, continued: grids, records, searches and the union/collect aggregates, for Z3.

Encoded values: a cell is an integer (as in the interpreter); a record is a Python tuple of its fields'
encodings (so a record whose fields are known folds to a constant tuple).  A built-in applied to a
value with a known, finite set of possible values (a move's binder, a cell read from the state…) is
computed for each of them, as an ``If`` chain whose leaves are constants — the values it can take are
known in turn.  The searches, `connected(…)` and `path(…)`, are in :mod:`checker.solver.searches`.
Handlers register in the table of :mod:`checker.solver.formulas`; ``enc`` is always the
:class:`checker.solver.encode.Encoder`, which imports this module (so this one does not import it).
"""

from __future__ import annotations

import itertools

import z3

from checker.front import ast
from checker.solver.formulas import AND, ITE, NONE, OR, Unsupported, is_const
from checker.front.types import GridT, KindT, Opt, RecordT, Ty

__all__ = ["MISSING", "known", "call", "record_field", "aggregate", "fresh_record", "select_shaped", "plain",
           "encoded", "shown", "MAX_COMBINATIONS", "WINDOW", "window", "symbolic_cell", "field_domain",
           "record_values"]

MISSING = object()
MAX_COMBINATIONS = 4096      # values of a symbolic record (or cell pair) enumerated before giving up
WINDOW = 2                   # a symbolic state uses the cells within WINDOW rows and columns of a grid's centre


def window(grid) -> list[int]:
    """The cells of ``grid`` a symbolic state ranges over (its centre and those around it)."""
    return list(grid.within(WINDOW))


def field_domain(enc, ty: Ty) -> tuple | None:
    """The values a symbolic cell or field of a record of type ``ty`` ranges over, when they are few (None: an
    integer).  A card in a record is its definition, as in the interpreter."""
    optional = isinstance(ty, Opt)
    inner = ty.inner if optional else ty
    if isinstance(inner, GridT):
        values = tuple(window(enc.E.grids[inner.name]))
    elif isinstance(inner, KindT):
        values = tuple(d for d, k in enc.E.def_kind.items() if k == inner.name)
    elif inner.__class__.__name__ == "EnumT":
        values = tuple(range(len(enc.enum_names[inner.name])))
    else:
        return None
    return values + ((NONE,) if optional else ())


def record_values(enc, ty: RecordT, limit: int) -> tuple | None:
    """Every value of a record type, as the interpreter holds them (a card field is a definition, a cell one
    of the window's), when each field ranges over few values and there are at most ``limit`` in all; None
    otherwise (a field that is an integer, or too many)."""
    per_field = []
    for fty in _field_types(enc, ty.name):
        optional = isinstance(fty, Opt)
        inner = fty.inner if optional else fty
        if isinstance(inner, RecordT):
            values = record_values(enc, inner, limit)
        elif inner.__class__.__name__ == "Prim" and str(inner) == "Bool":
            values = (False, True)
        else:
            values = field_domain(enc, inner)
        if values is None:
            return None
        per_field.append(values + ((NONE,) if optional else ()))
    size = 1
    for values in per_field:
        size *= len(values)
    return tuple(itertools.product(*per_field)) if size <= limit else None


def symbolic_cell(cells, key: tuple, ty: Ty, label: str):
    """A cell of a symbolic state holding a cell of a grid or a record (one Z3 constant per field), with the
    values it can take recorded."""
    enc = cells.enc
    if isinstance(ty, GridT):
        v = cells._cell(key, "int", label)
        remember(enc, v, field_domain(enc, ty))
        return v
    out = []
    for f in enc.p.records[ty.name].fields:
        fty = enc.resolve(f.type)
        sort = "bool" if fty.__class__.__name__ == "Prim" and str(fty) == "Bool" else "int"
        v = cells._cell(key + (f.name,), sort, f"{label}.{f.name}")
        values = field_domain(enc, fty)
        if values is not None and sort == "int":
            remember(enc, v, values)
        out.append(v)
    return tuple(out)


# ---------------------------------------------------------------- values

def plain(enc, value, ty: Ty):
    """An encoded cell or record → the interpreter's value (MISSING: another type)."""
    return _fieldwise(enc, value, ty, enc.to_runtime)


def encoded(enc, value, ty: Ty):
    """The interpreter's cell or record → its encoding (MISSING: another type)."""
    return _fieldwise(enc, value, ty, enc.from_runtime)


def _fieldwise(enc, value, ty: Ty, convert):
    if isinstance(ty, GridT):
        return value
    if isinstance(ty, RecordT) and isinstance(value, tuple):
        return tuple(convert(v, t) for v, t in zip(value, _field_types(enc, ty.name)))
    return MISSING


def shown(enc, value, ty: Ty) -> str | None:
    if isinstance(ty, GridT):
        return enc.E.grids[ty.name].show(value) if is_const(value) else str(value)
    if isinstance(ty, RecordT) and isinstance(value, tuple):
        parts = [enc.show(v, t) for v, t in zip(value, _field_types(enc, ty.name))]
        return f"{ty.name}({', '.join(parts)})"
    return None


def remember(enc, v, values: tuple) -> None:
    """Record the values ``v`` can take.  ``v`` is kept alive with its record: Z3 reuses the ids of terms
    that are gone, and a recycled id must not find another term's values."""
    enc.domains[v.get_id()] = values
    enc._alive.append(v)


def _field_types(enc, record: str) -> list[Ty]:
    cached = enc.__dict__.setdefault("_record_fields", {})
    if record not in cached:
        cached[record] = [enc.resolve(f.type) for f in enc.p.records[record].fields]
    return cached[record]


def known(enc, v) -> tuple | None:
    """The constants ``v`` can be, when they are known (None otherwise)."""
    if isinstance(v, tuple):
        per_field = [known(enc, x) for x in v]
        if any(f is None for f in per_field):
            return None
        size = 1
        for f in per_field:
            size *= len(f)
        if size > MAX_COMBINATIONS:
            return None
        return tuple(itertools.product(*per_field))
    if is_const(v):
        return (v,)
    found = enc.domains.get(v.get_id())
    if found is not None:
        return found
    if z3.is_app_of(v, z3.Z3_OP_ITE):
        a, b = known(enc, v.arg(1)), known(enc, v.arg(2))
        if a is None or b is None:
            return None
        out = tuple(dict.fromkeys(a + b))
        remember(enc, v, out)
        return out
    if z3.is_int_value(v):
        return (v.as_long(),)
    if z3.is_app_of(v, z3.Z3_OP_MOD) and z3.is_int_value(v.arg(1)) and 0 < v.arg(1).as_long() <= MAX_COMBINATIONS:
        out = tuple(range(v.arg(1).as_long()))          # `rotate` of a value whose values are not known
        remember(enc, v, out)
        return out
    return _evaluated(enc, v)


def _evaluated(enc, v) -> tuple | None:
    """The values of a term over symbolic values whose possible values are known (``3 * r`` for a rotation
    ``r`` in 0..3), by substituting each combination."""
    free = _constants(v)
    domains = [enc.domains.get(x.get_id()) for x in free]
    if not free or any(d is None for d in domains):
        return None
    size = 1
    for d in domains:
        size *= len(d)
    if size > MAX_COMBINATIONS:
        return None
    out = []
    for combo in itertools.product(*domains):
        value = z3.simplify(z3.substitute(v, *[(x, _literal(c)) for x, c in zip(free, combo)]))
        if z3.is_int_value(value):
            out.append(value.as_long())
        elif z3.is_true(value) or z3.is_false(value):
            out.append(z3.is_true(value))
        else:
            return None
    found = tuple(dict.fromkeys(out))
    remember(enc, v, found)
    return found


def _constants(v) -> list:
    """The uninterpreted constants a term is built from."""
    seen, out, stack = set(), [], [v]
    while stack:
        t = stack.pop()
        if t.get_id() in seen:
            continue
        seen.add(t.get_id())
        if z3.is_const(t) and t.decl().kind() == z3.Z3_OP_UNINTERPRETED:
            out.append(t)
        else:
            stack.extend(t.children())
    return out


def _literal(c):
    return z3.BoolVal(c) if isinstance(c, bool) else z3.IntVal(c)


def _lift(enc, args: list, fn, span, what: str):
    """``fn`` applied to arguments some of which are symbolic: an If chain over their known values."""
    domains = []
    for a in args:
        values = known(enc, a)
        if values is None:
            raise Unsupported(f"{what} of a value not known in advance (its possible values are not a known, "
                              f"finite set here)", span)
        domains.append(values)
    out = None
    results = []
    for combo in itertools.product(*domains):
        r = NONE if any(isinstance(c, int) and c == NONE for c in combo) else fn(*combo)
        results.append(r)
        cond = AND(*(enc.eq(a, c) for a, c in zip(args, combo) if not is_const(a)))
        out = r if out is None else ITE(cond, r, out)
    if out is not None and not is_const(out) and not isinstance(out, tuple) and all(is_const(r) for r in results):
        remember(enc, out, tuple(dict.fromkeys(results)))
    return NONE if out is None else out


def _lifted(enc, built_in: tuple, args: list, fn, span, what: str):
    """:func:`_lift`, once per encoder for each built-in and arguments: the same If chain, not built again (a
    question's quantities apply `row`, `column`, `step` and `rotate` to the same few symbolic cells over and
    over: Carcassonne's dead-rule batch made 46,848 chains of 1,044 kinds).  A step that leaves the grid is
    not kept: it raises each time, as before."""
    cache = enc.__dict__.setdefault("_lifted", {})
    key = (built_in, tuple(enc.key(a) for a in args))
    hit = cache.get(key)
    if hit is None:
        hit = cache[key] = (_lift(enc, args, fn, span, what), args)   # keeps the arguments alive: their ids stay theirs
    return hit[0]


def fresh_record(enc, name: str, ty: RecordT, domain: list):
    """A symbolic record ranging over ``domain`` (guarded constant tuples): a selector, and each field an If
    chain over the candidates.  Returns (record, the condition that it is one of them)."""
    candidates = [(g, x) for g, x in domain if not (is_const(g) and not g)]
    if any(not isinstance(x, tuple) or not all(is_const(f) for f in x) for _, x in candidates):
        raise Unsupported(f"a choice among {ty.name} values not known in advance")
    if not candidates:
        return tuple(NONE for _ in _field_types(enc, ty.name)), False
    selector = z3.Int(f"{name}#")
    remember(enc, selector, tuple(range(len(candidates))))
    inside = OR(*(AND(g, selector == i) for i, (g, _) in enumerate(candidates)))
    fields = []
    for k in range(len(_field_types(enc, ty.name))):
        out = candidates[-1][1][k]
        for i in range(len(candidates) - 2, -1, -1):
            out = ITE(selector == i, candidates[i][1][k], out)
        if not is_const(out):
            remember(enc, out, tuple(dict.fromkeys(x[k] for _, x in candidates)))
        fields.append(out)
    return tuple(fields), inside


def select_shaped(enc, index, read):
    """``read(k)`` at a record or cell index that may be symbolic: an If chain over its known values."""
    values = known(enc, index)
    if values is None:
        raise Unsupported("a var or zone indexed by a cell or record not known in advance")
    out = None
    for k in values:
        v = read(k)
        out = v if out is None else ITE(enc.eq(index, k), v, out)
    return NONE if out is None else out


# ---------------------------------------------------------------- built-ins

def call(enc, e: ast.Call, env: dict):
    """A grid built-in, `rotate`, or a record's constructor; MISSING for other calls."""
    p = enc.p
    if e.func in p.records:
        out = []
        for f, arg in zip(p.records[e.func].fields, e.args):
            v = enc.expr(arg, env)
            ty = enc.resolve(f.type)
            inner = ty.inner if isinstance(ty, Opt) else ty
            out.append(enc.defof(v, inner.name) if isinstance(inner, KindT) else v)
        return tuple(out)
    if e.func == "center":
        return enc.E.grids[e.args[0].id].center()
    if e.func == "rotate":
        ty = enc.type_of(e.args[0])
        n = len(enc.enum_names[ty.name])
        v, k = enc.expr(e.args[0], env), enc.expr(e.args[1], env)
        if is_const(v) and is_const(k):
            return (v + k) % n
        if known(enc, v) is not None and known(enc, k) is not None:
            return _lifted(enc, ("rotate", n), [v, k], lambda a, b: (a + b) % n, e.span, "rotate(…)")
        return (v + k) % n
    if e.func in ("row", "column", "step"):
        grid = enc.E.grids[enc.type_of(e.args[0]).name]
        cell = enc.expr(e.args[0], env)
        if e.func == "row":
            return _lifted(enc, ("row", grid.name), [cell], grid.row, e.span, "row(…)") if not is_const(cell) \
                else grid.row(cell)
        if e.func == "column":
            return _lifted(enc, ("column", grid.name), [cell], grid.column, e.span, "column(…)") \
                if not is_const(cell) else grid.column(cell)
        names = enc.enum_names[grid_enum(enc, grid.name)]
        d = enc.expr(e.args[1], env)

        def step(c, k):
            if not (0 <= k < len(names) and grid.contains(c)):
                return NONE
            nxt = grid.step(c, names[k])
            if nxt is None:
                raise Unsupported(f"step({grid.show(c)}, {names[k]}) leaves the grid {grid.name}", e.span)
            return nxt
        if is_const(cell) and is_const(d):
            return step(cell, d)
        return _lifted(enc, ("step", grid.name), [cell, d], step, e.span, "step(…)")
    return MISSING


def grid_enum(enc, grid: str) -> str:
    return enc.p.grids[grid].directions[0]


def record_field(enc, e: ast.Attr, env: dict):
    ty = enc.type_of(e.obj)
    if not isinstance(ty, RecordT):
        return MISSING
    value = enc.expr(e.obj, env)
    if not isinstance(value, tuple):
        raise Unsupported(f"reading .{e.name} of a {ty.name} that may be none", e.span)
    names = [f.name for f in enc.p.records[ty.name].fields]
    return value[names.index(e.name)]


# ---------------------------------------------------------------- union and collect

def _hashable(v):
    if isinstance(v, list):
        if not all(is_const(g) for g, _ in v):
            return None
        return frozenset(_hashable(x) for g, x in v if g)
    if isinstance(v, tuple):
        return v if all(is_const(x) for x in v) else None
    return v if is_const(v) else None


def _distinct(enc, pairs: list, span):
    """Guarded elements, one entry per constant value (guards joined with or); a symbolic element whose
    possible values are known stands for each of them, guarded by being it."""
    merged: dict = {}
    order = []
    out_symbolic = []
    expanded = []
    for g, x in pairs:
        values = None if isinstance(x, list) or _hashable(x) is not None else known(enc, x)
        if values is not None:
            expanded.extend((AND(g, enc.eq(x, c)), c) for c in values)
        else:
            expanded.append((g, x))
    for g, x in expanded:
        if is_const(g) and not g:
            continue
        key = _hashable(x)
        if key is None:
            out_symbolic.append((g, x))
            continue
        if key not in merged:
            merged[key] = (g, x)
            order.append(key)
        else:
            merged[key] = (OR(merged[key][0], g), merged[key][1])
    if out_symbolic:
        raise Unsupported("union or collect of values not known in advance (they cannot be told apart)", span)
    return [merged[k] for k in order]


def aggregate(enc, e: ast.Aggregate, env: dict) -> list:
    coll = enc.coll(e.coll, env)
    local = dict(env)
    pairs = []
    for g, x in coll:
        if is_const(g) and not g:
            continue
        local[e.var] = x
        v = enc.expr(e.body, local)
        if e.kind == "collect":
            pairs.append((g, v))
        else:
            if not isinstance(v, list):
                raise Unsupported("union(…) of something that is not a collection", e.body.span)
            pairs.extend((AND(g, h), y) for h, y in v)
    return _distinct(enc, pairs, e.span)
