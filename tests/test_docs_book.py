"""The rulebook as HTML: the whole book (4th edition, Furo theme), built once with warnings as errors, its pages
read back and rendered in headless Chromium.  (In a file of its own: with ``--dist loadfile`` a file runs on one
worker, and this build is the suite's heaviest.)"""

from __future__ import annotations

import io
import re
import runpy
import shutil
from pathlib import Path

import pytest

from conftest import SPEC
from sphinx_build import DOCS, build, copy_docs


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """The book, built once from a copy of docs/ (the generated pages go into the copy)."""
    src = copy_docs(tmp_path_factory.mktemp("book"))
    out = src.parent / "html"
    warnings = io.StringIO()
    editions = runpy.run_path(str(DOCS / "conf.py"))["rulebook_editions"]
    for entry in editions.values():      # the copy's conf.py is elsewhere: the editions' paths, absolute
        entry["paths"] = [str((DOCS / p).resolve()) for p in entry["paths"]]
    app = build(src, out, {"rulebook_spec": [str(SPEC)], "rulebook_editions": editions}, warnings, strict=True)
    return app, out, warnings.getvalue()


def test_the_book_builds_with_warnings_as_errors(built):
    app, out, warnings = built
    assert app.statuscode == 0 and warnings == ""
    pages = sorted(out.rglob("*.html"))
    assert len(pages) > 70
    assassin = (out / "cartes" / "personnages" / "assassin.html").read_text(encoding="utf-8")
    assert "Assassiner ce personnage" in assassin
    assert 'class="highlight-rulebook' in assassin and '<span class="k">' in assassin
    assert (out / "rb-index.html").exists()
    turn = (out / "livre" / "tour.html").read_text(encoding="utf-8")
    assert '<svg class="rb-diagram"' in turn and "highlight-rulebook" not in turn
    english = ["Back to top", "Skip to content", "On this page", ">Next<", ">Previous<", "Made with"]
    assert [w for w in english if w in turn] == [] and "Haut de page" in turn and "Rechercher" in turn
    # the sidebar a player reads on every page: the tools' pages (written in English) listed by French titles
    assert "The Rulebook rules language" not in turn and "Le langage des règles — référence" in turn
    assert (out / "livre" / "cartes" / "personnages.html").exists()
    css = (out / "_static" / "rulebook.css").read_text(encoding="utf-8")
    assert "white-space: pre-wrap" in css                     # spec lines wrap, never cut


def overflow(html: Path, page: str, screenshot: Path | None = None) -> tuple[int, int]:
    """(the right edge of the page's widest figure, image or table; the right edge of its text column) in
    headless Chromium at 1280 px wide; with ``screenshot``, a PNG of the page is written there too."""
    import subprocess
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        pytest.skip("headless Chromium is not installed (.ci/run installs it)")
    probe = html / f"{page}.probe.html"
    text = (html / f"{page}.html").read_text(encoding="utf-8")
    # the right edge of the widest figure, image or table, and of the column that holds the text (the
    # theme's containers clip or scroll what is wider, so the page itself never scrolls)
    probe.write_text(text.replace("</body>", """<script>
const column = document.querySelector("article") || document.body;
const rights = Array.from(column.querySelectorAll("svg, img, table")).map(e => e.getBoundingClientRect().right);
const edge = Math.min(column.getBoundingClientRect().right, document.documentElement.clientWidth);
document.title = "W=" + Math.ceil(Math.max(...rights, 0))
                 + " C=" + Math.ceil(edge);
</script></body>"""), encoding="utf-8")
    flags = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--window-size=1280,900"]
    dom = subprocess.run([*flags, "--dump-dom", probe.as_uri()], capture_output=True, text=True, timeout=120).stdout
    if screenshot is not None:
        subprocess.run([*flags, f"--screenshot={screenshot}", (html / f"{page}.html").as_uri()], capture_output=True,
                       timeout=120)
    found = re.search(r"<title>W=(\d+) C=(\d+)</title>", dom)
    assert found, f"Chromium did not render {page}"
    return int(found.group(1)), int(found.group(2))


def test_the_players_pages_fit_a_1280_px_window_in_chromium(built, tmp_path: Path):
    """The player's book home, the turn (its diagram), the draft and the characters: no horizontal
    scrolling at 1280 px (screenshots are left beside the built pages, under _screenshots/)."""
    _, out, _ = built
    shots = out / "_screenshots"
    shots.mkdir(exist_ok=True)
    for page in ("index", "livre/apprendre", "livre/en-bref", "livre/tour", "livre/choix-des-personnages", "livre/cartes/personnages"):
        scroll, view = overflow(out, page, shots / (page.replace("/", "-") + ".png"))
        assert scroll <= view, f"{page}: a figure reaches {scroll} px, past the text column's edge at {view} px"


def test_each_edition_and_variant_has_a_page_compared_with_the_fourth_edition(built):
    """The comparisons are kept in docs/_diff/, one per page and per variant's parent (a build recomputes the
    stale ones: after a change to the spec or to the diff's code, build the book and commit them)."""
    app, out, _ = built
    editions = runpy.run_path(str(DOCS / "conf.py"))["rulebook_editions"]
    for name, entry in editions.items():
        assert (DOCS / "_diff" / f"{name}.json").is_file()
        if entry.get("parent"):
            assert (DOCS / "_diff" / f"{name}--{entry['parent']}.json").is_file()
    page = (out / "editions" / "premiere-edition.html").read_text(encoding="utf-8")
    assert "Ce qui change par rapport à la 4" in page and "coréen_마법사" in page
    assert "est permis dans la 4" in page and "abbé_un_seul_plus_riche" in page
    variant = (out / "editions" / "peste.html").read_text(encoding="utf-8")
    assert "Ce qui change par rapport à « jeu-de-base »" in variant and "mise_en_place" in variant


def test_every_spec_file_is_a_dependency_of_the_generated_pages(built):
    app, _, _ = built
    spec_files = {str(p.resolve()) for p in SPEC.glob("*.rules")}
    for docname in ("index", "cartes/personnages/assassin", "tracabilite"):
        assert spec_files <= {str(Path(d).resolve()) for d in app.env.dependencies[docname]}
