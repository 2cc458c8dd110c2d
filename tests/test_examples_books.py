"""Worked examples in the books: the player's book tells the livret's « Exemple de tour d'un joueur » in its own
sentences, checked when the book is built; the house rules' page (docs/maison.rst) shows each tutorial file of
spec/maison/ with its examples, run with the base game and that file."""

from __future__ import annotations

import re

import pytest

from checker.sphinxext import Book, render
from conftest import ROOT, SPEC

LEXICON = ROOT / "docs" / "lexique.toml"
WORKED = "Exemple de tour d'un joueur"


@pytest.fixture(scope="module")
def book() -> Book:
    return Book.load([SPEC], LEXICON)


def test_the_turn_page_tells_the_livrets_example_in_plain_french(book: Book):
    assert f".. rb:auto:: player-example {WORKED}" in (ROOT / "docs" / "livre" / "tour.rst").read_text(encoding="utf-8")
    text = render(book, "player-example", WORKED)
    assert text.startswith(f".. admonition:: {WORKED}")
    example = book.program.examples[WORKED]
    assert len(re.findall(r"^   \d+\. « ", text, re.M)) == len(example.cites) >= 5
    assert "Sophie donne toutes ses pièces d'or à Anne" in text and "rejoué par le moteur de règles" in text
    assert not re.search(r"\b\w+_\w+\b|code-block|\[Joueur", text)     # no identifier, no line of the spec
    assert book.problems == []


def test_a_player_example_the_rules_break_says_so_and_warns(tmp_path):
    house = tmp_path / "plus-d-or.rules"
    house.write_text('overlay "Plus d\'or" on "Citadelles"\nreplace quantity or_reçu(p: Player): Int = 3\n',
                     encoding="utf-8")
    book = Book.load([SPEC, house], LEXICON)
    text = render(book, "player-example", WORKED)
    assert "ne jouent pas cet exemple comme le texte le raconte" in text
    assert any("does not hold" in message and "trésor[Joueur 2] == 2" in message for message, _ in book.problems)


def test_the_house_rules_page_shows_each_tutorial_file_and_its_examples(book: Book):
    assert (ROOT / "docs" / "maison.rst").read_text(encoding="utf-8").strip() == ".. rb:auto:: house-rules maison"
    text = render(book, "house-rules", "maison")
    files = sorted((ROOT / "spec" / "maison").glob("*.rules"))
    assert [f"Fichier ``maison/{f.name}``." in text for f in files] == [True] * len(files)
    for name in ("La trêve protège la cité du Condottiere", "Une carte achetée au marché, une seule par tour",
                 "L'Évêque protège sa cité de la Démolisseuse", "La Bâtisseuse bâtit un doublon"):
        assert f"\n{name}\n{'~' * len(name)}\n" in text, name
    assert text.count("✔ Vérifié") >= 9 and "ne tient pas" not in text
    assert "``overrides pas_de_doublon``" in text                      # the comment's code, as literals
    assert "   $ rulebook conflicts spec/citadelles spec/maison/bâtisseuse.rules" in text
    assert book.problems == []


def test_a_player_example_the_overlays_set_aside_is_left_out():
    book = Book.load([SPEC, ROOT / "spec" / "extension-fan"], LEXICON)
    assert WORKED in book.result.typed.inapplicable
    assert render(book, "player-example", WORKED) == ""


def test_the_five_typical_mistakes_on_the_examples_page_are_the_checkers_own_messages(capsys):
    """docs/examples.md shows the messages of five typical mistakes: each line is what `rulebook check` prints for
    tests/fixtures/bad/example_mistakes.rules, so the page cannot drift from the checker."""
    from conftest import run_cli
    page = (ROOT / "docs" / "examples.md").read_text(encoding="utf-8")
    section = page[page.index("## Five typical mistakes"):page.index("## Witnesses as examples")]
    shown = [line.strip() for block in re.findall(r"```text\n(.*?)```", section, re.S) for line in block.splitlines()]
    assert len([line for line in shown if line.startswith("error[")]) >= 6
    _, out, err = run_cli(capsys, "check", str(SPEC), str(ROOT / "tests" / "fixtures" / "bad" / "example_mistakes.rules"))
    real = {line.strip() for line in (out + err).splitlines()}
    assert [line for line in shown if line and line not in real and not line.startswith("error[")] == []
    assert [line for line in shown if line.startswith("error[") and not any(r.endswith(line) for r in real)] == []
