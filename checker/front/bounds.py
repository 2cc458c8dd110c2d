"""bounds: what keeps a spec's runs bounded, decided when it is checked (after typecheck).

- **Ranges.**  Every range `a..b` that is iterated (anywhere but the declarations' `players: 2..8`
  and `Int in 0..99`) may hold at most :data:`~checker.base.limits.MAX_RANGE` integers.  An interval
  analysis gives every integer expression bounds: literals, `player_count` (the game's player
  counts), card attributes (their declared range, or the values the cards give), `count` and `sum`
  (by the size of what they range over), `least`/`greatest`, `row` and `column` (by the grid), tables, quantities (their default,
  `value` and `adjust` rules); a var, a counter, a parameter has no bound.  A local name bound
  several times, or in a loop, gets the hull of its bindings, widened to no bound when it grows.
  A range whose size is not bounded by the limit is error E0801, located, with the term that is
  not bounded and how to bound it (`least(…, N)`).
- **Indexes.**  A var or zone is indexed by a finite set of values (players, an enum, a kind of
  card, a grid, a record of those), never by Int or Text (E0803): the state cannot grow without end.
- **Recursion.**  A quantity that calls itself (through other quantities, its rules, or `can` and
  the rules of an action) is error E0802; so is a procedure, action or power that runs itself again
  (through `call`, `do`, an `offer`, or a `signal` and the powers reacting to it), unless the cycle
  goes through a power whose limit it cannot reset (`once per game`; `once per turn` when the
  cycle does not enter the turn's procedure, `once per round` likewise): such a power runs at most
  once per card and player before the cycle stops.
"""

from __future__ import annotations

import math
from typing import Callable

from checker.front import ast
from checker.base.diagnostics import Note, Reporter
from checker.front.configurations import game_player_counts
from checker.base.limits import MAX_PLAYERS, MAX_RANGE
from checker.front.typecheck import Typed
from checker.front.typecheck_shapes import unbounded_record
from checker.front.types import BOOL, INT, PLAYER, Coll, EnumT, GridT, KindT, Opt

__all__ = ["check_bounds", "quantity_bounds"]

INF = math.inf
TOP = (-INF, INF)
EMPTY = (INF, -INF)


def _hull(a, b):
    return (min(a[0], b[0]), max(a[1], b[1]))


def _mul(a, b):
    products = [0 if (x == 0 or y == 0) else x * y for x in a for y in b]
    return (min(products), max(products))


def _finite(iv) -> bool:
    return -INF < iv[0] and iv[1] < INF


def _show(x) -> str:
    return "no bound" if abs(x) == INF else f"{int(x):,}"


class _Ranges:
    """The interval analysis, and the check of every range against the limit."""

    def __init__(self, typed: Typed, reporter: Reporter):
        self.typed, self.p, self.types, self.r = typed, typed.program, typed.types, reporter
        counts = game_player_counts(self.p) or [1, MAX_PLAYERS]
        self.players = (min(counts), max(counts))
        self.copies = {k: 0 for k in self.p.kinds}
        for card in self.p.cards.values():
            self.copies[card.kind] = self.copies.get(card.kind, 0) + self.p.copies(card)
        self._quantities: dict[str, tuple] = {}
        self._attrs: dict[tuple[str, str], tuple] = {}
        self.causes: dict[int, tuple] = {}      # id(expression) -> (span, why it has no bound)
        self.reported: set[int] = set()

    # ------------------------------------------------------------ intervals
    def cause(self, e, why: str) -> tuple:
        self.causes.setdefault(id(e), (e.span, why))
        return TOP

    def interval(self, e, env: dict) -> tuple:
        """Bounds of an integer expression (±inf: none)."""
        if isinstance(e, ast.IntLit):
            return (e.value, e.value)
        if isinstance(e, ast.Name):
            if e.id in env:
                iv = env[e.id][0]
                why = env[e.id][2] if len(env[e.id]) > 2 else "it is bound to a value that has none"
                return iv if _finite(iv) else self.cause(e, f"'{e.id}' has no bound: {why}")
            if e.id == "player_count":
                return self.players
            if e.id in self.p.vars:
                what = "counter" if self.p.vars[e.id].counter else "var"
                return self.cause(e, f"'{e.id}' is a {what}: nothing bounds its value")
            return self.cause(e, f"'{e.id}' has no bound here")
        if isinstance(e, ast.Index):
            what = "counter" if e.obj.id in self.p.vars and self.p.vars[e.obj.id].counter else "var"
            return self.cause(e, f"'{e.obj.id}' is a {what}: nothing bounds its value")
        if isinstance(e, ast.Unary) and e.op == "-":
            lo, hi = self.interval(e.operand, env)
            return (-hi, -lo)
        if isinstance(e, ast.Binary) and e.op in ("+", "-", "*", "/", "%"):
            return self._arith(e, env)
        if isinstance(e, ast.IfExpr):
            return _hull(self.interval(e.then, env), self.interval(e.else_, env))
        if isinstance(e, ast.Attr):
            return self._attr(e)
        if isinstance(e, ast.Call):
            return self._call(e, env)
        if isinstance(e, ast.Aggregate):
            size, elem = self.collection(e.coll, env)
            inner = {**env, e.var: (elem, 0)}
            if e.kind == "count":
                return (0, size)
            if e.kind == "sum":
                return _mul(self.interval(e.body, inner), (0, size))
            if e.kind in ("max", "min"):
                return _hull((0, 0), self.interval(e.body, inner))
            if e.kind in ("the", "only"):
                return elem
        return self.cause(e, "this value has no bound")

    def _arith(self, e: ast.Binary, env: dict) -> tuple:
        a, b = self.interval(e.left, env), self.interval(e.right, env)
        if e.op == "+":
            return (a[0] + b[0], a[1] + b[1])
        if e.op == "-":
            return (a[0] - b[1], a[1] - b[0])
        if e.op == "*":
            return _mul(a, b)
        if e.op == "/":         # |a / b| <= |a| when b is a non-zero integer
            m = max(abs(a[0]), abs(a[1]))
            return (-m, m)
        m = max(abs(b[0]), abs(b[1])) - 1   # a % b lies between 0 and b
        return (0, m) if b[0] >= 1 else (-m, m)

    def _attr(self, e: ast.Attr) -> tuple:
        ty = self.types.get(id(e.obj))
        kind = ty.inner.name if isinstance(ty, Opt) else getattr(ty, "name", None)
        key = (kind, e.name)
        if key not in self._attrs:
            iv = EMPTY
            decl = self.p.kinds.get(kind)
            for attr in decl.attrs if decl else ():
                if attr.name == e.name:
                    if attr.domain is not None:
                        iv = (self.interval(attr.domain.left, {})[0], self.interval(attr.domain.right, {})[1])
                    if isinstance(attr.default, ast.IntLit):
                        iv = _hull(iv, (attr.default.value, attr.default.value))
            for card in self.p.cards_of(kind):
                for v in card.attrs:
                    if v.name == e.name:
                        iv = _hull(iv, self.interval(v.value, {}))
            self._attrs[key] = iv if iv != EMPTY else (0, 0)
        return self._attrs[key]

    def _call(self, e: ast.Call, env: dict) -> tuple:
        args = [self.interval(a, env) if self.types.get(id(a)) == INT else TOP for a in e.args]
        if e.func == "least":
            return (min(args[0][0], args[1][0]), min(args[0][1], args[1][1]))
        if e.func == "greatest":
            return (max(args[0][0], args[1][0]), max(args[0][1], args[1][1]))
        if e.func == "half":
            return (math.floor(args[0][0] / 2) if args[0][0] > -INF else -INF,
                    math.floor(args[0][1] / 2) if args[0][1] < INF else INF)
        if e.func in ("row", "column") and isinstance(self.types.get(id(e.args[0])), GridT) \
                and self.types[id(e.args[0])].name in self.p.grids:
            g = self.p.grids[self.types[id(e.args[0])].name]
            size = g.height if e.func == "row" else g.width
            return (-((size - 1) // 2), size - 1 - (size - 1) // 2)        # counted from the centre cell
        if e.func in self.p.tables:
            iv = EMPTY
            for row in self.p.tables[e.func].rows:
                iv = _hull(iv, self.interval(row.value, {}))
            return iv if iv != EMPTY else (0, 0)
        if e.func in self.p.quantities:
            iv = self.quantity(e.func)
            return iv if _finite(iv) else self.cause(e, f"the quantity {e.func}(…) has no bound")
        return self.cause(e, "this value has no bound")

    def quantity(self, name: str) -> tuple:
        """Bounds of a quantity's values: its default and `value` rules, plus its `adjust` rules."""
        if name in self._quantities:
            return self._quantities[name]
        self._quantities[name] = TOP            # a quantity that calls itself has no bound (E0802 says so)
        decl = self.p.quantities[name]
        if self.types.get(id(decl.default)) != INT:
            return TOP
        env = {prm.name: (TOP, INF) for prm in decl.params}
        iv, extra = self.interval(decl.default, env), (0, 0)
        for rule in self.p.rules.values():
            for h in rule.heads:
                if h.pattern.name != name or h.expr is None:
                    continue
                renv = {b: (TOP, INF) for b, _ in h.pattern.binders}
                v = self.interval(h.expr, renv)
                if h.kind == "value":
                    iv = _hull(iv, v)
                elif h.kind == "adjust":
                    extra = (extra[0] + min(0, v[0]), extra[1] + max(0, v[1]))
        self._quantities[name] = (iv[0] + extra[0], iv[1] + extra[1])
        return self._quantities[name]

    def collection(self, e, env: dict) -> tuple[float, tuple]:
        """(the most elements ``e`` can hold, bounds of its elements when they are integers)."""
        if isinstance(e, ast.Binary) and e.op == "..":
            lo, hi = self.interval(e.left, env)[0], self.interval(e.right, env)[1]
            return max(0, hi - lo + 1) if hi >= lo else 0, (lo, hi)
        if isinstance(e, ast.Name) and e.id in env:
            iv, size = env[e.id][:2]
            return size, iv
        if isinstance(e, ast.SetLit):
            iv = EMPTY
            for x in e.items:
                if self.types.get(id(x)) == INT:
                    iv = _hull(iv, self.interval(x, env))
            return len(e.items), iv
        if isinstance(e, ast.Aggregate) and e.kind in ("filter", "argmax", "argmin"):
            return self.collection(e.coll, env)
        if isinstance(e, ast.IfExpr):
            (n1, i1), (n2, i2) = self.collection(e.then, env), self.collection(e.else_, env)
            return max(n1, n2), _hull(i1, i2)
        ty = self.types.get(id(e))
        elem = ty.elem if isinstance(ty, Coll) else None
        if isinstance(elem, Opt):
            elem = elem.inner
        if isinstance(elem, KindT):
            return self.copies.get(elem.name, 0), TOP
        if isinstance(elem, EnumT):
            return len(self.p.enums[elem.name].members), TOP
        if elem == PLAYER:
            return self.players[1], TOP
        if elem == BOOL:
            return 2, TOP
        self.cause(e, "this collection of integers has no bound")
        return INF, TOP

    # ------------------------------------------------------------ checking every range
    def expr(self, e, env: dict) -> None:
        """Check every range in ``e`` (aggregates bind their variable over what they range over)."""
        if e is None:
            return
        if isinstance(e, ast.Binary) and e.op == "..":
            self.check_range(e, env)
        if isinstance(e, ast.Aggregate):
            self.expr(e.coll, env)
            size, elem = self.collection(e.coll, env)
            self.expr(e.body, {**env, e.var: (elem, size)})
            return
        for name in getattr(e, "__dataclass_fields__", ()):
            v = getattr(e, name)
            if isinstance(v, tuple):
                for x in v:
                    self.expr(x, env)
            elif name != "span" and hasattr(v, "__dataclass_fields__"):
                self.expr(v, env)

    def check_range(self, e: ast.Binary, env: dict) -> None:
        if id(e) in self.reported:
            return
        size, (lo, hi) = self.collection(e, env)
        if size <= MAX_RANGE:
            self.typed.ranges[id(e)] = (int(lo), int(hi)) if hi >= lo else (0, -1)
            return
        self.reported.add(id(e))
        notes = []
        for side in (e.left, e.right):
            for node in ast.walk(side):
                if id(node) in self.causes:
                    span, why = self.causes[id(node)]
                    notes.append(Note(why, span))
                    break
        if _finite((lo, hi)):
            message = f"this range may hold up to {_show(size)} integers ({_show(lo)} to {_show(hi)})"
        else:
            message = f"this range is not bounded: it runs from {_show(lo)} to {_show(hi)}"
        if hi - lo >= MAX_RANGE and -INF < lo and hi < INF:
            hint = "split it, or narrow it to what the rules can reach"
        elif hi == INF:
            hint = f"bound its end by the largest value the rules allow: `a..least(b, N)`, N at most {lo + MAX_RANGE - 1:,}" \
                if lo > -INF else "bound both ends: `greatest(a, M)..least(b, N)`"
        else:
            hint = f"bound its start by the smallest value the rules allow: `greatest(a, M)..b`, M at least " \
                   f"{hi - MAX_RANGE + 1:,}"
        self.r.error("E0801", f"{message}; a range may hold at most {MAX_RANGE:,}", e.span, notes=notes[:2],
                     hint=hint)

    def body(self, stmts, env: dict) -> None:
        """Check a procedure's, action's or power's statements; ``env`` holds its parameters."""
        env = self.locals(stmts, env)
        for s in ast.statements(stmts):
            for name in getattr(s, "__dataclass_fields__", ()):
                v = getattr(s, name)
                if name in ("then", "else_", "body") and isinstance(v, tuple):
                    continue            # nested statements are visited by ast.statements
                if isinstance(s, ast.Offer) and name == "items":
                    for item in v:
                        self._offer_item(item, env)
                    continue
                if isinstance(v, tuple):
                    for x in v:
                        self.expr(x, env)
                elif name != "span" and hasattr(v, "__dataclass_fields__"):
                    self.expr(v, env)

    def _offer_item(self, item, env: dict) -> None:
        if isinstance(item, ast.OfferAction):
            inner = dict(env)
            for var, coll in item.binders:
                self.expr(coll, inner)
                size, elem = self.collection(coll, inner)
                inner[var] = (elem, size)
            for a in item.args:
                self.expr(a, inner)
        else:
            self.expr(getattr(item, "source", None) or getattr(item, "when", None), env)

    def locals(self, stmts, env: dict) -> dict:
        """The local names of a body, each with the hull of its bindings (a flow-insensitive fixpoint:
        a name that grows from one round to the next, as in a loop, loses its bound)."""
        bindings = []
        for s in ast.statements(stmts):
            if isinstance(s, ast.Let):
                bindings.append((s.name, s.value, "value"))
            elif isinstance(s, (ast.Choose, ast.For)):
                bindings.append((s.var, s.coll, "element"))
            elif isinstance(s, ast.ChooseSubset):
                bindings.append((s.var, s.coll, "subset"))
        lets = {name for name, _, how in bindings if how == "value"}
        bindings += [(s.target.name, s.value, "value") for s in ast.statements(stmts)   # `set` on a `let`
                     if isinstance(s, ast.SetVar) and s.target.index is None and s.target.name in lets]
        env = {**env, **{name: (EMPTY, 0) for name, _, _ in bindings if name not in env}}
        for round_ in range(12):
            changed = False
            for name, e, how in bindings:
                ty = self.types.get(id(e))
                if how == "value" and ty == INT:
                    new = (self.interval(e, env), 0)
                elif how == "value" or how == "subset":
                    size, elem = self.collection(e, env) if isinstance(ty, Coll) else (0, EMPTY)
                    new = (elem, size)
                else:
                    size, elem = self.collection(e, env)
                    new = (elem, 0)
                old = env[name]
                joined = (_hull(old[0], new[0]), max(old[1], new[1]), *old[2:])
                if joined != old:
                    changed = True
                    if round_ >= 2:         # still growing: widen to no bound
                        joined = ((-INF if joined[0][0] < old[0][0] else joined[0][0],
                                   INF if joined[0][1] > old[0][1] else joined[0][1]),
                                  INF if joined[1] > old[1] else joined[1],
                                  "it is bound again from its own value (in a loop), so it can grow without end")
                    env[name] = joined
            if not changed:
                break
        return env


# ==================================================================== recursion

class _Calls:
    """Who runs whom: procedures, actions, powers and windows (statements); quantities and `can`
    (expressions)."""

    def __init__(self, program):
        self.p = program
        self.edges: dict[tuple, list[tuple[tuple, object]]] = {}     # node -> [(node, span of the call)]
        self.powers: dict[tuple, ast.PowerDecl] = {}
        for card in program.cards.values():
            for pw in card.powers:
                node = ("power", f'"{card.name}".{pw.name}')
                self.powers[node] = pw
                self._statements(node, pw.body)
                if pw.requires is not None:
                    self._expression(node, pw.requires)
                if pw.window is not None:
                    self.edges.setdefault(("window", pw.window[0]), []).append((node, pw.window[2]))
        for proc in program.procedures.values():
            self._statements(("procedure", proc.name), proc.body)
        for action in program.actions.values():
            self._statements(("action", action.name), program.effect(action.name))
        for q in program.quantities.values():
            self._expression(("quantity", q.name), q.default)
        for rule in program.rules.values():
            for h in rule.heads:
                node = ("quantity", h.pattern.name) if h.pattern.name in program.quantities \
                    else ("can", h.pattern.name)
                for e in (h.when, h.expr):
                    if e is not None:
                        self._expression(node, e)
        for action in program.actions.values():      # `can a` asks the rules of a and of its ancestors
            parent = action.parent
            if parent is not None:
                self.edges.setdefault(("can", action.name), []).append((("can", parent[0]), parent[1]))

    def _add(self, source, target, span) -> None:
        self.edges.setdefault(source, []).append((target, span))

    def _expression(self, node, e) -> None:
        for n in ast.walk(e):
            if isinstance(n, ast.Call) and n.func in self.p.quantities:
                self._add(node, ("quantity", n.func), n.span)
            elif isinstance(n, ast.Can):
                self._add(node, ("can", n.action), n.span)

    def _statements(self, node, stmts) -> None:
        for s in ast.walk(tuple(stmts or ())):
            if isinstance(s, ast.CallProc):
                self._add(node, ("procedure", s.name), s.span)
            elif isinstance(s, ast.Do):
                self._add(node, ("action", s.action), s.span)
            elif isinstance(s, ast.OfferAction):
                self._add(node, ("action", s.action), s.span)
            elif isinstance(s, ast.Signal):
                self._add(node, ("window", s.window), s.span)
            elif isinstance(s, ast.OfferPowers):
                for card in self.p.cards.values():
                    for pw in card.powers:
                        if pw.window is None:
                            self._add(node, ("power", f'"{card.name}".{pw.name}'), s.span)

    def cycles(self, breaking) -> list[list[tuple]]:
        """One cycle (a list of (node, span of the call to the next)) per strongly connected group of
        nodes that calls itself, once the nodes ``breaking(group)`` returns are taken out."""
        out = []
        for group in _components(self.edges):
            if not _cyclic(group, self.edges):
                continue
            kept = group - breaking(group)
            for sub in _components({n: [(t, s) for t, s in self.edges.get(n, ()) if t in kept] for n in kept}):
                if _cyclic(sub, self.edges):
                    out.append(_a_cycle(sub, self.edges))
        return out


def _components(edges: dict) -> list[set]:
    """Strongly connected components (Tarjan, iterative)."""
    index, low, on, stack, out, counter = {}, {}, set(), [], [], [0]
    nodes = set(edges) | {t for ts in edges.values() for t, _ in ts}
    for root in sorted(nodes, key=str):
        if root in index:
            continue
        work = [(root, iter(edges.get(root, ())))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on.add(root)
        while work:
            node, it = work[-1]
            for target, _ in it:
                if target not in index:
                    index[target] = low[target] = counter[0]
                    counter[0] += 1
                    stack.append(target)
                    on.add(target)
                    work.append((target, iter(edges.get(target, ()))))
                    break
                if target in on:
                    low[node] = min(low[node], index[target])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    group = set()
                    while True:
                        x = stack.pop()
                        on.discard(x)
                        group.add(x)
                        if x == node:
                            break
                    out.append(group)
    return out


def _cyclic(group: set, edges: dict) -> bool:
    return len(group) > 1 or any(t in group for t, _ in edges.get(next(iter(group)), ()))


def _a_cycle(group: set, edges: dict) -> list[tuple]:
    """A cycle through the group, from its first node (by name): [(node, span of its call to the next)]."""
    start = min(group, key=str)
    path, seen, node = [], {}, start
    while node not in seen:
        seen[node] = len(path)
        target, span = next((t, s) for t, s in edges.get(node, ()) if t in group)
        path.append((node, span))
        node = target
    return path[seen[node]:]


def _label(node: tuple) -> str:
    kind, name = node
    return {"procedure": f"procedure {name}", "action": f"action {name}", "power": f"power {name}",
            "window": f"window {name}", "quantity": f"quantity {name}", "can": f"`can {name}` (its rules)"}[kind]


def _check_recursion(program, reporter: Reporter) -> None:
    calls = _Calls(program)
    game = {f.name: f.values[0] for f in program.game.fields} if program.game else {}
    turn = getattr(game.get("turn"), "id", None)
    round_ = getattr(game.get("round"), "id", None)

    def breaking(group: set) -> set:
        """The powers whose limit stops the cycle: it cannot be reset within it."""
        out = set()
        for node in group:
            pw = calls.powers.get(node)
            if pw is None:
                continue
            if pw.limit == "once_per_game" or (pw.limit == "once_per_turn" and ("procedure", turn) not in group) \
                    or (pw.limit == "once_per_round" and ("procedure", round_) not in group):
                out.add(node)
        return out

    for cycle in calls.cycles(breaking):
        (first, span), names = cycle[0], [_label(n) for n, _ in cycle]
        chain = " → ".join(names + [names[0]])
        notes = [Note(f"{_label(n)} leads to {_label(cycle[(i + 1) % len(cycle)][0])} here", s)
                 for i, (n, s) in enumerate(cycle[1:], 1)][:3]
        if first[0] in ("quantity", "can"):
            hint = "a quantity, and a rule's condition, is computed from the state: write it without asking for itself"
        elif any(n[0] == "power" for n, _ in cycle):
            hint = "give the reacting power a limit (`limit once per turn`), or do not signal its window again"
        else:
            hint = "repeat the statements with `repeat { … } until …` instead of calling them again"
        reporter.error("E0802", f"recursion without end: {chain}", span, notes=notes, hint=hint)


# ==================================================================== the pass

def check_bounds(typed: Typed, reporter: Reporter) -> None:
    """Report every range that may exceed the limit (E0801), every recursion (E0802) and every var or
    zone with an index that is not finite (E0803)."""
    p = typed.program
    ranges = _Ranges(typed, reporter)
    free = (TOP, INF, "it is a parameter, and nothing bounds a parameter")
    for q in p.quantities.values():
        ranges.expr(q.default, {prm.name: free for prm in q.params})
    for rule in p.rules.values():
        for h in rule.heads:
            env = {b: free for b, _ in h.pattern.binders}
            ranges.expr(h.when, env)
            ranges.expr(h.expr, env)
    for proc in p.procedures.values():
        ranges.body(proc.body, {prm.name: free for prm in proc.params})
    for action in p.actions.values():
        ranges.body(action.body or (), {prm.name: free for prm in action.params})
    for card in p.cards.values():
        for pw in card.powers:
            env = {"me": free, "this": free, **{n: free for n, _ in (pw.window[1] if pw.window else ())}}
            ranges.expr(pw.requires, env)
            ranges.body(pw.body, env)
    for constraint in p.constraints.values():
        ranges.expr(constraint.require, {})
        ranges.expr(constraint.when, {})
    for decl in [*p.vars.values(), *p.zones.values()]:
        unbounded = unbounded_record(p, decl.index.name) if decl.index is not None else None
        if decl.index is not None and (decl.index.name in ("Int", "Text") or unbounded):
            what = f"{decl.index.name}, whose field {unbounded} is not finite" if unbounded else decl.index.name
            reporter.error("E0803", f"'{decl.name}' is indexed by {what}: it could hold any number of "
                                    f"entries", decl.index.span,
                           hint="index it by Player, an enum, a kind of card, a grid, or a record of those "
                                "(a finite set of values)")
    _check_recursion(p, reporter)


def check_expression_ranges(typed: Typed, reporter: Reporter, expr, free: dict[str, str]) -> None:
    """The range check of :func:`check_bounds` (E0801) on one expression written outside the spec (a `reach`
    condition): ``free`` names its free names, each with why nothing bounds it."""
    _Ranges(typed, reporter).expr(expr, {name: (TOP, INF, why) for name, why in free.items()})


def quantity_bounds(typed: Typed) -> Callable[[str], tuple]:
    """name -> the bounds of that Int quantity's values (±inf: none), as the range check computes them."""
    return _Ranges(typed, Reporter()).quantity
