"""Tests written for the survivors of the blind solver sample of h158 (seed 2811,
bench/results/mutation-2026-11-29-h158.txt) in checker/solver/as_example.py: a witness whose var holds a set is
written as an example's `set v = {…}` line, and `rulebook test` holds the rules to it."""

from __future__ import annotations

from checker.front.check import check_paths
from checker.runtime.engine import Engine
from checker.solver.as_example import setup_state, witness_example
from checker.solver.scopes import Scopes
from conftest import run_cli
from test_solver_survivors_examples import LOOP, MARKET, TURN


def test_a_var_holding_a_set_is_written_as_a_set(tmp_path, capsys):
    spec = tmp_path / "marché.rules"
    spec.write_text(MARKET.read_text(encoding="utf-8").replace(LOOP, "    for p in players { call tour(p) }") + TURN
                    + "var marqués: set of Int = {1, 2}\n", encoding="utf-8")
    result = check_paths([spec])
    assert result.ok, result.reporter.sorted()
    state = setup_state(result, Engine(result.typed), Scopes(result.typed), 2, "Standard")
    assert state["vars"]["marqués"] == [1, 2]
    state["vars"]["marqués"] = [3, 5]
    block = witness_example(result, state, "des marques", ["expect marqués == {3, 5}"])
    assert block.text.splitlines()[3:5] == ["  set marqués = {3, 5}", "  at tour(Joueur 1)"], block.text
    path = tmp_path / "exemple.rules"
    path.write_text(block.text, encoding="utf-8")
    code, out, _ = run_cli(capsys, "test", str(spec), str(path))
    assert code == 0 and out.startswith("ok   des marques"), out
