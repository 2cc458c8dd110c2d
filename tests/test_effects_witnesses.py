"""What `conflicts --effects` says of a witness, held to what the interpreter does.

- A move that chooses a subset (`choose … subset`) or draws cards: the elements the model chose, as a set, and the
  interpreter replays it.  Before, the effect search read such a choice as one value and stopped with an internal
  error (exit 3) on any house rule whose failing power chose a subset.
- A table looked up at a key it has no row for: the interpreter stops (« table … has no row for … »), and the Z3
  encoding says the same — a failure at the lookup, confirmed — where it read the lookup as *none* before, and
  reported a transfer of a negative amount that the interpreter never reaches (« DOES NOT AGREE »)."""

from __future__ import annotations

import json

from checker.cli import main
from conftest import ROOT

MARKET = str(ROOT / "tests" / "fixtures" / "good" / "minimal_game.rules")

RAFLE = """
card Lot "Muscade" {
  épice: cannelle
  prix: 3
  power rafler "Prendre des lots de l'étal, puis payer 6." {
    limit once per game
    choose ls subset of étal size 1..2
    for l in ls { move l to panier[me] }
    transfer 6 from bourse[me] to réserve
  }
}
"""

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


def _failures(tmp_path, capsys, house_text: str) -> list[dict]:
    """The effect failures `conflicts --effects` finds on the market with ``house_text`` as a house file."""
    house = tmp_path / "maison.rules"
    house.write_text(house_text, encoding="utf-8")
    code = main(["conflicts", MARKET, str(house), "--effects", "--workers", "1", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 1, out
    return [f for f in out["findings"] if f["kind"] == "effect-failure"]


def test_an_effect_failure_after_a_subset_choice_lists_the_elements_chosen(tmp_path, capsys):
    [finding] = _failures(tmp_path, capsys, RAFLE)
    assert finding["rules"] == ['"Muscade".rafler']
    [chosen] = [line for line in finding["situation"] if line.startswith("choix ls : ")]
    lots = chosen.removeprefix("choix ls : {").removesuffix("}").split(", ")
    assert 1 <= len(lots) <= 2 and set(lots) <= {"Safran d'Iran", "Poivre noir", "Cannelle"}, chosen
    # every lot chosen is on the stall in the witness
    assert all(f"{lot} ∈ étal" in finding["situation"] for lot in lots), finding["situation"]
    assert finding["confirmed"] is True, finding


def test_a_lookup_with_no_row_is_the_effect_failure_both_backends_see(tmp_path, capsys):
    failures = _failures(tmp_path, capsys, REMISE)
    assert len(failures) == 1, [f["message"] for f in failures]
    [finding] = failures
    assert "table remise_de has no row for the key looked up" in finding["message"]
    assert finding["confirmed"] is True, finding
    # the witness's basket holds two lots or more (rows 0 and 1 exist)
    basket = [line for line in finding["situation"] if "∈ panier[" in line]
    assert len(basket) >= 2, finding["situation"]
