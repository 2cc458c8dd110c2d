"""An offer's loop narrowed to the zones that hold a card (checker/runtime/narrowing.py's ``card_guards``) only
when the first prohibition compares the loop's card with a card *literal*: `c != favori`, against a var that holds
a card, says nothing about which definition is listed, and the loop tests it card by card.  Written for the
survivor narrowing.py:164 of the blind runtime sample -o (bench/results/mutation-2026-11-28-o-kills.txt)."""

from __future__ import annotations

import pytest

from checker.runtime.agents import ScriptedAgent
from conftest import engine_of

GAME = """
game "Jeu" {
  edition: "test"
  players: 2..4
  flow: partie
}
kind Carte {
  force: Int in 0..9
  start: pioche
}
var favori: Carte? = none public
zone pioche: pile of Carte public
zone main[Player]: set of Carte public
zone posées: set of Carte public
card Carte "Rouge" { force: 1 }
card Carte "Bleu" { force: 2 }
card Carte "Vert" { force: 3 }
action jouer(p: Player, c: Carte) "Jouer." { move c to posées }
action poser(p: Player, c: Carte) "Poser." { move c to posées }
rule comme_le_favori { forbid jouer(p, c) when c != favori }
rule vert_seulement { forbid poser(p, c) when c != "Vert" }
procedure partie() {
  for c in pioche { if c.force == 2 { set favori = c } }
  for p in players { for c in pioche { move c to main[p] } }
  for p in players {
    offer p {
      jouer(p, c) for c in main[p]
      poser(p, c) for c in main[p]
      finish "Passer"
    }
  }
}
"""


@pytest.fixture(scope="module")
def engine(tmp_path_factory):
    return engine_of(tmp_path_factory.mktemp("guards") / "jeu.rules", GAME)


def _listing(engine, cards: list[str]) -> list[str]:
    agents = [ScriptedAgent(["Passer"]), ScriptedAgent([])]
    engine.start({"Carte": cards}, 2, 0, agents)
    engine.call("partie", ())
    ((_, labels, _),) = agents[0].seen
    return sorted(labels)


def test_a_prohibition_against_a_card_var_is_tested_card_by_card_and_one_against_a_literal_narrows(engine):
    """`jouer` only the favourite (Bleu, the card of force 2), `poser` only Vert: the offer's source narrows
    `poser`'s loop to the hands that hold Vert and not `jouer`'s, and each listing has exactly its card."""
    source = next(src for name, src, _ in engine.compiler.gen.sources if name.startswith("_offer"))
    assert "# vert_seulement" in source and "# comme_le_favori" in source
    assert "_EMPTY).get(" in source.split("# vert_seulement")[0].splitlines()[-1]
    assert _listing(engine, ["Rouge", "Bleu", "Vert"]) == [
        "Passer", "jouer(Joueur 1, Bleu)", "poser(Joueur 1, Vert)"]
    assert _listing(engine, ["Bleu"]) == ["Passer", "jouer(Joueur 1, Bleu)"]
    assert _listing(engine, ["Rouge", "Vert"]) == ["Passer", "poser(Joueur 1, Vert)"]
