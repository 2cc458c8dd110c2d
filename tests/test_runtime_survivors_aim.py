"""Tests written for the survivors of the mutation sample of checker/runtime/aim.py (h153, seed 153,
bench/results/mutation-2026-11-29-h153.txt): how an ending's conditions are read and measured where the race of
tests/test_agents_aim.py does not look — a var set to the constant `false` is no ending, a comparison of two values
that are not numbers is 1 away when it does not hold, `a > b` is `b - a + 1` away, a quantity is measured through
its formula three calls deep, and the other endings' distances are capped at the aimed one's plus 1."""

from __future__ import annotations

from checker.runtime.aim import cap, distances, endings, progress
from checker.runtime.agents import GreedyAgent
from checker.runtime.engine import Engine
from conftest import engine_of

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
  if numéro > 2 {
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
    return engine_of(tmp_path / "course.rules", COURSE, recording=False)


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
    # `numéro > 2` in round 1: 2 - 1 + 1 away
    assert seen == [{"chaîne": 4, "couleur_bleue": 1, "fini": 2}, {"chaîne": 3, "couleur_bleue": 0, "fini": 2}]


def test_the_other_endings_are_capped_at_the_aimed_ones_distance_plus_one(tmp_path):
    """Aiming at `couleur_bleue` (1 away), the other endings count at most 1 + 1: `chaîne` (4 away) counts 2,
    `fini` (2 away) 2; the progress is -1 + 2 + 2, with the cap of the decision (`cap`) as without one."""
    engine = _course(tmp_path)
    seen = []

    class Probe:
        def choose(self, decision):
            if not seen:
                seen.append((cap(engine, "couleur_bleue"), progress(engine, "couleur_bleue"),
                             progress(engine, "couleur_bleue", cap(engine, "couleur_bleue")),
                             progress(engine, "chaîne")))
            return 0

    engine.play({}, 2, 1, [Probe(), Probe()])
    # aiming at `chaîne` (4 away): the others are nearer than its cap (5), counted as they are
    assert seen == [(2, 3, 3, -4 + 1 + 2)]


def test_the_monte_carlo_rollouts_are_played_by_the_greedy_player_aiming_too():
    """(checker/runtime/montecarlo.py, its aim) with the "greedy" rollout, every seat of a playout is the greedy
    player aiming at the Monte-Carlo agent's aim with its weight; the "builder" rollout is the first greedy builder,
    which aims at nothing; "random" is the random player."""
    from checker.runtime.agents import RandomAgent
    from checker.runtime.montecarlo import _Driver
    policies = {rollout: _Driver(None, [], 0, 0, 2, 7, rollout, 10, aim="chaîne", weight=3).policy
                for rollout in ("greedy", "builder", "random")}
    greedy, builder = policies["greedy"], policies["builder"]
    assert isinstance(greedy, GreedyAgent) and (greedy.ending, greedy.aim, greedy.weight) == (True, "chaîne", 3)
    assert isinstance(builder, GreedyAgent) and (builder.ending, builder.aim) == (False, None)
    assert isinstance(policies["random"], RandomAgent)
