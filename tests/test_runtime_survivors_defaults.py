"""What the runtime does when its caller leaves an option out (the defaults of checker/runtime): the built-in
Monte-Carlo player (`--agent montecarlo`) plays its playouts to the end of the game, past the next turn.
Written for the survivors of the blind runtime sample -o (bench/results/mutation-2026-11-28-o-kills.txt)."""

from __future__ import annotations

import pytest

from conftest import engine_of
from checker.runtime.players import make_agent
from test_greedy import STOP     # a two-player race: end the game or take coins (test_greedy plays it next_turn)


class _Stop(Exception):
    pass


def _ask(tmp_path, history: list[int], agent) -> int:
    """The race above, the answers ``history`` given, then ``agent`` asked once: its answer."""
    engine = engine_of(tmp_path / "arret.rules", STOP)
    engine.recording = False
    answers, seen = list(history), {}

    class Probe:
        def choose(self, decision):
            if answers:
                return answers.pop(0)
            seen["answer"] = agent.choose(decision)
            raise _Stop()
    with pytest.raises(_Stop):
        engine.play({}, 2, 1, [Probe(), Probe()])
    return seen["answer"]


@pytest.mark.parametrize("history", [[2, 1], [1, 2, 2, 2]])
def test_the_built_in_monte_carlo_player_plays_each_playout_to_the_end_of_the_game(tmp_path, history):
    """`--agent montecarlo` leaves ``next_turn`` (and ``turn``) out: a playout is cut only by its depth (300
    decisions), so each of the three options' playouts — the one that ends the game at once and the two that take
    coins and play on through the next turns to the sixth round — reaches the end of the game (``finished``).  Cut
    at the next turn, only the playout of the option that ends the game would."""
    agent = make_agent("montecarlo", 3, playouts=3)
    assert _ask(tmp_path, history, agent) in (0, 1, 2)
    assert agent.played == 3
    assert agent.finished == 3, "every playout reaches the end of the game"
    assert agent.ends == [0, 0], "no decision where some options' playouts ended the game and others' did not"
