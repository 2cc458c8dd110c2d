"""`rulebook simulate`: play many seeded games of a rule set (or two) and report win rates."""

from __future__ import annotations

import argparse
import dataclasses
import shlex
import sys
import time
from pathlib import Path

from checker.base.terminal import spec_arguments
from checker.base.output import OutputError, plan, plan_directory, write_bytes, write_json, write_text

__all__ = ["simulate_command", "MAX_GAMES"]

MAX_GAMES = 10_000_000


def _fail(message: str) -> int:
    print(f"rulebook simulate: {message}", file=sys.stderr)
    return 2


def _lineup(text: str, players: int) -> tuple[str, ...] | str:
    from checker.runtime.players import parse_agent
    names = [n.strip() for n in text.split(",") if n.strip()]
    for name in names:
        try:
            parse_agent(name)
        except ValueError as exc:
            return str(exc)
    if not names:
        return "--agent needs at least one agent name"
    if len(names) > players:
        return f"--agent names {len(names)} agents for {players} players"
    return tuple(names[seat % len(names)] for seat in range(players))


def _plays_montecarlo(agents) -> bool:
    """Does a Monte-Carlo player (with or without options) sit in ``agents``?"""
    from checker.runtime.players import parse_agent
    return any(parse_agent(a)[0] == "montecarlo" for a in agents)


def _defaults(paths: list[Path], config: str | None, players: int | None):
    """The configuration and player count to use when not given: 4 players if the game allows it
    (else its smallest count), and the first configuration of the spec for that count."""
    from checker.front.check import check_paths
    from checker.solver.statefile import player_range
    result = check_paths(paths)
    if not result.ok:
        return None, None
    if players is None:
        low, high = player_range(result.program)
        players = 4 if low <= 4 <= high else low
    if config is None:
        config = next((name for name, counts in result.configurations.items() if players in counts), None)
    return config, players


def _prepare_ruleset(label: str, paths: list[Path], args, lineup: tuple[str, ...]):
    """(Job, meta, kinds) for a rule set, or an exit code after saying what is wrong."""
    from checker.simulate.games import Job, spec_files
    from checker.front.command import card_names as _names, prepare_game as _prepare
    add, remove = args.add, args.remove
    if label == "B":
        add = args.add if args.vs_add is None else args.vs_add
        remove = args.remove if args.vs_remove is None else args.vs_remove
    prepared = _prepare("simulate", paths, args.config, args.players, _names(add), _names(remove))
    if isinstance(prepared, int):
        if label == "B":
            print("rulebook simulate: (in the rule set given by --vs)", file=sys.stderr)
        return prepared
    result, selection = prepared
    from checker.runtime.players import unknown_aim
    if problem := unknown_aim(result.program, lineup):
        return _fail(problem)
    try:
        files, roots, digest = spec_files(paths)
    except (OSError, ValueError) as exc:
        return _fail(f"cannot read the spec: {getattr(exc, 'strerror', None) or exc}")
    program = result.program
    order = tuple((kind, tuple(names)) for kind, names in selection.cards.items())
    from checker.front import diskcache
    # the workers load this check instead of checking the files again (each one's start-up)
    job = Job(files, roots, order, args.players, lineup, args.seed, args.playouts, args.depth, digest,
              diskcache.dumps(result) or b"")
    kinds = [(kind, program.kinds[kind].controller[0], list(names)) for kind, names in order
             if program.kinds[kind].controller and names]
    game = program.game.name if program.game else "game"
    meta = {"game": game, "spec": [str(p) for p in paths], "spec_digest": digest,
            "configuration": args.config, "add": _names(add), "remove": _names(remove), "players": args.players, "games": args.games, "seed": args.seed,
            "lineup": list(lineup), "job": job, "tracked": job.tracked}
    if _plays_montecarlo(lineup):
        meta["montecarlo"] = {"playouts": args.playouts, "depth": args.depth}
    return job, meta, kinds


def _outputs(args) -> list[Path] | int:
    """The files the run will write, checked before it starts (never overwritten without --force)."""
    try:
        plan([p for p in (args.json, args.csv) if p and p != "-"], args.force,
             reads=[args.spec, *args.more, *(args.vs or ())])
        if args.plots:
            plan_directory(args.plots, "win-rates-*.png", args.force)
    except OutputError as exc:
        return _fail(str(exc))
    return [Path(p) for p in (args.json, args.csv) if p and p != "-"]


def _reproduce(args, job, meta: dict, records) -> str | None:
    """How to play the first failed game again with its French log and a replayable `--json` log: the
    `rulebook play` line with its seed, when one agent plays every seat (play seeds its agents as simulate
    does); else where it is in the run."""
    from checker.simulate.games import lineup_of
    failed = next((r for r in records if r.error), None)
    if failed is None:
        return None
    seed = job.seed + failed.index
    agents = set(lineup_of(job, failed.index))
    if len(agents) > 1 or (_plays_montecarlo(agents) and (job.playouts, job.depth) != (24, 300)):
        return (f"  the first is game {failed.index} (seed {seed}); its agents differ by seat, which `rulebook "
                f"play` cannot seat: `rulebook fuzz` finds and shrinks such failures")
    words = ["rulebook", "play", *meta["spec"], "-c", meta["configuration"], "-n", str(job.players), "-s", str(seed),
             "--agent", agents.pop()]
    for option in ("add", "remove"):
        if meta[option]:
            words += [f"--{option}", ",".join(meta[option])]
    return (f"  the first (game {failed.index}) is played again, with its log up to the error and a log "
            f"`rulebook replay` reads, by:\n    {shlex.join(words + ['--json', 'partie.json'])}")


def simulate_command(args) -> int:
    from checker.simulate.stats import compare, summarize
    from checker.simulate.report import comparison_report, text_report
    from checker.simulate.games import run_games, user_located
    from checker.base.parallel import ClusterError, cores, refused
    if not 1 <= args.games <= MAX_GAMES:
        return _fail(f"-n takes 1 to {MAX_GAMES:,} games, not {args.games}")
    if problem := refused(args.workers, None):
        return _fail(problem)
    if args.playouts < 1 or args.depth < 0:
        return _fail("--playouts takes 1 or more, --depth 0 or more")
    if not 0 < args.alpha < 1:
        return _fail(f"--alpha takes a number between 0 and 1, not {args.alpha}")
    if problem := refused(None, args.cluster):
        return _fail(problem)
    paths = [args.spec, *args.more]
    if args.config is None or args.players is None:
        args.config, args.players = _defaults(paths, args.config, args.players)
        if args.players is None:
            from checker.front.command import prepare_game as _prepare
            return _prepare("simulate", paths, "", 0)     # prints the spec's errors
        if args.config is None:
            return _fail(f"no configuration of the spec is for {args.players} players: give --config")
    lineup = _lineup(args.agent, args.players)
    if isinstance(lineup, str):
        return _fail(lineup)
    outputs = _outputs(args)
    if isinstance(outputs, int):
        return outputs
    first = _prepare_ruleset("A", paths, args, lineup)
    if isinstance(first, int):
        return first
    second = None
    if args.vs:
        other = [Path(p) for p in args.vs]
        other = other if other[0].is_dir() else [args.spec, *other]
        second = _prepare_ruleset("B", other, args, lineup)
        if isinstance(second, int):
            return second
    workers = args.workers or cores()
    from checker.base.terminal import progress
    update, close = progress(args.games * (2 if second else 1), "game")
    start = time.perf_counter()
    summaries = []
    reproduce = None
    try:
        for job, meta, kinds in filter(None, (first, second)):
            records = run_games(job, args.games, workers, args.cluster, update)
            records = [dataclasses.replace(r, error=user_located(r.error, job, meta["spec"])) if r.error else r
                       for r in records]
            if reproduce is None:
                reproduce = _reproduce(args, job, meta, records)
            summaries.append(summarize(meta, records, kinds, [f"Joueur {s + 1}" for s in range(args.players)]))
    except ClusterError as exc:
        return _fail(str(exc))
    finally:
        close()
    elapsed = time.perf_counter() - start
    where = f"the cluster {args.cluster}" if args.cluster else f"{workers} local worker(s)"
    games = args.games * len(summaries)
    comparison = compare(summaries[0], summaries[1], args.alpha) if second else None
    language, names = _language(paths, summaries[0])
    if comparison is None:
        sys.stdout.write(text_report(summaries[0], language, names))
    else:
        sys.stdout.write(comparison_report(summaries[0], summaries[1], comparison, names))
    print(f"\n{games} games on {where} in {elapsed:.1f} s ({games / elapsed:.0f} games/s)")
    code = _write(args, summaries, comparison, language, names)
    failed = sum(s["failed"] for s in summaries)
    if failed:
        print(f"rulebook simulate: {failed} game(s) stopped on an error of the spec (left out of the rates)",
              file=sys.stderr)
        if reproduce:
            print(reproduce, file=sys.stderr)
    return code or (1 if failed else 0)


def _language(paths: list, summary: dict) -> tuple[str, dict[str, str]]:
    """The report's language and words: French, with the lexicon's nouns, when the spec has a lexicon (the
    nearest rulebook.toml names one); else English and the spec's identifiers."""
    from checker.human import LexiconError, find_lexicon
    from checker.simulate.words import report_names
    try:
        lexicon = find_lexicon([Path(p) for p in paths])
    except LexiconError:
        lexicon = None
    return ("fr", report_names(lexicon, summary)) if lexicon is not None else ("en", {})


def _write(args, summaries: list[dict], comparison: dict | None, language: str = "en",
           names: dict[str, str] | None = None) -> int:
    from checker.simulate.report import csv_text
    record = summaries[0] if comparison is None else {"a": summaries[0], "b": summaries[1],
                                                       "comparison": comparison, "format": summaries[0]["format"]}
    try:
        if args.json == "-":
            from checker.base.terminal import emit_json
            failed = sum(s["failed"] for s in summaries)
            emit_json({"command": "simulate", "ok": not failed, "exit_code": 1 if failed else 0, **record})
        elif args.json:
            write_json(args.json, record, args.force)
            print(f"results written to {args.json}", file=sys.stderr)
        if args.csv:
            other = summaries[1] if comparison else None
            write_text(args.csv, csv_text(summaries[0], other, comparison), args.force)
            print(f"table written to {args.csv}", file=sys.stderr)
        if args.plots:
            from checker.simulate.plots import MissingMatplotlib, charts
            directory = Path(args.plots)
            try:
                pictures = charts(summaries[0], summaries[1] if comparison else None, language=language,
                                  names=names)
            except MissingMatplotlib as exc:
                return _fail(str(exc))
            directory.mkdir(parents=True, exist_ok=True)
            for name, data in pictures.items():
                write_bytes(directory / name, data, args.force)
            print(f"{len(pictures)} chart(s) written to {directory}", file=sys.stderr)
    except OutputError as exc:
        return _fail(str(exc))
    except OSError as exc:
        return _fail(f"cannot write {exc.filename or ''}: {exc.strerror or exc}")
    return 0


# ---------------------------------------------------------------- the command line

def add_parsers(new_command) -> dict:
    """`simulate`, made by the CLI's ``new_command`` (which gives it --color and the exit codes)."""
    simulate = new_command(
        "simulate", help="play many seeded games and report win rates, with confidence intervals",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Play N seeded games of a rule set on every local core (or a Dask cluster) and report the\n"
                    "win rate by seat, by agent and by card, with 95% Wilson score intervals, and the mean length\n"
                    "of a game.  With --vs, play the same seeds with a second rule set and test every difference.",
        epilog="""statistics:
  win           a game won by k players (tied after the tiebreak) credits each 1/k; a win rate is the
                credited wins over the trials
  by seat       trials: the games played
  by agent      trials: the seats an agent played (the lineup turns one seat each game, so every agent
                sits at every seat equally often over `players` games)
  by card       for every selected card of a kind with a `controller` quantity: trials are the players
                who *had* it in a game, i.e. whom that quantity named for one of its copies at the start
                of a round (as the previous round left the state) or at the end of the game; samples
                where the quantity cannot name one player are counted as undetermined
  --vs          two-sided two-proportion z-tests (win rates) and Welch z-tests (mean rounds and moves),
                p-values adjusted by Holm-Bonferroni over every comparison shown

Game i is played with seed SEED+i; the results are the same for any number of workers.
Exit codes: 0 done, 1 the spec has errors or some game stopped on one, 2 bad command line or an output
that cannot be written, 3 internal error, 130 interrupted.  See docs/cli.md.""")
    spec_arguments(simulate)
    simulate.add_argument("-n", "--games", type=int, default=1000, help="games per rule set (default 1000)")
    simulate.add_argument("--players", "-p", type=int,
                          help="number of players (default 4, or the smallest count the game allows)")
    simulate.add_argument("--config", "-c", help="a named configuration (default: the spec's first for that "
                                                 "player count)")
    simulate.add_argument("--add", metavar="CARDS", help="cards added to the configuration, comma-separated")
    simulate.add_argument("--remove", metavar="CARDS", help="cards removed from the configuration, comma-separated")
    simulate.add_argument("--agent", default="greedy", metavar="AGENTS",
                          help="agents by seat, comma-separated, repeated to fill the seats (random, greedy, "
                               "montecarlo; default greedy); greedy:aim=E and montecarlo:aim=E (:weight=W) aim at "
                               "the game's ending E (docs/simulate.md)")
    simulate.add_argument("--playouts", type=int, default=24, help="montecarlo: playouts per decision (default 24)")
    simulate.add_argument("--depth", type=int, default=300,
                          help="montecarlo: decisions a playout plays at most before it is scored (default 300)")
    simulate.add_argument("--seed", "-s", type=int, default=0, help="seed of the first game (default 0)")
    simulate.add_argument("--vs", nargs="+", type=Path, metavar="PATH",
                          help="compare with another rule set on the same seeds: a spec directory (and its "
                               "overlays), or overlay files added to SPEC")
    simulate.add_argument("--vs-add", metavar="CARDS", help="cards added to the configuration in the --vs rule set "
                                                             "(default: the same as --add)")
    simulate.add_argument("--vs-remove", metavar="CARDS", help="cards removed in the --vs rule set (default: the "
                                                                "same as --remove)")
    simulate.add_argument("--alpha", type=float, default=0.05, help="significance level of --vs (default 0.05)")
    simulate.add_argument("--workers", "-j", type=int, help="local worker processes (default: every core)")
    simulate.add_argument("--cluster", metavar="ADDRESS",
                          help="run on the Dask scheduler at ADDRESS (tcp://host:port) instead; needs "
                               "pip install 'rulebook[cluster]'")
    simulate.add_argument("--json", metavar="FILE", nargs="?", const="-",
                          help="every statistic as JSON: on the standard output, or written to FILE")
    simulate.add_argument("--csv", metavar="FILE", help="write the table of win rates as CSV")
    simulate.add_argument("--plots", metavar="DIR", help="write the win-rate charts (PNG) to DIR")
    simulate.add_argument("--force", action="store_true", help="replace files that exist")
    return {"simulate": simulate_command}
