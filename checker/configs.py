"""`rulebook configs`: each configuration of a spec, the player counts it allows, its cards by kind, and why it
refuses the other counts of the game (its own `players:` field, or the constraints its selection would break)."""

from __future__ import annotations

import sys

from checker import terminal
from checker.configurations import game_player_counts, refusals, select, span_text, spans_of_counts, unknown_configuration

__all__ = ["configs_command", "describe"]


def describe(result, only_config: str | None = None, players: int | None = None) -> dict:
    """The configurations of a checked spec as a document (the shape of ``configs --json``)."""
    program = result.program
    game = game_player_counts(program)
    counts_to_try = [players] if players is not None else game
    source = span_text(result.sources)
    out = []
    for name, config in program.configurations.items():
        if only_config is not None and name != only_config:
            continue
        allowed = result.configurations.get(name, [])
        selections: list[dict] = []
        for n in allowed:
            if players is not None and n != players:
                continue
            cards = {kind: list(names) for kind, names in select(program, config, n).cards.items()}
            same = next((s for s in selections if s["cards"] == cards), None)
            if same is None:
                selections.append({"players": [n], "cards": cards})
            else:
                same["players"].append(n)
        refused = [{"players": n, "reasons": refusals(program, config, allowed, n, source)}
                   for n in counts_to_try if n not in allowed]
        out.append({"name": name, "players": allowed, "selections": selections, "refused": refused})
    return {"command": "configs", "ok": True, "exit_code": 0,
            "game": {"name": program.game.name if program.game else None, "players": game},
            "configurations": out}


def _copies(result, names: list[str]) -> int:
    total = 0
    for name in names:
        card = result.program.cards.get(name)
        copies = next((v.value for v in card.attrs if v.name == "copies"), None) if card else None
        total += getattr(copies, "value", 1) if copies is not None else 1
    return total


def _kind_line(result, kind: str, names: list[str]) -> str:
    copies = _copies(result, names)
    count = f"{len(names)}" + (f", {copies} copies" if copies != len(names) else "")
    return f"  {terminal.paint(kind, 'bold')} ({count}): {', '.join(names)}"


def _text(result, document: dict) -> list[str]:
    game = document["game"]
    lines = [f"{game['name'] or 'The spec'}: {len(document['configurations'])} configuration(s); the game is for "
             f"{spans_of_counts(game['players'])} players"]
    for config in document["configurations"]:
        lines.append("")
        lines.append(terminal.paint(config["name"], "blue") + f" — {spans_of_counts(config['players'])} players")
        first = None
        for selection in config["selections"]:
            at = f"at {spans_of_counts(selection['players'])} players"
            if first is None:
                first = selection["cards"]
                if len(config["selections"]) > 1:
                    lines.append(f"  {at}:")
                lines += [_kind_line(result, kind, names) for kind, names in first.items()]
                continue
            changes = []
            for kind in dict.fromkeys([*first, *selection["cards"]]):
                was, now = first.get(kind, []), selection["cards"].get(kind, [])
                added = [n for n in now if n not in was]
                removed = [n for n in was if n not in now]
                if added or removed:
                    changes.append(f"{kind} " + ", ".join([*(f"+{n}" for n in added), *(f"−{n}" for n in removed)]))
            lines.append(f"  {at}: " + ("; ".join(changes) if changes else "the same cards"))
        for refused in config["refused"]:
            lines.append(f"  {terminal.paint('not', 'yellow')} at {refused['players']} players: "
                         + "; ".join(refused["reasons"]))
    return lines


def configs_command(args) -> int:
    from checker.check import checked_spec
    result = checked_spec("configs", [args.spec, *args.more])
    if result is None:
        return 1
    program = result.program
    if args.config is not None and args.config not in program.configurations:
        print(f"rulebook configs: {unknown_configuration(program, args.config)}", file=sys.stderr)
        return 2
    game = game_player_counts(program)
    if args.players is not None and game and args.players not in game:
        print(f"rulebook configs: the game is for {spans_of_counts(game)} players, not {args.players}", file=sys.stderr)
        return 2
    document = describe(result, args.config, args.players)
    if args.json:
        terminal.emit_json(document)
    else:
        for line in _text(result, document):
            print(line)
    return 0
