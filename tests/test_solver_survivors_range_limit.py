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


@pytest.mark.parametrize("low,high,code", [(0, MAX_RANGE - 1, 0), (0, MAX_RANGE, 2), (500, 999, 0),
                                           (500, MAX_RANGE + 500, 2)])
def test_a_range_of_a_condition_past_the_limit_is_refused(capsys, low, high, code):
    """Past the limit, the condition is bad input now (h182: E0801 at the condition's own place, exit 2), before any
    encoding; within it, the range is encoded (`500..999`: the encoding's guard measures its length, not its ends)."""
    condition = f"sum(x in {low}..{high}: x) >= 1"
    assert main(["reach", MARKET, condition, "--within", "1", "-n", "2", "-s", "1"]) == code
    captured = capsys.readouterr()
    if code == 0:
        assert captured.out.startswith("reached after 0 decision(s) (confirmed by the interpreter)"), captured.out
    else:
        assert "CONDITION:1:10: error[E0801]" in captured.err and \
            f"a range may hold at most {MAX_RANGE:,}" in captured.err, captured.err
