"""The `rulebook fuzz` command: check the spec, fuzz its games, and on a failure write the minimal game as a
replayable log and print its French log with the failing statement located."""

from __future__ import annotations

import sys
import time
from pathlib import Path

from checker.base import terminal
from checker.front.check import checked_spec
from checker.base.diagnostics import Diagnostic, render_human
from checker.base.output import OutputError, plan, write_json

__all__ = ["add_parsers", "fuzz_command"]


def add_parsers(new_command) -> dict:
    """`fuzz`, made by the CLI's ``new_command`` (which gives it --color and the exit codes)."""
    fuzz = new_command("fuzz", help="play many games with every choice drawn by Hypothesis; shrink a failure",
                       description="Check the spec, then play games under Hypothesis: the configuration, the player "
                                   "count, the seed and every choice of every player are drawn.  Each game must "
                                   "raise no runtime error, keep every invariant, end within the game's bound and "
                                   "replay from its own log.  A failure is shrunk to the shortest game that shows "
                                   "it, written as a log `rulebook replay` reads, and its French log is printed "
                                   "with the failing statement.  Exit codes: 0 no failure, 1 a failure (or the "
                                   "spec has errors), 2 bad usage.")
    fuzz.add_argument("spec", metavar="SPEC", help="the spec (a directory or a .rules file)")
    fuzz.add_argument("more", metavar="OVERLAY", nargs="*", help="overlays applied on top, in order")
    fuzz.add_argument("--games", type=int, default=100, help="the most games played (default 100)")
    fuzz.add_argument("--seed", "-s", type=int, default=0, help="Hypothesis's seed (the same seed, the same games)")
    fuzz.add_argument("--log", metavar="FILE", default="fuzz-failure.json",
                      help="where the minimal failing game is written (default fuzz-failure.json)")
    fuzz.add_argument("--database", metavar="DIR",
                      help="keep failures found in this Hypothesis example database (replayed first next time)")
    fuzz.add_argument("--json", action="store_true", help="machine-readable result (see docs/cli.md)")
    fuzz.add_argument("--force", action="store_true", help="replace the --log file if it exists")
    return {"fuzz": fuzz_command}


def fuzz_command(args) -> int:
    from checker.fuzz.search import fuzz
    if args.games < 1:
        print("rulebook fuzz: --games takes a number from 1", file=sys.stderr)
        return 2
    paths = [Path(args.spec), *map(Path, args.more)]
    try:
        plan([args.log], force=args.force, reads=paths)
    except OutputError as exc:
        print(f"rulebook fuzz: {exc}", file=sys.stderr)
        return 2
    result = checked_spec("fuzz", paths)
    if result is None:
        return 1
    start = time.process_time()
    report = fuzz(result, [str(p) for p in paths], args.games, args.seed, args.database)
    cpu = time.process_time() - start
    failure = report.failure
    summary = {"command": "fuzz", "ok": failure is None, "exit_code": 0 if failure is None else 1,
               "games": report.games, "decisions": report.decisions, "cpu_seconds": round(cpu, 3)}
    if failure is None:
        if args.json:
            terminal.emit_json(summary)
        else:
            print(f"fuzz ok: {report.games} games, {report.decisions} decisions, no failure ({cpu:.1f} s CPU)")
        return 0
    try:
        write_json(args.log, failure.record, args.force)
    except OutputError as exc:
        print(f"rulebook fuzz: {exc}", file=sys.stderr)
        return 2
    span = failure.span
    summary.update({"failure": failure.message, "kind": failure.kind, "decisions_of_failure": failure.decisions,
                    "log": args.log, "location": None if span is None else
                    {"file": span.file, "line": span.line, "column": span.column}})
    if args.json:
        terminal.emit_json(summary)
        return 1
    names = [f"Joueur {seat + 1}" for seat in range(failure.record["players"])]
    record = failure.record
    print(f"{result.program.game.name if result.program.game else 'Partie'} — {record['configuration']}, "
          f"{record['players']} joueurs, graine {record['seed']}")
    for event in record["events"]:
        line = _event_line(event, names)
        if line is not None:
            print(line)
    message = f"the spec failed while playing: {failure.message}"
    print(render_human([Diagnostic("R0001", message, span)], result.sources, color=terminal.colored()),
          file=sys.stderr)
    print(f"fuzz: a failure after {report.games} good game(s), shrunk to {failure.decisions} decision(s); "
          f"written to {args.log} (`rulebook replay {args.log}` plays it again)", file=sys.stderr)
    return 1


def _event_line(event: dict, names: list[str], viewer: int | None = None) -> str | None:
    """One line of the failing game's log for an event (None: not shown): the engine's events as they are, not yet
    `rulebook play`'s narration in the book's words (that narrates live, through :mod:`checker.human`).  With a ``viewer`` (a person
    playing that seat), other players' secret choices and reveals to others are not shown."""
    kind = event["kind"]
    if kind == "round":
        return f"\n=== Tour {event['number']} ==="
    if kind == "log":
        return event["text"]
    if kind == "reveal":
        to = event.get("to")
        if viewer is not None and to is not None and to != viewer:
            return f"  révélé à {names[to]}"
        to = f" à {names[to]}" if to is not None else ""
        return f"  révélé{to} : {event['value']}"
    if kind == "power":
        return f"  {names[event['player']]} utilise {event['power']} ({event['card']})"
    if kind == "cancel":
        return f"  {event['action']} n'a pas lieu : annulé au moment « {event['window']} »"
    if kind == "decision":
        secret = " (en secret)" if event.get("secret") else ""
        if viewer is not None and event.get("secret") and event["player"] != viewer:
            return f"  {names[event['player']]}{secret} — {event['prompt']}"
        chosen = event["options"][event["chosen"]]
        return f"  {names[event['player']]}{secret} — {event['prompt']} → {chosen}"
    return None
