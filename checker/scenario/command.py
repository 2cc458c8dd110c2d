"""Scenarios without whole games: evaluate a quantity on a state, score it, apply a move to it.

    rulebook eval  STATE 'score(Joueur 1)'            the value, computed by the interpreter
    rulebook score STATE                              every player's score, what it is made of, the winners
    rulebook apply STATE MOVE [ANSWER…] -o NEXT       the state after the move (and the answers it asks for)

All three load the state into an interpreter (:func:`checker.solver.command.load`), like `legal`
and `moves`.  An expression is written in the spec's language and type-checked against the spec and
the names in scope at the state's decision point (``p``, ``c`` …).  `apply` judges the move with the
same rules as `legal` (an illegal move is refused with its reasons), runs its effect, answers the
decisions the effect asks with the ANSWER move files in order, and writes the state at the next
decision point: the same `offer` when the effect completes, or the decision the answers ran out at.  At an
`each … chooses`, the move is the decider's choice, and the next state is the next player's turn to choose.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING


from checker.base import terminal
from checker.base.diagnostics import Reporter, render_expression
from checker.base.documents import DocumentError, read_document, report, spoken
from checker.base.output import OutputError, plan, write_json
from checker.base.source import SourceFile

if TYPE_CHECKING:         # names in annotations only: imported where they run
    from checker.front.types import Ty
    from checker.runtime.engine import Decision

__all__ = ["add_parsers", "eval_command", "score_command", "apply_command", "compile_expression"]

_PREFIX = "quantity __évaluée__(): Int =\n"     # an expression is parsed as a quantity's default
_EXPRESSION = "EXPR"                               # the expression's name in its diagnostics


def add_parsers(new_command) -> dict:
    """The parsers of `eval`, `score` and `apply`, made by the CLI's ``new_command`` (--color, the exit codes)."""
    from checker.solver.command import state_options
    from checker.base.terminal import completes
    ev = new_command("eval", help="evaluate an expression of the spec's language on a state",
                        description="Load STATE into the interpreter and print the value of EXPR, an expression "
                                    "of the spec's language (quantities, vars, zones, the names in scope at the "
                                    "state's decision point).  Exit codes: 0, 2 bad input or a bad expression.")
    completes(ev.add_argument("state", metavar="STATE", help="a state file"), "file")
    ev.add_argument("expression", metavar="EXPR", help="for example 'score(Joueur 1)' or 'trésor[p]'")
    sc = new_command("score", help="every player's score on a state, what it is made of, and the winners",
                        description="Load STATE into the interpreter and print each player's score (the game's "
                                    "`score` quantity), the rules that add to it, the tie-break, and who wins.")
    completes(sc.add_argument("state", metavar="STATE", help="a state file"), "file")
    ap = new_command("apply", help="apply a move to a state and write the next state",
                        description="Judge MOVE at STATE's decision point (as `rulebook legal` does), run it, "
                                    "answer the decisions it asks with the ANSWER move files in order, and write "
                                    "the state at the next decision point to NEXT.  Only a move at an `offer` "
                                    "(an action or a power) can be applied: what follows a `choose` or a reaction "
                                    "is not recorded in a state file.  Exit codes: 0 applied, 1 the move is "
                                    "illegal, 2 bad input, 4 the solver could not decide.")
    completes(ap.add_argument("state", metavar="STATE", help="a state file"), "file")
    completes(ap.add_argument("move", metavar="MOVE", help="a move file"), "file")
    completes(ap.add_argument("answers", metavar="ANSWER", nargs="*",
                              help="move files answering the decisions the move asks"), "file")
    completes(ap.add_argument("--output", "-o", metavar="NEXT", required=True, help="where to write the next state"),
              "file")
    ap.add_argument("--force", action="store_true", help="overwrite NEXT if it exists")
    for command in (ev, sc, ap):
        state_options(command)
    return {"eval": eval_command, "score": score_command, "apply": apply_command}


# ---------------------------------------------------------------- expressions

_PLAYER = re.compile(r'"(?:[^"\\]|\\.)*"|\bJoueur (\d+)\b')


def players_named(text: str, count: int) -> tuple[str, dict[str, int]]:
    """``Joueur 2`` in an expression (outside strings) becomes the name ``Joueur_2``, bound to seat 1.

    >>> players_named('score(Joueur 2) + count(x in main[Joueur 1])', 4)
    ('score(Joueur_2) + count(x in main[Joueur_1])', {'Joueur_2': 1, 'Joueur_1': 0})
    """
    seats: dict[str, int] = {}

    def name(match: re.Match) -> str:
        if match.group(1) is None:
            return match.group(0)
        k = int(match.group(1))
        if not 1 <= k <= count:
            raise ValueError(f"there is no Joueur {k}: this game has {count} players (Joueur 1 … Joueur {count})")
        seats[f"Joueur_{k}"] = k - 1
        return f"Joueur_{k}"
    return _PLAYER.sub(name, text), seats


_COPY = re.compile(r'"([^"\\#\n]+#\d+)"')


def copies_named(text: str, values) -> tuple[str, dict[str, int]]:
    """``"Nom#2"`` in an expression (a card's copy, as `moves` and state files name it) becomes a name of
    the same length bound to that copy: a card's name alone stands for the card, whichever copy.
    Raises ValueError, saying how the copies are named, for a copy the game does not have."""
    bound: dict[str, int] = {}

    def name(match: re.Match) -> str:
        label = match.group(1)
        inst = values.by_label.get(label[:-2] if label.endswith("#1") else label)
        if inst is None:
            raise ValueError(values.unknown_card(label))
        ident = f"_c{len(bound)}"
        ident += "_" * (len(match.group(0)) - len(ident))
        bound[ident] = inst
        return ident
    return _COPY.sub(name, text), bound


def as_typed(diagnostics, typed: str) -> str:
    """The diagnostics of an expression as its user wrote it: the ``EXPR`` line (not the quantity
    it is parsed as, nor ``Joueur_2`` for ``Joueur 2``), the caret at the same place."""
    return render_expression(diagnostics, _EXPRESSION, _PREFIX, typed)


def compile_expression(result, engine, text: str, names: dict[str, Ty], typed: str | None = None):
    """(function of the environment, type) for ``text``, or (None, the diagnostics' rendering).

    ``typed``: the expression as the user wrote it (before ``players_named``), shown in diagnostics.
    """
    from checker.front.typecheck import Checker, Env
    from checker.front import ast
    from checker.front.lower import lower_trees
    from checker.front.parse import parse_file
    reporter = Reporter()
    source = SourceFile(_EXPRESSION, Path(_EXPRESSION), _PREFIX + text)
    header, decls = lower_trees(source.name, parse_file(source, reporter), reporter)
    if reporter.errors or len(decls) != 1 or not isinstance(decls[0], ast.QuantityDecl):
        if not reporter.errors:
            return None, "rulebook: EXPR must be one expression"
        return None, as_typed(reporter.sorted(), text if typed is None else typed)
    expr = decls[0].default
    checker = Checker(result.program, reporter)
    ty = checker.expr(expr, Env(dict(names)))
    if reporter.errors:
        return None, as_typed(reporter.sorted(), text if typed is None else typed)
    engine.typed.types.update(checker.typed.types)
    from checker.runtime.codegen import Scope
    function = engine.compiler.gen.env_function(expr, Scope({n: f"env[{n!r}]" for n in names}))
    return (function, expr), ty


def _names(loaded, scopes) -> dict[str, Ty]:
    site = loaded.point.site
    if hasattr(site, "card"):        # a reaction: me, this and the window's names
        card = loaded.engine.program.cards[loaded.engine.def_names[site.card]]
        decl = next(x for x in card.powers if x.name == site.name)
        types = scopes.power_names(card, decl)
    else:
        types = scopes.at.get(id(site), {})
    return {k: t for k, t in types.items() if t is not None and k in loaded.point.env}


def eval_command(args) -> int:
    from checker.front.types import BOOL, KindT, PLAYER
    from checker.runtime.state import SpecRuntimeError
    from checker.solver.command import load
    loaded_or_code = load("eval", args.state, args.spec)
    if isinstance(loaded_or_code, int):
        return loaded_or_code
    result, engine, scopes, loaded = loaded_or_code
    names = _names(loaded, scopes)
    try:
        text, seats = players_named(args.expression, engine.st.n)
        text, copies = copies_named(text, loaded.values)
    except ValueError as exc:
        print(f"rulebook eval: {exc}", file=sys.stderr)
        return 2
    kinds = {k: KindT(engine.def_kind[engine.defs[inst]]) for k, inst in copies.items()}
    compiled, ty = compile_expression(result, engine, text, {**names, **{k: PLAYER for k in seats}, **kinds},
                                      typed=args.expression)
    if compiled is None:
        print(ty, file=sys.stderr)
        return 2
    function, _ = compiled
    engine.invalidate()
    try:
        value = function({**loaded.point.env, **seats, **copies})
    except SpecRuntimeError as exc:
        print(f"rulebook eval: {exc}", file=sys.stderr)
        return 2
    if ty == BOOL:
        value = bool(value)         # a membership test is a count of copies by name, true when not 0
    shown = loaded.values.write(value, ty)
    if args.json:
        terminal.emit_json({"command": "eval", "ok": True, "exit_code": 0, "expression": args.expression,
                            "type": str(ty), "value": shown})
    else:
        print(_text(shown))
    return 0


def _text(value) -> str:
    return spoken(value)


# ---------------------------------------------------------------- scores

def score_command(args) -> int:
    from checker.runtime.state import SpecRuntimeError
    from checker.solver.command import load
    loaded_or_code = load("score", args.state, args.spec)
    if isinstance(loaded_or_code, int):
        return loaded_or_code
    result, engine, scopes, loaded = loaded_or_code
    if engine.score is None:
        print("rulebook score: the game declares no `score` quantity", file=sys.stderr)
        return 2
    engine.invalidate()
    try:
        outcome = engine.result()
        parts = {p: _score_parts(engine, p) for p in engine.seats}
        ties = {p: engine.quantity(engine.tiebreak, (p,)) for p in engine.seats} if engine.tiebreak else {}
    except SpecRuntimeError as exc:
        print(f"rulebook score: {exc}", file=sys.stderr)
        return 2
    player = lambda p: f"Joueur {p + 1}"  # noqa: E731
    if args.json:
        terminal.emit_json({"command": "score", "ok": True, "exit_code": 0,
                            "scores": {player(p): s for p, s in outcome.scores.items()},
                            "parts": {player(p): [{"rule": r, "amount": a} for r, a in parts[p]] for p in parts},
                            "tiebreak": {player(p): t for p, t in ties.items()},
                            "winners": [player(p) for p in outcome.winners]})
        return 0
    for p, total in outcome.scores.items():
        shown = " ".join(f"{'+' if a >= 0 else '-'} {abs(a)} ({r})" for r, a in parts[p][1:])
        base = parts[p][0][1]
        tie = f"   {engine.tiebreak} {ties[p]}" if ties else ""
        print(f"{player(p)} : {total}   = {base} ({parts[p][0][0]}) {shown}".rstrip() + tie)
    print(f"Vainqueur : {', '.join(player(p) for p in outcome.winners)}")
    return 0


def _score_parts(engine, p: int) -> list[tuple[str, int]]:
    """[(what, amount)]: the score's value rule (or default), then each adjustment that applies."""
    name = engine.score
    decl = engine.program.quantities[name]
    env = {decl.params[0].name: p}
    from checker.runtime.engine import SLOTS
    slots = dict(zip(SLOTS, (p,)))
    base, parts = None, []
    for rule, kind, _binders, value, when, this in engine.quantities[name][2] + engine.quantities[name][3]:
        slots.update(this)
        if when is None or when(slots):
            amount = value(slots)
            if kind == "value":
                base = (rule, amount)
            else:
                parts.append((rule, amount))
    if base is None:
        base = ("sa valeur de base", engine.quantities[name][1](env))
    return [base] + parts


# ---------------------------------------------------------------- applying a move

class _Stop(Exception):
    """The answers ran out at a decision: the state there is the next state."""

    def __init__(self, decision: Decision):
        self.decision = decision


class _Answers:
    """An agent that answers each decision with the next move file, judged against the options offered."""

    def __init__(self, loaded, moves: list[tuple[str, dict]], scopes, problems: list):
        self.loaded, self.moves, self.scopes, self.problems = loaded, list(moves), scopes, problems

    def choose(self, decision: Decision) -> int:
        from checker.solver.statefile import StateFileError, copies_of, load_move
        from checker.solver.command import describe_move
        from checker.solver.legal import interpreter_moves, point_of
        if not self.moves:
            raise _Stop(decision)
        path, data = self.moves.pop(0)
        options = interpreter_moves(decision)
        self.loaded.point = point_of(decision, self.scopes)
        self.loaded.choose_type = self.scopes.choice_type(decision.site)
        try:
            move, _player = load_move(self.loaded, data)
        except StateFileError as exc:
            self.problems.append((path, exc))
            raise _Stop(decision) from None
        for variant in copies_of(self.loaded, move, data):
            if variant in options:
                return options.index(variant)
        shown = describe_move(self.loaded, move)
        offered = ", ".join(describe_move(self.loaded, o) for o in options[:8])
        self.problems.append((path, StateFileError([("(the move)", f"{shown} is not one of the options here: "
                                                                   f"{offered}")])))
        raise _Stop(decision)


def apply_command(args) -> int:
    from checker.runtime.state import Abort, EndTurn, SpecRuntimeError, StopProc
    from checker.runtime.engine import Decision
    from checker.solver.legal import Legality
    from checker.solver.statefile import copies_of, load_move
    from checker.solver.command import describe_move, load, undecided
    from checker.solver.encode import Unsupported
    out = Path(args.output)
    try:
        plan([out], args.force, reads=[args.state, args.move, *args.answers])
    except OutputError as exc:
        print(f"rulebook apply: {exc}; nothing was written", file=sys.stderr)
        return 2
    loaded_or_code = load("apply", args.state, args.spec)
    if isinstance(loaded_or_code, int):
        return loaded_or_code
    result, engine, scopes, loaded = loaded_or_code
    try:            # the spec's files are known now (the state names them): none of them is an output either
        plan([out], args.force, reads=[args.state, args.move, *args.answers, *result.sources.names()])
    except OutputError as exc:
        print(f"rulebook apply: {exc}; nothing was written", file=sys.stderr)
        return 2
    point = loaded.point
    if point.kind not in ("offer", "each"):
        print(f"rulebook apply: the state's decision point is a {point.kind}; only a move at an offer or at an "
              f"`each … chooses` can be applied (what follows a choice or a reaction is not in a state file)",
              file=sys.stderr)
        return 2
    path = args.move
    try:
        data = read_document(path, "move")
        move, player = load_move(loaded, data)
        answers = []
        for path in args.answers:
            answers.append((path, read_document(path, "move")))
    except DocumentError as exc:
        return report("apply", path, "a valid move file", exc)
    legality = Legality(engine, scopes)
    verdict = None
    try:
        for variant in copies_of(loaded, move, data):
            verdict = legality.check(point, variant, player)
            if verdict.legal:
                break
    except (Unsupported, SpecRuntimeError) as exc:     # past what Z3 can encode: undecided, as `legal` says
        return undecided("apply", args.state, scopes, loaded, exc)
    if verdict.status == "unknown":
        print(f"rulebook apply: Z3 could not decide whether the move is legal ({verdict.unknown})", file=sys.stderr)
        return 4
    if not verdict.legal or not verdict.offered:
        why = "; ".join(f"{r.name} ({r.span})" for r in verdict.reasons) or "it is not an option here"
        what = "illegal" if not verdict.legal else "not an option"
        print(f"rulebook apply: {describe_move(loaded, verdict.move)} is {what} at this decision point: {why} "
              f"(see `rulebook legal`)", file=sys.stderr)
        return 1
    move = verdict.move
    if point.kind == "each":
        return _apply_each(args, out, engine, scopes, loaded, move)
    if move[0] == "finish":
        print("rulebook apply: finishing ends the offer; what comes after it is not in a state file "
              "(play the game on with `rulebook play --state-at`)", file=sys.stderr)
        return 2
    problems: list = []
    engine.agents = [_Answers(loaded, answers, scopes, problems)] * engine.st.n
    engine.recording = False
    site, env = point.site, dict(point.env)
    next_decision = Decision(point.player, "que faire ?", (), engine.show, site=site, env=env)
    goes_on = loaded.resume is not None      # the offer asks again: the file's frames hold there too
    if goes_on:
        loaded.resume.apply(engine)          # the game's random source for what the move shuffles or draws
    try:
        if move[0] == "action":
            engine.perform(move[1], move[2])
        else:
            power = next(x for x in engine.powers_of[engine.defs[move[1]]] if x.name == move[2])
            engine.run_power(power, point.player, move[1], {"me": point.player, "this": move[1]})
    except _Stop as stop:
        next_decision, goes_on = stop.decision, False
    except (Abort, StopProc):
        pass
    except EndTurn:
        goes_on = False
    except SpecRuntimeError as exc:
        print(f"rulebook apply: the move stops the game: {exc}", file=sys.stderr)
        return 2
    for path, exc in problems:
        return report("apply", path, "a valid answer here", exc)
    unused = len(engine.agents[0].moves)
    resume = None
    if goes_on:         # the next question of the same offer: the same frames, the random source now
        from checker.solver.framefile import FORMAT_RESUME, resume_section
        from checker.solver.statefile import _Values
        resume = {"format": FORMAT_RESUME, "resume": resume_section(
            engine, scopes, loaded.resume.frames, engine.decisions + 1, _Values(engine), engine.st.rng.getstate())}
    return _write_next(args, out, engine, scopes, loaded, move, next_decision, unused, resume)


def _apply_each(args, out: Path, engine, scopes, loaded, move) -> int:
    """A choice at an `each … chooses`: the next state is the same statement, the next player asked deciding
    with this choice among those made (in secret); after the last player, the game goes on past what a state
    file holds."""
    from checker.solver.command import describe_move
    from checker.solver.eachpoint import next_decision
    decision = next_decision(engine, loaded.point, move[1])
    if decision is None:
        print(f"rulebook apply: {describe_move(loaded, move)} is legal, and it is the last choice of this "
              f"`each … chooses`: the choices are then written together and the game goes on, which is not in a "
              f"state file (play the game on with `rulebook play --state-at`)", file=sys.stderr)
        return 2
    return _write_next(args, out, engine, scopes, loaded, move, decision, len(args.answers))


def _write_next(args, out: Path, engine, scopes, loaded, move, decision, unused: int, resume=None) -> int:
    from checker.solver.command import describe_move
    from checker.solver.statefile import dump_state
    state = dump_state(engine, decision, scopes, [str(p) for p in (args.spec or [])] or loaded_spec(args.state))
    if resume is not None:
        state.update(resume)
    try:
        write_json(out, state, args.force)
    except OutputError as exc:
        print(f"rulebook apply: {exc}", file=sys.stderr)
        return 2
    where = state["decision"].get("at") or f"{state['decision'].get('card')}.{state['decision'].get('power')}"
    print(f"applied {describe_move(loaded, move)}; wrote {out} ({state['decision']['kind']} at {where}, "
          f"{state['decision']['player']} decides)")
    if unused:
        print(f"note: {unused} answer file(s) were not needed", file=sys.stderr)
    if args.json:
        terminal.emit_json({"command": "apply", "ok": True, "exit_code": 0, "move": describe_move(loaded, move),
                            "output": str(out), "decision": state["decision"], "unused_answers": unused})
    return 0


def loaded_spec(state_path: str) -> list[str]:
    data = read_document(state_path)      # read and checked already by `load`
    return [p for p in data.get("spec", []) if isinstance(p, str)] if isinstance(data, dict) else []

