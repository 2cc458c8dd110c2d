"""What an offer's loops say about its legality tests (checker/runtime/narrowing.py), on a tiny game: inside
``for c in main[p]`` the parts `c not in main[p]` and `not (c in main[p])` are false and their prohibitions are
not tested at all (`p not in gagnants`, of a player no loop ranges over, is tested); a prohibition
`c != "<card>"` narrows the loop to the zones that hold that card only when nothing lifts it and the loop ranges
over a zone.  Each listing is checked option by option."""

from __future__ import annotations

import pytest

from checker.front.check import check_paths
from checker.runtime import Engine
from checker.runtime.agents import ScriptedAgent

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
var gagnants: set of Player = {} public
zone pioche: pile of Carte public
zone main[Player]: set of Carte public
zone posées: set of Carte public
card Carte "Rouge" { force: 1 }
card Carte "Bleu" { force: 2 }
card Carte "Vert" { force: 3 }
action garder(p: Player, c: Carte) "Garder." { move c to posées }
action jouer(p: Player, c: Carte) "Jouer." { move c to posées }
action poser(p: Player, c: Carte) "Poser." { move c to posées }
rule hors_main { forbid garder(p, c) when c not in main[p] }
rule pas_dans_la_main { forbid garder(p, c) when not (c in main[p]) }
rule sauf_gagnants { forbid garder(p, c) when p not in gagnants or c.force > 2 }
rule rouge_seulement { forbid jouer(p, c) when c != "Rouge" }
rule bleu_aussi {
  permit jouer(p, c) when c == "Bleu"
  overrides rouge_seulement
}
rule vert_seulement { forbid poser(p, c) when c != "Vert" }
procedure partie() {
  for p in players { for c in pioche { move c to main[p] } }
  for p in players {
    offer p {
      garder(p, c) for c in main[p]
      jouer(p, c) for c in main[p]
      poser(p, c) for c in filter(d in main[p] where d.force > 0)
      finish "Passer"
    }
  }
}
"""


@pytest.fixture(scope="module")
def engine(tmp_path_factory):
    path = tmp_path_factory.mktemp("narrowing") / "jeu.rules"
    path.write_text(GAME, encoding="utf-8")
    result = check_paths([path])
    assert result.ok, [d.message for d in result.reporter.errors]
    return Engine(result.typed)


def _offer_source(engine: Engine) -> str:
    sources = [src for name, src, _ in engine.compiler.gen.sources if name.startswith("_offer")]
    assert len(sources) == 1, "the one offer"
    return sources[0]


def test_a_part_the_loop_makes_false_is_not_tested_however_it_is_written(engine):
    source = _offer_source(engine)
    assert "hors_main" not in source and "pas_dans_la_main" not in source
    assert "sauf_gagnants" in source and "rouge_seulement" in source and "vert_seulement" in source


def _listing(engine, cards: list[str]) -> list[str]:
    agents = [ScriptedAgent(["Passer"]), ScriptedAgent([])]
    engine.start({"Carte": cards}, 2, 0, agents)
    engine.call("partie", ())
    ((_, labels, _),) = agents[0].seen
    return sorted(labels)


def test_a_lifted_prohibition_does_not_narrow_the_loop_to_its_card(engine):
    """`jouer` is forbidden but for Rouge, and Bleu is permitted again: with no Rouge in the hand, Bleu is still
    listed (a loop narrowed to the hands holding Rouge would list nothing)."""
    assert _listing(engine, ["Bleu", "Vert"]) == [
        "Passer", "jouer(Joueur 1, Bleu)", "poser(Joueur 1, Vert)"]
    assert _listing(engine, ["Rouge", "Bleu", "Vert"]) == [
        "Passer", "jouer(Joueur 1, Bleu)", "jouer(Joueur 1, Rouge)", "poser(Joueur 1, Vert)"]


def test_a_loop_over_what_is_not_a_zone_is_not_narrowed_to_a_card(engine):
    """`poser` ranges over a filter of the hand, not a zone: its `c != "Vert"` is tested card by card."""
    assert [x for x in _listing(engine, ["Vert", "Rouge"]) if x.startswith("poser")] == ["poser(Joueur 1, Vert)"]
    assert [x for x in _listing(engine, ["Bleu"]) if x.startswith("poser")] == []
