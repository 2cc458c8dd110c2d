"""transition, continued: the number of cards in a zone's cell, carried across the lazy moves of a
:class:`~checker.solver.transition_store.Store` as a term of its own (:class:`Counts`), and put in place of the
sum over the cards' places that an expression read there (:func:`counted`).

``count(c in z[k])`` after some moves is, as the encoding writes it, a sum over every card of the kind of "is it
in ``z[k]``", each place an `if` over every move that may have moved it: Z3 sees that a player who received at
most N cards holds at most N only by splitting on which cards were moved (a pigeonhole).  The count carried here
is the same number written otherwise: at the state before (or right after a move of many cards at once, below),
the sum over the cards' places itself; then each move of one card adds what it changes in that cell — one when
the card comes in from elsewhere, minus one when it leaves, nothing else:

    count(z[k]) after = count(z[k]) before + [the card was not there and goes there] - [it was there and leaves]

That is a fact of the encoding, not an assumption: a lazy move writes every card's place as ``if guard and
test(card) then (here) else (before)``, so when at most one card's test holds, the sum over the cards changes by
exactly that one card's term.  At most one holds when the move has one card, or when every test is ``x == c``
of one term ``x`` and distinct constants ``c`` (:func:`exclusive`: a `move c to …` of a chosen card); a move
of which that is not seen (a havoc's unknown places, :mod:`checker.conflicts.loops`) starts the count again from
the sum over the cards' places after it.  So the count is equal to the sum it replaces in every state the
encoding describes: an expression read with it means what it meant; only Z3 sees an integer that moves by one
at a time instead of fifty places re-derived after every move.
"""

from __future__ import annotations

import z3

from checker.front.types import EnumT, GridT, KindT, RecordT
from checker.solver.aggregates import _sum     # the sum an aggregate `count` makes: the same term, found again
from checker.solver.factory import SolverSettings, make_solver, run
from checker.solver.formulas import AND, EQ, ITE, NOT, OR, as_bool, is_const
from checker.solver.terms import mk_arith

__all__ = ["Counts", "counted", "exclusive", "distinct"]

# the steps Z3 may take to prove a loop's elements different at one player count (:func:`distinct`): a list of
# eight seats takes about a hundred thousand
DISTINCT_RLIMIT = 2_000_000


def exclusive(tests) -> bool:
    """At most one test of a lazy move's ``{inst: test}`` can hold: one test, or each ``x == c`` for one term ``x``
    and distinct integer constants ``c`` (a test that is the constant false is none).  Not seen otherwise."""
    if type(tests) is not dict:         # made lazily (a havoc's): unknown places, not one card
        return False
    live = [t for t in tests.values() if not (is_const(t) and not t)]
    if len(live) <= 1:
        return True
    x, seen = None, set()
    for t in live:
        if is_const(t) or not z3.is_eq(t):
            return False
        a, b = t.arg(0), t.arg(1)
        if not z3.is_int_value(b):
            return False
        if x is None:
            x = a
        elif not a.eq(x):
            return False
        value = b.as_long()
        if value in seen:
            return False
        seen.add(value)
    return True


class Counts:
    """The count of cards in each cell ``(zone, index)`` of a store, after its lazy moves (the module's
    docstring).  :meth:`count` gives ``(sum, count)``: the sum over the cards' places as an aggregate reads it
    there, and the carried count, equal to it, or the same term when no move of one card changed the cell since
    the count last started from the sum."""

    def __init__(self, store):
        self.store = store
        self._memo: dict = {}       # (zone, index) -> (moves list, how many followed, the last, places, count)

    def count(self, zone: str, index) -> tuple | None:
        store, enc = self.store, self.store.enc
        if any(key[0] == "in" for key in store.writes):     # cards written cell by cell: not followed here
            return None
        insts = enc.kind_instances[enc.zone_kind[zone]]
        moves = store.moves
        held = self._memo.get((zone, index))
        if held is not None and held[0] is moves and held[1] <= len(moves) and \
                (held[1] == 0 or moves[held[1] - 1] is held[2]):
            _, start, _, places, carried = held
            places = dict(places)
        else:
            start, places, carried = 0, {}, None        # None: the sum over the places (the count starts there)

        def place(inst):
            value = places.get(inst)
            if value is None:
                value = places[inst] = store.base.member(zone, index, inst)
            return value

        swaps, inside = getattr(store, "swaps", {}), 0  # the moves of a swap: counted as a whole (_swapped)
        for m, (tests, zones, dest, where, guard) in enumerate(moves[start:], start):
            swap = swaps.get(id(moves[m]))
            if swap is not None and swap[0] is moves[m] and not inside and zone in zones:
                if carried is None:
                    carried = _sum(ITE(place(i), 1, 0) for i in insts if not (is_const(g := place(i)) and not g))
                delta = _swapped(swap, place)
                if not (is_const(delta) and delta == 0):        # 0 where both cards are known in a zone
                    carried = mk_arith("+", carried, delta)
                inside = swap[1]
            if inside:
                inside -= 1
                for i, t in tests.items():
                    places[i] = ITE(AND(guard, t), zone == dest and (index is None or EQ(where, index)), place(i))
                continue
            if zone not in zones or is_const(guard) and not guard:
                continue
            now = zone == dest and (index is None or EQ(where, index))
            if exclusive(tests):
                if carried is None:
                    carried = _sum(ITE(place(i), 1, 0) for i in insts if not (is_const(g := place(i)) and not g))
                comes = OR(*(AND(t, NOT(place(i))) for i, t in tests.items()))
                leaves = OR(*(AND(t, place(i)) for i, t in tests.items()))
                carried = mk_arith("-", mk_arith("+", carried, ITE(AND(guard, now, comes), 1, 0)),
                                   ITE(AND(guard, NOT(now), leaves), 1, 0))
            else:
                carried = None
            for i, t in tests.items():      # as Store.member writes a card's place
                places[i] = ITE(AND(guard, t), now, place(i))
        self._memo[(zone, index)] = (moves, len(moves), moves[-1] if moves else None, places, carried)
        total = _sum(ITE(g, 1, 0) for i in insts if not (is_const(g := store.member(zone, index, i)) and not g))
        return total, total if carried is None else carried


def _swapped(swap: tuple, place):
    """What a swap of cards ``a`` and ``b`` adds to a cell's count (``place``: each card's place in the cell
    before it).  Each card takes the other's place: ``a`` goes where ``b`` was when ``b`` is in a zone of the kind
    (else it stays), ``b`` where ``a`` was likewise; so nothing changes when both are in one or neither is, or when
    they are the same card, and the cell of the one that is in one gains the other when only one is."""
    _, _, ta, tb, a_some, b_some, guard = swap
    pa = OR(*(AND(t, place(i)) for i, t in ta.items()))
    pb = OR(*(AND(t, place(i)) for i, t in tb.items()))
    same = OR(*(AND(t, tb[i]) for i, t in ta.items() if i in tb))
    live = AND(guard, NOT(same))
    return mk_arith("+", ITE(AND(live, a_some, NOT(b_some), pa), 1, 0), ITE(AND(live, NOT(a_some), b_some, pb), 1, 0))


def _keys(enc, zone: str) -> list | None:
    """Every constant index of ``zone`` (None when it is indexed by a grid cell or a record)."""
    if enc.p.zones[zone].index is None:
        return [None]
    ty = enc.zone_index_types[zone]
    ty = getattr(ty, "inner", ty)
    if isinstance(ty, KindT):
        return list(enc.kind_instances[ty.name])
    if isinstance(ty, EnumT):
        return list(range(len(enc.enum_names[ty.name])))
    if isinstance(ty, (GridT, RecordT)):
        return None
    return list(enc.seats)


def counted(enc, value, zones):
    """``value`` (an expression encoded on ``enc``'s cells) with each sum over the cards' places of a cell of
    ``zones`` that it holds put as the count carried across the moves (:class:`Counts`), where ``enc`` reads a
    store with moves; otherwise ``value`` as it is."""
    store = enc.cells
    if is_const(value) or not getattr(store, "moves", None) or not zones:
        return value
    counts = getattr(store, "counts", None)
    if counts is None or counts.store is not store:
        counts = store.counts = Counts(store)
    pairs = []
    for zone in sorted(zones):
        keys = _keys(enc, zone)
        if keys is None:
            continue
        for k in keys:
            made = counts.count(zone, k)
            if made is None:
                return value
            total, carried = made
            if not is_const(total) and not total.eq(carried):
                pairs.append((total, carried if not isinstance(carried, int) else z3.IntVal(carried)))
    return z3.substitute(value, *pairs) if pairs else value


def distinct(coll: list, n, largest: int, memo: dict):
    """The fact that the elements of ``coll`` (a collection's ``[(guard, element)]``, as a `for` runs over it) are
    pairwise different where both are in it, when some are integer terms: proven by Z3 at each player count
    ``n == c`` for ``c`` in 1..``largest`` (``n`` a term; or at ``n`` itself), and said as one implication per
    count proven (a list of seats starting at a seat that is a term: each seat once).  None when there is nothing
    to say (all constants) or nothing was proven.  A move to a cell indexed by the loop's variable then goes to a
    different cell at each element, which a count (:class:`Counts`) needs to see that a pass gives each cell one
    card at most; over every count at once, Z3 finds it again from the remainders that make up each seat,
    together with everything else the question holds (docs/conflicts.md).  ``memo``: the answers so far for the
    terms of one encoder (the same list is run over at each pass of a loop around it)."""
    items = [(g, x) for g, x in coll if not (is_const(g) and not g)]
    if len(items) < 2 or all(is_const(x) for _, x in items) or not all(
            isinstance(x, (int, z3.ArithRef)) and not isinstance(x, bool) for _, x in items):
        return None
    key = tuple((g if is_const(g) else ("z", g.get_id()), x if is_const(x) else ("z", x.get_id())) for g, x in items)
    hit = memo.get(key)
    if hit is None:
        pairs = [z3.Implies(as_bool(AND(g, h)), as_bool(NOT(EQ(x, y))))
                 for a, (g, x) in enumerate(items) for h, y in items[a + 1:]]
        every = z3.And(pairs)
        proven = []
        for count in ([None] if is_const(n) else range(1, largest + 1)):
            s = make_solver(SolverSettings(rlimit=DISTINCT_RLIMIT))
            s.add(z3.Not(every) if count is None else z3.And(n == count, z3.Not(every)))
            if run(s).status == "unsat":
                proven.append(every if count is None else z3.Implies(n == count, every))
        hit = memo[key] = (items, z3.And(proven) if proven else None)     # the terms kept alive: their ids stay
    return hit[1]
