"""What an offer's loops already say about its legality tests (compile.py's ``_enumeration``).

An offer lists ``act(…) for x in zone[…]``: inside that loop, ``x`` *is* in ``zone[…]``.  Two facts follow,
both exact (a zone's list, the places of its cards and its counts per definition are kept together by
``State.put``), and both leave every listing the same, option for option and in the same order:

- a prohibition's part that says ``x is not in zone[…]`` (or ``x not in``, or ``not (x in …)``) of that
  very zone is false in the loop: it is left out of the test, and a prohibition with nothing else left
  never blocks there, so it is not tested at all;
- when the first prohibition tested in the loop (one nothing lifts) has a part ``x != "<card>"``, only a
  card of that definition can be listed: the loop runs only when the zone holds one (its count, one
  dictionary look-up), instead of testing every card of the zone.

Only plain places are compared (names, indexes, attributes, literals, after the rule's binders are
replaced by the offer's arguments): anything else is tested as written.
"""

from __future__ import annotations

import dataclasses

from checker.front import ast

__all__ = ["without_implied", "card_guards"]

_PLAIN = (ast.Name, ast.Index, ast.Attr, ast.StrLit, ast.IntLit, ast.BoolLit)


def _disjuncts(e: ast.Expr) -> list[ast.Expr]:
    if isinstance(e, ast.Binary) and e.op == "or":
        return _disjuncts(e.left) + _disjuncts(e.right)
    return [e]


def _either(parts: list[ast.Expr]) -> ast.Expr:
    out = parts[0]
    for part in parts[1:]:
        out = ast.Binary("or", out, part, part.span)
    return out


def _shape(e, subst: dict):
    """``e`` without its spans, each name of ``subst`` replaced; None when ``e`` is not a plain place."""
    if isinstance(e, ast.Name):
        return subst.get(e.id, ("name", e.id))
    if not isinstance(e, _PLAIN):
        return None
    parts = [type(e).__name__]
    for f in dataclasses.fields(e):
        if f.name == "span":
            continue
        value = getattr(e, f.name)
        if dataclasses.is_dataclass(value):
            value = _shape(value, subst)
            if value is None:
                return None
        parts.append(value)
    return tuple(parts)


def _names(e) -> set[str]:
    if isinstance(e, ast.Name):
        return {e.id}
    out: set[str] = set()
    if dataclasses.is_dataclass(e):
        for f in dataclasses.fields(e):
            value = getattr(e, f.name)
            if dataclasses.is_dataclass(value):
                out |= _names(value)
    return out


class _Loops:
    """An offer item's binders and arguments, as the rules about its action see them."""

    def __init__(self, item: ast.OfferAction, globals_: set[str]):
        self.item = item
        self.depth = {var: k for k, (var, _) in enumerate(item.binders)}
        self.globals = globals_
        names = [var for var, _ in item.binders]
        # a binder's collection, comparable when it is a plain place that reads no later binder
        self.colls = []
        for k, (_, coll) in enumerate(item.binders):
            usable = _shape(coll, {}) is not None and not (_names(coll) & set(names[k:]))
            self.colls.append(_shape(coll, {}) if usable else None)

    def binder_of(self, head: ast.RuleHead, name: str) -> int | None:
        """The depth of the offer's binder the rule's binder ``name`` stands for, or None."""
        binders = [b for b, _ in head.pattern.binders]
        if name not in binders or binders.index(name) >= len(self.item.args):
            return None
        arg = self.item.args[binders.index(name)]
        return self.depth.get(arg.id) if isinstance(arg, ast.Name) else None

    def substitution(self, head: ast.RuleHead) -> dict | None:
        binders = [b for b, _ in head.pattern.binders]
        if len(binders) > len(self.item.args):
            return None
        subst = {}
        for b, arg in zip(binders, self.item.args):
            shape = _shape(arg, {})
            if shape is None:
                return None
            subst[b] = shape
        return subst

    def implied_false(self, head: ast.RuleHead, part: ast.Expr) -> bool:
        """Is ``part`` (of the rule head's condition) ``x is not in`` the zone its offer binder ranges over?"""
        if isinstance(part, ast.Unary) and part.op == "not" and isinstance(part.operand, ast.Binary) \
                and part.operand.op in ("in", "isin"):
            member = part.operand
        elif isinstance(part, ast.Binary) and part.op in ("notin", "isnotin"):
            member = part
        else:
            return False
        if not isinstance(member.left, ast.Name):
            return False
        k = self.binder_of(head, member.left.id)
        subst = self.substitution(head)
        if k is None or subst is None or self.colls[k] is None:
            return False
        binders = {b for b, _ in head.pattern.binders}
        if not _names(member.right) <= binders | self.globals:
            return False
        return _shape(member.right, subst) == self.colls[k]


def without_implied(tests: list[tuple], item: ast.OfferAction, globals_: set[str]) -> list[tuple]:
    """``tests`` (as ``Engine.legality_tests``) with each prohibition's parts that the item's loops make false
    left out, and the prohibitions left with none dropped."""
    loops = _Loops(item, globals_)
    out = []
    for rule, head, lifts in tests:
        if head.when is None:
            out.append((rule, head, lifts))
            continue
        parts = _disjuncts(head.when)
        kept = [part for part in parts if not loops.implied_false(head, part)]
        if not kept:
            continue                        # never blocks inside these loops
        if len(kept) < len(parts):
            head = dataclasses.replace(head, when=_either(kept))
        out.append((rule, head, lifts))
    return out


def card_guards(g, test: tuple, item: ast.OfferAction, globals_: set[str], wrapped: bool) -> dict[int, int]:
    """Binder depth -> the definition its card must have for ``test`` (the first prohibition tested in the
    loops, one nothing lifts) to let it through: a part ``x != "<card>"``, ``x`` an offer binder ranging over
    a zone."""
    rule, head, lifts = test
    if lifts or wrapped or head.when is None:
        return {}
    loops = _Loops(item, globals_)
    guards: dict[int, int] = {}
    for part in _disjuncts(head.when):
        if not (isinstance(part, ast.Binary) and part.op == "!="):
            continue
        for name, literal in ((part.left, part.right), (part.right, part.left)):
            if not (isinstance(name, ast.Name) and g.is_card(name)):
                continue
            key = g.literal_key(literal)
            k = loops.binder_of(head, name.id)
            if key is None or k is None or k in guards:
                continue
            coll = item.binders[k][1]
            zone = coll.id if isinstance(coll, ast.Name) else getattr(coll.obj, "id", None) \
                if isinstance(coll, ast.Index) else None
            if zone in g.p.zones and g.is_card_coll(coll):
                guards[k] = key
    return guards
