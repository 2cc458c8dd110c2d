"""French prose for grids, records, searches and the union/collect aggregates.

>>> from checker.base.source import Span
>>> from checker.prose.core import Ctx, Prose
>>> at = Span("x.rules", 1, 1, 1, 2)
>>> Prose(None).expr(ast.Call("row", (ast.Name("x", at),), at, at), Ctx().bind("x", None))
'la ligne de la valeur'
"""

from __future__ import annotations

from checker.front import ast
from checker.prose.core import Ctx, Prose, _expr, provides
from checker.prose.aggregates import AGGREGATES, each
from checker.prose.exprs import BUILTIN_CALLS
from checker.prose.french import bare, contract, feminine, plural
from checker.front.types import Coll

__all__: list[str] = []


def _noun_of(p: Prose, e) -> str:
    """How one value of an expression's type is called (the lexicon's word for its type)."""
    return p.type_noun(p.type_of(e))


def _step(p: Prose, e: ast.Call, ctx: Ctx) -> str:
    noun = _noun_of(p, e)
    near = "voisine" if feminine(noun) else "voisin"
    return contract(f"{noun} {near} de {p.expr(e.args[0], ctx)}, vers {p.expr(e.args[1], ctx)}")


def _center(p: Prose, e: ast.Call, ctx: Ctx) -> str:
    return contract(f"{_noun_of(p, e)} du milieu")


def _rotate(p: Prose, e: ast.Call, ctx: Ctx) -> str:
    value, k = p.expr(e.args[0], ctx), p.expr(e.args[1], ctx)
    return contract(f"{value} décalé de {k} rang(s) dans l'ordre, en boucle")


BUILTIN_CALLS.update({
    "step": _step,
    "row": lambda p, e, ctx: contract(f"la ligne de {p.expr(e.args[0], ctx)}"),
    "column": lambda p, e, ctx: contract(f"la colonne de {p.expr(e.args[0], ctx)}"),
    "center": _center,
    "rotate": _rotate,
})


@provides
def record_value(p: Prose, e: ast.Call, ctx: Ctx) -> str:
    """``Edge(x, up)``: « the type's noun (x, up) », in French."""
    return contract(f"{_noun_of(p, e)} ({', '.join(p.args(e.args, ctx))})")


def _union(p: Prose, e: ast.Aggregate, ctx: Ctx) -> str:
    return contract(f"la réunion de {each(p, e, ctx)}")


def _collect(p: Prose, e: ast.Aggregate, ctx: Ctx) -> str:
    return contract(f"l'ensemble formé par {each(p, e, ctx)} (sans doublon)")


AGGREGATES.update({"union": _union, "collect": _collect})


def _relation(p: Prose, e, ctx: Ctx) -> tuple[str, str]:
    """(the noun of the values searched, the step from one to the next), for connected and path."""
    ty = p.type_of(e)
    noun = p.type_noun(ty.elem if isinstance(ty, Coll) else ty)
    inner = ctx.bind(e.var, ty.elem if isinstance(ty, Coll) else ty, "intro", noun=noun)
    step = p.expr(e.step, inner)
    return noun, contract(f"de chaque {bare(noun)} à {step}")


@_expr(ast.Connected)
def _connected(p: Prose, e: ast.Connected, ctx: Ctx) -> str:
    noun, step = _relation(p, e, ctx)
    reached = "atteintes" if feminine(noun) else "atteints"
    return contract(f"{plural(noun)} {reached} à partir de {p.expr(e.start, ctx)} en allant, de proche en proche, "
                    f"{step}")


@_expr(ast.Path)
def _path(p: Prose, e: ast.Path, ctx: Ctx) -> str:
    noun, step = _relation(p, e, ctx)
    return contract(f"le plus court chemin de {p.expr(e.start, ctx)} à {p.expr(e.goal, ctx)}, en allant {step} "
                    f"(rien s'il n'y en a pas)")
