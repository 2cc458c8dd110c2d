"""Tests written for a survivor of the second blind runtime sample of h158 (seed 1129,
bench/results/mutation-2026-11-29-h158.txt) in checker/runtime/outlook.py: a player's margin is their lead over the
best of the others, and a player alone leads by their whole score (outlook.py's `margin`, as its docstring says)."""

from __future__ import annotations

from checker.runtime.outlook import margin


def test_a_player_alone_leads_by_their_whole_score():
    assert margin({0: 5}, 0) == 5
    assert margin({0: 5, 1: 7}, 0) == -2 and margin({0: 5, 1: 7}, 1) == 2
    assert margin({0: 5, 1: 7, 2: 9}, 1) == -2
