"""The fan expansion's examples (spec/extension-fan/90-exemples.rules) run by `rulebook test` with the 4th
edition: the draft of 3 characters each at 3 players, the Fée Verte's exchange of a Manoir for a district with a
power and her discount, Ba'al's « Manoir maudit » beside a Manoir.  A copy of the expansion with one rule broken
makes the example that exercises it fail, with what was expected and what happened.
"""

from __future__ import annotations

import json
from pathlib import Path

from conftest import ROOT, broken_copy, run_cli

CITADELLES = ROOT / "spec" / "citadelles"
FAN = ROOT / "spec" / "extension-fan"
FEE = "Exemple de la Fée Verte : un Manoir contre un quartier qui a un pouvoir"


def test_the_fan_examples_all_pass(capsys):
    code, out, _ = run_cli(capsys, "test", str(CITADELLES), str(FAN), "--json")
    report = json.loads(out)
    assert code == 0, out
    mine = [e for e in report["examples"] if "extension-fan" in e["at"]]
    assert {e["example"] for e in mine} >= {
        "Trois joueurs, trois personnages chacun", "Un Manoir et un Manoir maudit",
        "Exemple de la Fée Verte : un Manoir contre un quartier qui a un pouvoir",
        "Le rabais de la Fée Verte est de 2", "Sans échange possible, la Fée Verte a son rabais"}
    assert all(e["passed"] and e["expectations"] >= 1 for e in mine)


def _broken_copy(tmp_path: Path, file: str, old: str, new: str) -> Path:
    return broken_copy(tmp_path, FAN, file, old, new)


def test_a_manoir_maudit_refused_as_a_double_fails_ba_al_s_example(tmp_path, capsys):
    fan = _broken_copy(tmp_path, "11-nouveaux-personnages-ii.rules", "permit bâtir_maudit(p, d) when d in cité[p]",
                       "permit bâtir_maudit(p, d) when false and d in cité[p]")
    code, out, _ = run_cli(capsys, "test", str(CITADELLES), str(fan), "-k", "Un Manoir et un Manoir maudit")
    assert code == 1, out
    assert "FAIL Un Manoir et un Manoir maudit" in out
    assert "expected: can bâtir_maudit(Joueur 1, \"Manoir\"): the move is legal" in out
    assert "actual:   it is forbidden by" in out


def test_a_discount_of_1_fails_the_fee_verte_s_discount_example(tmp_path, capsys):
    fan = _broken_copy(tmp_path, "11-nouveaux-personnages-ii.rules", "by 0 - least(2, d.cost)", "by 0 - least(1, d.cost)")
    code, out, _ = run_cli(capsys, "test", str(CITADELLES), str(fan), "-k", "Le rabais de la Fée Verte est de 2",
                           "-k", FEE)
    assert code == 1, out
    assert "FAIL Le rabais de la Fée Verte est de 2" in out and "FAIL " + FEE in out
    assert "can bâtir(Joueur 1, \"Château\"): the move is legal" in out and "payer_le_coût" in out


def test_two_characters_set_aside_face_down_fail_the_draft_example(tmp_path, capsys):
    fan = _broken_copy(tmp_path, "01-partie.rules", "draw 1 from paquet to écartés_cachés", "draw 2 from paquet to écartés_cachés")
    code, out, _ = run_cli(capsys, "test", str(CITADELLES), str(fan), "-k", "Trois joueurs, trois personnages chacun")
    assert code == 1, out
    assert "expected: count(c in écartés_cachés) == 1" in out and "actual:   count(c in écartés_cachés) is 2" in out


def test_an_example_s_quotation_is_checked_against_the_source(tmp_path, capsys):
    fan = _broken_copy(tmp_path, "90-exemples.rules", "un \\\"Manoir maudit\\\" dans sa cité.\"\n  players",
                       "un \\\"Manoir maudit\\\" dans sa ville.\"\n  players")
    code, out, err = run_cli(capsys, "check", str(CITADELLES), str(fan))
    assert code == 1
    assert "E0401" in out + err and "90-exemples.rules" in out + err


def test_the_die_s_outcome_is_the_example_s_random_line(tmp_path, capsys):
    """`random 3`: the Fée Verte's die makes 3, the Manoir's value.  A 4 targets no district of the situation (the
    spell ends without an exchange, and the example's choice of a city is no move); a 7 is no face of the die."""
    for face, told in ((4, "expected: this choice to be a legal move"),
                       (7, "actual:   it is not one of its outcomes: 1, 2, 3, 4, 5, 6")):
        fan = _broken_copy(tmp_path / str(face), "90-exemples.rules", "\n  random 3\n", f"\n  random {face}\n")
        code, out, _ = run_cli(capsys, "test", str(CITADELLES), str(fan), "-k", FEE)
        assert code == 1 and f"FAIL {FEE}" in out and told in out, out


def test_a_random_line_where_nothing_is_drawn_fails_the_example(tmp_path, capsys):
    fan = _broken_copy(tmp_path, "90-exemples.rules", "  do bâtir_maudit(Joueur 1, \"Manoir\")\n",
                       "  do bâtir_maudit(Joueur 1, \"Manoir\")\n  random 3\n")
    code, out, _ = run_cli(capsys, "test", str(CITADELLES), str(fan), "-k", "Un Manoir et un Manoir maudit")
    assert code == 1 and "actual:   the game draws nothing at random here" in out, out
