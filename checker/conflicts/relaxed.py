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
of its 25 questions ran out of the limit (4,000,000 steps refuted 21, at no gain in time).  They are asked
first by :class:`Eager` instead: each alone, on the whole well-formed state, the invariants included (the
exchange's 25: 80 million Z3 steps in all instead of 318 million, no full question).
"""

from __future__ import annotations

import dataclasses

import z3

from checker.solver.encode import as_bool, is_const
from checker.solver.factory import make_solver, private_context, run
from checker.front.types import BOOL, PLAYER, GridT
from checker.solver.terms import assert_all, mk_atmost, mk_implies

__all__ = ["Relaxed", "RELAXED_RLIMIT", "well_placed", "Eager", "EAGER_RLIMITS"]

# the resource limit of one relaxed question (Z3 steps): about a tenth of a second.  The questions it refutes
# take a few hundred thousand steps; one it cannot refute within it is asked in full, as before
RELAXED_RLIMIT = 1_000_000
# the limits of an :class:`Eager` question's two checks (Z3 steps): on an incremental solver, then on a one-shot
# one.  On the 4th edition the exchange of two characters is refuted in 0.1 to 3 million steps on
# the first, but for the questions of a character of each rank (12 to 13 million on the second, 27 to 38 million
# on the first); a question neither refutes is asked in full, as before
EAGER_RLIMITS = (4_000_000, 20_000_000)


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


class Eager:
    """One move's invariant questions (:mod:`checker.conflicts.inductive`: may the move break an invariant that
    held before it?) asked first as they are, on the whole well-formed state — the spec's invariants asserted
    at once, as every answer of the full question (:meth:`~checker.solver.search.SymbolicSearch.solve`) assumes
    them —, without what the full question asks for a witness: no selection a legal game is set up with, no
    tightening.  The full question, whose answers are almost all *no* there, first finds a model without the
    invariants, tightens it, finds it breaks one, then asks with the selection and with them (three to five
    checks where one says *no*).  The formulas asked here are the full question's, less the selection's: an
    ``unsat`` is the full question's; ``sat`` or ``unknown`` says nothing, and the full question is asked as
    before, and finds the same answer and witness.

    They are asked in a Z3 context of their own, so that the terms made here do not change the full questions'
    (which model Z3 finds depends on the terms of its context): the move's formulas are translated into it, with
    the well-formed state made there, of cells named as the question's.  Each question is asked with the move's
    shared formulas on a fresh incremental solver with a small step limit, then, when that cannot tell, on a
    fresh one-shot solver (Z3's one-shot tactic, better on the sums of the invariants counting characters per
    rank) with a larger one (:data:`EAGER_RLIMITS`).  Each question asked counts as a Z3
    query (as a full question does, whatever checks it takes)."""

    def __init__(self, search, enc, shared: list):
        """``shared``: the formulas every question of the move asks (its domain, legality, the choices'
        constraints), of ``enc``, whose cells are made."""
        self.search, self.ctx = search, z3.Context()
        made = list(enc.cells.made.items())
        self.plain = all(cell.num_args() == 0 for _, cell in made)      # cells are constants: made again by name
        if not self.plain:
            return
        with private_context(self.ctx):
            probe = search.encoder()
            for key, cell in made:
                probe.cells._cell(key, "bool" if z3.is_bool(cell) else "int", cell.decl().name())
            state = search.well_formed(probe)
            self.shared = [z3.BoolVal(f) if is_const(f) else f for f in [*state, *probe.defined]]
        self.shared += [self._here(f) for f in [*shared, *enc.defined] if not (is_const(f) and f)]

    def _here(self, f):
        return z3.BoolVal(f, self.ctx) if is_const(f) else as_bool(f).translate(self.ctx)

    def refuted(self, question) -> bool:
        """Has ``question`` (with the shared formulas, on a well-formed state) no model?  False: cannot tell."""
        if not self.plain:
            return False
        q = self._here(question)
        self.search.queries += 1
        for k, incremental in enumerate((True, False)):
            settings = dataclasses.replace(self.search.settings, incremental=incremental,
                                           rlimit=min(EAGER_RLIMITS[k], self.search.settings.rlimit))
            with private_context(self.ctx):
                s = make_solver(settings)
            assert_all(s, [*self.shared, q])
            if run(s).status == "unsat":
                return True
        return False
