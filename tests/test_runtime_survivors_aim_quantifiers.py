"""Tests written for the survivors of the blind runtime sample of h158 (seed 2811,
bench/results/mutation-2026-11-29-h158.txt) in checker/runtime/aim.py: an ending's condition that is an `all` or an
`any` over a collection is measured element by element (`all`: the elements' distances add up; `any`: the least),
not as one condition that holds or not."""

from __future__ import annotations

from checker.runtime.aim import distances
from conftest import at_first_decision, engine_of

RÉCOLTE = """
game "Récolte" {
  edition: "test"
  players: 2..2
  flow: partie
  turn: tour
  score: score
}

enum Fin { tous_riches "chacun a trois points", un_riche "quelqu'un a cinq points" }
var fin: Fin? = none
var numéro: Int = 0
var joué: Bool = false
var points[Player]: Int = 0
quantity score(p: Player): Int = points[p]

action cueillir(p: Player) "Cueillir : un point." {
  set points[p] = points[p] + 1
  set joué = true
}
action attendre(p: Player) "Attendre." {
  set joué = true
}
rule une_action { forbid cueillir(p) when joué }
rule une_seule { forbid attendre(p) when joué }

procedure tour(p: Player) {
  set joué = false
  offer p {
    cueillir(p)
    attendre(p)
    finish "Fini" when joué
  }
}

procedure vérifier() {
  if all(p in players: points[p] >= 3) {
    set fin = tous_riches
  } else if any(p in players: points[p] >= 5) {
    set fin = un_riche
  }
}

procedure partie() {
  repeat {
    set numéro = numéro + 1
    for p in players {
      call tour(p)
    }
    call vérifier()
  } until fin != none or numéro >= 9
}

configuration "Standard" { players: 2..2 }
"""


def test_an_all_adds_its_elements_distances_and_an_any_takes_the_least(tmp_path):
    """With 1 and 0 points, `all(p in players: points[p] >= 3)` is 2 + 3 = 5 away (each player's missing points),
    and `any(p in players: points[p] >= 5)` 4 away (the nearer player's); the `any` ending also needs the `all` not
    to hold (its `else`): 0 away while it does not."""
    engine = engine_of(tmp_path / "recolte.rules", RÉCOLTE, recording=False)

    def with_one_and_no_point(player):
        engine.st.vars["points"] = {0: 1, 1: 0}
        engine.invalidate()
        return distances(engine)

    assert at_first_decision(engine, with_one_and_no_point) == {"tous_riches": 5, "un_riche": 4}
