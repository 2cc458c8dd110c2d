"""Tests written for the survivors of the blind runtime sample of h158 (seed 2811,
bench/results/mutation-2026-11-29-h158.txt) in checker/runtime/showing.py: a player's view of the state holds a
hidden var indexed by player only at its own seat, a public one whole, a secret one not at all."""

from __future__ import annotations

from checker.front.check import check_paths
from checker.runtime.engine import Engine

GAME = """
game "Vues" {
  edition: "test"
  players: 3..3
  flow: partie
}
var bourse[Player]: Int = 0 public
var pensée[Player]: Int = 0 hidden
var plan: Int = 0 secret
var n: Int = 0
procedure partie() {
  for p in players {
    set bourse[p] = 10 + n
    set pensée[p] = 20 + n
    set n = n + 1
  }
  set plan = 7
}
configuration "Standard" { players: 3..3 }
"""


def test_a_hidden_var_by_player_is_seen_only_at_the_players_own_seat(tmp_path):
    path = tmp_path / "vues.rules"
    path.write_text(GAME, encoding="utf-8")
    result = check_paths([path])
    assert result.ok, [d.message for d in result.reporter.errors]
    engine = Engine(result.typed)
    engine.recording = False
    engine.play({}, 3, 1, [])
    for seat in range(3):
        seen = engine.view(seat)["vars"]
        assert seen["bourse"] == {0: 10, 1: 11, 2: 12}
        assert seen["pensée"] == {seat: seat + 20}
        assert "plan" not in seen and seen["n"] == 3
