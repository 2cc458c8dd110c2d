"""French prose for statements: each statement of a power or a procedure becomes a step."""

from __future__ import annotations

from checker import ast
from checker.prose.core import _ARITH, Ctx, Prose, Step, UnsupportedNode, _some, _stmt, var
from checker.prose.french import (bare, capitalize, conj, contract, feminine, humanize, indefinite, negate, plural,
                                  rst_escape, yours)
from checker.types import BOOL, Coll, EnumT, Opt

__all__: list[str] = []


# ---------------------------------------------------------------- statement handlers


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


@_stmt(ast.Let)
def _let(p: Prose, s: ast.Let, ctx: Ctx) -> Step:
    value = p.expr(s.value, ctx)
    if value.startswith(("le ", "la ", "les ", "l'", "un ", "une ", "des ", "du ")):
        return Step(_sentence(f"Soit {var(s.name)} {value}"))
    return Step(_sentence(f"Soit {var(s.name)} = {value}"))


def _lvalue(p: Prose, lv: ast.LValue, ctx: Ctx) -> str:
    args = [p.expr(lv.index, ctx)] if lv.index is not None else []
    if ctx.local(lv.name):
        return var(lv.name)
    program = p.program
    ty = None
    if program is not None and lv.name in program.vars:
        ty = p._resolve_type(program.vars[lv.name].type)
    return p.term_text(lv.name, args, ty)


@_stmt(ast.SetVar)
def _setvar(p: Prose, s: ast.SetVar, ctx: Ctx) -> Step:
    target = _lvalue(p, s.target, ctx)
    program = p.program
    decl = program.vars.get(s.target.name) if program is not None else None
    ty = p._resolve_type(decl.type) if decl is not None else None
    if ty == BOOL and isinstance(s.value, ast.BoolLit):
        return Step(_sentence(f"désormais, {target if s.value.value else negate(target)}"))
    if ty == BOOL:
        return Step(_sentence(f"désormais, {target} si et seulement si {p.cond(s.value, ctx)}"))
    if isinstance(s.value, ast.NoneLit):
        some = _some(p, ast.Index(ast.Name(s.target.name, s.span), s.target.index, s.span)
                     if s.target.index is not None else ast.Name(s.target.name, s.span), ctx)
        if some is not None:
            return Step(_sentence(f"désormais, {negate(some)}"))
        return Step(_sentence(f"{target} : plus rien"))
    if isinstance(s.value, ast.Binary) and s.value.op in ("+", "-") and _same_lvalue(s.value.left, s.target):
        amount = p.expr(s.value.right, ctx)
        if s.value.op == "+":
            return Step(_sentence(f"ajouter {amount} à {target}"))
        return Step(_sentence(f"retirer {amount} de {target}"))
    value = p.expr(s.value, ctx)
    if isinstance(ty, Opt) and target.startswith(("le ", "la ", "l'")):
        return Step(_sentence(f"désormais, {target} est {value}").replace(" est vous", ", c'est vous"))
    return Step(_sentence(f"désormais, {target} vaut {value}"))


@_stmt(ast.Reset)
def _reset(p: Prose, s: ast.Reset, ctx: Ctx) -> Step:
    return Step(_sentence(f"remettre « {humanize(s.name)} » à sa valeur de départ, pour tous"))


def _options(p: Prose, opts: ast.ChooseOptions, ctx: Ctx) -> tuple[str, str, str]:
    """(the chooser as subject, the verb, the adverbs)."""
    chooser = p.expr(opts.by, ctx) if opts.by is not None else ("vous" if ctx.me else None)
    if opts.random:
        return "", "tirer au hasard", ""
    adverbs = " secrètement" if opts.secretly else ""
    if chooser is None or chooser == "vous":
        return "", "choisir" + adverbs, ""
    return chooser, f"{conj('choisir', chooser)}{adverbs}", ""


@_stmt(ast.Choose)
def _choose(p: Prose, s: ast.Choose, ctx: Ctx) -> Step:
    inner = ctx.bind(s.var, p._choice_type(s))
    subject, verb, _ = _options(p, s.options, ctx)
    coll = s.coll
    if isinstance(coll, ast.SetLit) and all(isinstance(i, ast.BoolLit) for i in coll.items):
        what = f"oui ou non ({var(s.var)})"
    elif isinstance(coll, ast.Name) and p.program is not None and coll.id in p.program.enums:
        members = ", ".join(f"**{rst_escape(humanize(m.name))}**" + (f" ({rst_escape(m.doc)})" if m.doc else "")
                            for m in p.program.enums[coll.id].members)
        what = f"{indefinite(p.type_noun(EnumT(coll.id)))} {var(s.var)} parmi : {members}"
    elif isinstance(coll, ast.Binary) and coll.op == "..":
        what = contract(f"un nombre {var(s.var)} de {p.expr(coll.left, ctx)} à {p.expr(coll.right, ctx)}")
    else:
        noun = p.element_noun(coll)
        what = f"{indefinite(noun)} {var(s.var)} {_among(p.expr(coll, ctx))}"
    text = f"{subject + ' ' if subject else ''}{verb} {what}"
    if s.options.where is not None:
        tel = "telle" if _is_fem_choice(p, s) else "tel"
        text += f", {tel} que {p.cond(s.options.where, inner)}"
    if s.options.optional:
        text += " (ou rien ; alors la suite n'a pas lieu)"
    return Step(_sentence(text))


def _is_fem_choice(p: Prose, s) -> bool:
    return feminine(p.element_noun(s.coll))


def _among(coll: str) -> str:
    return contract(f"parmi {coll}" if coll.startswith(("les ", "des ", "*")) else f"de {coll}")


@_stmt(ast.ChooseSubset)
def _choose_subset(p: Prose, s: ast.ChooseSubset, ctx: Ctx) -> Step:
    inner = ctx.bind(s.var, p.type_of(s.coll))
    subject, verb, _ = _options(p, s.options, ctx)
    noun = bare(plural(p.element_noun(s.coll)))
    low, high = p.expr(s.low, ctx), p.expr(s.high, ctx)
    among = _among(p.expr(s.coll, ctx))
    chooser = f"{subject} " if subject else ""
    if low == high:
        text = f"{chooser}{verb} exactement {low} {noun} ({var(s.var)}) {among}"
    elif _simple_number(s.low, ctx) and _simple_number(s.high, ctx):
        text = f"{chooser}{verb} de {low} à {high} {noun} ({var(s.var)}) {among}"
    else:
        text = f"{chooser}{verb} des {noun} ({var(s.var)}) {among} : au moins {low} et au plus {high}"
    if s.options.where is not None:
        text += f", tels que {p.cond(s.options.where, inner)}"
    return Step(_sentence(text))


@_stmt(ast.If)
def _if(p: Prose, s: ast.If, ctx: Ctx) -> Step:
    step = _block(p, f"si {p.cond(s.cond, ctx)}", s.then, ctx)
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
def _for(p: Prose, s: ast.For, ctx: Ctx) -> Step:
    ty = p.type_of(s.coll)
    inner = ctx.bind(s.var, ty.elem if isinstance(ty, Coll) else ty)
    coll = s.coll
    if isinstance(coll, ast.Binary) and coll.op == "..":
        intro = contract(f"pour chaque nombre {var(s.var)} de {p.expr(coll.left, ctx)} à {p.expr(coll.right, ctx)}")
    else:
        noun = p.element_noun(coll)
        intro = f"pour chaque {bare(noun)} {var(s.var)} {_among(p.expr(coll, ctx))}"
    if not p.steps(s.body, inner):
        return None     # a loop that only writes the game log
    return _block(p, intro, s.body, inner)


@_stmt(ast.Repeat)
def _repeat(p: Prose, s: ast.Repeat, ctx: Ctx) -> Step:
    return Step(_sentence(f"répéter, tant que {p.negated(s.until, ctx)} :"), p.steps(s.body, ctx))


def _amount(p: Prose, amount, ctx: Ctx, unit: str | None) -> str:
    """A number of things: ``2 pièces d'or``, ``*k* pièces d'or``, ``autant de cartes que de …``."""
    text = p.expr(amount, ctx)
    if unit is None:
        return text
    if isinstance(amount, ast.IntLit):
        return f"{amount.value} {unit if amount.value <= 1 else _plural_unit(unit)}"
    if text.startswith("le nombre de "):
        return contract(f"autant de {_plural_unit(unit)} que de {text[len('le nombre de '):]}")
    if _simple_number(amount, ctx):
        return f"{text} {_plural_unit(unit)}"
    return text


def _simple_number(e, ctx: Ctx) -> bool:
    """A literal, a variable, or arithmetic on them: reads as a number."""
    if isinstance(e, ast.IntLit):
        return True
    if isinstance(e, ast.Name):
        return ctx.local(e.id)
    return (isinstance(e, ast.Binary) and e.op in _ARITH and _simple_number(e.left, ctx)
            and _simple_number(e.right, ctx))


def _plural_unit(unit: str) -> str:
    head, _, rest = unit.partition(" ")
    return bare(plural(f"la {head}")) + (f" {rest}" if rest else "")


def _same_lvalue(amount, lv: ast.LValue) -> bool:
    if isinstance(amount, ast.Index) and isinstance(amount.obj, ast.Name) and lv.index is not None:
        return amount.obj.id == lv.name and amount.index == lv.index or (
            amount.obj.id == lv.name and _strip_spans(amount.index) == _strip_spans(lv.index))
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
    what = _amount(p, s.count, ctx, bare(noun))
    if not what.startswith("autant") and not _simple_number(s.count, ctx):
        what = contract(f"autant de {bare(plural(noun))} que {what}")
    if what.startswith("autant"):
        return Step(_sentence(f"piocher dans {source} {what}, et les mettre {_place(p, s.dest, ctx)}"))
    return Step(_sentence(f"piocher {what} de {source} et les mettre {_place(p, s.dest, ctx)}"))


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
    args = p.args(s.args, ctx)
    phrase = p.action_phrase(s.action, args)
    link = p.link("action", s.action)
    text = f"{phrase} ({link})" if link != s.action else phrase
    if args and args[0] != "vous" and ctx.me:
        text = f"{args[0]} : {text}"
    elif args and not ctx.me:
        text = f"{args[0]} : {text}"
    return Step(_sentence(text))


@_stmt(ast.CallProc)
def _callproc(p: Prose, s: ast.CallProc, ctx: Ctx) -> Step:
    args = p.args(s.args, ctx)
    template = p.lex.procedures.get(s.name)
    if template is not None:
        text = yours(contract(template.format(*args, *[""] * 4)))
    else:
        text = humanize(s.name) + (f" ({', '.join(args)})" if args else "")
    link = p.link("procedure", s.name, "détail")
    return Step(_sentence(f"{text} ({link})" if link != s.name else text))


@_stmt(ast.Signal)
def _signal(p: Prose, s: ast.Signal, ctx: Ctx) -> Step:
    args = p.args(s.args, ctx)
    return Step(_sentence(f"c'est le moment où {p.window_clause(s.window, args)} : les effets qui y "
                          f"réagissent s'appliquent"))


@_stmt(ast.Offer)
def _offer(p: Prose, s: ast.Offer, ctx: Ctx) -> Step:
    who = p.expr(s.player, ctx)
    children = []
    for item in s.items:
        if isinstance(item, ast.OfferAction):
            inner = ctx
            fors = []
            for name, coll in item.binders:
                ty = p.type_of(coll)
                inner = inner.bind(name, ty.elem if isinstance(ty, Coll) else ty)
                fors.append(f"{var(name)} {_among(p.expr(coll, ctx))}")
            args = p.args(item.args, inner)
            link = p.link("action", item.action)
            text = p.action_phrase(item.action, args)
            text += f" ({link})" if link != item.action else ""
            if fors:
                text += ", avec " + " et ".join(fors)
            children.append(Step(_sentence(text)))
        elif isinstance(item, ast.OfferPowers):
            children.append(Step(_sentence(f"utiliser un pouvoir de {p.expr(item.source, ctx)}")))
        elif isinstance(item, ast.OfferFinish):
            text = f"« {rst_escape(item.label)} »"
            if item.when is not None:
                text += f", lorsque {p.cond(item.when, ctx)}"
            children.append(Step(_sentence(text + " : cela met fin aux choix")))
        else:
            raise UnsupportedNode(item)
    intro = f"{who} {conj('choisir', who)}, autant de fois que les règles le permettent, l'une de ces possibilités :"
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
