"""Smallest models: a witness with as few players and cards as the constraints allow.

:func:`smallest` takes a solver whose constraints a model already satisfies and a list of integer
objectives (the player count, the number of cards away from where a game starts them …), and
tightens them one after the other, first to last: for each, a binary search on an upper bound
(``objective <= k`` under a `push`; or first up from the least value, ``from_floor``), a bounded number of
checks, keeping every model found, then the
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
from z3 import z3core

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


def _value(model: z3.ModelRef, term, sums: dict | None = None) -> int:
    """``term``'s value in ``model``; a :class:`Count` as one sum of its terms (``sums``: those made already, by
    the count's id), read in one evaluation rather than one per term."""
    if isinstance(term, Count):
        if sums is None or not term.terms:
            return count_true_in(model, term.terms)
        total = sums.get(id(term))
        if total is None:
            total = sums[id(term)] = _sum(term.terms)
        return model.eval(total, model_completion=True).as_long()
    return term if isinstance(term, int) else model.eval(term, model_completion=True).as_long()


def _sum(terms: tuple):
    """The number of true ``terms`` (Booleans of one context), as one integer term."""
    ctx = terms[0].ctx
    ref, one, zero = ctx.ref(), z3.IntVal(1, ctx).as_ast(), z3.IntVal(0, ctx).as_ast()
    ites = [z3.ArithRef(z3core.Z3_mk_ite(ref, t.as_ast(), one, zero), ctx) for t in terms]
    return z3.ArithRef(z3core.Z3_mk_add(ref, len(ites), (z3.Ast * len(ites))(*(x.as_ast() for x in ites))), ctx)


def _at_most(term, bound: int):
    """``term <= bound``; a :class:`Count` as a cardinality constraint (Z3 reasons on those much faster)."""
    if isinstance(term, Count):
        return mk_atmost(list(term.terms), bound) if term.terms else z3.BoolVal(0 <= bound)
    return term <= bound


def smallest(solver: z3.Solver, model: z3.ModelRef, objectives: list[tuple[object, int]], checks: int = 8,
             rlimit: int | None = None, shrink: Callable[[z3.ModelRef], list] | None = None,
             past_undecided: bool = False, from_floor: bool = False,
             check: Callable[[z3.Solver], object] | None = None) -> Tightened:
    """The model of ``solver`` that makes each objective, in turn, as small as possible.  ``objectives``:
    (an integer term or a :class:`Count`, the least value it can take).  At most ``checks`` checks per
    objective, each within ``rlimit`` (Z3's resource limit, when given); the bounds found are added to the
    solver.  ``shrink(model)``: constraints added before each objective after the first (to search only
    among the subsets of the witness found so far, say: faster, but a smallest subset, not a smallest model).
    ``past_undecided``: an undecided check does not end the objective's tightening: the bounds above it are
    tried next (within the same number of checks), as a smaller witness may be found there at once.
    ``from_floor``: the bounds are first tried up from the least value, each step twice the last (the least
    value, the next, the next but two …, never past the binary search's own), until one is satisfiable; then
    the binary search goes on below its model.  The smallest value is the same (it is unique); only the way
    to it differs: a bound far below the smallest is refuted at once, and a model near the smallest is found
    without the satisfiable checks halfway down from a large first model (a witness is mostly small: the
    conflict search's need about half the checks and Z3 steps so).  ``check(solver)``: how a check is made
    (:func:`~checker.solver.factory.run` by default; the conflict search's asserts the invariants when a
    model breaks one, :class:`~checker.solver.search.Assumed`)."""
    out = Tightened(model, [])
    sums: dict = {}
    if rlimit is not None:
        solver.set("rlimit", rlimit)
    for i, (term, floor) in enumerate(objectives):
        if shrink is not None and i:
            solver.add(shrink(out.model))
        best = _value(out.model, term, sums)
        low = above = floor             # ``above``: the least bound not tried undecided
        step = 1 if from_floor else 0   # from_floor: the next bound is ``step`` values up, until one is sat
        for _ in range(checks):
            least = max(low, above)
            if least >= best:
                break
            bound = (least + best) // 2
            if step:
                bound = min(bound, least + step - 1)
            solver.push()
            solver.add(_at_most(term, bound))
            outcome = run(solver) if check is None else check(solver)
            solver.pop()
            out.checks += 1
            if outcome.status == "sat":
                out.model = outcome.model
                best = _value(out.model, term, sums)
                step = 0
            elif outcome.status == "unsat":
                low = bound + 1
                step *= 2
            else:
                step = min(step, 1)         # the next bound is the next value up
                out.undecided += 1
                if not past_undecided:
                    break
                above = bound + 1
        if not isinstance(term, int):
            solver.add(_at_most(term, best))
    out.values = [_value(out.model, term, sums) for term, _ in objectives]
    return out
