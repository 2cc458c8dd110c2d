"""`rulebook reach SPEC [MORE…] CONDITION --within K`: can a game reach CONDITION within K decisions?

CONDITION is an expression of the spec's language (a Bool), read on the game's state; ``Joueur 2`` names a
seat.  The search is :func:`checker.reach.search.reach`: exit 0 when it is reached (the shortest sequence of
decisions, replayed by the interpreter and written with ``--log`` as a game log `rulebook replay` reads), 1 when
it is proved that no sequence of at most K decisions reaches it, 4 when undecided (the reason and the place),
2 for bad input.
"""

from __future__ import annotations

import dataclasses
import re
import sys
from pathlib import Path

from checker.base import terminal
from checker.base.diagnostics import Reporter, render_expression
from checker.base.source import SourceFile

__all__ = ["add_parsers", "reach_command"]

_PREFIX = "quantity __condition__(): Bool =\n"
_PLAYER = re.compile(r'"(?:[^"\\]|\\.)*"|\bJoueur (\d+)\b')


def _players_named(text: str, count: int) -> tuple[str, dict[str, int]]:
    """``Joueur 2`` (outside strings) becomes the name ``Joueur_2``, bound to seat 1."""
    seats: dict[str, int] = {}

    def name(m):
        if m.group(1) is None:
            return m.group(0)
        seat = int(m.group(1))
        if 1 <= seat <= count:
            seats[f"Joueur_{seat}"] = seat - 1
            return f"Joueur_{seat}"
        return m.group(0)
    return _PLAYER.sub(name, text), seats


def _condition(result, engine, text: str, players: int):
    """(typed expression, the interpreter's test of it, seats named) or (None, the diagnostics)."""
    from checker.front import ast
    from checker.front.lower import lower_trees
    from checker.front.parse import parse_file
    from checker.front.typecheck import Checker, Env
    from checker.front.types import BOOL, PLAYER
    from checker.runtime.codegen import Scope
    source_text, seats = _players_named(text, players)
    reporter = Reporter()
    source = SourceFile("CONDITION", Path("CONDITION"), _PREFIX + source_text)
    _, decls = lower_trees(source.name, parse_file(source, reporter), reporter)
    if reporter.errors or len(decls) != 1 or not isinstance(decls[0], ast.QuantityDecl):
        if not reporter.errors:
            return None, "CONDITION must be one expression"
        return None, _render(reporter, text)
    from checker.front.types import INT, Coll, GridT, RecordT
    from checker.reach.monitors import Monitors, rewrite
    expr, monitors = rewrite(decls[0].default, reporter)
    if reporter.errors:
        return None, _render(reporter, text)
    checker = Checker(result.program, reporter)
    names = {name: PLAYER for name in seats}
    for m in monitors:
        inner = checker.expr(m.expr, Env({n: PLAYER for n in seats}))
        if isinstance(inner, (Coll, RecordT, GridT)):
            reporter.error("E0301", f"{m.kind}(…) watches a number, a Bool, a player, a card or an enum member, "
                                    f"not {inner}", m.span, hint="count(…) or a membership test makes one value of it")
        names[m.name] = INT if m.kind == "changes" else inner
    if reporter.errors:
        return None, _render(reporter, text)
    for m in monitors:          # a path function's own expression: its ranges too (the rewritten condition names it)
        _ranges(checker.typed, reporter, m.expr, seats)
    if reporter.errors:
        return None, _render(reporter, text)
    ty = checker.expr(expr, Env(names))
    if reporter.errors:
        return None, _render(reporter, text)
    _ranges(checker.typed, reporter, expr, names)
    if reporter.errors:
        return None, _render(reporter, text)
    if ty != BOOL:
        return None, f"CONDITION must be true or false (a Bool), not a value of type {ty}"
    engine.typed.types.update(checker.typed.types)
    scope = {n: f"env[{n!r}]" for n in names}

    def test_in(e):
        """The interpreter's test of the condition on ``e``'s state (compiled for that engine), and its path
        functions' values (:class:`~checker.reach.monitors.Monitors`, fed by the replay)."""
        function = e.compiler.gen.env_function(expr, Scope(dict(scope)))
        watched = Monitors(monitors, {m.name: e.compiler.gen.env_function(m.expr, Scope(dict(scope)))
                                      for m in monitors})

        def env():
            e.invalidate()
            return {**seats, **watched.values}
        test = lambda: function(env())      # noqa: E731
        test.monitors = watched
        test.env = env
        return test
    return (expr, seats, test_in, monitors), None


def _ranges(typed, reporter: Reporter, expr, names) -> None:
    """Every range the condition iterates checked against the limit as the spec's are (E0801, located): one the
    encoding refused (undecided, its span a line below the condition's) is bad input, said before the search."""
    from checker.front.bounds import check_expression_ranges
    check_expression_ranges(typed, reporter, expr, dict.fromkeys(names, "it is a path's value or a seat, and nothing "
                                                                         "bounds it"))


def _in_condition(o, text: str) -> None:
    """An answer located in CONDITION (the encoding could not follow it) shown at the condition's own line and
    column, the condition's line with a caret under the span: it was checked as the line after a prefix."""
    where = getattr(o, "where", None)
    if o.status != "undecided" or where is None or getattr(where, "file", None) != "CONDITION":
        return
    lines = _PREFIX.count("\n")
    line = max(1, where.line - lines)
    moved = dataclasses.replace(where, line=line, end_line=max(line, where.end_line - lines))
    if o.reason:
        o.reason = o.reason.replace(f"{where}:", f"{moved}:")
    shown = text.split("\n")[line - 1] if line <= text.count("\n") + 1 else ""
    width = (moved.end_column if moved.end_line == line else len(shown) + 1) - moved.column
    o.where = moved
    o.caret = f"\n    {line} | {shown}\n    {' ' * len(str(line))} | {' ' * (moved.column - 1)}{'^' * max(1, width)}"


def _at(o) -> str:
    """Where an undecided answer stopped (with the condition's line and a caret where it is in CONDITION)."""
    return f"\n  at {o.where}{getattr(o, 'caret', '')}" if o.where else ""


def _render(reporter: Reporter, text: str) -> str:
    return render_expression(reporter.sorted(), "CONDITION", _PREFIX, text)


def add_parsers(new_command) -> dict:
    from checker.base.terminal import completes, spec_arguments
    reach = new_command("reach", help="can the game reach a condition within K decisions? (bounded model checking)",
                        description="Set the game up (configuration, players, seed), unroll its flow over at most K "
                                    "decisions in Z3, and search for the shortest sequence of decisions after which "
                                    "CONDITION (an expression of the spec's language, e.g. 'count(d in cité[Joueur "
                                    "1]) >= 2') holds; replay it in the interpreter.  Exit codes: 0 reached, 1 proved "
                                    "unreachable within K decisions, 2 bad input, 4 undecided.")
    spec_arguments(reach)
    reach.add_argument("condition", metavar="CONDITION", help="a Bool expression of the spec's language")
    reach.add_argument("--within", "-k", type=int, metavar="K", help="the most decisions searched (required "
                                                                     "without --rounds)")
    reach.add_argument("--rounds", type=int, metavar="N",
                       help="instead of K decisions, the first N rounds whatever their decisions, on an "
                            "over-approximation that keeps only the state CONDITION reads and --keep names "
                            "(answers proved, for any deal, or undecided; see docs/reach.md)")
    reach.add_argument("--keep", action="append", default=[], metavar="NAMES",
                       help="with --rounds: vars and zones followed exactly besides those CONDITION reads "
                            "(comma-separated; repeatable)")
    reach.add_argument("--summarise", metavar="PROC",
                       help="with --rounds: each call of procedure PROC is replaced by a summary, a bound on how "
                            "much the zones CONDITION reads grow, proven by Z3 as a lemma (see docs/reach.md)")
    reach.add_argument("--players", "-n", type=int, help="number of players (required without --from)")
    reach.add_argument("--seed", "-s", type=int, default=0,
                       help="the seed of the set-up and of every shuffle (the same as `rulebook play`)")
    reach.add_argument("--config", "-c", help="a named configuration (default: the spec's first for that many "
                                              "players)")
    reach.add_argument("--loops", type=int, default=None, metavar="N",
                       help="how many times a `repeat` (a game's rounds) is unrolled (default 4)")
    reach.add_argument("--split", type=int, default=0, metavar="D",
                       help="one search per sequence of answers to the first D decisions (the interpreter lists "
                            "them), each with those answers known (default 0: one search)")
    completes(reach.add_argument("--log", metavar="FILE", help="write the sequence found as a game log "
                                                               "(`rulebook replay FILE` plays it)"), "file")
    reach.add_argument("--force", action="store_true", help="replace FILE if it exists")
    completes(reach.add_argument("--from", dest="start", metavar="STATE",
                                 help="search from a state file's decision point (one `play --state-at` "
                                      "wrote, with its frames): its players, cards and state; -s, -c unused"), "file")
    reach.add_argument("--json", action="store_true", help="machine-readable result (see docs/cli.md)")
    return {"reach": reach_command}


def reach_command(args) -> int:
    from checker.front.command import default_configuration, prepare_game
    from checker.reach.search import MAX_LOOPS, reach
    if args.rounds is not None:
        return _rounds_command(args)
    if args.within is None:
        print("rulebook reach: --within K (the most decisions searched) or --rounds N is required", file=sys.stderr)
        return 2
    if args.within < 0:
        print("rulebook reach: --within takes a number of decisions, 0 or more", file=sys.stderr)
        return 2
    if args.log and Path(args.log).exists() and not args.force:
        print(f"rulebook reach: {args.log} exists (give --force to replace it)", file=sys.stderr)
        return 2
    paths = [args.spec, *args.more]
    origin = None
    if args.start is not None:
        started = _from_state(args, paths)
        if isinstance(started, int):
            return started
        result, engine, origin, args.players, selection = started
        config = ""
    else:
        if args.players is None:
            print("rulebook reach: the number of players is required: -n N (or --from STATE)", file=sys.stderr)
            return 2
        prepared = prepare_game("reach", paths, args.config, args.players)
        if isinstance(prepared, int):
            return prepared
        result, selection = prepared
        config = args.config or default_configuration(result, args.players)
        from checker.runtime.engine import Engine
        engine = Engine(result.typed)
    compiled, problem = _condition(result, engine, args.condition, args.players)
    if compiled is None:
        print(f"rulebook reach: {problem}", file=sys.stderr)
        return 2
    condition, seats, test, monitors = compiled
    spec = [str(p) for p in paths]
    outcome = reach(result, selection, config, args.players, args.seed, (condition, seats, monitors), test,
                    args.within,
                    spec, max_loops=args.loops or MAX_LOOPS, split=max(args.split, 0), origin=origin)
    _in_condition(outcome, args.condition)
    if outcome.log is not None and args.log:
        from checker.base.output import OutputError, write_json
        try:
            write_json(args.log, outcome.log, args.force)
        except OutputError as exc:
            print(f"rulebook reach: {exc}", file=sys.stderr)
            return 2
    code = {"reached": 0, "proved": 1, "undecided": 4}[outcome.status]
    if outcome.status == "reached" and not outcome.confirmed:
        code = 4
    if args.json:
        terminal.emit_json({"command": "reach", "ok": code == 0, "exit_code": code, **_as_json(outcome)})
        return code
    _print(outcome, args)
    return code


def _rounds_command(args) -> int:
    """``--rounds N``: the first N rounds on the cut state (:mod:`checker.reach.cone`): exit 1 proved, 4
    undecided, 2 bad input."""
    from checker.front.command import prepare_game
    from checker.reach.cone import reach_rounds, unknown_names
    from checker.reach.search import MAX_LOOPS
    for flag, bad in (("--within", args.within is not None), ("--split", args.split), ("--from", args.start),
                      ("--log", args.log)):
        if bad:
            print(f"rulebook reach: --rounds does not take {flag} (it answers proved or undecided, from the "
                  f"set-up, in one search)", file=sys.stderr)
            return 2
    if args.rounds < 1 or args.players is None:
        print("rulebook reach: --rounds takes a number of rounds, 1 or more, and -n N", file=sys.stderr)
        return 2
    prepared = prepare_game("reach", [args.spec, *args.more], args.config, args.players)
    if isinstance(prepared, int):
        return prepared
    result, selection = prepared
    keep = [n.strip() for item in args.keep for n in item.split(",") if n.strip()]
    unknown = unknown_names(result.program, keep)
    if unknown:
        print(f"rulebook reach: --keep {', '.join(unknown)}: not a var or a zone of the spec", file=sys.stderr)
        return 2
    from checker.runtime.engine import Engine
    compiled, problem = _condition(result, Engine(result.typed), args.condition, args.players)
    if compiled is None:
        print(f"rulebook reach: {problem}", file=sys.stderr)
        return 2
    condition, seats, _test, monitors = compiled
    if args.summarise is not None:
        problem = _summarise_refused(result.program, args.summarise, monitors)
        if problem:
            print(f"rulebook reach: --summarise {args.summarise}: {problem}", file=sys.stderr)
            return 2
        from checker.reach.summary import reach_summarised
        o = reach_summarised(result, selection, args.players, args.seed, (condition, seats), args.rounds, keep,
                             args.summarise, max_loops=args.loops or MAX_LOOPS)
    else:
        o = reach_rounds(result, selection, args.players, args.seed, (condition, seats, monitors), args.rounds,
                         keep, max_loops=args.loops or MAX_LOOPS)
    _in_condition(o, args.condition)
    lemmas = getattr(o, "lemmas", None)
    code = 1 if o.status == "proved" else 4
    if args.json:
        terminal.emit_json({"command": "reach", "ok": False, "exit_code": code, "status": o.status,
                            "rounds": o.rounds, "reason": o.reason, "where": str(o.where) if o.where else None,
                            "kept": o.kept, "not_followed": o.pruned, "cpu_seconds": round(o.seconds, 2),
                            **({"lemmas": lemmas} if lemmas is not None else {}),
                            **({"counted": o.counted} if getattr(o, "counted", None) else {}),
                            "z3_questions": o.questions})
        return code
    if o.status == "proved":
        print(f"proved: no path of the first {o.rounds} round(s) reaches the condition, for any deal")
    else:
        print(f"undecided: {o.reason}" + _at(o))
    print(f"kept: {', '.join(o.kept)}; every other var and zone cut (an unknown at each read)")
    if o.pruned:
        print(f"not followed (they write nothing kept): {', '.join(o.pruned)}")
    for line in lemmas or ():
        print(f"lemma: {line}")
    if getattr(o, "counted", None):
        print(f"counts: {o.counted}")
    print(f"CPU time: {o.seconds:.2f} s, {o.questions} Z3 questions while unrolling")
    return code


def _summarise_refused(program, name: str, monitors) -> str | None:
    """Why ``--summarise NAME`` is bad input (None: it is not)."""
    if name not in program.procedures:
        return "not a procedure of the spec"
    if monitors:
        return "CONDITION reads the path (changes, initially): the decision points inside a summarised call are not " \
               "counted"
    return None


def _from_state(args, paths):
    """``--from STATE``: the file is read and checked (bad input: 2); one without frames (the calls and loops
    above its decision point, which `play --state-at` writes) is refused (4); else (result, engine, the
    search's origin, players) — the search starts at the file's decision point."""
    from types import SimpleNamespace
    from checker.base.documents import DocumentError, read_document
    from checker.reach.origin import FromState
    from checker.solver.command import load
    from checker.solver.statefile import site_label
    loaded = load("reach", args.start, [Path(p) for p in paths])
    if isinstance(loaded, int):
        return 2 if loaded != 1 else loaded
    result, engine, scopes, state = loaded
    if state.resume is None:
        point = state.point
        span = getattr(point.site, "span", None) or getattr(getattr(point.site, "decl", None), "span", None)
        where = site_label(span) if span is not None else "its decision point"
        print(f"rulebook reach: --from {args.start}: cannot resume at the {point.kind} at {where}: the file records "
              f"no frames (the calls and loops of the flow above it), so what runs after it is not known to the "
              f"search (`play --state-at` writes them)", file=sys.stderr)
        return 4
    players = engine.st.n
    if args.players is not None and args.players != players:
        print(f"rulebook reach: {args.start} is a game of {players} players, not {args.players}", file=sys.stderr)
        return 2
    try:
        data = read_document(args.start, "state")
    except DocumentError:
        return 2
    selection = SimpleNamespace(cards={k: list(v) for k, v in data["selection"].items()})
    return result, engine, FromState(str(args.start), data, scopes), players, selection


def _as_json(o) -> dict:
    shown = [{"player": f"Joueur {seat + 1}", "prompt": prompt, "answer": answer} for seat, prompt, answer in o.shown]
    return {"status": o.status, "within": o.within, "decisions": shown or [_shown(a) for a in o.answers],
            "confirmed": o.confirmed, "reason": o.reason or o.replay_note, "where": str(o.where) if o.where else None,
            "assumptions": [f"{span}: {text}" if span else text for span, text in o.assumptions],
            "cpu_seconds": round(o.seconds, 2), "z3_questions": o.questions, "branches": o.branches,
            "played_on_error": (o.log or {}).get("error")}


def _shown(answer) -> str:
    kind = answer[0]
    if kind == "action":
        return f"{answer[1]}{tuple(answer[2])!r}"
    if kind == "power":
        return f"power {answer[1]} of card {answer[2]}"
    if kind == "finish":
        return f"finish « {answer[1]} »"
    if kind == "nothing":
        return "nothing"
    return repr(answer[1])


def _print(o, args) -> None:
    if o.status == "reached":
        verdict = "confirmed by the interpreter" if o.confirmed else f"NOT confirmed: {o.replay_note}"
        print(f"reached after {len(o.answers)} decision(s) ({verdict}):")
        if o.shown:
            for i, (seat, prompt, answer) in enumerate(o.shown, 1):
                print(f"  {i}. Joueur {seat + 1}, {prompt} {answer}")
        else:
            for i, (choice, answer) in enumerate(o.decisions, 1):
                print(f"  {i}. {choice.var}: {_shown(answer)}")
        if args.log and o.log is None:
            print(f"no game log written to {args.log}: the interpreter did not play the path through")
        elif args.log:
            print(f"the rest of the game from {args.start}: {args.log} (not a log `rulebook replay` plays: it starts "
                  f"at the state file's decision)" if args.start is not None
                  else f"the game log: {args.log} (rulebook replay {args.log})")
        if o.log is not None and o.log.get("error"):
            error = o.log["error"]
            print(f"after the path, the game played on with each decision's first option stopped on an error of "
                  f"the spec: {error['message']}" + (f" ({error['at']})" if error["at"] else "")
                  + (": the log ends there" if args.log else ""))
    elif o.status == "proved":
        print(f"proved: no sequence of at most {o.within} decisions reaches the condition")
    else:
        print(f"undecided: {o.reason}" + _at(o))
    if o.assumptions:
        print("the deal is the seed's except:")
        for span, text in o.assumptions[:8]:
            print(f"  {span}: {text}" if span else f"  {text}")
        if len(o.assumptions) > 8:
            print(f"  … and {len(o.assumptions) - 8} more")
    else:
        print(f"the deal: the state file's ({args.start}: its piles' order and random source), followed throughout"
              if args.start is not None else f"the deal: the seed's ({args.seed}), followed throughout")
    if o.branches:
        print(f"split at the first {args.split} decisions: {o.branches} searches"
              + (f" ({o.replay_note})" if o.status == "reached" and o.confirmed and o.replay_note else ""))
    print(f"CPU time: {o.seconds:.2f} s, {o.questions} Z3 questions while unrolling")
