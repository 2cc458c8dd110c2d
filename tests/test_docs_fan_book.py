"""The rulebook with the fan expansion, built as HTML with warnings as errors (in a file of its own: with ``--dist
loadfile`` its build and the 4th edition's, tests/test_docs_book.py, can run on different workers)."""

from __future__ import annotations

import io
from pathlib import Path

from conftest import ROOT, SPEC
from sphinx_build import build, copy_docs


def test_the_book_with_the_fan_expansion_builds_with_its_cards(tmp_path: Path):
    """`-t fan`: the same book with the expansion's cards and rules (without the solver's section, which
    takes minutes on the expansion; the 4th edition's build renders it), in Sphinx's plain theme: what this
    build tests is what the extension writes, and Furo's sidebar — a third of a build, as every page copies the
    whole table of contents — is the 4th edition's build's to test."""
    src = copy_docs(tmp_path)
    warnings = io.StringIO()
    app = build(src, tmp_path / "html", {"rulebook_spec": [str(SPEC), str(ROOT / "spec" / "extension-fan")],
                                         "rulebook_editions": {}, "rulebook_conflict_finder": "",
                                         "html_theme": "basic", "html_theme_options": {}},
               warnings, strict=True, tags=["fan"])
    assert app.statuscode == 0 and warnings.getvalue() == ""
    assert app.config.project.startswith("Citadelles et l'extension")
    page = (tmp_path / "html" / "cartes" / "personnages" / "charlatan.html").read_text(encoding="utf-8")
    assert "Le Charlatan annonce le nom d'un personnage qu'il arnaque." in page
    assert (tmp_path / "html" / "livre" / "cartes" / "personnages.html").read_text(encoding="utf-8").count("Kraken")
