"""A conflict witness's zones (checker/solver/witness.py `witness_files`): a card the model puts in a zone indexed by
a seat the game does not have (seat 2 or more in a two-player game: the encoder's cells may range over more seats
than the model's player count) is not written there — the state file holds the seats of its players only, and
`rulebook legal`/the replay would read `panier[Joueur 3]` of a two-player game.  Survivor of the lead's blind
mutation sample 2611 (whole suite): witness.py:151 `index >= players` → `index > players` (the first seat past the
game written: no covering model put a card there)."""

from __future__ import annotations

import z3

from checker.solver.witness import witness_files
from test_solver_survivors_s2611_witness_moved import _search


def test_a_card_at_a_seat_past_the_players_is_not_written_there(tmp_path):
    search = _search(tmp_path)          # two players
    ail, basilic = search.engine.card("Ail"), search.engine.card("Basilic")
    for seat in (2, 3):
        enc = search.encoder()
        s = z3.Solver()
        s.add(enc.cells.member("panier", seat, ail), enc.cells.member("panier", 1, basilic))
        assert s.check() == z3.sat
        state, _, _ = witness_files(search, enc, s.model(), "prendre", (1, basilic))
        assert state["players"] == 2
        assert state["zones"]["panier"] == {"Joueur 2": ["Basilic"]}, state["zones"]
        assert all("Ail" not in cards for cards in state["zones"]["panier"].values()), state["zones"]
