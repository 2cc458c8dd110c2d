"""Conditions over a path: ``changes(e)`` and ``initially(e)`` in a `reach` CONDITION.

A CONDITION is read on one state; two functions read the path that led there:

- ``initially(e)`` — the value ``e`` had where the search started (the set-up);
- ``changes(e)`` — how many times the value of ``e`` changed along the path: at each decision point (and at the
  end of the flow) ``e`` is compared with its value at the previous one (the first with its value at the
  start), and a difference counts one.  A change undone before the next decision point is not seen.

``e`` is any expression of the spec's language with a single value (a number, a Bool, a player, a card, an enum
member; not a collection) and no path function inside.  Each call is replaced by a name (``__changes_1__`` …)
that the condition reads from its environment; :class:`Monitors` keeps their values as the interpreter plays,
and :class:`checker.solver.unroll.Unrolled` as terms along the unrolled flow (:meth:`~checker.solver.unroll.
Unrolled.check`): the same definition, two backends.
"""

from __future__ import annotations

import dataclasses

from checker.front import ast

__all__ = ["PATH_FUNCTIONS", "Monitor", "rewrite", "Monitors"]

PATH_FUNCTIONS = ("changes", "initially")


@dataclasses.dataclass(frozen=True)
class Monitor:
    name: str           # the name the rewritten condition reads
    kind: str           # changes | initially
    expr: object        # the expression watched
    span: object


def _calls(e, found: list, reporter, inside: bool = False):
    """``e`` with each path function's call replaced by a name; the calls in ``found``."""
    if isinstance(e, ast.Call) and e.func in PATH_FUNCTIONS:
        if inside:
            reporter.error("E0303", f"{e.func}(…) inside another path function: it reads a path, not a state",
                           e.span)
            return e
        if len(e.args) != 1:
            reporter.error("E0302", f"{e.func}(…) takes one expression, not {len(e.args)}", e.span,
                           hint=f"write {e.func}(expression)")
            return e
        _calls(e.args[0], [], reporter, inside=True)
        monitor = Monitor(f"__{e.func}_{len(found) + 1}__", e.func, e.args[0], e.span)
        found.append(monitor)
        return ast.Name(monitor.name, e.span)
    if not dataclasses.is_dataclass(e) or isinstance(e, type):
        return e
    changes = {}
    for f in dataclasses.fields(e):
        value = getattr(e, f.name)
        if isinstance(value, tuple):
            new = tuple(_calls(x, found, reporter, inside) if dataclasses.is_dataclass(x) else
                        (tuple(_calls(y, found, reporter, inside) if dataclasses.is_dataclass(y) else y for y in x)
                         if isinstance(x, tuple) else x) for x in value)
            if any(a is not b for a, b in zip(new, value)):
                changes[f.name] = new
        elif dataclasses.is_dataclass(value) and not isinstance(value, type) and f.name != "span":
            new = _calls(value, found, reporter, inside)
            if new is not value:
                changes[f.name] = new
    return dataclasses.replace(e, **changes) if changes else e


def rewrite(expr, reporter) -> tuple[object, list[Monitor]]:
    """The condition with its path functions replaced by names, and what each name watches."""
    found: list[Monitor] = []
    return _calls(expr, found, reporter), found


class Monitors:
    """The interpreter's side: the values of the path functions as a game is played."""

    def __init__(self, monitors: list[Monitor], functions: dict):
        self.monitors = monitors
        self.functions = functions          # name -> the interpreter's test of the watched expression (env -> v)
        self.values: dict[str, object] = {}
        self.previous: dict[str, object] = {}

    def start(self, env: dict) -> None:
        """The search's start: ``initially`` is read, ``changes`` is 0."""
        for m in self.monitors:
            value = self.functions[m.name](env)
            self.previous[m.name] = value
            self.values[m.name] = value if m.kind == "initially" else 0

    def point(self, env: dict) -> None:
        """A decision point (or the end of the flow): each ``changes`` compares with the previous point."""
        for m in self.monitors:
            if m.kind != "changes":
                continue
            value = self.functions[m.name](env)
            if value != self.previous[m.name]:
                self.values[m.name] += 1
            self.previous[m.name] = value
