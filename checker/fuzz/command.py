"""The `rulebook fuzz` command: check the spec, fuzz its games, and on a failure write the minimal game as a
replayable log and print its French log with the failing statement located."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

from checker.base import terminal
from checker.base.terminal import completes
from checker.base.diagnostics import Diagnostic, render_human
from checker.base.output import OutputError, plan, write_json
from checker.base.parallel import ClusterError, refused

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
    fuzz.add_argument("--config", "-c", metavar="NAME", action="append",
                      help="play only this configuration (repeat for several; default: every configuration)")
    fuzz.add_argument("--add", metavar="CARDS",
                      help="cards added to every configuration, comma-separated (played at every player count "
                           "whose selection the spec's constraints accept)")
    fuzz.add_argument("--remove", metavar="CARDS", help="cards removed from every configuration, comma-separated")
    fuzz.add_argument("--workers", "-j", type=int, default=1,
                      help="local worker processes (default 1: in this process)")
    fuzz.add_argument("--cluster", metavar="ADDRESS",
                      help="search on the Dask scheduler at ADDRESS (tcp://host:port) instead; needs "
                           "pip install 'rulebook[cluster]'")
    fuzz.add_argument("--budget", type=int, default=2000,
                      help="the most games played to shrink a failure (default 2000)")
    completes(fuzz.add_argument("--lexicon", metavar="FILE",
                                help="the book's wording for the failing game's log (default: the lexicon the "
                                     "nearest rulebook.toml above the spec names)"), "file")
    fuzz.add_argument("--json", action="store_true", help="machine-readable result (see docs/cli.md)")
    fuzz.add_argument("--force", action="store_true", help="replace the --log file if it exists")
    return {"fuzz": fuzz_command}


def fuzz_command(args) -> int:
    from checker.front.check import checked_spec
    from checker.fuzz.run import fuzz
    if args.games < 1 or args.budget < 1:
        print("rulebook fuzz: --games and --budget take a number from 1", file=sys.stderr)
        return 2
    problem = refused(args.workers, args.cluster)
    if problem:
        print(f"rulebook fuzz: {problem}", file=sys.stderr)
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
    unknown = [name for name in args.config or () if name not in result.configurations]
    if unknown:
        from checker.base.diagnostics import suggest
        near = suggest(unknown[0], result.configurations)
        print(f"rulebook fuzz: no configuration \"{unknown[0]}\" in the spec"
              + (f" (did you mean \"{near}\"?)" if near else ""), file=sys.stderr)
        return 2
    if args.config and not (args.add or args.remove) and not any(result.configurations[name] for name in args.config):
        print("rulebook fuzz: no player count satisfies the configuration's constraints", file=sys.stderr)
        return 1
    from checker.front.command import card_names
    add, remove = card_names(args.add), card_names(args.remove)
    for name in [*add, *remove]:
        if name not in result.program.cards:
            from checker.front.program import did_you_mean
            hint = did_you_mean(name, result.program.cards, '"')
            print(f"rulebook fuzz: no card \"{name}\"" + (f"; {hint}" if hint else ""), file=sys.stderr)
            return 2
    if add or remove:
        from checker.fuzz.search import Games
        table = Games(result, [], args.config, add, remove)
        if not table.playable:
            name, players, why = table.refused[0]
            print(f"rulebook fuzz: no configuration and player count accept --add/--remove; \"{name}\" at {players} "
                  f"players: {why}", file=sys.stderr)
            return 2
    start = _cpu()
    update, close = terminal.progress(args.games, "game")
    try:
        report = fuzz(result, [str(p) for p in paths], args.games, args.seed, args.database, args.budget,
                      args.config, update, add, remove, args.workers, args.cluster)
    except ClusterError as exc:
        print(f"rulebook fuzz: {exc}", file=sys.stderr)
        return 2
    finally:
        close()
    cpu = _cpu() - start
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
                    "decisions_found": failure.found, "shrink_tries": failure.tries,
                    "log": args.log, "location": None if span is None else
                    {"file": span.file, "line": span.line, "column": span.column}})
    if args.json:
        terminal.emit_json(summary)
        return 1
    record = failure.record
    print(f"{result.program.game.name if result.program.game else 'Partie'} — {record['configuration']}, "
          f"{record['players']} joueurs, graine {record['seed']}")
    if failure.case is not None:
        _narrate(report.table, paths, failure.case, args.lexicon)
    message = f"the spec failed while playing: {failure.message}"
    print(render_human([Diagnostic("R0001", message, span)], result.sources, color=terminal.colored()),
          file=sys.stderr)
    shrunk = (f"shrunk from {failure.found} to {failure.decisions} decision(s) in {failure.tries} tries"
              if failure.case is not None else f"{failure.decisions} decision(s)")
    print(f"fuzz: a failure after {report.games} good game(s), {shrunk}; written to {args.log} "
          f"(`rulebook replay {args.log}` plays it again)", file=sys.stderr)
    return 1


def _narrate(games, paths: list[Path], case, lexicon: str | None) -> None:
    """The shortest failing game's log, in the words `rulebook play` prints a game with (its own printing)."""
    from checker.human import LexiconError, Table, find_lexicon
    try:
        words = find_lexicon(paths, lexicon)
    except LexiconError as exc:
        print(f"rulebook fuzz: {exc} (the log is printed with the spec's identifiers)", file=sys.stderr)
        words = None
    table = Table(games.engine, words, None)
    games.recorded(case, agents=table.agents)
    table.show_events()
    print()


def _cpu() -> float:
    """CPU seconds of this process and of its workers that have ended (a local pool's, once it is shut down)."""
    times = os.times()
    return time.process_time() + times.children_user + times.children_system
