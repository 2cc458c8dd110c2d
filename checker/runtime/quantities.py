"""A quantity's generated functions: computed (its value rules, then its adjustments) and cached until the state
next changes (:func:`quantity_functions`); the expressions they are made of are :mod:`checker.runtime.codegen`'s."""

from __future__ import annotations

import re
from typing import Callable

from checker.front import ast
from checker.runtime.codegen import _COUNTED, Scope, int_guard, is_cheap, is_static
from checker.runtime.hoist import loop_lines

__all__ = ["quantity_functions"]


def _tested(when: str, rule: str) -> list[str]:
    """``if when:`` of a rule's head in a quantity's function, its any/all as loops (:func:`hoist.loop_lines`)."""
    loops = loop_lines("holds", when)
    return [*(f"    {line}" for line in loops), f"    if holds:  # {rule}"] if loops else [f"    if {when}:  # {rule}"]


def quantity_functions(engine, name: str) -> tuple[Callable, Callable]:
    """The quantity computed (its value rules, then its adjustments), and the same cached until the state
    next changes (a cheap quantity is not cached: computing it again costs less than looking it up; a
    static one is cached for the whole game)."""
    g, q = engine.compiler.gen, engine.program.quantities[name]
    params = [x.name for x in q.params]
    args = ", ".join(f"a{i}" for i in range(len(params)))
    compute = g.fresh("compute" + name)
    lines = [f"def {compute}({args}):", "    st = E.st"]
    values, adjusts = [], []
    for rule, h in engine._heads.get(name, ()):
        binders = tuple(b for b, _ in h.pattern.binders)
        scope = engine._rule_scope(binders, rule)
        active, copies = engine.cards.wrapping(rule)
        if active or copies:
            # the head is read with each value of `this` it applies with (CardState.when_source)
            t = g.fresh("t")
            scope = scope.with_fixed("this", t)
            when = g.expr(h.when, scope) if h.when is not None else "True"
            loop = (t, f"E.cards.thises({engine.def_ids[rule.card]}, {copies})")
        else:
            when, loop = (g.expr(h.when, scope) if h.when is not None else "True"), None
        (values if h.kind == "value" else adjusts).append((rule.name, when, g.expr(h.expr, scope), loop))
    if values:
        default = g.expr(q.default, Scope({x: f'a{i}' for i, x in enumerate(params)}))
        # most often no rule applies: all tests at once first, if reading one twice changes nothing (no work counted)
        # (a cheap quantity's: no `can`, no search, no aggregate that counts work, in its tests)
        quick = is_cheap(engine, name) and all(loop is None for *_, loop in values) and not any(
            _COUNTED.search(when) for _, when, _, _ in values)
        if quick:
            lines += [f"    if not ({' or '.join(f'({w})' for _, w, _, _ in values)}):", f"        result = {default}", "    else:"]
        slow = len(lines)
        lines.append("    chosen = -1")
        for i, (rule, when, _, loop) in enumerate(values):
            if loop is not None:
                # the first `this` it applies with is the one its value is read with
                t, thises = loop
                found = g.fresh("found")
                lines += [f"    {found} = False", f"    for {t} in {thises}:",
                          f"        if {when}:", f"            {found} = True", "            break"]
                when = found
            lines += _tested(when, rule)
            if i == 0:                  # nothing chosen before the first rule
                lines.append("        chosen = 0")
                continue
            lines.append("        if chosen < 0:")
            lines.append(f"            chosen = {i}")
            for j, (other, _, _, _) in enumerate(values[:i]):
                lines.append(f"        elif chosen == {j}:")
                if (other, rule) in engine.defeats:
                    lines.append("            pass")
                elif (rule, other) not in engine.defeats:
                    message = (f"rules '{other}' and '{rule}' give {name} two values, "
                               f"and no precedence says which wins")
                    lines.append(f"            raise SpecRuntimeError({message!r})")
                else:
                    lines.append(f"            chosen = {i}")
        # the default first: most often no rule gives a value
        lines.append("    if chosen < 0:")
        lines.append(f"        result = {default}")
        for i, (_, _, value, _) in enumerate(values):
            lines.append(f"    elif chosen == {i}:" if i < len(values) - 1 else "    else:")
            lines.append(f"        result = {value}")
        if quick:
            lines[slow:] = ["    " + line for line in lines[slow:]]
    else:
        lines.append(f"    result = {g.expr(q.default, Scope({x: f'a{i}' for i, x in enumerate(params)}))}")
    for rule, when, amount, loop in adjusts:
        if loop is not None:
            t, thises = loop
            lines += [f"    for {t} in {thises}:  # {rule}", f"        if {when}:", f"            result += {amount}"]
            continue
        lines += _tested(when, rule)
        lines.append(f"        result += {amount}")
    if isinstance(q.type, ast.TypeName) and q.type.name == "Int" and not g.within_max_int(name):
        lines += int_guard("result", f"the quantity {name}", g.const(q.span, "span"), "    ")
    lines.append("    return result")
    # its value written once (no rule, no guard): returned as it is computed, `st` read only if it is used
    whole = lines[2][len("    result = "):] if len(lines) == 4 and lines[2].startswith("    result = ") else None
    plain = [lines[0], *(["    st = E.st"] if re.search(r"\bst\b", whole) else []), f"    return {whole}"] if whole else lines
    g.define(compute, "\n".join(plain) + "\n", f"quantity {name}, computed")
    cached = engine.quantity_name(name)
    if is_cheap(engine, name):
        g.ns[cached] = g.ns[compute]
        return g.ns[compute], g.ns[compute]
    # one cache per quantity, keyed by its argument (or their tuple)
    key = "a0" if len(params) == 1 else f"({args},)" if params else "None"
    cache = g.const({}, "cache" + name)
    if is_static(engine, name):
        engine._scaches.append(g.ns[cache])
        source = f"""def {cached}({args}):
    value = {cache}.get({key}, MISSING)
    if value is MISSING:
        value = {cache}[{key}] = {compute}({args})
    return value
"""
        return g.ns[compute], g.define(cached, source, f"quantity {name}")
    engine._qcaches[name] = g.ns[cache]
    # the computation's own lines, inlined when they end with their only return (one frame fewer a miss)
    body = lines[1:-1]
    if lines[-1] == "    return result" and not any(re.match(r"\s*return\b", line) for line in body) \
            and not re.search(r"\bvalue\b", "\n".join(body)):
        computed = "\n".join(body) + "\n    value = result"
    else:
        computed = f"    value = {compute}({args})"
    source = f"""def {cached}({args}):
    if E.st.version != E._qversion:
        QNEW()
    else:
        value = {cache}.get({key}, MISSING)
        if value is not MISSING:
            return value
{computed}
    if E.st.version == E._qversion:     # computing it changed nothing (quantities are pure)
        if not {cache}:
            QFILLED.append({cache})
        {cache}[{key}] = value
    return value
"""
    return g.ns[compute], g.define(cached, source, f"quantity {name}")
