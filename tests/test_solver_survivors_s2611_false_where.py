"""The shapes read by the summary's lemma (checker/solver/unroll_summary.py's `_false_where`): a Bool false where
the owner is a given seat, by its shape, no question asked.  The literal `false` is false everywhere — itself, and
as a branch of an if-then-else whose other branch is false there, or a term of a conjunction (a card written out
of a zone is `false` written over what it was: unroll_summary's `_implies`, `LemmaUnrolled.added`).  Survivor of
the lead's blind mutation sample 2611 (whole suite): unroll_summary.py:642 `return True` → `return False` for
`z3.is_false(t)` (every test's false literal was folded away before it reached this reading, or read as implying
anything by `_implies` first)."""

from __future__ import annotations

import z3

from checker.solver.encode import ITE
from checker.solver.unroll_summary import _false_where, _implies


def _owner():
    return z3.Int("propriétaire")


def test_the_literal_false_is_false_where_the_owner_is_any_seat():
    owner = _owner()
    for seat in (0, 1, 2):
        assert _false_where(z3.BoolVal(False), (owner, seat), {})
    assert not _false_where(z3.BoolVal(True), (owner, 0), {})


def test_an_if_then_else_with_a_false_branch_and_another_seat_in_the_other():
    """`If(c, false, owner == 1)` is false where the owner is seat 0 (each branch is), not where it is seat 1.
    The encoder's ITE makes this shape when a card leaves a zone under a guard (False written over a member)."""
    owner, c = _owner(), z3.Bool("c")
    t = ITE(c, False, owner == 1)
    assert z3.is_app_of(t, z3.Z3_OP_ITE) and z3.is_false(t.arg(1))      # the literal kept as a branch
    assert _false_where(t, (owner, 0), {})
    assert not _false_where(t, (owner, 1), {})
    assert not _false_where(z3.If(c, z3.BoolVal(True), owner == 1), (owner, 0), {})


def test_a_disjunction_of_false_and_another_seat():
    owner = _owner()
    t = z3.Or(z3.BoolVal(False), owner == 2)
    assert _false_where(t, (owner, 0), {}) and not _false_where(t, (owner, 2), {})


def test_an_if_then_else_false_where_the_owner_is_the_seat_implies_anything():
    """`_implies` with the owner fixed: an if-then-else false there implies any Bool, even one it does not
    contain."""
    owner, c, b = _owner(), z3.Bool("c"), z3.Bool("b")
    t = z3.If(c, owner == 1, z3.BoolVal(False))
    assert _implies(t, b, {}, (owner, 0))
    assert not _implies(t, b, {}, (owner, 1))
