"""Smallest models: a witness with as few players and cards as the constraints allow.

:func:`smallest` takes a solver whose constraints a model already satisfies and a list of integer
objectives (the player count, the number of cards away from where a game starts them …), and
tightens them one after the other, first to last: for each, a binary search on an upper bound
(``objective <= k`` under a `push`), a bounded number of checks, keeping every model found, then the
least bound found is kept while the next objective is tightened.  Each check has the solver's limits
(its resource limit makes the answer the same on any machine), and an undecided check ends the
tightening of that objective with the best model so far (or, when asked, the bounds above it are tried
next): the result always satisfies the constraints, and is the smallest in this lexicographic order when
no check was undecided and none ran out.
`rulebook conflicts` and `rulebook diff` make their witnesses small with it.  A term that counts true Booleans is made by
:func:`count_true`.
"""

from __future__ import annotations

import dataclasses
from typing import Callable

import z3

from checker.solver.factory import run
from checker.solver.terms import count_true_in, mk_atmost

__all__ = ["smallest", "count_true", "Count", "Tightened", "TIGHTENING_RLIMIT", "SEARCH_TIGHTENING_RLIMIT"]

TIGHTENING_RLIMIT = 3_000_000   # Z3 resource units for one tightening check (deterministic, unlike a time
#                                 limit: a check that runs out keeps the best witness so far)
# The conflict search's (checker/solver/search.py): its decided tightening checks take at most 1,623,220 units
# (the fan expansion's search; 1,284,220 the 4th edition's, 989,998 the house file's), so this one decides each
# of them as 3,000,000 did, and a check that runs out (the house file has one) gives up 1,000,000 units sooner
SEARCH_TIGHTENING_RLIMIT = 2_000_000


@dataclasses.dataclass
class Tightened:
    """What :func:`smallest` found: the model, each objective's value in it, and how many checks it made."""

    model: z3.ModelRef
    values: list[int]
    checks: int = 0
    undecided: int = 0


@dataclasses.dataclass(frozen=True)
class Count:
    """An objective: how many of ``terms`` (Booleans) are true."""

    terms: tuple


def count_true(terms) -> Count:
    """The number of true terms among ``terms`` (Booleans), as an objective for :func:`smallest`."""
    return Count(tuple(t for t in terms if isinstance(t, z3.BoolRef)))


def _value(model: z3.ModelRef, term) -> int:
    if isinstance(term, Count):
        return count_true_in(model, term.terms)
    return term if isinstance(term, int) else model.eval(term, model_completion=True).as_long()


def _at_most(term, bound: int):
    """``term <= bound``; a :class:`Count` as a cardinality constraint (Z3 reasons on those much faster)."""
    if isinstance(term, Count):
        return mk_atmost(list(term.terms), bound) if term.terms else z3.BoolVal(0 <= bound)
    return term <= bound


def smallest(solver: z3.Solver, model: z3.ModelRef, objectives: list[tuple[object, int]], checks: int = 8,
             rlimit: int | None = None, shrink: Callable[[z3.ModelRef], list] | None = None,
             past_undecided: bool = False) -> Tightened:
    """The model of ``solver`` that makes each objective, in turn, as small as possible.  ``objectives``:
    (an integer term or a :class:`Count`, the least value it can take).  At most ``checks`` checks per
    objective, each within ``rlimit`` (Z3's resource limit, when given); the bounds found are added to the
    solver.  ``shrink(model)``: constraints added before each objective after the first (to search only
    among the subsets of the witness found so far, say: faster, but a smallest subset, not a smallest model).
    ``past_undecided``: an undecided check does not end the objective's tightening: the bounds above it are
    tried next (within the same number of checks), as a smaller witness may be found there at once."""
    out = Tightened(model, [])
    if rlimit is not None:
        solver.set("rlimit", rlimit)
    for i, (term, floor) in enumerate(objectives):
        if shrink is not None and i:
            solver.add(shrink(out.model))
        best = _value(out.model, term)
        low = above = floor             # ``above``: the least bound not tried undecided
        for _ in range(checks):
            if max(low, above) >= best:
                break
            bound = (max(low, above) + best) // 2
            solver.push()
            solver.add(_at_most(term, bound))
            outcome = run(solver)
            solver.pop()
            out.checks += 1
            if outcome.status == "sat":
                out.model = outcome.model
                best = _value(out.model, term)
            elif outcome.status == "unsat":
                low = bound + 1
            else:
                out.undecided += 1
                if not past_undecided:
                    break
                above = bound + 1
        if not isinstance(term, int):
            solver.add(_at_most(term, best))
    out.values = [_value(out.model, term) for term, _ in objectives]
    return out
