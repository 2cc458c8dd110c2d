"""Tests written for the survivors of the blind runtime sample of h158 (seed 2811,
bench/results/mutation-2026-11-29-h158.txt) in checker/runtime/aim.py: a sub-goal's chain tries at most 256 values
of its loops (`_BUDGET`), then keeps the least distance found among them — a loop of 300 values whose key is at 280
is measured as the nearest of its first 256 values, 24 away, not 0."""

from __future__ import annotations

from checker.runtime.aim import subgoal_penalty
from conftest import at_first_decision, engine_of

TRÉSOR = """
game "Trésor" {
  edition: "test"
  players: 2..2
  flow: partie
  turn: tour
  score: score
}

enum Fin { trouvé "le trésor est trouvé" }
var fin: Fin? = none
var numéro: Int = 0
var trésor: Int = 0
var clé: Int = CLÉ
var joué: Bool = false
var points[Player]: Int = 0
quantity score(p: Player): Int = points[p]

action fouiller(p: Player) "Fouiller les coffres." {
  for x in 1..300 {
    if x == clé {
      set trésor = 1
    }
  }
  set joué = true
}
action cueillir(p: Player) "Cueillir : un point." {
  set points[p] = points[p] + 1
  set joué = true
}
rule une_fouille { forbid fouiller(p) when joué }
rule une_cueillette { forbid cueillir(p) when joué }

procedure tour(p: Player) {
  set joué = false
  offer p {
    fouiller(p)
    cueillir(p)
    finish "Fini" when joué
  }
}

procedure vérifier() {
  if trésor >= 1 {
    set fin = trouvé
  }
}

procedure partie() {
  repeat {
    set numéro = numéro + 1
    for p in players {
      call tour(p)
    }
    call vérifier()
  } until fin != none or numéro >= 3
}

configuration "Standard" { players: 2..2 }
"""


def _penalty(tmp_path, key: int) -> float:
    engine = engine_of(tmp_path / "tresor.rules", TRÉSOR.replace("CLÉ", str(key)), recording=False)
    return at_first_decision(engine, lambda p: subgoal_penalty(engine, "trouvé", p))


def test_a_chain_tries_its_first_256_loop_values_and_keeps_the_nearest(tmp_path):
    assert _penalty(tmp_path, 200) == 0          # among the values tried: found
    assert _penalty(tmp_path, 280) == 24         # past them: the nearest tried, 256


def test_a_condition_on_a_let_the_chain_cannot_know_is_left_out(tmp_path):
    """(a survivor of the second sample, seed 1129: aim.py:653 `and` → `or`) the key read through `let k = clé`
    is a local the chain cannot know: its condition is left out of the measure (the loop alone: 0 away), not
    compiled where `k` is not known."""
    text = TRÉSOR.replace("CLÉ", "280").replace("  for x in 1..300 {\n    if x == clé {",
                                                "  let k = clé\n  for x in 1..300 {\n    if x == k {")
    engine = engine_of(tmp_path / "tresor.rules", text, recording=False)
    assert at_first_decision(engine, lambda p: subgoal_penalty(engine, "trouvé", p)) == 0
