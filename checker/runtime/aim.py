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
the conditions' own (ramparts, tiles, districts); nothing here knows a game.

*Planning* (:func:`subgoals`): an ending's conditions are often changed only by statements that run under
conditions of their own, several steps away.  So each ending is chained back, from the spec, to its *sub-goals*:
(depth 1) reaching its statement — the conditions of the `if` statements around the calls (and offers) that lead
to its body from the bodies the flow's rounds call — and every statement of the rounds that changes what its
conditions read (a var set, a zone drawn from or moved to), each under the conditions on its way from the rounds, its
callers' arguments bound to its parameters (a parameter of type Player at the top of a chain is the aiming
player; a ``for`` over ``filter``/``collect`` is its collection under the filter's condition); (depth 2) for a
condition on such a chain that its body sets to a constant before testing it (Carcassonne's ``évaluation``, set
to false, then computed by the evaluation of the finished parts), the statements between that reset and the test
that set it, with the conditions on their way down.  A sub-goal is as far as the least, over its chains and
their loops' values, of its conditions' distances added up (``all`` adds its elements' distances, ``any`` takes
the least: a road is as far from finished as its open ends); what a chain cannot know (a local name, a stale
condition) is left out, and a sub-goal with nothing left to measure is dropped; (depth 3) the statements that change
what a depth-2 sub-goal's conditions read.  A chain that enters an action takes the prohibitions about it that read
what its player has (``forbid placer(p, e) when réserve[p] == 0``) as conditions too, unless a caller resets what they
read before the offer: keeping what the move needs is a step towards what it does.  :func:`progress` subtracts each
sub-goal's distance divided by its depth.  It is a heuristic, not a search: it sees the steps the spec writes
before an ending, not how many turns they take.
"""

from __future__ import annotations

import dataclasses

from checker.front import ast
from checker.runtime.codegen import Scope
from checker.runtime.compile import bound_names
from checker.runtime.state import SpecRuntimeError

__all__ = ["Ending", "endings", "distance", "distances", "progress", "cap", "ended_progress", "resolve", "reached",
           "REACHED", "SubGoal", "subgoals", "engine_subgoals", "subgoal_penalty"]

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


def progress(engine, aim: str, cap: int | None = None, player: int | None = None) -> float:
    """What the aimed ending's player gains on the state now: minus the aimed ending's distance, plus each other
    ending's distance capped at ``cap`` (see the module's docstring; None: the aimed ending's distance plus 1 on
    this state), minus how far the ending's sub-goals are for ``player`` (:func:`subgoal_penalty`)."""
    measured = distances(engine)
    if aim not in measured:
        resolve(engine, aim)            # the error naming the endings
    own = measured[aim]
    cap = own + 1 if cap is None else cap
    gained = -own + sum(min(d, cap) for name, d in measured.items() if name != aim)
    penalty = subgoal_penalty(engine, aim, player)
    return round(gained - penalty, 6) if penalty else gained


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


# ---------------------------------------------------------------- planning: the steps before an ending
#
# A chain is the list of steps the game goes through, from a body the flow's rounds call down to one statement:
# ("top", locals, players, body) starts it in a body (its local names unknown but the parameters of type Player,
# which are the aiming player), ("enter", locals, ((param, arg), …), body) goes into a called procedure or an
# offered action (the caller's arguments bound to the callee's parameters), ("loop", var, coll) runs over a
# collection (the statement happens if it happens for one value), ("bind", var, expr) names a value, ("alias",
# var, other) names another's value, ("guard", cond, want) is a condition that must be `want` (an `if`'s, split at
# its `and`s), ("stale", cond, want, before) one whose value the body sets to a constant before testing it
# (``before``: the statements before it, where it is computed).

@dataclasses.dataclass(frozen=True)
class SubGoal:
    """A step towards the ending ``ending``: the statement at ``span`` in ``where`` (a writer of what the ending's
    conditions read, the ending's statement reached through its callers, or what computes a stale condition on the
    way), happening on one of ``chains``; ``depth`` steps from the ending."""
    ending: str
    depth: int
    where: str
    chains: tuple[tuple, ...]
    span: object = None


_UP = 6                 # callers followed up from a statement
_DOWN = 6               # calls followed down into what computes a stale condition
_CHAINS = 8             # chains kept per statement
_SUBGOAL_DEPTH = 3      # steps chained back from an ending
_WRITTEN = 2            # the sub-goals from this depth on lead to the writers of what their conditions read
_LOOPS = 3              # loops in a chain measured (more: left out, their values multiply)
_BUDGET = 256           # loop values a chain's measure tries, at most (then the least found so far)


def _split(cond: ast.Expr, want: bool) -> list[tuple[ast.Expr, bool]]:
    """A condition as the conjuncts that must all hold: ``a and b`` wanted, ``a or b`` not wanted, ``not a``."""
    if isinstance(cond, ast.Binary) and cond.op == ("and" if want else "or"):
        return _split(cond.left, want) + _split(cond.right, want)
    if isinstance(cond, ast.Unary) and cond.op == "not":
        return _split(cond.operand, not want)
    return [(cond, want)]


def _unfold(var: str, coll: ast.Expr) -> list[tuple]:
    """The steps of ``for var in coll``: a `filter` runs over its collection under its condition, a `collect`
    over its collection binding ``var`` to its value; anything else is a loop."""
    if isinstance(coll, ast.Aggregate) and coll.kind == "filter" and coll.body is not None:
        return _unfold(coll.var, coll.coll) + [("guard", coll.body, True), ("alias", var, coll.var)]
    if isinstance(coll, ast.Aggregate) and coll.kind == "collect" and coll.body is not None:
        return _unfold(coll.var, coll.coll) + [("bind", var, coll.body)]
    return [("loop", var, coll)]


class _Planner:
    """The chains of a game's statements (see above), read from the spec once per program."""

    def __init__(self, program, flow: str | None):
        from checker.front.effects import Effects
        self.program, self.flow = program, flow
        self.reads = Effects(program).reads_expr
        self.bodies: dict[str, tuple] = {}
        for where, params, body in _bodies(program):
            self.bodies[where] = (params, body, frozenset(params) | frozenset(bound_names(body)))
        self.calls: dict[str, list] = {}          # callee -> [(caller, steps at the call, the call, before it)]
        self.sites: list[tuple] = []              # every (body, statement, steps, before) of the bodies reached
        self.reached = self._reach()
        flow = program.procedures.get(flow) if flow else None
        rounds = [s for s in flow.body if isinstance(s, ast.Repeat)][-1:] if flow is not None else []
        if rounds:                # the flow's own rounds: a body of their own, its local names unknown
            self.bodies[self.flow] = ((), tuple(rounds), frozenset(bound_names(flow.body)))
        for where in self.reached + [self.flow] * bool(rounds):
            for stmt, steps, before in self._walk(self.bodies[where][1], [], ()):
                self.sites.append((where, stmt, steps, before))
                callee = self._callee(stmt)
                if callee is not None:
                    self.calls.setdefault(callee, []).append((where, steps, stmt, before))
        self.lifted = {loser for _, loser in program.defeats()}

    # ---- the bodies the rounds run
    def _callee(self, s) -> str | None:
        name = (s.name if isinstance(s, ast.CallProc) else s.action if isinstance(s, (ast.Do, ast.OfferAction))
                else None)
        return name if name in self.bodies else None

    def _reach(self) -> list[str]:
        """The bodies the flow's rounds run (its last `repeat`, the calls and offers in it, and theirs), and
        the powers; not the set-up before the rounds nor the ending after them."""
        flow = self.program.procedures.get(self.flow) if self.flow else None
        loops = [s for s in flow.body if isinstance(s, ast.Repeat)] if flow is not None else []
        todo = [s for s, _, _ in self._walk(loops[-1].body, [], ())] if loops else []
        seen: list[str] = [w for w in self.bodies if w.startswith('"')]
        self.rounds = {self._callee(s) for s in todo} - {None}
        while todo:
            callee = self._callee(todo.pop())
            if callee is not None and callee not in seen:
                seen.append(callee)
                todo += [s for s, _, _ in self._walk(self.bodies[callee][1], [], ())]
        return seen

    def _walk(self, stmts, steps: list, before: tuple):
        """Every statement of ``stmts`` (and offered action) with the steps down to it and the statements run
        before it in its body (with their steps)."""
        before = list(before)
        for s in stmts:
            yield s, steps, tuple(before)
            if isinstance(s, ast.If):
                yield from self._walk(s.then, steps + self._guards(s.cond, True, before), before)
                yield from self._walk(s.else_, steps + self._guards(s.cond, False, before), before)
            elif isinstance(s, ast.For):
                yield from self._walk(s.body, steps + _unfold(s.var, s.coll), before)
            elif isinstance(s, ast.Repeat):
                yield from self._walk(s.body, steps, before)
            elif isinstance(s, ast.Offer):
                for item in s.items:
                    if isinstance(item, ast.OfferAction):
                        loops = [step for var, coll in item.binders for step in _unfold(var, coll)]
                        yield item, steps + loops, tuple(before)
            before.append((s, steps))

    def _guards(self, cond, want: bool, before: list) -> list[tuple]:
        out = []
        for c, w in _split(cond, want):
            stale = any(self._resets(s, self.reads(c)) for s, _ in before)
            out.append(("stale", c, w, tuple(before)) if stale else ("guard", c, w))
        return out

    def _resets(self, s, names: set, depth: int = 0) -> bool:
        """Does ``s`` set one of ``names`` to a constant whatever happens (not under an `if`; in its loops and the
        procedures it calls too)?"""
        if isinstance(s, ast.SetVar):
            return s.target.name in names and _constant(s.value, self.program)
        if isinstance(s, ast.Reset):
            return s.name in names
        if isinstance(s, (ast.For, ast.Repeat)):
            return any(self._resets(t, names, depth) for t in s.body)
        if isinstance(s, ast.CallProc) and depth < _DOWN and s.name in self.bodies:
            return any(self._resets(t, names, depth + 1) for t in self.bodies[s.name][1])
        return False

    # ---- chains
    def up(self, where: str, steps: list, depth: int = 0, before: tuple = ()) -> list[tuple]:
        """The chains from the bodies the rounds call down to a statement reached by ``steps`` in ``where``
        (``before``: the statements the callers run before their calls, below ``where``)."""
        params, _, local = self.bodies[where]
        callers = self.calls.get(where, []) if where not in self.rounds else []
        if not callers or depth >= _UP:
            players = ("me",) if where.startswith('"') else tuple(p for p in params if self._is_player(where, p))
            return [self._settle((("top", local, players, where), *steps), before)]
        chains: list[tuple] = []
        for caller, at, stmt, ahead in callers:
            enter = ("enter", local, tuple(zip(params, stmt.args)), where)
            chains += self.up(caller, list(at) + [enter] + self.rules(where) + list(steps), depth + 1,
                              tuple(s for s, _ in ahead) + before)
            if len(chains) >= _CHAINS:
                break
        return chains[:_CHAINS]

    def rules(self, action: str) -> list[tuple]:
        """The steps of the prohibitions about ``action`` (or an action it refines) that read what its player
        has (the condition names the action's Player parameter: ``réserve[p] == 0``), as ("rule", cond, False):
        the player can take the action only while none applies, so keeping what it reads is a step towards what
        the action does; the rule's names for the action's parameters aliased.  Where the move may go (a
        condition on its other parameters only) is the offer's loops' to measure, and is left out; so is a
        prohibition a permission or a precedence may lift, or a card's (it depends on who holds the card)."""
        decl = self.program.actions.get(action)
        if decl is None:
            return []
        params = [p.name for p in decl.params]
        players = {p.name for p in decl.params if getattr(p.type, "name", None) == "Player"}
        steps: list[tuple] = []
        name, seen = action, set()
        while name and name not in seen:
            seen.add(name)
            for rule in self.program.rules.values():
                if rule.card is not None or rule.name in self.lifted:
                    continue
                for head in rule.heads:
                    binders = [b for b, _ in head.pattern.binders]
                    if (head.kind != "forbid" or head.pattern.name != name or head.when is None
                            or len(binders) != len(params)
                            or any(b in params and b != q for b, q in zip(binders, params))
                            or not ast.names_in(head.when) & {b for b, q in zip(binders, params) if q in players}):
                        continue
                    steps += [("alias", b, q) for b, q in zip(binders, params) if b != q]
                    steps.append(("rule", head.when, False))
            parent = self.program.actions.get(name)
            name = parent.parent[0] if parent is not None and parent.parent else None
        return steps

    def _settle(self, chain: tuple, before: tuple) -> tuple:
        """A chain's prohibitions as conditions (``guard``), or left out (``stale``, measuring nothing) when a
        caller sets what they read to a constant before the call (``before``): their value now says nothing of
        the offer to come."""
        out = []
        for step in chain:
            if step[0] == "rule":
                names = self.reads(step[1])
                stale = any(self._resets(s, names) for s in before)
                step = ("ruled", step[1], step[2]) if stale else ("guard", step[1], step[2])
            out.append(step)
        return tuple(out)

    def _is_player(self, where: str, name: str) -> bool:
        decl = self.program.procedures.get(where) or self.program.actions.get(where)
        params = getattr(decl, "params", ()) or ()
        return any(p.name == name and getattr(p.type, "name", None) == "Player" for p in params)

    def writers(self, names: set, want=None) -> list[tuple]:
        """(body, statement, steps) of every statement of the rounds that changes one of ``names`` (a var set to
        ``want`` when it is a constant and ``want`` is given)."""
        return [(where, s, steps) for where, s, steps, _ in self.sites if self._writes(s, names, want)]

    def _writes(self, s, names: set, want=None) -> bool:
        if isinstance(s, ast.SetVar):
            if s.target.name not in names:
                return False
            return want is None or not isinstance(s.value, ast.BoolLit) or s.value.value == want
        if isinstance(s, (ast.Draw,)):
            return s.source.name in names or s.dest.target.name in names
        if isinstance(s, ast.Move):
            return s.dest.target.name in names
        if isinstance(s, ast.Transfer):
            return s.source.name in names or s.target.name in names
        if isinstance(s, ast.Shuffle):
            return s.target.name in names
        return isinstance(s, ast.Reset) and s.name in names

    def down(self, where: str, stmts, steps: list, names: set, want, depth: int = 0) -> list[tuple]:
        """(body, steps) from ``stmts`` (in ``where``) down to each statement in them, or in what they call, that
        changes ``names``."""
        found: list[tuple] = []
        for s, at, _ in self._walk(stmts, list(steps), ()):
            if self._writes(s, names, want):
                found.append((where, tuple(at)))
            callee = self._callee(s)
            if callee is not None and depth < _DOWN:
                params, body, local = self.bodies[callee]
                enter = ("enter", local, tuple(zip(params, s.args)), callee)
                found += self.down(callee, body, list(at) + [enter], names, want, depth + 1)
            if len(found) >= _CHAINS:
                break
        return found[:_CHAINS]


def _constant(e: ast.Expr, program) -> bool:
    return (isinstance(e, (ast.IntLit, ast.BoolLit, ast.NoneLit))
            or (isinstance(e, ast.Name) and e.id in program.enum_members))


def subgoals(program, flow: str | None, ending: Ending) -> list[SubGoal]:
    """The steps before ``ending`` (see the module's docstring), depth 1 and 2: the ending's statement reached
    through its body's callers, and every statement of the rounds that changes what its conditions read (each
    with its chains up from the rounds); then, for each condition on one of those chains that its body sets to a
    constant before testing it, the statements between that reset and the test that change it (a chain down)."""
    planner = _Planner(program, flow)
    site = next(((w, steps) for w, s, steps, _ in planner.sites if s.span == ending.span), None)
    found: list[SubGoal] = []
    seen: set = set()

    def add(depth: int, where: str, chains: list, span) -> None:
        key = tuple(tuple(map(_key, chain)) for chain in chains)
        if chains and key not in seen:
            seen.add(key)
            found.append(SubGoal(ending.name, depth, where, tuple(chains), span))

    if site is not None:            # reaching the ending's body: its callers' conditions (its own are the ending's)
        add(1, site[0], planner.up(site[0], []), ending.span)
    reads = set().union(*(planner.reads(g) for g, _ in ending.guards)) if ending.guards else set()
    for where, s, steps in planner.writers(reads):
        add(1, where, planner.up(where, list(steps)), s.span)
    for goal in list(found):
        for chain in goal.chains:
            for k, step in enumerate(chain):
                if step[0] != "stale" or goal.depth >= _SUBGOAL_DEPTH:
                    continue
                cond, want, before = step[1:]
                names = planner.reads(cond)
                const = want if isinstance(cond, ast.Name) else None
                last = max(i for i, (s, _) in enumerate(before) if planner._resets(s, names))
                prefix = _prefix(chain[:k])
                for s, at in before[last:]:
                    found_down = planner.down(prefix[-1][3], (s,), prefix + list(at), names, const)
                    if found_down:
                        add(goal.depth + 1, found_down[0][0], [chain for _, chain in found_down], s.span)
    for goal in [g for g in found if _WRITTEN <= g.depth < _SUBGOAL_DEPTH]:
        # what changes a condition measured on a chain found at depth 2: a step further back (a move, under the
        # prohibitions that read what its player has)
        names = set().union(*(planner.reads(step[1]) for chain in goal.chains for step in chain
                              if step[0] == "guard"))
        for where, s, steps in planner.writers(names):
            if where != goal.where:         # what the sub-goal's own body does is its consequence, not a step
                add(goal.depth + 1, where, planner.up(where, list(steps)), s.span)
    return found


def _key(step) -> tuple:
    """What tells a chain's step from another: its kind and the nodes it holds."""
    if step[0] == "top":
        return ("top", step[2], step[3])
    if step[0] == "enter":
        return ("enter", step[3]) + tuple((p, id(a)) for p, a in step[2])
    return (step[0],) + tuple(x if isinstance(x, (str, bool)) else id(x) for x in step[1:3])  # alias: two names


def _prefix(chain) -> list:
    """A chain up to and including the last body it entered."""
    last = max(i for i, step in enumerate(chain) if step[0] in ("top", "enter"))
    return list(chain[:last + 1])


class _Chain(_Measure):
    """A chain compiled for ``engine``: its loops, the values it binds and its conditions as ``env -> value``
    functions; what it reads of a local name it cannot know (a parameter of its first body that is not a player,
    a `let`, a stale condition) is left out.  ``kept``: the conditions measured."""

    def __init__(self, engine, chain: tuple):
        self.engine = engine
        gen = engine.compiler.gen
        self.ops: list[tuple] = []
        mapping: dict[str, str] = {}
        unknown: set[str] = set()
        self.kept = 0

        def known(e) -> bool:
            return not (ast.names_in(e) & unknown)

        def scope() -> Scope:
            return Scope({name: f"env[{key!r}]" for name, key in mapping.items()})

        for k, step in enumerate(chain):
            kind = step[0]
            if kind == "top":
                mapping = {p: "__me__" for p in step[2]}
                unknown = set(step[1]) - set(mapping)
            elif kind == "enter":
                entered: dict[str, str] = {}
                for param, arg in step[2]:
                    if known(arg):
                        entered[param] = key = f"{param}#{k}"
                        self.ops.append(("bind", key, gen.env_function(arg, scope())))
                mapping, unknown = entered, set(step[1]) - set(entered)
            elif kind in ("loop", "bind"):
                var, e = step[1], step[2]
                if known(e):
                    key = f"{var}#{k}"
                    self.ops.append((kind, key, gen.env_function(e, scope())))
                    mapping[var] = key
                    unknown.discard(var)
                else:
                    mapping.pop(var, None)
                    unknown.add(var)
            elif kind == "alias":
                if step[2] in mapping:
                    mapping[step[1]] = mapping[step[2]]
                    unknown.discard(step[1])
                else:
                    mapping.pop(step[1], None)
                    unknown.add(step[1])
            elif kind == "guard" and known(step[1]):
                for cond, want in _split(step[1], step[2]):      # conjuncts apart: a chain stops at its bound
                    self.ops.append(("guard", self._tree(cond, scope(), 0), want))
                self.kept += 1
        left = 0
        for i in range(len(self.ops) - 1, -1, -1):        # the conditions after each step: what an empty loop misses
            op = self.ops[i]
            left += op[0] == "guard"
            self.ops[i] = op + (left,)

    def measure(self, player) -> int:
        self.budget = _BUDGET
        return self._run(0, {"__me__": player}, _FAR)

    def _run(self, i: int, env: dict, bound: int) -> int:
        """The least distance over the chain's loops from step ``i`` on, or ``bound`` or more when it is no less
        (a value whose conditions already add up to the best found is not measured further)."""
        total, ops = 0, self.ops
        while i < len(ops):
            if total >= bound:
                return total
            op = ops[i]
            kind = op[0]
            if kind == "guard":
                total += _distance(op[1], op[2], env)
            else:
                try:
                    value = op[2](env)
                    values = [value] if kind == "bind" else list(value)
                except SpecRuntimeError:
                    values = []
                if not values:             # nothing to run over: every condition after it is not held, and one more
                    return total + 1 + op[3]
                if kind == "bind":
                    env = {**env, op[1]: values[0]}
                else:
                    best = bound - total
                    for value in values:
                        if self.budget <= 0:        # the values tried so far: the least found among them
                            break
                        self.budget -= 1
                        best = min(best, self._run(i + 1, {**env, op[1]: value}, best))
                        if best == 0:
                            break
                    return total + best
            i += 1
        return total


def engine_subgoals(engine, aim: str) -> list[tuple[int, list[_Chain]]]:
    """The sub-goals of the ending ``aim`` in ``engine``'s game, compiled once per engine: (depth, the chains that
    measure a condition)."""
    cache = getattr(engine, "_aim_subgoals", None)
    if cache is None:
        cache = engine._aim_subgoals = {}
    found = cache.get(aim)
    if found is None:
        found = []
        for ending in resolve(engine, aim):
            for goal in subgoals(engine.program, engine.flow, ending):
                chains = [c for c in (_Chain(engine, chain) for chain in goal.chains)
                          if c.kept and sum(op[0] == "loop" for op in c.ops) <= _LOOPS]
                if chains:
                    found.append((goal.depth, chains))
        cache[aim] = found
    return found


def subgoal_penalty(engine, aim: str, player) -> float:
    """How far the aimed ending's sub-goals are on the state now, for ``player``: each one's distance (the least
    over its chains) over its depth, added up."""
    total = 0.0
    for depth, chains in engine_subgoals(engine, aim):
        total += min(c.measure(player) for c in chains) / depth
    return total
