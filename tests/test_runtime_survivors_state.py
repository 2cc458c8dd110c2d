"""`swap a with b` between a pile and a set (checker/runtime/state.py's ``exchange``): each card takes the other's
place, and in the pile the other's position — not the top, as two `move`s would put it."""

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
zone pioche: pile of Carte public
zone main[Player]: set of Carte public
card Carte "Bas" { force: 1 }
card Carte "Milieu" { force: 2 }
card Carte "Haut" { force: 3 }
card Carte "Main" { force: 4 }
card Carte "Autre" { force: 5 }
procedure partie() { stop }
procedure échanger(a: Carte, b: Carte) { swap a with b }
"""


@pytest.fixture(scope="module")
def engine(tmp_path_factory):
    path = tmp_path_factory.mktemp("swap") / "jeu.rules"
    path.write_text(GAME, encoding="utf-8")
    result = check_paths([path])
    assert result.ok, [d.message for d in result.reporter.errors]
    e = Engine(result.typed)
    e.recording = False
    return e


def _set_up(e: Engine) -> dict[str, int]:
    e.start({"Carte": ["Bas", "Milieu", "Haut", "Main", "Autre"]}, 2, 0, [None, None])
    card = {e.def_names[e.def_of[c]]: c for c in e.st.where}
    names = {c: name for name, c in card.items()}
    pile = e.st.zones["pioche"]
    for c in [c for c in pile if names[c] in ("Main", "Autre")]:
        e.st.put(c, "main", 0, "top")
    # the pile, bottom to top, in a known order
    pile.sort(key=lambda c: ["Bas", "Milieu", "Haut"].index(names[c]))
    return card


def _names(e: Engine, cards: list[int]) -> list[str]:
    return [e.def_names[e.def_of[c]] for c in cards]


@pytest.mark.parametrize("order", ["pile first", "set first"])
def test_a_card_of_a_set_swapped_with_one_inside_a_pile_takes_its_position(engine, order):
    card = _set_up(engine)
    assert _names(engine, engine.st.zones["pioche"]) == ["Bas", "Milieu", "Haut"]
    a, b = (card["Milieu"], card["Main"]) if order == "pile first" else (card["Main"], card["Milieu"])
    engine.call("échanger", (a, b))
    assert _names(engine, engine.st.zones["pioche"]) == ["Bas", "Main", "Haut"]
    assert sorted(_names(engine, engine.st.zones["main"][0])) == ["Autre", "Milieu"]
    assert engine.st.where[card["Main"]] == ("pioche", None) and engine.st.where[card["Milieu"]] == ("main", 0)
    assert engine.st.holds("main", 0, engine.def_of[card["Milieu"]])
    assert not engine.st.holds("main", 0, engine.def_of[card["Main"]])
