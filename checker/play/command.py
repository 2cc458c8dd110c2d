"""`rulebook play`: check a spec, then play one seeded game with built-in agents (or a person at the
terminal) and print its log; `rulebook replay`: play a logged game again and check it is the same."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

from checker.base import terminal
from checker.base.terminal import completes, spec_arguments
from checker.play.outputs import _outputs, _spec_failed, _write  # noqa: F401  (also used by play --from)
from checker.base.documents import DocumentError, read_document, report, spec_paths

if TYPE_CHECKING:         # names in annotations only: imported where they run
    from checker.front.check import CheckResult
    from checker.runtime import Engine, SpecRuntimeError

__all__ = ["add_parsers", "play_command", "replay_command"]


def _ask(prompt: str) -> str:
    """Read an answer; when it comes from a pipe or a file rather than a person typing, print it after the
    prompt, so that the transcript reads as a game played at the terminal."""
    answer = input(prompt)
    if not sys.stdin.isatty():
        print(answer)
    return answer


def spec_digest(paths: list) -> dict:
    """``{"spec_digest": …}``, the digest of the spec's files that a log records (as `simulate` does), or ``{}``
    when they cannot be read."""
    from checker.front.shipped import spec_files
    try:
        return {"spec_digest": spec_files([Path(p) for p in paths])[2]}
    except (OSError, ValueError):
        return {}


def _agent(text: str) -> str:
    """``--agent``: a built-in player's name with its options (argparse says what is wrong)."""
    import argparse
    from checker.runtime.players import parse_agent
    try:
        parse_agent(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text


class _AgentNames(tuple):
    """``--agent``'s choices as shell completion offers them (the built-in players' names); any value
    :func:`_agent` accepted is in it (a name with its options)."""
    def __contains__(self, value) -> bool:
        return True


def play_command(args) -> int:
    if getattr(args, "start", None) is not None:
        from checker.play.resume import play_from
        return play_from(args)
    if args.players is None:
        print("rulebook play: the number of players is required: -n N (or --from STATE)", file=sys.stderr)
        return 2
    from checker.runtime import Engine, SpecRuntimeError
    from checker.front.command import card_names as _names, prepare_game as _prepare
    from checker.runtime.players import make_agent
    from checker.runtime.replay import state_digest
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
    from checker.runtime.players import unknown_aim
    if problem := unknown_aim(result.program, [args.agent]):
        print(f"rulebook play: {problem}", file=sys.stderr)
        return 2
    if args.config is None:
        from checker.front.command import default_configuration
        args.config = default_configuration(result, args.players)
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

    table, stops = None, ()     # what ends the game early: a person leaving (only where one sits or sees the log)
    if human is not None or not args.quiet:
        # the log in the book's words: a person at a seat sees what that seat may see; else every choice
        from checker.human import LexiconError, Table, find_lexicon
        try:
            lexicon = find_lexicon([args.spec, *args.more], getattr(args, "lexicon", None))
        except LexiconError as exc:
            print(f"rulebook play: {exc}", file=sys.stderr)
            return 2
        from checker.human.agent import HumanQuit
        table, stops = Table(engine, lexicon, human - 1 if human is not None else None, input=_ask), (HumanQuit,)
        agents = table.agents(agents)
    recorder = _state_recorder("play", args, engine, result, [str(args.spec), *map(str, args.more)])
    if isinstance(recorder, int):
        return recorder
    if not args.quiet:
        game_name = result.program.game.name if result.program.game else "Partie"
        print(f"{game_name} — {args.config}, {args.players} joueurs, graine {args.seed}")
    record = {"spec": [str(args.spec), *map(str, args.more)], **spec_digest([args.spec, *args.more]),
              "configuration": args.config, "players": args.players, "seed": args.seed, "add": _names(args.add), "remove": _names(args.remove),
              "selection": selection.cards}
    try:
        game = engine.play(selection.cards, args.players, args.seed, agents)
    except SpecRuntimeError as exc:
        return _play_failed(args, engine, table, result, record, exc)
    except stops:
        print("\nPartie interrompue.", file=sys.stderr)
        return 130
    if table is not None:
        table.show_events()
    code = _write_state("play", args, recorder)
    if code:
        return code
    print("\nScores : " + ", ".join(f"{names[p]} {s}" for p, s in sorted(game.scores.items())))
    print("Vainqueur : " + " et ".join(names[p] for p in game.winners))
    if args.json:
        record.update({"events": game.events, "scores": game.scores, "winners": game.winners,
                       "final_state": state_digest(engine.st)})
        if args.json == "-":
            terminal.emit_json(record)
            return 0
        return _write("play", args.json, record, args.force)
    return 0


def _play_failed(args, engine: Engine, table, result: CheckResult, record: dict, exc: SpecRuntimeError) -> int:
    """The game stopped on an error of the spec: print its log up to there and the error, and write the
    ``--json`` log of every decision up to the error, marked with it (``rulebook replay`` stops on it again)."""
    from checker.runtime.replay import failure_of
    if table is not None:
        table.show_events()
        print()
    _spec_failed(exc, result)
    if not args.json:
        return 1
    record.update({"events": list(engine.events), "scores": {}, "winners": [], "error": failure_of(exc)})
    if args.json == "-":
        terminal.emit_json(record)
        return 1
    code = _write("play", args.json, record, args.force)
    if code:
        return code
    decisions = sum(1 for e in engine.events if e["kind"] == "decision")
    print(f"the game up to the error ({decisions} decisions) is written to {args.json}: "
          f"`rulebook replay {args.json}` plays it again", file=sys.stderr)
    return 1


def replay_command(args) -> int:
    """Play a logged game again from its log; stop at the first difference."""
    from checker.runtime import Engine, SpecRuntimeError
    from checker.runtime.replay import ReplayMismatch, failure_of, replay, validate_log
    from checker.front.command import prepare_game as _prepare
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
    if "spec_digest" in record and spec_digest(paths).get("spec_digest") != record["spec_digest"]:
        print(f"rulebook replay: the log was played with other rules: the files of its spec list "
              f"({', '.join(record['spec'])}) differ now from those it was played with (a file added, removed or "
              f"changed)", file=sys.stderr)
        return 1
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
        return _spec_failed(exc, result)
    if outcome.hashed == outcome.decisions:
        states = "same state at each"
    elif outcome.hashed == 0:
        states = "same options at each (the log has no state digests)"
    else:
        states = f"same options at each, same state at the {outcome.hashed} that have a digest in the log"
    if outcome.failure is not None:
        # the log of a game that stopped on an error: reproduced, and the spec still fails (exit 1)
        print(f"replay ok: {outcome.decisions} decisions, {states}, and the game stops again on the log's error")
        _spec_failed(outcome.failure, result)
        code = _write_state("replay", args, recorder)
        if getattr(args, "json", False) and not code:
            terminal.emit_json({"command": "replay", "ok": False, "exit_code": 1, "same": True,
                                "decisions": outcome.decisions, "states_compared": outcome.hashed,
                                "error": failure_of(outcome.failure)})
        return code or 1
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
    if recorder.problem is not None:
        print(f"rulebook {command}: cannot write the state at decision {n}: {recorder.problem}", file=sys.stderr)
        return 4
    if recorder.state is None:
        print(f"rulebook {command}: the game has {recorder.count} decisions, there is no decision {n}",
              file=sys.stderr)
        return 2
    recorder.add_frames()
    code = _write(command, path, recorder.state, args.force)
    if not code:
        print(f"state at decision {n} written to {path}" + (
            f" (without frames: a game cannot go on from it: {recorder.frames_note})" if recorder.frames_note else ""),
            file=sys.stderr)
    return code


# ---------------------------------------------------------------- the command line

def add_parsers(new_command) -> dict:
    """`play` and `replay`, made by the CLI's ``new_command`` (which gives them --color and the exit codes)."""
    play = new_command("play", help="play one seeded game: built-in agents, or you at a seat (--human)",
                   description="Check the spec, then play a complete game and print its log in French.")
    spec_arguments(play)
    play.add_argument("--players", "-n", type=int, help="number of players (required without --from)")
    completes(play.add_argument("--from", dest="start", metavar="STATE",
                                help="go on from a state file written by `play --state-at` (its players, its cards, "
                                     "its decision point; --seed seeds the agents)"), "file")
    play.add_argument("--seed", "-s", type=int, default=0, help="random seed (the same seed gives the same game)")
    play.add_argument("--config", "-c", help="a named configuration of the spec (default: the spec's first "
                                               "configuration for that many players)")
    play.add_argument("--json", metavar="FILE", nargs="?", const="-",
                      help="the full log (every decision point) as JSON: on the standard output, or written to FILE")
    play.add_argument("--quiet", "-q", action="store_true", help="print only the scores and the winner")
    play.add_argument("--add", metavar="CARDS", help="cards added to the configuration, comma-separated "
                                                     "(the spec's constraints judge the result)")
    play.add_argument("--remove", metavar="CARDS", help="cards removed from the configuration, comma-separated")
    play.add_argument("--agent", type=_agent, choices=_AgentNames(("random", "greedy", "montecarlo")), metavar="AGENT", default="random",
                      help="the built-in players: uniformly random, greedy (the best move if the game ended right after it), "
                           "or Monte-Carlo playouts "
                           "over the hidden cards; greedy and montecarlo take an ending to aim at, as "
                           "greedy:aim=ENDING[:weight=W] (see docs/simulate.md)")
    play.add_argument("--human", metavar="SEAT", type=int,
                      help="seat SEAT (1 = first player) is played by you at the terminal, in the book's French; "
                           "the others by --agent (type ? for help, q to leave)")
    completes(play.add_argument("--lexicon", metavar="FILE",
                                help="the book's wording for --human (default: the lexicon the nearest rulebook.toml "
                                     "above the spec names)"), "file")
    replay = new_command("replay", help="play a logged game again and check it is the same",
                            description="Re-check the spec named in a log written by `rulebook play --json`, play "
                                        "the game again with the logged choices, and check that every decision "
                                        "is offered the same options in the same state, and the scores are the "
                                        "same.  Exit codes: 0 same game, 1 the game differs (or the spec has "
                                        "errors), 2 the file is not a game log.")
    completes(replay.add_argument("log", metavar="FILE", help="a JSON log written by `rulebook play --json FILE`"),
              "file")
    replay.add_argument("--json", action="store_true", help="machine-readable result (see docs/cli.md)")
    for command in (play, replay):
        command.add_argument("--state-at", nargs=2, metavar=("N", "FILE"),
                             help="write the state at the N-th decision (as numbered in the log) to FILE, for "
                                  "`rulebook legal` and `rulebook moves`")
        command.add_argument("--force", action="store_true", help="replace output files that already exist")
    from checker.play.emit import add_parser as add_compile, compile_command
    add_compile(new_command)
    return {"play": play_command, "replay": replay_command, "compile": compile_command}
