"""What `play`, `replay` and `play --from` share: the files they will write checked before any work, a JSON
file written, a runtime error of the spec said with its line."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from checker.base import terminal
from checker.base.output import OutputError, plan, write_json

if TYPE_CHECKING:
    from checker.front.check import CheckResult
    from checker.runtime import SpecRuntimeError

__all__ = ["_spec_failed", "_outputs", "_write"]


def _spec_failed(exc: SpecRuntimeError, result: CheckResult | None = None) -> int:
    """Say the spec's runtime error, with the failing statement's line and a caret when the spec's sources
    are at hand."""
    message = f"the spec failed while playing: {exc.message}"
    if result is not None:
        from checker.base.diagnostics import Diagnostic, render_human
        print(render_human([Diagnostic("R0001", message, exc.span)], result.sources, color=terminal.colored()),
              end="", file=sys.stderr)
        return 1
    where = f"{exc.span}: " if exc.span is not None else ""
    print(f"{where}error[R0001]: {message}", file=sys.stderr)
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
