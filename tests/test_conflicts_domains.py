"""The conflict search gives each var of a witness every value its type allows, the ends included, and no
other: a conflict that happens only when an enum var holds its first or its last member, or when an Int var
is 0 or the search's bound, is found (an off-by-one in the domain of a var would hide it), and one that
would need a value outside the enum is not."""

from __future__ import annotations

import json

from conftest import ROOT

GAME = ROOT / "tests" / "fixtures" / "good" / "minimal_game.rules"
HOUSE = """var humeur: Épice = poivre
rule fermé_au_safran { forbid acheter(p, l) when humeur == safran }
rule cannelle_au_safran { permit acheter(p, l) when humeur == safran and l == "Cannelle" }
rule fermé_à_la_cannelle { forbid acheter(p, l) when humeur == cannelle }
rule poivre_à_la_cannelle { permit acheter(p, l) when humeur == cannelle and l == "Poivre noir" }
rule fermé_au_début { forbid acheter(p, l) when tours_joués == 0 }
rule safran_au_début { permit acheter(p, l) when tours_joués == 0 and l == "Safran d'Iran" }
rule fermé_à_la_borne { forbid acheter(p, l) when tours_joués == BORNE }
rule safran_à_la_borne { permit acheter(p, l) when tours_joués == BORNE and l == "Safran d'Iran" }
rule fermé_sinon { forbid acheter(p, l) when humeur != safran and humeur != poivre and humeur != cannelle }
rule cannelle_sinon { permit acheter(p, l) when humeur != safran and humeur != poivre and humeur != cannelle and l == "Cannelle" }
"""


def test_a_conflict_only_at_the_ends_of_a_vars_domain_is_found(tmp_path, capsys):
    from checker.cli import main
    house = tmp_path / "humeurs.rules"
    from checker.solver.search import BOUND           # the search's integers are 0..BOUND
    house.write_text(HOUSE.replace("BORNE", str(BOUND)), encoding="utf-8")
    code = main(["conflicts", str(GAME), str(house), "--all", "--json"])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    report = json.loads(out)
    found = {tuple(f["rules"]) for f in report["findings"] if f["kind"] == "contradiction"}
    assert code == 1
    assert {("cannelle_au_safran", "fermé_au_safran"), ("poivre_à_la_cannelle", "fermé_à_la_cannelle"),
            ("safran_au_début", "fermé_au_début"), ("safran_à_la_borne", "fermé_à_la_borne")} <= found
    assert ("cannelle_au_safran", "fermé_à_la_cannelle") not in found, "safran and cannelle never together"
    assert ("cannelle_sinon", "fermé_sinon") not in found, "an Épice is one of the three"
