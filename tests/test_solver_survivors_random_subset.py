"""A subset chosen `at random` in an effect's transition holds exactly as many elements as the interpreter draws
(`size a..b at random`: exactly ``a``, or as many as there are when fewer) — checker/solver/transition.py's subset
choice.  Survivor of the blind solver sample 9171 (the lead, s24): transition.py:609 `chosen == least` → `!=` (a
random subset of any other size: `only` over it fails, an effect failure no game has)."""

from __future__ import annotations

import json

from checker.cli import main
from conftest import ROOT

MARKET = str(ROOT / "tests" / "fixtures" / "good" / "minimal_game.rules")

TIRER = """
card Lot "Muscade" {
  épice: cannelle
  prix: 3
  power tirer "Tirer un lot de l'étal au hasard, le prendre." {
    limit once per game
    if count(l in étal) >= 1 {
      choose ls subset of étal size 1..1 at random
      move only(x in ls) to panier[me]
    }
  }
}
"""


def test_a_lot_drawn_at_random_from_a_stall_that_has_one_is_exactly_one(tmp_path, capsys):
    """With a lot on the stall, the power draws one at random and takes it: `only` over the subset never fails, so
    `conflicts --effects` finds no effect failure (and asks its questions)."""
    no_effect_failure(tmp_path, capsys, TIRER)


def no_effect_failure(tmp_path, capsys, house_text: str) -> None:
    """`conflicts --effects` on the market with the house card ``house_text``: no finding, no undecided answer, and
    the card's questions asked."""
    house = tmp_path / "maison.rules"
    house.write_text(house_text, encoding="utf-8")
    code = main(["conflicts", MARKET, str(house), "--effects", "--workers", "1", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert (code, out["unresolved"], out["undecided"], out["findings"]) == (0, 0, 0, []), out
    assert out["searched"] >= 1 and out["queries"] >= 1, out
