"""The procedure diagrams show a procedure's precondition at its entry (checker/sphinxext/diagram.py), worded
as the player's book words it (« Seulement si … »): the drawn procedure's, and each opened call's at the top of
its frame; a figure drawn for some player counts leaves out what its heading already says."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

from checker.sphinxext import Book, render
from conftest import ROOT, SPEC
from test_requires_true import TRUE

LEXICON = ROOT / "docs" / "lexique.toml"
NS = "{http://www.w3.org/2000/svg}"
CROWN = "Seulement si un joueur détient la Couronne"
NOBODY_CHOSE = "pour chaque joueur, le nombre de personnages de ce joueur est 0"


def _entries(text: str) -> list[list[tuple[str, float, str]]]:
    """For each figure of a page, its entry boxes: (their text, their top, the text of the box drawn next)."""
    figures = []
    for raw in re.findall(r"<svg.*?</svg>", text, re.S):
        svg = ET.fromstring("\n".join(line.strip() for line in raw.split("\n")))
        children = list(svg)
        found = []
        for i, node in enumerate(children):
            if node.tag == f"{NS}rect" and node.get("class") == "rb-entry":
                top, bottom = float(node.get("y")), float(node.get("y")) + float(node.get("height"))
                words = [t.text for t in children[i + 1:] if t.tag == f"{NS}text" and top < float(t.get("y")) < bottom]
                after = next((t.text for t in children[i + 1:] if t.tag == f"{NS}text" and float(t.get("y")) > bottom),
                             None)
                found.append((" ".join(words), top, after))
        figures.append(found)
    return figures


def test_the_draft_diagram_says_its_precondition_at_its_entry():
    book = Book.load([SPEC], LEXICON)
    two, three, more = _entries(render(book, "diagram", "choix_des_personnages 2"))
    for figure in (two, three, more):
        said, top, _ = figure[0]
        assert top == 0 and said == f"{CROWN} et {NOBODY_CHOSE}.", figure       # the figure's first box
    # the opened call (choix_à_deux, choix_à_trois, choix_standard) says its own at the top of its frame, without
    # the number of players its figure is drawn for
    assert [said for said, _, _ in two[1:]] == [f"{CROWN} et {NOBODY_CHOSE}."]
    assert "nombre de joueurs" not in " ".join(said for said, _, _ in two + three)
    assert more[1][0].startswith(f"{CROWN}, {NOBODY_CHOSE} et le nombre indiqué par la table des personnages écartés")


def test_an_opened_call_says_its_precondition_before_its_steps():
    book = Book.load([SPEC], LEXICON)
    figures = _entries(render(book, "diagram", "partie 2"))
    crown = [entry for figure in figures for entry in figure if entry[0] == f"{CROWN}."]     # tour_de_jeu's
    assert crown and all(after is not None and not after.startswith("Seulement") for _, _, after in crown)


def test_a_procedure_without_a_precondition_or_with_requires_true_has_no_entry_box(tmp_path: Path):
    book = Book.load([SPEC], LEXICON)
    assert _entries(render(book, "diagram", "tour 0")) == [[]]
    path = tmp_path / "00.rules"
    path.write_text(TRUE, encoding="utf-8")
    small = Book.load([path], LEXICON)
    assert _entries(render(small, "diagram", "partie 0")) == [[]]
    [[(said, top, after)]] = _entries(render(small, "diagram", "donner"))
    assert said.startswith("Seulement si") and top == 0 and after is not None, said
