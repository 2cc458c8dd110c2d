"""Witnesses written as examples (checker.solver.as_example): `rulebook diff --witnesses` and `rulebook conflicts
--witnesses` write ``examples.rules`` beside the state files, one `example` block per witness; a block pasted into
the house-rule file passes `rulebook test`, and fails once its expectation is flipped (the behaviour is pinned).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from checker.front.check import check_paths
from checker.solver.as_example import setup_state, witness_example
from checker.runtime.engine import Engine
from checker.solver.scopes import Scopes
from conftest import ROOT, run_cli

BASE = "spec/citadelles"


def _pasted(tmp_path: Path, overlay: str, examples: Path, name: str = "maison.rules") -> Path:
    """The house-rule file with the emitted blocks pasted at its end."""
    target = tmp_path / name
    target.write_text(overlay + "\n" + examples.read_text(encoding="utf-8"), encoding="utf-8")
    return target


def test_a_legality_difference_is_pinned_by_its_example(tmp_path, capsys):
    overlay = 'overlay "Variante" on "Citadelles"\nremove rule assassin_pas_lui_même\n'
    variant = tmp_path / "variante.rules"
    variant.write_text(overlay, encoding="utf-8")
    folder = tmp_path / "témoins"
    code, _, _ = run_cli(capsys, "diff", BASE, "--with", str(variant), "--first", "--witnesses", str(folder))
    assert code == 1
    examples = folder / "examples.rules"
    text = examples.read_text(encoding="utf-8")
    assert 'example "diff assassiner" {' in text and "  at suite_du_tour(" in text
    assert "  expect can assassiner(Joueur " in text          # B (the variant) lets the Assassin target himself
    pasted = _pasted(tmp_path, overlay, examples)
    code, out, _ = run_cli(capsys, "test", BASE, str(pasted), "-k", "diff assassiner")
    assert code == 0 and out.startswith("ok   diff assassiner"), out
    flipped = pasted.read_text(encoding="utf-8").replace("expect can assassiner", "expect not can assassiner")
    pasted.write_text(flipped, encoding="utf-8")
    code, out, _ = run_cli(capsys, "test", BASE, str(pasted), "-k", "diff assassiner")
    assert code == 1 and "FAIL diff assassiner" in out and "actual:   it is legal here" in out
    # the examples file is a witness file like the others: not written over without --force
    code, _, err = run_cli(capsys, "diff", BASE, "--with", str(variant), "--first", "--witnesses", str(folder))
    assert code == 2 and "--force" in err


def test_a_value_difference_is_pinned_by_its_example(tmp_path, capsys):
    overlay = 'overlay "Variante" on "Citadelles"\nreplace quantity or_reçu(p: Player): Int = 3\n'
    variant = tmp_path / "variante.rules"
    variant.write_text(overlay, encoding="utf-8")
    folder = tmp_path / "témoins"
    run_cli(capsys, "diff", BASE, "--with", str(variant), "--witnesses", str(folder))
    text = (folder / "examples.rules").read_text(encoding="utf-8")
    assert 'example "diff or_reçu" {' in text and "  expect or_reçu(Joueur 1) == 3" in text
    pasted = _pasted(tmp_path, overlay, folder / "examples.rules")
    code, out, _ = run_cli(capsys, "test", BASE, str(pasted), "-k", "diff or_reçu")
    assert code == 0, out
    pasted.write_text(pasted.read_text(encoding="utf-8").replace("== 3", "== 2"), encoding="utf-8")
    code, out, _ = run_cli(capsys, "test", BASE, str(pasted), "-k", "diff or_reçu")
    assert code == 1 and "actual:   or_reçu(Joueur 1) is 3" in out


def test_a_witness_on_a_grid_writes_cells_and_records_in_the_language(tmp_path, capsys):
    """Carcassonne: a cell is written as `step`s from the centre, a record by its constructor; the block runs."""
    spec = tmp_path / "carcassonne"
    shutil.copytree(ROOT / "spec" / "carcassonne", spec, ignore=shutil.ignore_patterns("90-exemples.rules"))
    result = check_paths([spec])
    state = setup_state(result, Engine(result.typed), Scopes(result.typed), 2, "Jeu de base")
    for zone in (state["zones"]["piles"].values()):          # one copy of the Impasse, taken from its pile
        if "Impasse" in zone:
            zone.remove("Impasse")
    state["zones"]["posées"].append("Impasse")
    state["vars"]["tuile_en"]["1,-2"] = "Impasse"
    state["vars"]["case_de"] = {"Impasse": [1, -2]}
    state["vars"]["bonhomme"] = {"1,-2 | Impasse / rue": "Joueur 2"}
    cell = "step(step(step(center(Case), ouest), ouest), sud)"
    block = witness_example(result, state, "témoin", [f'expect bonhomme[Emplacement({cell}, "Impasse / rue")] '
                                                      f'== Joueur 2'])
    assert f'  set bonhomme[Emplacement({cell}, "Impasse / rue")] = Joueur 2' in block.text
    assert f'  set tuile_en[{cell}] = "Impasse"' in block.text
    (spec / "99-témoin.rules").write_text(block.text, encoding="utf-8")
    code, out, _ = run_cli(capsys, "test", str(spec), "-k", "témoin")
    assert code == 0, out


MARKET = ROOT / "tests" / "fixtures" / "good" / "minimal_game.rules"     # its offer is in `for p in players`


def test_an_at_that_cannot_bind_the_offers_loop_name_is_refused_where_it_is_written(tmp_path, capsys):
    """`at partie()` stops at an offer inside `for p in players`: an example binds only the procedure's
    parameters, so the offer's player `p` would be unknown when the example runs.  `check` says so, at the `at`."""
    house = tmp_path / "exemples.rules"
    house.write_text('example "au marché" {\n  players 2\n  configuration "Standard"\n  at partie()\n'
                     '  expect can acheter(Joueur 2, "Safran d\'Iran")\n}\n', encoding="utf-8")
    code, out, err = run_cli(capsys, "check", str(MARKET), str(house))
    err += out
    assert code == 1
    assert (f"{house}:4:6: error[E0303]: the offer of procedure 'partie' (minimal_game.rules:56) reads 'p', "
            f"which 'partie' binds itself") in err
    assert "      |      ^^^^^^" in err and "hint: `call partie(…)` instead" in err


def test_a_witness_at_an_offer_an_example_cannot_stop_at_is_written_without_at_and_says_why(tmp_path, capsys):
    """A difference found at the market's offer (inside a loop of `partie`): the example is written from the setup,
    with no `at` that `check` would refuse, and a note says why."""
    variant = tmp_path / "sans_payer.rules"
    variant.write_text('overlay "Sans payer" on "Marché aux épices"\nremove rule payer\n', encoding="utf-8")
    folder = tmp_path / "témoins"
    code, _, _ = run_cli(capsys, "diff", str(MARKET), "--with", str(variant), "--first", "--witnesses", str(folder))
    assert code == 1
    text = (folder / "examples.rules").read_text(encoding="utf-8")
    assert 'example "diff acheter" {' in text and "  at " not in text
    assert "# the witness stops at the offer of partie (minimal_game.rules:56:7), which reads p, bound by partie " \
           "itself: an example's `at` cannot stop there" in text
    code, _, err = run_cli(capsys, "check", str(MARKET), str(variant), str(folder / "examples.rules"))
    assert code == 0, err
