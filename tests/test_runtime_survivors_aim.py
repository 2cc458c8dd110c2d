"""Tests written for the survivors of the mutation sample of checker/runtime/aim.py (h153, seed 153,
bench/results/mutation-2026-11-29-h153.txt): how an ending's conditions are read and measured where the race of
tests/test_agents_aim.py does not look — a var set to the constant `false` is no ending, a comparison of two values
that are not numbers is 1 away when it does not hold, and a quantity is measured through its formula three calls
deep."""

from __future__ import annotations

from checker.front.check import check_paths
from checker.runtime.aim import distances, endings
from checker.runtime.engine import Engine

COURSE = """
game "Course" {
  edition: "test"
  players: 2..2
  flow: partie
  turn: tour
  score: score
}

enum Couleur { rouge "rouge", bleu "bleu" }
enum Fin { chaîne "la chaîne est complète", couleur_bleue "la couleur est bleue" }
var fin: Fin? = none
var fini: Bool = false
var hauteur: Int = 0
var couleur: Couleur = rouge
var numéro: Int = 0
var joué: Bool = false
var points[Player]: Int = 0
quantity score(p: Player): Int = points[p]
quantity haute(): Bool = hauteur >= 4
quantity bien_haute(): Bool = haute()
quantity très_haute(): Bool = bien_haute()

action cueillir(p: Player) "Cueillir : un point." {
  set points[p] = points[p] + 1
  set joué = true
}
action bâtir(p: Player) "Monter la tour d'un étage." {
  set hauteur = hauteur + 1
  set joué = true
}
rule une_action { forbid cueillir(p) when joué }
rule une_seule { forbid bâtir(p) when joué }

procedure tour(p: Player) {
  set joué = false
  offer p {
    cueillir(p)
    bâtir(p)
    finish "Fini" when joué
  }
}

procedure vérifier() {
  set fini = false
  if très_haute() {
    set fin = chaîne
  }
  if couleur == bleu {
    set fin = couleur_bleue
  }
  if numéro >= 3 {
    set fini = true
  }
}

procedure partie() {
  repeat {
    set numéro = numéro + 1
    for p in players {
      call tour(p)
    }
    call vérifier()
  } until fin != none or fini
}

configuration "Standard" { players: 2..2 }
"""


def _course(tmp_path) -> Engine:
    path = tmp_path / "course.rules"
    path.write_text(COURSE, encoding="utf-8")
    result = check_paths([path])
    assert result.ok, [d.message for d in result.reporter.errors]
    engine = Engine(result.typed)
    engine.recording = False
    return engine


def test_a_var_set_to_false_is_no_ending(tmp_path):
    """`set fini = false` sets an end var to a constant, but `false` ends nothing: only `true` and enum members
    name endings."""
    engine = _course(tmp_path)
    assert [(e.name, e.value) for e in endings(engine.program, engine.flow)] == [
        ("chaîne", "chaîne"), ("couleur_bleue", "couleur_bleue"), ("fini", "true")]


def test_conditions_are_measured_through_three_quantities_and_by_their_shape(tmp_path):
    """`très_haute()` calls `bien_haute()`, which calls `haute()`, written `hauteur >= 4`: three calls measured
    through, the ending is as far as the storeys missing; `couleur == bleu` compares enum members: 1 while it does
    not hold, 0 when it does."""
    engine = _course(tmp_path)
    seen = []

    class Probe:
        def choose(self, decision):
            if not seen:
                seen.append(distances(engine))
                engine.st.vars["hauteur"], engine.st.vars["couleur"] = 1, "bleu"
                engine.invalidate()
                seen.append(distances(engine))
            return 0

    engine.play({}, 2, 1, [Probe(), Probe()])
    assert seen == [{"chaîne": 4, "couleur_bleue": 1, "fini": 2}, {"chaîne": 3, "couleur_bleue": 0, "fini": 2}]
