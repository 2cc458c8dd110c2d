"""Rulebook: an executable specification language for board-game rules.

The checking pipeline is :func:`check_paths`; its result carries the merged
:class:`Program` and every :class:`Diagnostic` found.
"""

from checker.front.check import CheckResult, check_paths
from checker.base.diagnostics import Diagnostic, Reporter, render_human, render_short
from checker.front.program import Program

__all__ = ["check_paths", "CheckResult", "Program", "Diagnostic", "Reporter", "render_human", "render_short"]
