"""A local collection bound in both branches of an `if` (checker/solver/transition.py, the `if` statement's
merge): after the `if`, each element is there under its branch's condition.  Survivor of the blind mutation sample
h164 (solver, seed 6164), transition.py:659 `Add → Sub` (the branches' elements subtracted: `rulebook reach` stopped
with an internal error on such an action)."""

from __future__ import annotations

import json

from checker.cli import main

GAME = """\
game "Branches" { players: 2..2  flow: partie }

kind Carte { valeur: Int in 1..2  start: pioche }
zone pioche: pile of Carte public
zone main[Player]: set of Carte public

card Carte "Un" { valeur: 1 }
card Carte "Deux" { valeur: 2 }

action prendre(p: Player) "Prendre : d'abord les cartes de valeur 1, puis celles de valeur 2." {
  if count(x in main[p]) == 0 {
    let lot = filter(x in pioche where x.valeur == 1)
    move lot to main[p]
  } else {
    let lot = filter(x in pioche where x.valeur == 2)
    move lot to main[p]
  }
}
rule deux_fois { forbid prendre(p) when count(x in main[p]) >= 2 or count(x in pioche) == 0 }

procedure partie() {
  for p in players {
    offer p {
      prendre(p)
      finish "Passer"
    }
  }
}

configuration "Tout" { include Carte: "Un", "Deux" }
"""


def test_a_collection_bound_in_both_branches_of_an_if_is_followed(tmp_path, capsys):
    """The first player takes « Un » (nothing in hand yet), then « Deux »: both cards in two decisions,
    confirmed by the interpreter."""
    spec = tmp_path / "branches.rules"
    spec.write_text(GAME, encoding="utf-8")
    code = main(["reach", str(spec), "count(x in main[Joueur 1]) == 2", "--within", "2", "-n", "2", "-s", "1",
                 "--json"])
    out = json.loads(capsys.readouterr().out)
    assert (code, out.get("status"), out.get("confirmed")) == (0, "reached", True), out
    assert [d["answer"] for d in out["decisions"]] == ["prendre(Joueur 1)", "prendre(Joueur 1)"]
