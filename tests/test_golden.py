"""Golden tests: each fixture's diagnostics, rendered for people, are compared with the
`.expected` file beside it.  `pytest --update-golden` rewrites them; review the diff.

A fixture is a `.rules` file.  If its first line is `# with: citadelles` it is checked
together with the bundled spec (as a house-rule file would be); otherwise on its own.
Fixtures under `good/` must produce no error.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from checker.front.check import check_paths
from checker.base.diagnostics import render_human
from conftest import ROOT

FIXTURES = ROOT / "tests" / "fixtures"


def _cases(kind: str) -> list[Path]:
    return sorted((FIXTURES / kind).glob("*.rules"))


def _run(path: Path) -> tuple[str, bool]:
    first = path.read_text(encoding="utf-8", errors="replace").split("\n", 1)[0]
    rel = path.relative_to(ROOT)
    paths = [Path("spec/citadelles"), rel] if first.strip() == "# with: citadelles" else [rel]
    result = check_paths(paths)
    return render_human(result.reporter.sorted(), result.sources), result.ok


def _compare(path: Path, update: bool) -> str:
    output, ok = _run(path)
    expected = path.with_suffix(".expected")
    if update:
        expected.write_text(output, encoding="utf-8")
    assert expected.exists(), f"{expected} is missing: run pytest --update-golden"
    assert output == expected.read_text(encoding="utf-8")
    return output


@pytest.mark.parametrize("path", _cases("good"), ids=lambda p: p.stem)
def test_good_fixture_has_no_error(path: Path, update_golden: bool):
    _compare(path, update_golden)
    assert _run(path)[1], "a good fixture must check without errors"


@pytest.mark.parametrize("path", _cases("bad"), ids=lambda p: p.stem)
def test_bad_fixture_diagnostics(path: Path, update_golden: bool):
    output = _compare(path, update_golden)
    assert "error[" in output, "a bad fixture must produce at least one error"


def test_there_are_fixtures():
    assert len(_cases("good")) >= 2 and len(_cases("bad")) >= 10
