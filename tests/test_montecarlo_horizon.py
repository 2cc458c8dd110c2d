"""The Monte-Carlo agent's longer playouts (checker/runtime/montecarlo.py): ``turns`` plays a playout over several of
the game's turns (the other players' and the player's own next one), ``later`` names the policy of the turns after
the current one, and ``paired`` compares the options on the same futures (the k-th playout of every option deals the
hidden cards and seeds the game alike).  And the bench's pairwise tables (bench/strength.py): when an order is shown.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from bench import strength
from checker.runtime import montecarlo
from checker.runtime.montecarlo import MonteCarloAgent, _Cutoff, _Driver


class _Fixed:
    def __init__(self, answer: int):
        self.answer = answer

    def choose(self, decision) -> int:
        return self.answer


def test_a_playout_of_three_turns_plays_them_with_the_later_policy_after_the_first_and_stops_at_the_fourth():
    engine = SimpleNamespace(st=SimpleNamespace(turn=7))
    driver = _Driver(engine, [1, 0], player=0, option=0, expected=2, seed=3, rollout="random", depth=50,
                     next_turn=True, turns=3, later="builder")
    assert driver.later is not None
    driver.policy, driver.later = _Fixed(0), _Fixed(1)
    driver.asked, driver.turn_at = 3, 7          # the option was taken in turn 7
    point = SimpleNamespace(player=1, options=[0, 1], optional=False, engine=None)
    assert driver.choose(point) == 0, "the rest of the current turn: the rollout"
    engine.st.turn = 8
    assert driver.choose(point) == 1, "the next turn: the later policy"
    engine.st.turn = 9
    assert driver.choose(point) == 1
    engine.st.turn = 10
    with pytest.raises(_Cutoff):
        driver.choose(point)


def test_one_turn_and_the_same_later_policy_are_the_playout_as_before():
    engine = SimpleNamespace(st=SimpleNamespace(turn=7))
    driver = _Driver(engine, [], player=0, option=0, expected=2, seed=3, rollout="greedy", depth=50,
                     next_turn=True, later="greedy")
    assert driver.later is None and driver.turns == 1
    driver.turn_at = driver.asked = 1
    engine.st.turn = 8
    with pytest.raises(_Cutoff):
        driver.choose(SimpleNamespace(player=1, options=[0, 1], optional=False, engine=None))


@pytest.mark.parametrize("paired", [True, False])
def test_paired_playouts_give_the_k_th_playout_of_every_option_the_same_future(monkeypatch, paired):
    seeds: list[tuple[int, int]] = []

    class Recorder:
        def __init__(self, engine, history, player, option, expected, seed, *rest):
            seeds.append((option, seed))

    monkeypatch.setattr(montecarlo, "_Driver", Recorder)
    monkeypatch.setattr(montecarlo, "_shadow", lambda engine: None)
    agent = MonteCarloAgent(4, playouts=9, candidates=0, paired=paired)
    monkeypatch.setattr(agent, "_worth", lambda *args: 0.0)
    decision = SimpleNamespace(options=["a", "b", "c"], optional=False, player=0,
                               engine=SimpleNamespace(setup=({}, 2, 1), choices=[]))
    assert agent.choose(decision) == 0
    rounds = [seeds[k:k + 3] for k in range(0, 9, 3)]
    assert [[option for option, _ in r] for r in rounds] == [[0, 1, 2]] * 3
    if paired:
        assert all(len({seed for _, seed in r}) == 1 for r in rounds), "one future a round, for every option"
        assert len({r[0][1] for r in rounds}) == 3, "a new future each round"
    else:
        assert len({seed for _, seed in seeds}) == 9


def _records(n: int, wins_of_a: int, games: int) -> list[dict]:
    """``games`` games of one ``a`` and n - 1 ``b`` (the lineup turned a seat a game), ``a`` winning the first
    ``wins_of_a``, the next seat's ``b`` the others."""
    out = []
    for g in range(games):
        lineup = ("a",) + ("b",) * (n - 1)
        seats = tuple(lineup[(s + g) % n] for s in range(n))
        a = seats.index("a")
        winner = a if g < wins_of_a else (a + 1) % n
        out.append({"seats": seats, "scores": [1 if s == winner else 0 for s in range(n)], "winners": [winner],
                    "end": None, "cpu": 0.0, "playouts": [0, 0, 0, 0]})
    return out


@pytest.mark.parametrize("n, wins, games, verdict", [
    (2, 16, 20, "a > b shown"), (2, 12, 20, "order not shown"), (2, 3, 20, "a < b shown"),
    (4, 20, 40, "a > b shown"), (4, 13, 40, "order not shown")])
def test_a_pairwise_table_shows_an_order_only_when_the_intervals_are_apart(n, wins, games, verdict):
    rows = strength.pair_rows("Jeu", "a", "b", n, _records(n, wins, games))
    assert rows[-1][1] == verdict, rows[-1]
    assert {r["seats"].index("a") for r in _records(n, wins, games)} == set(range(n)), "a sat at every seat"
