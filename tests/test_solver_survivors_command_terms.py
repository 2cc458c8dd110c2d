"""Tests written for the survivors of the blind solver sample of h158 (seed 2811,
bench/results/mutation-2026-11-29-h158.txt) in checker/solver/command.py: `rulebook legal` names each value it
shows under a forbidding rule by the text of its term when the term is on one line, and by its place when the term
runs over two lines (no slice of the first line cut at the second line's column)."""

from __future__ import annotations

import json

from checker.front.check import check_paths
from checker.runtime.engine import Engine
from checker.solver.as_example import setup_state
from checker.solver.scopes import Scopes
from conftest import run_cli
from test_solver_survivors_examples import MARKET

PAYER = "rule payer { forbid acheter(p, l) when bourse[p] < prix_payé(p, l) }"


def test_a_term_over_two_lines_is_named_by_its_place_and_one_on_one_line_by_its_text(tmp_path, capsys):
    text = MARKET.read_text(encoding="utf-8")
    assert text.count(PAYER) == 1
    spec = tmp_path / "marché.rules"
    spec.write_text(text.replace(PAYER, PAYER.replace("(p, l) }", "(p,\n    l) }")), encoding="utf-8")
    result = check_paths([spec])
    assert result.ok, result.reporter.sorted()
    state = setup_state(result, Engine(result.typed), Scopes(result.typed), 2, "Standard")
    state["spec"] = [str(spec)]
    state["vars"]["bourse"]["Joueur 1"] = 0
    lot = state["zones"]["étal"][0]
    (tmp_path / "state.json").write_text(json.dumps(state, ensure_ascii=False), encoding="utf-8")
    (tmp_path / "move.json").write_text(json.dumps({"player": "Joueur 1", "action": "acheter",
                                                    "args": ["Joueur 1", lot]}, ensure_ascii=False), encoding="utf-8")
    code, out, _ = run_cli(capsys, "legal", str(tmp_path / "state.json"), str(tmp_path / "move.json"), "--json")
    assert code == 1, out
    [reason] = [r for r in json.loads(out)["reasons"] if "payer" in r["says"]]
    terms = [(v["term"], v["at"].rsplit(":", 2)[1:]) for v in reason["values"] if "term" in v]
    assert terms == [("bourse[p]", ["32", "40"]), (f"{spec}:32:52", ["32", "52"])], terms
    code, out, _ = run_cli(capsys, "legal", str(tmp_path / "state.json"), str(tmp_path / "move.json"))
    assert f"where p = Joueur 1, l = {lot}, bourse[p] = 0, {spec}:32:52 = " in out, out
