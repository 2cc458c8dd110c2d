"""The state-file commands (`moves`, `legal`: checker/solver/command.py) on a state whose spec no longer checks:
the spec's errors are printed as `rulebook check` prints them and the command exits 1, the code of a spec with
errors for every command (docs/cli.md), not 2 (bad usage) and not a traceback.  Survivor of the blind mutation
sample -e (command.py:58, `return 1` → 2): no test of the solver set ran it."""

from __future__ import annotations

import json
import shutil

from conftest import ROOT, run_cli

MARKET = ROOT / "tests" / "fixtures" / "good" / "minimal_game.rules"


def test_a_state_whose_spec_has_errors_exits_1_with_the_specs_errors(capsys, tmp_path):
    spec = tmp_path / "marché.rules"
    shutil.copy(MARKET, spec)
    state = tmp_path / "etat.json"
    code, _, err = run_cli(capsys, "play", str(spec), "-n", "2", "-s", "1", "-q", "--state-at", "1", str(state))
    assert code == 0, err
    code, out, _ = run_cli(capsys, "moves", str(state), "--json")
    assert code == 0
    move = tmp_path / "coup.json"
    move.write_text(json.dumps(json.loads(out)["moves"][0], ensure_ascii=False), encoding="utf-8")
    with spec.open("a", encoding="utf-8") as f:
        f.write("\nrule cassée { forbid vendre_tout(p) when true }\n")
    for command in (("moves", str(state)), ("legal", str(state), str(move))):
        code, out, err = run_cli(capsys, *command)
        assert code == 1, (command, out, err)
        assert "vendre_tout" in out and "Traceback" not in out + err
        assert f"rulebook {command[0]}: the spec has 1 error(s): fix them first" in err
