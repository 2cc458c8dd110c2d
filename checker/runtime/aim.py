"""Aiming at one of a game's endings: how far each ending is from happening, read from the spec alone.

A game's flow plays its rounds in a last top-level ``repeat … until C`` loop (:mod:`checker.runtime.outlook`);
the vars ``C`` reads are the game's *end vars*.  Every statement that sets an end var to a constant (``set fin =
tour_achevée``, ``set partie_finie = true``), in a procedure or an action, is an *ending*,
named by that constant (an enum member), or by the var when the constant is ``true``.  What makes it happen is
the conditions of the ``if`` statements around it: the condition of each ``if`` whose ``then`` branch holds it,
the negation of each whose ``else`` branch does (so an ``else if`` is checked after the ``if`` before it), over
every value of the ``for`` loops around it (the ending happens if it happens for one of them).

:func:`distance` measures how far those conditions are from holding, on the state as it is, by the shape of each
condition: a comparison of two numbers is as far as the numbers are apart (``a == b``: ``|a - b|``; ``a <= b``:
``a - b`` when above; ``not``, ``!=``, ``<``, ``>`` and ``>=`` alike), any other condition is 0 when it holds and
1 when it does not; ``and`` adds its sides' distances, ``or`` takes the least, ``not`` measures the opposite
condition; a condition that calls a quantity no rule gives another value is measured through the quantity's
formula (``complète(p)``, written ``taille(p) >= 7``, is as far as the districts ``p`` lacks).  An ending set
under ``count(x in réserve) == 0`` is as far as the cards left in ``réserve``; one set in the ``else`` of that
``if`` under ``ouvert and écart() <= 5`` is 1 while ``ouvert`` is false, plus how far ``écart()`` is above 5
(docs/simulate.md measures the bundled games' endings).  A condition that reads a local name the ending's
procedure binds other than its ``for`` loops (a parameter, a ``let``) cannot be measured on a state: it counts
0 and the ending is ``partial``; one that fails on the state (a spec error in a hypothetical) is not held (1).

:func:`progress` is what an aiming player adds to its valuation (``GreedyAgent(aim=…)``, ``MonteCarloAgent(aim=…)``):
the aimed ending should come first, so it gains a unit for each unit the aimed ending comes nearer, and for each
unit another ending goes further away while that one is not already further than the aimed one was when the
decision was asked (:func:`cap`: the others' distances are capped at the aimed one's then, plus 1; one cap for
all the options of a decision, so that coming nearer the aim is never worth less than staying).  The units are
the conditions' own (ramparts, tiles, districts): the measure is a heuristic, not a plan; nothing here knows a
game.
"""

from __future__ import annotations

import dataclasses

from checker.front import ast
from checker.runtime.codegen import Scope
from checker.runtime.compile import bound_names
from checker.runtime.state import SpecRuntimeError

__all__ = ["Ending", "endings", "distance", "distances", "progress", "cap", "ended_progress", "resolve", "reached",
           "REACHED"]

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
    bodies = [(name, decl.params, decl.body) for name, decl in program.procedures.items()]
    bodies += [(name, decl.params, decl.body) for name, decl in program.actions.items()
               if getattr(decl, "body", None)]

    for where, params, body in bodies:
        local = {p.name for p in params} | set(bound_names(body))

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
        holds = {"==": a == b, "!=": a != b}.get(op)
        if holds is None:
            holds = _ordered(op, a, b)
        return 0 if holds else 1
    try:
        return 0 if bool(tree[1](env)) == want else 1
    except SpecRuntimeError:
        return 1


def _ordered(op: str, a, b) -> bool:
    return {"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[op]


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
    return measure()


def distances(engine) -> dict[str, int]:
    """Every ending's distance now, by name (the least over the places that set it)."""
    out: dict[str, int] = {}
    for ending in engine_endings(engine):
        d = distance(engine, ending)
        out[ending.name] = min(d, out.get(ending.name, d))
    return out


def progress(engine, aim: str, cap: int | None = None) -> int:
    """What the aimed ending's player gains on the state now: minus the aimed ending's distance, plus each other
    ending's distance capped at ``cap`` (see the module's docstring; None: the aimed ending's distance plus 1 on
    this state)."""
    measured = distances(engine)
    if aim not in measured:
        resolve(engine, aim)            # the error naming the endings
    own = measured[aim]
    cap = own + 1 if cap is None else cap
    return -own + sum(min(d, cap) for name, d in measured.items() if name != aim)


def cap(engine, aim: str) -> int:
    """The cap of the other endings' distances for the options of a decision taken now: the aimed ending's distance
    now, plus 1 (one cap for every option, so that coming nearer the aim never lowers it)."""
    measured = distances(engine)
    if aim not in measured:
        resolve(engine, aim)
    return measured[aim] + 1


REACHED = 1000          # what an ended game is worth to an aiming player: + when it ended on the aim, - otherwise


def reached(engine, aim: str) -> bool:
    """Did the game, now ended, end on the aimed ending (its end var holds the ending's value)?"""
    for ending in resolve(engine, aim):
        value = engine.st.vars.get(ending.var)
        if value == (True if ending.value == "true" else ending.value):
            return True
    return False


def ended_progress(engine, aim: str) -> int:
    """:func:`progress` for a game that has ended: :data:`REACHED` when it ended on the aim, minus it otherwise
    (the distances of an ended game measure what its ending did, not what it was near)."""
    return REACHED if reached(engine, aim) else -REACHED
