"""The sub-goals of an aimed ending (checker/runtime/aim.py `subgoals`) are the statements that change what the
ending's conditions read: a `shuffle` of a zone the ending reads is one, a `shuffle` of another zone is not (nor a
`reset` of another var).  Written for the survivor aim_plan.py:253
`In → NotIn` (a `shuffle`'s zone) of the blind runtime sample h169 (bench/results/mutation-2026-11-29-h169.txt):
no test had a `shuffle` on the way to an ending, and a `shuffle` of any other zone was taken for a step towards
it.  A `reset`: tests/test_runtime_survivors_aim_resets.py."""

from __future__ import annotations

import pytest

from checker.runtime.aim import endings, subgoals
from conftest import engine_of

DEFAUSSE = """\
game "Défausse" { players: 2..2  flow: partie  turn: tour }

enum Fin { pleine "la défausse est pleine" }
var fin: Fin? = none
var numéro: Int = 0
var joué: Bool = false
kind Carte { valeur: Int in 1..4  start: pioche }
zone pioche: pile of Carte public
zone défausse: pile of Carte public
zone rebut: pile of Carte public

action jeter(p: Player) "Jeter une carte." { draw 1 from pioche to défausse  set joué = true }
rule un_jet { forbid jeter(p) when joué }

card Carte "Un" { valeur: 1 }
card Carte "Deux" { valeur: 2 }
card Carte "Trois" { valeur: 3 }

procedure tour(p: Player) {
  set joué = false
  TOUR
  offer p {
    jeter(p)
    finish "Fini" when joué
  }
}

procedure vérifier() {
  if count(c in défausse) >= 2 {
    set fin = pleine
  }
}

procedure partie() {
  repeat {
    set numéro = numéro + 1
    for p in players { call tour(p) }
    call vérifier()
  } until fin != none or numéro >= 3
}

configuration "Tout" { include Carte: "Un", "Deux", "Trois" }
"""


def _subgoals(tmp_path, in_the_turn: str) -> list[tuple[int, str]]:
    engine = engine_of(tmp_path / "defausse.rules", DEFAUSSE.replace("TOUR", in_the_turn))
    [found] = endings(engine.program, engine.flow)
    return [(g.depth, g.where) for g in subgoals(engine.program, engine.flow, found)]


# without anything more in the turn: the check that ends the game, and the discard in `jeter`
ALONE = [(1, "vérifier"), (1, "jeter")]


@pytest.mark.parametrize("in_the_turn", ["shuffle pioche", "shuffle rebut", "reset numéro"])
def test_a_shuffle_or_reset_of_what_the_ending_does_not_read_is_no_step_towards_it(tmp_path, in_the_turn):
    assert _subgoals(tmp_path, "") == ALONE
    assert _subgoals(tmp_path, in_the_turn) == ALONE


def test_a_shuffle_of_the_zone_the_ending_reads_is_a_step_towards_it(tmp_path):
    assert _subgoals(tmp_path, "shuffle défausse") == [(1, "vérifier"), (1, "tour"), (1, "jeter")]
