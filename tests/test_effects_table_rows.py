"""A table looked up at a key it has no row for: the interpreter stops (« table … has no row for … »), and the
Z3 encoding says the same — a failure at the lookup, confirmed by the interpreter — where it read the lookup as
*none* before, and reported a transfer of a negative amount that the interpreter never reaches (the two
backends disagreed: « DOES NOT AGREE »)."""

from __future__ import annotations

import json

from checker.cli import main
from conftest import ROOT

MARKET = str(ROOT / "tests" / "fixtures" / "good" / "minimal_game.rules")

REMISE = """
table remise_de(lots: Int): Int {
  case 0 -> 0
  case 1 -> 1
}

card Lot "Muscade" {
  épice: cannelle
  prix: 3
  power solder "Reprendre une remise selon ses lots." {
    limit once per game
    transfer remise_de(count(l in panier[me])) from réserve to bourse[me]
  }
}
"""


def test_a_lookup_with_no_row_is_the_effect_failure_both_backends_see(tmp_path, capsys):
    house = tmp_path / "remise.rules"
    house.write_text(REMISE, encoding="utf-8")
    code = main(["conflicts", MARKET, str(house), "--effects", "--workers", "1", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 1, out
    failures = [f for f in out["findings"] if f["kind"] == "effect-failure"]
    assert len(failures) == 1, [f["message"] for f in failures]
    [finding] = failures
    assert "table remise_de has no row for the key looked up" in finding["message"]
    assert finding["confirmed"] is True, finding
    # the witness's basket holds two lots or more (rows 0 and 1 exist)
    basket = [line for line in finding["situation"] if "∈ panier[" in line]
    assert len(basket) >= 2, finding["situation"]
