"""French for lasting triggers (:mod:`checker.front.triggers`): the statements that module writes — setting a
trigger's var (`install`), the calls of its reaction before a `signal`, the end of its lifetime — read as what
they mean (« mettre en place l'effet durable … », « l'effet durable … réagit », « … prend fin »), not as the var
and the procedure they are made of.  Each handler here wraps the ordinary one of its statement type and hands it
every statement that is not of that shape."""

from __future__ import annotations

from checker.front import ast
from checker.prose.core import _STMT, Ctx, Prose, Step
from checker.prose.french import humanize
from checker.prose.statements import _sentence

__all__: list[str] = []


def _trigger(p: Prose, name: str):
    program = p.program
    return program.triggers.get(name) if program is not None else None


def _named(t) -> str:
    return f"l'effet durable « {humanize(t.name)} »"


def _until(p: Prose, t, ctx: Ctx) -> str:
    if t.until is None:
        return "jusqu'à la fin de la partie"
    clause = p.window_clause(t.until.window, [], ctx)
    return f"jusqu'au moment où {clause}" + (", pour ce joueur" if t.until.index is not None else "")


def _wrap(kind: type, reads):
    plain = _STMT[kind]

    def handler(p: Prose, s, ctx: Ctx):
        step = reads(p, s, ctx)
        return plain(p, s, ctx) if step is None else step
    _STMT[kind] = handler


def _install(p: Prose, s: ast.SetVar, ctx: Ctx):
    t = _trigger(p, s.target.name)
    if t is None or not (isinstance(s.value, ast.BoolLit) and s.value.value):
        return None
    who = f" pour {p.expr(s.target.index, ctx.ind())}" if s.target.index is not None else ""
    what = f" ({t.summary[:1].lower()}{t.summary[1:].rstrip('.')})" if t.summary else ""
    return Step(_sentence(f"mettre en place {_named(t)}{who}{what}, {_until(p, t, ctx)}"))


def _reaction_call(p: Prose, body: tuple):
    if len(body) == 1 and isinstance(body[0], ast.CallProc):
        return _trigger(p, body[0].name)
    return None


def _reacts(p: Prose, t) -> str:
    link = p.link("procedure", t.name, "détail")
    return f" ({link})" if link != t.name else ""


def _for(p: Prose, s: ast.For, ctx: Ctx):
    """``for p in players { if t[p] { call t(p, …) } }``: the installed trigger reacts, for each of its players."""
    if not (len(s.body) == 1 and isinstance(s.body[0], ast.If) and not s.body[0].else_
            and isinstance(s.body[0].cond, ast.Index) and isinstance(s.body[0].cond.obj, ast.Name)):
        return None
    t = _reaction_call(p, s.body[0].then)
    if t is None or s.body[0].cond.obj.id != t.name:
        return None
    return Step(_sentence(f"{_named(t)} réagit, pour chaque joueur qui l'a en place, dans l'ordre des "
                          f"places{_reacts(p, t)}"))


def _if(p: Prose, s: ast.If, ctx: Ctx):
    """``if t { call t(…) }`` (a trigger for nobody in particular), and the end of a trigger's lifetime at one
    player (``if t[x] != false { log …; set t[x] = false }``)."""
    if s.else_:
        return None
    t = _reaction_call(p, s.then)
    if t is not None and isinstance(s.cond, ast.Name) and s.cond.id == t.name:
        return Step(_sentence(f"si {_named(t)} est en place, il réagit{_reacts(p, t)}"))
    last = s.then[-1] if s.then else None
    if isinstance(last, ast.SetVar) and isinstance(last.value, ast.BoolLit) and not last.value.value \
            and isinstance(s.cond, ast.Binary) and s.cond.op == "!=" and last.target.index is not None:
        t = _trigger(p, last.target.name)
        if t is not None:
            return Step(_sentence(f"{_named(t)} de {p.expr(last.target.index, ctx.ind())}, s'il est en place, "
                                  "prend fin"))
    return None


def _reset(p: Prose, s: ast.Reset, ctx: Ctx):
    t = _trigger(p, s.name)
    return None if t is None else Step(_sentence(f"{_named(t)} prend fin, s'il est en place"))


_wrap(ast.SetVar, _install)
_wrap(ast.For, _for)
_wrap(ast.If, _if)
_wrap(ast.Reset, _reset)
