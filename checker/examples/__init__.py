"""Worked examples: ``rulebook test`` runs a spec's `example` declarations (checked by the front end,
:mod:`checker.front.examples`) with the interpreter, legality judged by :mod:`checker.solver.legal`,
and reports each as passed or failed with what was expected and what happened.
"""

from checker.examples.run import Failure, Outcome, run_example, run_examples

__all__ = ["Failure", "Outcome", "run_example", "run_examples"]
