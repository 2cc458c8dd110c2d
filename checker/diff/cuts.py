"""cuts: the values a changed body computes the same on both sides, proven so as they are encoded.

A change inside a body often rewrites how one value is computed and nothing else (``greatest(0, x)`` for ``x``
where ``x`` is never negative).  Everything after it then reads another term on each side, and Z3 must prove
large terms equal that differ only through that value — where it often runs out of resources.  As side B is
encoded, the value of each `let`, `transfer` and `set` whose term is not A's for the same statement (a `let`
by its name, a `transfer` by its counters, a `set` by its var: the k-th of each on one side with the k-th on
the other) is compared with A's: when Z3 proves them equal wherever B computes it, B takes A's term, and what
follows folds to the same terms on both sides (a cut point, as equivalence checkers of circuits use).  Only
an expression written otherwise is asked about (one written alike that reads a value of its side's differs
because that value does: a question per changed statement, not per one downstream).  The proof assumes only
what holds in every question the comparison asks afterwards: the states both sides can be in
(:meth:`checker.diff.pair.Pair.bounds`, for the cells read so far), the arguments' types, and the
constraints of the statements that are no choice's own (the bounds of a subset may differ between the
sides: each side's own condition of validity, not a fact).  Anything else — a value Z3 cannot prove equal
within an eighth of its resources, a record, a collection — keeps B's own term.
"""

from __future__ import annotations

import z3

from checker.diff.compare import Shaper
from checker.front import ast
from checker.diff.semantic import _differ
from checker.solver.encode import AND, is_const

__all__ = ["Cuts"]


class Cuts:
    """Side A's values by statement, in the order computed; side B's, replaced by A's where proven equal."""

    def __init__(self, pair, shared: dict):
        self.pair, self.shared = pair, shared          # shared["domain"]: the arguments' types, once made
        self.shapers = (Shaper(pair.a.program), Shaper(pair.b.program))
        self.values: dict[str, list] = {}
        self.taken: dict[str, int] = {}
        self.a = self.b = None          # the two sides' transitions (A's complete when B is encoded)
        self.proven = 0                 # B's lets that took A's term
        self.asked = 0

    def bind(self, side, key: tuple, node, value, guard):
        """The value ``side`` computes for ``node``, the expression of the statement ``key`` names (A: recorded; B:
        A's when proven equal where ``guard`` holds)."""
        if side is self.a:
            self.values.setdefault(key, []).append((value, self.shapers[0].shape(node)))
            return value
        k = self.taken.get(key, 0)
        self.taken[key] = k + 1
        theirs = self.values.get(key, [])
        if k >= len(theirs) or theirs[k][1] == self.shapers[1].shape(node):
            return value
        mine = theirs[k][0]
        if not _scalar(value) or not _scalar(mine) or is_const(value) and is_const(mine):
            return value
        if isinstance(value, z3.ExprRef) and isinstance(mine, z3.ExprRef) and \
                (value.sort() != mine.sort() or z3.eq(value, mine)):
            return value
        return mine if self._equal(mine, value, guard) else value

    def _equal(self, mine, value, guard) -> bool:
        a, b = self.a, self.b
        own = {id(f) for t in (a, b) for c in t.choices for f in c.bound}
        facts = [f for t in (a, b) for f in t.constraints if id(f) not in own]
        self.asked += 1
        status, _, _ = self.pair.solve(a.enc, b.enc, *self.shared.get("domain", ()), *facts,
                                       AND(guard, _differ(mine, value)), minimise=False, fallback=False,
                                       bounds=self._bounds())
        if status == "unsat":
            self.proven += 1
            return True
        return False


    def _bounds(self) -> list:
        """The pair's bounds on the state *before* the move (each encoder reads its side's state after the
        statements encoded so far: the spec's invariants are constraints on the state before, as in the questions
        the comparison asks afterwards); the encoders' memos, made over that state, are forgotten after."""
        sides = [(t, t.enc.cells) for t in (self.a, self.b)]
        try:
            for t, _ in sides:
                t.enc.cells = t.store.base
                t.forget()
            return self.pair.bounds(self.a.enc, self.b.enc)
        finally:
            for t, cells in sides:
                t.enc.cells = cells
                t.forget()


def _scalar(value) -> bool:
    return isinstance(value, (bool, int, z3.ExprRef)) and not isinstance(value, (tuple, list))


def cut_key(s) -> tuple | None:
    """What pairs a statement of B with one of A: a `let` by its name, a `transfer` by its counters, a `set` by
    its var — the k-th of each on one side with the k-th on the other."""
    if isinstance(s, ast.Let):
        return ("let", s.name)
    if isinstance(s, ast.Transfer):
        return ("transfer", s.source.name, s.target.name)
    if isinstance(s, ast.SetVar):
        return ("set", s.target.name)
    return None
