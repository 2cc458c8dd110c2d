"""The unrolled flow (checker/solver/unroll.py) offering the powers of one card (`powers of c`, c a single card,
not a zone): the power is offered as the interpreter offers it, and Z3's path pinned to the interpreter's seeded
answers reaches its state (tests/test_unroll.py's `compare`).  Survivor of the blind mutation sample -e
(unroll.py:419, the single card's guard true → false: its powers were never offered)."""

from __future__ import annotations

import pytest

from checker.front.check import check_paths
from checker.runtime import Engine
from test_unroll import compare, run_interpreter, started

GAME = """\
game "Atouts" { players: 2..2  flow: partie }

kind Carte { valeur: Int in 1..3  start: pioche }
zone pioche: pile of Carte public
zone main[Player]: set of Carte public
var gagnés: Int = 0

card Carte "Atout" {
  valeur: 3
  power gagner "Gagner un point." {
    limit once per turn
    set gagnés = gagnés + 1
  }
}
card Carte "Un" { valeur: 1 }

procedure partie() { }

procedure tour() {
  for p in players {
    for c in pioche {
      if c.valeur == 3 {
        offer p {
          powers of c
          finish "Passer"
        }
      }
    }
  }
}

configuration "Tout" { include Carte: "Atout", "Un" }
"""


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    path = tmp_path_factory.mktemp("atouts") / "atouts.rules"
    path.write_text(GAME, encoding="utf-8")
    result = check_paths([path])
    assert result.ok, result.reporter.sorted()
    return result


def _started(result, seed: int) -> Engine:
    return started(result, 2, seed, "Tout")


@pytest.mark.parametrize("budget,seed", [(0, 1), (1, 2), (2, 3), (4, 4), (4, 5), (4, 6)])
def test_the_powers_of_one_card_are_offered_as_the_interpreter_offers_them(game, budget, seed):
    compare(_started(game, seed), "tour", (), budget, seed)


def test_some_seed_uses_the_power_and_the_encoding_follows_it(game):
    used = 0
    for seed in range(1, 9):
        (_, vars_, *_), log, _ = run_interpreter(_started(game, seed), "tour", (), 4, seed)
        used += vars_["gagnés"] > 0
        compare(_started(game, seed), "tour", (), 4, seed)
    assert used >= 1
