"""`legal` on a move that names a card of two copies (checker/solver/command.py): each copy is judged, and where none
is legal, the verdict shown is the best ranked (`_rank`: the copy the player has, then the fewest reasons) and,
among copies ranked alike, the FIRST — the card's own name, as a move file and an example read it.  Both copies of
the "Quatre" here are forbidden alike (`pas_les_fortes`, and neither is in the empty discard).  Survivor of the
blind mutation sample 5181 (seed 5181, the lead's run): command.py:153 `_rank(answer) < _rank(verdict)` → `<=`
(the last of the copies ranked alike shown: "Quatre#2")."""

from __future__ import annotations

import json

from test_solver_survivors_legal import GAME, _verdict

TWO = GAME.replace('card Carte "Quatre" { valeur: 4 }', 'card Carte "Quatre" { valeur: 4  copies: 2 }').replace(
    "kind Carte { valeur: Int in 1..4  start: pioche }", "kind Carte { valeur: Int in 1..4  copies: Int = 1  start: pioche }")


def test_among_copies_forbidden_alike_the_first_is_shown(capsys, tmp_path):
    assert TWO != GAME
    verdict = _verdict(capsys, tmp_path, "Quatre", TWO)
    assert verdict["move"] == "reprendre(Joueur 1, Quatre)", verdict
    assert "Quatre#2" not in json.dumps(verdict, ensure_ascii=False), verdict
