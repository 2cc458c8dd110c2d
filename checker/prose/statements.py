"""French prose for statements: each statement of a power or a procedure becomes a step.

Steps are infinitives (« Piocher deux cartes de la pioche et les mettre dans votre main. »);
a change of the game's state is said as what is now true (« Le tour de ce personnage est
interrompu. », « Le détenteur de la Couronne devient ce joueur. »), and a moment as what
happens (« Ce joueur révèle ce personnage : les effets qui y réagissent s'appliquent. »).
"""

from __future__ import annotations

import dataclasses
import re

from checker.front import ast
from checker.prose.core import _ARITH, MARK, Ctx, Prose, Step, UnsupportedNode, _stmt, provides, var
from checker.prose.exprs import _some, member_source, relative, singled_out
from checker.prose.names import is_player, number_noun, unit_noun
from checker.prose.french import apposed, bare, capitalize, contract, feminine, humanize, indefinite, named, plural, rst_escape
from checker.front.types import BOOL, INT, Coll, EnumT, Opt

__all__ = ["number", "one_of"]

_RELATIVE = re.compile(r"\b(?:qui|que|qu'|dont|tel|telle|tels|telles|lesquel\w*|laquelle|lequel|auxquel\w*)\b")
_NUMBERS = ["zéro", "un", "deux", "trois", "quatre", "cinq", "six", "sept", "huit", "neuf", "dix"]


def number(n: int, feminine_noun: bool = False) -> str:
    """A count in words, as French writes small numbers (« une carte », « trois pièces d'or »).

    >>> number(1, True), number(3), number(12)
    ('une', 'trois', '12')
    """
    if n == 1 and feminine_noun:
        return "une"
    return _NUMBERS[n] if 0 <= n < len(_NUMBERS) else str(n)


def _sentence(text: str) -> str:
    text = capitalize(contract(text.strip()))
    return text if text.endswith((".", ":", "!", "?")) else text + "."


def _block(p: Prose, intro: str, body, ctx: Ctx) -> Step:
    """``intro``, then the body: inline when it is one short step, nested otherwise."""
    children = p.steps(body, ctx)
    cites = [c for child in children if not child.text and not child.children for c in child.cites]
    children = [child for child in children if child.text or child.children]
    if not children:
        return Step(_sentence(f"{intro}, rien ne se passe"), cites=cites)
    if len(children) == 1 and not children[0].children and not children[0].cites and children[0].text:
        only = children[0]
        inner = only.text[0].lower() + only.text[1:] if only.text[:1].isalpha() else only.text
        return Step(_sentence(f"{intro}, {inner}"), decisions=only.decisions)
    return Step(_sentence(intro + " :"), children)


@provides
def one_of(p: Prose, noun: str, coll: str) -> str:
    """« un personnage de la partie », « une carte de votre main », « l'un des personnages écartés »."""
    words = plural(noun)
    if coll == words:
        return indefinite(noun)
    if _RELATIVE.search(coll):
        return p.member(noun, coll)
    if coll.startswith(words + " ") and coll[len(words) + 1:].startswith(("de ", "du ", "des ", "d'", ",")):
        return contract(f"{indefinite(noun)}{'' if coll[len(words)] == ',' else ' '}{coll[len(words) + 1:]}")
    return p.member(noun, coll)


@provides
def _each(noun: str, coll: str) -> str:
    """« chaque joueur », « chaque quartier de votre cité », « chaque personnage parmi ces personnages »."""
    words = plural(noun)
    if coll == words:
        return f"chaque {bare(noun)}"
    if coll.startswith(words + " dont "):
        return f"chaque {bare(noun)}{coll[len(words):]}"
    m = re.fullmatch(re.escape(words) + r" qui (n'ont pas|ont) (.*)", coll)
    if m and not _RELATIVE.search(m.group(2)) and not re.search(r"\b(?:et|ou)\b", m.group(2)):
        verb = "a" if m.group(1) == "ont" else "n'a pas"        # « chaque joueur qui a ce personnage »
        return f"chaque {bare(noun)} qui {verb} {m.group(2)}"
    if coll.startswith(words) and not _RELATIVE.search(coll) and coll[len(words):len(words) + 2] in (", ", " d"):
        return contract(f"chaque {bare(noun)}{coll[len(words):]}")
    return f"chaque {bare(noun)} {member_source(coll)}"


@_stmt(ast.Let)
def _let(p: Prose, s: ast.Let, ctx: Ctx) -> Step:
    ty = p.type_of(s.value)
    if isinstance(s.value, ast.BoolLit):       # a local flag: « au départ, *fini* vaut non »
        return Step(_sentence(f"au départ, {var(s.name)} vaut {'oui' if s.value.value else 'non'}"))
    value = p.expr(s.value, ctx)
    noun = p.type_noun(ty)
    if p.let_noun(s, ctx):                       # « compter le nombre de quartiers… », then « ce nombre de quartiers »
        return Step(_sentence(f"compter {value}"))
    if isinstance(ty, Coll):
        return Step(_sentence(f"{plural(noun)} {_tag(plural(noun), s.name)} sont {value}"))
    return Step(_sentence(f"{named(noun, s.name) or noun + ' ' + _tag(noun, s.name)} est {value}"))


def _tag(noun: str, name: str) -> str:
    """« les joueurs victimes », « le nombre *dé* » (:func:`apposed`)."""
    return humanize(name).replace("'", "’") if apposed(noun, name) else var(name)


def _lvalue(p: Prose, lv: ast.LValue, ctx: Ctx, negative: bool = False, word: str = "pas") -> str:
    args = [p.expr(lv.index, ctx.ind())] if lv.index is not None else []
    if ctx.local(lv.name):
        from checker.prose.exprs import subject_of
        return subject_of(p, ast.Name(lv.name, lv.span), ctx)
    program = p.program
    ty = None
    if program is not None and lv.name in program.vars:
        ty = p._resolve_type(program.vars[lv.name].type)
    term = p.lex.terms.get(lv.name)
    if negative and term is not None:
        return p.fill(term.text, args, ctx, True, word)
    return p.term_text(lv.name, args, ty, ctx, negative=negative)   # a Bool with no term: « … n'est pas vrai »


@_stmt(ast.SetVar)
def _setvar(p: Prose, s: ast.SetVar, ctx: Ctx) -> Step:
    program = p.program
    decl = program.vars.get(s.target.name) if program is not None else None
    ty = p._resolve_type(decl.type) if decl is not None else None
    if ctx.local(s.target.name) and s.target.index is None and isinstance(s.value, ast.BoolLit):
        return Step(_sentence(f"désormais, {var(s.target.name)} vaut {'oui' if s.value.value else 'non'}"))
    if ty == BOOL and isinstance(s.value, ast.BoolLit):
        term = p.lex.terms.get(s.target.name)
        word = "plus" if term is not None and re.search(r"\best (?!été)", term.text) else "pas"
        return Step(_sentence(_lvalue(p, s.target, ctx, negative=not s.value.value, word=word)))
    target = _lvalue(p, s.target, ctx)
    if ty == BOOL:
        return Step(_sentence(f"désormais, {target} si et seulement si {p.cond(s.value, ctx)}"))
    if isinstance(s.value, ast.NoneLit):
        index = ast.Index(ast.Name(s.target.name, s.span), s.target.index, s.span) if s.target.index is not None \
            else ast.Name(s.target.name, s.span)
        some = _some(p, index, ctx, negative=True)
        if some is not None:
            return Step(_sentence(some.replace(" pas", " plus", 1) if " pas" in some else some))
        return Step(_sentence(f"{target} : plus rien"))
    if isinstance(s.value, ast.Binary) and s.value.op in ("+", "-") and _same_lvalue(s.value.left, s.target):
        amount = p.expr(s.value.right, dataclasses.replace(ctx, bare=True))
        if s.value.op == "+":
            return Step(_sentence(f"ajouter {amount} à {target}"))
        return Step(_sentence(f"retirer {amount} de {target}"))
    if isinstance(s.value, ast.IntLit):
        return Step(_sentence(f"remettre {target} à {s.value.value}" if s.value.value == 0 else
                              f"{target} passe à {s.value.value}"))
    value = p.expr(s.value, ctx)
    if ty == INT:       # « … passe au rang donné », not « le rang donné devient … »
        return Step(_sentence(p.clause(target, "passe", f"à {value}", ctx)))
    if value == "vous" or p.ref_of(value) is not None:
        return Step(_sentence(p.clause(value, "devient", target, ctx)))
    return Step(_sentence(p.clause(target, "devient", value, ctx)))


@_stmt(ast.Reset)
def _reset(p: Prose, s: ast.Reset, ctx: Ctx) -> Step:
    return Step(_sentence(f"remettre « {humanize(s.name)} » à sa valeur de départ, pour tous"))


def _chooser(p: Prose, opts: ast.ChooseOptions, ctx: Ctx) -> tuple[str, str]:
    """(the chooser as subject, the verb)."""
    chooser = p.expr(opts.by, ctx.ind()) if opts.by is not None else ("vous" if ctx.me else None)
    if opts.random:
        return "", "tirer au hasard"
    adverb = " secrètement" if opts.secretly else ""
    if chooser is None or chooser == "vous" or p.person(chooser) == "2p":
        return "", "choisir" + adverb
    return chooser, p.clause(chooser, "choisit", "", ctx).split(" ")[-1] + adverb


def _outer(ctx: Ctx) -> Ctx:
    """The context before the name a statement binds (its first local)."""
    return dataclasses.replace(ctx, locals=ctx.locals[1:])


@_stmt(ast.Choose)
def _choose(p: Prose, s: ast.Choose, ctx: Ctx) -> Step:
    binding = ctx.locals[0]
    outer = _outer(ctx)
    subject, verb = _chooser(p, s.options, outer)
    coll = s.coll
    label = p.label(binding)
    noun = binding.noun or p.element_noun(coll)
    if isinstance(coll, ast.SetLit) and all(isinstance(i, ast.BoolLit) for i in coll.items):
        what = f"oui ou non pour « {humanize(s.var)} »"
    elif isinstance(coll, ast.Name) and p.program is not None and coll.id in p.program.enums:
        members = ", ".join(f"**{rst_escape(humanize(m.name))}**" + (f" ({rst_escape(m.doc)})" if m.doc else "")
                            for m in p.program.enums[coll.id].members)
        what = f"{indefinite(p.type_noun(EnumT(coll.id)))}{label} parmi : {members}"
    elif isinstance(coll, ast.Binary) and coll.op == "..":
        number = indefinite(noun) if noun != "le nombre" else f"un nombre {var(s.var)}"
        what = contract(f"{number} de {p.expr(coll.left, outer)} à {p.expr(coll.right, outer)}")
    else:
        source = p.expr(coll, outer)
        what = one_of(p, noun, source)
        if not what.startswith(indefinite(noun)):
            what = f"{indefinite(noun)} {member_source(source)}"
        what = what.replace(f" {bare(noun)}", f" {bare(noun)}{label}", 1)
    text = f"{subject + ' ' if subject else ''}{verb} {what}"
    if s.options.where is not None and binding.ty == BOOL:
        yes = _when_true(s.options.where, s.var)
        if yes is not None:
            text += f" (oui seulement si {p.cond(yes, outer)})" if not isinstance(yes, ast.BoolLit) else ""
        else:
            text += f", si {p.cond(s.options.where, ctx)}"
    elif s.options.where is not None:
        rel = relative(p, s.options.where, s.var, binding.ty, noun, outer, False)
        if rel.startswith("que ") and binding.source:     # « que vous pouvez échanger », not « … de votre cité »
            rel = re.sub(r"^(que\b.*?\b[^\W\d_]+(?:er|ir|re)) " + re.escape(member_source(binding.source)) +
                         r"(?=[ ,.;]|$)", r"\1", rel, count=1)
        text += f"{',' if ' : ' in what else ''} {rel}"
    if s.options.optional:
        text += " (ou ne rien choisir : la suite n'a alors pas lieu)"
    return Step(_sentence(text))


@_stmt(ast.ChooseSubset)
def _choose_subset(p: Prose, s: ast.ChooseSubset, ctx: Ctx) -> Step:
    binding = ctx.locals[0]
    outer = _outer(ctx)
    subject, verb = _chooser(p, s.options, outer)
    noun = p.element_noun(s.coll)
    nouns = bare(plural(noun))
    coll = p.expr(s.coll, outer)
    source = member_source(coll) if coll != plural(noun) else ""
    bare_ctx = dataclasses.replace(outer, bare=True)
    low, high = _count_text(p, s.low, bare_ctx, noun), _count_text(p, s.high, bare_ctx, noun)
    chooser = f"{subject} " if subject else ""
    label = p.label(binding)
    if low == high and not _simple_number(s.low, outer):      # « des joueurs choisis … (exactement …) »
        text = f"{chooser}{verb} des {nouns}{label} {source} (exactement {low})"
    elif low == high:
        text = f"{chooser}{verb} exactement {low} {nouns}{label} {source}"
    elif _simple_number(s.low, outer) and _simple_number(s.high, outer):
        text = f"{chooser}{verb} de {low} à {high} {nouns}{label} {source}"
    else:
        text = f"{chooser}{verb} des {nouns}{label} {source} (au moins {low} et au plus {high})"
    if s.options.where is not None:
        elem = binding.ty.elem if isinstance(binding.ty, Coll) else binding.ty
        text += " " + relative(p, s.options.where, s.var, elem, noun, outer, True)
    return Step(_sentence(text))


def _when_true(where, name: str):
    """What a yes/no choice's condition says of « oui », when « non » is always allowed:
    ``not x or c`` → ``c``; None when the condition is not of that shape."""
    if isinstance(where, ast.Binary) and where.op == "or":
        for a, b in ((where.left, where.right), (where.right, where.left)):
            if isinstance(a, ast.Unary) and a.op == "not" and isinstance(a.operand, ast.Name) \
                    and a.operand.id == name and not _mentions(b, name):
                return b
    return None


def _mentions(node, name: str) -> bool:
    from checker.prose.exprs import uses
    return uses(node, name)


def _count_text(p: Prose, e, ctx: Ctx, noun: str) -> str:
    if isinstance(e, ast.IntLit):
        return number(e.value, feminine(noun))
    return p.expr(e, ctx)


def _if_head(p: Prose, cond, ctx: Ctx) -> str:
    """« si … », or « au premier tour de table, si … » when the condition first asks whether a counter is 1."""
    from checker.prose.exprs import _chain, first_of
    parts = _chain(cond, "and")
    head = parts[0]
    if isinstance(head, ast.Binary) and head.op == "==" and isinstance(head.right, ast.IntLit) \
            and head.right.value == 1 and (first := first_of(head.left, ctx)) is not None:
        when = contract(f"à {first}")
        if len(parts) == 1:
            return when
        rest = parts[1]
        for part in parts[2:]:
            rest = ast.Binary("and", rest, part, cond.span)
        return f"{when}, si {p.cond(rest, ctx)}"
    return f"si {p.cond(cond, ctx)}"


@_stmt(ast.If)
def _if(p: Prose, s: ast.If, ctx: Ctx) -> Step:
    step = _block(p, _if_head(p, s.cond, ctx), s.then, ctx)
    if not s.else_:
        return step
    steps = [step]
    rest = s.else_
    while len(rest) == 1 and isinstance(rest[0], ast.If):
        inner = rest[0]
        steps.append(_block(p, f"sinon, si {p.cond(inner.cond, ctx)}", inner.then, ctx))
        rest = inner.else_
    if rest:
        steps.append(_block(p, "sinon", rest, ctx))
    return Step("", steps)


@_stmt(ast.For)
def _for(p: Prose, s: ast.For, ctx: Ctx) -> Step | None:
    ty = p.type_of(s.coll)
    coll = s.coll
    if isinstance(coll, ast.Binary) and coll.op == "..":
        noun = number_noun(p, s.var, s.body) or _round(p, s)    # « pour chaque rang de 1 à 9 », not « nombre *r* »
        inner = ctx.bind(s.var, INT, "intro", noun=noun)
        unused = not _mentions(s.body, s.var)      # a count of turns: the number itself is never read
        what = bare(noun) if noun else "nombre" if unused else f"nombre {var(s.var)}"
        intro = contract(f"pour chaque {what} de {p.expr(coll.left, ctx)} à {p.expr(coll.right, ctx)}")
        if unused and isinstance(coll.left, ast.IntLit) and isinstance(coll.right, ast.IntLit) and \
                coll.right.value >= coll.left.value:
            intro = f"{number(coll.right.value - coll.left.value + 1, True)} fois"       # « deux fois »
    elif (single := singled_out(p, coll, ctx)) is not None:
        # « pour chaque joueur parmi les joueurs qui sont le joueur qui a volé ce personnage »: the
        # loop runs once at most, for that value; it reads « pour le joueur qui a volé ce personnage »
        value, rest = single
        noun = p.element_noun(coll.coll)
        elem = ty.elem if isinstance(ty, Coll) else ty
        said = p.expr(value, ctx.ind())
        if said.startswith(noun + " ") and _rival(p, ctx, noun, elem):
            # « ce joueur » already names another: this one is named by its role, « le joueur qui a endormi … »
            inner = ctx.bind(s.var, elem, "def", noun=said)
            label = ""
        else:
            inner = ctx.bind(s.var, elem, "intro", noun=noun)
            label = p.label(inner.locals[0])
        intro = f"pour {said.replace(noun, noun + label, 1) if said.startswith(noun + ' ') else said + label}"
        if rest is not None:
            same = inner.bind(coll.var, inner.locals[0].ty, "alias", alias=ast.Name(s.var, coll.span))
            intro += f", si {p.cond(rest, same)}"
    else:
        noun = p.element_noun(coll)
        inner = ctx.bind(s.var, ty.elem if isinstance(ty, Coll) else ty, "intro", noun=noun)
        each = _each(noun, p.expr(coll, ctx))
        label = p.label(inner.locals[0])
        intro = "pour " + each.replace(f" {bare(noun)}", f" {bare(noun)}{label}", 1)
    if not p.steps(s.body, inner):
        return None     # a loop that only writes the game log
    return _block(p, intro, s.body, inner)


def _round(p: Prose, s: ast.For) -> str | None:
    """A number counting the rounds of a loop over the players (« pour chaque tour de table de 1 à … », then
    « si ce tour de table est 1 »), when the steps read it: named by what it counts, not by a letter."""
    if len(s.body) != 1 or not isinstance(s.body[0], ast.For) or not _mentions(s.body, s.var):
        return None
    ty = p.type_of(s.body[0].coll)
    return "le tour de table" if is_player(ty.elem if isinstance(ty, Coll) else ty) else None


def _rival(p: Prose, ctx: Ctx, noun: str, ty) -> bool:
    """Is a name of ``noun`` around that reads « ce joueur » (introduced by the text), which a new one
    introduced the same way could not be told from?"""
    return any(b.mode in ("intro", "each", "param", "exists", "rel") and (b.noun or p.type_noun(b.ty)) == noun
               and isinstance(b.ty, Coll) == isinstance(ty, Coll) for b in ctx.locals)


@_stmt(ast.Repeat)
def _repeat(p: Prose, s: ast.Repeat, ctx: Ctx) -> Step:
    return Step(_sentence(f"répéter, tant que {p.negated(s.until, ctx)} :"), p.steps(s.body, ctx))


def _amount(p: Prose, amount, ctx: Ctx, unit: str | None, fem: bool = True) -> str:
    """A number of things: ``deux pièces d'or``, ``*k* pièces d'or``, ``autant de cartes que de …``
    (``unit``: the noun without its article, ``fem``: its gender)."""
    text = p.expr(amount, dataclasses.replace(ctx, bare=True))
    if unit is None:
        return text
    if isinstance(amount, ast.IntLit):
        return f"{number(amount.value, fem)} {unit if amount.value <= 1 else _plural_unit(unit)}"
    counted = _counted(amount, ctx)
    if counted and isinstance(amount, ast.Name) and counted.noun == f"le nombre de {_plural_unit(unit)}":
        return text                                  # « ce nombre de pièces d'or »
    if counted:
        return contract(f"autant de {_plural_unit(unit)} que {text}")
    if text.startswith("le nombre de "):
        return contract(f"autant de {_plural_unit(unit)} que de {text[len('le nombre de '):]}")
    if _simple_number(amount, ctx):
        return f"{text} {_plural_unit(unit)}"
    return text


def _counted(e, ctx: Ctx):
    """The first local in ``e`` named by what it counts (« ce nombre de quartiers »), if any."""
    if isinstance(e, ast.Name):
        b = ctx.lookup(e.id)
        return b if b is not None and b.ty == INT and (b.noun or "").startswith("le nombre d") else None
    if isinstance(e, ast.Binary) and e.op in _ARITH:
        return _counted(e.left, ctx) or _counted(e.right, ctx)
    return None


def _simple_number(e, ctx: Ctx) -> bool:
    """A literal, a variable, or arithmetic on them: reads as a number (« *k* pièces d'or »); not a number
    named by what it counts, which reads as words."""
    if isinstance(e, ast.IntLit):
        return True
    if isinstance(e, ast.Name):
        return ctx.local(e.id) and _counted(e, ctx) is None
    return (isinstance(e, ast.Binary) and e.op in _ARITH and _simple_number(e.left, ctx)
            and _simple_number(e.right, ctx))


def _plural_unit(unit: str) -> str:
    head, _, rest = unit.partition(" ")
    return bare(plural(f"la {head}")) + (f" {rest}" if rest else "")


def _same_lvalue(amount, lv: ast.LValue) -> bool:
    if isinstance(amount, ast.Index) and isinstance(amount.obj, ast.Name) and lv.index is not None:
        return amount.obj.id == lv.name and (amount.index == lv.index or
                                             _strip_spans(amount.index) == _strip_spans(lv.index))
    return isinstance(amount, ast.Name) and lv.index is None and amount.id == lv.name


def _strip_spans(node):
    if isinstance(node, ast.Name):
        return ("name", node.id)
    return repr(node)


def _owned_by_me(lv: ast.LValue) -> bool:
    return isinstance(lv.index, ast.Name) and lv.index.id == "me"


@_stmt(ast.Transfer)
def _transfer(p: Prose, s: ast.Transfer, ctx: Ctx) -> Step:
    source = _lvalue(p, s.source, ctx)
    target = _lvalue(p, s.target, ctx)
    if _same_lvalue(s.amount, s.source):
        what = f"tout le contenu de {source}" if p.lex.unit is None else f"toutes les {_plural_unit(p.lex.unit)}"
        what = contract(what)
        if p.lex.unit is not None:
            what = contract(f"{what} de {source}")
        return Step(_sentence(f"transférer {what} vers {target}" if not _owned_by_me(s.target)
                              else f"prendre {what} et les mettre dans {target}"))
    amount = _amount(p, s.amount, ctx, p.lex.unit)
    if s.up_to:
        amount = f"jusqu'à {amount} (tout ce qu'il y a, s'il y en a moins)"
    long = not _simple_number(s.amount, ctx)
    if ctx.me and _owned_by_me(s.source):
        return Step(_sentence(f"payer à {target} {amount}" if long else f"payer {amount} à {target}"))
    if ctx.me and _owned_by_me(s.target):
        return Step(_sentence(f"recevoir de {source} {amount}" if long else f"recevoir {amount} de {source}"))
    if long:
        return Step(_sentence(f"transférer de {source} vers {target} {amount}"))
    return Step(_sentence(f"transférer {amount} de {source} vers {target}"))


def _place(p: Prose, place: ast.Place, ctx: Ctx) -> str:
    where = _lvalue(p, place.target, ctx)
    if place.position == "top":
        return contract(f"sur le dessus de {where}")
    if place.position == "bottom":
        return contract(f"sous {where}")
    return contract(f"dans {where}")


@_stmt(ast.Move)
def _move(p: Prose, s: ast.Move, ctx: Ctx) -> Step:
    what = p.expr(s.what, ctx)
    ty = p.type_of(s.what)
    if isinstance(ty, Coll) and isinstance(s.what, (ast.Index, ast.Name)) and not (
            isinstance(s.what, ast.Name) and ctx.local(s.what.id)) and not what.startswith(("les ", "vos ")):
        noun = bare(plural(p.element_noun(s.what)))
        what = contract(f"toutes les {noun} de {what}" if feminine(p.element_noun(s.what))
                        else f"tous les {noun} de {what}")
    return Step(_sentence(f"mettre {what} {_place(p, s.dest, ctx)}"))


@_stmt(ast.Draw)
def _draw(p: Prose, s: ast.Draw, ctx: Ctx) -> Step:
    source = _lvalue(p, s.source, ctx)
    term = p.lex.terms.get(s.source.name)
    noun = term.element if term and term.element else "la carte"
    what = _amount(p, s.count, ctx, bare(noun), feminine(noun))
    if not what.startswith("autant") and not _simple_number(s.count, ctx) and not (
            isinstance(s.count, ast.Name) and _counted(s.count, ctx)):      # « piocher ce nombre de cartes »
        what = contract(f"autant de {bare(plural(noun))} que {what}")
    them = ("la" if feminine(noun) else "le") if isinstance(s.count, ast.IntLit) and s.count.value == 1 else "les"
    if what.startswith("autant"):
        return Step(_sentence(f"piocher dans {source} {what}, et {them} mettre {_place(p, s.dest, ctx)}"))
    return Step(_sentence(f"piocher {what} de {source} et {them} mettre {_place(p, s.dest, ctx)}"))


@_stmt(ast.Shuffle)
def _shuffle(p: Prose, s: ast.Shuffle, ctx: Ctx) -> Step:
    return Step(_sentence(f"mélanger {_lvalue(p, s.target, ctx)}"))


@_stmt(ast.Reveal)
def _reveal(p: Prose, s: ast.Reveal, ctx: Ctx) -> Step:
    what = p.expr(s.what, ctx)
    if s.to is None:
        return Step(_sentence(f"révéler {what} à tous"))
    return Step(_sentence(f"montrer {what} à {p.expr(s.to, ctx)}"))


@_stmt(ast.Do)
def _do(p: Prose, s: ast.Do, ctx: Ctx) -> Step:
    args = p.args(s.args, ctx.ind())
    phrase = p.action_phrase(s.action, args, ctx)
    link = p.link("action", s.action)
    text = f"{phrase} ({link})" if link != s.action else phrase
    if args and p.person(args[0]) != "2p" and "{0}" not in p.lex.actions.get(s.action, ""):
        # a wording that names the actor itself (« subir l'attaque de {0} contre {1} ») is not prefixed by it
        from checker.prose.verbs import finite
        text = f"{args[0]} {finite(text, p.person(args[0]))}"
    return Step(_sentence(text))


@_stmt(ast.CallProc)
def _callproc(p: Prose, s: ast.CallProc, ctx: Ctx) -> Step:
    args = p.args(s.args, dataclasses.replace(ctx.ind(), bare=True))
    template = p.lex.procedures.get(s.name)
    if template is not None:
        text = p.fill(template, args, ctx)
    else:
        text = humanize(s.name) + (f" ({', '.join(args)})" if args else "")
    link = p.link("procedure", s.name, "détail")
    return Step(_sentence(f"{text} ({link})" if link != s.name else text))


@_stmt(ast.Signal)
def _signal(p: Prose, s: ast.Signal, ctx: Ctx) -> Step:
    args = p.args(s.args, ctx.ind())
    return Step(_sentence(f"{p.window_clause(s.window, args, ctx)} : les effets qui y réagissent s'appliquent"))


@_stmt(ast.Offer)
def _offer(p: Prose, s: ast.Offer, ctx: Ctx) -> Step:
    who = p.expr(s.player, ctx.ind())
    children = []
    for item in s.items:
        if isinstance(item, ast.OfferAction):
            inner = ctx
            for name, coll in item.binders:
                ty = p.type_of(coll)
                at = [i for i, a in enumerate(item.args) if isinstance(a, ast.Name) and a.id == name]
                unit = unit_noun(p.lex.actions.get(item.action), at[0]) if at and isinstance(coll, ast.Binary) \
                    and coll.op == ".." else None       # « tournée d'un nombre de quarts de tour de 0 à 3 »
                source = p.expr(coll, ctx.ind())
                inner = inner.bind(name, ty.elem if isinstance(ty, Coll) else ty, "exists",
                                   noun=unit or p.element_noun(coll),
                                   source=source[3:] if unit and source.startswith("de ") else source)
            args = p.args(item.args, inner.ind())
            link = p.link("action", item.action)
            text = p.action_phrase(item.action, args, inner)
            text += f" ({link})" if link != item.action else ""
            children.append(Step(_sentence(text)))
        elif isinstance(item, ast.OfferPowers):
            children.append(Step(_sentence(f"utiliser un pouvoir de {p.expr(item.source, ctx.ind())}")))
        elif isinstance(item, ast.OfferFinish):
            text = f"« {rst_escape(item.label)} »"
            if item.when is not None:
                text += f", si {p.cond(item.when, ctx)}"
            children.append(Step(_sentence(text + " : cela met fin aux choix")))
        else:
            raise UnsupportedNode(item)
    intro = p.clause(who, "choisit", ", autant de fois que les règles le permettent, l'une de ces possibilités :",
                     ctx).replace(" ,", ",")
    if p.person(who) == "2p":
        intro = "choisir, autant de fois que les règles le permettent, l'une de ces possibilités :"
    return Step(_sentence(intro), children)


@_stmt(ast.EndTurn)
def _endturn(p: Prose, s: ast.EndTurn, ctx: Ctx) -> Step:
    return Step(_sentence("le tour s'arrête là"))


@_stmt(ast.Stop)
def _stop(p: Prose, s: ast.Stop, ctx: Ctx) -> Step:
    return Step(_sentence("s'arrêter là"))


@_stmt(ast.Cancel)
def _cancel(p: Prose, s: ast.Cancel, ctx: Ctx) -> Step:
    return Step(_sentence("l'action qui allait avoir lieu est annulée : elle n'a pas lieu"))


@_stmt(ast.Log)
def _log(p: Prose, s: ast.Log, ctx: Ctx) -> None:
    return None    # a line of the game log: an announcement, not a rule
