"""The interpreter's code for `retarget`, `swap` and `each … chooses` (:mod:`checker.front.ast_statements`),
registered in :mod:`checker.runtime.compile`'s table.

- `retarget` raises :class:`~checker.runtime.cards.Retarget` in a reaction: the window closes and the action
  does not happen, as with `cancel`; the action's `do` raises :class:`~checker.runtime.cards.Redirected` (an
  abort), and the power that did it is given back (:meth:`Engine.run_power`): its actor is back at the offer.
- `swap a with b` exchanges two cards' places (:meth:`State.exchange`: in a pile, each takes the other's
  position), or two zones' contents (each keeps its order).
- `each p in ps chooses x in coll … into v[p]`: each player is asked in turn, in secret, from the state before
  any of them chose (nothing changes until all have chosen); then every choice is written and revealed at once.
"""

from __future__ import annotations

from checker.front import ast
from checker.front.types import Coll
from checker.runtime.compile import Compiler, _on
from checker.runtime.state import SWAP_NOWHERE

__all__: list[str] = []


@_on(ast.Retarget)
def _(c: Compiler, s: ast.Retarget, ind):
    return [f"{ind}raise Retarget()"]


def _zone(c: Compiler, e: ast.Expr) -> tuple[str, str]:
    """(name, index source) of a zone written as an expression (`main[p]`, `pioche`)."""
    if isinstance(e, ast.Name):
        return e.id, "None"
    return e.obj.id, c.index(c.p.zones[e.obj.id], e.index)


@_on(ast.Swap)
def _(c: Compiler, s: ast.Swap, ind):
    if isinstance(c.types.get(id(s.left)), Coll):          # two zones: their contents
        return _zone_swap(c, s, ind)
    g = c.gen
    a, b = g.fresh("a"), g.fresh("b")
    return [f"{ind}{a} = {c.expr(s.left)}", f"{ind}{b} = {c.expr(s.right)}",
            f"{ind}if {a} is None or {a} < 0 or {b} is None or {b} < 0:",
            f"{ind}    raise SpecRuntimeError('only a physical card can move (this is a card\\'s name)', "
            f"{c.const(s.span, 'span')})",
            f"{ind}if {a} != {b} and ({a} not in st.where or {b} not in st.where):",
            f"{ind}    raise SpecRuntimeError({SWAP_NOWHERE!r}, {c.const(s.span, 'span')})",
            f"{ind}st.exchange({a}, {b}, {c.const(frozenset(z.name for z in c.p.zones.values() if z.ordered), 'ordered')})"]


def _zone_swap(c: Compiler, s: ast.Swap, ind) -> list[str]:
    g = c.gen
    (na, ia), (nb, ib) = _zone(c, s.left), _zone(c, s.right)
    a, b, ca, cb, x = g.fresh("za"), g.fresh("zb"), g.fresh("ca"), g.fresh("cb"), g.fresh("card")
    return [f"{ind}{a} = {ia}", f"{ind}{b} = {ib}",
            f"{ind}if ({na!r}, {a}) != ({nb!r}, {b}):",
            f"{ind}    {ca} = tuple(st.zone({na!r}, {a}))",
            f"{ind}    {cb} = tuple(st.zone({nb!r}, {b}))",
            f"{ind}    for {x} in {ca}:",
            f"{ind}        st.put({x}, {nb!r}, {b}, 'top')",
            f"{ind}    for {x} in {cb}:",
            f"{ind}        st.put({x}, {na!r}, {a}, 'top')"]


@_on(ast.ChooseEach)
def _(c: Compiler, s: ast.ChooseEach, ind):
    g = c.gen
    p, x, opts, chosen, pick = g.fresh("p"), g.fresh("x"), g.fresh("options"), g.fresh("chosen"), g.fresh("pick")
    span = c.const(s.span, "span")
    with_p = c.scope_.with_fixed(s.player, p)
    coll = g.expr(s.coll, with_p)
    where = "True" if s.where is None else g.expr(s.where, with_p.with_fixed(s.var, x))
    env_lines, env = c.env_lines(ind + "    ")
    lines = [f"{ind}{chosen} = []",
             f"{ind}for {p} in SPEND(tuple({c.expr(s.players)}), {span}):",
             f"{ind}    {opts} = [{x} for {x} in SPEND({coll}, {span}) if {where}]",
             f"{ind}    if not {opts}:", f"{ind}        raise Abort()"]
    lines += env_lines
    lines += [f"{ind}    {env}[{s.player!r}] = {p}",
              f"{ind}    {pick} = E.decide({p}, {c.prompt(s.var) + ' (en même temps que les autres)'!r}, {opts}, "
              f"secret=True, label={c.element_shower(s.coll)}, site={c.const(s, 'site')}, env={env}, chosen=tuple({chosen}))",
              f"{ind}    {chosen}.append(({p}, {pick}))"]
    # all have chosen: the choices are written together, then revealed
    saved, c.scope_ = c.scope_, with_p
    try:
        index = c.index(c.p.vars[s.target.name], s.target.index)
    finally:
        c.scope_ = saved
    lines += c.bump(s.target.name, ind)
    lines += [f"{ind}for {p}, {x} in {chosen}:"]
    if s.target.index is None:
        lines += [f"{ind}    st.vars[{s.target.name!r}] = {x}"]
    else:
        lines += [f"{ind}    st.vars[{s.target.name!r}][{index}] = {x}"]
    shower = c.element_shower(s.coll)
    lines += [f"{ind}if E.recording:",
              f"{ind}    E.event('reveal', value=', '.join(f'Joueur {{{p} + 1}} : {{{shower}({x})}}' "
              f"for {p}, {x} in {chosen}), to=None)"]
    return lines
