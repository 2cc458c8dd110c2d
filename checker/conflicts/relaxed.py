"""The questions of one move asked first on one solver, without all of the well-formed state: what that refutes
needs no full question.

A move's effect-failure questions (:mod:`checker.conflicts.effects`: may the effect fail at this statement, may
it reach where the encoding stops) share most of their formulas — the move's arguments and legality, the
constraints on the choices inside its effect.  The full question (:meth:`~checker.solver.search.SymbolicSearch.
solve`) adds the whole well-formed state (with the spec's invariants) and looks for a small model a legal game is
set up for, each on a solver of its own, with one check more when the selection finds none.  A :class:`Relaxed`
solver holds the shared formulas once (Z3 takes them in once) with the well-formed state less its invariants
(:func:`well_placed`), and asks each question as an assumption, with a small resource limit: the formulas it asks
are some of the full question's (never one more), so its ``unsat`` is the full question's — the question is
answered, with no full query.  Its ``sat`` or ``unknown`` says nothing: the full question is asked as before, and
finds the same answer.  Each relaxed question counts as a Z3 query.

A failure at a statement needs only the constraints on the choices made before it (:attr:`Failure.constraints`):
the constraints are given to the solver in their order, as far as each question needs, and the questions are
asked in that order (:meth:`Relaxed.refuted` with ``upto``).

Measured on the 4th edition (`conflicts spec/citadelles --effects`): 135 of the 148 effect-failure questions
refuted so, at 7.7 s of CPU in all, where the full questions took 65 s.  The invariant questions
(:mod:`checker.conflicts.inductive`) were tried too, with the invariants asked holding before the move: the
exchange of two characters (the 4th edition's one costly move here) counts cards per rank and player, and 20
of its 25 questions ran out of the limit (4,000,000 steps refuted 21, at no gain in time).
"""

from __future__ import annotations

import dataclasses

import z3

from checker.solver.encode import as_bool, is_const
from checker.solver.factory import make_solver, run
from checker.front.types import BOOL, PLAYER, GridT
from checker.solver.terms import assert_all, mk_atmost, mk_implies

__all__ = ["Relaxed", "RELAXED_RLIMIT", "well_placed"]

# the resource limit of one relaxed question (Z3 steps): about a tenth of a second.  The questions it refutes
# take a few hundred thousand steps; one it cannot refute within it is asked in full, as before
RELAXED_RLIMIT = 1_000_000


def well_placed(search, enc) -> list:
    """Of the well-formed state (:meth:`~checker.solver.search.SymbolicSearch.well_formed`), all but the spec's
    invariants: each var's bounds, each card in one place at most, the player count's bounds and no card with a
    player not in the game — for the cells made so far (the full question asks them of these cells and of more)."""
    out, cards = [], {}
    for key, cell in list(enc.cells.made.items()):
        if key[0] == "in":
            cards.setdefault(key[3], []).append(cell)
        elif key[0] == "var" and len(key) == 3 and not isinstance(enc.var_types[key[1]], GridT) \
                and enc.var_types[key[1]] != BOOL:
            d = search._domain(enc, cell, enc.var_types[key[1]])
            if not is_const(d):
                out.append(d)
    out.extend(mk_atmost(cells, 1) for cells in cards.values() if len(cells) > 1)
    if not is_const(enc.n):
        out.append(z3.And(enc.n >= search.low, enc.n <= search.high))
        for key, cell in enc.cells.made.items():
            if key[0] == "in" and isinstance(key[2], int) and enc.zone_index_types[key[1]] == PLAYER and key[2] >= 2:
                out.append(mk_implies(cell, enc.n > key[2]))
    return out


class Relaxed:
    """One move's solver: ``shared`` (formulas every question of the move asks), then ``constraints`` (the
    choices' constraints, in order: a question asks a prefix of them)."""

    def __init__(self, search, shared: list, constraints: list):
        self.search = search
        settings = dataclasses.replace(search.settings, rlimit=min(RELAXED_RLIMIT, search.settings.rlimit),
                                       incremental=True)
        self.solver = make_solver(settings)
        self.constraints = constraints
        self.given = 0              # how many of ``constraints`` the solver holds
        self.false = any(is_const(f) and not f for f in shared)
        assert_all(self.solver, [as_bool(f) for f in shared if not is_const(f)])
        self.asked = 0

    def refuted(self, *formulas, upto: int | None = None) -> bool:
        """Do ``formulas``, with the shared ones and the first ``upto`` constraints (all by default), have no
        model?  False when the solver already holds more constraints than ``upto`` (the question is then not
        asked here: with more formulas than the full question, its ``unsat`` would not be the full one's)."""
        upto = len(self.constraints) if upto is None else upto
        if self.false or any(is_const(f) and not f for f in formulas):
            return True
        if upto < self.given:
            return False
        assert_all(self.solver, [as_bool(f) for f in self.constraints[self.given:upto] if not is_const(f)])
        self.given = upto
        todo = [as_bool(f) for f in formulas if not is_const(f)]
        self.asked += 1
        self.search.queries += 1
        if not todo:
            return run(self.solver).status == "unsat"
        ask = z3.Bool(f"question {self.asked}")
        self.solver.add(z3.Implies(ask, z3.And(todo) if len(todo) > 1 else todo[0]))
        return run(self.solver, ask).status == "unsat"
