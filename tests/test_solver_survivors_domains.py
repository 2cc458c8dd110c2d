"""The conflict search's domain of a var whose type gives it none to assert (checker/solver/search.py `_domain`'s last
case, reached by a `Bool?`): no constraint, so a situation that needs the var true is searched like any other.
Survivor of the blind solver sample h171 (seed 7171): search.py:283 `return True` → `return False` (every state
whose question reads such a var excluded: the conflict below not found, a false « no conflict »); no test of the set
had a var of such a type."""

from __future__ import annotations

import json

from conftest import ROOT

GAME = ROOT / "tests" / "fixtures" / "good" / "minimal_game.rules"
HOUSE = """var drapeau: Bool? = none
rule fermé_au_drapeau { forbid acheter(p, l) when drapeau == true }
rule cannelle_au_drapeau { permit acheter(p, l) when drapeau == true and l == "Cannelle" }
"""


def test_a_conflict_that_needs_an_optional_boolean_var_true_is_found(tmp_path, capsys):
    from checker.cli import main
    house = tmp_path / "drapeau.rules"
    house.write_text(HOUSE, encoding="utf-8")
    code = main(["conflicts", str(GAME), str(house), "--json"])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    report = json.loads(out)
    found = {tuple(f["rules"]) for f in report["findings"] if f["kind"] == "contradiction"}
    assert ("cannelle_au_drapeau", "fermé_au_drapeau") in found
    assert code == 1
