"""The spec's invariants, checked before a decision only when something they read has changed.

An invariant is a pure function of the vars and zones it reads (directly, or through the quantities it
calls).  The generated code raises ``State.dirty`` when it writes one of those vars, ``State.put`` when a
card enters or leaves one of those zones, a shuffle of one of them, ``State.restore`` and
``Engine.invalidate`` always: so an invariant that held at the last decision and reads nothing that
changed since still holds, and is not evaluated again.  An invariant whose reads cannot be known (it
asks `can`, or calls a quantity some card's rule gives a value) is evaluated before every decision.
"""

from __future__ import annotations

import re

from checker.front import ast
from checker.front.ast import names_in
from checker.runtime import fusion
from checker.runtime.codegen import Scope, _quantity_exprs

__all__ = ["InvariantWatch", "state_reads"]


def state_reads(engine, exprs) -> tuple[frozenset, frozenset] | None:
    """(vars, zones) that ``exprs`` may read, through every quantity they call; None when that cannot be
    known (a legality test, or a quantity with a value given by a card's rule)."""
    p = engine.program
    names: set[str] = set()
    todo, seen = list(exprs), set()
    while todo:
        e = todo.pop()
        for node in ast.walk((e,)):
            if isinstance(node, ast.Can):
                return None
            if isinstance(node, ast.Call) and node.func in p.quantities and node.func not in seen:
                seen.add(node.func)
                if any(rule.card for rule, _ in engine._heads.get(node.func, ())):
                    return None
                todo.extend(_quantity_exprs(engine, node.func))
        names |= names_in(e)
    return frozenset(n for n in names if n in p.vars), frozenset(n for n in names if n in p.zones)


class InvariantWatch:
    """Which invariants a decision evaluates: every one when ``State.dirty`` says a var or zone one of them
    reads changed since they last held; otherwise only those whose reads are unknown."""

    def __init__(self, engine, invariants: list[ast.ConstraintDecl]):
        vars_, zones = set(), set()
        self.unknown: set[str] = set()      # the invariants whose reads cannot be known
        for inv in invariants:
            reads = state_reads(engine, [e for e in (inv.require, inv.when) if e is not None])
            if reads is None:
                self.unknown.add(inv.name)
            else:
                vars_ |= reads[0]
                zones |= reads[1]
        self.vars: frozenset[str] = frozenset(vars_)     # a write of one raises State.dirty
        self.zones: frozenset[str] = frozenset(zones)    # a card entering or leaving one raises it
        self.every: list = []
        self.always: list = []

    def bind(self, compiled: list[tuple], engine=None) -> None:
        """The compiled invariants, (declaration, when, require) each, in the spec's order.  Also makes
        ``check_every()`` and ``check_always()``: the position in ``every`` (``always``) of the first invariant
        that does not hold, or -1.  With ``engine``, each is one generated function testing them in order as
        the entries' own functions would, without a call per invariant; without, it calls those functions."""
        self.every = list(compiled)
        self.always = [entry for entry in compiled if entry[0].name in self.unknown]
        make = (lambda entries: _checker(engine, entries)) if engine is not None else _calling
        self.check_every, self.check_always = make(self.every), make(self.always)


def _calling(entries: list[tuple]):
    """The same test, calling the entries' own functions (which a tool may have wrapped)."""
    def check() -> int:
        for i, (_inv, when, require) in enumerate(entries):
            if (when is None or when({})) and not require({}):
                return i
        return -1
    return check


def _checker(engine, entries: list[tuple]):
    g = engine.compiler.gen
    name = g.fresh("invariants")
    lines = []
    for i, (inv, _when, _require) in enumerate(entries):
        loop = _every_loop(g, inv.require, i, "        " if inv.when is not None else "    ")
        if loop is None:
            test = f"not {g.expr(inv.require, Scope({}))}"
            if inv.when is not None:
                test = f"{g.expr(inv.when, Scope({}))} and {test}"
            lines += [f"    if {test}:  # {inv.name}", f"        return {i}"]
        elif inv.when is None:
            lines += [f"    # {inv.name}"] + loop
        else:
            lines += [f"    if {g.expr(inv.when, Scope({}))}:  # {inv.name}"] + loop
    head = [f"def {name}():", "    st = E.st"] + (["    env = {}"] if any("env" in line for line in lines) else [])
    # each zone read once, before the tests (they are pure: nothing in them replaces a zone of the state)
    body = "\n".join(lines)
    zones = {}
    for zone in dict.fromkeys(_ZONE_READ.findall(body)):
        zones[zone] = g.fresh("zone")
        head.append(f"    {zones[zone]} = st.zones.get({zone[9:-1]})")
    body = _ZONE_READ.sub(lambda m: zones[m.group(0)], body)
    return g.define(name, "\n".join(head + [body, "    return -1"]) + "\n", "the invariants, tested before a decision")


_ZONE_READ = re.compile(r"st\.zones\[(?:'[^'\\]*'|\"[^\"\\]*\")\]")


def _every_loop(g, e, number: int, ind: str) -> list[str] | None:
    """``require all(x in xs: test)`` as the lines of a loop returning ``number`` at the first ``x`` that fails
    the test (no generator resumed per element, its work counted inline as SPEND would count it), or the one
    test of it counted per key (fusion.per_key_count); None for another shape."""
    if not (isinstance(e, ast.Aggregate) and e.kind == "all" and e.body is not None):
        return None
    fused = fusion.per_key_count(g, e, Scope({}), (number, ind))
    if fused is not None:
        return fused
    x = g.fresh("x")
    coll = g.expr(e.coll, Scope({}))
    body = g.expr(e.body, Scope({}).with_fixed(e.var, x))
    items = g.fresh("items")
    lines = [f"{ind}{items} = {coll}"]
    if not g.small_and_simple(e):
        lines += [f"{ind}E.work += len({items})", f"{ind}if E.work > MAX_WORK:",
                  f"{ind}    SPEND((), {g.const(e.span, 'span')})"]
    return lines + [f"{ind}for {x} in {items}:", f"{ind}    if not {body}:", f"{ind}        return {number}"]
