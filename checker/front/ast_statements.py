"""The surface AST, continued: a var's lifetime (`var v[…]: T = d until w(a, b) for b`), a lasting trigger and the
statement that installs it (`trigger t(p: Player) when w(…) until w2(…) { … }`, `install t(p)`), and the statements
that send a reaction's actor back to the choice (`retarget`),
exchange two cards' places or two zones' contents (`swap`), and let several players choose at once, in secret
(`each p in ps chooses x in coll … into v[p]`).  They are :mod:`checker.front.ast`'s nodes (``ast.Swap`` …):
that module imports them from here.
"""

from __future__ import annotations

from dataclasses import dataclass

from checker.base.source import Span

__all__ = ["Retarget", "Swap", "ChooseEach", "Lifetime", "Install", "TriggerDecl"]


@dataclass(frozen=True, slots=True)
class Retarget:
    """`retarget`: in a power reacting to a window opened `before` an action, the action does not happen (as with
    `cancel`) and the power or offer that did it is given back: its actor is back at the offer, the power not used."""
    span: Span


@dataclass(frozen=True, slots=True)
class Swap:
    """`swap a with b`: two cards exchange their places (each goes where the other was), or, when both are zones
    (`swap main[p] with main[q]`), the two zones exchange their contents.  The typecheck says which."""
    left: "Expr"
    right: "Expr"
    span: Span


@dataclass(frozen=True, slots=True)
class ChooseEach:
    """`each p in ps chooses x in coll [where cond] into v[p]`: every player ``p`` of ``ps`` chooses an ``x`` of
    ``coll`` (read with ``p`` bound), in secret and without seeing the others' choices; once all have chosen, the
    choices are written to ``v[…]`` together and revealed."""
    player: str
    players: "Expr"
    var: str
    coll: "Expr"
    where: "Expr | None"
    target: "LValue"
    span: Span


@dataclass(frozen=True, slots=True)
class Lifetime:
    """`until w(a, b) [for b]` on a var: when a `signal w(…)` opens ``w``, before its reactions, the var goes back
    to its default — only at the index given by the window's argument named ``index``, or everywhere without
    it.  :mod:`checker.front.lifetimes` writes that as statements before each such `signal`."""
    window: str
    binders: tuple[tuple[str, Span], ...]
    index: str | None
    span: Span


@dataclass(frozen=True, slots=True)
class TriggerDecl:
    """`trigger t(p: Player) "summary" when w(a, b) [until w2(…) [for x]] [requires cond] { body }`: a reaction to
    ``w`` that `install t(e)` sets up for the player ``e`` (no parameter: for nobody in particular), lasting as a
    var's value does.  :mod:`checker.front.triggers` writes it as a Bool var ``t`` with that lifetime, a procedure
    ``t(p, a, b)`` running the body, and, before each `signal w(…)`, a call of it for each player it is installed for."""
    name: str
    params: tuple                       # tuple[Param, ...]: none, or one Player
    summary: str | None
    window: tuple                       # (name, ((binder, span), …), span), as a power's
    until: Lifetime | None
    requires: "Expr | None"
    body: tuple
    span: Span


@dataclass(frozen=True, slots=True)
class Install:
    """`install t(e)`: the lasting trigger ``t`` is set up for ``e`` (written `set t[e] = true` and a log line by
    :mod:`checker.front.triggers` once every file is collected; no backend sees this node)."""
    name: str
    args: tuple                         # tuple[Expr, ...]
    span: Span
