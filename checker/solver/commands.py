"""`rulebook legal` and `rulebook moves`: legality at a decision point, decided by Z3, explained by the rules.

Exit codes of `legal`: 0 legal, 1 illegal, 2 bad input (the spec, the state or the move), 4 the
solver could not decide (its reason is printed).  `moves`: 0, 2 or 4 likewise.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from checker.solver.legal import Legality, Reason, SolverUnknown, Verdict
from checker.solver.scopes import Scopes
from checker.solver.statefile import StateFileError, copies_of, dump_move, load_move, load_state, read_json

__all__ = ["legal_command", "moves_command", "load", "describe_move", "state_options"]


def _err(command: str, message: str) -> int:
    print(f"rulebook {command}: {message}", file=sys.stderr)
    return 2


def _problems(command: str, what: str, exc: StateFileError) -> int:
    print(f"rulebook {command}: {what} is not valid:", file=sys.stderr)
    for path, message in exc.problems:
        print(f"  {path}: {message}", file=sys.stderr)
    return 2


def state_options(command) -> None:
    """The options of every command that reads a state file: the spec it is of, and JSON output."""
    command.add_argument("--spec", type=Path, action="append",
                         help="the spec (and overlays) the state is of; default: the paths the state names")
    command.add_argument("--json", action="store_true", help="machine-readable output")


def load(command: str, state_path: str, spec: list[Path] | None):
    """(check result, engine, loaded state) or an exit code after saying what is wrong."""
    from checker.check import check_paths
    from checker.runtime import Engine
    try:
        data = read_json(state_path)
    except StateFileError as exc:
        return _problems(command, state_path, exc)
    named = data.get("spec") if isinstance(data, dict) else None     # the paths the state was written with
    paths = spec or [Path(p) for p in named or [] if isinstance(p, str)]
    if not paths:
        return _err(command, f"{state_path} does not say which spec it is of: give it with --spec DIR")
    for p in paths:
        if not p.exists():
            return _err(command, f"the spec {str(p)!r} does not exist (paths are relative to the current directory)")
    result = check_paths(paths)
    if not result.ok:
        from checker.diagnostics import render_human
        sys.stdout.write(render_human(result.reporter.sorted(), result.sources) + "\n")
        return _err(command, f"the spec has {len(result.reporter.errors)} error(s)")
    engine = Engine(result.typed)
    engine.recording = False
    scopes = Scopes(result.typed)
    try:
        loaded = load_state(engine, data, scopes)
    except StateFileError as exc:
        return _problems(command, state_path, exc)
    return result, engine, scopes, loaded


def describe_move(loaded, move) -> str:
    E, vals = loaded.engine, loaded.values
    kind = move[0]
    if kind == "action":
        args = [vals.write(v, t) for v, t in zip(move[2], E.param_types[move[1]])]
        return f"{move[1]}({', '.join(str(a) if a is not None else 'aucun' for a in args)})"
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
    shown = [f"{_span_text(result, span)} = {value}" for span, value in r.values]
    if shown:
        out.append(f"            where {', '.join(shown)}")
    for c in r.cites[:3]:
        out.append(f"            « {c.quote} »")
    return out


def legal_command(args) -> int:
    loaded_or_code = load("legal", args.state, args.spec)
    if isinstance(loaded_or_code, int):
        return loaded_or_code
    result, engine, scopes, loaded = loaded_or_code
    try:
        data = read_json(args.move)
        move, player = load_move(loaded, data)
    except StateFileError as exc:
        return _problems("legal", args.move, exc)
    legality = Legality(engine, scopes)
    verdict = None
    for variant in copies_of(loaded, move, data):
        answer = legality.check(loaded.point, variant, player)
        if answer.legal:
            verdict = answer
            break
        if verdict is None or _rank(answer) < _rank(verdict):
            verdict = answer
    shown = describe_move(loaded, verdict.move)
    if args.json:
        print(json.dumps({"status": verdict.status, "move": shown, "offered": verdict.offered,
                          "reasons": [r.as_json() for r in verdict.reasons],
                          "also": [r.as_json() for r in verdict.also],
                          "overruled": [{"permit": p, "forbid": f, "winner": w} for p, f, w in verdict.overruled],
                          "unknown": verdict.unknown or None}, ensure_ascii=False, indent=2))
    else:
        where = f"at {_where(loaded.point)}"
        if verdict.status == "unknown":
            print(f"unknown: Z3 could not decide whether {shown} is legal {where} ({verdict.unknown})")
        if not verdict.offered:
            print(f"note: {shown} is not an option of this decision point; it is judged by the rules alone")
        if verdict.status == "unknown":
            pass
        elif verdict.legal:
            print(f"legal: {shown} {where}")
            for r in verdict.reasons:
                print("\n".join(_reason_lines(result, r)))
            if not any(r.kind == "permit" for r in verdict.reasons):
                print("  (no rule forbids it)")
        else:
            print(f"illegal: {shown} {where}")
            print(f"  {'forbidden by' if len(verdict.reasons) == 1 else 'forbidden by all of'} "
                  f"(the smallest set of conditions that rules it out):")
            for r in verdict.reasons:
                print("\n".join(_reason_lines(result, r)))
            if verdict.also:
                print("  also forbidden by: " + ", ".join(f"{r.name} ({r.span})" for r in verdict.also))
            for permit, forbid, winner in verdict.overruled:
                if winner:
                    prec = next((x for x in result.program.precedences if x.winner.card is None
                                 and {x.winner.name, x.loser.name} == {permit, forbid}), None)
                    where = f" at {prec.span}" if prec else ""
                    print(f"  note: {permit} permits it, but {forbid} wins (the precedence{where})")
                    if prec and prec.cites:
                        print(f"            « {prec.cites[0].quote} »")
                else:
                    print(f"  note: {permit} permits it, but does not override {forbid} and no precedence orders "
                          f"them — an unresolved conflict (see `rulebook conflicts`); the prohibition stands")
    return {"legal": 0, "illegal": 1}.get(verdict.status, 4)


def _rank(verdict: Verdict) -> tuple:
    """Among the copies of a card, explain with the one the player has (the fewest conditions on where the
    card must be), then with the fewest reasons."""
    placed = sum(r.kind in ("from", "offer") for r in verdict.reasons + verdict.also)
    return (verdict.status != "illegal", placed, len(verdict.reasons))


def _where(point) -> str:
    site = point.site
    span = getattr(site, "span", None)
    player = f"Joueur {point.player + 1}" if point.player is not None else "?"
    return f"{span} ({point.kind}, {player} decides)" if span else f"{point.kind} ({player} decides)"


def moves_command(args) -> int:
    loaded_or_code = load("moves", args.state, args.spec)
    if isinstance(loaded_or_code, int):
        return loaded_or_code
    result, engine, scopes, loaded = loaded_or_code
    try:
        moves = Legality(engine, scopes).moves(loaded.point)
    except SolverUnknown as exc:
        print(f"unknown: Z3 could not enumerate the moves ({exc})")
        return 4
    player = loaded.point.player
    if args.json:
        print(json.dumps([dump_move(engine, m, player, loaded.choose_type) for m in moves], ensure_ascii=False,
                         indent=1))
    else:
        print(f"{len(moves)} legal move(s) at {_where(loaded.point)}:")
        for m in moves:
            print(f"  {describe_move(loaded, m)}")
    return 0
