"""Typecheck handlers of `retarget`, `swap` and `each … chooses` (:mod:`checker.front.ast_statements`),
registered in :mod:`checker.front.typecheck_core`'s table."""

from __future__ import annotations

from checker.front import ast
from checker.front.typecheck_core import Checker, Env, _stmt
from checker.front.types import BOOL, ERROR, PLAYER, Coll, KindT, Opt, assignable, element

__all__: list[str] = []


@_stmt(ast.Retarget)
def _(c: Checker, s: ast.Retarget, env: Env):
    if not env.cancel:
        c.err("E0303", "`retarget` is only meaningful in a power reacting to a window opened `before` an action",
              s.span, hint="declare `before act(…) signal w(…)` and react to w with `when w(…)`")


def _zone_ref(c: Checker, e: ast.Expr) -> ast.LValue | None:
    """``e`` as the zone it names (`main[p]`, `pioche`), or None when it is not a zone."""
    if isinstance(e, ast.Name) and e.id in c.p.zones:
        return ast.LValue(e.id, None, e.span)
    if isinstance(e, ast.Index) and isinstance(e.obj, ast.Name) and e.obj.id in c.p.zones:
        return ast.LValue(e.obj.id, e.index, e.span)
    return None


@_stmt(ast.Swap)
def _(c: Checker, s: ast.Swap, env: Env):
    zones = [_zone_ref(c, e) for e in (s.left, s.right)]
    if all(zones):
        left, right = (c.expr(e, env) for e in (s.left, s.right))
        if ERROR not in (left, right) and element(left) != element(right):
            c.err("E0301", f"swap exchanges the contents of two zones of the same kind of cards; "
                           f"these hold {element(left)} and {element(right)}", s.span)
        return
    if any(zones):
        c.err("E0301", "swap exchanges two cards, or the contents of two zones, not a card and a zone", s.span,
              hint="write `move` to put a card into a zone")
        return
    kinds = []
    for e in (s.left, s.right):
        ty = c.expr(e, env)
        if isinstance(ty, Opt) and isinstance(ty.inner, KindT):
            c.err("E0301", f"swap needs a card here, but this may be none ({ty})", e.span,
                  hint="choose the card first, or test it with `if x != none`")
            ty = ERROR
        elif ty is not ERROR and not isinstance(ty, KindT):
            c.err("E0301", f"swap exchanges two cards, or the contents of two zones; this is {ty}", e.span)
            ty = ERROR
        kinds.append(ty)
    if ERROR not in kinds and kinds[0] != kinds[1]:
        c.err("E0301", f"swap exchanges two cards of one kind; these are a {kinds[0]} and a {kinds[1]}", s.span)


@_stmt(ast.ChooseEach)
def _(c: Checker, s: ast.ChooseEach, env: Env):
    c.expect(s.players, Coll(PLAYER), env, "who chooses")
    inner = env.bind(s.player, PLAYER)
    coll = c.expr(s.coll, inner)
    elem = element(coll)
    if elem is None and coll is not ERROR:
        c.err("E0301", f"each … chooses ranges over a collection, not {coll}", s.coll.span)
    elem = ERROR if elem is None else elem
    chosen = inner.bind(s.var, elem)
    if s.where is not None:
        c.expect(s.where, BOOL, chosen, "the condition of the choice")
    target = c.lvalue(s.target, inner, want="var")
    if target is not ERROR and elem is not ERROR and not assignable(elem, target):
        c.err("E0301", f"the choices go into {s.target.name}, which holds {target}, but each is {elem}", s.target.span)
    if s.target.index is None or s.player not in ast.names_in(s.target.index):
        c.err("E0303", f"each player's choice needs a cell of its own: index {s.target.name} by {s.player}",
              s.target.span, hint=f"write `into {s.target.name}[{s.player}]`")
