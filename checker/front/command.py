"""The front end's commands: `rulebook check` (every problem of a spec), `rulebook configs` — each configuration of a spec, the player counts it allows, its
cards by kind, and why it refuses the other counts of the game (its own `players:` field, or the constraints its
selection would break) — and the set-up of one game that `play` and `simulate` share (:func:`prepare_game`)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

from checker.base import terminal
from checker.base.diagnostics import render_human, render_short
from checker.base.terminal import spec_arguments

if TYPE_CHECKING:         # names in annotations only: imported where they run
    from checker.front.check import CheckResult
    from checker.front.configurations import Selection

__all__ = ["add_parsers", "check_command", "configs_command", "describe", "card_names", "prepare_game", "compose_selection",
           "SelectionRefused"]


def describe(result, only_config: str | None = None, players: int | None = None) -> dict:
    """The configurations of a checked spec as a document (the shape of ``configs --json``)."""
    from checker.front.configurations import game_player_counts, refusals, select, span_text
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
    from checker.front.configurations import spans_of_counts
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
    from checker.front.check import checked_spec
    from checker.front.configurations import game_player_counts, spans_of_counts, unknown_configuration
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


# ---------------------------------------------------------------- a game's set-up, for play and simulate

def card_names(text: str | None) -> list[str]:
    """The cards of ``--add`` or ``--remove``: comma-separated names."""
    return [n.strip() for n in (text or "").split(",") if n.strip()]


def default_configuration(result: CheckResult, players: int) -> str | None:
    """The spec's first configuration that ``players`` players can play (None if there is none)."""
    return next((name for name, counts in result.configurations.items() if players in counts), None)


class SelectionRefused(Exception):
    """A configuration, with cards added and removed, that cannot be played at a player count (the message
    says why, as the command line prints it after « rulebook COMMAND: »)."""


def compose_selection(result: CheckResult, config: str, players: int, add: list[str] = (),
                      remove: list[str] = ()) -> Selection:
    """The cards of configuration ``config`` at ``players`` players with ``add`` added and ``remove`` removed,
    as the spec's constraints accept them; raises :class:`SelectionRefused` saying why not."""
    from checker.front.configurations import (ConfigEvalError, Selection, explain, game_player_counts, refusals,
                                              select, span_text, unknown_configuration)
    from checker.front.program import did_you_mean
    program = result.program
    if config not in program.configurations:
        raise SelectionRefused(unknown_configuration(program, config))
    counts = result.configurations.get(config, [])
    # with cards added or removed, the spec's constraints judge the selection at any count of the game: the
    # configuration's own counts are those its cards, as written, allow
    composed = bool(add or remove) and players in game_player_counts(program)
    if players not in counts and not composed:
        why = "; ".join(refusals(program, program.configurations[config], counts, players, span_text(result.sources)))
        raise SelectionRefused(f"configuration \"{config}\" cannot be played by {players} players: {why}"
                               f" (`rulebook configs` lists what each configuration allows)")
    try:
        selection = select(program, program.configurations[config], players)
    except ConfigEvalError as exc:
        raise SelectionRefused(f"configuration \"{config}\" at {players} players: {exc}") from None
    cards = {kind: list(names) for kind, names in selection.cards.items()}
    for name in remove:
        kind = program.cards[name].kind if name in program.cards else None
        if kind is None or name not in cards.get(kind, []):
            hint = did_you_mean(name, [n for names in cards.values() for n in names], '"')
            raise SelectionRefused(f"\"{name}\" is not in configuration \"{config}\"" + (f"; {hint}" if hint else ""))
        cards[kind].remove(name)
    for name in add:
        if name not in program.cards:
            hint = did_you_mean(name, program.cards, '"')
            raise SelectionRefused(f"no card \"{name}\"" + (f"; {hint}" if hint else ""))
        kind = program.cards[name].kind
        if name in cards.setdefault(kind, []):
            raise SelectionRefused(f"\"{name}\" is already in the selection")
        cards[kind].append(name)
    selection = Selection(players, {kind: tuple(names) for kind, names in cards.items()})
    broken = [why for c in program.selection_constraints()       # the rules decide whether this selection is allowed
              for why in [explain(c, program, selection, span_text(result.sources))] if why]
    if broken:
        raise SelectionRefused("the selection is refused by the spec: " + "; ".join(broken))
    return selection


def prepare_game(command: str, paths: list[Path], config: str | None, players: int, add: list[str] = (),
                 remove: list[str] = ()) -> tuple[CheckResult, Selection] | int:
    """Check the spec and select the configuration's cards, with cards added and removed: (check result,
    selection), or an exit code after saying what is wrong.  The spec's constraints judge the selection."""
    from checker.front.check import checked_spec
    result = checked_spec(command, paths)
    if result is None:
        return 1
    if config is None:          # not given: the spec's first configuration for that many players
        config = default_configuration(result, players)
        if config is None:
            print(f"rulebook {command}: no configuration of the spec is for {players} players: give --config "
                  f"(`rulebook configs` lists them)", file=sys.stderr)
            return 2
    try:
        return result, compose_selection(result, config, players, add, remove)
    except SelectionRefused as exc:
        print(f"rulebook {command}: {exc}", file=sys.stderr)
        return 2


# ---------------------------------------------------------------- the command line

def add_parsers(new_command) -> dict:
    """`check` and `configs`, made by the CLI's ``new_command`` (which gives them --color and the exit codes)."""
    check = new_command("check", help="check that a spec is well-formed",
                    description="Parse, resolve and type-check a spec and its overlays; "
                                "report every problem like a compiler.")
    spec_arguments(check)
    check.add_argument("--json", action="store_true", help="print a machine-readable summary")
    check.add_argument("--format", choices=("human", "short"), default="human",
                       help="human: source line and caret; short: one line per problem (for editors and CI)")
    check.add_argument("--quiet", "-q", action="store_true", help="print problems only, no summary line")
    configs = new_command("configs", help="list the configurations, the player counts they allow and their cards",
                      description="List each configuration of the spec: the player counts it allows, its cards by "
                                  "kind (as it selects them at each count), and for each count of the game it "
                                  "refuses, why: the configuration's own players field, or the spec's constraints "
                                  "that its selection would break (with what breaks them).")
    spec_arguments(configs)
    configs.add_argument("--players", "-n", type=int, help="only this player count")
    configs.add_argument("--config", "-c", help="only this configuration")
    configs.add_argument("--json", action="store_true", help="machine-readable output (see docs/cli.md)")
    return {"check": check_command, "configs": configs_command}


def _summary_line(report: dict) -> str:
    counts = report["counts"]
    cards = ", ".join(f"{n} {kind}" for kind, n in counts["cards"].items()) or "no cards"
    errors = report["errors"]
    warnings = len(report["diagnostics"]) - errors
    state = "ok" if errors == 0 else f"{errors} error(s)"
    return (f"{state}, {warnings} warning(s): {cards}; {counts['rules']} rules, "
            f"{counts['powers']} powers, {counts['configurations']} configurations "
            f"({len(report['files'])} files)")


def check_command(args) -> int:
    """`rulebook check`: every problem of a spec like a compiler, and a summary line.  A check of unchanged
    files prints what the first printed, read from the disk cache without loading the program."""
    from checker.base.source import SourceMap
    from checker.front.check import check_paths, kept_report, report
    paths = [args.spec, *args.more]
    kept = kept_report(paths)
    if kept is None:
        kept = report(check_paths(paths))
    diagnostics = kept["diagnostics"]
    if args.json:
        summary = {
            "command": "check",
            "ok": kept["ok"],
            "exit_code": 0 if kept["ok"] else 1,
            "files": kept["files"],
            "counts": kept["counts"],
            "configurations": kept["configurations"],
            "diagnostics": [d.to_json() for d in diagnostics],
        }
        terminal.emit_json(summary)
    else:
        getattr(sys.stdout, "reconfigure", lambda **_: None)(errors="backslashreplace")  # a non-UTF-8 terminal
        if args.format == "short":
            sys.stdout.write(render_short(diagnostics))
        else:
            if diagnostics:
                sources = SourceMap()
                for source in kept["sources"]:
                    sources.add(source)
                sys.stdout.write(render_human(diagnostics, sources, color=terminal.colored()) + "\n")
        if not args.quiet:
            print(_summary_line(kept))
    return 0 if kept["ok"] else 1
