"""`rulebook diff`: equivalence is proven, every difference comes with a minimal witness that both
interpreters (and `rulebook legal`, `rulebook eval`) replay, renamed cards are not differences, an
undecided search is never called equivalent, and bad input is refused plainly."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from checker.front.check import check_paths
from checker.diff.command import write_witnesses
from checker.diff.pair import Side
from checker.diff.run import diff_paths, diff_results
from checker.base.output import OutputError
from checker.solver.factory import SolverSettings
from conftest import ROOT, run_cli

BASE = "spec/citadelles"

run = run_cli


def overlay(tmp_path: Path, text: str, name: str = "variante.rules") -> Path:
    path = tmp_path / name
    path.write_text('overlay "Variante" on "Citadelles"\n' + text + "\n", encoding="utf-8")
    return path


def test_the_same_rule_set_is_equivalent(capsys):
    code, out, _ = run(capsys, "diff", BASE, "--", BASE)
    assert code == 0
    assert out.splitlines()[2].startswith("equivalent: 0 behavioural difference(s); 0 change(s)")


def test_a_later_end_of_game_is_found_with_minimal_witnesses_both_sides_replay(capsys, tmp_path):
    """« Lorsqu'un joueur bâtit son septième quartier, on achève le tour en cours et la partie est terminée. »
    A house rule ending at 8 districts changes the end, the bonus for a complete city and the destruction
    of a complete city; the witnesses are the smallest states that show it."""
    variant = overlay(tmp_path, "replace quantity cité_complète_à(): Int = 8")
    result = diff_paths([Path(BASE)], [Path(BASE), variant], causes=1)
    assert result.status == "different"
    folder = tmp_path / "témoins"
    write_witnesses(result, folder, force=False)
    by_subject = {d.subject: d for d in result.behavioural if d.kind in ("legality", "value")}
    end = by_subject["cité_complète_à"]
    assert (end.sides["a"], end.sides["b"], end.players, end.confirmed) == ("7", "8", 4, True)  # at 2 and 3, both 8
    destroy = by_subject["détruire"]
    assert (destroy.sides["legal"], destroy.sides["illegal"], destroy.confirmed) == ("b", "a", True)
    why = destroy.sides["why"][0]
    assert (why["rule"], why["there"], why["reads"]) == ("détruire_cité_complète", "not-applying",
                                                         [("complète(q)", "oui", "non")])
    # a complete city (7 districts, or 6 with the Monument that counts twice) and little else: the witness is
    # minimised among the subsets of the first one Z3 finds, within a bounded effort
    assert 6 <= len([line for line in destroy.situation if "∈ cité" in line]) <= 9
    assert destroy.players == 4
    # both interpreters replay the witness: `rulebook legal` judges the move on each side, `eval` the city
    a_state, a_move, b_state, b_move = destroy.files
    assert run(capsys, "legal", a_state, a_move)[0] == 1
    assert run(capsys, "legal", b_state, b_move)[0] == 0
    victim = destroy.move["a"]["args"][1]
    assert run(capsys, "eval", a_state, f"complète({victim})")[1].strip() == "oui"
    assert run(capsys, "eval", b_state, f"complète({victim})")[1].strip() == "non"
    state_a = [f for f in end.files if f.endswith(".a.state.json")][0]
    assert run(capsys, "eval", state_a, "cité_complète_à()")[1].strip() == "7"
    assert run(capsys, "eval", state_a.replace(".a.", ".b."), "cité_complète_à()")[1].strip() == "8"
    # witnesses are never written over without --force
    with pytest.raises(OutputError):
        write_witnesses(result, folder, force=False)
    code, _, err = run(capsys, "diff", BASE, "--with", str(variant), "--witnesses", str(folder))
    assert code == 2 and "already holds" in err and "--force" in err
    assert Path(a_state).read_text(encoding="utf-8") == json.dumps(destroy.witness["a"], ensure_ascii=False,
                                                                   indent=1) + "\n"


def test_the_command_prints_the_differences_and_exits_1(capsys, tmp_path):
    variant = overlay(tmp_path, "remove rule assassin_pas_lui_même")
    code, out, _ = run(capsys, "diff", BASE, "--with", str(variant), "--first")
    assert code == 1
    assert "assassiner(Joueur 1, Assassin) is legal in B and illegal in A (2 players)" in out
    assert "A: forbidden by assassin_pas_lui_même" in out and "the interpreter, on the witness: agrees" in out


def test_a_renamed_card_is_not_a_difference(capsys, tmp_path):
    variant = overlay(tmp_path, 'rename card "Condottiere" to "Général"')
    result = diff_paths([Path(BASE)], [Path(BASE), variant])
    assert result.status == "equivalent"
    assert [d.message for d in result.neutral] == ['Character "Condottiere" in A is "Général" in B']


def test_names_on_one_side_only_are_said(tmp_path):
    variant = overlay(tmp_path, "remove rule voleur_pas_lui_même\nremove decision cible_autre_que_soi\n"
                                "remove rule assassin_pas_lui_même\nremove rule sorcière_pas_elle_même\n"
                                "remove rule échevin_pas_lui_même\nremove rule maître_chanteuse_pas_elle_même")
    result = diff_paths([Path(BASE)], [Path(BASE), variant])
    messages = {d.message for d in result.differences}
    assert "decision cible_autre_que_soi is only in A" in messages
    assert any(m.startswith("rule voleur_pas_lui_même is only in A") for m in messages)
    legal = {d.subject: d for d in result.behavioural if d.kind == "legality"}
    assert legal["voler"].sides["legal"] == "b" and legal["voler"].rules == ["voleur_pas_lui_même"]


def test_an_undecided_search_is_never_equivalent(tmp_path):
    variant = overlay(tmp_path, "replace quantity cité_complète_à(): Int = 8")
    a, b = check_paths([Path(BASE)]), check_paths([Path(BASE), variant])
    starved = SolverSettings(timeout_ms=1, rlimit=1, incremental=True)
    result = diff_results(Side("a", a, [Path(BASE)]), [Path(BASE)], b, [Path(BASE), variant], starved)
    assert result.status == "undecided"
    assert result.undecided and all(d.unknown for d in result.undecided)
    assert not result.behavioural


@pytest.mark.parametrize("argv,words", [
    (["diff", BASE], "say what B is"),
    (["diff", BASE, "--with", "nope.rules"], "no such file"),
])
def test_bad_command_lines_exit_2(capsys, argv, words):
    code, _, err = run(capsys, *argv)
    assert code == 2 and words in err


def test_a_rule_set_with_errors_is_refused(capsys, tmp_path):
    broken = overlay(tmp_path, "rule cassée { forbid bâtir(p, d) when inconnu }")
    code, out, err = run(capsys, "diff", BASE, "--with", str(broken))
    assert code == 1 and "rule set B has 1 error(s)" in err and "unknown" in out


def test_the_fan_expansion_compares_with_cards_that_have_no_copy_in_the_witness(capsys, monkeypatch):
    """Its witnesses name cards of the expansion that no zone holds (a card-valued variable's default):
    they are selected, with no copy to place, where the diff used to stop with an internal error."""
    monkeypatch.chdir(Path(__file__).resolve().parent.parent)
    code, out, err = run_cli(capsys, "diff", "spec/citadelles", "--with", "spec/extension-fan", "--first")
    assert code == 1, err
    assert "legality" in out and "witness:" in out and "the interpreter, on the witness: agrees" in out


# ---------------------------------------------------------------- answers that do not depend on the code around them

_PERTURBED = """import runpy, sys
junk = [[i] for i in range(300_000)]        # allocations that move Python's garbage-collector counts
import checker.sphinxext, checker.lsp.server  # noqa: F401  (more modules, more objects)
sys.argv = ["rulebook", *sys.argv[1:]]
runpy.run_module("checker", run_name="__main__")
"""


def test_the_witnesses_do_not_depend_on_what_else_the_process_allocated(tmp_path):
    """Z3 reuses the numbers of freed terms, and its models follow those numbers: before the commands ran the
    collector only at question boundaries (solver.factory.steady_collector), the same diff run after more
    allocations chose other witnesses for this variant.  Now the two runs are the same, witnesses included."""
    import subprocess
    import sys
    argv = ["diff", "spec/citadelles", "spec/éditions/jeu-de-base", "--with",
            "spec/variantes/jeu-de-base/partie-rapide-6.rules", "--json"]
    script = tmp_path / "perturbed.py"
    script.write_text(_PERTURBED, encoding="utf-8")
    runs = [subprocess.Popen([sys.executable, *prefix, *argv], cwd=ROOT, stdout=subprocess.PIPE, text=True)
            for prefix in (["-m", "checker"], [str(script)])]
    plain, perturbed = (json.loads(run.communicate(timeout=600)[0]) for run in runs)
    assert plain["queries"] > 0 and len(plain["differences"]) == 7
    assert perturbed["differences"] == plain["differences"]
