"""The local names in scope at each decision point of a spec, with their types.

A decision point is a `choose`, a `choose … subset`, one player's pick of an `each … chooses`,
an `offer`, or a power reacting to a window.  Its state file records the values of these names
(``p``, ``c``, ``cibles`` …), and this table says how to read and write them.
"""

from __future__ import annotations

from checker.front import ast
from checker.base.diagnostics import Reporter
from checker.front.typecheck import Checker, Typed
from checker.front.types import PLAYER, Coll, KindT, Ty, element

__all__ = ["Scopes"]


class Scopes:
    def __init__(self, typed: Typed):
        self.typed = typed
        p = typed.program
        self.resolve = Checker(p, Reporter()).resolve_type
        self.at: dict[int, dict[str, Ty]] = {}      # id(statement) -> names in scope there
        self.bound: dict[int, set[str]] = {}        # id(statement) -> those of them bound on every path there
        self.where: dict[int, str] = {}             # id(statement) -> what it belongs to
        self.sites: dict[str, object] = {}          # "file:line:col" -> statement
        self.cites: dict[int, tuple[ast.Cite, ...]] = {}  # id(statement) -> the sentences cited just before it
        for proc in p.procedures.values():
            names = {x.name: self.resolve(x.type) for x in proc.params}
            self._block(proc.body, names, f"procedure {proc.name}", (), set(names))
        for act in p.actions.values():
            if act.body is not None:
                names = {x.name: self.resolve(x.type) for x in act.params}
                self._block(act.body, names, f"action {act.name}", (), set(names))
        for card in p.cards.values():
            for pw in card.powers:
                names = self.power_names(card, pw)
                self._block(pw.body, names, f'power {pw.name} ("{card.name}")', (), set(names))

    def power_names(self, card: ast.CardDecl, pw: ast.PowerDecl) -> dict[str, Ty]:
        """The names a reacting power sees: ``me``, ``this`` and its window's parameters."""
        names = {"me": PLAYER, "this": KindT(card.kind)}
        if pw.window is not None and pw.window[0] in self.typed.program.windows:
            params = self.typed.program.windows[pw.window[0]].params
            names.update({n: self.resolve(x.type) for (n, _), x in zip(pw.window[1], params)})
        return names

    def choice_type(self, site) -> Ty | None:
        """The type of what a `choose` (`choose … subset`, `each … chooses`) site picks among; None for another
        site."""
        if isinstance(site, (ast.Choose, ast.ChooseSubset, ast.ChooseEach)):
            t = self.typed.types.get(id(site.coll))
            return t.elem if isinstance(t, Coll) else t
        return None

    def _type(self, e) -> Ty | None:
        return self.typed.types.get(id(e))

    def _block(self, stmts, names: dict, owner: str, cites: tuple, bound: set) -> None:
        """Record the names in scope at each decision point of ``stmts``; ``bound`` holds the names that have a
        value on every path (a `let` in one branch of an `if` is in scope after it, but may have none)."""
        recent: list = []
        for s in stmts:
            if isinstance(s, ast.CiteStmt):
                recent.append(s.cite)
                continue
            if recent:
                cites, recent = tuple(recent), []
            if isinstance(s, (ast.Choose, ast.ChooseSubset, ast.Offer, ast.ChooseEach)):
                each = {s.player: PLAYER} if isinstance(s, ast.ChooseEach) else {}   # who chooses, at that point
                self.at[id(s)] = {**names, **each}
                self.bound[id(s)] = set(bound) | set(each)
                self.where[id(s)] = owner
                self.sites[str(s.span)] = s
                self.cites[id(s)] = cites
            if isinstance(s, ast.Let):
                names[s.name] = self._type(s.value)
                bound.add(s.name)
            elif isinstance(s, ast.Choose):
                names[s.var] = element(self._type(s.coll))
                bound.add(s.var)
            elif isinstance(s, ast.ChooseSubset):
                names[s.var] = Coll(element(self._type(s.coll)))
                bound.add(s.var)
            elif isinstance(s, ast.For):
                inner = dict(names)
                inner[s.var] = element(self._type(s.coll))
                self._block(s.body, inner, owner, cites, bound | {s.var})
                names.update({k: v for k, v in inner.items() if k != s.var})
            elif isinstance(s, ast.If):
                self._block(s.then, names, owner, cites, set(bound))
                self._block(s.else_, names, owner, cites, set(bound))
            elif isinstance(s, ast.Repeat):
                self._block(s.body, names, owner, cites, set(bound))
        # the subset's own variable is in scope at its decision point (what is chosen so far)
        for s in stmts:
            if isinstance(s, ast.ChooseSubset) and id(s) in self.at:
                self.at[id(s)][s.var] = Coll(element(self._type(s.coll)))
                self.bound[id(s)].add(s.var)
