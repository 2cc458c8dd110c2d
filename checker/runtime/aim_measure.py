"""The endings of a game, read from its spec, and how far each is from happening on a state (the measure of
:mod:`checker.runtime.aim`, whose docstring says what is measured and how)."""

from __future__ import annotations

import dataclasses

from checker.front import ast
from checker.front.effects import Effects
from checker.runtime.codegen import Scope
from checker.runtime.compile import bound_names
from checker.runtime.state import SpecRuntimeError

__all__ = ["Ending", "endings", "engine_endings", "resolve", "distance", "distances"]

_COMPARE = ("==", "!=", "<", "<=", ">", ">=")
_OPPOSITE = {"==": "!=", "!=": "==", "<": ">=", "<=": ">", ">": "<=", ">=": "<"}


@dataclasses.dataclass(frozen=True)
class Ending:
    """One way the game ends: ``var`` set to ``value`` (named ``name``) where ``guards`` hold, for some value
    of each of ``loops``."""
    name: str
    var: str
    value: str
    where: str                                           # the procedure or action that sets it
    guards: tuple[tuple[ast.Expr, bool], ...]            # (condition, the branch that holds the ending)
    loops: tuple[tuple[str, ast.Expr], ...]              # enclosing `for` loops, outermost first
    unknown: tuple[ast.Expr, ...]                        # guards that read a local name: not measured
    span: object = None

    @property
    def partial(self) -> bool:
        return bool(self.unknown)


def _end_vars(program, flow: str | None) -> set[str]:
    procedure = program.procedures.get(flow) if flow else None
    if procedure is None:
        return set()
    loops = [s for s in procedure.body if isinstance(s, ast.Repeat)]
    return ast.names_in(loops[-1].until) & set(program.vars) if loops else set()


def _constant_name(e: ast.Expr, program) -> str | None:
    if isinstance(e, ast.Name) and e.id in program.enum_members:
        return e.id
    if isinstance(e, ast.BoolLit) and e.value:
        return "true"
    return None


def endings(program, flow: str | None) -> list[Ending]:
    """Every ending of the game whose flow procedure is ``flow`` (see the module's docstring), in the spec's order."""
    found: list[Ending] = []
    end_vars = _end_vars(program, flow)
    if not end_vars:
        return found
    for where, params, body in _bodies(program):
        local = set(params) | set(bound_names(body))

        def visit(stmts, guards, loops):
            for s in stmts:
                if isinstance(s, ast.SetVar) and s.target.name in end_vars and s.target.index is None:
                    value = _constant_name(s.value, program)
                    if value is not None:
                        free = local - {v for v, _ in loops}
                        unknown = tuple(g for g, _ in guards if ast.names_in(g) & free)
                        name = s.target.name if value == "true" else value
                        found.append(Ending(name, s.target.name, value, where,
                                            tuple(g for g in guards if g[0] not in unknown), tuple(loops),
                                            unknown, s.span))
                elif isinstance(s, ast.If):
                    visit(s.then, guards + [(s.cond, True)], loops)
                    visit(s.else_, guards + [(s.cond, False)], loops)
                elif isinstance(s, ast.For):
                    visit(s.body, guards, loops + [(s.var, s.coll)])
                elif isinstance(s, ast.Repeat):
                    visit(s.body, guards, loops)
        visit(body, [], [])
    return found


def _bodies(program):
    """Every body a game runs, as (its name, the local names it starts with, its statements): the procedures, the
    actions that have one, and the cards' powers (``"card".power``: ``me``, ``this`` and the window's names)."""
    for name, decl in program.procedures.items():
        yield name, tuple(p.name for p in decl.params), decl.body
    for name, decl in program.actions.items():
        if getattr(decl, "body", None):
            yield name, tuple(p.name for p in decl.params), decl.body
    for card in program.cards.values():
        for power in card.powers:
            window = tuple(n for n, _ in power.window[1]) if power.window else ()
            yield f'"{card.name}".{power.name}', ("me", "this") + window, power.body


def resolve(engine, name: str) -> list[Ending]:
    """The endings called ``name`` in ``engine``'s game (one name may be set in several places); ValueError,
    naming the known ones, when there is none."""
    known = engine_endings(engine)
    chosen = [e for e in known if e.name == name]
    if not chosen:
        names = ", ".join(dict.fromkeys(e.name for e in known)) or "none"
        raise ValueError(f"no ending {name!r} in this game (its endings: {names})")
    return chosen


def engine_endings(engine) -> list[Ending]:
    """The endings of ``engine``'s game, found once per engine."""
    found = getattr(engine, "_aim_endings", None)
    if found is None:
        found = engine._aim_endings = endings(engine.program, engine.flow)
    return found


# ---------------------------------------------------------------- measuring
class _Measure:
    """An ending's conditions compiled for ``engine``: each leaf of a condition (a comparison's sides, any other
    condition) as an ``env -> value`` function, the loops' collections likewise."""

    def __init__(self, engine, ending: Ending):
        self.engine = engine
        self.loop_vars = [v for v, _ in ending.loops]
        self.scope = Scope({v: f"env[{v!r}]" for v in self.loop_vars})
        gen = engine.compiler.gen
        self.loops = [(v, gen.env_function(coll, self.scope)) for v, coll in ending.loops]
        self.guards = [(self._tree(g, self.scope, 0), want) for g, want in ending.guards]

    def _tree(self, e: ast.Expr, scope: Scope, depth: int):
        if isinstance(e, ast.Binary) and e.op in ("and", "or"):
            return (e.op, self._tree(e.left, scope, depth), self._tree(e.right, scope, depth))
        if isinstance(e, ast.Unary) and e.op == "not":
            return ("not", self._tree(e.operand, scope, depth))
        gen = self.engine.compiler.gen
        if isinstance(e, ast.Aggregate) and e.kind in ("all", "any") and e.body is not None:
            key = f"{e.var}#{depth}.{id(e)}"
            inner = dataclasses.replace(scope, fixed={**scope.fixed, e.var: f"env[{key!r}]"})
            return (e.kind, key, gen.env_function(e.coll, scope), self._tree(e.body, inner, depth))
        if isinstance(e, ast.Binary) and e.op in _COMPARE:
            return ("cmp", e.op, gen.env_function(e.left, scope), gen.env_function(e.right, scope))
        inner = self._quantity(e, depth)
        if inner is not None:
            params, body = inner
            return ("call", [gen.env_function(a, scope) for a in e.args], params,
                    self._tree(body, Scope({x: f"env[{x!r}]" for x in params}), depth + 1))
        return ("leaf", gen.env_function(e, scope))

    def _quantity(self, e: ast.Expr, depth: int):
        """A condition that calls a quantity whose value is its own formula (no rule gives it another): that
        formula, measured with the call's arguments (a few calls deep), so that ``complète(p)`` is as far as the
        comparison it stands for."""
        if not isinstance(e, ast.Call) or depth >= _DEPTH:
            return None
        decl = self.engine.program.quantities.get(e.func)
        if decl is None or decl.default is None or self.engine.quantities[e.func][2:] != ([], []):
            return None
        params = [x.name for x in decl.params]
        return (params, decl.default) if len(params) == len(e.args) else None

    def __call__(self) -> int:
        """The least distance over the loops' values (0: the ending's conditions hold now)."""
        best = None
        for env in self._envs(0, {}):
            d = sum(_distance(tree, want, env) for tree, want in self.guards)
            if best is None or d < best:
                best = d
                if d == 0:
                    break
        return best if best is not None else _FAR

    def _envs(self, k: int, env: dict):
        if k == len(self.loops):
            yield env
            return
        var, coll = self.loops[k]
        try:
            values = list(coll(env))
        except SpecRuntimeError:        # a collection the state cannot give: nothing to run over
            values = []
        for value in values:
            yield from self._envs(k + 1, {**env, var: value})


class _Reads:
    """What a measure reads of the state (its vars and zones, found by :class:`checker.front.effects.Effects` through
    the quantities and the rules that give them values; the turn, the round and the powers' uses where it asks what
    is allowed), and its last few answers (for each player it measured for) with a copy of what it read then: a measure asked again on a state
    where none of it changed (the options of one decision that leave it alone) gives that answer without running."""

    def __init__(self, engine, exprs):
        reads = Effects(engine.program).reads_expr
        names: set = set()
        for e in exprs:
            names |= reads(e)
        self.vars = sorted(n for n in names if n in engine.program.vars)
        self.zones = sorted(n for n in names if n in engine.program.zones and n not in engine.program.vars)
        self.uses = any(isinstance(n, ast.Can) for e in exprs for n in ast.walk(e))
        self.last: dict = {}          # the measure's arguments -> [(what it read, its answer)], newest first

    def now(self, st) -> list:
        """A copy of what the measure reads on ``st``."""
        key = [(st.turn, st.round, dict(st.uses)) if self.uses else None]
        for name in self.vars:
            v = st.vars.get(name)
            key.append({k: (tuple(x) if x.__class__ is list else x) for k, x in v.items()} if isinstance(v, dict)
                       else tuple(v) if isinstance(v, list) else v)
        for name in self.zones:
            z = st.zones.get(name)
            key.append(tuple(z) if z.__class__ is list else
                       {i: tuple(c) for i, c in z.items() if c} if isinstance(z, dict) else z)
        return key

    def answer(self, st, extra, measure):
        """``measure()``, or one of its last answers for the same ``extra`` when what it reads is as it was then."""
        key = self.now(st)
        kept = self.last.setdefault(extra, [])
        for old, value in kept:
            if old == key:
                return value
        value = measure()
        kept.insert(0, (key, value))
        del kept[_KEPT:]
        return value


_KEPT = 3               # answers kept per measure and player: a decision's options often leave what it reads as one
                        # of the last few did


_DEPTH = 3              # quantities measured through, one inside another
_FAR = 10 ** 6          # an ending whose loops have nothing to run over


def _number(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _distance(tree, want: bool, env: dict) -> int:
    kind = tree[0]
    if kind == "and" or kind == "or":
        left, right = _distance(tree[1], want, env), _distance(tree[2], want, env)
        return left + right if (kind == "and") == want else min(left, right)
    if kind == "not":
        return _distance(tree[1], not want, env)
    if kind == "all" or kind == "any":
        # `all` is an `and` over the collection (its elements' distances add up), `any` an `or` (the least)
        try:
            values = list(tree[2](env))
        except SpecRuntimeError:
            return 1
        key, body = tree[1], tree[3]
        if (kind == "all") == want:
            return sum(_distance(body, want, {**env, key: v}) for v in values)
        return min((_distance(body, want, {**env, key: v}) for v in values), default=1)
    if kind == "call":
        try:
            inner = {x: f(env) for x, f in zip(tree[2], tree[1])}
        except SpecRuntimeError:
            return 1
        return _distance(tree[3], want, inner)
    if kind == "cmp":
        op = tree[1] if want else _OPPOSITE[tree[1]]
        try:
            a, b = tree[2](env), tree[3](env)
        except SpecRuntimeError:        # a side the state cannot give (a spec error in a hypothetical): not held
            return 1
        if _number(a) and _number(b):
            if op == "==":
                return abs(a - b)
            if op == "!=":
                return int(a == b)
            if op in ("<", "<="):
                return max(0, a - b + (op == "<"))
            return max(0, b - a + (op == ">"))
        # not both numbers: an equality of other values, or an order on a side that is none (`x != none and x >= 2`,
        # the second conjunct measured apart while `x` is none): not held
        return 0 if {"==": a == b, "!=": a != b}.get(op, False) else 1
    try:
        return 0 if bool(tree[1](env)) == want else 1
    except SpecRuntimeError:
        return 1


def _measures(engine) -> dict:
    found = getattr(engine, "_aim_measures", None)
    if found is None:
        found = engine._aim_measures = {}
    return found


def distance(engine, ending: Ending) -> int:
    """How far ``ending`` is from happening on ``engine``'s state now (see the module's docstring)."""
    measures = _measures(engine)
    measure = measures.get(id(ending))
    if measure is None:
        measure = measures[id(ending)] = _Measure(engine, ending)
        measure.reads = _Reads(engine, [g for g, _ in ending.guards] + [c for _, c in ending.loops])
    return measure.reads.answer(engine.st, None, measure)


def distances(engine) -> dict[str, int]:
    """Every ending's distance now, by name (the least over the places that set it)."""
    out: dict[str, int] = {}
    for ending in engine_endings(engine):
        d = distance(engine, ending)
        out[ending.name] = min(d, out.get(ending.name, d))
    return out

