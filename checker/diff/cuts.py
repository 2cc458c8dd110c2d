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

import itertools
import math

import z3

from checker.diff.compare import Shaper
from checker.front import ast
from checker.diff.semantic import _differ
from checker.solver.encode import AND, OR, as_bool, is_const

__all__ = ["Cuts"]

SPLIT = 16          # cases a cut at a choice is asked in, one per value of the choices before, at most



def _cases(split: list) -> list | None:
    """Every combination of the values of ``split`` ([(unknown, its values)]), or None when there are more than
    SPLIT: the product is counted before it is built (the earlier choices of a move can have millions of
    combinations: a comparison of the first edition once ran out of memory building them).

    >>> _cases([(None, [1, 2]), (None, [3])])
    [(1, 3), (2, 3)]
    >>> _cases([(None, range(10**6)), (None, range(10**6))]) is None
    True
    """
    if math.prod(len(values) for _, values in split) > SPLIT:
        return None
    return list(itertools.product(*(values for _, values in split)))

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

    def options(self, side, s: ast.Choose, options: list, guard) -> list:
        """The options of a `choose` (the k-th of its name on each side): B's are A's when Z3 proves each option
        offered alike wherever B reaches it, the choices before made among their options on both sides — then
        the test that some option is left and everything after read the same terms on both sides (the options of
        a filter rewritten, ``where c != this and can détruire(me, q, c)`` for ``where c != this``, when the
        choice before already asks the same)."""
        key = ("choose", s.var)
        if side is self.a:
            self.values.setdefault(key, []).append((options, self.shapers[0].shape(s.options), len(side.choices)))
            return options
        k = self.taken.get(key, 0)
        self.taken[key] = k + 1
        theirs = self.values.get(key, [])
        if k >= len(theirs) or theirs[k][1] == self.shapers[1].shape(s.options) or len(theirs[k][0]) != len(options):
            return options
        mine, at = theirs[k][0], theirs[k][2]
        if any(not _same(x, y) or not _integer(x) for (_, x), (_, y) in zip(mine, options)) or at != len(side.choices):
            return options
        if all(_same(g, h) for (g, _), (h, _) in zip(mine, options)):
            return options
        # a value offered on one side only (asked so, as the comparison asks its own, it is a small question)
        v = z3.Int(f"{s.var} offert⟨cut⟩!{k}")
        offered = [OR(*(AND(g, v == x) for g, x in opts)) for opts in (mine, options)]
        # the choices before, made among their options on both sides (what every question asked afterwards
        # assumes of them, but the one asking whether that choice offers the same options)
        before = [z3.Implies(as_bool(c.chosen), as_bool(c.inside)) for t in (self.a, self.b)
                  for c in t.choices[:at] if c.inside is not None and c.chosen is not None]
        split = [(c.value, self.a.enc.domains[c.value.get_id()]) for c in side.choices
                 if c.kind == "one" and isinstance(c.value, z3.ArithRef) and c.value.get_id() in self.a.enc.domains]
        return mine if self._equal(*offered, AND(guard, *before), split) else options

    def _equal(self, mine, value, guard, split: tuple = ()) -> bool:
        """Is ``mine`` ``value`` wherever ``guard`` holds?  Undecided so, asked again once per value of the choices
        ``split`` names ([(unknown, its values)], at most SPLIT cases): each a smaller question, its unknown a
        constant (Z3 then folds what reads it)."""
        a, b = self.a, self.b
        own = {id(f) for t in (a, b) for c in t.choices for f in c.bound}
        facts = [*self.shared.get("domain", ()), *(f for t in (a, b) for f in t.constraints if id(f) not in own),
                 AND(guard, _differ(mine, value))]
        bounds = self._bounds()
        self.asked += 1
        status, _, _ = self.pair.solve(a.enc, b.enc, *facts, minimise=False, fallback=False, bounds=bounds)
        cases = _cases(split) if status == "unknown" and split else None
        if cases is not None:
            # the cases, and a value outside them (a choice not made): every one unsat
            outside = OR(*(AND(*(v != x for x in values)) for v, values in split))
            status, _, _ = self.pair.solve(a.enc, b.enc, *facts, outside, minimise=False, fallback=False,
                                           bounds=bounds)
            for case in cases if status == "unsat" else ():
                pairs = [(v, z3.IntVal(x)) for (v, _), x in zip(split, case)]
                status, _, _ = self.pair.solve(a.enc, b.enc, *(f if is_const(f) else z3.substitute(f, *pairs)
                                                               for f in facts), *(v == x for v, x in pairs),
                                               minimise=False, fallback=False, bounds=bounds)
                if status != "unsat":
                    break
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


def _integer(x) -> bool:
    """A card, a player, a number or an enum's member (what a `choose` among integers offers)."""
    return isinstance(x, int) and not isinstance(x, bool) or isinstance(x, z3.ArithRef)


def _same(x, y) -> bool:
    if is_const(x) or is_const(y):
        return is_const(x) and is_const(y) and x == y
    return z3.eq(x, y)


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
