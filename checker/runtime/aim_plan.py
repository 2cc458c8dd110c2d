"""The steps before an ending (*planning* in :mod:`checker.runtime.aim`'s docstring): each ending chained back,
from the spec, to its sub-goals, and how far they are on a state."""

from __future__ import annotations

import dataclasses

from checker.front import ast
from checker.runtime.aim_measure import _FAR, Ending, _bodies, _distance, _Measure, _Reads, distances, resolve
from checker.runtime.codegen import Scope
from checker.runtime.compile import bound_names
from checker.runtime.state import SpecRuntimeError

__all__ = ["SubGoal", "subgoals", "engine_subgoals", "subgoal_penalty"]

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
    way), happening on one of ``chains``; ``depth`` steps from the ending.  ``runs``: (chain, k) pairs whose `for`
    loops after their step k multiply how many units of the ending one run of the sub-goal brings (its *yield*)."""
    ending: str
    depth: int
    where: str
    chains: tuple[tuple, ...]
    span: object = None
    runs: tuple[tuple[tuple, int], ...] = ()
    parent: object = None           # the sub-goal whose conditions this one changes (depth 3)


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
                        loops = [step + ("offer",) if step[0] == "loop" else step      # one value chosen
                                 for var, coll in item.binders for step in _unfold(var, coll)]
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
        has (the condition names the action's Player parameter: ``stock[p] == 0``), as ("rule", cond, False):
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
                    steps.append(("rule", head.when, False, self._spends(action, head.when)))
            parent = self.program.actions.get(name)
            name = parent.parent[0] if parent is not None and parent.parent else None
        return steps

    def _spends(self, action: str, cond) -> bool:
        """Is ``cond`` a threshold (``x == c``, ``x <= c``, ``x < c``, ``c`` a number) on a var that the body a move
        of ``action`` runs (its own or its nearest ancestor's) takes from (``set x[…] = x[…] - k``)?  Then each run
        brings it nearer: the action can run as many more times as ``x`` is above the threshold (:func:`_counted`)."""
        if _counted(cond) is None:
            return False
        name = _var_of(cond.left)
        body = self.program.effect(action)
        return any(isinstance(n, ast.SetVar) and n.target.name == name and isinstance(n.value, ast.Binary)
                   and n.value.op == "-" and _var_of(n.value.left) == name for n in ast.walk(body))

    def _settle(self, chain: tuple, before: tuple) -> tuple:
        """A chain's prohibitions as conditions (``guard``), or left out (``stale``, measuring nothing) when a
        caller sets what they read to a constant before the call (``before``): their value now says nothing of
        the offer to come."""
        out = []
        for step in chain:
            if step[0] == "rule":
                names = self.reads(step[1])
                stale = any(self._resets(s, names) for s in before)
                step = (("ruled", step[1], step[2]) if stale else
                        ("guard", step[1], step[2]) + (("spent",) if step[3] else ()))
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
        if isinstance(s, ast.Reset) and s.name in names:      # the var back to its default: a `set` to that
            decl = self.program.vars.get(s.name)
            default = decl.default if decl is not None else None
            return want is None or not isinstance(default, ast.BoolLit) or default.value == want
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


def _var_of(e) -> str | None:
    """The var an expression reads as a whole (``x`` or ``x[…]``)."""
    if isinstance(e, ast.Name):
        return e.id
    if isinstance(e, ast.Index) and isinstance(e.obj, ast.Name):
        return e.obj.id
    return None


def _counted(cond) -> tuple[int, int] | None:
    """A prohibition's threshold ``x == c``, ``x <= c`` or ``x < c`` (``c`` a number, ``x`` a var) as (c, 1), (c, 1)
    or (c, 0): the action is allowed while ``x >= c + that``; None for any other condition."""
    if (isinstance(cond, ast.Binary) and cond.op in ("==", "<=", "<") and isinstance(cond.right, ast.IntLit)
            and _var_of(cond.left) is not None):
        return cond.right.value, 0 if cond.op == "<" else 1
    return None


def _loops_after(runs) -> int:
    """How many `for` loops (not an offer's) the chains of ``runs`` run through after their steps."""
    return sum(1 for chain, k in runs for step in chain[k + 1:] if step[0] == "loop" and len(step) == 3)


def subgoals(program, flow: str | None, ending: Ending) -> list[SubGoal]:
    """The steps before ``ending`` (see the module's docstring), depth 1 and 2: the ending's statement reached
    through its body's callers, and every statement of the rounds that changes what its conditions read (each
    with its chains up from the rounds); then, for each condition on one of those chains that its body sets to a
    constant before testing it, the statements between that reset and the test that change it (a chain down)."""
    planner = _Planner(program, flow)
    site = next(((w, steps) for w, s, steps, _ in planner.sites if s.span == ending.span), None)
    found: list[SubGoal] = []
    seen: dict = {}

    def add(depth: int, where: str, chains: list, span, runs: tuple = (), parent=None) -> None:
        key = tuple(tuple(map(_key, chain)) for chain in chains)
        if not chains:
            return
        if key not in seen:
            seen[key] = len(found)
            found.append(SubGoal(ending.name, depth, where, tuple(chains), span, runs, parent))
        elif found[seen[key]].depth == depth and _loops_after(runs) > _loops_after(found[seen[key]].runs):
            # the same step reached again, as far from the ending, through more loops: they count
            found[seen[key]] = dataclasses.replace(found[seen[key]], runs=runs)

    if site is not None:            # reaching the ending's body: its callers' conditions (its own are the ending's)
        add(1, site[0], planner.up(site[0], []), ending.span)
    reads = set().union(*(planner.reads(g) for g, _ in ending.guards)) if ending.guards else set()
    for where, s, steps in planner.writers(reads):
        add(1, where, planner.up(where, list(steps)), s.span)
    for goal in list(found):        # the depth-1 sub-goals (all found so far): their stale conditions, at depth 2
        for chain in goal.chains:
            for k, step in enumerate(chain):
                if step[0] != "stale":
                    continue
                cond, want, before = step[1:]
                names = planner.reads(cond)
                const = want if isinstance(cond, ast.Name) else None
                last = max(i for i, (s, _) in enumerate(before) if planner._resets(s, names))
                prefix = _prefix(chain[:k])
                for s, at in before[last:]:
                    found_down = planner.down(prefix[-1][3], (s,), prefix + list(at), names, const)
                    if found_down:
                        # the loops after the step multiply the runs of a statement that changes what the ending
                        # reads, not of the ending's own statement (reached once)
                        runs = goal.runs + ((chain, k),) if goal.span != ending.span else goal.runs
                        add(goal.depth + 1, found_down[0][0], [chain for _, chain in found_down], s.span, runs)
    for goal in [g for g in found if _WRITTEN <= g.depth < _SUBGOAL_DEPTH]:
        # what changes a condition measured on a chain found at depth 2: a step further back (a move, under the
        # prohibitions that read what its player has)
        names = set().union(*(planner.reads(step[1]) for chain in goal.chains for step in chain
                              if step[0] == "guard"))
        returned = _given_back(planner.bodies[goal.where][1])
        for where, s, steps in planner.writers(names):
            if where != goal.where:         # what the sub-goal's own body does is its consequence, not a step
                chains = [_lent(chain, returned) for chain in planner.up(where, list(steps))]
                add(goal.depth + 1, where, chains, s.span, goal.runs, goal)
    return found


def _given_back(body) -> set[str]:
    """The vars a body adds to (``set x[…] = x[…] + …``): what a move spends on them and the body gives back is
    lent, not used up."""
    return {n.target.name for n in ast.walk(body) if isinstance(n, ast.SetVar) and isinstance(n.value, ast.Binary)
            and n.value.op == "+" and _var_of(n.value.left) == n.target.name}


def _lent(chain: tuple, returned: set[str]) -> tuple:
    """``chain`` with the prohibitions on what it spends and ``returned`` holds measured 0 or 1, not counted: the
    parent sub-goal gives it back, so one is enough for each time."""
    return tuple(step[:3] if step[0] == "guard" and step[3:] == ("spent",) and _var_of(step[1].left) in returned
                 else step for step in chain)


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

    def __init__(self, engine, chain: tuple, count_from: int | None = None):
        self.engine = engine
        gen = engine.compiler.gen
        self.ops: list[tuple] = []
        self.counted: set[int] = set()      # the ops of the `for` loops after step ``count_from`` (:meth:`runs`)
        mapping: dict[str, str] = {}
        unknown: set[str] = set()
        self.kept = 0
        read: list = []             # the expressions measured: what the chain reads of the state

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
                        read.append(arg)
                mapping, unknown = entered, set(step[1]) - set(entered)
            elif kind in ("loop", "bind"):
                var, e = step[1], step[2]
                if known(e):
                    key = f"{var}#{k}"
                    if count_from is not None and k > count_from and kind == "loop" and len(step) == 3:
                        self.counted.add(len(self.ops))
                    self.ops.append((kind, key, gen.env_function(e, scope())))
                    read.append(e)
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
            elif kind == "guard" and known(step[1]) and step[3:] == ("spent",):
                threshold, allowed = _counted(step[1])          # kept as many more times as the aim needs the move
                self.ops.append(("need", gen.env_function(step[1].left, scope()), threshold + allowed))
                read.append(step[1])
                self.kept += 1
            elif kind == "guard" and known(step[1]):
                for cond, want in _split(step[1], step[2]):      # conjuncts apart: a chain stops at its bound
                    self.ops.append(("guard", self._tree(cond, scope(), 0), want))
                    read.append(cond)
                self.kept += 1
        self.reads = _Reads(engine, read)
        left = 0
        for i in range(len(self.ops) - 1, -1, -1):        # the conditions after each step: what an empty loop misses
            op = self.ops[i]
            left += op[0] in ("guard", "need")
            self.ops[i] = op + (left,)

    def measure(self, player, need: int = 1) -> int:
        """The least distance over the chain's loops for ``player``, a move it spends on needed ``need`` more
        times."""
        return self.reads.answer(self.engine.st, (player, need), lambda: self._measure(player, need))

    def _measure(self, player, need: int) -> int:
        self.budget = _BUDGET
        return self._run(0, {"__me__": player, "__need__": need}, _FAR)

    def runs(self, player) -> int:
        """How many times the chain's statement runs for one run of its step ``count_from`` (the sizes of the `for`
        loops after it multiplied, each loop's first value bound for those after it; at least 1)."""
        return self.reads.answer(self.engine.st, ("runs", player), lambda: self._runs(player))

    def _runs(self, player) -> int:
        env, product = {"__me__": player}, 1
        for i, op in enumerate(self.ops):
            if op[0] not in ("loop", "bind"):
                continue
            try:
                value = op[2](env)
                values = [value] if op[0] == "bind" else list(value)
            except SpecRuntimeError:
                values = []
            if i in self.counted:
                product *= len(values)
            if not values:
                break
            env = {**env, op[1]: values[0]}
        return max(1, product)

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
            elif kind == "need":
                try:
                    total += max(0, op[2] + env["__need__"] - 1 - op[1](env))
                except SpecRuntimeError:
                    total += 1
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
    return _compiled(engine, aim)[0]


def _compiled(engine, aim: str) -> tuple[list, list]:
    """:func:`engine_subgoals`, and for each sub-goal the chains that count its yield (:meth:`_Chain.runs`) and the
    place of its parent among the sub-goals (None: it has none, or its parent measures nothing)."""
    cache = getattr(engine, "_aim_subgoals", None)
    if cache is None:
        cache = engine._aim_subgoals = {}
    found = cache.get(aim)
    if found is None:
        goals, counts, places = [], [], {}
        for ending in resolve(engine, aim):
            for goal in subgoals(engine.program, engine.flow, ending):
                chains = [c for c in (_Chain(engine, chain) for chain in goal.chains)
                          if c.kept and sum(op[0] == "loop" for op in c.ops) <= _LOOPS]
                if chains:
                    places[id(goal)] = len(goals)
                    goals.append((goal.depth, chains))
                    counts.append(([_Chain(engine, chain, k) for chain, k in goal.runs],
                                   places.get(id(goal.parent))))
        found = cache[aim] = (goals, counts)
    return found


def subgoal_penalty(engine, aim: str, player, own: int | None = None) -> float:
    """How far the aimed ending's sub-goals are on the state now, for ``player``: each one's distance (the least
    over its chains) times its yield (the units of the ending one run of it brings) over its depth, added up.

    A move that spends what a prohibition on it reads is needed several more times: its sub-goal must happen ``own``
    (the aimed ending's distance; measured when None) over its yield times, rounded up, each time once more at
    least, the next one once for each unit its parent sub-goal is from happening; its prohibition is as far as what
    it reads is short of that count.  A run of the move that brings its parent nearer needs one fewer: spending on
    it costs nothing; spending on anything else does."""
    goals, counts = _compiled(engine, aim)
    if not goals:
        return 0.0
    if own is None:             # _compiled resolved ``aim``: an ending of the game, so one of its distances
        own = distances(engine)[aim]
    own = min(own, _FAR - 1)
    total, measured = 0.0, []
    for (depth, chains), (yields, parent) in zip(goals, counts):
        units = 1
        for count in yields:
            units *= count.runs(player)
        times = -(-own // units)
        need = times if parent is None else max(0, times - 1 + measured[parent])
        distance = min(c.measure(player, need) for c in chains)
        measured.append(distance)
        total += units * distance / depth
    return total
