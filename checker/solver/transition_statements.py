"""The Z3 encoding of `retarget`, `swap` and `each … chooses` (:mod:`checker.front.ast_statements`);
:mod:`checker.solver.transition` registers them (:func:`register`), so this module does not import it.

- `swap` of two zones: the cards of each (as they are before) go to the other — two moves, each of a snapshot,
  so a card is moved once; nothing happens when both name the same zone.  `swap` of two cards: for each zone
  of their kind, each card goes there — at the index where the other was — when the other was in it before
  (one move per zone, its index a term, not one per cell).  A card's name (not a physical card)
  or none is the interpreter's failure.
- `each p in ps chooses x in coll … into v[p]`: one unknown per player, in the order of ``ps``, ranging over the
  options read with ``p`` bound on the state before any choice (the interpreter changes nothing until all have
  chosen); a player with no option stops the body, as a `choose` does; then every cell is written.
- `retarget` is raised as a `cancel` is (its own kind, ``retarget``): nothing after it runs, the window's other
  reactions are skipped, and the window's `signal` catches it (:meth:`Transition._signal`).  The action whose
  `before` window it closed then aborts, as a cancelled one does, and that abort is marked *redirected*
  (:attr:`Transition.redirected`) until a catcher of aborts takes it: a procedure (which only stops), or the power
  whose body did the action, whose use cells are written back to what they held before it was used
  (:meth:`Transition.power`) — the interpreter's :class:`~checker.runtime.cards.Redirected`.
"""

from __future__ import annotations

import z3

from checker.front import ast
from checker.front.types import Coll, KindT
from checker.solver.encode import AND, EQ, ITE, NONE, NOT, OR, as_bool, is_const
from checker.runtime.state import SWAP_NOWHERE
from checker.solver.terms import conjuncts

__all__ = ["register", "note_place"]

ABORT = "abort"         # transition.ABORT
RETARGET = "retarget"   # transition.RETARGET


def _place(name: str, span) -> ast.Place:
    return ast.Place(ast.LValue(name, None, span), "any", span)


def _zone_of(t, e: ast.Expr, env):
    """(name, index value) of a zone written as an expression."""
    if isinstance(e, ast.Name):
        return e.id, None
    index = t.expr(e.index, env)
    if isinstance(t.enc.zone_index_types[e.obj.id], KindT):
        index = t.enc.physical(index, e.span)
    return e.obj.id, index


def _swap_zones(t, s: ast.Swap, env, guard) -> None:
    enc = t.enc
    (na, ia), (nb, ib) = _zone_of(t, s.left, env), _zone_of(t, s.right, env)
    same = False
    if na == nb:
        same = True if ia is None else EQ(ia, ib)
    guard = AND(guard, NOT(same), t.running)
    if is_const(guard) and not guard:
        return
    cards_a, cards_b = enc.zone(na, ia, s.span), enc.zone(nb, ib, s.span)     # both read before anything moves
    for g, inst in cards_a:
        t.move(inst, _place(nb, s.span), ib, AND(guard, g), s.span)
    for g, inst in cards_b:
        t.move(inst, _place(na, s.span), ia, AND(guard, g), s.span)


def _swap_cards(t, s: ast.Swap, env, guard) -> None:
    enc = t.enc
    kind = enc.type_of(s.left).name
    a, b = t.expr(s.left, env), t.expr(s.right, env)
    bad = OR(*(enc.eq(x, inst) for x in (a, b) for inst in enc.possible(x, kind) if inst == NONE or inst < 0))
    t.fail(AND(guard, bad), s.span, "only a physical card can move (this is a card's name)")
    guard = AND(guard, t.running)
    if is_const(guard) and not guard:
        return

    def at(card, zone, key):
        return OR(*(AND(enc.eq(card, inst), t.store.member(zone, key, inst)) for inst in enc.possible(card, kind)
                    if inst != NONE and inst >= 0))

    def where(keys, tests):
        """The index of the zone a card is in: the key whose test holds (one at most)."""
        if keys == [None]:
            return None
        out = keys[-1]
        for k, test in reversed(list(zip(keys[:-1], tests[:-1]))):
            out = ITE(test, k, out)
        return out

    known = [_placed(t, x, guard) for x in (a, b)]      # a card chosen from a cell is there (_placed)
    before = []             # per zone of the kind: is each card in it, and at which index (before either moves)
    for z in [z for z, zk in enc.zone_kind.items() if zk == kind]:
        keys = t.zone_keys(z, s.span)
        pair = []
        for x, cell in zip((a, b), known):
            if cell is not None:
                pair += [cell[0] == z, cell[1] if cell[0] == z else None]
            else:
                tests = [at(x, z, k) for k in keys]
                pair += [OR(*tests), where(keys, tests)]
        before.append((z, *pair))
    if not enc.p.kinds[kind].start:
        # a card in no zone has no place to give: a failure, as in the interpreter.  Only a kind without a `start`
        # zone has selected cards there: the set-up puts every other card in a zone and nothing takes one out of
        # every zone (an unselected card, which the interpreter never makes, is no operand of a swap it runs)
        same = OR(*(AND(enc.eq(a, i), enc.eq(b, i)) for i in enc.possible(a, kind) if i != NONE and i >= 0))
        nowhere = OR(NOT(OR(*(x[1] for x in before))), NOT(OR(*(x[3] for x in before))))
        t.fail(AND(guard, NOT(same), nowhere), s.span, SWAP_NOWHERE)
        guard = AND(guard, t.running)
        if is_const(guard) and not guard:
            return
    first = len(t.store.moves)
    for z, a_there, a_index, b_there, b_index in before:
        for card, there, index in ((a, b_there, b_index), (b, a_there, a_index)):
            if not (is_const(there) and not there):         # a zone the other card cannot be in: no move
                t.move(card, _place(z, s.span), index, AND(guard, there), s.span)
    made = t.store.moves[first:]
    if made:        # what the swap changes in a cell's count, as a whole (transition_counts.Counts)
        tests = [{i: enc.eq(x, i) for i in enc.possible(x, kind) if i != NONE and i >= 0} for x in (a, b)]
        t.store.swaps[id(made[0])] = (made[0], len(made), *tests, OR(*(x[1] for x in before)),
                                      OR(*(x[3] for x in before)), guard)


def note_place(t, s: ast.Choose, env, value, chosen) -> None:
    """After `choose x in z[k]` (a zone's cell; ``chosen``: when a card is chosen, ``value`` the card): ``x`` is
    in that cell when chosen (the choice's bound, ``chosen`` implies ``value`` is one of the cell's cards), noted
    for a `swap` of ``x`` while nothing has moved since (:func:`_placed`)."""
    e = s.coll
    zone = e.id if isinstance(e, ast.Name) else e.obj.id if isinstance(e, ast.Index) and isinstance(e.obj, ast.Name) \
        else None
    if zone not in t.enc.zone_kind or is_const(value) or is_const(chosen) and not chosen:
        return
    zone, index = _zone_of(t, e, env)
    store = t.store
    placed = t.__dict__.setdefault("placed", {})
    placed[value.get_id()] = (value, zone, index, chosen, store, store.moves, len(store.moves),
                              store.moves[-1] if store.moves else None)


def _placed(t, card, guard):
    """``(zone, index)`` of the cell card ``card`` is in wherever ``guard`` holds, when it was chosen from that cell
    (:func:`note_place`), no card has moved nor been written since, and ``guard`` implies that it was chosen
    (:func:`_implies`); else None.  Then the choice's bound says it is one of the cell's cards, whose places are
    unchanged since: it is there, and in no other cell (a card has one place at most).  A swap of it reads its
    place as that cell instead of a disjunction over every cell of every zone: the same value wherever the swap
    runs (where ``guard`` does not hold, nothing the swap writes is read)."""
    held = getattr(t, "placed", {}).get(card.get_id()) if not is_const(card) else None
    if held is None:
        return None
    value, zone, index, chosen, store, moves, count, last = held
    if value is not card or store is not t.store or moves is not store.moves or len(moves) != count or \
            count and moves[-1] is not last or any(key[0] == "in" for key in store.writes):
        return None
    return (zone, index) if _implies(guard, chosen) else None


def _conjuncts(x, out: dict) -> dict:
    """The conjuncts of ``x`` that are not constants (:func:`~checker.solver.terms.conjuncts`), by id (the terms
    kept: their ids stay), added to ``out``."""
    for c in conjuncts(x):
        if not is_const(c):
            out[c.get_id()] = c
    return out


def _implies(guard, goal, depth: int = 2) -> bool:
    """Whether ``guard`` implies ``goal``, seen on their terms alone (a sound test, not complete): each conjunct of
    ``goal`` is one of ``guard``'s, or a ``b`` of which ``guard`` holds ``Not(And(…, Not(b)))`` with the other
    conjuncts implied, or ``Not(Not(b))`` (``running`` after a `choose`: not (reached and no option)); or, for a
    disjunction among ``guard``'s conjuncts (``running`` after a catch: the abort caught or none raised), ``goal``
    is implied with each disjunct added (``depth``: how many disjunctions deep)."""
    if is_const(goal):
        return bool(goal)
    if is_const(guard):
        return not guard
    facts = _conjuncts(guard, {})
    return _follows(facts, goal, depth)


def _follows(facts: dict, goal, depth: int, pending: frozenset = frozenset()) -> bool:
    """``goal`` follows from ``facts`` (:func:`_implies`); ``pending``: the goals being shown from these facts (none
    twice: a goal that needs itself is not taken)."""
    if is_const(goal):
        return bool(goal)
    if z3.is_and(goal):
        return all(_follows(facts, g, depth, pending) for g in goal.children())
    key = goal.get_id()
    if key in facts:
        return True
    if key in pending:
        return False
    pending = pending | {key}
    for f in facts.values():
        if z3.is_not(f) and z3.is_not(f.arg(0)) and f.arg(0).arg(0).eq(goal):     # Not(And(True, Not(b)))
            return True
        if z3.is_not(f) and z3.is_and(f.arg(0)):
            parts = f.arg(0).children()
            rest = [p for p in parts if not (z3.is_not(p) and p.arg(0).eq(goal))]
            if len(rest) == len(parts) - 1 and all(_follows(facts, p, 0, pending) for p in rest):
                return True
    if depth > 0:
        for f in list(facts.values()):
            if z3.is_or(f) and all(_follows(_conjuncts(d, dict(facts)), goal, depth - 1)     # more facts
                                   for d in f.children()):
                return True
    return False


def _swap(t, s: ast.Swap, env, guard) -> None:
    if isinstance(t.enc.type_of(s.left), Coll):
        _swap_zones(t, s, env, guard)
    else:
        _swap_cards(t, s, env, guard)


def register(on, choice) -> None:
    """Register the encoders in transition's table (``on``); ``choice`` is its :class:`Choice`."""

    def _choose_each(t, s: ast.ChooseEach, env, guard) -> None:
        enc = t.enc
        ty = enc.type_of(s.coll)
        elem = ty.elem if isinstance(ty, Coll) else ty
        picked = []
        players = enc.coll(s.players, env)
        enc.spend(len(players), s.span)
        for g, player in players:
            here = AND(guard, g, t.running)
            if is_const(here) and not here:
                continue
            penv = {**env, s.player: player}
            options = []
            for og, x in enc.coll(s.coll, penv):
                if is_const(og) and not og:
                    continue
                ok = True if s.where is None else t.expr(s.where, {**penv, s.var: x})
                options.append((AND(og, ok), x))
            t.checked_partial(here)
            some = OR(*(og for og, _ in options))
            t.raise_(ABORT, AND(here, NOT(some)))
            if is_const(some) and not some:
                return
            chosen = AND(here, some)
            value, inside = enc.fresh(t.fresh_name(f"{s.var} ({s.player})"), elem, options)
            bound = z3.Implies(as_bool(chosen), as_bool(inside))
            t.constraints.append(bound)
            t.choices.append(choice(s.span, s.var, value, chosen, options, type=elem, chosen=chosen, inside=inside,
                                    bound=(bound,)))
            picked.append((g, penv, value))
        for g, penv, value in picked:        # all have chosen: the cells are written together
            t.write_var(s.target, value, penv, AND(guard, g, t.running), s.span)

    on(ast.Retarget)(lambda t, s, env, guard: t.raise_(RETARGET, guard))
    on(ast.Swap)(_swap)
    on(ast.ChooseEach)(_choose_each)

