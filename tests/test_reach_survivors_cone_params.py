"""`rulebook reach --rounds` (checker/solver/unroll_cone.py `Writes._block`): an action given a lot the player chose
from a zone that is not kept (the stall, here) moves that lot from there — a `set` of a var before the move moves no
card, so the lot is still known to be on the stall, and moving it to the discard (not kept either) changes nothing
kept: `jeter` is not followed (a cut that loses nothing), as the basket, the only kept zone of its kind, is never
touched.  Survivor of the blind mutation sample 5181 (the lead's run): unroll_cone.py:185 `not isinstance(s,
ast.SetVar)` → `isinstance(…)` (what is known of the parameters' zones dropped after a `set`, kept after a move)."""

from __future__ import annotations

import json

from checker.cli import main
from conftest import ROOT

OFFER = """      offer p {
        acheter(p, l) for l in étal
        powers of panier[p]
        finish "Passer"
      }"""
THROW = """
zone défausse: pile of Lot public
var jetés: Int = 0
action jeter(p: Player, l: Lot) "Jeter un lot de l'étal." {
  set jetés = jetés + 1
  move l to défausse
}
"""


def test_a_lot_chosen_from_a_cut_zone_and_thrown_away_after_a_set_is_not_followed(tmp_path, capsys):
    text = (ROOT / "tests" / "fixtures" / "good" / "minimal_game.rules").read_text(encoding="utf-8")
    assert OFFER in text
    spec = tmp_path / "marché_jeté.rules"
    spec.write_text(text.replace(OFFER, OFFER + "\n      choose c in étal by p\n      do jeter(p, c)") + THROW,
                    encoding="utf-8")
    code = main(["reach", str(spec), "count(l in panier[Joueur 1]) >= 2", "--rounds", "1", "--keep",
                 "tours_joués,bourse,réserve", "-n", "2", "-s", "1", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert "panier" in out["kept"] and "étal" not in out["kept"] and "défausse" not in out["kept"], out
    assert "jeter" in out["not_followed"], out
    assert out["status"] != "proved" and code != 1, out      # two lots in a basket are reached in the game
