"""Survivors of the blind runtime sample s21 (seed 5169) in checker/runtime/replay.py's `validate_log`: replay.py:78
(`players - 1` → `players + 1`, `1 → 2`), :80 (`w >= players` → `w > players`) and :89 (`len(options) - 1`,
`1 → 2`).  A log naming a seat just past the last one (the number of players itself), or an option just past
the last one, is refused, and the message says which seats and options there are."""

from __future__ import annotations

import copy
import json

import pytest

from checker.runtime.replay import LogError, validate_log
from test_replay import decisions, play_log

pytestmark = pytest.mark.usefixtures("bundled_checked_once")


def _problems(record) -> list[tuple[str, str]]:
    with pytest.raises(LogError) as caught:
        validate_log(record)
    return caught.value.problems


def test_a_seat_or_an_option_just_past_the_last_is_named_with_the_ones_there_are(capsys, tmp_path):
    record = json.loads(play_log(capsys, tmp_path).read_text(encoding="utf-8"))
    assert record["players"] == 4
    validate_log(record)                        # the log as written: no problem
    seats = "a seat from 0 to 3 (seats are numbered from 0)"

    bad = copy.deepcopy(record)
    bad["winners"] = [4]
    assert _problems(bad) == [("winners/0", f"4 is not {seats}")]
    bad = copy.deepcopy(record)
    bad["winners"] = [3]
    validate_log(bad)                           # the last seat is a seat

    bad = copy.deepcopy(record)
    bad["scores"]["4"] = 0
    assert _problems(bad) == [("scores/4", f'"4" is not {seats}')]

    first = record["events"].index(decisions(record)[0])
    bad = copy.deepcopy(record)
    bad["events"][first]["player"] = 4
    assert _problems(bad) == [(f"events/{first}/player", f"4 is not {seats}")]

    options = len(record["events"][first]["options"])
    bad = copy.deepcopy(record)
    bad["events"][first]["chosen"] = options
    assert _problems(bad) == [(f"events/{first}/chosen",
                               f"{options} is not the index of an option (0 to {options - 1})")]
