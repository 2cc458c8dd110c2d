"""The books' kept conflict findings are the findings of the rules as they are: each book (the 4th edition's, the
fan expansion's with ``-t fan``, Carcassonne's) finds its file under ``_conflicts/`` keyed on its rules, so a
build reads it and never runs a search (Carcassonne's takes minutes on 16 cores).  After a change to the rules,
``python bench/refresh_comparisons.py --conflicts-only --fan --carcassonne --workers N`` brings them back."""

from __future__ import annotations

import json
import runpy
from pathlib import Path

import pytest

from checker.sphinxext.kept import KEPT_CONFLICTS, rules_key
from conftest import ROOT

FINDER = "checker.conflicts.questions:find_conflicts"


class _Tags:
    def __init__(self, *names: str):
        self.names = set(names)

    def has(self, name: str) -> bool:
        return name in self.names


@pytest.mark.parametrize("book, tags", [("docs", ()), ("docs", ("fan",)), ("docs/carcassonne", ())])
def test_each_book_keeps_the_findings_of_its_rules_as_they_are(book: str, tags: tuple):
    docs = ROOT / book
    conf = runpy.run_path(str(docs / "conf.py"), init_globals={"tags": _Tags(*tags)})
    assert conf.get("rulebook_conflict_finder", FINDER) == FINDER
    paths = [(docs / p).resolve() for p in conf["rulebook_spec"]]
    kept = docs / KEPT_CONFLICTS / ("+".join(p.name for p in paths) + ".json")
    assert kept.is_file(), f"{kept.relative_to(ROOT)} is missing: run bench/refresh_comparisons.py"
    data = json.loads(kept.read_text(encoding="utf-8"))
    assert data["key"] == rules_key(paths) + " " + FINDER, \
        f"{kept.relative_to(ROOT)} was found for other rules: run bench/refresh_comparisons.py --conflicts-only " \
        f"--fan --carcassonne --workers N"
    assert isinstance(data["result"], list)
