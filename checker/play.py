"""`rulebook play`: check a spec, then play one seeded game with built-in agents and print its log."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from checker.check import check_paths
from checker.configurations import ConfigEvalError, evaluate, select
from checker.diagnostics import render_human
from checker.program import did_you_mean
from checker.runtime import Engine, RandomAgent, SpecRuntimeError

__all__ = ["play_command", "format_event"]


def format_event(event: dict, names: list[str]) -> str | None:
    """One line of the French log for an event (None: not shown)."""
    kind = event["kind"]
    if kind == "round":
        return f"\n=== Tour {event['number']} ==="
    if kind == "log":
        return event["text"]
    if kind == "reveal":
        to = f" à {names[event['to']]}" if event.get("to") is not None else ""
        return f"  révélé{to} : {event['value']}"
    if kind == "power":
        return f"  {names[event['player']]} utilise {event['power']} ({event['card']})"
    if kind == "decision":
        chosen = event["options"][event["chosen"]]
        secret = " (en secret)" if event.get("secret") else ""
        return f"  {names[event['player']]}{secret} — {event['prompt']} → {chosen}"
    return None


def play_command(args) -> int:
    result = check_paths([args.spec, *args.more])
    if not result.ok:
        sys.stdout.write(render_human(result.reporter.sorted(), result.sources) + "\n")
        print(f"the spec has {len(result.reporter.errors)} error(s): fix them before playing")
        return 1
    program = result.program
    if args.config not in program.configurations:
        hint = did_you_mean(args.config, program.configurations, '"')
        names = ", ".join(f'"{n}"' for n in program.configurations)
        print(f"rulebook play: no configuration \"{args.config}\"" + (f"; {hint}" if hint else f" (known: {names})"),
              file=sys.stderr)
        return 2
    counts = result.configurations.get(args.config, [])
    if args.players not in counts:
        print(f"rulebook play: configuration \"{args.config}\" is for {', '.join(map(str, counts))} players, "
              f"not {args.players}", file=sys.stderr)
        return 2
    selection = select(program, program.configurations[args.config], args.players)
    for constraint in program.constraints.values():      # already checked, but say so plainly if not
        try:
            applies = constraint.when is None or evaluate(constraint.when, program, selection, {})
            if applies and not evaluate(constraint.require, program, selection, {}):
                print(f"rulebook play: {constraint.message or constraint.name}", file=sys.stderr)
                return 2
        except ConfigEvalError as exc:
            print(f"rulebook play: constraint {constraint.name}: {exc}", file=sys.stderr)
            return 2
    engine = Engine(result.typed)
    agents = [RandomAgent(args.seed * 1000 + seat) for seat in range(args.players)]
    try:
        game = engine.play(selection.cards, args.players, args.seed, agents)
    except SpecRuntimeError as exc:
        where = f"{exc.span}: " if exc.span is not None else ""
        print(f"{where}error[R0001]: the spec failed while playing: {exc.message}", file=sys.stderr)
        return 1
    names = [f"Joueur {seat + 1}" for seat in range(args.players)]
    if not args.quiet:
        print(f"Citadelles — {args.config}, {args.players} joueurs, graine {args.seed}")
        for event in game.events:
            line = format_event(event, names)
            if line is not None:
                print(line)
    print("\nScores : " + ", ".join(f"{names[p]} {s}" for p, s in sorted(game.scores.items())))
    print("Vainqueur : " + " et ".join(names[p] for p in game.winners))
    if args.json:
        record = {"spec": [str(args.spec), *map(str, args.more)], "configuration": args.config,
                  "players": args.players, "seed": args.seed, "selection": selection.cards,
                  "events": game.events, "scores": game.scores, "winners": game.winners}
        Path(args.json).write_text(json.dumps(record, ensure_ascii=False, indent=1), encoding="utf-8")
    return 0
