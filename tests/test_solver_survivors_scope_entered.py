"""A new turn in the Z3 unrolling (checker/solver/counters.py `enter_scope`, called by Unrolled for the turn and round
procedures): on the paths where its guard holds, every power's cell of that scope says « not used in it ».  Written
for the survivor counters.py:39 `not removed` of the blind solver sample h169 (bench/results/mutation-2026-11-29-
h169.txt): the mutant returns at once on a constant TRUE guard, so a power used in the turn before stays used in the
new one.  The unrolling's guard is constant true only while no decision can have ended the game, where from the
set-up no power is used yet: the tests of the set never saw a difference.  One resumed mid-turn, after a use, would
(a power refused that the game allows: a false « proved »); that case is not built here — the contract is pinned on
the market's power directly."""

from __future__ import annotations

import z3

from checker.solver.counters import enter_scope
from checker.solver.encode import Encoder
from checker.solver.unroll import Unrolled
from test_unroll import _market, started


def _unrolled():
    e = started(_market(), 2, 1)
    t = Unrolled(Encoder(e, concrete=True), 2)
    return e, t, ("used", 0, e.card("Poivre noir"), "flairer", "turn")


def _is(term, value: bool) -> bool:
    """The cell is the constant ``value`` (the store keeps constants as Python booleans or Z3 values)."""
    if isinstance(term, bool):
        return term is value
    return z3.is_true(z3.simplify(term)) if value else z3.is_false(z3.simplify(term))


def test_a_turn_every_path_starts_leaves_no_power_used_in_it():
    e, t, key = _unrolled()
    t.store.write(key, z3.BoolVal(True), True)
    assert _is(t.store.read(key), True)
    written = enter_scope(t, "turn", True, every=True)
    assert written == len(t.enc.seats) * 1          # the market's one power, for each seat
    assert _is(t.store.read(key), False)


def test_a_turn_some_paths_start_leaves_the_power_unused_on_those_paths_only():
    e, t, key = _unrolled()
    t.store.write(key, z3.BoolVal(True), True)
    g = z3.Bool("g")
    assert enter_scope(t, "turn", g, every=True) == len(t.enc.seats)
    cell = t.store.read(key)
    assert _is(z3.substitute(cell, (g, z3.BoolVal(True))), False)
    assert _is(z3.substitute(cell, (g, z3.BoolVal(False))), True)
    assert enter_scope(t, "turn", False, every=True) == 0           # no path starts it: nothing written


def test_a_power_used_on_every_path_is_recorded_used_in_its_game_round_and_turn():
    """transition.py's `used`: a use whose guard is the constant true (a power the move uses for certain) marks its
    cells used in the game, the round and the turn; a use on some paths marks them on those paths.  Survivor of the
    blind solver sample h171 (seed 7171): transition.py:343 `not removed` (`if is_const(g) and g: continue`: a
    certain use not recorded, so a once-per-turn power stays usable after it); the sample counted it a timeout
    (its covering tests ran past 600 s)."""
    from types import SimpleNamespace
    e, t, (_, seat, card, name, _) = _unrolled()
    power = SimpleNamespace(name=name)
    t.used(seat, card, power, True)
    for scope in ("game", "round", "turn"):
        assert _is(t.store.read(("used", seat, card, name, scope)), True), scope
    g = z3.Bool("g")
    other = 1 - seat
    t.used(other, card, power, g)
    cell = t.store.read(("used", other, card, name, "turn"))
    assert _is(z3.substitute(cell, (g, z3.BoolVal(True))), True)
    assert _is(z3.substitute(cell, (g, z3.BoolVal(False))), False)


def test_the_cut_unrolling_records_a_power_used_and_drops_a_cut_zones_card():
    """The rounds search's store (unroll_cone.py's CutStore, with only some cells kept): a power's use is recorded
    whatever is kept (its cells are not a var's or a zone's), a card put in a zone not kept is dropped (read
    afresh: an unknown).  Survivor of the blind solver sample h171 (seed 7171): unroll_cone.py:79 `==` → `!=`
    (`key[0] != "in" and key[1] not in kept`: every use dropped — its key's second part is a seat, never kept — so
    the search follows a once-per-turn power as unused after its use; and a zone not kept written, which reads
    ignore); the sample counted it a
    timeout (its covering tests ran past 600 s)."""
    from checker.solver.unroll_cone import Coned
    e = started(_market(), 2, 1)
    t = Coned(Encoder(e, concrete=True), {"bourse"}, 1, 2)
    card = e.card("Poivre noir")
    key = ("used", 0, card, "flairer", "turn")
    t.store.write(key, True, True)
    assert _is(t.store.read(key), True)
    t.store.write(("in", "panier", 0, card), True, True)
    cell = t.store.member("panier", 0, card)
    assert not isinstance(cell, bool) and z3.is_const(cell) and str(cell).startswith("coupé panier")
