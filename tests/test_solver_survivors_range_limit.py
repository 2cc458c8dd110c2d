"""A range in the Z3 encoding holds at most MAX_RANGE integers (checker/solver/encode.py's `..`), as in the
interpreter (checker/runtime/spending.py): a spec's ranges are bounded when it is checked (E0801), but a `reach`
CONDITION is not checked for them, so the encoding's own guard is what refuses one — undecided, located.  At the
limit exactly: `0..999` (1,000 integers) is encoded and the condition reached; `0..1000` (1,001) is refused.
Survivor of the blind mutation sample 7171 against the whole suite (a timeout there: its 149 covering tests take
longer than the 600 s a mutant had): encode.py:699 `b - a >= MAX_RANGE` → `>` (a range of MAX_RANGE + 1
integers encoded)."""

from __future__ import annotations

import pytest

from checker.base.limits import MAX_RANGE
from checker.cli import main
from conftest import ROOT

MARKET = str(ROOT / "tests" / "fixtures" / "good" / "minimal_game.rules")


@pytest.mark.parametrize("high,code", [(MAX_RANGE - 1, 0), (MAX_RANGE, 4)])
def test_a_range_of_a_condition_past_the_limit_is_refused_by_the_encoding(capsys, high, code):
    condition = f"sum(x in 0..{high}: x) >= 1"
    assert main(["reach", MARKET, condition, "--within", "1", "-n", "2", "-s", "1"]) == code
    out = capsys.readouterr().out
    if code == 0:
        assert out.startswith("reached after 0 decision(s) (confirmed by the interpreter)"), out
    else:
        assert out.startswith("undecided: the encoding cannot follow the game: CONDITION:") and \
            f"the range 0..{high} holds more than {MAX_RANGE:,} integers" in out, out
