"""How the generated code reads a zone's place and a card's attribute (checker/runtime/state.py ``places``,
``Engine.card_attr_table``): a place is one subscript, made empty the first time it is read, even in a zone
someone emptied by storing a plain dict (as a state file's loader does, before it puts every card); a card's
attribute is one lookup in a table of the game's cards, which each game's start fills again for its own
selection."""

from __future__ import annotations

from checker.runtime import RandomAgent
from checker.runtime.state import State, places
from conftest import engine_of
from tests.test_runtime_survivors_state import GAME

SUMMED = GAME.replace("procedure partie() { stop }", """
var total: Int = 0
procedure partie() {
  for c in pioche { set total = total + c.force }
}""")


def test_a_place_never_made_reads_as_an_empty_place_made_once():
    st = State(2, 0, [-1, -2])
    st.zones["main"] = places()
    st.zones["pioche"] = []
    place = st.zones["main"][1]
    assert place == [] and st.zones["main"][1] is place, "made once, then read back"
    st.put(0, "main", 1, "top")
    assert place == [0] and st.zones["main"] == {1: [0]}
    snap = st.snapshot()
    assert snap[1]["main"][0] == [] and snap[1]["main"][1] is not place, "a copy, places made as they are read"
    st.restore(snap)
    assert st.zones["main"][2] == [] and st.zones["main"][1] == [0]


def test_zones_emptied_with_plain_dicts_get_places_made_as_they_are_read_once_a_card_is_put():
    """A state file's loader empties every indexed zone with ``{}``, then puts each card (solver/statefile.py)."""
    st = State(2, 0, [-1, -2])
    st.zones = {"main": {}, "cité": {}, "pioche": []}
    st.put(0, "pioche", None, "top")
    st.put_all((1,), "main", 0, "top")
    assert st.zones["cité"][1] == [] and st.zones["main"][1] == [] and st.zones["main"][0] == [1]


def test_a_cards_attribute_follows_each_games_selection(tmp_path):
    """The same physical card numbers are other cards in another selection: each game reads its own."""
    e = engine_of(tmp_path / "jeu.rules", SUMMED)
    for cards, total in ((["Bas", "Haut"], 4), (["Autre", "Milieu"], 7), (["Bas", "Haut"], 4), (["Main"], 4)):
        e.play({"Carte": cards}, 2, 0, [RandomAgent(1), RandomAgent(2)])
        assert e.st.vars["total"] == total, cards


def test_a_zone_a_tool_emptied_with_a_plain_dict_reads_its_places_after_invalidate(tmp_path):
    """A state file with no card to put (a witness's small selection) empties its zones and calls invalidate."""
    e = engine_of(tmp_path / "jeu.rules", SUMMED)
    e.start({"Carte": []}, 2, 0, [RandomAgent(1), RandomAgent(2)])
    e.st.zones["main"] = {}
    e.invalidate()
    assert e.st.zones["main"][1] == [] and e.st.zones["main"] == {1: []}
