"""Tests written for the survivors of the blind runtime sample of h158 (seed 2811,
bench/results/mutation-2026-11-29-h158.txt) in checker/runtime/compile.py: an offer's item over two loops whose
prohibition is tested once per value of the outer loop (its first condition reads only the outer name) lists the
right options when an argument is computed from the inner loop's value (`b + 1`): that argument is computed in the
inner loop, for each of its values, never before it."""

from __future__ import annotations

from checker.front.check import check_paths
from checker.runtime.engine import Engine

PAIRES = """
game "Paires" {
  edition: "test"
  players: 2..2
  flow: partie
  turn: tour
}

var joué: Bool = false
var interdit: Int = 2
action choisir(p: Player, a: Int, c: Int) "Choisir {a} et {c}." {
  set joué = true
}
rule pas_celui_là { forbid choisir(p, a, c) when a == interdit or c == 3 }
rule une_fois { forbid choisir(p, a, c) when joué }

procedure tour(p: Player) {
  set joué = false
  offer p {
    choisir(p, a, b + 1) for a in 1..3 for b in 1..3
    finish "Fini" when joué
  }
}

procedure partie() {
  for p in players {
    call tour(p)
  }
}

configuration "Standard" { players: 2..2 }
"""


def test_an_argument_of_the_inner_loop_is_computed_for_each_of_its_values(tmp_path):
    """`a == interdit` (2) is tested once per `a`; `c == 3` (so `b == 2`) for each pair: the options are
    a in {1, 3}, c in {2, 4}."""
    path = tmp_path / "paires.rules"
    path.write_text(PAIRES, encoding="utf-8")
    result = check_paths([path])
    assert result.ok, [d.message for d in result.reporter.errors]
    engine = Engine(result.typed)
    engine.recording = False
    seen = []

    class First:
        def choose(self, decision):
            if not seen:
                seen.append(list(decision.options))
            return 0

    engine.play({}, 2, 1, [First(), First()])
    [options] = seen
    assert options == [("action", "choisir", (0, a, c)) for a, c in [(1, 2), (1, 4), (3, 2), (3, 4)]]
