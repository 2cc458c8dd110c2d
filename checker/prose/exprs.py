"""French for expressions: values as noun phrases, conditions as clauses.

A condition is a clause whose verb agrees with its subject (« vous êtes », « ces joueurs
sont ») and takes the context's mood; its negation is built on the AST (flipped
comparisons, De Morgan, ``ne … aucun``).  ``any(x in C where B)`` needs no « il existe »:
``x`` first reads « l'un des quartiers de C », then « ce quartier ».  A collection filtered
by a condition reads with a relative clause (« les joueurs dont le trésor est le plus
grand », « un personnage que vous pouvez assassiner »), or « tel que » and the subjunctive
when no relative pronoun fits.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from typing import Callable

from checker.front import ast
from checker.prose.core import (_ARITH, _EXPR, _PREPOSITIONS, MARK, Binding, Ctx, Prose, UnsupportedNode, _expr, late, provides,
                                var)
from checker.prose.french import bare, contract, feminine, humanize, plural, rst_escape
from checker.prose.verbs import first_verb, inflect, inflect_first, is_verb
from checker.front.types import BOOL, INT, PLAYER, Opt

__all__ = ["render", "negation", "relative", "member_source", "uses", "BUILTIN_CALLS"]


def render(p: Prose, e, ctx: Ctx) -> str:
    return p.expr(e, ctx)


# ---------------------------------------------------------------- values


@_expr(ast.IntLit)
def _int(p: Prose, e: ast.IntLit, ctx: Ctx) -> str:
    return str(e.value)


@_expr(ast.BoolLit)
def _bool(p: Prose, e: ast.BoolLit, ctx: Ctx) -> str:
    return "vrai" if e.value else "faux"


@_expr(ast.NoneLit)
def _none(p: Prose, e: ast.NoneLit, ctx: Ctx) -> str:
    return "personne" if p.type_of(e) in (PLAYER, Opt(PLAYER)) else "aucun"


@_expr(ast.StrLit)
def _str(p: Prose, e: ast.StrLit, ctx: Ctx) -> str:
    if p.program is not None and e.value in p.program.cards:
        return p.card_np(e.value)
    return f"« {rst_escape(e.value)} »"


def _answer(name: str) -> str:
    return f"la réponse pour « {humanize(name)} »"


@_expr(ast.Name)
def _name(p: Prose, e: ast.Name, ctx: Ctx) -> str:
    name = e.id
    binding = ctx.lookup(name)
    if binding is not None:
        return _local(p, binding, ctx)
    if name == "me":
        return "vous" if ctx.me else "le joueur qui l'utilise"
    if name == "this":
        return ctx.this or "cette carte"
    if name == "players":
        return "les joueurs"
    if name == "player_count":
        return "le nombre de joueurs"
    program = p.program
    if program is not None:
        if name in program.enum_members:
            return f"**{rst_escape(humanize(name))}**"
        if name in program.enums or name in program.kinds:
            return plural(p.lex.types.get(name, f"le {name}"))
        for table in (program.vars, program.zones, program.quantities):
            if name in table:
                return p.term_text(name, [], p.type_of(e), ctx)
    return var(name)


@provides
def _local(p: Prose, binding: Binding, ctx: Ctx) -> str:
    if binding.mode == "alias":
        return p.expr(binding.alias, ctx)
    if binding.ty == BOOL and binding.mode in ("intro", "def", "named", "param"):
        return p.clause(_answer(binding.name), "est", "oui", ctx)
    if binding.ty == INT and binding.noun in (None, "le nombre"):
        return var(binding.name)
    return p.mention(binding, ctx)


@_expr(ast.Call)
def _call(p: Prose, e: ast.Call, ctx: Ctx) -> str:
    builtin = BUILTIN_CALLS.get(e.func)
    if builtin is not None:
        return builtin(p, e, ctx.ind())
    if p.program is not None and e.func in p.program.records:
        return late("record_value")(p, e, ctx.ind())
    return p.term_text(e.func, p.args(e.args, ctx.ind()), p.type_of(e), ctx)


def _selected(p: Prose, e: ast.Call, ctx: Ctx) -> str:
    kind = e.args[0].id if e.args and isinstance(e.args[0], ast.Name) else "?"
    return contract(f"{plural(p.lex.types.get(kind, f'le {kind}'))} de la partie")


def _arith(p: Prose, e, ctx: Ctx) -> str:
    text = p.expr(e, ctx.ind())
    if isinstance(e, ast.Binary) and e.op in _ARITH:
        return f"({text})"
    return text


BUILTIN_CALLS: dict[str, Callable] = {
    "left": lambda p, e, ctx: contract(f"le voisin de gauche de {p.expr(e.args[0], ctx)}"),
    "right": lambda p, e, ctx: contract(f"le voisin de droite de {p.expr(e.args[0], ctx)}"),
    "seats_from": lambda p, e, ctx: contract(f"les joueurs, dans le sens des aiguilles d'une montre à partir de "
                                             f"{p.expr(e.args[0], ctx)}"),
    "seats_counterclockwise_from": lambda p, e, ctx: contract(
        f"les joueurs, dans le sens inverse des aiguilles d'une montre à partir de {p.expr(e.args[0], ctx)}"),
    "selected": _selected,
    "least": lambda p, e, ctx: contract(f"le plus petit entre {_arith(p, e.args[0], ctx)} et "
                                        f"{_arith(p, e.args[1], ctx)}"),
    "greatest": lambda p, e, ctx: contract(f"le plus grand entre {_arith(p, e.args[0], ctx)} et "
                                           f"{_arith(p, e.args[1], ctx)}"),
    "half": lambda p, e, ctx: contract(f"la moitié de {p.expr(e.args[0], ctx)}, arrondie à l'inférieur"),
}


@_expr(ast.Attr)
def _attr(p: Prose, e: ast.Attr, ctx: Ctx) -> str:
    obj = p.expr(e.obj, ctx.ind())
    if p.type_of(e) == BOOL:
        return _bool_attribute(p, e, obj, ctx, False)
    return p.possess(p.lex.attribute_noun(e.name), obj)


def _bool_attribute(p: Prose, e: ast.Attr, obj: str, ctx: Ctx, negative: bool) -> str:
    """A yes/no attribute of a card as a clause: the lexicon's template (« {0} a le rang « x » »),
    else « l'attribut de la carte est vrai »."""
    wording = p.lex.attributes.get(e.name)
    if wording is not None and "{" in wording:
        return p.fill(wording, [obj], ctx, negative)
    return p.clause(p.possess(p.lex.attribute_noun(e.name), obj), "est", "vrai", ctx, negative)


@_expr(ast.Index)
def _index(p: Prose, e: ast.Index, ctx: Ctx) -> str:
    if isinstance(e.obj, ast.Name) and not ctx.local(e.obj.id):
        return p.term_text(e.obj.id, [p.expr(e.index, ctx.ind())], p.type_of(e), ctx)
    return f"{p.expr(e.obj, ctx.ind())}[{p.expr(e.index, ctx.ind())}]"


@_expr(ast.Unary)
def _unary(p: Prose, e: ast.Unary, ctx: Ctx) -> str:
    if e.op == "not":
        return negation(p, e.operand, ctx)
    return f"moins {p.expr(e.operand, ctx.ind())}"


@_expr(ast.IfExpr)
def _ifexpr(p: Prose, e: ast.IfExpr, ctx: Ctx) -> str:
    inner = ctx.ind()
    if _or_else(e):         # ``if x != none then x else y``: « x s'il y en a un, sinon y »
        then = p.expr(e.then, inner)
        one = "une" if p.is_feminine(then) else "un"
        return contract(f"{then} s'il y en a {one}, sinon {p.expr(e.else_, inner)}")
    return contract(f"{p.expr(e.then, inner)} si {p.cond(e.cond, inner)}, sinon {p.expr(e.else_, inner)}")


def _or_else(e: ast.IfExpr) -> bool:
    """Is ``e`` ``if x != none then x else y`` (x, else y when there is no x)?"""
    from checker.front.typecheck_core import shape
    cond = e.cond
    if not (isinstance(cond, ast.Binary) and cond.op == "!="):
        return False
    value = cond.left if _is_none(cond.right) else cond.right if _is_none(cond.left) else None
    return value is not None and shape(value) is not None and shape(value) == shape(e.then)


@_expr(ast.SetLit)
def _setlit(p: Prose, e: ast.SetLit, ctx: Ctx) -> str:
    items = p.args(e.items, ctx.ind())
    if not items:
        return "rien"
    return ", ".join(items[:-1]) + (" ou " if len(items) > 1 else "") + items[-1]


@_expr(ast.Can)
def _can(p: Prose, e: ast.Can, ctx: Ctx) -> str:
    return _can_clause(p, e, ctx, negative=False)


def _can_clause(p: Prose, e: ast.Can, ctx: Ctx, negative: bool) -> str:
    args = p.args(e.args, ctx.ind())
    subject = args[0] if args else "on"
    return p.clause(subject, "peut", p.action_phrase(e.action, args, ctx.ind()), ctx, negative)


# ---------------------------------------------------------------- comparisons


_COMPARE = {"==": ("est", ""), "<": ("est", "inférieur à"), "<=": ("est", "au plus"), ">": ("est", "supérieur à"),
            ">=": ("est", "au moins")}
_FLIP = {"==": "!=", "!=": "==", "<": ">=", ">=": "<", "<=": ">", ">": "<=", "in": "notin", "notin": "in",
         "is": "isnot", "isnot": "is", "isin": "isnotin", "isnotin": "isin"}


def _is_none(e) -> bool:
    return isinstance(e, ast.NoneLit)


def _is_int(e, value: int) -> bool:
    return isinstance(e, ast.IntLit) and e.value == value


def _some(p: Prose, e, ctx: Ctx, negative: bool = False) -> str | None:
    """The clause that says an optional value is set, when the lexicon has one."""
    name, args = None, []
    if isinstance(e, ast.Index) and isinstance(e.obj, ast.Name):
        name, args = e.obj.id, [p.expr(e.index, ctx.ind())]
    elif isinstance(e, ast.Name):
        name = e.id
    elif isinstance(e, ast.Call):
        name, args = e.func, p.args(e.args, ctx.ind())
    term = p.lex.terms.get(name) if name else None
    if term is not None and term.some:
        return p.fill(term.some, args, ctx, negative)
    return None


def _is_number(p: Prose, e) -> bool:
    return p.type_of(e) == INT or isinstance(e, ast.IntLit)


@_expr(ast.Binary)
def _binary(p: Prose, e: ast.Binary, ctx: Ctx) -> str:
    return comparison(p, e, ctx, negative=False)


def comparison(p: Prose, e: ast.Binary, ctx: Ctx, negative: bool) -> str:
    op = e.op
    if op in ("and", "or"):
        if negative:
            flipped = "or" if op == "and" else "and"
            word = "et" if flipped == "and" else "ou"
            return f"{_group(p, e.left, ctx, flipped, True)} {word} {_group(p, e.right, ctx, flipped, True)}"
        word = "et" if op == "and" else "ou"
        chain = _chain(e, op)
        if op == "or" and all(isinstance(c, ast.Binary) and c.op == "==" and isinstance(c.right, ast.IntLit) and
                              isinstance(c.left, ast.Name) and c.left.id == chain[0].left.id for c in chain):
            # « le rang donné est 0, 3 ou 6 », not « … est 0, le rang donné est 3 ou le rang donné est 6 »
            values = [str(c.right.value) for c in chain]
            first = comparison(p, chain[0], ctx, False)
            if first.endswith(" " + values[0]):
                return first.removesuffix(values[0]) + ", ".join(values[:-1]) + f" ou {values[-1]}"
        parts = [_group(p, part, ctx, op, False) for part in chain]
        if op == "and":
            parts = _neither(chain, parts)
            if len(parts) == 1:
                return parts[0]
        return ", ".join(parts[:-1]) + f" {word} {parts[-1]}"
    if op == "..":
        return contract(f"de {p.expr(e.left, ctx.ind())} à {p.expr(e.right, ctx.ind())}")
    if op in _ARITH:
        left = _arith(p, e.left, ctx)
        comma = "," if " et " in left else ""
        return contract(f"{left}{comma} {_ARITH[op]} {_arith(p, e.right, ctx)}")
    if op in ("==", "!=") and (_is_none(e.right) or _is_none(e.left)):
        subject = e.left if _is_none(e.right) else e.right
        absent = (op == "==") != negative
        some = _some(p, subject, ctx, negative=absent)
        if some is not None:
            return some
        return p.clause(p.expr(subject, ctx.ind()), "existe", "", ctx, absent)
    neg = negative != (op in ("!=", "notin", "isnot", "isnotin"))
    op = {"!=": "==", "notin": "in", "isnot": "is", "isnotin": "isin"}.get(op, op)
    inner = ctx.ind()
    if op == "==" and isinstance(e.left, ast.Binary) and e.left.op == "%" and _is_int(e.left.right, 2) \
            and isinstance(e.right, ast.IntLit) and e.right.value in (0, 1):
        odd = (e.right.value == 1) != neg
        return p.clause(_arith(p, e.left.left, ctx), "est", "impair" if odd else "pair", ctx)
    if op == "==" and isinstance(e.right, ast.BoolLit):
        positive = e.right.value != neg
        return p.cond(e.left, ctx) if positive else negation(p, e.left, ctx)
    if op == "==" and p.type_of(e.left) == BOOL and p.type_of(e.right) == BOOL:
        both = f"ou bien {p.cond(e.left, inner)}, ou bien {p.cond(e.right, inner)}, mais pas les deux"
        return both if neg else f"{p.cond(e.left, inner)} si et seulement si {p.cond(e.right, inner)}"
    if op == "==" and _is_int(e.right, 1) and (first := _first(e.left, neg, ctx)) is not None:
        return first
    left = subject_of(p, e.left, inner)
    if op == "==" and isinstance(e.right, ast.StrLit) and p.program is not None \
            and e.right.value in p.program.cards and p.program.copies(p.program.cards[e.right.value]) > 1:
        # a card of several copies: « est le X » would say there is one; ``==`` compares names
        return contract(p.clause(left, "a", f"pour nom {p.card_ref(e.right.value)}", ctx, neg))
    right = p.expr(e.right, inner)
    if op == "==" and p.person(right) == "2p" and p.person(left) != "2p":
        left, right = right, left
    if op in _COMPARE:
        verb, words = _COMPARE[op]
        if words.endswith("ieur à") and p.is_feminine(left):       # « la distance est supérieure à 0 »
            words = words.replace("ieur à", "ieure à")
        return contract(p.clause(left, verb, f"{words} {right}".strip(), ctx, neg))
    if op == "is":          # physical cards: this very copy
        return contract(p.clause(left, "est", f"le même exemplaire que {right}", ctx, neg))
    if op in ("in", "isin"):    # « ce quartier est dans votre main » already means this very card
        if isinstance(e.right, ast.SetLit):
            return contract(p.clause(left, "est", f"l'un de : {right}", ctx, neg))
        where = "parmi" if right.startswith(("les ", "des ", "vos ", "ces ")) or MARK.fullmatch(right) else "dans"
        return contract(p.clause(left, "est", f"{where} {right}", ctx, neg))
    raise UnsupportedNode(e, f"operator '{e.op}'")


def first_of(e, ctx: Ctx) -> str | None:
    """« le premier tour de table » for ``e == 1`` where ``e`` is a counter named by what it counts (a loop's
    number, « pour chaque tour de table de 1 à … »); None for anything else."""
    b = ctx.lookup(e.id) if isinstance(e, ast.Name) else None
    if b is None or b.ty != INT or b.mode != "intro" or not b.noun or b.noun.startswith("le nombre"):
        return None
    return f"{'la première' if feminine(b.noun) else 'le premier'} {bare(b.noun)}"


def _first(e, neg: bool, ctx: Ctx) -> str | None:
    """« c'est le premier tour de table », not « ce tour de table est 1 »."""
    first = first_of(e, ctx)
    if first is None:
        return None
    subj = ctx.mood == "subj"
    verb = {(False, False): "c'est", (False, True): "ce n'est pas", (True, False): "ce soit",
            (True, True): "ce ne soit pas"}[subj, neg]
    return f"{verb} {first}"


_NOT = re.compile(r"(.+?) n'(\S+) pas (.+)")


def _neither(chain: list, parts: list[str]) -> list[str]:
    """« vous n'êtes ni le joueur ni l'autre joueur », not « vous n'êtes pas le joueur, vous n'êtes pas l'autre
    joueur »: the conjuncts of an « and » that deny, one after the other, that a subject is this or that value."""
    out: list[tuple[str, str, list[str]] | str] = []
    for part, text in zip(chain, parts):
        m = _NOT.fullmatch(text) if isinstance(part, ast.Binary) and part.op == "!=" else None
        last = out[-1] if out else None
        if m and isinstance(last, tuple) and last[:2] == (m.group(1), m.group(2)):
            last[2].append(m.group(3))
        elif m:
            out.append((m.group(1), m.group(2), [m.group(3)]))
        else:
            out.append(text)
    return [x if isinstance(x, str) else
            f"{x[0]} n'{x[1]} pas {x[2][0]}" if len(x[2]) == 1 else
            f"{x[0]} n'{x[1]} " + " ".join(f"ni {v}" for v in x[2]) for x in out]


def _chain(e, op: str) -> list:
    """``a and b and c`` → [a, b, c]."""
    if isinstance(e, ast.Binary) and e.op == op:
        return _chain(e.left, op) + _chain(e.right, op)
    return [e]


def subject_of(p: Prose, e, ctx: Ctx) -> str:
    """An expression as the subject of a clause: a number's letter gets its noun (« le nombre *k* »)."""
    text = p.expr(e, ctx)
    if isinstance(e, ast.Name) and (b := ctx.lookup(e.id)) is not None and b.ty == INT and b.mode != "alias" \
            and b.noun in (None, "le nombre"):
        return f"le nombre {text}"
    return text


def _top_op(e, negated: bool = False) -> str | None:
    """The connective (and, or) a condition reads with at its top, once negations are pushed in."""
    if isinstance(e, ast.Unary) and e.op == "not":
        return _top_op(e.operand, not negated)
    if isinstance(e, ast.Binary) and e.op in ("and", "or"):
        return {"and": "or", "or": "and"}[e.op] if negated else e.op
    return None


def _group(p: Prose, e, ctx: Ctx, parent: str, negative: bool) -> str:
    text = negation(p, e, ctx) if negative else p.expr(e, ctx)
    top = _top_op(e, negative)
    return f"({text})" if top is not None and top != parent else text


# ---------------------------------------------------------------- negation


@provides
def negation(p: Prose, e, ctx: Ctx) -> str:
    """The negation of a condition, built on the AST."""
    if isinstance(e, ast.Unary) and e.op == "not":
        return p.expr(e.operand, ctx)
    if isinstance(e, ast.Binary) and e.op not in _ARITH and e.op != "..":
        return comparison(p, e, ctx, negative=True)
    if isinstance(e, ast.BoolLit):
        return "faux" if e.value else "vrai"
    if isinstance(e, ast.Can):
        return _can_clause(p, e, ctx, negative=True)
    if isinstance(e, ast.Aggregate) and e.kind in ("any", "all"):
        return late("_quantified")(p, e, ctx, negative=True)
    if isinstance(e, ast.Name) and ctx.local(e.id):
        binding = ctx.lookup(e.id)
        if binding.mode == "alias":
            return negation(p, binding.alias, ctx)
        return p.clause(_answer(e.id), "est", "non", ctx)
    if isinstance(e, ast.Index) and isinstance(e.obj, ast.Name) and not ctx.local(e.obj.id):
        return p.term_text(e.obj.id, [p.expr(e.index, ctx.ind())], p.type_of(e), ctx, negative=True)
    if isinstance(e, ast.Call) and e.func not in BUILTIN_CALLS:
        return p.term_text(e.func, p.args(e.args, ctx.ind()), p.type_of(e), ctx, negative=True)
    if isinstance(e, ast.Name) and p.program is not None and (e.id in p.program.vars or e.id in p.program.quantities):
        return p.term_text(e.id, [], p.type_of(e), ctx, negative=True)
    if isinstance(e, ast.Attr):
        return _bool_attribute(p, e, p.expr(e.obj, ctx.ind()), ctx, True)
    return f"il est faux que {p.expr(e, ctx)}"


# ---------------------------------------------------------------- aggregates


def uses(node, name: str, skip: tuple[type, ...] = ()) -> bool:
    """Does ``node`` mention the name ``name`` (not looking inside nodes of the types ``skip``)?"""
    if node is None:
        return False
    if isinstance(node, ast.Name):
        return node.id == name
    if skip and isinstance(node, skip):
        return False
    if dataclasses.is_dataclass(node):
        return any(uses(getattr(node, f.name), name, skip) for f in dataclasses.fields(node)
                   if f.name not in ("span", "func_span", "var_span"))
    if isinstance(node, tuple):
        return any(uses(x, name, skip) for x in node)
    return False


def fact(e) -> tuple | None:
    """A condition's structure without its spans, to tell that a sentence has already stated it."""
    from checker.front.typecheck_core import shape
    if isinstance(e, ast.Binary):
        sides = shape(e.left), shape(e.right)
        return None if None in sides else ("binary", e.op, *sides)
    return shape(e)


def given(ctx: Ctx, when) -> Ctx:
    """``ctx`` knowing that every conjunct of ``when`` holds (the condition of the sentence's « si »)."""
    parts = [fact(e) for e in conjuncts(when) if fact(e) is not None]
    return dataclasses.replace(ctx, given=ctx.given | frozenset(parts)) if parts else ctx


def singled_out(p: Prose, coll, ctx: Ctx):
    """``filter(x in C where x == e and …)`` (or ``the``, ``only``), ``e`` not mentioning ``x``: (``e``,
    the rest of the condition on ``x`` or None), when equality there is identity (a player, a value, a
    card of one copy), so that the filter holds ``e`` alone or nothing; None otherwise."""
    if not (isinstance(coll, ast.Aggregate) and coll.kind in ("filter", "the", "only") and coll.body is not None):
        return None
    parts = conjuncts(coll.body)
    for part in parts:
        if not (isinstance(part, ast.Binary) and part.op == "=="):
            continue
        for name, other in ((part.left, part.right), (part.right, part.left)):
            if isinstance(name, ast.Name) and name.id == coll.var and not uses(other, coll.var) \
                    and p.identity(p.type_of(name), other, ctx):
                rest = None
                for left in parts:
                    if left is not part:
                        rest = left if rest is None else ast.Binary("and", rest, left, left.span)
                return other, rest
    return None


def conjuncts(e) -> list:
    """The parts of ``a and b and …`` (none for no condition)."""
    if isinstance(e, ast.Binary) and e.op == "and":
        return conjuncts(e.left) + conjuncts(e.right)
    return [e] if e is not None else []


def member_source(coll: str) -> str:
    """``parmi les joueurs``, ``de votre cité``: where the elements of a collection are taken from."""
    return contract(f"parmi {coll}" if coll.startswith(("les ", "des ", "vos ", "ces ")) or MARK.fullmatch(coll)
                    else f"de {coll}")


def _elements(noun: str, coll: str) -> str:
    """« les quartiers de votre cité », « les joueurs », « les cartes de la main de ce joueur »."""
    words = plural(noun)
    head = bare(words).split(" ")[0]
    if MARK.fullmatch(coll):
        return coll
    if coll == words or coll.startswith("les ") and head in coll.split(" ")[1:3]:
        return coll
    if coll.startswith(("vos ", "ces ")) and head in coll.split(" ")[1:3]:
        return coll
    return contract(f"{words} {member_source(coll)}")


_RELATIVE_PREPOSITIONS = {"devant", "sur", "sous", "dans", "contre", "avec", "pour", "par", "vers", "chez", "derrière"}


def relative(p: Prose, body, name: str, ty, noun: str, ctx: Ctx, plural_: bool, mood: str = "ind",
             whole: bool = True) -> str:
    """``body``, a condition on ``name``, as a relative clause on its noun: « qui … », « dont … »,
    « que … », « devant lequel … », or « tel que … » with the subjunctive."""
    fem = feminine(noun)
    tel = ("telles" if fem else "tels") if plural_ else ("telle" if fem else "tel")
    others, rest = _other_than(body, name) if whole else ([], body)
    if others:      # « les joueurs autres que vous qui … », not « tels que vous ne soyez pas ce joueur et … »
        but = contract(f"{'autres' if plural_ else 'autre'} que {' et '.join(p.expr(o, ctx.ind()) for o in others)}")
        return but if rest is None else f"{but} {relative(p, rest, name, ty, noun, ctx, plural_, mood)}"
    if isinstance(body, ast.Binary) and body.op in ("and", "or"):
        word = "et" if body.op == "and" else "ou"
        left = relative(p, body.left, name, ty, noun, ctx, plural_, mood, whole=False)
        right = relative(p, body.right, name, ty, noun, ctx, plural_, mood, whole=False)
        if not left.startswith(f"{tel} que") and not right.startswith(f"{tel} que"):
            return f"{left} {word} {right}"
        inner = ctx.bind(name, ty, "intro", noun=noun)
        clause = p.expr(body, dataclasses.replace(inner, mood="subj"))
        return contract(f"{tel} que {_que(clause, word)}")
    if isinstance(body, ast.Binary) and body.op in ("==", "!=") and isinstance(body.right, ast.Name) \
            and body.right.id == name and not uses(body.left, name):
        body = ast.Binary(body.op, body.right, body.left, body.span)
    inner = ctx.bind(name, ty, "rel", noun=noun)
    binding = inner.locals[0]
    mark = p.mention(binding, inner)
    person = "3p" if plural_ else "3s"
    text = p.expr(body, dataclasses.replace(inner, mood=mood))
    if text.startswith(mark + " "):
        rest = inflect_first(text[len(mark) + 1:], person, mood)
        if plural_:
            rest = _plural_attribute(rest)
        if fem and not plural_:
            from checker.prose.core import _agree
            found = first_verb(rest)
            if found is not None and found[0] <= 3:
                rest = rest[:found[0] + len(found[1])] + _agree(rest[found[0] + len(found[1]):], False, True,
                                                                found[1])
        return f"qui {rest}"
    m = re.search(r"(\S+) " + re.escape(mark) + r"(?=$|[ ,])", text)
    if m and m.group(1) not in _PREPOSITIONS and re.search(r"(er|ir|re)$", m.group(1)) \
            and not text.startswith(mark) and _occurrences(p, text[:m.start()], mark) == 0:
        return contract(f"que {text[:m.start()]}{m.group(1)}{text[m.end():]}")
    if _occurrences(p, text, mark) == 1 and (owned := _owned(p, body, text, mark, plural_)):
        return owned
    if _occurrences(p, text, mark) == 1:
        m = re.search(r"(?<!\bcelle)(?<!\bcelui)(?<!\bceux)(?<!\bcelles) de " + re.escape(mark) + r"(?=$|[ ,])",
                      text)
        if m:
            return contract(f"dont {text[:m.start()]}{text[m.end():]}")
        m = re.search(r"\b(à|" + "|".join(_RELATIVE_PREPOSITIONS) + r") " + re.escape(mark) + r"(?=$|,| (?!de |du |des ))",
                      text)
        if m and not re.search(r"\b(qui|que|qu'|dont)\b", text[:m.start()]):
            which = ("lesquelles" if fem else "lesquels") if plural_ else ("laquelle" if fem else "lequel")
            if m.group(1) == "à":
                which = {"lequel": "auquel", "lesquels": "auxquels", "lesquelles": "auxquelles"}.get(
                    which, "à " + which)
            else:
                which = f"{m.group(1)} {which}"
            before = text[:m.start()].rstrip()
            before = before[:-1] if before.endswith(",") else before
            rest = (before + " " + text[m.end():].lstrip(", ")).replace("  ", " ").strip().rstrip(",")
            return f"{which} {rest}"
    subjunctive = p.expr(body, dataclasses.replace(inner, mood="subj"))
    return contract(f"{tel} que {subjunctive}")


def _owned(p: Prose, body, text: str, mark: str, plural_: bool) -> str | None:
    """« qui a ce personnage », not « dont ce personnage est parmi les personnages »: a membership in a
    collection of the relative's own whose noun is the member's; None otherwise."""
    m = re.fullmatch(r"(?P<x>.+?) (?P<neg>n'est pas|est) parmi les (?P<n>\S+) de " + re.escape(mark), text)
    if m is None or not isinstance(body, ast.Binary) or body.op not in ("in", "notin") \
            or plural(bare(p.type_noun(p.type_of(body.left)))) != m.group("n"):
        return None
    verb = "ont" if plural_ else "a"
    return f"qui n'{verb} pas {m.group('x')}" if m.group("neg") != "est" else f"qui {verb} {m.group('x')}"


def _other_than(body, name: str) -> tuple[list, object]:
    """([``x``, …], the rest of the condition, None if nothing is left) when ``body`` is
    ``name != x and …`` with ``x`` not depending on ``name``; ([], body) otherwise."""
    parts = conjuncts(body)
    if any(isinstance(n, ast.Binary) and n.op == "==" and any(isinstance(x, ast.Name) and x.id == name
                                                               for x in (n.left, n.right))
           for n in _disjuncts_of(parts)):
        return [], body         # « autres que vous qui sont ce joueur ou … » would read worse
    others, rest = [], []
    for part in parts:
        if isinstance(part, ast.Binary) and part.op == "!=":
            that = part.right if isinstance(part.left, ast.Name) and part.left.id == name else \
                part.left if isinstance(part.right, ast.Name) and part.right.id == name else None
            if that is not None and not uses(that, name):
                others.append(that)
                continue
        rest.append(part)
    if not others:
        return [], body
    return others, functools.reduce(lambda a, b: ast.Binary("and", a, b, a.span), rest) if rest else None


def _disjuncts_of(parts: list) -> list:
    """The parts of each ``a or b or …`` among ``parts``, and the other parts as they are."""
    out = []
    for part in parts:
        if isinstance(part, ast.Binary) and part.op == "or":
            out += _disjuncts_of([part.left, part.right])
        else:
            out.append(part)
    return out


def _occurrences(p: Prose, text: str, mark: str) -> int:
    """How often ``mark`` will be read in ``text``, counting the collections that other names are
    taken from (« l'un des quartiers de la cité de … »)."""
    count = text.count(mark)
    for m in MARK.finditer(text):
        ref = p._refs.get(int(m.group(1)))
        if ref is not None and ref.binding.source:
            count += _occurrences(p, ref.binding.source, mark)
    return count


def _que(clause: str, word: str) -> str:
    """« A et B » → « A et que B »: in a clause after « que », each part repeats it."""
    return clause.replace(f" {word} ", f" {word} que ", 1) if clause.count(f" {word} ") == 1 else clause


def _plural_attribute(text: str) -> str:
    """« qui sont assassiné » → « qui sont assassinés »: the attribute of a plural subject."""
    from checker.prose.core import _agree
    found = first_verb(text)
    if found is None or found[0] > 3:
        return text
    at, verb = found
    base = {"sont": "est", "ont": "a"}.get(verb, verb)
    return text[:at + len(verb)] + _agree(text[at + len(verb):], True, False, base)
