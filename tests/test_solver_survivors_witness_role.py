"""A conflict witness's decision point (checker/solver/witness.py `witness_files`): the turn's card named at the
offer is the one the var the turn procedure sets to it holds in the model (`set actif = r`: the card the model
gives `actif`), not the first var of that kind the model gives a value.  Survivor of the blind mutation sample
h164 (solver, seed 6164), witness.py:233 `IsNot → Is` (the mirrored var's value dropped for the first card-valued
var: a witness at the wrong card's turn)."""

from __future__ import annotations

import z3

from checker.conflicts.questions import Search
from checker.front.check import check_paths
from checker.solver.witness import witness_files

GAME = """\
game "Rôles" { players: 2..2  flow: partie  turn: tour }

kind Rôle { rang: Int in 1..2  start: réserve }
zone réserve: set of Rôle public
var ancien: Rôle? = none
var actif: Rôle? = none

action agir(p: Player) "Agir." { set ancien = actif }

card Rôle "A" { rang: 1 }
card Rôle "B" { rang: 2 }

procedure tour(p: Player, r: Rôle) {
  set actif = r
  offer p { agir(p)  finish "Passer" }
}

procedure partie() { for p in players { for r in réserve { call tour(p, r) } } }

configuration "Tout" { include Rôle: "A", "B" }
"""


def test_the_witness_is_at_the_turn_of_the_card_the_turns_var_holds(tmp_path):
    path = tmp_path / "roles.rules"
    path.write_text(GAME, encoding="utf-8")
    result = check_paths([path])
    assert result.ok, result.reporter.sorted()
    search = Search(result.typed, players=2)
    enc = search.encoder()
    a, b = search.engine.card("A"), search.engine.card("B")
    s = z3.Solver()
    s.add(enc.eq(enc.var("ancien"), a), enc.eq(enc.var("actif"), b))     # the model: ancien = A, actif = B
    assert s.check() == z3.sat
    state, _, _ = witness_files(search, enc, s.model(), "agir", (0,))
    assert state["vars"] == {"ancien": "A", "actif": "B"}, state["vars"]
    assert state["decision"]["names"] == {"p": "Joueur 1", "r": "B"}, state["decision"]
