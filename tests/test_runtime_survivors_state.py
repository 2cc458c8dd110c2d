"""`swap a with b` between a pile and a set (checker/runtime/state.py's ``exchange``): each card takes the other's
place, and in the pile the other's position — not the top, as two `move`s would put it; and a change to a zone an
invariant reads (a swap, a card placed) makes the invariants due again."""

from __future__ import annotations

import pytest

from checker.front.check import check_paths
from checker.runtime import Engine, RandomAgent
from checker.runtime.state import SpecRuntimeError, State

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


WATCHED = GAME.replace("procedure partie() { stop }", """
invariant pas_de_carte_forte_en_main {
  require all(p in players: all(c in main[p]: c.force < 5))
  message "Pas de carte forte en main."
}
procedure partie() {
  for p in players {
    for c in pioche { if c.force == 4 { move c to main[p] } }
    choose x in pioche by p
    for a in main[p] { for b in pioche { if b.force == 5 { call échanger(a, b) } } }
    choose y in pioche by p
  }
}""")


@pytest.mark.parametrize("order", ["a in the hand", "a in the pile"])
def test_a_swap_into_a_zone_an_invariant_reads_makes_it_due_again(tmp_path, order):
    """A swap between a pile and a set writes both zones in place (no `move`): the invariants reading either
    zone are due again at the next decision, whichever card was named first."""
    text = WATCHED if order == "a in the hand" else WATCHED.replace("call échanger(a, b)", "call échanger(b, a)")
    path = tmp_path / "jeu.rules"
    path.write_text(text, encoding="utf-8")
    result = check_paths([path])
    assert result.ok, [d.message for d in result.reporter.errors]
    e = Engine(result.typed)
    with pytest.raises(SpecRuntimeError, match="broke the invariant pas_de_carte_forte_en_main"):
        e.play({"Carte": ["Bas", "Milieu", "Haut", "Main", "Autre"]}, 2, 0, [RandomAgent(1), RandomAgent(2)])
    assert e.decisions == 2         # caught before the second decision, right after the swap


def test_a_card_placed_for_the_first_time_makes_the_invariants_due_only_in_a_zone_they_read():
    """State.put of a card that had no place (a state file's cards, the start zones of a layout): the invariants
    are due again when the zone it lands in is one they read (``watched``), not when it is another.  The
    engine's callers raise the flag again themselves today (Engine.invalidate after a state file, Layout.place);
    this is State.put's own contract, as for a card that moves."""
    st = State(2, 0, [-1, -2, -1])
    st.zones = {"pioche": [], "main": {}}
    st.watched = frozenset({"main"})
    st.dirty = False
    st.put(0, "pioche", None, "top")
    assert not st.dirty, "a zone no invariant reads"
    st.put(1, "main", 1, "top")
    assert st.dirty, "a zone an invariant reads"
    st.dirty = False
    st.put(2, "pioche", None, "bottom")
    assert not st.dirty
    assert st.zones == {"pioche": [2, 0], "main": {1: [1]}} and st.where == {0: ("pioche", None), 1: ("main", 1),
                                                                              2: ("pioche", None)}
    assert st.counts == {("pioche", None): {-1: 2}, ("main", 1): {-2: 1}}


def test_a_card_swapped_out_of_a_pile_and_back_leaves_no_copy_counted_behind(engine):
    """`swap` of « Milieu » (in the pile) with « Main » (in a hand), then back: each zone holds what it held, and
    its contents' counts say so (``holds``, what `is in` asks of a zone): « Main » is in the hand, not in the pile;
    « Milieu » in the pile, not in the hand."""
    card = _set_up(engine)
    engine.call("échanger", (card["Milieu"], card["Main"]))
    engine.call("échanger", (card["Main"], card["Milieu"]))
    assert _names(engine, engine.st.zones["pioche"]) == ["Bas", "Milieu", "Haut"]
    assert sorted(_names(engine, engine.st.zones["main"][0])) == ["Autre", "Main"]
    main, milieu = engine.def_of[card["Main"]], engine.def_of[card["Milieu"]]
    assert engine.st.holds("main", 0, main) and not engine.st.holds("pioche", None, main)
    assert engine.st.holds("pioche", None, milieu) and not engine.st.holds("main", 0, milieu)
