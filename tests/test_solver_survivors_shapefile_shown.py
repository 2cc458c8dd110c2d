"""Tests written for the survivors of the blind solver sample of h158 (seed 2811,
bench/results/mutation-2026-11-29-h158.txt) in checker/solver/shapefile.py: a value refused in a move file is quoted
whole up to 60 characters and cut at 57 with « … » beyond, so a long bad value gives a short message, not an
error of ours."""

from __future__ import annotations

import json

from conftest import run_cli


def test_a_long_bad_cell_is_quoted_cut_and_a_short_one_whole(capsys, tmp_path):
    state = tmp_path / "etat.json"
    code, _, err = run_cli(capsys, "play", "spec/carcassonne", "-n", "2", "-s", "1", "-q", "--state-at", "1",
                           str(state))
    assert code == 0, err
    move = tmp_path / "coup.json"
    long_cell, short_cell = ["x" * 40, "y" * 40], ["a", "b"]
    seen = []
    for cell in (long_cell, short_cell):
        move.write_text(json.dumps({"player": "Joueur 1", "action": "placer",
                                    "args": ["Joueur 1", {"case": cell, "segment": "x"}]}), encoding="utf-8")
        code, _, err = run_cli(capsys, "legal", str(state), str(move))
        seen.append((code, err))
    quoted = json.dumps(long_cell)[:57] + "…"
    assert seen[0][0] == 2 and f"args/1/case: expected a cell of Case, [row, column], not {quoted}\n" in seen[0][1], \
        seen[0][1]
    assert seen[1][0] == 2 and 'args/1/case: expected a cell of Case, [row, column], not ["a", "b"]\n' in seen[1][1], \
        seen[1][1]
