"""`left(p)` and `right(p)`, Z3's encoding against the interpreter's, on a state where they differ: the
character of rank 4 held by one player, every player asking whether it sits next to him
(``voisin_du_rang_4``, read both ways).  Random play seldom puts the rank 4 beside the one who asks, and a
mutant of Z3's `right` (p - 1 → p + 1) survived every interpreter-vs-Z3 test."""

from __future__ import annotations

import functools

from checker.solver.encode import Encoder
from checker.solver.statefile import load_state
from test_solver import engine, play_points, scopes
from test_solver_boundaries import _value


@functools.cache
def state() -> dict:
    return play_points("Développement", 5, 2, every=5, limit=1)[2][0]


def test_left_and_right_are_the_same_neighbours_for_z3_and_the_interpreter():
    e = engine()
    load_state(e, state(), scopes())
    players = list(range(e.st.n))
    four = next(c for c in e.selected["Character"] if e.card_attrs[e.def_of[c]].get("rank") == 4)
    q = e.program.quantities["voisin_du_rang_4"]
    neighbours = {}
    for holder in players:
        e.st.put(four, "choisis", holder, "top")
        e.invalidate()
        enc = Encoder(e, concrete=True)
        types = [enc.resolve(x.type) for x in q.params]
        for p in players:
            for dead in (False, True):
                interpreted = e.quantity("voisin_du_rang_4", (p, dead))
                z3_value = _value(enc.quantity("voisin_du_rang_4", tuple(enc.from_runtime(v, t) for v, t in
                                                                        zip((p, dead), types))))
                assert z3_value == interpreted, (holder, p, dead)
                if interpreted:
                    neighbours.setdefault(holder, set()).add(p)
    n = len(players)
    assert neighbours == {h: {(h + 1) % n, (h - 1) % n} for h in players}, "the edge is reached: both sides"
