"""Tests written for the survivors of the blind runtime sample of h158 (seed 2811,
bench/results/mutation-2026-11-29-h158.txt) in checker/runtime/agents.py: the greedy measure of an option that is
not an action (an offer's `finish`) is the position as it is — the player's lead now — not 0, when it stands beside
actions in a decision that is not optional."""

from __future__ import annotations

from checker.front.check import check_paths
from checker.runtime.agents import option_values
from checker.runtime.engine import Engine

PASSE = """
game "Passe" {
  edition: "test"
  players: 2..2
  flow: partie
  turn: tour
  score: score
}

var numéro: Int = 0
var points[Player]: Int = 0
quantity score(p: Player): Int = points[p]

action cueillir(p: Player) "Cueillir : un point." {
  set points[p] = points[p] + 1
}

procedure tour(p: Player) {
  offer p {
    cueillir(p)
    finish "Passer"
  }
}

procedure partie() {
  repeat {
    set numéro = numéro + 1
    for p in players {
      call tour(p)
    }
  } until numéro >= 2
}

configuration "Standard" { players: 2..2 }
"""


def test_finishing_is_worth_the_lead_the_player_has_now(tmp_path):
    """Joueur 1 leads 3 to 1: picking a point is worth a lead of 3, passing the lead of 2 it has."""
    path = tmp_path / "passe.rules"
    path.write_text(PASSE, encoding="utf-8")
    result = check_paths([path])
    assert result.ok, [d.message for d in result.reporter.errors]
    engine = Engine(result.typed)
    engine.recording = False
    seen = []

    class Probe:
        def choose(self, decision):
            if not seen:
                engine.st.vars["points"] = {0: 3, 1: 1}
                engine.invalidate()
                seen.append((decision.player, decision.optional, [o[0] for o in decision.options],
                             option_values(decision)))
            return len(decision.options) - 1

    engine.play({}, 2, 1, [Probe(), Probe()])
    assert seen == [(0, False, ["action", "finish"], [3, 2])]
