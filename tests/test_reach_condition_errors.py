"""`rulebook reach` CONDITION's errors at its own line and column, with a caret (checker/reach/command.py): a range
that may hold more integers than the limit is bad input (exit 2, E0801 as in a spec), said before any search — it
was refused only while encoding, undecided (exit 4), at "CONDITION:2:10" of a one-line condition (the line after the
prefix it is checked with) —; an answer the encoding stopped at inside CONDITION is shown at its line in the
condition, the caret under it."""

from __future__ import annotations

from pathlib import Path

import pytest

from checker.cli import main

MARKET = Path(__file__).parent / "fixtures" / "ranking" / "marché_par_tour.rules"
WIDE = "any(i in 1..10000000: i == tours_joués)"


@pytest.mark.parametrize("mode", [["--within", "2"], ["--rounds", "1"]])
def test_a_range_too_wide_in_the_condition_is_bad_input(capsys, mode):
    code = main(["reach", str(MARKET), WIDE, *mode, "-n", "2", "-s", "1"])
    err = capsys.readouterr().err
    assert code == 2, err
    assert "CONDITION:1:10: error[E0801]: this range may hold up to 10,000,000 integers" in err, err
    assert "    1 | " + WIDE in err and "      |          ^^^^^^^^^^^" in err, err


def test_a_range_the_limit_allows_is_searched(capsys):
    code = main(["reach", str(MARKET), "any(i in 1..10: i == tours_joués + 50)", "--within", "2", "-n", "2", "-s", "1"])
    assert code == 1, capsys.readouterr()


def test_an_answer_stopped_in_the_condition_is_shown_at_its_line_with_a_caret():
    """The encoding's span in CONDITION (its line 2: the prefix's line before it) shown as line 1, the reason too."""
    from checker.base.source import Span
    from checker.reach.command import _at, _in_condition
    from checker.reach.search import Outcome
    o = Outcome("undecided", 0, reason="the encoding cannot follow the game: CONDITION:2:10: no Z3 encoding for X",
                where=Span("CONDITION", 2, 10, 2, 21))
    _in_condition(o, WIDE)
    assert o.reason == "the encoding cannot follow the game: CONDITION:1:10: no Z3 encoding for X", o.reason
    assert _at(o) == "\n  at CONDITION:1:10\n    1 | " + WIDE + "\n      |          " + "^" * 11, _at(o)
