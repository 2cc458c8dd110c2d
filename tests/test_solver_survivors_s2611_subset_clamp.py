"""A subset's largest size is clamped at 0 in the encoding as in the interpreter (checker/solver/transition.py's
subset choice: `top = ITE(top < 0, 0, top)`): a `size 0..n` whose `n` may be negative lets the player keep nothing.
Survivor #133 of the blind solver sample 2611 (the lead, s26; transition.py:607 on 4432372, `0 → 1 @1`): clamped at 1,
the encoding let one lot be kept where the interpreter allows none — an effect failure the interpreter does not
replay ("DOES NOT AGREE")."""

from __future__ import annotations

import json

from checker.cli import main
from conftest import ROOT

MARKET = str(ROOT / "tests" / "fixtures" / "good" / "minimal_game.rules")

TRIER = """
card Lot "Muscade" {
  épice: cannelle
  prix: 3
  power trier "Garder des lots de l'étal, jamais plus qu'il n'en a au-delà de cinq." {
    limit once per game
    choose ls subset of étal size 0..(count(l in étal) - 5) by me
    if count(x in ls) >= 1 and count(l in étal) < 5 {
      transfer 1000 from bourse[me] to réserve
    }
  }
}
"""


def test_a_subset_whose_largest_size_is_negative_keeps_nothing_in_the_encoding_too(tmp_path, capsys):
    """With fewer than five lots on the stall the largest size is negative: the player keeps none, so the costly
    branch is never reached — no effect failure (and the power's question is asked)."""
    house = tmp_path / "maison.rules"
    house.write_text(TRIER, encoding="utf-8")
    code = main(["conflicts", MARKET, str(house), "--effects", "--workers", "1", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert (code, out["unresolved"], out["undecided"], out["findings"]) == (0, 0, 0, []), out
    assert out["searched"] >= 1 and out["queries"] >= 1, out
