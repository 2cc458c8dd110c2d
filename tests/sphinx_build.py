"""Building the Sphinx book in a test: shared by the tests of the book (``tests/test_docs*.py``), which are in
several files so that ``--dist loadfile`` can give its builds to different workers."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

from conftest import ROOT

DOCS = ROOT / "docs"


def copy_docs(parent: Path) -> Path:
    """A copy of docs/ under ``parent`` (without the built pages and the generated card pages)."""
    src = parent / "docs"
    shutil.copytree(DOCS, src, ignore=shutil.ignore_patterns("_build", "cartes"))
    return src


def build(srcdir: Path, outdir: Path, overrides: dict, warnings: io.StringIO, strict: bool, tags=()):
    """A built Sphinx application; the nodes, roles and directives it registers go away after the build,
    so a later build in the same process (the Carcassonne book's test) starts clean."""
    from sphinx.application import Sphinx
    from sphinx.util.docutils import docutils_namespace
    with docutils_namespace():
        app = Sphinx(str(srcdir), str(srcdir), str(outdir), str(outdir / ".doctrees"), "html",
                     confoverrides=overrides, status=io.StringIO(), warning=warnings, warningiserror=strict,
                     freshenv=True, tags=list(tags))
        app.build()
    return app
