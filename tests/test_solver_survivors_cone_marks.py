"""Tests written for the survivors of the blind solver sample of h158 (seed 2811,
bench/results/mutation-2026-11-29-h158.txt) in checker/solver/unroll_cone.py: a move whose effect writes a kept
cell (to the value it holds) and then aborts changes nothing kept — a stutter, forbidden — so the offer is not asked
again and again and the rounds search still proves what it proves without that move."""

from __future__ import annotations

import json

from checker.cli import main
from conftest import ROOT

MARQUER = '''
var marque: Int = 0
action marquer(p: Player) "Marquer, puis prendre un lot trop cher." {
  set marque = 0
  choose l in étal where l.prix > 5 by p
  move l to panier[p]
}
'''


def test_a_kept_cell_written_to_its_own_value_before_an_abort_is_a_stutter(tmp_path, capsys):
    """`marquer` sets `marque` (kept) to 0, what it always holds, then always aborts (no lot costs more than 5): the
    cell written since the move began is compared with what it held, found the same, and the move is a stutter:
    three lots in Joueur 1's basket within 3 rounds is proved, as without `marquer`."""
    text = (ROOT / "tests" / "fixtures" / "good" / "minimal_game.rules").read_text(encoding="utf-8")
    assert text.count('        finish "Passer"') == 1
    text = text.replace('        finish "Passer"', '        marquer(p)\n        finish "Passer"')
    spec = tmp_path / "marché.rules"
    spec.write_text(text + MARQUER, encoding="utf-8")
    code = main(["reach", str(spec), "count(l in panier[Joueur 1]) == 3", "--rounds", "3",
                 "--keep", "bourse,étal,tours_joués,réserve,marque", "-n", "2", "-s", "1", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert (code, out["status"]) == (1, "proved"), out
    assert "marque" in out["kept"] and "marquer" not in out["not_followed"], out
