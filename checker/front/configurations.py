"""Configurations: each named selection of cards is checked against every constraint,
for every player count it claims to support.

Constraints only see the configuration (``selected(Kind)``, card attributes,
``player_count``), so they are evaluated here directly, without a game state.
"""

from __future__ import annotations

import dataclasses
from typing import Callable

from checker.front import ast
from checker.base.diagnostics import Note, Reporter
from checker.base.limits import MAX_PLAYERS, MAX_RANGE
from checker.front.program import Program

__all__ = ["Selection", "select", "check_configurations", "ConfigEvalError", "evaluate", "game_player_counts",
           "explain", "refusals", "spans_of_counts", "span_text", "unknown_configuration"]


class ConfigEvalError(Exception):
    def __init__(self, message: str, span):
        super().__init__(message)
        self.span = span


@dataclasses.dataclass(frozen=True)
class Selection:
    """The cards a configuration uses at one player count, by kind."""

    players: int
    cards: dict[str, tuple[str, ...]]


_OPS: dict[str, Callable] = {
    "+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b,
    "/": lambda a, b: a // b if b else 0, "%": lambda a, b: a % b if b else 0,
    "<": lambda a, b: a < b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b,
    "==": lambda a, b: a == b, "!=": lambda a, b: a != b,
}


def evaluate(e: ast.Expr, program: Program, sel: Selection, env: dict):
    """Evaluate a configuration-only expression (the type checker has already vetted it)."""
    ev = lambda x, en=env: evaluate(x, program, sel, en)  # noqa: E731
    if isinstance(e, (ast.IntLit, ast.BoolLit)):
        return e.value
    if isinstance(e, ast.NoneLit):
        return None
    if isinstance(e, ast.StrLit):
        return e.value
    if isinstance(e, ast.Name):
        if e.id in env:
            return env[e.id]
        if e.id == "player_count":
            return sel.players
        if e.id in program.enum_members:
            return e.id
        if e.id in program.enums:
            return [m.name for m in program.enums[e.id].members]
        raise ConfigEvalError(f"'{e.id}' cannot be evaluated on a configuration", e.span)
    if isinstance(e, ast.Call) and e.func == "selected":
        return list(sel.cards.get(e.args[0].id, ()))
    if isinstance(e, ast.Call) and e.func in ("least", "greatest", "half"):
        args = [ev(a) for a in e.args]
        return {"least": min, "greatest": max}.get(e.func, lambda n: n // 2)(*args)
    if isinstance(e, ast.Attr):
        card = program.cards[ev(e.obj)]
        if e.name == "name":
            return card.name
        for value in card.attrs:
            if value.name == e.name:
                return ev(value.value)
        for attr in program.kinds[card.kind].attrs:
            if attr.name == e.name:
                return ev(attr.default) if attr.default is not None else None
        return None
    if isinstance(e, ast.Unary):
        v = ev(e.operand)
        return (not v) if e.op == "not" else -v
    if isinstance(e, ast.Binary):
        if e.op == "and":
            return ev(e.left) and ev(e.right)
        if e.op == "or":
            return ev(e.left) or ev(e.right)
        if e.op == "..":
            low, high = ev(e.left), ev(e.right)
            if high - low > MAX_RANGE:
                raise ConfigEvalError(f"the range {low}..{high} is too large to evaluate (over {MAX_RANGE} values)",
                                      e.span)
            return list(range(low, high + 1))
        if e.op in ("in", "notin"):
            found = ev(e.left) in ev(e.right)
            return found if e.op == "in" else not found
        return _OPS[e.op](ev(e.left), ev(e.right))
    if isinstance(e, ast.IfExpr):
        return ev(e.then) if ev(e.cond) else ev(e.else_)
    if isinstance(e, ast.SetLit):
        return [ev(x) for x in e.items]
    if isinstance(e, ast.Aggregate):
        items = ev(e.coll)
        results = [(x, ev(e.body, {**env, e.var: x}) if e.body is not None else True) for x in items]
        kind = e.kind
        if kind == "count":
            return sum(1 for _, r in results if r)
        if kind == "sum":
            return sum(r for _, r in results)
        if kind == "any":
            return any(r for _, r in results)
        if kind == "all":
            return all(r for _, r in results)
        if kind in ("max", "min"):
            values = [r for _, r in results]
            return (max if kind == "max" else min)(values) if values else 0
        if kind == "filter":
            return [x for x, r in results if r]
        if kind in ("the", "only"):
            hits = [x for x, r in results if r]
            if len(hits) == 1:
                return hits[0]
            if kind == "the" and not hits:
                return None
            raise ConfigEvalError(f"{kind}(…) found {len(hits)} elements", e.span)
        if kind in ("argmax", "argmin"):
            if not results:
                return []
            best = (max if kind == "argmax" else min)(r for _, r in results)
            return [x for x, r in results if r == best]
    raise ConfigEvalError("this expression cannot be evaluated on a configuration", e.span)


def _player_counts(fields, default: list[int], program: Program, sel: Selection) -> list[int]:
    for f in fields:
        if f.name == "players":
            counts: list[int] = []
            for v in f.values:
                if isinstance(v, ast.Binary) and v.op == "..":
                    low, high = evaluate(v.left, program, sel, {}), evaluate(v.right, program, sel, {})
                    if low > high:
                        raise ConfigEvalError(f"the range {low}..{high} is empty", v.span)
                    if low < 1 or high > MAX_PLAYERS:
                        raise ConfigEvalError(f"player counts go from 1 to {MAX_PLAYERS}; {low}..{high} does not",
                                              v.span)
                value = evaluate(v, program, sel, {})
                for n in value if isinstance(value, list) else [value]:
                    if not 1 <= n <= MAX_PLAYERS:
                        raise ConfigEvalError(f"player counts go from 1 to {MAX_PLAYERS}; {n} does not", v.span)
                    counts.append(n)
            return sorted(set(counts))
    return default


def game_player_counts(program: Program, reporter: Reporter | None = None) -> list[int]:
    if program.game is None:
        return []
    try:
        return _player_counts(program.game.fields, [], program, Selection(0, {}))
    except ConfigEvalError as exc:
        if reporter is not None:
            reporter.error("E0602", f"the game's players: {exc}", exc.span)
        return []


def select(program: Program, config: ast.ConfigDecl, players: int) -> Selection:
    """The cards ``config`` uses with ``players`` players (the first alternative of each replacement)."""
    base = Selection(players, {})
    chosen: dict[str, list[str]] = {}
    for inc in config.includes:
        if inc.when is None or evaluate(inc.when, program, base, {}):
            chosen.setdefault(inc.kind, []).extend(name for name, _ in inc.names)
    for rep in config.replaces:
        if rep.when is None or evaluate(rep.when, program, base, {}):
            for kind, names in chosen.items():
                if rep.old[0] in names and rep.new:
                    names[names.index(rep.old[0])] = rep.new[0][0]
    return Selection(players, {k: tuple(v) for k, v in chosen.items()})


def check_configurations(program: Program, reporter: Reporter) -> dict[str, list[int]]:
    """Check every configuration at every player count it supports; returns those counts."""
    supported: dict[str, list[int]] = {}
    game_counts = game_player_counts(program, reporter)
    for config in program.configurations.values():
        try:
            counts = _player_counts(config.fields, game_counts, program, Selection(0, {}))
        except ConfigEvalError as exc:
            reporter.error("E0603", str(exc), exc.span)
            continue
        outside = [n for n in counts if game_counts and n not in game_counts]
        if outside:
            shown = ", ".join(map(str, outside[:5])) + (", …" if len(outside) > 5 else "")
            reporter.error("E0602", f"configuration \"{config.name}\" claims {shown} players, "
                                    f"but the game is for {game_counts[0]}–{game_counts[-1]}", config.span)
            counts = [n for n in counts if n not in outside]
        supported[config.name] = counts
        for n in counts:
            try:
                sel = select(program, config, n)
            except ConfigEvalError as exc:
                reporter.error("E0603", str(exc), exc.span)
                break
            for cards in sel.cards.values():
                seen = set()
                for name in cards:
                    if name in seen:
                        reporter.error("E0602", f"\"{name}\" is selected twice in \"{config.name}\" with {n} players",
                                       config.span)
                    seen.add(name)
            for constraint in program.selection_constraints():
                try:
                    applies = constraint.when is None or evaluate(constraint.when, program, sel, {})
                    if applies and not evaluate(constraint.require, program, sel, {}):
                        message = constraint.message or f"constraint '{constraint.name}' does not hold"
                        reporter.error("E0601", f"configuration \"{config.name}\" with {n} players: {message}",
                                       config.span, notes=[Note(f"constraint '{constraint.name}'", constraint.span)])
                except ConfigEvalError as exc:
                    reporter.error("E0603", f"constraint '{constraint.name}': {exc}", exc.span)
    return supported


# ---------------------------------------------------------------- why a selection is refused

def explain(constraint: ast.ConstraintDecl, program: Program, sel: Selection,
            source: Callable[[object], str | None] | None = None) -> str | None:
    """Why ``constraint`` refuses the selection ``sel`` (None: it holds, or does not apply): its message (or
    name), and what in the selection breaks it — the values a comparison found, the elements an ``all`` fails
    for, the cards a ``count`` counted.  ``source(span)``, if given, is the spec's text at a span (to name
    what was compared)."""
    try:
        if constraint.when is not None and not evaluate(constraint.when, program, sel, {}):
            return None
        if evaluate(constraint.require, program, sel, {}):
            return None
        detail = _why(constraint.require, program, sel, {}, source or (lambda span: None))
    except ConfigEvalError as exc:
        return f"constraint {constraint.name}: {exc}"
    head = (constraint.message or f"constraint {constraint.name} does not hold").rstrip(". ")
    return f"{head} — {detail}" if detail else head


_MAX_SHOWN = 6


def _why(e: ast.Expr, program: Program, sel: Selection, env: dict, source: Callable) -> str:
    """What makes the (false) condition ``e`` false on ``sel``, briefly."""
    if isinstance(e, ast.Binary) and e.op == "and":
        return "; ".join(part for side in (e.left, e.right) if not evaluate(side, program, sel, env)
                         for part in [_why(side, program, sel, env, source)] if part)
    if isinstance(e, ast.Binary) and e.op in ("==", "!=", "<", "<=", ">", ">="):
        left, right = evaluate(e.left, program, sel, env), evaluate(e.right, program, sel, env)
        what = source(e.left.span)
        counted = _counted(e.left, program, sel, env)
        found = f"{what} is {_shown(left)}" if what else f"found {_shown(left)}"
        return found + (f" ({counted})" if counted else "") + f", required {e.op} {source(e.right.span) or _shown(right)}"
    if isinstance(e, ast.Aggregate) and e.kind == "all" and e.body is not None:
        failing = [x for x in evaluate(e.coll, program, sel, env)
                   if not evaluate(e.body, program, sel, {**env, e.var: x})]
        parts = []
        for x in failing[:_MAX_SHOWN]:
            inner = _why(e.body, program, sel, {**env, e.var: x}, source)
            parts.append(f"{e.var} = {_shown(x)}" + (f": {inner}" if inner else ""))
        more = f", and {len(failing) - _MAX_SHOWN} more" if len(failing) > _MAX_SHOWN else ""
        return "false for " + ", ".join(parts) + more
    return ""


def _counted(e: ast.Expr, program: Program, sel: Selection, env: dict) -> str:
    """The elements a `count`/`sum` over a collection counted, when there are a few."""
    if isinstance(e, ast.Aggregate) and e.kind in ("count", "sum"):
        items = evaluate(e.coll, program, sel, env)
        if e.kind == "count" and e.body is not None:
            items = [x for x in items if evaluate(e.body, program, sel, {**env, e.var: x})]
        if 0 < len(items) <= _MAX_SHOWN:
            return ", ".join(_shown(x) for x in items)
    return ""


def _shown(value) -> str:
    if isinstance(value, list):
        return "{" + ", ".join(_shown(v) for v in value) + "}"
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "none"
    return str(value)


def spans_of_counts(counts: list[int]) -> str:
    """``2, 4–7`` for [2, 4, 5, 6, 7].

    >>> spans_of_counts([2, 4, 5, 6, 7]), spans_of_counts([3]), spans_of_counts([])
    ('2, 4–7', '3', 'no')
    """
    if not counts:
        return "no"
    runs: list[list[int]] = []
    for n in sorted(counts):
        if runs and n == runs[-1][1] + 1:
            runs[-1][1] = n
        else:
            runs.append([n, n])
    return ", ".join(str(a) if a == b else f"{a}–{b}" for a, b in runs)


def refusals(program: Program, config: ast.ConfigDecl, counts: list[int], players: int,
             source: Callable[[object], str | None] | None = None) -> list[str]:
    """Why ``config`` is not for ``players`` players: the game's range, its own `players:` field, and each
    constraint of the spec its selection at that count would break (with what breaks it)."""
    game = game_player_counts(program)
    if game and players not in game:
        return [f"the game is for {spans_of_counts(game)} players"]
    reasons = [f"its players field allows {spans_of_counts(counts)}"] if players not in counts else []
    try:
        sel = select(program, config, players)
    except ConfigEvalError as exc:
        return reasons + [str(exc)]
    broken = [why for c in program.selection_constraints() for why in [explain(c, program, sel, source)] if why]
    if broken:
        reasons.append(f"at {players} players its cards would break: " + "; ".join(broken))
    elif reasons:
        reasons[-1] += f" (its cards at {players} players would satisfy every constraint of the spec)"
    return reasons


def span_text(sources) -> Callable[[object], str | None]:
    """``span -> the spec's text there`` (None for a span over several lines), for :func:`explain`."""
    def text(span) -> str | None:
        if span is None or span.line != span.end_line:
            return None
        line = sources.line(span.file, span.line)
        return line[span.column - 1:span.end_column - 1] if line is not None else None
    return text


def unknown_configuration(program: Program, name: str) -> str:
    """What to say of a configuration name the spec does not have: the nearest name, else the known ones."""
    from checker.front.program import did_you_mean
    hint = did_you_mean(name, program.configurations, '"')
    known = ", ".join(f'"{n}"' for n in program.configurations) or "none"
    return f'no configuration "{name}"' + (f"; {hint}" if hint else f" (known: {known})")
