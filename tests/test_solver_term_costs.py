"""What building the solver's terms costs, beside what the terms are (tests/test_solver.py holds that they are
z3py's): solver/terms.py makes a term with one call into Z3 and one ``inc_ref``, numbering it as z3py does,
and a store's lazy moves are read for the cards they may move only (solver/transition_store.py)."""

from __future__ import annotations

import types

import pytest
import z3
from z3 import z3core

from checker.solver import terms
from checker.solver.formulas import AND, EQ, ITE
from checker.solver.terms import mk_and, mk_arith, mk_cmp, mk_eq, mk_if, mk_implies, mk_not, mk_or
from checker.solver.transition_store import Store


def _build(ctx, z3py: bool) -> list:
    """The same terms, by z3py or by solver/terms.py, some let go on the way (Z3 gives their numbers to the next
    terms made): the ids of the terms kept."""
    a, b = z3.Bool("a", ctx), z3.Bool("b", ctx)
    x, y = z3.Int("x", ctx), z3.Int("y", ctx)
    kept = []
    for k in range(100, 112):        # (Z3 keeps the numerals under 16 for good: these it frees)
        if z3py:
            made = [z3.If(a, x, k), z3.If(b, k, k + 1), z3.And(a, b), z3.Or(a, z3.Not(b)), x == k, k < y,
                    k - x, x + k, z3.Implies(a, b), x == y]
        else:
            made = [mk_if(a, x, k), mk_if(b, k, k + 1), mk_and([a, b]), mk_or([a, mk_not(b)]), mk_eq(x, k),
                    mk_cmp("<", k, y), mk_arith("-", k, x), mk_arith("+", x, k), mk_implies(a, b), mk_eq(x, y)]
        kept.append(made[k % len(made)])
        del made                    # the others are freed: their numbers go to the next ones
    return [t.get_id() for t in kept]


def test_the_c_api_builders_number_terms_as_z3py_and_ask_z3_for_no_error_code():
    """Z3 numbers the terms of a context and gives a freed term's number to the next one; which model it finds
    depends on those numbers, so the builders make and free each term (a numeral made for a term included)
    where z3py does: the same numbers.  And they ask Z3 for its error code after no call (z3core's wrappers
    ask after each, twice a term): a call that fails is told by its null result, and raised as z3py raises it."""
    assert _build(z3.Context(), True) == _build(z3.Context(), False)
    checks = []
    check = z3core.Elementaries.Check
    a, b, x = z3.Bool("a"), z3.Bool("b"), z3.Int("x")
    mk_if(a, x, 0)          # (the context's Int sort, made once by z3py)
    z3core.Elementaries.Check = lambda self, ctx: checks.append(1) or check(self, ctx)
    try:
        made = [mk_if(a, x, k) for k in range(50)] + [mk_and([a, b]), mk_not(a), mk_eq(x, 3), mk_cmp(">", 2, x)]
    finally:
        z3core.Elementaries.Check = check
    assert len(made) == 54 and checks == []
    with pytest.raises(z3.Z3Exception, match="Sort mismatch"):
        terms._term(z3.BoolRef, x.ctx, terms._mk_not(x.ctx.ctx, x.ast))     # Not of an integer: Z3 makes nothing


class _Tests(dict):
    """A move's {card: test}, counting how often it is looked at."""

    looked = 0

    def get(self, key, default=None):
        _Tests.looked += 1
        return super().get(key, default)

    def __getitem__(self, key):
        _Tests.looked += 1
        return super().__getitem__(key)


def test_a_cards_place_reads_only_the_moves_that_may_move_it():
    """A store's lazy moves (Transition.move with lazy_moves) are read where a card's place is asked: the moves
    of other cards are not looked at (an effect that moves many cards read every move at every place asked
    before), and the place is the same term — also while a search puts back an earlier list of moves."""
    state = types.SimpleNamespace(enc=None, concrete=False, made={}, meaning={},
                                  member=lambda zone, index, inst: z3.Bool(f"{inst} ∈ {zone}[{index}]"))
    store = Store(state)
    g, t, w = z3.Bool("g"), z3.Bool("t"), z3.Int("w")
    zones = frozenset({"main", "cité"})
    store.move({1: t}, zones, "cité", w, g)
    for k in range(300):
        store.move(_Tests({2: z3.Bool(f"u{k}")}), zones, "main", None, z3.Bool(f"h{k}"))
    _Tests.looked = 0
    place = store.member("cité", 0, 1)
    assert _Tests.looked == 0
    assert place.eq(ITE(AND(g, t), EQ(w, 0), z3.Bool("1 ∈ cité[0]")))
    before = store.member("main", None, 2)
    moves = store.moves
    store.moves = moves[:1]             # as checker/solver/unroll_cone.py does, for a while
    assert store.member("main", None, 2).eq(z3.Bool("2 ∈ main[None]"))
    store.moves = moves
    assert store.member("main", None, 2).eq(before) and store.member("cité", 0, 1).eq(place)


def test_a_wrapper_lets_its_term_go_without_z3pys_calls_and_its_number_goes_to_the_next_term(monkeypatch):
    """A wrapper that goes (z3py's or solver/terms.py's) lets its term go by one call into Z3 (solver/terms.py
    _release), not through z3py's ``Z3_dec_ref`` wrapper; the terms are freed all the same: the next ones get
    their numbers, as z3py's own ``__del__`` gave them."""
    released = []
    theirs = z3.z3.Z3_dec_ref
    monkeypatch.setattr(z3.z3, "Z3_dec_ref", lambda ctx, a: released.append(1) or theirs(ctx, a))
    ours = _build(z3.Context(), False)
    assert released == []
    monkeypatch.setattr(z3.AstRef, "__del__", _z3py_del)
    assert _build(z3.Context(), True) == ours
    assert released


def _z3py_del(self):
    """z3py's ``AstRef.__del__`` (z3.py), as it is without solver/terms.py."""
    if self.ctx.ref() is not None and self.ast is not None and z3.z3.Z3_dec_ref is not None:
        z3.z3.Z3_dec_ref(self.ctx.ref(), self.as_ast())
        self.ast = None
