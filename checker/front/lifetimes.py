"""Vars with a lifetime: `var v[K]: T = d until w(a, b) [for b]`.

Once every file is collected, each `signal w(args)` of a procedure, an action or a power is preceded by the
statements that end the value: with `for b`, ``if v[arg of b] != d { log "…"; set v[arg of b] = d }`` (only the
index the window names, logged when it was set); without, ``reset v`` (every index, or the var itself).  So the
interpreter, the Z3 encoding, `conflicts`, `diff` and the book read ordinary statements, and the value is an
ordinary var: in the state, in state files, in Z3 "like any var".  A window opened by a `before` declaration is
refused (its opening is not a statement a lifetime can precede).
"""

from __future__ import annotations

import dataclasses

from checker.base.diagnostics import Reporter, did_you_mean
from checker.front import ast

__all__ = ["expand"]


def _valid(program, var: ast.VarDecl, reporter: Reporter) -> bool:
    life = var.until
    window = program.windows.get(life.window)
    if window is None:
        reporter.error("E0202", f"unknown window '{life.window}'", life.span, subject=life.window,
                       hint=did_you_mean(life.window, program.windows))
        return False
    if len(life.binders) != len(window.params):
        reporter.error("E0302", f"window '{life.window}' takes {len(window.params)} argument(s), `until` binds "
                                f"{len(life.binders)}", life.span)
        return False
    if any(h.window == life.window for h in program.hooks):
        reporter.error("E0303", f"'{var.name}' lasts until window '{life.window}', which a `before` declaration "
                                "opens: a lifetime ends at a window opened by `signal`", life.span,
                       hint="declare a window of its own, signalled where the value should end")
        return False
    if life.index is None:
        return True
    names = [n for n, _ in life.binders]
    if life.index not in names:
        reporter.error("E0202", f"`for {life.index}` names none of the window's arguments ({', '.join(names)})",
                       life.span, hint=did_you_mean(life.index, names))
        return False
    if var.index is None:
        reporter.error("E0302", f"'{var.name}' is not indexed: `for {life.index}` names the index that ends",
                       life.span, hint="leave out `for …` to end the var's value")
        return False
    param = window.params[names.index(life.index)].type
    if not (isinstance(param, ast.TypeName) and param.name == var.index.name):
        reporter.error("E0301", f"`for {life.index}`: the window's argument is a {ast_type(param)}, "
                                f"'{var.name}' is indexed by {var.index.name}", life.span)
        return False
    return True


def ast_type(t) -> str:
    if isinstance(t, ast.OptionalType):
        return ast_type(t.inner) + "?"
    if isinstance(t, ast.SetType):
        return "set of " + ast_type(t.inner)
    return t.name


def _ending(var: ast.VarDecl, signal: ast.Signal) -> tuple:
    """The statements that end ``var``'s value, before ``signal``."""
    life, span = var.until, var.until.span
    if life.index is None or var.default is None:
        return (ast.Reset(var.name, span),)
    arg = signal.args[[n for n, _ in life.binders].index(life.index)]
    cell = ast.LValue(var.name, arg, span)
    now = ast.Index(ast.Name(var.name, span), arg, span)
    return (ast.If(ast.Binary("!=", now, var.default, span),
                   (ast.Log(f"Fin de {var.name} ({{0}}) : {life.window}.", (arg,), span),
                    ast.SetVar(cell, var.default, span)), (), span),)


def rewrite_statements(body: tuple, fn) -> tuple:
    """``body`` with each statement ``s`` replaced by ``fn(s)`` (a tuple of statements, or None to keep it),
    inside `if`, `for` and `repeat` too; the same tuple when nothing changed."""
    out, changed = [], False
    for s in body:
        if isinstance(s, ast.If):
            then, else_ = rewrite_statements(s.then, fn), rewrite_statements(s.else_, fn)
            if then is not s.then or else_ is not s.else_:
                s, changed = dataclasses.replace(s, then=then, else_=else_), True
        elif isinstance(s, (ast.For, ast.Repeat)):
            inner = rewrite_statements(s.body, fn)
            if inner is not s.body:
                s, changed = dataclasses.replace(s, body=inner), True
        new = fn(s)
        if new is None:
            out.append(s)
        else:
            out += new
            changed = True
    return tuple(out) if changed else body


def expand(program, reporter: Reporter) -> None:
    """End each lasting var's value before the `signal`s of its window (``program``: the collected Program)."""
    ends: dict[str, list[ast.VarDecl]] = {}
    for var in program.vars.values():
        if var.until is not None and _valid(program, var, reporter):
            ends.setdefault(var.until.window, []).append(var)
    if not ends:
        return
    signalled = set()
    def ended_first(s):         # the values that end at a window end before its signal
        return (*(x for var in ends[s.window] for x in _ending(var, s)), s) \
            if isinstance(s, ast.Signal) and s.window in ends else None
    program.rewrite_bodies(lambda body: rewrite_statements(body, ended_first))
    for body in [p.body for p in program.procedures.values()] + [a.body or () for a in program.actions.values()] + \
            [pw.body for c in program.cards.values() for pw in c.powers]:
        signalled |= {n.window for n in ast.walk(body) if isinstance(n, ast.Signal)}
    for window, vars_ in ends.items():
        if window not in signalled:
            for var in vars_:
                reporter.warning("W0704", f"no `signal {window}` in the rule set: '{var.name}' never ends",
                                 var.until.span)
