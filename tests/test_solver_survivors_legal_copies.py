"""`legal` on a move that names a card of two copies (checker/solver/command.py): each copy is judged, and where none
is legal, the verdict shown is the best ranked (`_rank`: the copy the player has, then the fewest reasons) and,
among copies ranked alike, the FIRST — the card's own name, as a move file and an example read it.  Both copies of
the "Quatre" here are forbidden alike (`pas_les_fortes`, and neither is in the empty discard).  Survivor of the
blind mutation sample 5181 (seed 5181, the lead's run): command.py:153 `_rank(answer) < _rank(verdict)` → `<=`
(the last of the copies ranked alike shown: "Quatre#2")."""

from __future__ import annotations

import json

from conftest import run_cli
from test_solver_survivors_legal import GAME

TWO = GAME.replace('card Carte "Quatre" { valeur: 4 }', 'card Carte "Quatre" { valeur: 4  copies: 2 }').replace(
    "kind Carte { valeur: Int in 1..4  start: pioche }", "kind Carte { valeur: Int in 1..4  copies: Int = 1  start: pioche }")


def test_among_copies_forbidden_alike_the_first_is_shown(capsys, tmp_path):
    assert TWO != GAME
    spec = tmp_path / "reprise.rules"
    spec.write_text(TWO, encoding="utf-8")
    state = tmp_path / "etat.json"
    code, _, err = run_cli(capsys, "play", str(spec), "-n", "2", "-s", "1", "-q", "--state-at", "1", str(state))
    assert code == 0, err
    move = tmp_path / "coup.json"
    move.write_text(json.dumps({"player": "Joueur 1", "action": "reprendre", "args": ["Joueur 1", "Quatre"]},
                               ensure_ascii=False), encoding="utf-8")
    code, out, _ = run_cli(capsys, "legal", str(state), str(move), "--json")
    verdict = json.loads(out)
    assert code == 1 and verdict["status"] == "illegal", verdict
    assert verdict["move"] == "reprendre(Joueur 1, Quatre)", verdict
    assert "Quatre#2" not in json.dumps(verdict, ensure_ascii=False), verdict
