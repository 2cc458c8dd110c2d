"""Tests written for the survivors of the blind runtime sample of h158 (seed 2811,
bench/results/mutation-2026-11-29-h158.txt) in checker/runtime/montecarlo.py: with fewer candidates than options,
the Monte-Carlo agent plays out the options the greedy player's measure values best, not the worst; a decision it
cannot play out (no engine, or one option only) gets its first option."""

from __future__ import annotations

import pytest

from checker.front.check import check_paths
from checker.runtime.engine import Decision, Engine
from checker.runtime.montecarlo import MonteCarloAgent

CUEILLETTE = """
game "Cueillette" {
  edition: "test"
  players: 2..2
  flow: partie
  turn: tour
  score: score
}

var numéro: Int = 0
var joué: Bool = false
var points[Player]: Int = 0
quantity score(p: Player): Int = points[p]

action attendre(p: Player) "Attendre." {
  set joué = true
}
action cueillir(p: Player) "Cueillir : un point." {
  set points[p] = points[p] + 1
  set joué = true
}
rule une_attente { forbid attendre(p) when joué }
rule une_cueillette { forbid cueillir(p) when joué }

procedure tour(p: Player) {
  set joué = false
  offer p {
    attendre(p)
    cueillir(p)
    finish "Fini" when joué
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


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_one_candidate_is_the_option_the_greedy_measure_values_best(tmp_path, seed):
    """Waiting (no point) is offered before picking (a point): with one candidate, the agent plays out and takes
    the point, whatever the playouts would say of the other option (it plays out none of it)."""
    path = tmp_path / "cueillette.rules"
    path.write_text(CUEILLETTE, encoding="utf-8")
    result = check_paths([path])
    assert result.ok, [d.message for d in result.reporter.errors]
    engine = Engine(result.typed)
    engine.recording = False
    mc = MonteCarloAgent(seed, playouts=2, depth=0, candidates=1)
    seen = []

    class First:
        def choose(self, decision):
            if not seen:
                seen.append((decision.labels(), mc.choose(decision)))
            return 0

    engine.play({}, 2, 1, [First(), First()])
    [(labels, chosen)] = seen
    assert "cueillir" in labels[chosen].lower() and len(labels) == 2


def test_a_decision_it_cannot_play_out_gets_its_first_option():
    """No engine to play it out on (a decision made by hand), or one option only (here the optional choice's
    « none » of an empty collection): the first option, index 0."""
    agent = MonteCarloAgent(1)
    assert agent.choose(Decision(0, "Choisir", ["a", "b", "c"], str)) == 0
    assert agent.choose(Decision(0, "Choisir", [], str, optional=True)) == 0
    assert agent.played == 0


def test_the_playouts_of_one_spec_run_on_one_second_engine_per_thread(tmp_path):
    """(montecarlo.py's `_shadow`) the engine the playouts run on is compiled once per spec and thread: asked again
    for the same spec, even from another engine of it, it is the same engine; another spec gets its own."""
    from checker.runtime.montecarlo import _shadow
    path = tmp_path / "cueillette.rules"
    path.write_text(CUEILLETTE, encoding="utf-8")
    typed = check_paths([path]).typed
    other = check_paths([path]).typed
    first, second = Engine(typed), Engine(typed)
    shadow = _shadow(first)
    assert shadow is not first and shadow.typed is typed and not shadow.recording
    assert _shadow(first) is shadow and _shadow(second) is shadow
    assert _shadow(Engine(other)) is not shadow and _shadow(Engine(other)).typed is other
