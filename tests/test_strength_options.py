"""The bench's options for Carcassonne's Monte-Carlo seat (bench/strength.py, part of `python bench/simulate.py`),
followed from the command line (bench/simulate.py's parser) to the agent a game plays with."""

from __future__ import annotations

import pytest

from bench import simulate, strength
from checker.runtime.montecarlo import MonteCarloAgent


class _Made(Exception):
    """The Monte-Carlo seat's agent was made: the game need not be played."""


def _monte_carlo_agent(monkeypatch, argv: list[str]) -> MonteCarloAgent:
    """The agent of the first Monte-Carlo table's Monte-Carlo seat, for the bench's options ``argv``."""
    args = simulate.arguments().parse_args(["--only-strength", "--cit-games", "0", "--cit-mc-games", "0",
                                            "--carc-games", "0", "--carc-seeds", "0", "--carc-prepared-games", "0",
                                            "--carc-mc-games", "1"] + argv)
    made: list = []
    real = strength.make

    def spy(name, seed, mc):
        agent = real(name, seed, mc)
        if name == "montecarlo":
            made.append(agent)
            raise _Made()
        return agent

    monkeypatch.setattr(strength, "make", spy)
    with pytest.raises(_Made):
        strength.strength(args, 1)
    return made[0]


@pytest.mark.parametrize("players", [2, 4])
def test_carc_turns_0_plays_the_other_players_turns_and_the_players_own_next_one(monkeypatch, players):
    agent = _monte_carlo_agent(monkeypatch, ["--carc-mc-players", str(players), "--carc-turns", "0",
                                             "--carc-later", "builder", "--carc-paired"])
    assert agent.next_turn and agent.turns == players + 1, "players + 1 turns: the others' and its own next one"
    assert agent.later == "builder" and agent.paired


def test_carc_turns_n_is_taken_as_given(monkeypatch):
    agent = _monte_carlo_agent(monkeypatch, ["--carc-mc-players", "4", "--carc-turns", "2"])
    assert agent.turns == 2


def test_the_default_monte_carlo_table_plays_through_the_players_own_next_turn_on_common_futures(monkeypatch):
    agent = _monte_carlo_agent(monkeypatch, [])
    assert (agent.playouts, agent.candidates, agent.turns, agent.later, agent.paired) == (16, 8, 3, "builder", True)
    assert agent.next_turn and agent.rollout == "greedy" and agent.judge == "outcome"


def test_the_prepared_positions_monte_carlo_players_keep_the_former_settings_whatever_the_options(monkeypatch):
    agent = _monte_carlo_agent(monkeypatch, ["--carc-mc-games", "0", "--carc-prepared-games", "1", "--carc-playouts",
                                             "16", "--carc-turns", "0", "--carc-later", "builder", "--carc-paired"])
    assert (agent.playouts, agent.candidates, agent.turns, agent.paired) == (1, 8, 1, False), \
        "four Monte-Carlo seats over 5 turns a playout would cost many times the table's former CPU"
    assert agent.next_turn and agent.rollout == "greedy"
