"""French for `retarget`, `swap` and `each … chooses` (:mod:`checker.front.ast_statements`), registered in
:mod:`checker.prose.core`'s table of statement handlers."""

from __future__ import annotations

from checker.front import ast
from checker.front.types import PLAYER, Coll
from checker.prose.core import Ctx, Prose, Step, _stmt, var
from checker.prose.exprs import relative
from checker.prose.french import bare, contract, indefinite
from checker.prose.statements import _lvalue, _sentence, one_of

__all__: list[str] = []


@_stmt(ast.Retarget)
def _retarget(p: Prose, s: ast.Retarget, ctx: Ctx) -> Step:
    return Step(_sentence("l'action qui allait avoir lieu n'a pas lieu, et son auteur choisit de nouveau : "
                          "le pouvoir qui l'a faite n'est pas utilisé"))


@_stmt(ast.Swap)
def _swap(p: Prose, s: ast.Swap, ctx: Ctx) -> Step:
    left, right = p.expr(s.left, ctx.ind()), p.expr(s.right, ctx.ind())
    if isinstance(p.type_of(s.left), Coll):
        return Step(_sentence(contract(f"échanger le contenu de {left} et celui de {right} : chacun reçoit "
                                       f"toutes les cartes de l'autre")))
    return Step(_sentence(f"échanger {left} et {right} : chacun prend la place de l'autre"))


@_stmt(ast.ChooseEach)
def _choose_each(p: Prose, s: ast.ChooseEach, ctx: Ctx) -> Step:
    players = p.expr(s.players, ctx.ind())
    who = ctx.bind(s.player, PLAYER, "intro", noun="le joueur")
    label = p.label(who.locals[0])
    each = f"chaque joueur{label}" if players == "les joueurs" else f"chaque joueur{label} parmi {players}"
    ty = p.type_of(s.coll)
    elem = ty.elem if isinstance(ty, Coll) else ty
    if isinstance(s.coll, ast.Binary) and s.coll.op == "..":
        noun = "le nombre"
        what = contract(f"un nombre {var(s.var)} de {p.expr(s.coll.left, who)} à {p.expr(s.coll.right, who)}")
    else:
        noun = p.element_noun(s.coll)
        what = one_of(p, noun, p.expr(s.coll, who))
        if not what.startswith(indefinite(noun)):
            what = f"{indefinite(noun)} ({var(s.var)}) {what}"
        else:
            what = what.replace(f" {bare(noun)}", f" {bare(noun)} {var(s.var)}", 1)
    if s.where is not None:
        what += " " + relative(p, s.where, s.var, elem, noun, who, False)
    target = _lvalue(p, s.target, who)
    return Step(_sentence(f"{each} choisit en secret, sans voir les choix des autres, {what} ; une fois que tous "
                          f"ont choisi, les choix sont révélés ensemble, et le choix de chacun devient {target}"))
