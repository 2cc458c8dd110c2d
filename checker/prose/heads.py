"""Rule heads as sentences: « Vous ne pouvez pas bâtir un quartier si ce quartier est dans votre cité. »

The first player of a pattern is « vous »; the other names read by their type (« un
quartier », then « ce quartier »).  A name the condition equates with the card itself, a
card or a member (``c == this``) is replaced by it, and that part of the condition goes:
``forbid ensorceler(p, c) when c == this`` on the page of a character reads « Vous ne pouvez pas ensorceler » and the name of that character.
"""

from __future__ import annotations

from typing import Callable

from checker.front import ast
from checker.prose.core import Ctx, Prose, provide, provides
from checker.prose.exprs import conjuncts, given, uses
from checker.front.types import BOOL, INT, PLAYER, EnumT
from checker.prose.names import unit_noun

__all__ = ["HEADS", "bind_pattern", "aliases", "without_aliases"]


def _aliasable(e) -> bool:
    """An expression a name may be replaced by: the card itself, a card's name, a member."""
    if isinstance(e, ast.Name):
        return e.id == "this"
    return isinstance(e, ast.StrLit)


@provides
def aliases(when, names: set[str]) -> dict[str, object]:
    """The names of ``names`` that a conjunct of ``when`` equates with the card, a card or a member."""
    found: dict[str, object] = {}
    for part in conjuncts(when):
        if isinstance(part, ast.Binary) and part.op == "==":
            for name, other in ((part.left, part.right), (part.right, part.left)):
                if isinstance(name, ast.Name) and name.id in names and name.id not in found and _aliasable(other):
                    found[name.id] = other
                    break
    return found


@provides
def you_aliases(when, players: list[str]) -> dict[str, object]:
    """The window's players a conjunct of a power's condition equates with its holder (``p == me``): they
    read « vous » (« quand vous révélez un personnage »), and the condition does not say it again."""
    found: dict[str, object] = {}
    for part in conjuncts(when):
        if isinstance(part, ast.Binary) and part.op == "==":
            for name, other in ((part.left, part.right), (part.right, part.left)):
                if isinstance(name, ast.Name) and name.id in players and name.id not in found and \
                        isinstance(other, ast.Name) and other.id == "me":
                    found[name.id] = other
                    break
    return found


@provides
def without_aliases(when, ctx: Ctx):
    """``when`` without the conjuncts that equate an aliased name with its value (None: nothing left)."""
    rest = []
    for part in conjuncts(when):
        if isinstance(part, ast.Binary) and part.op == "==":
            sides = [s for s in (part.left, part.right) if isinstance(s, ast.Name)]
            if any((b := ctx.lookup(s.id)) is not None and b.mode == "alias" and
                   (b.alias is part.left or b.alias is part.right) for s in sides):
                continue
        rest.append(part)
    out = None
    for part in rest:
        out = part if out is None else ast.Binary("and", out, part, part.span)
    return out


@provides
def bind_pattern(p: Prose, head: ast.RuleHead, ctx: Ctx):
    """The pattern's names bound (« vous », « un quartier »…, aliases), and what is left of ``when``."""
    params = p._params_of(head.pattern.name) or ()
    found = aliases(head.when, {b for b, _ in head.pattern.binders})
    you = False
    for i, (binder, _) in enumerate(head.pattern.binders):
        ty = p._resolve_type(params[i].type) if i < len(params) else None
        if binder in found:
            ctx = ctx.bind(binder, ty, "alias", alias=found[binder])
        elif isinstance(ty, EnumT) and not uses(head.when, binder) and not uses(head.expr, binder):
            ctx = ctx.bind(binder, ty, "whatever")
        elif ty == PLAYER and not you:
            ctx = ctx.bind(binder, ty, "you")
            you = True
        else:
            noun = unit_noun(p.lex.actions.get(head.pattern.name), i) if ty == INT else None
            ctx = ctx.bind(binder, ty, "param", noun=noun)
    return ctx, without_aliases(head.when, ctx)


def _args(p: Prose, head: ast.RuleHead, ctx: Ctx) -> list[str]:
    return [p._mention_name(b, ctx) for b, _ in head.pattern.binders]


def _condition(p: Prose, when, ctx: Ctx, exception: bool) -> str:
    """`` si …`` (or ``, sauf si …`` for a prohibition whose condition is a negation)."""
    if when is None:
        return ""
    if exception and isinstance(when, ast.Unary) and when.op == "not":
        return f", sauf si {p.cond(when.operand, ctx)}"
    return f" si {p.cond(when, ctx)}"


def _permit_forbid(p: Prose, head: ast.RuleHead, ctx: Ctx, when, allowed: bool) -> str:
    args = _args(p, head, ctx)
    first = ctx.lookup(head.pattern.binders[0][0]) if head.pattern.binders else None
    subject = "vous" if first is not None and first.mode == "you" else "on"
    phrase = p.action_phrase(head.pattern.name, args, ctx)
    modal = p.clause(subject, "peut", phrase, ctx, negative=not allowed)
    return f"{modal}{_condition(p, when, ctx, not allowed)}"


def _lead(p: Prose, when, ctx: Ctx, clause: str) -> str:
    """``Si …, clause``: a value or an adjustment reads best with its condition first."""
    if when is None:
        return clause
    return f"si {p.cond(when, ctx)}, {clause}"


def _quantity(p: Prose, head: ast.RuleHead, ctx: Ctx, negative: bool = False):
    q = p.program.quantities.get(head.pattern.name) if p.program else None
    ty = p._resolve_type(q.type) if q is not None else None
    return p.term_text(head.pattern.name, _args(p, head, ctx), ty, ctx, negative), ty


def _value(p: Prose, head: ast.RuleHead, ctx: Ctx, when) -> str:
    _, ty = _quantity(p, head, ctx)
    if ty == BOOL:
        if isinstance(head.expr, ast.BoolLit):
            return _lead(p, when, ctx, _quantity(p, head, ctx, not head.expr.value)[0])
        subject = _quantity(p, head, ctx)[0]
        return _lead(p, when, ctx, f"{subject} si et seulement si {p.cond(head.expr, ctx)}")
    subject = _quantity(p, head, ctx)[0]
    return _lead(p, when, ctx, p.clause(subject, "vaut", p.expr(head.expr, given(ctx, head.when)), ctx))


def _adjust(p: Prose, head: ast.RuleHead, ctx: Ctx, when) -> str:
    subject, _ = _quantity(p, head, ctx)
    ctx = given(ctx, head.when)
    if isinstance(head.expr, ast.Unary) and head.expr.op == "-":
        return _lead(p, when, ctx, f"{subject} diminue de {p.expr(head.expr.operand, ctx)}")
    return _lead(p, when, ctx, f"{subject} augmente de {p.expr(head.expr, ctx)}")


HEADS: dict[str, Callable] = {
    "permit": lambda p, h, ctx, when: _permit_forbid(p, h, ctx, when, True),
    "forbid": lambda p, h, ctx, when: _permit_forbid(p, h, ctx, when, False),
    "value": _value,
    "adjust": _adjust,
}

provide("HEADS", HEADS)
