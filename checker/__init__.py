"""Rulebook: an executable specification language for board-game rules.

The checking pipeline is :func:`check_paths`; its result carries the merged
:class:`Program` and every :class:`Diagnostic` found.  Each name is imported on first use, so that a command
imports only what it runs (``rulebook --help`` parses no grammar).
"""

from checker.base.registry import lazy_exports

__all__ = ["check_paths", "CheckResult", "Program", "Diagnostic", "Reporter", "render_human", "render_short"]

__getattr__ = lazy_exports({"check_paths": "checker.front.check", "CheckResult": "checker.front.check",
                            "Program": "checker.front.program", "Diagnostic": "checker.base.diagnostics",
                            "Reporter": "checker.base.diagnostics", "render_human": "checker.base.diagnostics",
                            "render_short": "checker.base.diagnostics"})
