"""The greedy player (checker/runtime/agents.py, ``GreedyAgent``) draws only where there is nothing to choose: one
option.  With two, it takes the one worth more.  Written for a survivor of the blind runtime sample -p
(bench/results/mutation-2026-11-28-p.txt): ``count == 1`` → ``count == 2`` drew between two options without
valuing them; the game tests' decisions have one option or three and more, so none noticed."""

from __future__ import annotations

import pytest

from checker.runtime.agents import GreedyAgent, option_values
from conftest import engine_of

GAME = """
game "Deux" { edition: "test"  players: 2..3  flow: partie  score: score }
kind Carte { start: pioche }
zone pioche: pile of Carte public
counter banque unlimited
counter bourse[Player] public
quantity score(p: Player): Int = bourse[p]
action gagner(p: Player, n: Int) "Prendre n pièces." { transfer n from banque to bourse[p] }
rule une_fois { forbid gagner(p, n) when bourse[p] > 0 }
procedure partie() { for p in players { offer p { gagner(p, n) for n in LOW..HIGH  finish "Passer" } } }
configuration "Standard" { players: 2..3 }
"""


@pytest.mark.parametrize("low, high", [(3, 3), (2, 3)])
def test_the_greedy_player_takes_the_best_of_two_or_three_options_on_every_seed(tmp_path, low, high):
    """« gagner 3 » or « Passer » (two options), then « gagner 2 » beside them (three): the greedy player takes 3
    coins, on every seed (then « Passer » alone is left: not asked)."""
    engine = engine_of(tmp_path / "deux.rules", GAME.replace("LOW", str(low)).replace("HIGH", str(high)))
    engine.recording = True
    for seed in range(12):
        game = engine.play({}, 2, seed, [GreedyAgent(seed), GreedyAgent(seed + 100)])
        decisions = [e for e in game.events if e["kind"] == "decision"]
        assert [len(e["options"]) for e in decisions] == [high - low + 2] * 2, decisions
        assert game.scores == {0: high, 1: high}, (seed, [e["options"][e["chosen"]] for e in decisions])


def test_the_greedy_player_values_each_of_two_options_as_its_lead(tmp_path):
    """The first player's two options, 3 coins or none, are worth a lead of 3 and 0; the greedy player takes 3."""
    engine = engine_of(tmp_path / "deux.rules", GAME.replace("LOW", "3").replace("HIGH", "3"))
    engine.recording = False
    seen = {}

    class Probe:
        def choose(self, decision):
            seen.setdefault("values", option_values(decision))
            seen.setdefault("picks", {GreedyAgent(s).choose(decision) for s in range(12)})
            return len(decision.options) - 1          # « Passer »

    engine.play({}, 2, 0, [Probe(), Probe()])
    assert seen == {"values": [3, 0], "picks": {0}}
