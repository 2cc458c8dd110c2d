"""`collect` of sets in a Z3 condition (checker/solver/shapes.py `_distinct`, `_hashable`): sets whose members are
all known are told apart by their members, so equal sets are collected once, as the interpreter collects them.
Survivor of the blind mutation sample h158 (solver 1129), shapes.py:352 `not removed` (a set of known members
called "not known in advance": `reach` undecided where it decides).  Through `rulebook reach`, whose condition
is encoded for Z3 (the interpreter confirms what is reached)."""

from __future__ import annotations

import json

import pytest

from checker.cli import main
from conftest import ROOT

MARKET = str(ROOT / "tests" / "fixtures" / "good" / "minimal_game.rules")


@pytest.mark.parametrize("distinct, status, code", [(2, "reached", 0), (3, "proved", 1)])
def test_collected_sets_of_known_members_are_told_apart_by_their_members(capsys, distinct, status, code):
    """{1}, {0}, {1}: two distinct sets, so `== 2` holds from the start and `== 3` never does."""
    condition = f"count(s in collect(x in 1..3: {{x % 2}})) == {distinct}"
    assert main(["reach", MARKET, condition, "--within", "1", "-n", "2", "-s", "1", "--json"]) == code
    out = json.loads(capsys.readouterr().out)
    assert out["status"] == status, out["reason"]
    if status == "reached":
        assert out["decisions"] == [] and out["confirmed"] is True
