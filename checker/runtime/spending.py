"""What a game spends between two decisions: loop iterations, aggregate elements and ranges, against the limits of
:mod:`checker.base.limits` (MAX_WORK, MAX_RANGE).

:class:`Spending` is a part of :class:`checker.runtime.engine.Engine` (its base class): the generated code calls
``spend`` before a loop or an aggregate, and ``range_of`` for a range; ``Engine.decide`` sets ``work`` back to 0.
"""

from __future__ import annotations

from checker.base.limits import MAX_RANGE, MAX_WORK
from checker.runtime.state import SpecRuntimeError

__all__ = ["Spending"]


class Spending:
    """The engine's count of work since the last decision (mixed into :class:`~checker.runtime.engine.Engine`)."""

    work: int

    def spend(self, coll, span=None):
        """Count the elements of ``coll`` about to be ranged over (generated code calls this before a loop or
        an aggregate); past MAX_WORK since the last decision the spec is stopped, located.  Returns ``coll``."""
        self.work += len(coll)
        if self.work > MAX_WORK:
            self.work = 0
            raise SpecRuntimeError(f"more than {MAX_WORK:,} loop iterations and aggregate elements without any "
                                   f"decision (the limit MAX_WORK): loops or aggregates nested too deeply", span)
        return coll

    def range_of(self, low: int, high: int, span=None) -> tuple:
        """The range ``low..high`` (at most MAX_RANGE integers: the checker proves it; this is the guard)."""
        if high - low >= MAX_RANGE:
            raise SpecRuntimeError(f"the range {low}..{high} holds more than {MAX_RANGE:,} integers (the limit "
                                   f"of one range)", span)
        coll = tuple(range(low, high + 1))
        work = self.work + len(coll)
        if work > MAX_WORK:
            return self.spend(coll, span)       # its error, located
        self.work = work                        # as spend() counts it, without the call
        return coll
