"""The French of the book: every sentence the prose generator writes, for every bundled spec,
passes the style check of :mod:`checker.prose.style` and a French dictionary.

The sentences are those of :func:`checker.prose.corpus.sentences`: every rule, power, procedure,
action, quantity, moment and constraint of the 4th edition, of the fan expansion on top of it,
of the house-rule tutorial, of every edition and variant the book compares, and of Carcassonne.
"""

from __future__ import annotations

import functools
import runpy
from pathlib import Path

import pytest

from checker.prose.corpus import sentences
from checker.prose.style import RULES, lint, misspelled
from checker.sphinxext import Book
from conftest import ROOT

CITADELLES = ROOT / "spec" / "citadelles"
LEXICON = ROOT / "docs" / "lexique.toml"


def _editions() -> list[tuple[str, tuple[Path, ...], Path]]:
    """The other editions and variants the book compares (``rulebook_editions`` in docs/conf.py), each
    read, as the book reads it, on top of the 4th edition."""
    conf = runpy.run_path(str(ROOT / "docs" / "conf.py"))
    return [(name, (CITADELLES, *((ROOT / "docs" / p).resolve() for p in entry["paths"])), LEXICON)
            for name, entry in conf.get("rulebook_editions", {}).items()]


BUNDLES = [
    ("4e édition", (CITADELLES,), LEXICON),
    ("extension", (CITADELLES, ROOT / "spec" / "extension-fan"), LEXICON),
    ("maison", (CITADELLES, ROOT / "spec" / "maison" / "bâtisseuse.rules"), LEXICON),
    ("carcassonne", (ROOT / "spec" / "carcassonne",), ROOT / "docs" / "carcassonne" / "lexique.toml"),
    *_editions(),
]


@functools.cache
def _book(paths: tuple[Path, ...], lexicon: Path) -> Book:
    book = Book.load(list(paths), lexicon)
    assert book.ok, [d.message for d in book.result.reporter.sorted()][:5]
    return book


@functools.cache
def _sentences(paths: tuple[Path, ...], lexicon: Path):
    book = _book(paths, lexicon)
    return book, sentences(book.prose, book.program)


@pytest.mark.parametrize("name, paths, lexicon", BUNDLES, ids=[b[0] for b in BUNDLES])
def test_every_sentence_passes_the_style_check(name: str, paths, lexicon):
    book, texts = _sentences(paths, lexicon)
    assert len(texts) > 200
    assert not [t for t in texts if t.text.startswith("UnsupportedNode")]
    cards, bare = set(book.program.cards), book.lexicon.bare_cards
    found = [f"{s.where}: [{v.rule}] {v.excerpt!r} in {s.text[:160]!r}" for s in texts for v in lint(s.text, cards, bare)]
    assert found == [], f"{len(found)} violations, the first:\n" + "\n".join(found[:15])


@pytest.mark.parametrize("name, paths, lexicon", BUNDLES, ids=[b[0] for b in BUNDLES])
def test_every_word_is_in_a_french_dictionary(name: str, paths, lexicon):
    pytest.importorskip("spellchecker", reason="pyspellchecker (a test dependency in pyproject.toml) is not "
                                               "installed: pip install -e '.[test]'")
    book, texts = _sentences(paths, lexicon)
    unknown = misspelled([s.text for s in texts], book.program.cards, book.lexicon.words)
    assert unknown == {}


def test_the_dictionary_rejects_what_is_not_french():
    pytest.importorskip("spellchecker", reason="pyspellchecker is not installed")
    unknown = misspelled(["Vous ne pouvez pas batir ce quartierr : the player must pay."])
    assert set(unknown) == {"batir", "quartierr", "the", "player", "must", "pay"}


# ---------------------------------------------------------------- the linter's own rules

BAD = {
    "variable": "*p* ne peut pas bâtir ce quartier.",
    "contraction": "Prendre l'or de le trésor.",
    "elision": "Si le joueur que il choisit est là.",
    "subjonctif": "Choisir un joueur tel que ce joueur est vous.",
    "english": "Vous ne pouvez pas bâtir ce quartier when il est là.",
    "doubled": "Vous ne pouvez pas pas bâtir ce quartier.",
    "tautology": "Pour chaque joueur parmi les joueurs qui sont le joueur qui a volé ce personnage, recevoir 1.",
    "prepositions": "Le bord est l'autour de du rempart posé en dernier.",
    "identifier": "Choisir les personnages (choix_à_deux).",
    "balanced": "Vous ne pouvez pas bâtir (ce quartier.",
    "phrase": "vous ne pouvez pas bâtir ce quartier",
    "article": "Vous ne pouvez pas bâtir Palais.",
}
GOOD = ["Vous ne pouvez pas bâtir le Palais si ce quartier est dans votre cité.",
        "Pour le joueur qui a volé ce personnage, recevoir tout l'or de la case au-delà des remparts.",
        "Choisir un joueur tel que ce joueur soit le détenteur de la Couronne.",
        "Recevoir *k* pièces d'or de la banque, puis choisir le quartier *x* de l'un des joueurs.",
        "Si l’:rb:district:`Palais` est dans votre cité, votre score augmente de 2."]


@pytest.mark.parametrize("rule", [*RULES, "article"])
def test_each_style_rule_finds_what_it_forbids(rule: str):
    assert rule in BAD
    assert rule in {v.rule for v in lint(BAD[rule], cards={"Palais"})}


def test_a_doubled_group_of_two_words_is_found():
    assert [v.excerpt for v in lint("Le côté où se trouve le port le port de la tuile.", cards=set())] == \
        ["le port le port"]


@pytest.mark.parametrize("text", GOOD)
def test_the_style_rules_accept_plain_french(text: str):
    assert lint(text, cards={"Palais"}) == []


# ---------------------------------------------------------------- what the prose says


def _rule(book: Book, name: str) -> str:
    rule = book.program.rules[name]
    card = book.program.cards.get(rule.card) if rule.card else None
    return " ".join(book.prose.head(h, book.card_ctx(card)) for h in rule.heads)


def test_rules_speak_to_the_player_and_name_values_by_their_role():
    book = _book((CITADELLES,), LEXICON)
    assert _rule(book, "échevin_pas_de_doublon") == \
        "Vous ne pouvez pas confisquer un quartier si ce quartier est dans votre cité."
    assert _rule(book, "bâtir_depuis_la_main") == \
        "Vous ne pouvez pas bâtir un quartier si ce quartier n'est pas dans votre main."
    assert _rule(book, "échevin_quartier_payé") == \
        "Vous ne pouvez pas confisquer un quartier, sauf si le quartier en cours de construction a été payé."


def test_a_name_the_rule_equates_with_the_card_reads_as_the_card_with_its_article():
    book = _book((CITADELLES,), LEXICON)
    assert _rule(book, "sorcière_pas_elle_même") == "Vous ne pouvez pas ensorceler la :rb:character:`Sorcière`."
    assert _rule(book, "catacombes_non_bâtissables") == "Vous ne pouvez pas bâtir les :rb:district:`Catacombes`."
    assert _rule(book, "école_de_magie_tout_type_de_revenus").startswith("L’:rb:district:`École de Magie` compte")
    assert "votre score augmente du nombre de cartes de votre main" in _rule(book, "salle_des_cartes_bonus")


def test_a_condition_after_il_faut_que_is_in_the_subjunctive():
    from checker.prose import Ctx
    book = _book((CITADELLES,), LEXICON)
    constraint = book.program.constraints["quatorze_merveilles"]
    text = book.prose.cond(constraint.require, Ctx(mood="subj"))
    assert text.endswith("soit 14") and "dont le type est **Merveille**" in text


def test_the_lexicon_lists_only_cards_of_its_specs():
    for paths, lexicon in (((CITADELLES, ROOT / "spec" / "extension-fan"), LEXICON),
                           ((ROOT / "spec" / "carcassonne",), ROOT / "docs" / "carcassonne" / "lexique.toml")):
        book = _book(paths, lexicon)
        listed = book.lexicon.feminine_cards | book.lexicon.plural_cards | book.lexicon.bare_cards \
            | book.lexicon.mute_h_cards
        assert listed - set(book.program.cards) == set()


def _where(book: Book, where: str) -> list[str]:
    """The sentences the book writes for one declaration (``power Voleur.détroussement``…)."""
    return [s.text for s in sentences(book.prose, book.program) if s.where == where]


def test_a_loop_over_an_equality_reads_as_the_one_value_it_is():
    book = _book((CITADELLES,), LEXICON)
    voleur = " ".join(_where(book, "power Voleur.détroussement"))
    assert "Pour le joueur *v* qui a volé ce personnage, transférer" in voleur
    assert "parmi les joueurs qui sont" not in voleur
    reine = " ".join(_where(book, "power Reine.trois_pièces_après_les_appels"))
    assert "Pour le joueur qui joue la :rb:character:`Reine` ce tour-ci, si" in reine      # one player: no letter
    assert "Pour le personnage dont c'est le tour, révéler" in " ".join(_where(book, "power Échevin.confiscation"))


def test_a_sum_over_one_card_reads_as_its_term_without_repeating_the_condition():
    book = _book((CITADELLES,), LEXICON)
    assert _rule(book, "musée_bonus") == "Si le :rb:district:`Musée` est dans votre cité, votre score augmente du " \
                                         "nombre de cartes placées sous le :rb:district:`Musée`."


def test_a_card_of_several_copies_is_compared_by_its_name_not_as_one_card():
    book = _book((ROOT / "spec" / "carcassonne",), ROOT / "docs" / "carcassonne" / "lexique.toml")
    text = " ".join(_where(book, "quantity remparts_disponibles"))
    assert "remparts mis de côté qui ont pour nom « Rempart »" in text and "qui sont le" not in text


def test_names_that_are_ordinals_go_before_their_noun():
    book = _book((CITADELLES,), LEXICON)
    text = " ".join(_where(book, "procedure choix_à_deux"))
    assert "Le premier joueur est le détenteur de la Couronne." in text
    assert "Le second joueur est le voisin de gauche du premier joueur." in text and "*premier*" not in text


def test_a_feminine_subject_makes_the_comparison_agree():
    book = _book((ROOT / "spec" / "carcassonne",), ROOT / "docs" / "carcassonne" / "lexique.toml")
    assert "la distance de cette case derrière la ligne du rempart posé sur ce bord est supérieure à 0" in \
        " ".join(_where(book, "quantity derrière"))
