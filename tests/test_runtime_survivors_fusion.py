"""``the(p in players where c in main[p] …)`` looks only at the player whose hand holds the card
(checker/runtime/fusion.py's ``narrowed_players``), whether the test is the whole condition or the first part of
an `and`: the generated quantity reads the card's holders, and its value is the one every player's test gives."""

from __future__ import annotations

import pytest

from checker.front.check import check_paths
from checker.runtime import Engine

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
counter bourse[Player] public
zone pioche: pile of Carte public
zone main[Player]: set of Carte public
quantity porteur(c: Carte): Player? = the(p in players where c in main[p])
quantity tenant(c: Carte): Player? = the(p in players where c is in main[p] and bourse[p] >= 0)
quantity riche_porteur(c: Carte): Player? = the(p in players where c in main[p] and bourse[p] > 0)
card Carte "A" { force: 1 }
card Carte "B" { force: 2 }
card Carte "C" { force: 3 }
procedure partie() { stop }
"""


@pytest.fixture(scope="module")
def engine(tmp_path_factory):
    path = tmp_path_factory.mktemp("fusion") / "jeu.rules"
    path.write_text(GAME, encoding="utf-8")
    result = check_paths([path])
    assert result.ok, [d.message for d in result.reporter.errors]
    e = Engine(result.typed)
    e.recording = False
    return e


def _computed(engine: Engine, quantity: str) -> str:
    (source,) = [src for _, src, origin in engine.compiler.gen.sources if origin == f"quantity {quantity}, computed"]
    return source


@pytest.mark.parametrize("quantity, helper", [("porteur", "HOLDERS_OF("), ("riche_porteur", "HOLDERS_OF("),
                                              ("tenant", "HOLDERS(")])
def test_the_players_looked_at_are_the_cards_holders(engine, quantity, helper):
    source = _computed(engine, quantity)
    assert helper in source and " in E.seats if " not in source, source


def test_the_narrowed_quantities_give_each_players_answer(engine):
    engine.start({"Carte": ["A", "B", "C"]}, 3, 0, [None] * 3)
    st = engine.st
    cards = {engine.def_names[engine.def_of[c]]: c for c in st.where}
    st.put(cards["A"], "main", 1, "top")
    st.put(cards["B"], "main", 2, "top")
    st.vars["bourse"] = {2: 4}
    engine.invalidate()
    values = {q: [engine.quantity(q, (cards[name],)) for name in "ABC"]
              for q in ("porteur", "tenant", "riche_porteur")}
    assert values == {"porteur": [1, 2, None], "tenant": [1, 2, None], "riche_porteur": [None, 2, None]}
