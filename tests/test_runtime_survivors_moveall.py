"""`move <cards> to <zone>` of several cards at once (checker/runtime/state.py's ``put_all``): cards that leave a
zone an invariant reads make the invariants due again, even when the zone they go to is one no invariant reads.
Written for the survivor state.py:149 of the blind runtime sample -o (bench/results/mutation-2026-11-28-o-kills.txt):
the tests had a card moved one at a time (``put``) out of a watched zone, never a whole hand moved at once."""

from __future__ import annotations

import pytest

from checker.runtime import RandomAgent
from checker.runtime.state import SpecRuntimeError, State
from conftest import engine_of
from tests.test_runtime_survivors_state import GAME

EMPTIED = GAME.replace("procedure partie() { stop }", """
var distribué: Bool = false
invariant une_main_garnie {
  require any(p in players: count(c in main[p]) >= 1)
  when distribué
  message "Une main garde ses cartes."
}
procedure partie() {
  for p in players { for c in pioche { if c.force >= 4 { move c to main[p] } } }
  set distribué = true
  for p in players { choose x in pioche by p }
  for p in players { move main[p] to pioche }
  for p in players { choose y in pioche by p }
}""")


def test_a_hand_moved_whole_out_of_a_zone_an_invariant_reads_is_caught_at_the_next_decision(tmp_path):
    e = engine_of(tmp_path / "jeu.rules", EMPTIED)
    with pytest.raises(SpecRuntimeError, match="broke the invariant une_main_garnie"):
        e.play({"Carte": ["Bas", "Milieu", "Haut", "Main", "Autre"]}, 2, 0, [RandomAgent(1), RandomAgent(2)])
    assert e.decisions == 3, "the two choices with a hand held, then caught before the third"


def test_cards_moved_together_make_the_invariants_due_when_they_leave_or_enter_a_zone_they_read():
    """State.put_all's own contract, as State.put's (tests/test_runtime_survivors_state.py)."""
    st = State(2, 0, [-1, -2, -1])
    st.zones = {"pioche": [], "défausse": [], "main": {}}
    st.watched = frozenset({"main"})
    st.put_all((0, 1, 2), "pioche", None, "top")
    st.dirty = False
    st.put_all((0, 1), "défausse", None, "top")
    assert not st.dirty, "from a zone no invariant reads to another"
    st.put_all((0, 1), "main", 1, "top")
    assert st.dirty, "into a zone an invariant reads"
    st.dirty = False
    st.put_all((1, 0), "défausse", None, "top")
    assert st.dirty, "out of a zone an invariant reads"
    assert st.zones == {"pioche": [2], "défausse": [1, 0], "main": {1: []}}


def test_a_card_name_among_cards_moved_together_stops_there_the_cards_before_it_moved_and_counted():
    """put_all finds its target and counts once, before its loop: a card that is not physical (a definition, or
    None) is still a located error where it comes, the cards before it moved (each a new version of the state,
    the invariants due when the zone is one they read), and nothing is made for a target no card reached."""
    st = State(2, 0, [-1, -2, -1])
    st.zones = {"pioche": [], "main": {}}
    st.watched = frozenset({"main"})
    st.put_all((0, 1, 2), "pioche", None, "top")
    st.dirty, version = False, st.version
    with pytest.raises(SpecRuntimeError, match="only a physical card can move") as caught:
        st.put_all((2, -1, 0), "main", 0, "top", span="là")
    assert caught.value.span == "là"
    assert st.zones == {"pioche": [0, 1], "main": {0: [2]}} and st.where[2] == ("main", 0)
    assert st.counts[("main", 0)] == {-1: 1} and st.counts[("pioche", None)] == {-1: 1, -2: 1}
    assert st.version == version + 1 and st.dirty, "one card moved, into a zone an invariant reads"
    st.dirty, version = False, st.version
    with pytest.raises(SpecRuntimeError, match="only a physical card can move"):
        st.put_all((None, 0), "main", 1, "bottom")
    assert 1 not in st.zones["main"] and ("main", 1) not in st.counts, "no target made for no card"
    assert st.version == version and not st.dirty
    st.put_all((0, 1), "main", 0, "bottom")
    assert st.zones["main"][0] == [1, 0, 2], "each at the bottom in turn"
    assert st.version == version + 2 and st.counts[("main", 0)] == {-1: 2, -2: 1}
