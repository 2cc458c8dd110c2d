"""The `rulebook` command.

Every command exits with the same codes (docs/cli.md): 0 done (clean, legal, the same game…), 1 a finding
(errors in the spec, an illegal move, an unresolved conflict, a game that differs from its log), 2 bad input
or command line (or an output that cannot be written), 3 an internal error (a bug of ours: no input makes it
print a Python traceback), 4 undecided (Z3 could not answer), 130 interrupted (Ctrl-C, or « q » in a game).
``--json`` makes the standard output one JSON document (:mod:`checker.terminal`), ``--color`` and
``NO_COLOR`` decide colour, and long work draws a progress bar on a terminal only.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from checker import terminal
from checker.terminal import completes as _complete
from checker.diagnostics import render_human, render_short
from checker.output import GuardedStdout, StdoutFailed, silence_stdout

__all__ = ["main", "EXIT_CODES"]

EXIT_CODES = {0: "done: clean, legal, the same game, nothing unresolved",
              1: "a finding: errors in the spec, an illegal move, an unresolved conflict, a game that differs",
              2: "bad input or command line, or an output that cannot be written",
              3: "internal error (a bug of ours; please report it)",
              4: "undecided: Z3 could not answer a question (each is listed)",
              130: "interrupted (Ctrl-C, or « q » in a game played at the terminal)"}

_EPILOG = "exit codes: " + "; ".join(f"{code} {what.split(':')[0]}" for code, what in EXIT_CODES.items()) + \
          ".  See docs/cli.md."


def _version() -> str:
    try:
        from importlib.metadata import version
        return version("rulebook")
    except Exception:               # not installed (run from a source tree)
        return "unknown"


def _common() -> argparse.ArgumentParser:
    """The options every command that prints for people shares."""
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--color", choices=terminal.COLOR_CHOICES, default="auto",
                        help="colour the output: auto (on a terminal, unless NO_COLOR is set), always or never")
    return common


def _spec_arguments(command) -> None:
    _complete(command.add_argument("spec", type=Path, help="the spec directory (or one .rules file)"), "file")
    _complete(command.add_argument("more", type=Path, nargs="*", help="overlay or house-rule files checked with it"),
              "file")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="rulebook", epilog=_EPILOG,
        description="Check, play and publish board-game rules written in the Rulebook language.")
    parser.add_argument("--version", action="version", version=f"rulebook {_version()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    common = _common()

    def new_command(name: str, **kwargs) -> argparse.ArgumentParser:
        kwargs.setdefault("epilog", _EPILOG)
        return sub.add_parser(name, parents=[common], **kwargs)

    check = new_command("check", help="check that a spec is well-formed",
                    description="Parse, resolve and type-check a spec and its overlays; "
                                "report every problem like a compiler.")
    _spec_arguments(check)
    check.add_argument("--json", action="store_true", help="print a machine-readable summary")
    check.add_argument("--format", choices=("human", "short"), default="human",
                       help="human: source line and caret; short: one line per problem (for editors and CI)")
    check.add_argument("--quiet", "-q", action="store_true", help="print problems only, no summary line")
    configs = new_command("configs", help="list the configurations, the player counts they allow and their cards",
                      description="List each configuration of the spec: the player counts it allows, its cards by "
                                  "kind (as it selects them at each count), and for each count of the game it "
                                  "refuses, why: the configuration's own players field, or the spec's constraints "
                                  "that its selection would break (with what breaks them).")
    _spec_arguments(configs)
    configs.add_argument("--players", "-n", type=int, help="only this player count")
    configs.add_argument("--config", "-c", help="only this configuration")
    configs.add_argument("--json", action="store_true", help="machine-readable output (see docs/cli.md)")
    play = new_command("play", help="play one seeded game: built-in agents, or you at a seat (--human)",
                   description="Check the spec, then play a complete game and print its log in French.")
    _spec_arguments(play)
    play.add_argument("--players", "-n", type=int, required=True, help="number of players")
    play.add_argument("--seed", "-s", type=int, default=0, help="random seed (the same seed gives the same game)")
    play.add_argument("--config", "-c", required=True, help="a named configuration of the spec")
    play.add_argument("--json", metavar="FILE", nargs="?", const="-",
                      help="the full log (every decision point) as JSON: on the standard output, or written to FILE")
    play.add_argument("--quiet", "-q", action="store_true", help="print only the scores and the winner")
    play.add_argument("--add", metavar="CARDS", help="cards added to the configuration, comma-separated "
                                                     "(the spec's constraints judge the result)")
    play.add_argument("--remove", metavar="CARDS", help="cards removed from the configuration, comma-separated")
    play.add_argument("--agent", choices=("random", "greedy", "montecarlo"), default="random",
                      help="the built-in players: uniformly random, a simple greedy builder, or Monte-Carlo playouts "
                           "over the hidden cards (see docs/simulate.md)")
    play.add_argument("--human", metavar="SEAT", type=int,
                      help="seat SEAT (1 = first player) is played by you at the terminal, in the book's French; "
                           "the others by --agent (type ? for help, q to leave)")
    _complete(play.add_argument("--lexicon", metavar="FILE",
                                help="the book's wording for --human (default: the lexicon the nearest rulebook.toml "
                                     "above the spec names)"), "file")
    replay = new_command("replay", help="play a logged game again and check it is the same",
                            description="Re-check the spec named in a log written by `rulebook play --json`, play "
                                        "the game again with the logged choices, and check that every decision "
                                        "is offered the same options in the same state, and the scores are the "
                                        "same.  Exit codes: 0 same game, 1 the game differs (or the spec has "
                                        "errors), 2 the file is not a game log.")
    _complete(replay.add_argument("log", metavar="FILE", help="a JSON log written by `rulebook play --json FILE`"),
              "file")
    replay.add_argument("--json", action="store_true", help="machine-readable result (see docs/cli.md)")
    for command in (play, replay):
        command.add_argument("--state-at", nargs=2, metavar=("N", "FILE"),
                             help="write the state at the N-th decision (as numbered in the log) to FILE, for "
                                  "`rulebook legal` and `rulebook moves`")
        command.add_argument("--force", action="store_true", help="replace output files that already exist")
    legal = new_command("legal", help="is a move legal in a state, and if not, which rules forbid it?",
                           description="Decide with Z3 whether MOVE is legal at the decision point of STATE. "
                                       "Illegal: the smallest set of rules (and other conditions of the spec) that "
                                       "forbid it, with their spec lines and the rulebook sentences they encode. "
                                       "Legal: the rules that permit it.  Exit codes: 0 legal, 1 illegal, 2 bad "
                                       "input, 4 the solver could not decide.")
    _complete(legal.add_argument("state", metavar="STATE", help="a state file (rulebook play/replay --state-at)"),
              "file")
    _complete(legal.add_argument("move", metavar="MOVE", help="a move file (see docs/formats.md)"), "file")
    moves = new_command("moves", help="list every legal move in a state (computed with Z3)",
                           description="Enumerate with Z3 every legal move at the decision point of STATE.  "
                                       "With --json, each move is written in the move-file format.")
    _complete(moves.add_argument("state", metavar="STATE", help="a state file (rulebook play/replay --state-at)"),
              "file")
    conflicts = new_command("conflicts", help="find where the rules disagree, with a witness",
                               description="Search with Z3, over bounded symbolic states, for contradictions "
                                           "(a permission and a prohibition that apply together with no precedence), "
                                           "competing values, order-dependent reactions, dead rules and dangling "
                                           "references.  Each finding names both rules with their spec lines and the "
                                           "rulebook sentences they encode, and a witness situation.  Exit codes: "
                                           "0 nothing unresolved, 1 unresolved conflicts (or errors in the spec), "
                                           "2 bad input, 4 nothing "
                                           "proven unresolved but Z3 could not decide some question (each is listed "
                                           "under 'undecided' with Z3's reason; RULEBOOK_Z3_TIMEOUT_MS and "
                                           "RULEBOOK_Z3_RLIMIT raise the solver's limits).")
    _spec_arguments(conflicts)
    conflicts.add_argument("--all-rules", action="store_true", help="with house-rule or overlay files, search every "
                                                                    "question of the spec, not only those involving them")
    conflicts.add_argument("--effects", action="store_true", help="also search effect failures: a legal move whose "
                                                                  "effect cannot complete (a transfer beyond what a "
                                                                  "counter holds, only(…) not finding one element…)")
    conflicts.add_argument("--players", type=int, help="search states of this player count only (default: every "
                                                        "count the game allows, at once)")
    _complete(conflicts.add_argument("--witnesses", metavar="DIR", help="write each witness as a state file (and a "
                                                                         "move file) in DIR, for `rulebook legal`"),
              "dir")
    conflicts.add_argument("--force", action="store_true", help="write the witnesses into DIR even if it already "
                                                                "holds witness files (replacing those of the same name)")
    conflicts.add_argument("--all", action="store_true", help="also list the conflicts the spec resolves")
    conflicts.add_argument("--json", action="store_true", help="machine-readable output")
    conflicts.add_argument("--workers", "-j", type=int, help="processes running the Z3 queries (default: every "
                                                               "core; the findings are the same)")
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
    _spec_arguments(simulate)
    simulate.add_argument("-n", "--games", type=int, default=1000, help="games per rule set (default 1000)")
    simulate.add_argument("--players", "-p", type=int,
                          help="number of players (default 4, or the smallest count the game allows)")
    simulate.add_argument("--config", "-c", help="a named configuration (default: the spec's first for that "
                                                 "player count)")
    simulate.add_argument("--add", metavar="CARDS", help="cards added to the configuration, comma-separated")
    simulate.add_argument("--remove", metavar="CARDS", help="cards removed from the configuration, comma-separated")
    simulate.add_argument("--agent", default="greedy", metavar="AGENTS",
                          help="agents by seat, comma-separated, repeated to fill the seats (random, greedy, "
                               "montecarlo; default greedy)")
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
    completion = sub.add_parser("completion", help="print a shell completion script (bash, zsh or tcsh)",
                                description="Print the completion script of `rulebook` for SHELL.  Bash: "
                                            "rulebook completion bash > ~/.local/share/bash-completion/completions/"
                                            "rulebook; zsh: rulebook completion zsh > \"${fpath[1]}/_rulebook\".")
    completion.add_argument("shell", choices=("bash", "zsh", "tcsh"), help="the shell")
    lsp = sub.add_parser("lsp", help="run the language server an editor talks to (over stdin and stdout)",
                         description="Serve the Language Server Protocol over stdin and stdout: diagnostics as you "
                                     "type, hover (the book's French prose and the rulebook's sentences), go to "
                                     "definition, references, completion and the outline of .rules files.  An editor "
                                     "starts it; see docs/editor.md.  Needs the lsp extra: pip install 'rulebook[lsp]'.")
    lsp.add_argument("--stdio", action="store_true", help="use stdin and stdout (the default and only transport)")
    from checker.diff.command import add_parser as add_diff
    from checker.scenario import add_parsers as add_scenarios
    add_diff(new_command)
    add_scenarios(new_command)
    from checker.solver.commands import state_options
    for command in (legal, moves):
        state_options(command)
    return parser


def _summary_line(result) -> str:
    counts = result.program.counts()
    cards = ", ".join(f"{n} {kind}" for kind, n in counts["cards"].items()) or "no cards"
    errors = len(result.reporter.errors)
    warnings = len(result.reporter.diagnostics) - errors
    state = "ok" if errors == 0 else f"{errors} error(s)"
    return (f"{state}, {warnings} warning(s): {cards}; {counts['rules']} rules, "
            f"{counts['powers']} powers, {counts['configurations']} configurations "
            f"({len(result.program.files)} files)")


def _check(args) -> int:
    from checker.check import check_paths
    result = check_paths([args.spec, *args.more])
    diagnostics = result.reporter.sorted()
    if args.json:
        summary = {
            "command": "check",
            "ok": result.ok,
            "exit_code": 0 if result.ok else 1,
            "files": result.program.files,
            "counts": result.program.counts(),
            "configurations": result.configurations,
            "diagnostics": [d.to_json() for d in diagnostics],
        }
        terminal.emit_json(summary)
    else:
        getattr(sys.stdout, "reconfigure", lambda **_: None)(errors="backslashreplace")  # a non-UTF-8 terminal
        if args.format == "short":
            sys.stdout.write(render_short(diagnostics))
        else:
            if diagnostics:
                sys.stdout.write(render_human(diagnostics, result.sources, color=terminal.colored()) + "\n")
        if not args.quiet:
            print(_summary_line(result))
    return 0 if result.ok else 1


def _lsp() -> int:
    try:
        from checker.lsp.server import main as serve
    except ImportError as exc:
        print(f"rulebook lsp: the language server needs pygls ({exc.name} is missing); install it with "
              f"pip install 'rulebook[lsp]'", file=sys.stderr)
        return 2
    return serve()


def main(argv: list[str] | None = None) -> int:
    """Run one command; its exit code.  A standard output that cannot be written (closed, a full disk, a reader
    that went away) ends it with a message on stderr and exit code 2."""
    real = sys.stdout
    if real is None:                   # started with its standard output closed
        print("rulebook: the standard output is closed; nothing could be printed", file=sys.stderr)
        return 2
    sys.stdout = GuardedStdout(real)
    try:
        code = _run(argv)
        sys.stdout.flush()
        return code
    except StdoutFailed as exc:
        if real is sys.__stdout__:
            silence_stdout()
        try:
            print(f"rulebook: cannot write to the standard output ({exc.reason})", file=sys.stderr)
        except (OSError, ValueError):
            pass
        return 2
    finally:
        sys.stdout = real


def _run(argv: list[str] | None) -> int:
    from checker.diff.command import split_sides
    parser = _parser()
    argv = sys.argv[1:] if argv is None else list(argv)
    try:
        args = parser.parse_args(split_sides(argv))
    except SystemExit as exc:          # argparse: --help and --version are 0, usage errors are 2
        code = int(exc.code or 0)
        if code and "--json" in argv:
            terminal.emit_json({"command": next((a for a in argv if not a.startswith("-")), None), "ok": False,
                                "exit_code": code, "error": "bad command line (see the message on stderr)"})
        return code
    if args.command is None:
        parser.print_help(sys.stderr)
        return 2
    terminal.set_color(getattr(args, "color", None))
    if getattr(args, "json", None) in (True, "-"):          # --json without a file: stdout is the JSON document
        with terminal.json_channel() as channel:
            code = _dispatch(parser, args)
            failure = None if channel.emitted else terminal.json_failure(args.command, code)
        if failure is not None:
            terminal.emit_json(failure)
        return code
    return _dispatch(parser, args)


def _dispatch(parser, args) -> int:
    if args.command in ("legal", "moves", "conflicts", "diff", "apply"):
        from checker.solver.factory import environment_problem
        problem = environment_problem()
        if problem:
            print(f"rulebook {args.command}: {problem}", file=sys.stderr)
            return 2
    try:
        if args.command == "check":
            return _check(args)
        if args.command == "configs":
            from checker.configs import configs_command
            return configs_command(args)
        if args.command == "play":
            from checker.play import play_command
            return play_command(args)
        if args.command == "replay":
            from checker.play import replay_command
            return replay_command(args)
        if args.command == "conflicts":
            from checker.conflicts_command import conflicts_command
            return conflicts_command(args)
        if args.command == "simulate":
            from checker.simulate.command import simulate_command
            return simulate_command(args)
        if args.command == "legal":
            from checker.solver.commands import legal_command
            return legal_command(args)
        if args.command == "moves":
            from checker.solver.commands import moves_command
            return moves_command(args)
        if args.command == "completion":
            return _completion(parser, args.shell)
        if args.command == "lsp":
            return _lsp()
        if args.command in ("eval", "score", "apply"):
            from checker import scenario
            return getattr(scenario, f"{args.command}_command")(args)
        if args.command == "diff":
            from checker.diff.command import diff_command
            return diff_command(args)
    except KeyboardInterrupt:
        print("rulebook: interrupted", file=sys.stderr)
        return 130
    except StdoutFailed:
        raise
    except Exception as exc:  # a bug of ours, never the user's input: say so plainly
        print(f"rulebook: internal error ({type(exc).__name__}: {str(exc)[:300]}); please report it with the input "
              f"that caused it", file=sys.stderr)
        return 3
    return 2


def _completion(parser, shell: str) -> int:
    try:
        import shtab
    except ImportError:
        print("rulebook completion: needs shtab (pip install shtab)", file=sys.stderr)
        return 2
    sys.stdout.write(shtab.complete(parser, shell=shell))
    return 0


if __name__ == "__main__":
    sys.exit(main())
