"""The `rulebook` command.

Every command exits with the same codes (docs/cli.md): 0 done (clean, legal, the same game…), 1 a finding
(errors in the spec, an illegal move, an unresolved conflict, a game that differs from its log), 2 bad input
or command line (or an output that cannot be written), 3 an internal error (a bug of ours: no input makes it
print a Python traceback), 4 undecided (Z3 could not answer), 130 interrupted (Ctrl-C, or « q » in a game).
``--json`` makes the standard output one JSON document (:mod:`checker.base.terminal`), ``--color`` and
``NO_COLOR`` decide colour, and long work draws a progress bar on a terminal only.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from importlib import import_module

from checker.base import terminal
from checker.base.output import GuardedStdout, StdoutFailed, silence_stdout

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


class _Version(argparse.Action):
    """``--version``: the installed version, looked up only when asked (reading the package metadata costs a
    tenth of a second that every other command would pay)."""

    def __init__(self, option_strings, dest=argparse.SUPPRESS, default=argparse.SUPPRESS, help=None):
        super().__init__(option_strings, dest=dest, default=default, nargs=0,
                         help=help or "show the program's version number and exit")

    def __call__(self, parser, namespace, values, option_string=None):
        print(f"rulebook {_version()}")         # on the standard output, as argparse's own version action
        parser.exit()


# The features whose commands `rulebook` offers, in the order `rulebook --help` lists them: each module's
# ``add_parsers(new_command)`` makes its subcommands' parsers and returns {command: handler(args) -> exit code}.
# Each imports what its commands run only when they run, so that `rulebook --help` starts fast.
FEATURES = ("checker.front.command",       # check, configs
            "checker.play.command",        # play, replay
            "checker.solver.command",      # legal, moves
            "checker.conflicts.command",   # conflicts
            "checker.simulate.command",    # simulate
            "checker.fuzz.command",        # fuzz
            "checker.lsp.command",         # lsp
            "checker.diff.command",        # diff
            "checker.scenario.command",    # eval, score, apply
            "checker.reach.command",       # reach
            "checker.examples.command")    # test

# the commands that ask Z3: a broken Z3 installation is said once, before any of them runs
_SOLVER_COMMANDS = ("legal", "moves", "conflicts", "diff", "apply", "reach")


def _common() -> argparse.ArgumentParser:
    """The options every command that prints for people shares."""
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--color", choices=terminal.COLOR_CHOICES, default="auto",
                        help="colour the output: auto (on a terminal, unless NO_COLOR is set), always or never")
    return common


def _parser() -> tuple[argparse.ArgumentParser, dict]:
    """The parser of every command, and each command's handler."""
    parser = argparse.ArgumentParser(
        prog="rulebook", epilog=_EPILOG,
        description="Check, play and publish board-game rules written in the Rulebook language.")
    parser.add_argument("--version", action=_Version)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    common = _common()
    handlers: dict = {}

    def new_command(name: str, plain: bool = False, **kwargs) -> argparse.ArgumentParser:
        """A subcommand's parser: with --color and the exit codes in its epilog (``plain``: neither)."""
        if plain:
            return sub.add_parser(name, **kwargs)
        kwargs.setdefault("epilog", _EPILOG)
        return sub.add_parser(name, parents=[common], **kwargs)

    for feature in FEATURES:
        if feature == "checker.lsp.command":        # `completion` is listed before `lsp`
            completion = sub.add_parser("completion", help="print a shell completion script (bash, zsh or tcsh)",
                                        description="Print the completion script of `rulebook` for SHELL.  Bash: "
                                                    "rulebook completion bash > ~/.local/share/bash-completion/"
                                                    "completions/rulebook; zsh: rulebook completion zsh > "
                                                    "\"${fpath[1]}/_rulebook\".")
            completion.add_argument("shell", choices=("bash", "zsh", "tcsh"), help="the shell")
            handlers["completion"] = lambda args: _completion(parser, args.shell)
        handlers.update(import_module(feature).add_parsers(new_command))
    return parser, handlers


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
    parser, handlers = _parser()
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
            code = _dispatch(handlers, args)
            failure = None if channel.emitted else terminal.json_failure(args.command, code)
        if failure is not None:
            terminal.emit_json(failure)
        return code
    return _dispatch(handlers, args)


def _dispatch(handlers: dict, args) -> int:
    if args.command in _SOLVER_COMMANDS:
        from checker.solver.factory import environment_problem, steady_collector
        problem = environment_problem()
        if problem:
            print(f"rulebook {args.command}: {problem}", file=sys.stderr)
            return 2
        steady = steady_collector()
    else:
        steady = contextlib.nullcontext()
    try:
        with steady:
            return handlers[args.command](args)
    except KeyboardInterrupt:
        print("rulebook: interrupted", file=sys.stderr)
        return 130
    except StdoutFailed:
        raise
    except Exception as exc:  # a bug of ours, never the user's input: say so plainly
        print(f"rulebook: internal error ({type(exc).__name__}: {str(exc)[:300]}); please report it with the input "
              f"that caused it", file=sys.stderr)
        return 3


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
