"""Tests written for a survivor of the second blind runtime sample of h158 (seed 1129,
bench/results/mutation-2026-11-29-h158.txt) in checker/runtime/montecarlo.py: with ``next_turn`` a playout plays
on through the rest of the turn the option was taken in, and is cut at the first decision of the game's next
turn."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from checker.runtime.montecarlo import _Cutoff, _Driver


class _Point:
    def __init__(self, player: int):
        self.player, self.options, self.optional = player, [0, 1], False


def test_a_playout_with_next_turn_plays_the_turn_out_and_stops_at_the_next():
    engine = SimpleNamespace(st=SimpleNamespace(turn=5))
    history = [1, 0, 1]
    driver = _Driver(engine, history, player=0, option=0, expected=2, seed=3, rollout="random", depth=10,
                     next_turn=True)
    driver.asked, driver.turn_at = len(history) + 1, 5      # the option was taken in turn 5
    assert driver.choose(_Point(0)) in (0, 1)
    assert driver.choose(_Point(1)) in (0, 1)       # another player's decision, still in turn 5: played
    engine.st.turn = 6
    with pytest.raises(_Cutoff):
        driver.choose(_Point(1))
