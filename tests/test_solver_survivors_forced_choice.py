"""A `choose` with a single option is no decision (the interpreter takes it without asking): `rulebook reach`
counts only the decisions the interpreter asks (checker/solver/unroll.py `decided`, `_at_least_two`).  Survivor of
the blind mutation sample h164 (solver, seed 6164), unroll.py:141 `False → True` (fewer than two options counted as
a decision: a path one decision longer than it is, and within 2 decisions a false « proved »)."""

from __future__ import annotations

import json

from checker.cli import main

GAME = """\
game "Seul" { players: 2..2  flow: partie }

kind Carte { valeur: Int in 1..2  start: pioche }
zone pioche: pile of Carte public
zone main[Player]: set of Carte public

card Carte "Un" { valeur: 1 }
card Carte "Deux" { valeur: 2 }

action prendre(p: Player) "Prendre la carte de valeur 1." {
  choose c in filter(x in pioche where x.valeur == 1) by p
  move c to main[p]
}
rule il_en_reste { forbid prendre(p) when not any(x in pioche where x.valeur == 1) }

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


def test_a_choice_with_one_option_is_not_counted_as_a_decision(tmp_path, capsys):
    """The second player takes « Un » in two decisions (the first passes, the second takes): its pick of the one
    card of value 1 is not asked."""
    spec = tmp_path / "seul.rules"
    spec.write_text(GAME, encoding="utf-8")
    code = main(["reach", str(spec), "count(x in main[Joueur 2]) == 1", "--within", "2", "-n", "2", "-s", "1",
                 "--json"])
    out = json.loads(capsys.readouterr().out)
    assert (code, out["status"], out["confirmed"]) == (0, "reached", True), out["reason"]
    assert [d["answer"] for d in out["decisions"]] == ["Passer", "prendre(Joueur 2)"]
