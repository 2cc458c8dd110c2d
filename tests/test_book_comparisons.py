"""The book's kept comparisons (docs/_diff): recomputed when the rules they compare change, kept when only the
checker's code moved (and named), recomputed on request.  `rulebook diff` itself is replaced by a recorder here:
what is tested is when it is run, not what it answers (tests/test_diff*.py do that)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from checker.sphinxext import editions
from checker.sphinxext.kept import code_key


@pytest.fixture
def world(tmp_path: Path, monkeypatch):
    spec = tmp_path / "spec"
    spec.mkdir()
    (spec / "a.rules").write_text("# a\n", encoding="utf-8")
    (spec / "b.rules").write_text("# b\n", encoding="utf-8")
    runs: list[list[str]] = []

    def fake_run(command, **kwargs):
        runs.append(command)
        answer = {"command": "diff", "ok": True, "exit_code": 0, "seconds": 1.5, "status": f"run {len(runs)}",
                  "differences": [{"kind": "rule", "witness": {}, "move": "m"}]}
        return subprocess.CompletedProcess(command, 0, stdout=json.dumps(answer), stderr="")

    monkeypatch.setattr(editions.subprocess, "run", fake_run)
    monkeypatch.delenv("RULEBOOK_DIFF_REFRESH", raising=False)
    return tmp_path, spec, runs


def _diff(tmp_path: Path, spec: Path, refresh: bool = False):
    return editions.cached_diff(tmp_path / "cache", "v", [spec / "a.rules"], [spec / "a.rules", spec / "b.rules"],
                                tmp_path, refresh)


def test_a_kept_comparison_is_reused_and_recomputed_when_its_rules_change(world):
    tmp_path, spec, runs = world
    first, how = _diff(tmp_path, spec)
    assert how == editions.COMPUTED and len(runs) == 1
    assert "seconds" not in first and "witness" not in first["differences"][0]
    again, how = _diff(tmp_path, spec)
    assert how == editions.KEPT and len(runs) == 1 and again == first
    (spec / "b.rules").write_text("# b, changed\n", encoding="utf-8")
    changed, how = _diff(tmp_path, spec)
    assert how == editions.COMPUTED and len(runs) == 2 and changed["status"] == "run 2"


def test_a_comparison_from_an_older_checker_is_kept_unless_a_refresh_is_asked(world, monkeypatch):
    tmp_path, spec, runs = world
    _diff(tmp_path, spec)
    kept = tmp_path / "cache" / "v.json"
    data = json.loads(kept.read_text(encoding="utf-8"))
    data["code"] = "an older checker"
    kept.write_text(json.dumps(data), encoding="utf-8")
    result, how = _diff(tmp_path, spec)
    assert how == editions.OLDER_CODE and len(runs) == 1 and result["status"] == "run 1"
    result, how = _diff(tmp_path, spec, refresh=True)
    assert how == editions.COMPUTED and len(runs) == 2 and result["status"] == "run 2"
    assert json.loads(kept.read_text(encoding="utf-8"))["code"] == code_key(editions._CODE)
    monkeypatch.setenv("RULEBOOK_DIFF_REFRESH", "1")
    assert editions.refresh_wanted(False)
    monkeypatch.setenv("RULEBOOK_DIFF_REFRESH", "0")
    assert not editions.refresh_wanted(False) and editions.refresh_wanted(True)


# ---------------------------------------------------------------- the conflict search's kept findings

def test_the_conflict_findings_are_kept_read_back_alike_and_searched_again_when_the_rules_change(world):
    from checker.base.source import Span
    from checker.conflicts.findings import Finding
    from checker.sphinxext.kept import COMPUTED, KEPT, kept_findings

    tmp_path, spec, _ = world
    searches: list[int] = []

    def finder(result):
        searches.append(1)
        return [Finding("resolved", "two rules", ("a", '"Carte".pouvoir'), (Span("a.rules", 3, 5, 4, 1), None),
                        (("a", "« une phrase »"),), witness={"big": "state"}, move={"m": 1},
                        situation=["Joueur 1 a 2 pièces"], confirmed=True, winner="a", how="precedence")]

    path = tmp_path / "_conflicts" / "spec.json"
    first, how = kept_findings(finder, None, [spec], path)
    assert how == COMPUTED and len(searches) == 1
    again, how = kept_findings(finder, None, [spec], path)
    assert how == KEPT and len(searches) == 1
    assert again == first, "the page reads the same findings whether kept or just computed"
    assert first[0].spans[0] == Span("a.rules", 3, 5, 4, 1) and first[0].cites == (("a", "« une phrase »"),)
    assert first[0].witness is None, "the state files are left out of the kept findings"
    (spec / "b.rules").write_text("# b, changed\n", encoding="utf-8")
    _, how = kept_findings(finder, None, [spec], path)
    assert how == COMPUTED and len(searches) == 2


def test_findings_a_plugged_in_finder_gives_in_its_own_shape_are_searched_at_every_build(world):
    from checker.sphinxext.kept import COMPUTED, kept_findings

    tmp_path, spec, _ = world
    path = tmp_path / "_conflicts" / "spec.json"
    found, how = kept_findings(lambda result: ["a message"], None, [spec], path)
    assert found == ["a message"] and how == COMPUTED and not path.exists()
