"""A decision of `each … chooses` cannot be written as a state file yet (the choices of the players before the
one asked are not in the game's state until all have chosen): `play --state-at` there, and the examples of a
rule set whose first decision is one, say so in one located line — never an internal error (exit 3)."""

from __future__ import annotations

from checker.cli import main
from conftest import ROOT

SPEC, HOUSE = str(ROOT / "spec" / "citadelles"), str(ROOT / "spec" / "maison" / "enchères.rules")


def test_state_at_an_each_chooses_decision_is_refused_in_one_line(capsys, tmp_path):
    code = main(["play", SPEC, HOUSE, "-n", "4", "-c", "Première partie", "--state-at", "1",
                 str(tmp_path / "state.json")])
    err = capsys.readouterr().err
    assert code == 4 and not (tmp_path / "state.json").exists()
    assert err.startswith("rulebook play: cannot write the state at decision 1: the decision at enchères.rules:") \
        and "`each … chooses`" in err and len(err.strip().splitlines()) == 1, err


def test_examples_that_start_at_an_each_chooses_decision_fail_with_the_reason(capsys):
    code = main(["test", SPEC, HOUSE])
    out = capsys.readouterr().out
    assert code == 1 and "a first decision a state file can hold" in out and "internal error" not in out
