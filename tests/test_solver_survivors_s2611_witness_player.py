"""A conflict witness's decision point (checker/solver/witness.py `_player`): the player it is for.  For a move
that names its player (`agir(p)`, offered as `offer p { agir(p) … }`) it is the move's argument; for a move that
names none (`sonner()`), the value the model gives the var the turn procedure sets to the offer's player (`set
courant = p`), not the first seat; and for a game whose flow reaches no offer, the witness is said, not written.
Survivor of the lead's blind mutation sample 2611 (whole suite): witness.py:98 `at is not None` → `at is None` (the
move's player argument skipped — the witness put at the mirrored var's player or the first seat — and a move with
no player argument an internal error: every covering test's witness moved for the first seat or the mirrored one,
and every move named its player)."""

from __future__ import annotations

import z3

from checker.conflicts.questions import Search
from checker.front.check import check_paths
from checker.solver.witness import witness_files

GAME = """\
game "Cloche" { players: 2..3  flow: partie  turn: tour }

kind Jeton { valeur: Int in 1..2  start: réserve }
zone réserve: set of Jeton public
var courant: Player? = none
var sonné: Bool = false

action sonner() "Sonner la cloche." { set sonné = true }

card Jeton "Un" { valeur: 1 }

procedure tour(p: Player) {
  set courant = p
  offer p { sonner()  finish "Passer" }
}

procedure partie() { for p in players { call tour(p) } }

configuration "Tout" { include Jeton: "Un" }
"""


def _search(tmp_path, text: str, name: str):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    result = check_paths([path])
    assert result.ok, result.reporter.sorted()
    return Search(result.typed, players=3)


def _model(enc, seat: int):
    s = z3.Solver()
    s.add(enc.eq(enc.var("courant"), seat))
    assert s.check() == z3.sat
    return s.model()


def test_a_move_that_names_no_player_is_put_at_the_turn_of_the_player_the_turns_var_holds(tmp_path):
    search = _search(tmp_path, GAME, "cloche.rules")
    for seat, name in ((1, "Joueur 2"), (2, "Joueur 3"), (0, "Joueur 1")):
        enc = search.encoder()
        state, move, _ = witness_files(search, enc, _model(enc, seat), "sonner", ())
        assert state["vars"]["courant"] == name, state["vars"]
        assert state["decision"]["player"] == name and state["decision"]["names"] == {"p": name}, state["decision"]
        assert move["player"] == name, move


def test_a_game_whose_flow_reaches_no_offer_has_its_witness_said_not_written(tmp_path):
    text = GAME.replace('  offer p { sonner()  finish "Passer" }\n', '  log "Rien"\n')
    assert text != GAME
    search = _search(tmp_path, text, "sans_offre.rules")
    enc = search.encoder()
    state, move, lines = witness_files(search, enc, _model(enc, 1), "sonner", ())
    assert (state, move) == (None, None)
    assert lines[:2] == ["player_count = 3", "sonner()"], lines


PLAIN = """\
game "Tour simple" { players: 2..3  flow: partie  turn: tour }

kind Jeton { valeur: Int in 1..2  start: réserve }
zone réserve: set of Jeton public
var fait: Bool = false

action agir(p: Player) "Agir." { set fait = true }

card Jeton "Un" { valeur: 1 }

procedure tour(p: Player) { offer p { agir(p)  finish "Passer" } }

procedure partie() { for p in players { call tour(p) } }

configuration "Tout" { include Jeton: "Un" }
"""


def test_a_move_that_names_its_player_is_put_at_that_players_turn(tmp_path):
    """No var mirrors the offer's player here: only the move's argument says whose turn it is."""
    search = _search(tmp_path, PLAIN, "simple.rules")
    for seat, name in ((2, "Joueur 3"), (1, "Joueur 2"), (0, "Joueur 1")):
        enc = search.encoder()
        s = z3.Solver()
        assert s.check() == z3.sat
        state, move, _ = witness_files(search, enc, s.model(), "agir", (seat,))
        assert state["decision"]["player"] == name and state["decision"]["names"] == {"p": name}, state["decision"]
        assert move == {**move, "player": name, "args": [name]}, move
