"""`rulebook play`: check a spec, then play one seeded game with built-in agents (or a person at the
terminal) and print its log; `rulebook replay`: play a logged game again and check it is the same."""

from __future__ import annotations

import sys
from pathlib import Path

from checker.check import CheckResult, checked_spec
from checker.configurations import Selection, explain, refusals, select, span_text, unknown_configuration
from checker import terminal
from checker.output import OutputError, plan, write_json
from checker.program import did_you_mean
from checker.runtime import Engine, SpecRuntimeError
from checker.runtime.agents import make_agent
from checker.human.agent import HumanQuit
from checker.documents import DocumentError, read_document, report, spec_paths
from checker.runtime.replay import ReplayMismatch, replay, state_digest, validate_log

__all__ = ["play_command", "replay_command", "format_event"]


def format_event(event: dict, names: list[str], viewer: int | None = None) -> str | None:
    """One line of the French log for an event (None: not shown).  With a ``viewer`` (a person
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


def _names(text: str | None) -> list[str]:
    return [n.strip() for n in (text or "").split(",") if n.strip()]


def _prepare(command: str, paths: list[Path], config: str, players: int, add: list[str] = (),
             remove: list[str] = ()) -> tuple[CheckResult, Selection] | int:
    """Check the spec and select the configuration's cards, with cards added and removed: (check result,
    selection), or an exit code after saying what is wrong.  The spec's constraints judge the selection."""
    result = checked_spec(command, paths)
    if result is None:
        return 1
    program = result.program
    if config not in program.configurations:
        print(f"rulebook {command}: {unknown_configuration(program, config)}", file=sys.stderr)
        return 2
    counts = result.configurations.get(config, [])
    if players not in counts:
        why = "; ".join(refusals(program, program.configurations[config], counts, players, span_text(result.sources)))
        print(f"rulebook {command}: configuration \"{config}\" cannot be played by {players} players: {why}"
              f" (`rulebook configs` lists what each configuration allows)", file=sys.stderr)
        return 2
    selection = select(program, program.configurations[config], players)
    cards = {kind: list(names) for kind, names in selection.cards.items()}
    for name in remove:
        kind = program.cards[name].kind if name in program.cards else None
        if kind is None or name not in cards.get(kind, []):
            hint = did_you_mean(name, [n for names in cards.values() for n in names], '"')
            print(f"rulebook {command}: \"{name}\" is not in configuration \"{config}\"" +
                  (f"; {hint}" if hint else ""), file=sys.stderr)
            return 2
        cards[kind].remove(name)
    for name in add:
        if name not in program.cards:
            hint = did_you_mean(name, program.cards, '"')
            print(f"rulebook {command}: no card \"{name}\"" + (f"; {hint}" if hint else ""), file=sys.stderr)
            return 2
        kind = program.cards[name].kind
        if name in cards.setdefault(kind, []):
            print(f"rulebook {command}: \"{name}\" is already in the selection", file=sys.stderr)
            return 2
        cards[kind].append(name)
    selection = Selection(players, {kind: tuple(names) for kind, names in cards.items()})
    broken = [why for c in program.selection_constraints()       # the rules decide whether this selection is allowed
              for why in [explain(c, program, selection, span_text(result.sources))] if why]
    if broken:
        print(f"rulebook {command}: the selection is refused by the spec: " + "; ".join(broken), file=sys.stderr)
        return 2
    return result, selection


def _ask(prompt: str) -> str:
    """Read an answer; when it comes from a pipe or a file rather than a person typing, print it after the
    prompt, so that the transcript reads as a game played at the terminal."""
    answer = input(prompt)
    if not sys.stdin.isatty():
        print(answer)
    return answer


def _spec_failed(exc: SpecRuntimeError) -> int:
    where = f"{exc.span}: " if exc.span is not None else ""
    print(f"{where}error[R0001]: the spec failed while playing: {exc.message}", file=sys.stderr)
    return 1


def _outputs(command: str, args, targets: list, reads: list) -> int:
    """Check the files the command will write before it does any work (0, or 2 after saying what is wrong)."""
    try:
        plan([t for t in targets if t], force=args.force, reads=reads)
    except OutputError as exc:
        print(f"rulebook {command}: {exc}", file=sys.stderr)
        return 2
    return 0


def _write(command: str, path: str, data, force: bool) -> int:
    try:
        write_json(path, data, force)
    except OutputError as exc:
        print(f"rulebook {command}: {exc}", file=sys.stderr)
        return 2
    return 0


def play_command(args) -> int:
    state_at = (getattr(args, "state_at", None) or [None, None])[1]
    log_file = args.json if args.json not in (None, "-") else None
    code = _outputs("play", args, [log_file, state_at], [args.spec, *args.more])
    if code:
        return code
    prepared = _prepare("play", [args.spec, *args.more], args.config, args.players, _names(args.add),
                        _names(args.remove))
    if isinstance(prepared, int):
        return prepared
    result, selection = prepared
    human = getattr(args, "human", None)
    if human is not None and not 1 <= human <= args.players:
        print(f"rulebook play: --human takes a seat from 1 to {args.players}, not {human}", file=sys.stderr)
        return 2
    if human is not None and args.json == "-":
        print("rulebook play: --human and --json without a file both need the terminal: give --json FILE",
              file=sys.stderr)
        return 2
    engine = Engine(result.typed)
    names = [f"Joueur {seat + 1}" for seat in range(args.players)]
    agents = [make_agent(getattr(args, "agent", "random"), args.seed * 1000 + seat) for seat in range(args.players)]

    table = None
    if human is not None:
        from checker.human import LexiconError, Table, find_lexicon
        try:
            lexicon = find_lexicon([args.spec, *args.more], getattr(args, "lexicon", None))
        except LexiconError as exc:
            print(f"rulebook play: {exc}", file=sys.stderr)
            return 2
        table = Table(engine, lexicon, human - 1, input=_ask)
        agents = table.agents(agents)
    recorder = _state_recorder("play", args, engine, result, [str(args.spec), *map(str, args.more)])
    if isinstance(recorder, int):
        return recorder
    if not args.quiet:
        game_name = result.program.game.name if result.program.game else "Partie"
        print(f"{game_name} — {args.config}, {args.players} joueurs, graine {args.seed}")
    try:
        game = engine.play(selection.cards, args.players, args.seed, agents)
    except SpecRuntimeError as exc:
        return _spec_failed(exc)
    except HumanQuit:
        print("\nPartie interrompue.", file=sys.stderr)
        return 130
    if table is not None:
        table.show_events()
    elif not args.quiet:
        for event in engine.events:
            line = format_event(event, names)
            if line is not None:
                print(line)
    code = _write_state("play", args, recorder)
    if code:
        return code
    print("\nScores : " + ", ".join(f"{names[p]} {s}" for p, s in sorted(game.scores.items())))
    print("Vainqueur : " + " et ".join(names[p] for p in game.winners))
    if args.json:
        record = {"spec": [str(args.spec), *map(str, args.more)], "configuration": args.config,
                  "players": args.players, "seed": args.seed, "add": _names(args.add),
                  "remove": _names(args.remove), "selection": selection.cards,
                  "events": game.events, "scores": game.scores, "winners": game.winners,
                  "final_state": state_digest(engine.st)}
        if args.json == "-":
            terminal.emit_json(record)
            return 0
        return _write("play", args.json, record, args.force)
    return 0


def replay_command(args) -> int:
    """Play a logged game again from its log; stop at the first difference."""
    code = _outputs("replay", args, [(getattr(args, "state_at", None) or [None, None])[1]], [args.log])
    if code:
        return code
    try:
        record = read_document(args.log, "log")
        decisions = validate_log(record)
    except DocumentError as exc:
        return report("replay", args.log, "a game log", exc)
    try:
        paths = spec_paths(record["spec"], args.log)
    except DocumentError as exc:
        return report("replay", args.log, "replayable here", exc)
    prepared = _prepare("replay", paths, record["configuration"], record["players"],
                        [str(n) for n in record.get("add") or []], [str(n) for n in record.get("remove") or []])
    if isinstance(prepared, int):
        return prepared
    result, selection = prepared
    now = {kind: list(cards) for kind, cards in selection.cards.items()}
    if now != record["selection"]:
        kinds = sorted(set(now) | set(record["selection"]))
        differ = [k for k in kinds if now.get(k) != record["selection"].get(k)]
        print(f"rulebook replay: configuration \"{record['configuration']}\" now selects other cards than the log "
              f"({', '.join(differ)})", file=sys.stderr)
        return 1
    engine = Engine(result.typed)
    recorder = _state_recorder("replay", args, engine, result, [str(p) for p in paths])
    if isinstance(recorder, int):
        return recorder
    try:
        outcome = replay(engine, {**record, "selection": selection.cards}, decisions)
    except ReplayMismatch as exc:
        print(f"rulebook replay: the game differs from the log: {exc}", file=sys.stderr)
        if getattr(args, "json", False):
            terminal.emit_json({"command": "replay", "ok": False, "exit_code": 1, "same": False,
                                "differs": str(exc)})
        return 1
    except SpecRuntimeError as exc:
        return _spec_failed(exc)
    if outcome.hashed == outcome.decisions:
        states = "same state at each"
    elif outcome.hashed == 0:
        states = "same options at each (the log has no state digests)"
    else:
        states = f"same options at each, same state at the {outcome.hashed} that have a digest in the log"
    print(f"replay ok: {outcome.decisions} decisions, {states}, same scores")
    code = _write_state("replay", args, recorder)
    if getattr(args, "json", False) and not code:
        terminal.emit_json({"command": "replay", "ok": True, "exit_code": 0, "same": True,
                            "decisions": outcome.decisions, "states_compared": outcome.hashed})
    return code


def _state_recorder(command: str, args, engine: Engine, result: CheckResult, spec: list[str]):
    """An observer writing the state at `--state-at N FILE` (None without the option; an exit code if N is
    not a decision number)."""
    at = getattr(args, "state_at", None)
    if not at:
        return None
    try:
        n = int(at[0])
    except ValueError:
        n = 0
    if n < 1:
        print(f"rulebook {command}: --state-at takes a decision number from 1, not {at[0]!r}", file=sys.stderr)
        return 2
    from checker.solver.scopes import Scopes
    from checker.solver.statefile import StateRecorder
    recorder = StateRecorder(engine, Scopes(result.typed), n, spec)
    engine.observer = recorder
    return recorder


def _write_state(command: str, args, recorder) -> int:
    if recorder is None:
        return 0
    n, path = int(args.state_at[0]), args.state_at[1]
    if recorder.state is None:
        print(f"rulebook {command}: the game has {recorder.count} decisions, there is no decision {n}",
              file=sys.stderr)
        return 2
    code = _write(command, path, recorder.state, args.force)
    if not code:
        print(f"state at decision {n} written to {path}", file=sys.stderr)
    return code
