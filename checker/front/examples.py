"""typecheck of `example` declarations: the situation, the moves and the expectations are well formed.

An example's expressions see the players (``Joueur 1`` … ``Joueur N``, N its `players`), the parameters
of the procedure its `at` names, and ``winners`` (the players who win the game as it stands, a set).
What a situation does to the game's invariants is judged when it is run (``rulebook test``): that needs
the interpreter, which the front end does not run.
"""

from __future__ import annotations

from pathlib import Path

from checker.base.diagnostics import Reporter
from checker.front import ast
from checker.front import example_ast as ex
from checker.front.program import card_hint, did_you_mean
from checker.front.typecheck_core import Checker, Env
from checker.front.types import BOOL, ERROR, PLAYER, Coll, KindT, Ty

__all__ = ["check_examples", "example_players", "example_env", "WINNERS", "offer_of", "offer_locals"]

WINNERS = "winners"


def example_players(c_program, example: ex.ExampleDecl) -> int:
    """The example's player count: its `players`, else the least the game allows."""
    if example.players is not None:
        return example.players
    game = c_program.game
    for f in game.fields if game else ():
        if f.name == "players":
            low = getattr(getattr(f.values[0], "left", None), "value", None)
            value = getattr(f.values[0], "value", None)
            if isinstance(low, int):
                return low
            if isinstance(value, int):
                return value
    return 2


def offer_of(procedure: ast.ProcedureDecl) -> ast.Offer | None:
    """The first `offer` of a procedure's body (nested blocks included): where an example's `at` stops."""
    return next((s for s in ast.statements(procedure.body) if isinstance(s, ast.Offer)), None)


def offer_locals(procedure: ast.ProcedureDecl) -> list[str]:
    """The names the procedure binds itself (a `for`'s, a `let`'s, a `choose`'s) that its first `offer` reads:
    an example's `at` binds the procedure's parameters only, so it cannot stop at such an offer."""
    site = offer_of(procedure)
    if site is None:
        return []
    bound = set()
    for s in ast.statements(procedure.body):
        if isinstance(s, ast.Let):
            bound.add(s.name)
        elif isinstance(s, (ast.For, ast.Choose, ast.ChooseSubset)):
            bound.add(s.var)
    own = {name for item in site.items if isinstance(item, ast.OfferAction) for name, _ in item.binders}
    params = {p.name for p in procedure.params}
    return sorted((ast.names_in(site) - own) & bound - params)


def example_env(c: Checker, example: ex.ExampleDecl) -> Env:
    program = c.p
    names: dict[str, Ty] = {f"Joueur {k}": PLAYER for k in range(1, example_players(program, example) + 1)}
    if WINNERS not in program.vars and WINNERS not in program.quantities and WINNERS not in program.zones:
        names[WINNERS] = Coll(PLAYER)
    env = Env(names)
    at = example.at
    if at is not None and at.func in program.procedures:
        env = c.params_env(program.procedures[at.func].params, env)
    return env


def check_examples(c: Checker) -> None:
    """Type every example.  A base spec's example that no longer checks once overlays change the rules it
    names (a configuration or card removed, say) does not make the rule set wrong: it is set aside, with its
    first error, in ``c.typed.inapplicable`` (``rulebook test`` lists it as not applying)."""
    overlays = {h.span.file for h in c.p.overlays}
    for example in c.p.examples.values():
        if not overlays or example.span.file in overlays:
            _example(c, example)
            continue
        reporter, c.r = c.r, Reporter()
        try:
            _example(c, example)
        finally:
            own, c.r = c.r, reporter
        errors = own.sorted() and own.errors
        if errors:
            first = sorted(errors, key=lambda d: (d.span.line, d.span.column) if d.span else (0, 0))[0]
            c.typed.inapplicable[example.name] = f"{first.span}: {first.message}" if first.span else first.message
        else:
            c.r.diagnostics.extend(own.diagnostics)


def _example(c: Checker, example: ex.ExampleDecl) -> None:
    program = c.p
    players = example_players(program, example)
    if not 1 <= players <= 100:
        c.err("E0302", f"an example is for 1 to 100 players, not {players}", example.span)
    if example.configuration is not None:
        name, span = example.configuration
        if name not in program.configurations:
            c.err("E0202", f"unknown configuration \"{name}\"", span, subject=name,
                  hint=did_you_mean(name, program.configurations, '"'))
    base = Env({f"Joueur {k}": PLAYER for k in range(1, players + 1)})
    if example.at is not None:
        at = example.at
        c.invoke("procedure", program.procedures, at.func, at.args, base, at.span)
        decl = program.procedures.get(at.func)
        if decl is not None and offer_of(decl) is None:
            c.err("E0303", f"procedure '{at.func}' makes no `offer`: an example's `at` names the procedure whose "
                           f"offer the situation stops at", at.func_span,
                  hint="start from an earlier procedure with `call` instead, and answer its decisions")
        elif decl is not None and (bound := offer_locals(decl)):
            names = ", ".join(f"'{n}'" for n in bound)
            where = offer_of(decl).span
            c.err("E0303", f"the offer of procedure '{at.func}' ({Path(str(where.file)).name}:{where.line}) reads {names}, which "
                           f"'{at.func}' binds itself (a `for`, "
                           f"`let` or `choose`): an example's `at` binds only a procedure's parameters",
                  at.func_span, hint=f"`call {at.func}(…)` instead, and answer the decisions before the offer; "
                                     f"or give the offer a procedure of its own whose parameters are those names")
    env = example_env(c, example)
    for item in example.situation:
        if isinstance(item, ex.ExampleSet):
            target = c.lvalue(item.target, env, want="var")
            if target is not ERROR:
                c.expect(item.value, target, env, f"the value of {item.target.name}")
        else:
            what = c.expr(item.cards, env)
            dest = c.lvalue(item.target, env, want="zone")
            moved = what.elem if isinstance(what, Coll) else what
            if what is ERROR or dest is ERROR:
                continue
            if not isinstance(moved, KindT):
                c.err("E0301", f"a situation moves cards; this is {what}", item.cards.span)
            elif isinstance(dest, Coll) and dest.elem != moved:
                c.err("E0301", f"a {moved} cannot go into a zone of {dest.elem}", item.span)
    for step in example.steps:
        if isinstance(step, ex.ExampleCall):
            c.invoke("procedure", program.procedures, step.name, step.args, env, step.span)
        elif isinstance(step, ex.ExampleExpect):
            c.expect(step.condition, BOOL, env, "an expectation")
            if step.by and not _forbids(step.condition):
                c.err("E0303", "`by` names the rules that forbid a move: it follows `expect not can …`",
                      step.by[0][1], hint="write `expect not can action(…) by rule`")
            for name, span in step.by:
                c.rule_ref(name, span)
        elif step.kind == "action":
            c.invoke("action", program.actions, step.name, step.args, env, step.span)
        elif step.kind == "power":
            card = program.cards.get(step.card)
            if card is None:
                c.err("E0203", f"unknown card \"{step.card}\"", step.span, subject=step.card,
                      hint=card_hint(program, step.card, program.cards))
            elif step.name not in [p.name for p in card.powers]:
                c.err("E0202", f"\"{step.card}\" has no power '{step.name}'", step.span, subject=step.name,
                      hint=did_you_mean(step.name, [p.name for p in card.powers])
                      or f"its powers: {', '.join(p.name for p in card.powers) or 'none'}")
        elif step.kind in ("choose", "random"):
            c.expr(step.args[0], env)


def _forbids(condition: ast.Expr) -> bool:
    return isinstance(condition, ast.Unary) and condition.op == "not" and isinstance(condition.operand, ast.Can)
