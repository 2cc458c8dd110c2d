"""Worked examples: ``rulebook test`` runs a spec's `example` declarations (checked by the front end,
:mod:`checker.front.examples`) with the interpreter, legality judged by :mod:`checker.solver.legal`,
and reports each as passed or failed with what was expected and what happened.
"""

from checker.base.registry import lazy_exports

# imported on first use: the command line imports this package to list its commands
__getattr__ = lazy_exports({
    "Failure": "checker.examples.run",
    "Outcome": "checker.examples.run",
    "run_example": "checker.examples.run",
    "run_examples": "checker.examples.run",
})

__all__ = ["Failure", "Outcome", "run_example", "run_examples"]
