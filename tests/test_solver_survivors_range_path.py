"""The encoding's own range guard (checker/solver/encode.py's `..`: a range of constants holding more than
MAX_RANGE integers is refused) is reached from one entry point only: a `reach` CONDITION whose path function
(`changes(…)`, `initially(…)`) holds the range.  The front end checks the condition's ranges (E0801,
checker.front.bounds.check_expression_ranges) on the condition rewritten, where each path function's call is a name:
the watched expression itself is not checked, and the unrolling encodes it (checker/solver/unroll.py `watch`).  The
interpreter refuses that range when it evaluates it (checker/runtime/spending.py, the same limit): so must the
encoding — never an answer read from a range the game cannot hold.
Survivor of the blind mutation sample 7171 (h180's test now refused first by the front end): encode.py:699
`b - a >= MAX_RANGE` → `>` (`0..1000`, 1,001 integers, encoded: "proved: no sequence reaches the condition").
A bug found here (h186): the refusal escaped as an internal error (exit 3); now the front end checks each path
function's expression too (checker/reach/command.py), so the range is E0801 at its place, exit 2, as outside a path
function — and the guard is again the encoding's own copy of the interpreter's limit, reached by no input the front
end lets through (the mutant equivalent from the command line)."""

from __future__ import annotations

import pytest

from checker.base.limits import MAX_RANGE
from checker.cli import main
from conftest import ROOT

MARKET = str(ROOT / "tests" / "fixtures" / "good" / "minimal_game.rules")


def _reach(capsys, condition):
    code = main(["reach", MARKET, condition, "--within", "1", "-n", "2", "-s", "1"])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize("function", ["changes", "initially"])
def test_a_range_past_the_limit_inside_a_path_function_gives_no_answer(capsys, function):
    code, out, err = _reach(capsys, f"{function}(count(k in 0..{MAX_RANGE})) >= 1")
    assert code not in (0, 1) and not out.startswith(("proved", "reached")), (code, out)
    assert f"0..{MAX_RANGE}" in err or "E0801" in err, err


@pytest.mark.parametrize("function", ["changes", "initially"])
@pytest.mark.parametrize("low", [0, MAX_RANGE // 2])
def test_a_range_at_the_limit_inside_a_path_function_is_encoded(capsys, function, low):
    """`0..999` (1,000 integers) and `500..999` (500: the guard measures the range's length, not its ends)."""
    code, out, _ = _reach(capsys, f"{function}(count(k in {low}..{MAX_RANGE - 1})) >= 1")
    expected = "reached after 0 decision(s) (confirmed" if function == "initially" else "proved"
    assert out.startswith(expected), (code, out)


def test_a_range_past_the_limit_inside_a_path_function_is_bad_input(capsys):
    code, _, err = _reach(capsys, f"changes(count(k in 0..{MAX_RANGE})) >= 1")
    assert code == 2 and "CONDITION:1:" in err and "E0801" in err, (code, err)
