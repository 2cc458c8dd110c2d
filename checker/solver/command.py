"""`rulebook legal` and `rulebook moves`: legality at a decision point, decided by Z3, explained by the rules.

Exit codes of `legal`: 0 legal, 1 illegal (or the spec has errors), 2 bad input (the state or the move),
4 the solver could not decide (its reason is printed).  `moves`: 0, 1, 2 or 4 likewise.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from checker.base.terminal import completes
from checker.base import terminal
from checker.base.documents import DocumentError, read_document, report, spec_paths

if TYPE_CHECKING:         # names in annotations only: imported where they run
    from checker.solver.legal import Reason, Verdict
    from checker.solver.scopes import Scopes

__all__ = ["legal_command", "moves_command", "load", "describe_move", "state_options", "undecided"]


def _err(command: str, message: str) -> int:
    print(f"rulebook {command}: {message}", file=sys.stderr)
    return 2


def state_options(command) -> None:
    """The options of every command that reads a state file: the spec it is of, and JSON output."""
    command.add_argument("--spec", type=Path, action="append",
                         help="the spec (and overlays) the state is of; default: the paths the state names")
    command.add_argument("--json", action="store_true", help="machine-readable output")


def load(command: str, state_path: str, spec: list[Path] | None):
    """(check result, engine, scopes, loaded state) or an exit code after saying what is wrong."""
    from checker.solver.scopes import Scopes
    from checker.solver.statefile import StateFileError, load_state
    from checker.front.check import checked_spec
    from checker.runtime import Engine
    try:
        data = read_document(state_path, "state")
    except DocumentError as exc:
        return report(command, state_path, "a valid state file", exc)
    try:
        paths = spec or spec_paths(data.get("spec") or [], state_path)
    except DocumentError as exc:
        return report(command, state_path, "usable here", exc)
    if not paths:
        return _err(command, f"{state_path} does not say which spec it is of: give it with --spec DIR")
    for p in paths:
        if not p.exists():
            return _err(command, f"the spec {str(p)!r} does not exist")
    result = checked_spec(command, paths)
    if result is None:
        return 1
    engine = Engine(result.typed)
    engine.recording = False
    scopes = Scopes(result.typed)
    try:
        loaded = load_state(engine, data, scopes)
    except StateFileError as exc:
        return report(command, state_path, "a valid state file", exc)
    return result, engine, scopes, loaded


def undecided(command: str, state_path: str, scopes: Scopes, loaded, exc) -> int:
    """The encoding met what it cannot express, or a limit: a local name in scope at the decision point that the
    state left without a value (one bound on some paths only: bad input, 2), or else an undecided question (4),
    located."""
    from checker.solver.encode import Unsupported
    where = f"{exc.span}: " if getattr(exc, "span", None) is not None else ""
    if isinstance(exc, Unsupported) and exc.message.endswith("has no value here"):
        name = exc.message.split("'")[1]
        if name in scopes.at.get(id(loaded.point.site), {}):
            return _err(command, f"{state_path} is not a valid state file: decision/names: the rules need {name} "
                                 f"({exc.span}), and the state gives it no value")
    print(f"unknown: {where}the question cannot be decided: {exc.message}")
    return 4


def describe_move(loaded, move) -> str:
    E, vals = loaded.engine, loaded.values
    kind = move[0]
    if kind == "action":
        args = [vals.write(v, t) for v, t in zip(move[2], E.param_types[move[1]])]
        shown = [a if isinstance(a, str) else "aucun" if a is None else json.dumps(a, ensure_ascii=False)
                 for a in args]
        return f"{move[1]}({', '.join(shown)})"
    if kind == "power":
        return f"{move[2]} ({vals.labels[move[1]]})"
    if kind == "finish":
        return f"finish \"{move[1]}\""
    if kind == "react":
        return "oui" if move[1] else "non"
    if kind == "nothing":
        return "rien"
    value = vals.write(move[1], loaded.choose_type)
    return json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else value


def _source_line(result, span) -> str | None:
    if span is None:
        return None
    line = result.sources.line(span.file, span.line)
    return line.strip() if line else None


def _span_text(result, span) -> str:
    line = result.sources.line(span.file, span.line)
    if line is None or span.end_line != span.line:
        return str(span)
    return line[span.column - 1:span.end_column - 1]


def _reason_lines(result, r: Reason) -> list[str]:
    out = [f"  {r.kind:<9} {r.name}  ({r.span})" if r.span else f"  {r.kind:<9} {r.name}", f"            {r.text}"]
    line = _source_line(result, r.span)
    if line:
        out.append(f"            | {line}")
    shown = [f"{at if isinstance(at, str) else _span_text(result, at)} = {value}" for at, value in r.values]
    if shown:
        out.append(f"            where {', '.join(shown)}")
    for c in r.cites[:3]:
        out.append(f"            « {c.quote} »")
    return out


def legal_command(args) -> int:
    from checker.solver.legal import Legality
    from checker.runtime.state import SpecRuntimeError
    from checker.solver.encode import Unsupported
    from checker.solver.statefile import copies_of, load_move
    loaded_or_code = load("legal", args.state, args.spec)
    if isinstance(loaded_or_code, int):
        return loaded_or_code
    result, engine, scopes, loaded = loaded_or_code
    try:
        data = read_document(args.move, "move")
        move, player = load_move(loaded, data)
    except DocumentError as exc:
        return report("legal", args.move, "a valid move file", exc)
    legality = Legality(engine, scopes)
    verdict = None
    try:
        for variant in copies_of(loaded, move, data):
            answer = legality.check(loaded.point, variant, player)
            if answer.legal:
                verdict = answer
                break
            if verdict is None or _rank(answer) < _rank(verdict):
                verdict = answer
    except (Unsupported, SpecRuntimeError) as exc:
        return undecided("legal", args.state, scopes, loaded, exc)
    shown = describe_move(loaded, verdict.move)
    if args.json:
        def term(span) -> str:
            return _span_text(result, span)
        code = {"legal": 0, "illegal": 1}.get(verdict.status, 4)
        terminal.emit_json({"command": "legal", "ok": code == 0, "exit_code": code,
                            "status": verdict.status, "move": shown, "offered": verdict.offered,
                            "reasons": [r.as_json(term) for r in verdict.reasons],
                            "also": [r.as_json(term) for r in verdict.also],
                            "overruled": [{"permit": p, "forbid": f, "status": c.status, "winner": c.winner,
                                           "unknown": c.reason or None} for p, f, c in verdict.overruled],
                            "unknown": verdict.unknown or None})
    else:
        where = f"at {_where(loaded.point)}"
        if verdict.status == "unknown":
            print(f"unknown: Z3 could not decide whether {shown} is legal {where} ({verdict.unknown})")
        if not verdict.offered:
            print(f"note: {shown} is not an option of this decision point; it is judged by the rules alone")
        if verdict.status == "unknown":
            pass
        elif verdict.legal:
            print(f"{terminal.paint('legal', 'green')}: {shown} {where}")
            for r in verdict.reasons:
                print("\n".join(_reason_lines(result, r)))
            if not any(r.kind == "forbid" for r in verdict.reasons):
                print("  (no rule forbids it)")
        else:
            print(f"{terminal.paint('illegal', 'red')}: {shown} {where}")
            print(f"  {'forbidden by' if len(verdict.reasons) == 1 else 'forbidden by all of'} "
                  f"(the smallest set of conditions that rules it out):")
            for r in verdict.reasons:
                print("\n".join(_reason_lines(result, r)))
            if verdict.also:
                print("  also forbidden by: " + ", ".join(f"{r.name} ({r.span})" for r in verdict.also))
            for permit, forbid, claim in verdict.overruled:
                print(_overruled_note(result, permit, forbid, claim))
    return {"legal": 0, "illegal": 1}.get(verdict.status, 4)


def _overruled_note(result, permit: str, forbid: str, claim) -> str:
    """What a permission that applies says about a prohibition that still forbids the move (the claim is
    the conflict finder's, see :meth:`checker.solver.search.SymbolicSearch.claim`)."""
    if claim.status == "settled":
        prec = next((x for x in result.program.precedences if x.winner.card is None
                     and {x.winner.name, x.loser.name} == {permit, forbid}), None)
        line = f"  note: {permit} permits it, but {forbid} wins (the precedence{f' at {prec.span}' if prec else ''})"
        return line + (f"\n            « {prec.cites[0].quote} »" if prec and prec.cites else "")
    if claim.unresolved:
        return (f"  note: {permit} permits it, but {forbid} forbids it and no precedence orders them "
                f"({claim.why(permit, forbid)}) — an unresolved conflict (see `rulebook conflicts`); "
                f"the prohibition stands")
    overridden = ", ".join(name for name, _ in result.program.rules[permit].overrides)
    if claim.status == "unrelated":
        return (f"  note: {permit} permits it only as an exception to {overridden}; {forbid} is not a special "
                f"case of it, so {forbid} still forbids it (no conflict)")
    return (f"  note: {permit} permits it as an exception to {overridden}; Z3 could not decide whether {forbid} "
            f"is a special case of {claim.via} ({claim.reason}), so whether they conflict is undecided; the "
            f"prohibition stands")


def _rank(verdict: Verdict) -> tuple:
    """Among the copies of a card, explain with the one the player has (the fewest conditions on where the
    card must be), then with the fewest reasons."""
    placed = sum(r.kind in ("from", "offer") for r in verdict.reasons + verdict.also)
    return (verdict.status != "illegal", placed, len(verdict.reasons))


def _where(point) -> str:
    site = point.site
    span = getattr(site, "span", None)
    player = f"Joueur {point.player + 1}" if point.player is not None else "?"
    decides = f"{player} decides"
    if point.kind == "each":            # the choices made before are secret until all have chosen: only counted
        decides += f"; {len(point.chosen)} chose before, in secret"
    return f"{span} ({point.kind}, {decides})" if span else f"{point.kind} ({decides})"


def moves_command(args) -> int:
    from checker.solver.legal import Legality, SolverUnknown
    from checker.runtime.state import SpecRuntimeError
    from checker.solver.encode import Unsupported
    from checker.solver.statefile import dump_move
    loaded_or_code = load("moves", args.state, args.spec)
    if isinstance(loaded_or_code, int):
        return loaded_or_code
    result, engine, scopes, loaded = loaded_or_code
    try:
        moves = Legality(engine, scopes).moves(loaded.point)
    except SolverUnknown as exc:
        print(f"unknown: Z3 could not enumerate the moves ({exc})")
        return 4
    except (Unsupported, SpecRuntimeError) as exc:
        return undecided("moves", args.state, scopes, loaded, exc)
    player = loaded.point.player
    if args.json:
        terminal.emit_json({"command": "moves", "ok": True, "exit_code": 0, "decision": _where(loaded.point),
                            "moves": [dump_move(engine, m, player, loaded.choose_type) for m in moves]})
    else:
        print(f"{len(moves)} legal move(s) at {_where(loaded.point)}:")
        for m in moves:
            print(f"  {describe_move(loaded, m)}")
    return 0


# ---------------------------------------------------------------- the command line

def add_parsers(new_command) -> dict:
    """`legal` and `moves`, made by the CLI's ``new_command`` (which gives them --color and the exit codes)."""
    legal = new_command("legal", help="is a move legal in a state, and if not, which rules forbid it?",
                           description="Decide with Z3 whether MOVE is legal at the decision point of STATE. "
                                       "Illegal: the smallest set of rules (and other conditions of the spec) that "
                                       "forbid it, with their spec lines and the rulebook sentences they encode. "
                                       "Legal: the rules that permit it.  Exit codes: 0 legal, 1 illegal, 2 bad "
                                       "input, 4 the solver could not decide.")
    completes(legal.add_argument("state", metavar="STATE", help="a state file (rulebook play/replay --state-at)"),
              "file")
    completes(legal.add_argument("move", metavar="MOVE", help="a move file (see docs/formats.md)"), "file")
    moves = new_command("moves", help="list every legal move in a state (computed with Z3)",
                           description="Enumerate with Z3 every legal move at the decision point of STATE.  "
                                       "With --json, each move is written in the move-file format.")
    completes(moves.add_argument("state", metavar="STATE", help="a state file (rulebook play/replay --state-at)"),
              "file")
    for command in (legal, moves):
        state_options(command)
    return {"legal": legal_command, "moves": moves_command}
