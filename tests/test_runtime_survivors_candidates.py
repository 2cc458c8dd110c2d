"""The built-in Monte-Carlo player (`--agent montecarlo`, ``make_agent``) plays out at most the 12 best options of
a decision, as docs/simulate.md says ("only its 12 best options are played out"): one playout each when it is
given one.  Written for a survivor of the blind runtime sample -p (bench/results/mutation-2026-11-28-p.txt): the
default ``candidates`` 12 → 13 played out a thirteenth option; the tests gave their limit explicitly or asked
decisions of fewer options."""

from __future__ import annotations

import pytest

from checker.runtime.players import make_agent
from conftest import engine_of

GAME = """
game "Pièces" { edition: "test"  players: 2..4  flow: partie  score: score }
counter banque unlimited
counter bourse[Player] public
quantity score(p: Player): Int = bourse[p]
procedure partie() {
  for p in players {
    choose n in 1..OPTIONS by p
    transfer n from banque to bourse[p]
  }
}
configuration "Standard" { players: 2..4 }
"""


class _Stop(Exception):
    pass


@pytest.mark.parametrize("options, played", [(11, 11), (12, 12), (13, 12), (20, 12)])
def test_the_built_in_monte_carlo_player_plays_out_at_most_twelve_options(tmp_path, options, played):
    engine = engine_of(tmp_path / "pieces.rules", GAME.replace("OPTIONS", str(options)))
    engine.recording = False
    agent, seen = make_agent("montecarlo", 4, playouts=1), {}

    class Probe:
        def choose(self, decision):
            seen["count"] = len(decision.options) + (1 if decision.optional else 0)
            seen["answer"] = agent.choose(decision)
            raise _Stop()
    with pytest.raises(_Stop):
        engine.play({}, 2, 0, [Probe(), Probe()])
    assert seen["count"] == options and 0 <= seen["answer"] < options
    assert agent.played == played, "one playout for each option played out"
