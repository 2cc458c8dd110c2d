"""`rulebook test SPEC [OVERLAY…]`: run the spec's worked examples.

Exit codes: 0 every example passes, 1 an example fails (or the spec has errors), 2 bad input (a name given
with --example that no example has), 4 some expectation could not be decided by Z3 and none failed.
"""

from __future__ import annotations

import sys

from checker.base import terminal
from checker.base.terminal import spec_arguments

__all__ = ["add_parsers", "test_command", "render"]


def add_parsers(new_command) -> dict:
    test = new_command("test", help="run the spec's worked examples (`example` declarations)",
                       description="Run every `example` of the spec and its overlays: set the situation up (the "
                                   "setup rules complete what it does not say), play its moves and answers with "
                                   "the interpreter, and judge its expectations (legality by Z3).  Each example "
                                   "passes or fails with what was expected and what happened.  Exit codes: 0 all "
                                   "pass, 1 one fails (or the spec has errors), 2 bad input, 4 undecided.")
    spec_arguments(test)
    test.add_argument("--example", "-k", action="append", metavar="NAME", help="run only this example (repeatable)")
    test.add_argument("--json", action="store_true", help="machine-readable output")
    return {"test": test_command}


def render(outcomes) -> str:
    lines = []
    for o in outcomes:
        mark = "ok  " if o.passed else "FAIL"
        lines.append(f"{mark} {o.name}  ({o.span.file}:{o.span.line}, {o.checked} expectation(s))")
        for f in o.failures:
            lines.append(f"     {f.span}")
            lines.append(f"       expected: {f.expected}")
            lines.append(f"       actual:   {f.actual}")
            lines.extend(f"       note: {n}" for n in f.notes)
        lines.extend(f"     undecided: {u}" for u in o.undecided)
    passed = sum(o.passed for o in outcomes)
    lines.append(f"{passed} of {len(outcomes)} example(s) pass")
    return "\n".join(lines)


def test_command(args) -> int:
    from checker.front.check import checked_spec
    from checker.front.program import did_you_mean
    from checker.examples.run import run_examples
    result = checked_spec("test", [args.spec, *args.more])
    if result is None:
        return 1
    known = list(result.program.examples)
    for name in args.example or ():
        if name not in known:
            hint = did_you_mean(name, known, '"')
            print(f"rulebook test: no example \"{name}\"" + (f"; {hint}" if hint else ""), file=sys.stderr)
            return 2
    outcomes = run_examples(result, args.example)
    failed = any(o.failures for o in outcomes)
    code = 1 if failed else 4 if any(o.undecided for o in outcomes) else 0
    set_aside = {n: why for n, why in result.typed.inapplicable.items() if not args.example or n in args.example}
    if args.json:
        terminal.emit_json({"command": "test", "ok": code == 0, "exit_code": code,
                            "examples": [o.as_json() for o in outcomes],
                            "not_applying": [{"example": n, "why": why} for n, why in set_aside.items()]})
    else:
        for name, why in set_aside.items():
            print(f"skip {name}  (does not apply to this rule set: {why})")
        if not outcomes and not set_aside:
            print("no examples in this spec")
        elif outcomes:
            print(render(outcomes))
    return code
