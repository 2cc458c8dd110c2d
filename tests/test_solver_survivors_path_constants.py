"""`path(x from start to goal via next)` on constants in the Z3 encoding (checker/solver/searches.py `_path`): the
shortest sequence, both ends included, each value present.  A `reach` condition over it that holds at the start
(`1, 2, 3`: three values summing to 6) is reached at once, confirmed by the interpreter — never proved false.
Survivor of the blind mutation sample 5181 (not executed by the suite: no spec nor test asks Z3 a `path(…)`;
answered ahead of the run): searches.py:272 `(True, x)` → `(False, x)` (every value of the path absent: an empty
sequence, and the condition "proved" never to hold)."""

from __future__ import annotations

import json

import pytest

from checker.cli import main
from conftest import ROOT

MARKET = ROOT / "tests" / "fixtures" / "good" / "minimal_game.rules"


@pytest.mark.parametrize("condition", ["count(y in path(x from 1 to 3 via x + 1)) == 3",
                                       "sum(y in path(x from 1 to 3 via x + 1): y) == 6"])
def test_a_condition_over_a_path_of_constants_is_reached_at_once(capsys, condition):
    code = main(["reach", str(MARKET), condition, "--within", "1", "-n", "2", "-s", "1", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert (code, out["status"], out["confirmed"]) == (0, "reached", True), out
