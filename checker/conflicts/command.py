"""`rulebook conflicts SPEC [MORE…]`: the search of :mod:`checker.conflicts.questions` (on every core, scoped to the
house-rule files given after the spec unless ``--all-rules``), its findings printed or as JSON, and its
witnesses written as state and move files, and as `example` blocks (``examples.rules``)."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from checker.base.terminal import completes, spec_arguments

if TYPE_CHECKING:         # names in annotations only: imported where they run
    from checker.conflicts.questions import Finding

__all__ = ["conflicts_command"]

_TITLES = {"contradiction": "contradiction", "competing-values": "competing values", "order": "order dependence",
           "effect-failure": "effect failure", "lifted": "prohibition lifted by a card's state",
           "invariant-broken": "invariant broken",
           "dead-rule": "dead rule", "dangling": "dangling reference",
           "escape": "action escaping a rule about its category", "resolved": "resolved",
           "unknown": "undecided"}


def conflicts_command(args) -> int:
    """`rulebook conflicts SPEC [MORE…]`: exit 0 when nothing is unresolved, 1 when something is (or the spec
    has errors), 2 on bad input (a bad option, witnesses that cannot be written), 4 when nothing is proven
    unresolved but Z3 could not decide some question (each is listed, with Z3's reason and the rules
    concerned)."""
    from checker.solver.statefile import player_range
    import sys
    from pathlib import Path

    from checker.base import terminal
    from checker.front.check import checked_spec
    from checker.base.output import OutputError, plan, plan_directory, write_json, write_text
    from checker.solver.as_example import EXAMPLES_FILE, conflict_examples
    force = args.force
    if args.witnesses:
        try:
            plan_directory(args.witnesses, "*.json", force)
            if Path(args.witnesses).is_dir():
                plan([Path(args.witnesses) / EXAMPLES_FILE], force)
        except OutputError as exc:
            print(f"rulebook conflicts: {exc}", file=sys.stderr)
            return 2
    result = checked_spec("conflicts", [args.spec, *args.more])
    if result is None:
        return 1
    low, high = player_range(result.program)
    if args.players is not None and not low <= args.players <= high:
        print(f"rulebook conflicts: --players must be from {low} to {high}", file=sys.stderr)
        return 2
    start = time.perf_counter()
    from checker.conflicts.parallel import search_all
    from checker.base.parallel import cores
    workers = args.workers or cores()
    from checker.base.parallel import ClusterError, refused
    problem = refused(workers, args.cluster)
    if problem:
        print(f"rulebook conflicts: {problem}", file=sys.stderr)
        return 2
    shipped = None
    if args.cluster is not None:
        from checker.front.shipped import ship
        try:
            shipped = ship([args.spec, *args.more], result)
        except (OSError, ValueError) as exc:
            print(f"rulebook conflicts: cannot send the spec to the cluster: {exc}", file=sys.stderr)
            return 2
    scope = None
    if args.more and not args.all_rules:
        from checker.front.check import spec_files
        from checker.conflicts.scope import Scope
        from checker.base.diagnostics import Reporter
        scope = Scope(result, [f for path in args.more for f in spec_files(path, Reporter())])
    bar: list = []

    def advance(done: int, total: int) -> None:
        if not bar:
            bar.extend(terminal.progress(total, "search", "conflicts"))
        bar[0](done)
    try:
        from checker.conflicts.parallel import SEARCHES, WITH_EFFECTS
        findings, search = search_all(result.typed, [args.spec, *args.more], args.players, workers,
                                      methods=WITH_EFFECTS if getattr(args, "effects", False) else SEARCHES,
                                      scope=scope, progress=advance, cluster=args.cluster, shipped=shipped)
    except ClusterError as exc:
        print(f"rulebook conflicts: {exc}", file=sys.stderr)
        return 2
    finally:
        if bar:
            bar[1]()
    elapsed = time.perf_counter() - start
    for f in findings:
        if f.witness is not None:
            f.witness = {**f.witness, "spec": [str(args.spec), *map(str, args.more)]}
    if args.witnesses:
        folder = Path(args.witnesses)
        try:
            folder.mkdir(parents=True, exist_ok=True)
            for i, f in enumerate(findings, 1):
                if f.witness is not None:
                    stem = f"{i:02d}-{'-'.join(f.rules)}"[:80].replace('"', "").replace("/", "_")
                    f.files = []
                    for suffix, document in (("state", f.witness), ("move", f.move)):
                        if document is not None:
                            target = folder / f"{stem}.{suffix}.json"
                            write_json(target, document, force)
                            f.files.append(str(target))
            examples = conflict_examples(result, findings)
            if examples:                   # the same witnesses as `example` blocks, to paste into a house-rule file
                write_text(folder / EXAMPLES_FILE, examples, force)
        except OSError as exc:
            print(f"rulebook conflicts: cannot write witnesses to {folder}: {exc.strerror or exc}", file=sys.stderr)
            return 2
        except OutputError as exc:
            print(f"rulebook conflicts: {exc}", file=sys.stderr)
            return 2
    unresolved = [f for f in findings if f.unresolved]
    undecided = [f for f in findings if f.kind == "unknown"]
    if args.json:
        code = 1 if unresolved else 4 if undecided else 0
        terminal.emit_json({"command": "conflicts", "ok": code == 0, "exit_code": code,
                            "unresolved": len(unresolved), "undecided": len(undecided),
                            "queries": search.queries, "unknowns": search.unknowns,
                            "questions": search.questions, "searched": search.asked,
                            "involving": [str(f) for f in scope.files] if scope is not None else None,
                            "seconds": round(elapsed, 2), "players": args.players,
                            "invariants": search.inductive or None,
                            "findings": [dict(f.as_json(), files=getattr(f, "files", None)) for f in findings]})
    else:
        order = ["contradiction", "competing-values", "order", "effect-failure", "lifted", "invariant-broken",
                 "unknown", "dead-rule", "dangling", "escape", "resolved"]
        for kind in order:
            group = [f for f in findings if f.kind == kind]
            if not group or (kind == "resolved" and not args.all):
                continue
            colour = "red" if kind in ("contradiction", "competing-values", "order", "effect-failure", "lifted",
                                       "invariant-broken") else "bold"
            print(f"\n{terminal.paint(_TITLES[kind], colour)} ({len(group)})")
            for f in group:
                print(_describe(result, f))
        resolved = sum(f.kind == "resolved" for f in findings)
        escaping = sum(f.kind == "escape" for f in findings)
        illegal = sum(f.illegal for f in unresolved)
        if scope is not None and not scope.everything and search.asked == 0 and not findings:
            # no question involves the files: "0 unresolved" would read as "checked and safe"
            print(f"\n0 questions: nothing in {', '.join(map(str, args.more))} is searched (none of the "
                  f"{search.questions} questions of the search involves these files; --all-rules asks them all).")
            return 0
        print(f"\n{len(unresolved)} unresolved conflict(s)"
              f"{f' ({illegal} of them cannot arise in a legal game)' if illegal else ''}; {resolved} resolved by the spec's precedences and "
              f"overrides{'' if args.all else ' (--all lists them)'}; "
              f"{sum(f.kind == 'dead-rule' for f in findings)} dead rule(s), "
              f"{sum(f.kind == 'dangling' for f in findings)} dangling reference(s)"
              f"{f', {escaping} action(s) escaping a rule about their category' if escaping else ''}"
              f"{f'; {len(undecided)} question(s) Z3 could not decide (listed under undecided)' if undecided else ''}. "
              f"{search.queries} Z3 queries, {search.unknowns} unknown, {elapsed:.1f} s, "
              f"{f'{args.players} players' if args.players else f'{low} to {high} players'}.")
        for line in _inductive_lines(search.inductive):
            print(line)
        if scope is not None and scope.everything:
            print(f"Searched all {search.questions} questions: {', '.join(map(str, args.more))} change what every "
                  f"question assumes (an invariant, or the game).")
        elif scope is not None:
            print(f"Searched {search.asked} of {search.questions} questions: those involving "
                  f"{', '.join(map(str, args.more))} (--all-rules searches them all).")
    return 1 if unresolved else 4 if undecided else 0


def _describe(result, f: Finding) -> str:
    lines = [f"  {f.message}"]
    for name, span in zip(f.rules, f.spans):
        source = result.sources.line(span.file, span.line) if span else None
        lines.append(f"    {name}  ({span})")
        if source:
            lines.append(f"      | {source.strip()}")
        for rule, quote in f.cites:
            if rule == name:
                lines.append(f"      « {quote} »")
    if f.situation:
        shown = f.situation[:14]
        lines.append("    witness: " + "; ".join(x.strip() for x in shown) + (" …" if len(f.situation) > 14 else ""))
    if f.configuration:
        lines.append(f"    {f.configuration}")
    if f.kind in ("effect-failure", "invariant-broken") and f.replayed:
        lines.append(f"    the interpreter, replaying the witness: {f.replayed}"
                     + ("" if f.confirmed else " — DOES NOT AGREE" if f.confirmed is False else " — not confirmed"))
    elif f.kind == "lifted" and f.confirmed is not None:
        lines.append("    the interpreter, on the witness: "
                     + ("the card is inactive, the move legal, and the prohibition would apply were the card active"
                        if f.confirmed else "DOES NOT AGREE"))
    elif f.confirmed is not None:
        lines.append(f"    the interpreter, on the witness: {'both rules apply' if f.confirmed else 'DOES NOT AGREE'}")
    for path in getattr(f, "files", None) or ():
        lines.append(f"    written: {path}")
    if f.unknown:
        lines.append(f"    Z3 could not decide: {f.unknown}")
    return "\n".join(lines)


def _inductive_lines(tally: dict) -> list[str]:
    """Per invariant, what the invariant-broken search found over the moves it asked (`--effects`)."""
    if not tally:
        return []
    out = ["Invariants, over the moves searched (the actions an offer proposes and the powers, from any state that "
           "meets every invariant; the procedures the game's flow runs between decisions are not moves, and are "
           "not searched):"]
    for name, statuses in tally.items():
        unchanged, proven = len(statuses["unchanged"]), len(statuses["proven"])
        broken, undecided = statuses["broken"], statuses["undecided"]
        how = f"({unchanged} write nothing it reads, {proven} proven by Z3)"
        if not (unchanged or proven or broken or undecided):
            line = f"  {name}: no move searched (none involves the files given)"
        elif not broken and not undecided:
            line = f"  {name}: proven inductive over the {unchanged + proven} move(s) searched {how}"
        else:
            line = f"  {name}: kept by {unchanged + proven} move(s) {how}"
            if broken:
                line += f"; broken by {', '.join(broken)}"
            if undecided:
                line += f"; undecided for {', '.join(undecided)}"
        out.append(line)
        if statuses.get("uncovered"):
            procedures = ", ".join(statuses["uncovered"])
            out.append(f"    not covered: the procedures that write what it reads — {procedures}")
    return out


# ---------------------------------------------------------------- the command line

def add_parsers(new_command) -> dict:
    """`conflicts`, made by the CLI's ``new_command`` (which gives it --color and the exit codes)."""
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
    spec_arguments(conflicts)
    conflicts.add_argument("--all-rules", action="store_true", help="with house-rule or overlay files, search every "
                                                                    "question of the spec, not only those involving them")
    conflicts.add_argument("--effects", action="store_true", help="also search effect failures: a legal move whose "
                                                                  "effect cannot complete (a transfer beyond what a "
                                                                  "counter holds, only(…) not finding one element…), "
                                                                  "prohibitions lifted by a card's state (a card "
                                                                  "that grants and bounds an action, inactive), and "
                                                                  "invariants broken by a legal move (each invariant "
                                                                  "proven inductive over the actions and powers, or "
                                                                  "a counterexample)")
    conflicts.add_argument("--players", type=int, help="search states of this player count only (default: every "
                                                        "count the game allows, at once)")
    completes(conflicts.add_argument("--witnesses", metavar="DIR", help="write each witness as a state file (and a "
                                                                         "move file) in DIR, for `rulebook legal`, "
                                                                         "and as an `example` block to paste into a "
                                                                         "house-rule file (DIR/examples.rules)"),
              "dir")
    conflicts.add_argument("--force", action="store_true", help="write the witnesses into DIR even if it already "
                                                                "holds witness files (replacing those of the same name)")
    conflicts.add_argument("--all", action="store_true", help="also list the conflicts the spec resolves")
    conflicts.add_argument("--json", action="store_true", help="machine-readable output")
    conflicts.add_argument("--workers", "-j", type=int, help="processes running the Z3 queries (default: every "
                                                               "core; the findings are the same)")
    conflicts.add_argument("--cluster", metavar="ADDRESS",
                           help="run the Z3 queries on the Dask scheduler at ADDRESS (tcp://host:8786), a share per "
                                "worker thread; the findings are the same. Needs pip install 'rulebook[cluster]'")
    return {"conflicts": conflicts_command}
