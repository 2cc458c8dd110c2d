"""Lasting triggers: `trigger t(p: Player) { when w(a, b)  until w2(…) [for x]  requires cond  body }` and
`install t(e)`.

A trigger is written, once every file is collected, as things every backend already reads:

- a Bool var ``t`` (``t[Player]`` with a parameter) with the trigger's lifetime, public: installed or not is
  state — in state files, in Z3 "like any var" — and :mod:`checker.front.lifetimes` ends it as any lasting var;
- a procedure ``t(p, a, b)`` (the parameter, then the window's binders, typed as the window's parameters):
  ``if cond { log "t (p) réagit à w." ; body }``, so a `stop` in the body ends the reaction only;
- each `install t(e)`: ``set t[e] = true`` and a log line (:func:`declare`);
- before each `signal w(args)` (after the lasting values that end there, :func:`expand` runs after
  :func:`checker.front.lifetimes.expand`): ``for p in players { if t[p] { call t(p, args) } }`` — the installed
  triggers react, in seat order, before the cards' reactions to the window.

A trigger reacts only to a window opened by `signal` (a `before` window is opened by no statement), so it cannot
`cancel` an action; the window's reactions and lasting triggers are in the order: values that end, triggers (in
the order of their declarations, overlays last), then the cards' powers.
"""

from __future__ import annotations

from checker.base.diagnostics import Note, Reporter, did_you_mean
from checker.front import ast
from checker.front.lifetimes import rewrite_statements

__all__ = ["declare", "expand"]

_VALUE_TABLES = ("vars", "zones", "quantities", "tables")


def _valid(program, t: ast.TriggerDecl, reporter: Reporter) -> bool:
    if t.window is None:
        reporter.error("E0302", f"trigger '{t.name}' says no window: write `when w(…)` for the window it reacts to",
                       t.span)
        return False
    name, binders, span = t.window
    window = program.windows.get(name)
    if window is None:
        reporter.error("E0202", f"unknown window '{name}'", span, subject=name, hint=did_you_mean(name, program.windows))
        return False
    if len(binders) != len(window.params):
        reporter.error("E0302", f"window '{name}' takes {len(window.params)} argument(s), `when` binds {len(binders)}",
                       span)
        return False
    if any(h.window == name for h in program.hooks):
        reporter.error("E0303", f"trigger '{t.name}' reacts to window '{name}', which a `before` declaration opens: "
                                "a lasting trigger reacts to a window opened by `signal`", span,
                       hint="react with a card's power, or declare a window of its own, signalled where it should act")
        return False
    if len(t.params) > 1 or (t.params and not (isinstance(t.params[0].type, ast.TypeName)
                                               and t.params[0].type.name == "Player")):
        reporter.error("E0301", f"trigger '{t.name}' is installed for one player (`trigger {t.name}(p: Player)`) "
                                "or for nobody in particular (`trigger " + t.name + "()`)", t.span)
        return False
    names = [p.name for p in t.params] + [b for b, _ in binders]
    twice = next((n for i, n in enumerate(names) if n in names[:i]), None)
    if twice is not None:
        reporter.error("E0201", f"'{twice}' names two things in trigger '{t.name}' (its parameter and the window's "
                                "arguments each need a name of their own)", span)
        return False
    for table in _VALUE_TABLES:
        if t.name in getattr(program, table):
            reporter.error("E0201", f"trigger '{t.name}' is also a var: the name holds whether it is installed",
                           t.span, notes=[Note("first defined here", getattr(program, table)[t.name].span)])
            return False
    if t.name in program.procedures:
        reporter.error("E0201", f"trigger '{t.name}' is also a procedure: the name runs its reaction", t.span,
                       notes=[Note("first defined here", program.procedures[t.name].span)])
        return False
    return True


def _moment(program, window: str) -> str:
    """A window as the log says it: its doc, as a clause (« tous les personnages ont été appelés »)."""
    doc = program.windows[window].doc if window in program.windows else None
    text = doc.strip().rstrip(".") if doc else window
    return (text[:1].lower() + text[1:]).replace("{", "{{").replace("}", "}}")


def _var(t: ast.TriggerDecl) -> ast.VarDecl:
    index = ast.TypeName("Player", t.span) if t.params else None
    return ast.VarDecl(t.name, index, ast.TypeName("Bool", t.span), ast.BoolLit(False, t.span), "public",
                       t.summary, False, False, (), t.span, t.until)


def _procedure(program, t: ast.TriggerDecl) -> ast.ProcedureDecl:
    name, binders, span = t.window
    window = program.windows[name]
    params = tuple(t.params) + tuple(ast.Param(b, prm.type, bspan) for (b, bspan), prm in zip(binders, window.params))
    who = [ast.Name(t.params[0].name, t.span)] if t.params else []
    log = ast.Log(f"{t.name}{' ({0})' if who else ''} réagit : {_moment(program, name)}.", tuple(who), t.span)
    body = (log, *t.body)
    if t.requires is not None:
        body = (ast.If(t.requires, body, (), t.requires.span),)
    return ast.ProcedureDecl(t.name, params, body, t.span)


def _rewrite_all(program, fn) -> None:
    """Apply :func:`~checker.front.lifetimes.rewrite_statements` to every procedure, action and power."""
    program.rewrite_bodies(lambda body: rewrite_statements(body, fn))


def _installed(program, reporter: Reporter, valid: dict):
    def install(s):
        if not isinstance(s, ast.Install):
            return None
        t = program.triggers.get(s.name)
        if t is None:
            reporter.error("E0202", f"unknown trigger '{s.name}'", s.span, subject=s.name,
                           hint=did_you_mean(s.name, program.triggers))
            return ()
        if len(s.args) != len(t.params):
            reporter.error("E0302", f"trigger '{s.name}' is installed for {len(t.params)} player(s), this names "
                                    f"{len(s.args)}", s.span)
            return ()
        if s.name not in valid:         # its declaration is reported; the statement is dropped
            return ()
        until = f"jusqu'au moment où {_moment(program, t.until.window)}" if t.until is not None else \
            "jusqu'à la fin de la partie"
        target = ast.LValue(s.name, s.args[0] if s.args else None, s.span)
        return (ast.SetVar(target, ast.BoolLit(True, s.span), s.span),
                ast.Log(f"{s.name}{' ({0})' if s.args else ''} : en place, {until}.", tuple(s.args), s.span))
    return install


def declare(program, reporter: Reporter) -> None:
    """Each valid trigger as a var and a procedure; each `install` as the statements that set it (``program``:
    the collected Program, before :func:`checker.front.lifetimes.expand`)."""
    valid = {}
    for t in program.triggers.values():
        if _valid(program, t, reporter):
            valid[t.name] = t
            program.vars[t.name] = _var(t)
            program.procedures[t.name] = _procedure(program, t)
    _rewrite_all(program, _installed(program, reporter, valid))
    program.triggers = valid        # an invalid one is reported, and reacts nowhere


def _fresh(t: ast.TriggerDecl, args: tuple) -> str:
    """The loop's name: the trigger's parameter's, unless the signal's arguments read a name so spelt."""
    used = {n.id for n in ast.walk(args) if isinstance(n, ast.Name)}
    name = t.params[0].name
    while name in used:
        name += "_"
    return name


def _reactions(program, by_window: dict):
    def react(s):
        if not isinstance(s, ast.Signal) or s.window not in by_window:
            return None
        out = []
        for t in by_window[s.window]:
            if not t.params:
                out.append(ast.If(ast.Name(t.name, t.span), (ast.CallProc(t.name, s.args, t.span),), (), t.span))
                continue
            p = _fresh(t, s.args)
            call = ast.CallProc(t.name, (ast.Name(p, t.span), *s.args), t.span)
            test = ast.Index(ast.Name(t.name, t.span), ast.Name(p, t.span), t.span)
            out.append(ast.For(p, ast.Name("players", t.span), (ast.If(test, (call,), (), t.span),), t.span))
        return (*out, s)
    return react


def expand(program, reporter: Reporter) -> None:
    """Before each `signal w(…)`, the triggers reacting to ``w`` (after :func:`checker.front.lifetimes.expand`,
    so that a value ending at ``w`` ends first)."""
    by_window: dict[str, list] = {}
    for t in program.triggers.values():
        by_window.setdefault(t.window[0], []).append(t)
    if not by_window:
        return
    _rewrite_all(program, _reactions(program, by_window))
    signalled = {n.window for body in [p.body for p in program.procedures.values()]
                 + [a.body or () for a in program.actions.values()]
                 + [pw.body for c in program.cards.values() for pw in c.powers]
                 for n in ast.walk(body) if isinstance(n, ast.Signal)}
    for window, ts in by_window.items():
        if window not in signalled:
            for t in ts:
                reporter.warning("W0704", f"no `signal {window}` in the rule set: trigger '{t.name}' never reacts",
                                 t.window[2])
