"""Carcassonne's player's book to the Citadelles standard: « Apprendre à jouer » teaches the game (goal,
material, setup, a turn, the ramparts, the end, the scoring) with its numbers and sentences read from the
spec; every player page is French without identifiers or type names; no geometry (a tile's parts and the
ports they touch) on a player's page."""

from __future__ import annotations

import pytest

from checker.sphinxext import Book, render
from conftest import ROOT
from test_player_book import page_text, player_pages, untranslated

CARCASSONNE = ROOT / "spec" / "carcassonne"
DOCS = ROOT / "docs" / "carcassonne"
LIVRE = DOCS / "livre"

# No number is named by its letter any more (16 before): the rotation reads by the unit its wording puts after
# it, « tournée d'un nombre de quarts de tour », the rampart rounds by what they count, « pour chaque tour de
# table »; a letter that comes back fails this test.
LETTERS_LEFT = 0


@pytest.fixture(scope="module")
def book() -> Book:
    return Book.load([CARCASSONNE], DOCS / "lexique.toml")


def test_every_carcassonne_player_page_is_french_without_identifiers(book: Book):
    pages = player_pages(book, LIVRE, essentials=False)
    assert "apprendre" in dict(pages)
    found, letters = untranslated(book, pages)
    assert found == []
    assert letters <= LETTERS_LEFT, f"{letters} variable letters on the player's pages (at most {LETTERS_LEFT})"
    turn = dict(pages)["tour"]
    assert "tournée d'un nombre de quarts de tour si ce nombre de quarts de tour est inférieur à 0" in turn
    assert "Pour chaque tour de table de 1 au nombre de remparts" in turn
    assert "Pour chaque joueur qui a le plus de Bonhommes sur ces parties" in turn
    assert "Au premier tour de table, si ce joueur est le joueur" in turn, "a counter compared with 1: an ordinal"
    assert "ce n'est pas le premier tour de table ou" in turn and "tour de table est 1" not in turn
    assert "tour de table n'est pas 1" not in turn


def test_no_geometry_on_the_player_pages(book: Book):
    """A tile's parts and their ports are what the rules compute with; the player's book shows the tiles
    (what is printed on them), and no page for the kind of their parts, which no player handles."""
    assert "Segment" not in book.played_kinds() and {"Tuile", "Rempart"} <= set(book.played_kinds())
    tiles = render(book, "player-cards", "Tuile")
    assert "**Nombre de bâtiments publics** : 1" in tiles
    assert "Ports" not in tiles and "Parties" not in tiles and "Rue droite / rue" not in tiles
    assert "Ports" in render(book, "kind", "Segment"), "the designer's reference still lists them"
    end = render(book, "player-chapter", "end")
    assert "Le côté du port" not in end and "list-table" not in end, "tables keyed by a tile's ports are geometry"


def test_the_teaching_page_answers_a_new_players_questions_from_the_spec(book: Book):
    errors: list[str] = []
    text = page_text(book, LIVRE / "apprendre.rst", errors)
    assert errors == []
    for section in ("Le but du jeu", "Le matériel", "La mise en place", "Un tour de jeu", "Les remparts",
                    "La fin de la partie", "Le décompte final"):
        assert f"\n{section}\n" in text, section
    assert "La partie se joue de 2 à 4 joueurs." in text
    assert "il en garde 7 en\n   réserve" in text, "the reserve the setup leaves, computed"
    assert "**6** tours à 2 joueurs, **4** tours à 3 joueurs et **3** tours à 4 joueurs" in text
    assert "« Jeu de base », de 2 à 4 joueurs, 75 tuiles" in text and "cartes Tuile" not in text
    assert "*« Le joueur qui a le plus de points gagne. »*" in text
    assert "*« Soit... le dernier rempart est posé, »*" in text and "*« Soit... la dernière tuile est posée" in text
    assert "comportant de 1 à 3 tuiles reçoit autant de points" in text, "the source's Markdown not shown"
    assert "2 points pour chaque marché qui touche" in text


def test_a_house_rule_changes_the_carcassonne_teaching_page(tmp_path):
    """The reserve is the spec's: a house rule that gives each player 9 Bonhommes in reserve says so, and
    the rulebook sentences the setup no longer cites are reported, not shown stale."""
    house = tmp_path / "réserve.rules"
    house.write_text("""overlay "Réserve de neuf" on "Carcassonne Die Stadt"
replace procedure mise_en_place() {
  for p in players { set réserve[p] = 9 }
  for p in players { set tours[p] = 12 / player_count }
  shuffle sac
  draw 25 from sac to piles[première]
  draw 25 from sac to piles[deuxième]
  draw 25 from sac to piles[troisième]
  draw 5 from piles[troisième] to top of piles[première]
}
""", encoding="utf-8")
    errors: list[str] = []
    house_book = Book.load([CARCASSONNE, house], DOCS / "lexique.toml")
    assert house_book.ok
    text = page_text(house_book, LIVRE / "apprendre.rst", errors)
    assert "il en garde 9 en\n   réserve" in text and "il en garde 7" not in text
    assert errors and all("mise_en_place cites no such sentence" in e for e in errors)
