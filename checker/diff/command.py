"""The `rulebook diff` command: its options, its report, its witness files.

    rulebook diff SPEC [OVERLAY…] --with OVERLAY…        B is A with more overlays
    rulebook diff SPEC [OVERLAY…] -- SPEC [OVERLAY…]     any two rule sets (also: --against)

Exit codes: 0 equivalent, 1 different (or a rule set with errors), 2 bad input, 4 undecided (Z3 could not
decide some search, and nothing else differs).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from checker.base import terminal
from checker.base.output import OutputError, plan, plan_directory, write_json, write_text

if TYPE_CHECKING:
    from checker.diff.run import DiffResult
    from checker.diff.semantic import Difference

__all__ = ["add_parsers", "diff_command", "render", "write_witnesses", "split_sides"]

_GROUPS = (("legality", "legality"), ("value", "values"), ("order", "reaction order"),
           ("effect", "effects (procedures, actions and powers)"), ("power", "powers"), ("card", "cards"),
           ("configuration", "configurations"), ("constraint", "constraints"), ("game", "game"),
           ("table", "tables"), ("rule", "rules"), ("precedence", "precedences"), ("declaration", "declarations"))


def add_parsers(new_command) -> dict:
    """The `diff` command's parser, made by the CLI's ``new_command`` (which gives it --color and the exit codes)."""
    diff = new_command(
        "diff", help="what changes between two rule sets, with witnesses",
        description="Compare two rule sets (each a spec directory and overlay files): every declaration "
                    "they have differently, and — searched with Z3 over the states both can be in — every "
                    "action whose legality changes, every quantity whose value changes and every pair of "
                    "reactions whose order changes, each with a minimal witness state.  B is A with the "
                    "--with files, or the paths after `--` (or --against).  Exit codes: 0 equivalent, "
                    "1 different (or a rule set with errors), 2 bad input, 4 undecided.")
    completes = terminal.completes
    completes(diff.add_argument("spec", type=Path, help="rule set A: the spec directory"), "file")
    completes(diff.add_argument("more", type=Path, nargs="*", help="rule set A: overlay or house-rule files"), "file")
    completes(diff.add_argument("--with", dest="with_", type=Path, nargs="+", metavar="OVERLAY",
                                help="rule set B is A with these overlay files too"), "file")
    completes(diff.add_argument("--against", type=Path, nargs="+", metavar="PATH",
                                help="rule set B: a spec directory and its overlays (the same as after `--`)"), "file")
    completes(diff.add_argument("--witnesses", metavar="DIR",
                                help="write each witness as state files (and move files) for both sides in DIR, and "
                                     "the legality and value differences as `example` blocks on B (DIR/examples.rules)"),
              "dir")
    diff.add_argument("--force", action="store_true", help="overwrite witness files that already exist")
    diff.add_argument("--all", action="store_true", help="also list every change that changes no game, "
                                                         "and the whole source of changed declarations")
    diff.add_argument("--first", action="store_true", help="stop at the first legality, value or order difference "
                                                           "(enough to tell different from equivalent, in CI)")
    diff.add_argument("--json", action="store_true", help="machine-readable output")
    diff.add_argument("--workers", "-j", type=int, default=1,
                      help="processes running the Z3 searches (default 1; the differences and verdicts are the same, "
                           "a witness may be another state as small)")
    diff.add_argument("--cluster", metavar="ADDRESS",
                      help="run the Z3 searches on the Dask scheduler at ADDRESS (tcp://host:8786), a share per "
                           "worker thread. Needs pip install 'rulebook[cluster]'")
    return {"diff": diff_command}


def split_sides(argv: list[str]) -> list[str]:
    """``diff A… -- B…`` is ``diff A… --against B…`` (argparse drops a bare ``--``)."""
    if argv and argv[0] == "diff" and "--" in argv:
        at = argv.index("--")
        return argv[:at] + ["--against"] + argv[at + 1:]
    return argv


def diff_command(args) -> int:
    a = [args.spec, *args.more]
    if (args.with_ is None) == (args.against is None):
        print("rulebook diff: say what B is: `--with OVERLAY…` (A plus overlays) or `-- SPEC [OVERLAY…]`",
              file=sys.stderr)
        return 2
    b = a + list(args.with_) if args.with_ else list(args.against)
    for path in a + b:
        if not path.exists():
            print(f"rulebook diff: no such file or directory '{path}'", file=sys.stderr)
            return 2
    from checker.base.parallel import ClusterError, refused
    problem = refused(args.workers, args.cluster)
    if problem:
        print(f"rulebook diff: {problem}", file=sys.stderr)
        return 2
    if args.witnesses:                         # refuse before the search rather than after it
        try:
            plan_directory(args.witnesses, "*.json", args.force)
            if Path(args.witnesses).is_dir():
                plan([Path(args.witnesses) / "examples.rules"], args.force)
        except OutputError as exc:
            print(f"rulebook diff: {exc}; nothing was written", file=sys.stderr)
            return 2
    from checker.diff.run import diff_paths
    try:
        outcome = diff_paths(a, b, first=args.first, workers=args.workers, cluster=args.cluster)
    except ClusterError as exc:
        print(f"rulebook diff: {exc}", file=sys.stderr)
        return 2
    if isinstance(outcome, tuple):
        tag, result = outcome
        from checker.base.diagnostics import render_human
        sys.stdout.write(render_human(result.reporter.sorted(), result.sources, color=terminal.colored()) + "\n")
        print(f"rulebook diff: rule set {tag.upper()} has {len(result.reporter.errors)} error(s): fix them first",
              file=sys.stderr)
        return 1
    result: DiffResult = outcome
    if args.witnesses:
        try:
            write_witnesses(result, Path(args.witnesses), args.force)
        except OutputError as exc:
            print(f"rulebook diff: {exc}", file=sys.stderr)
            return 2
    code = {"equivalent": 0, "different": 1}.get(result.status, 4)
    if args.json:
        terminal.emit_json({"command": "diff", "ok": code == 0, "exit_code": code, **result.as_json()})
    else:
        getattr(sys.stdout, "reconfigure", lambda **_: None)(errors="backslashreplace")
        print(render(result, verbose=args.all))
    return code


# ---------------------------------------------------------------- witness files

def _stem(i: int, d: Difference) -> str:
    text = re.sub(r"[^\w.-]+", "-", d.subject, flags=re.UNICODE).strip("-")
    return f"{i:02d}-{text}"[:70]


def write_witnesses(result: DiffResult, folder: Path, force: bool) -> None:
    """For each difference with a witness: ``NN-subject.a.state.json``, ``….b.state.json`` (and the move
    files of a legality difference), and ``examples.rules``: the legality and value differences as `example`
    blocks on rule set B (:func:`checker.solver.as_example.diff_examples`).  Existing files are refused unless
    ``force`` (an :class:`OutputError`), before anything is written."""
    from checker.front.check import check_paths
    from checker.solver.as_example import EXAMPLES_FILE, diff_examples
    files: list[tuple[Path, dict]] = []
    for i, d in enumerate((x for x in result.differences if x.witness), 1):
        stem = _stem(i, d)
        d.files = []
        for tag in ("a", "b"):
            if d.witness[tag] is None:      # no decision point to write it at: the situation says it
                continue
            files.append((folder / f"{stem}.{tag}.state.json", d.witness[tag]))
            d.files.append(str(folder / f"{stem}.{tag}.state.json"))
            if d.move:
                files.append((folder / f"{stem}.{tag}.move.json", d.move[tag]))
                d.files.append(str(folder / f"{stem}.{tag}.move.json"))
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(f"cannot make the directory {folder}: {exc.strerror or exc}") from None
    examples = diff_examples(check_paths(list(result.b)), result.differences)
    plan([path for path, _ in files] + ([folder / EXAMPLES_FILE] if examples else []), force)
    for path, data in files:
        write_json(path, data, force)
    if examples:                           # the same witnesses as `example` blocks, to paste into a house-rule file
        write_text(folder / EXAMPLES_FILE, examples, force)


# ---------------------------------------------------------------- the report

def _paths(paths: list[Path]) -> str:
    return " + ".join(str(p) for p in paths)


def render(result: DiffResult, verbose: bool = False) -> str:
    lines = [f"A = {_paths(result.a)}", f"B = {_paths(result.b)}"]
    behavioural, neutral, undecided = result.behavioural, result.neutral, result.undecided
    kinds = {}
    for d in behavioural:
        kinds[d.kind] = kinds.get(d.kind, 0) + 1
    summary = ", ".join(f"{n} {k}" for k, n in kinds.items())
    lines.append(f"{result.status}: {len(behavioural)} behavioural difference(s)"
                 + (f" ({summary})" if summary else "")
                 + f"; {len(neutral)} change(s) that change no game; {len(undecided)} undecided")
    lines.append(f"searched with Z3 over states of {result.players[0]} to {result.players[1]} players: "
                 f"{result.checked.get('actions', 0)} action(s), {result.checked.get('quantities', 0)} "
                 f"quantit{'y' if result.checked.get('quantities', 0) == 1 else 'ies'}, "
                 f"{result.checked.get('effects', 0)} effect(s) ({result.queries} queries, "
                 f"{result.unknowns} unknown, {result.seconds:.1f} s)")
    for kind, title in _GROUPS:
        group = [d for d in behavioural if d.kind == kind]
        if not group:
            continue
        lines += ["", f"{title} ({len(group)})"]
        if kind == "card":
            lines += _cards(group)
            continue
        for d in group:
            lines += _describe(d, verbose)
    if undecided:
        lines += ["", f"undecided ({len(undecided)})"]
        for d in undecided:
            lines += [f"  {d.message}"]
    if neutral:
        lines += ["", f"changes that change no game ({len(neutral)})" + ("" if verbose else ": --all lists them")]
        if verbose:
            for d in neutral:
                lines += _describe(d, verbose)
        else:
            counts = {}
            for d in neutral:
                counts[d.kind] = counts.get(d.kind, 0) + 1
            lines.append("  " + ", ".join(f"{n} {k}" for k, n in sorted(counts.items())))
    return "\n".join(lines)


def _cards(group: list[Difference]) -> list[str]:
    out = []
    for side in ("a", "b"):
        only = [d for d in group if d.sides.get("only") == side]
        by_kind: dict[str, list[str]] = {}
        for d in only:
            by_kind.setdefault(d.sides["kind"], []).append(d.subject.split(" ", 1)[1])
        for kind, names in by_kind.items():
            out.append(f"  only in {side.upper()}: {len(names)} {kind}: {', '.join(names)}")
    for d in group:
        if "only" not in d.sides:
            out.append(f"  {d.message}")
    return out


def _describe(d: Difference, verbose: bool) -> list[str]:
    out = [f"  {d.message}"]
    out += [f"    {x}" for x in d.details]
    if d.situation:
        shown = d.situation[:12]
        out.append("    witness: " + "; ".join(x.strip() for x in shown) + (" …" if len(d.situation) > 12 else ""))
    if d.confirmed is not None:
        out.append(f"    the interpreter, on the witness: {'agrees' if d.confirmed else 'DOES NOT AGREE'}")
    for path in d.files:
        out.append(f"    written: {path}")
    if d.excerpt and (verbose or d.behavioural):
        shown = d.excerpt if verbose else d.excerpt[:16]
        out += [f"    {x}" for x in shown]
        if len(d.excerpt) > len(shown):
            out.append("    … (--all shows the whole change)")
    return out
