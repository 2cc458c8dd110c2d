"""A witness whose move chooses a subset (`choose … subset`) or draws cards: `conflicts --effects` says which
elements the model chose, as a set, and the interpreter replays it.  Before, the effect search read such a choice
as one value and stopped with an internal error (exit 3) on any house rule whose failing power chose a subset."""

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


def test_an_effect_failure_after_a_subset_choice_lists_the_elements_chosen(tmp_path, capsys):
    house = tmp_path / "rafle.rules"
    house.write_text(RAFLE, encoding="utf-8")
    code = main(["conflicts", MARKET, str(house), "--effects", "--workers", "1", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 1, out
    [finding] = [f for f in out["findings"] if f["kind"] == "effect-failure"]
    assert finding["rules"] == ['"Muscade".rafler']
    [chosen] = [line for line in finding["situation"] if line.startswith("choix ls : ")]
    lots = chosen.removeprefix("choix ls : {").removesuffix("}").split(", ")
    assert 1 <= len(lots) <= 2 and set(lots) <= {"Safran d'Iran", "Poivre noir", "Cannelle"}, chosen
    # every lot chosen is on the stall in the witness
    assert all(f"{lot} ∈ étal" in finding["situation"] for lot in lots), finding["situation"]
    assert finding["confirmed"] is True, finding
