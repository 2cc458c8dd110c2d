"""`rulebook reach`: can a game reach a condition within K decisions?  Bounded model checking over the flow
unrolled in Z3 (:mod:`checker.solver.unroll`), the sequence found replayed by the interpreter."""

from checker.base.registry import lazy_exports

__all__ = ["reach", "Outcome"]

__getattr__ = lazy_exports({"reach": "checker.reach.search", "Outcome": "checker.reach.search"})
