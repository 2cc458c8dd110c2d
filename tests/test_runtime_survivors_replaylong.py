"""`rulebook replay` on a log whose event (not a decision) was edited into a long one: the difference names both
versions, each cut after 200 characters — the log's as well as the replay's.  Written for the survivor
replay.py:239 of the blind runtime sample -o (bench/results/mutation-2026-11-28-o-kills.txt): the edited event of
tests/test_runtime_survivors_replay.py is short, so neither version was cut."""

from __future__ import annotations

import json

from checker.base.documents import excerpt
from tests.test_runtime_survivors_replay import GAME, _log, _replay


def test_an_event_edited_into_a_long_one_is_named_with_both_versions_cut_after_200_characters(capsys, tmp_path):
    log, record = _log(capsys, tmp_path, GAME)
    (i, line), = [(i, e) for i, e in enumerate(record["events"]) if e["kind"] == "log"]
    assert "fin" in json.dumps(line, ensure_ascii=False)
    edited = json.loads(json.dumps(line, ensure_ascii=False).replace('"fin"', '"' + "long " * 60 + '"'))
    long_version = excerpt(edited, 200)
    assert len(json.dumps(edited, ensure_ascii=False)) > 300 and len(long_version) == 201 and long_version[-1] == "…"
    record["events"][i] = edited
    code, out, err = _replay(capsys, log, record)
    assert code == 1 and "replay ok" not in out
    assert f"event {i} differs: the log has {long_version}, the replay has {excerpt(line, 200)}" in err, err
