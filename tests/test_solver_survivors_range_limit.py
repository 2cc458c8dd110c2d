"""A range in the Z3 encoding holds at most MAX_RANGE integers (checker/solver/encode.py's `..`), as in the
interpreter (checker/runtime/spending.py): a spec's ranges are bounded when it is checked (E0801), but a `reach`
CONDITION is not checked for them, so the encoding's own guard is what refuses one — undecided, located.  At the
limit exactly: `0..999` (1,000 integers) is encoded and the condition reached; `0..1000` (1,001) is refused; so
is `500..1500`, where `500..999` (500 integers) is encoded.
Survivor of the blind mutation sample 7171 against the whole suite (a timeout there: its 149 covering tests take
longer than the 600 s a mutant had): encode.py:699 `b - a >= MAX_RANGE` → `>` (a range of MAX_RANGE + 1
integers encoded); and of sample 9171 (a timeout there too): encode.py:699 `b - a` → `b + a` (a range away from 0
measured by the sum of its ends: `500..999` refused)."""

from __future__ import annotations

import pytest

from checker.base.limits import MAX_RANGE
from checker.cli import main
from conftest import ROOT

MARKET = str(ROOT / "tests" / "fixtures" / "good" / "minimal_game.rules")


@pytest.mark.parametrize("low,high,code", [(0, MAX_RANGE - 1, 0), (0, MAX_RANGE, 4), (500, 999, 0),
                                           (500, MAX_RANGE + 500, 4)])
def test_a_range_of_a_condition_past_the_limit_is_refused_by_the_encoding(capsys, low, high, code):
    condition = f"sum(x in {low}..{high}: x) >= 1"
    assert main(["reach", MARKET, condition, "--within", "1", "-n", "2", "-s", "1"]) == code
    out = capsys.readouterr().out
    if code == 0:
        assert out.startswith("reached after 0 decision(s) (confirmed by the interpreter)"), out
    else:
        assert out.startswith("undecided: the encoding cannot follow the game: CONDITION:") and \
            f"the range {low}..{high} holds more than {MAX_RANGE:,} integers" in out, out
