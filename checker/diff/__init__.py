"""`rulebook diff`: what changes between two rule sets, with witnesses.

:func:`diff_paths` checks two rule sets (each a spec directory and overlay files) and returns a
:class:`DiffResult`: every declaration they have differently, and — searched with Z3 over the states
both can be in — every action whose legality changes, every quantity whose value changes and every
pair of reactions whose order changes, each with a minimal witness state.
"""

from checker.base.registry import lazy_exports

# imported on first use: the command line imports this package to list its commands
__getattr__ = lazy_exports({
    "DiffResult": "checker.diff.run",
    "diff_paths": "checker.diff.run",
    "diff_results": "checker.diff.run",
    "Difference": "checker.diff.semantic",
})

__all__ = ["DiffResult", "Difference", "diff_paths", "diff_results"]
