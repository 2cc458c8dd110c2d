"""`rulebook diff`: what changes between two rule sets, with witnesses.

:func:`diff_paths` checks two rule sets (each a spec directory and overlay files) and returns a
:class:`DiffResult`: every declaration they have differently, and — searched with Z3 over the states
both can be in — every action whose legality changes, every quantity whose value changes and every
pair of reactions whose order changes, each with a minimal witness state.
"""

from checker.diff.run import DiffResult, diff_paths, diff_results
from checker.diff.semantic import Difference

__all__ = ["DiffResult", "Difference", "diff_paths", "diff_results"]
