"""The index of a store's lazy moves by card (checker/solver/transition_store.py `Store._moves_of`) follows the list
of moves as moves are added: each move is indexed once, however many places are read between two moves.  Survivor
of the blind mutation sample h158 (solver 1129), transition_store.py:62 `1 → 2` (`moves[count - 2] is not last`:
the check that the list is still the one indexed fails at every read, and the whole index is made again — the same
moves, more work, which no test counted).  Private: what this line changes is the cost of a read only, which no
command shows but as CPU time; tests/test_solver_term_costs.py builds a store the same way."""

from __future__ import annotations

import types

import z3

from checker.solver.transition_store import Store


class _Indexed(dict):
    """A move's {card: test}, counting how often its cards are listed (the index lists them once per move)."""

    listed = 0

    def __iter__(self):
        _Indexed.listed += 1
        return super().__iter__()


def test_each_lazy_move_is_indexed_once_while_places_are_read_between_moves():
    state = types.SimpleNamespace(enc=None, concrete=False, made={}, meaning={},
                                  member=lambda zone, index, inst: z3.Bool(f"{inst} ∈ {zone}[{index}]"))
    store = Store(state)
    zones = frozenset({"main", "cité"})
    _Indexed.listed = 0
    for k in range(40):
        store.move(_Indexed({k % 3: z3.Bool(f"t{k}")}), zones, "cité", None, z3.Bool(f"g{k}"))
        store.member("main", None, k % 3)
        store.member("cité", None, (k + 1) % 3)
    assert _Indexed.listed == 40
    # a search that puts back an earlier list for a while (checker/solver/unroll_cone.py) has it indexed anew
    moves = store.moves
    store.moves = moves[:10]
    _Indexed.listed = 0
    store.member("main", None, 0)
    assert _Indexed.listed == 10
    store.moves = moves
    _Indexed.listed = 0
    store.member("main", None, 0)
    store.member("main", None, 1)
    assert _Indexed.listed == 40
