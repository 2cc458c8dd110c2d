"""Decision points and moves: what a decision asks (:class:`Point`, from an interpreter's
:class:`~checker.runtime.engine.Decision`) and the moves that answer it, as the interpreter offers them.
Legality (:mod:`checker.solver.legal`) and state files (:mod:`checker.solver.statefile`) both read them.
"""

from __future__ import annotations

import dataclasses

from checker.front import ast
from checker.runtime.engine import Decision, Power
from checker.solver.scopes import Scopes

__all__ = ["KINDS", "Move", "Point", "point_of", "interpreter_moves"]

Move = tuple
KINDS = {ast.Offer: "offer", ast.Choose: "choose", ast.ChooseSubset: "subset", ast.ChooseEach: "each"}


@dataclasses.dataclass
class Point:
    """A decision point: ``site`` asks ``player``, with ``env`` the local names in scope there."""

    site: object            # ast.Offer | ast.Choose | ast.ChooseSubset | Power (a reaction)
    player: int
    env: dict
    card: int | None = None  # for a reaction: the card whose power it is
    chosen: tuple = ()      # `each … chooses`: (player, value) of the players asked before this one, in order

    @property
    def kind(self) -> str:
        return KINDS.get(type(self.site), "react")


def point_of(decision: Decision, scopes: Scopes) -> Point:
    """The decision point an interpreter's decision is, keeping only the names in scope there."""
    site, env = decision.site, decision.env or {}
    if isinstance(site, Power):
        names = ["me", "this", *site.names]
        return Point(site, decision.player, {k: env[k] for k in names if k in env}, env.get("this"))
    names = scopes.at.get(id(site), {})
    return Point(site, decision.player, {k: env[k] for k in names if k in env}, chosen=tuple(decision.chosen))


def interpreter_moves(decision: Decision) -> list[Move]:
    """The options the interpreter offered at a decision, as moves."""
    site = decision.site
    if isinstance(site, Power):
        return [("react", bool(o)) for o in decision.options]
    if isinstance(site, ast.Offer):
        out = []
        for o in decision.options:
            if o[0] == "action":
                out.append(("action", o[1], tuple(o[2])))
            elif o[0] == "power":
                out.append(("power", o[2], o[1].name))
            else:
                out.append(("finish", o[1]))
        return out
    return [("choose", o) for o in decision.options] + ([("nothing",)] if decision.optional else [])
