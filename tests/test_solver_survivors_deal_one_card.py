"""A `move` of a local collection, as `rulebook reach` follows the deal (checker/solver/unroll.py `_move`): for
several cards, one Z3 question per pile (do none of them lie in it? Deal.none_inside); for one card, the questions
a move of that card asks, no more.  Survivor of the blind mutation sample h158 (solver 2811), unroll.py `len(cards)
> 1` → `>= 1` (then :609, now :622): a one-card collection asked Z3 its pile question twice, once for the set and
once for its card — the same answers, one question more, which `reach` prints ("N Z3 questions while unrolling")
and which no test compared."""

from __future__ import annotations

import json

from checker.cli import main

GAME = """\
game "Tas" { players: 2..2  flow: partie }

kind Carte { valeur: Int in 1..4  start: pioche }
zone pioche: pile of Carte public
zone défausse: pile of Carte public
zone main[Player]: set of Carte public

card Carte "Un" { valeur: 1 }
card Carte "Deux" { valeur: 2 }
card Carte "Trois" { valeur: 3 }
card Carte "Quatre" { valeur: 4 }

procedure partie() {
  shuffle pioche
  for p in players {
    choose c in pioche by p
    move MOVED to main[p]
    draw 1 from pioche to défausse
  }
}

configuration "Tout" { include Carte: "Un", "Deux", "Trois", "Quatre" }
"""


def test_a_set_of_one_chosen_card_is_moved_as_the_card_is(tmp_path, capsys):
    """`move {c}` and `move c`: the same path reached, confirmed by the interpreter, with the same questions."""
    out = {}
    for moved in ("c", "{c}"):
        spec = tmp_path / f"tas-{len(moved)}.rules"
        spec.write_text(GAME.replace("MOVED", moved), encoding="utf-8")
        code = main(["reach", str(spec), "count(x in défausse) == 2", "--within", "2", "-n", "2", "-s", "1",
                     "--json"])
        out[moved] = json.loads(capsys.readouterr().out)
        assert code == 0 and out[moved]["status"] == "reached" and out[moved]["confirmed"] is True
    assert out["{c}"]["decisions"] == out["c"]["decisions"]
    assert out["{c}"]["z3_questions"] == out["c"]["z3_questions"] >= 1
