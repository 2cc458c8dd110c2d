"""French for aggregates over a collection: « il existe » and « chaque » (``any``, ``all``) as indefinites and
quantifiers, ``count``, ``filter``, ``sum``, ``max``/``min``, ``argmax``/``argmin``, ``the`` and ``only``.  Above
:mod:`checker.prose.exprs`, whose relative clauses they use; the negation of a quantifier is provided to it
(:func:`checker.prose.context.provides`).
"""

from __future__ import annotations

import dataclasses
import re
from typing import Callable

from checker.front import ast
from checker.prose.core import MARK, Ctx, Prose, UnsupportedNode, _expr, late, provides, var
from checker.prose.exprs import (_elements, _other_than, comparison, fact, member_source, negation, relative,
                                 singled_out, uses)
from checker.prose.french import bare, contract, feminine, plural, split_article
from checker.prose.verbs import first_verb
from checker.front.types import INT, Coll

@provides
def _quantified(p: Prose, e: ast.Aggregate, ctx: Ctx, negative: bool) -> str:
    """``any`` and ``all`` as clauses: « l'un des quartiers de votre cité est… », « aucun … n'est… »,
    « pour chaque type de quartier, … »."""
    if e.kind == "any" and isinstance(e.body, ast.Binary) and e.body.op == "==":
        for one, other in ((e.body.left, e.body.right), (e.body.right, e.body.left)):
            if isinstance(one, ast.Name) and one.id == e.var and not uses(other, e.var):
                # ``any(x in C where x == v)`` is ``v in C``: « ce personnage est la rouge ou … », no « un x »
                same = ast.Binary("in", other, e.coll, e.span)
                p.types[id(same)] = p.type_of(e)
                return negation(p, same, ctx) if negative else p.expr(same, ctx)
    coll_ty = p.type_of(e.coll)
    elem_ty = coll_ty.elem if isinstance(coll_ty, Coll) else coll_ty
    noun = p.element_noun(e.coll)
    coll = p.expr(e.coll, ctx.ind())
    body = e.body if e.body is not None and not (isinstance(e.body, ast.BoolLit) and e.body.value) else None
    exists = (e.kind == "any") != negative
    if body is None:
        one = f"{'une' if feminine(noun) else 'un'} {bare(noun)}"
        if exists:
            return f"il y a au moins {one} {member_source(coll)}"
        return f"il n'y a {_none_of(noun, coll)}"
    if isinstance(e.coll, ast.Binary) and e.coll.op == "..":
        inner = ctx.bind(e.var, INT, "intro")
        quantifier = "pour chaque" if e.kind == "all" else "pour au moins un"
        text = p.expr(body, inner) if e.kind == "any" or not negative else negation(p, body, inner)
        if e.kind == "any" and negative:
            return f"pour aucun nombre {var(e.var)} {coll}, {text}"
        if e.kind == "all" and negative:
            return f"pour au moins un nombre {var(e.var)} {coll}, {text}"
        return f"{quantifier} nombre {var(e.var)} {coll}, {text}"
    if e.kind == "all" and not negative:
        _each = late("_each")
        inner = ctx.bind(e.var, elem_ty, "intro", noun=noun)
        return f"pour {_each(noun, coll)}, {p.expr(body, inner)}"
    if e.kind == "any" and not negative:
        aliases, without_aliases = late("aliases"), late("without_aliases")
        found = aliases(body, {e.var})
        if found:
            inner = ctx.bind(e.var, elem_ty, "alias", alias=found[e.var])
            rest = without_aliases(body, inner)
            member = p.clause(p.expr(found[e.var], ctx.ind()), "est", member_source(coll).replace("de ", "dans ", 1)
                              if not member_source(coll).startswith("parmi") else member_source(coll), ctx)
            return member if rest is None else f"{member} et {p.expr(rest, inner)}"
    if (e.kind == "any" and not negative or e.kind == "all" and negative) and not _top_level(body, e.var) \
            and not (e.kind == "any" and _chained(body, e.var)):
        inner = ctx.bind(e.var, elem_ty, "intro", noun=noun)
        one = f"{'une' if feminine(noun) else 'un'} {bare(noun)}"
        each = f"{one} {member_source(coll)}" if coll != plural(noun) else one
        return f"pour au moins {each}, {p.expr(body, inner) if e.kind == 'any' else negation(p, body, inner)}"
    if e.kind == "any" and not negative or e.kind == "all" and negative:
        others, rest = _other_than(body, e.var) if e.kind == "any" else ([], body)
        if others and rest is not None:     # « l'un des joueurs autres que vous », not « vous n'êtes pas un joueur »
            coll = contract(f"{coll} autres que {' et '.join(p.expr(o, ctx.ind()) for o in others)}")
            body = rest
        inner = ctx.bind(e.var, elem_ty, "exists", noun=noun, source=coll)
        return p.expr(body, inner) if e.kind == "any" else negation(p, body, inner)
    # no element satisfies the body
    aliases, without_aliases = late("aliases"), late("without_aliases")
    found = aliases(body, {e.var})
    if found:
        inner = ctx.bind(e.var, elem_ty, "alias", alias=found[e.var])
        rest = without_aliases(body, inner)
        member = comparison(p, ast.Binary("in", found[e.var], e.coll, e.span), ctx, negative=True)
        return member if rest is None else f"{member} ou {negation(p, rest, inner)}"
    if not (isinstance(body, ast.Binary) and body.op in ("and", "or")):
        inner = ctx.bind(e.var, elem_ty, "intro", noun=noun)
        mark = p.mention(inner.locals[0], inner)
        text = p.expr(body, dataclasses.replace(inner, mood="ind"))
        found = first_verb(text, len(mark))
        if text.startswith(mark + " ") and text.count(mark) == 1 and found is not None \
                and text[len(mark):found[0]].strip() in ("", "se", "s'"):
            at, verb = found
            ne = "n'" if verb[:1] in "aeiouyéèêh" else "ne "
            whom = _none_of(noun, coll)
            return f"{whom} {text[len(mark) + 1:at]}{ne}{verb}{text[at + len(verb):]}".replace("  ", " ")
    rel = relative(p, body, e.var, elem_ty, noun, ctx, False, "subj")
    return contract(f"il n'y a {_none_of(noun, coll)} {rel}")


_NESTED = (ast.Aggregate, ast.Connected, ast.Path)


def _chained(body, name: str) -> bool:
    """Is ``body`` an ``any``? Existentials in a row read as indefinites (« un quartier de la cité d'un joueur »)."""
    return isinstance(body, ast.Aggregate) and body.kind == "any" and body.body is not None


def _top_level(node, name: str) -> bool:
    """Is ``name`` used in ``node`` outside any nested aggregate (where an « un quartier » would
    change scope)?"""
    return uses(node, name, _NESTED)


def _none_of(noun: str, coll: str) -> str:
    """« aucun quartier de votre cité », « aucun des joueurs »."""
    word = "aucune" if feminine(noun) else "aucun"
    if coll == plural(noun):
        return f"{word} {bare(noun)}"
    if coll.startswith(("les ", "vos ", "ces ", "des ")) or MARK.fullmatch(coll):
        return contract(f"{word} de {coll}")
    return contract(f"{word} {bare(noun)} de {coll}")


@_expr(ast.Aggregate)
def _aggregate(p: Prose, e: ast.Aggregate, ctx: Ctx) -> str:
    if e.kind in ("any", "all"):
        return _quantified(p, e, ctx, negative=False)
    handler = AGGREGATES.get(e.kind)
    if handler is None:
        raise UnsupportedNode(e, f"aggregate '{e.kind}'")
    return contract(handler(p, e, ctx.ind()))


def _parts(p: Prose, e: ast.Aggregate, ctx: Ctx):
    coll_ty = p.type_of(e.coll)
    elem_ty = coll_ty.elem if isinstance(coll_ty, Coll) else coll_ty
    noun = p.element_noun(e.coll)
    coll = p.expr(e.coll, ctx)
    body = e.body if e.body is not None and not (isinstance(e.body, ast.BoolLit) and e.body.value) else None
    return elem_ty, noun, coll, body


def _filtered(p: Prose, e: ast.Aggregate, ctx: Ctx, plural_: bool = True) -> tuple[str, str]:
    """(the elements, the relative clause that filters them: "" when none)."""
    elem_ty, noun, coll, body = _parts(p, e, ctx)
    what = _elements(noun, coll)
    if body is None:
        return what, ""
    return what, relative(p, body, e.var, elem_ty, noun, ctx, plural_)


def _count(p: Prose, e: ast.Aggregate, ctx: Ctx) -> str:
    what, rel = _filtered(p, e, ctx)
    if not rel:
        coll = p.expr(e.coll, ctx)
        if coll.startswith("les "):
            return f"le nombre de {coll[4:]}"
        if coll.startswith(("vos ", "ces ")) or MARK.fullmatch(coll):
            return contract(f"le nombre de {coll}")
        noun = p.element_noun(e.coll)
        return contract(f"le nombre de {bare(plural(noun))} de {coll}")
    article, words = split_article(what)
    if article in ("les",):
        base = f"le nombre de {words}"
    elif what.startswith(("vos ", "ces ")) or MARK.fullmatch(what):
        base = f"le nombre de {what}"
    else:
        base = f"le nombre d'éléments de {what}"
    return f"{base} {rel}".strip()


def _filter(p: Prose, e: ast.Aggregate, ctx: Ctx) -> str:
    what, rel = _filtered(p, e, ctx)
    return f"{what} {rel}".strip()


def _the(p: Prose, e: ast.Aggregate, ctx: Ctx, only: bool) -> str:
    single = singled_out(p, e, ctx)
    if single is not None and single[1] is None:     # « le seul joueur qui est le détenteur de la Couronne »
        one_of = late("one_of")
        value = p.expr(single[0], ctx)
        where = one_of(p, p.element_noun(e.coll), p.expr(e.coll, ctx))
        if only:
            every = isinstance(e.coll, ast.Name) and e.coll.id == "players"     # every player: only « is there one »
            return f"{value} (qui doit {'exister' if every else 'être ' + where})"
        return f"{value} s'il est {where} (sinon personne)"
    elem_ty, noun, coll, body = _parts(p, e, ctx)
    rel = relative(p, body, e.var, elem_ty, noun, ctx, False) if body is not None else ""
    source = member_source(coll) if coll != plural(noun) else ""
    article, words = split_article(noun)
    head = (f"la seule {words}" if feminine(noun) else f"le seul {words}") if only else noun
    text = " ".join(x for x in (head, source, rel) if x)
    return text if only else f"{text} (ou personne s'il n'y en a pas)"


def _extreme(p: Prose, e: ast.Aggregate, ctx: Ctx, word: str) -> str:
    elem_ty, noun, coll, body = _parts(p, e, ctx)
    inner = ctx.bind(e.var, elem_ty, "intro", noun=noun)
    return (f"la {word} valeur, pour chaque {bare(noun)} {member_source(coll)}, de {p.expr(body, inner)} "
            f"(0 s'il n'y en a aucun)")


def _arg(p: Prose, e: ast.Aggregate, ctx: Ctx, word: str) -> str:
    elem_ty, noun, coll, body = _parts(p, e, ctx)
    what = _elements(noun, coll)
    inner = ctx.bind(e.var, elem_ty, "intro", noun=noun)
    value = p.expr(body, inner)
    mark = p.mention(inner.locals[0], inner)
    m = re.match(r"((?:le|la|les|l')\s?[^,;\ue000]*?) de " + re.escape(mark) + "$", value)
    if m:
        return f"{what} dont {m.group(1)} est {word}"
    return f"{what} pour lesquels {value} est {word}"


def each(p: Prose, e: ast.Aggregate, ctx: Ctx) -> str:
    """The body of an aggregate, its name first read « chaque quartier de votre cité »."""
    elem_ty, noun, coll, body = _parts(p, e, ctx)
    _each = late("_each")
    inner = ctx.bind(e.var, elem_ty, "each", noun=noun, source=_each(noun, coll))
    if not uses(body, e.var):
        return f"{p.expr(body, inner)}, pour {_each(noun, coll)}"
    return p.expr(body, inner)


def _sum(p: Prose, e: ast.Aggregate, ctx: Ctx) -> str:
    single = singled_out(p, e.coll, ctx) if e.body is not None else None
    if single is not None:      # the sum over one value at most: its term, if that value is there
        value, rest = single
        elem_ty = p.type_of(e.coll).elem if isinstance(p.type_of(e.coll), Coll) else None
        inner = ctx.bind(e.var, elem_ty, "alias", alias=value)
        term = p.expr(e.body, inner)
        whether = [c for c in (ast.Binary("in", value, e.coll.coll, e.span), rest)
                   if c is not None and fact(c) not in ctx.given]
        if not whether:
            return term
        guard = " et ".join(p.cond(c, ctx.bind(e.coll.var, elem_ty, "alias", alias=value)) for c in whether)
        return contract(f"{term} si {guard} (0 sinon)")
    return contract(f"la somme de {each(p, e, ctx)}")


AGGREGATES: dict[str, Callable] = {
    "count": _count,
    "filter": _filter,
    "sum": _sum,
    "max": lambda p, e, ctx: _extreme(p, e, ctx, "plus grande"),
    "min": lambda p, e, ctx: _extreme(p, e, ctx, "plus petite"),
    "argmax": lambda p, e, ctx: _arg(p, e, ctx, "le plus grand"),
    "argmin": lambda p, e, ctx: _arg(p, e, ctx, "le plus petit"),
    "the": lambda p, e, ctx: _the(p, e, ctx, False),
    "only": lambda p, e, ctx: _the(p, e, ctx, True),
}
