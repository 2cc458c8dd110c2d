"""Tests written for a survivor of the second blind runtime sample of h158 (seed 1129,
bench/results/mutation-2026-11-29-h158.txt) in checker/runtime/compile.py: a prohibition's part that reads no loop
name is computed once for the listing, but never before an earlier prohibition of the same loop has let an element
through — here the earlier rule forbids every token, so the later one's `marqué()`, a `the(…)`, which has no single value in this
game (an error if computed), is never computed and the offer lists no token."""

from __future__ import annotations

from checker.front.check import check_paths
from checker.runtime.engine import Engine

JETONS = """
game "Jetons" {
  edition: "test"
  players: 2..2
  flow: partie
  turn: tour
}
kind Jeton { valeur: Int in 1..3  start: sac }
card Jeton "Un" { valeur: 1 }
card Jeton "Deux" { valeur: 2 }
zone sac: set of Jeton public
zone main[Player]: set of Jeton public
var joué: Bool = false
var marque[Player]: Int = 1

action prendre(p: Player, j: Jeton) "Prendre un jeton." {
  move j to main[p]
  set joué = true
}
action attendre(p: Player) "Attendre." {
  set joué = true
}
action rêver(p: Player) "Rêver." {
  set joué = true
}
rule trop_cher { forbid prendre(p, j) when j.valeur > 0 }
quantity marqué(): Player? = the(q in players where marque[q] > 0)
rule pas_le_marqué { forbid prendre(p, j) when marqué() == p and j.valeur > 2 }
rule une_prise { forbid prendre(p, j) when joué }
rule une_attente { forbid attendre(p) when joué }
rule un_rêve { forbid rêver(p) when joué }

procedure tour(p: Player) {
  set joué = false
  offer p {
    prendre(p, j) for j in sac
    attendre(p)
    rêver(p)
    finish "Fini" when joué
  }
}

procedure partie() {
  for p in players {
    call tour(p)
  }
}

configuration "Standard" { players: 2..2  include Jeton: "Un", "Deux" }
"""


def test_a_part_behind_a_rule_that_forbids_every_element_is_never_computed(tmp_path):
    path = tmp_path / "jetons.rules"
    path.write_text(JETONS, encoding="utf-8")
    result = check_paths([path])
    assert result.ok, [d.message for d in result.reporter.errors]
    engine = Engine(result.typed)
    engine.recording = False
    seen = []

    class First:
        def choose(self, decision):
            seen.append([o[1] for o in decision.options])
            return 0

    engine.play({"Jeton": ["Un", "Deux"]}, 2, 1, [First(), First()])
    assert seen == [["attendre", "rêver"]] * 2
    assert sorted(engine.st.zones["sac"]) == sorted(engine.instances[engine.def_ids["Un"]] +
                                                    engine.instances[engine.def_ids["Deux"]])
