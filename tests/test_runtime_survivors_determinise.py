"""Dealing the unseen cards again for a playout (checker/runtime/montecarlo.py, ``determinise``) keeps in place
every card the decision shows, card 0 too: a card's number is any int from 0 up.  Written for a survivor of the
blind runtime sample -p (bench/results/mutation-2026-11-28-p.txt): ``value >= 0`` → ``value >= 1`` in ``_known``
dealt card 0 again while the decision showed it; the tests' decisions never showed card 0."""

from __future__ import annotations

import random
from types import SimpleNamespace

import pytest

from checker.runtime.montecarlo import _known, determinise
from conftest import engine_of

GAME = """
game "Cachettes" { edition: "test"  players: 2..4  flow: partie }
kind Carte { valeur: Int in 0..9  copies: Int = 1  start: pioche }
card Carte "Rubis" { valeur: 1  copies: 3 }
card Carte "Saphir" { valeur: 2  copies: 2 }
zone pioche: pile of Carte secret
procedure partie() { stop }
"""


def test_the_numbers_a_decision_shows_are_every_int_from_zero_up():
    out: set = set()
    _known([0, (3, -1), [True, False], {"c": 4, "n": 0}], out)
    assert out == {0, 3, 4}


@pytest.mark.parametrize("shown", [0, 1, 4])
def test_a_card_the_decision_shows_stays_where_it_is_and_the_others_are_dealt_again(tmp_path, shown):
    e = engine_of(tmp_path / "cachettes.rules", GAME)
    e.recording = False
    e.start({"Carte": ["Rubis", "Saphir"]}, 2, 0, [])
    pile = e.st.zones["pioche"]
    assert sorted(pile) == [0, 1, 2, 3, 4] and not e.sees(0, "pioche", None)
    at = pile.index(shown)
    decision = SimpleNamespace(options=[shown], env={})
    orders = set()
    for seed in range(12):
        assert determinise(e, 0, decision, random.Random(seed)) == 4      # the unseen cards but the shown one
        assert pile.index(shown) == at and sorted(pile) == [0, 1, 2, 3, 4]
        orders.add(tuple(pile))
    assert len(orders) > 1, "the others are dealt again"
