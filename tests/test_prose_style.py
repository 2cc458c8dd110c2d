"""The French of the book: every sentence the prose generator writes, for every bundled spec,
passes the style check of :mod:`checker.prose.style` and a French dictionary.

The sentences are those of :func:`checker.prose.corpus.sentences`: every rule, power, procedure,
action, quantity, moment and constraint of the 4th edition, of the fan expansion on top of it,
of the house-rule tutorial, of every edition and variant the book compares, and of Carcassonne.
"""

from __future__ import annotations

import functools
import re
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
    "boolean": "Le joueur assis à côté de vous a choisi le personnage de rang 4 (assassiné : vrai).",
    "circular": "Par défaut, le détenteur de la Couronne vaut le détenteur de la Couronne (qui doit exister).",
    "other-than": "Choisir un joueur tel que vous ne soyez pas ce joueur et que le trésor de ce joueur soit supérieur à 0.",
    "apposition": "Par défaut, le signe du nombre l'écart de cette case vaut 1.",
    "article": "Vous ne pouvez pas bâtir Palais.",
}
GOOD = ["Vous ne pouvez pas bâtir le Palais si ce quartier est dans votre cité.",
        "Pour le joueur qui a volé ce personnage, recevoir tout l'or de la case au-delà des remparts.",
        "Choisir un joueur tel que ce joueur soit le détenteur de la Couronne.",
        "Recevoir *k* pièces d'or de la banque, puis choisir le quartier *x* de l'un des joueurs.",
        "Si l’:rb:district:`Palais` est dans votre cité, votre score augmente de 2.",
        "Le joueur assis à côté de vous a choisi le personnage de rang 4, qui n'est pas assassiné.",
        "Par défaut, le détenteur de la Couronne doit exister.",
        "Choisir un joueur autre que vous dont le trésor est supérieur à 0.",
        "Par défaut, le signe du nombre *n* vaut 1 si le nombre *n* est supérieur à 0, sinon 0."]


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
    assert "Pour le joueur qui a volé ce personnage, transférer toutes les pièces d'or du trésor du joueur qui " \
           "révèle ce personnage vers le trésor de ce joueur." in voleur, "the moment's player is named by what it does"
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


# ---------------------------------------------------------------- forms that read badly, and what replaced them

CARCASSONNE = (ROOT / "spec" / "carcassonne",), ROOT / "docs" / "carcassonne" / "lexique.toml"
FAN = (CITADELLES, ROOT / "spec" / "extension-fan"), LEXICON


def test_a_yes_no_argument_of_a_template_reads_as_words_not_as_vrai():
    book = _book((CITADELLES,), LEXICON)
    reine = " ".join(_where(book, "power Reine.trois_pièces") + _where(book, "power Reine.trois_pièces_après_les_appels"))
    assert "rang 4, qui n'est pas assassiné." in reine and "rang 4, qui est assassiné, transférer" in reine
    assert ": vrai" not in reine and ": faux" not in reine
    # a yes/no that is not a plain value says both words and when each holds
    default = " ".join(_where(book, "quantity voisin_du_rang_4"))
    assert "(qui est assassiné si la réponse pour « mort » est oui, qui n'est pas assassiné sinon)" in default


def test_a_template_chooses_its_words_for_yes_and_no():
    from checker.prose import Ctx
    prose = _book((CITADELLES,), LEXICON).prose
    template = "{0} a choisi un personnage{1?, qui est assassiné|, qui n'est pas assassiné}"
    assert prose.fill(template, ["vous", "vrai"], Ctx()) == "vous avez choisi un personnage, qui est assassiné"
    assert prose.fill(template, ["vous", "faux"], Ctx()) == "vous avez choisi un personnage, qui n'est pas assassiné"


def test_a_default_named_as_its_value_reads_does_not_repeat_itself():
    book = _book((CITADELLES,), LEXICON)
    assert _where(book, "quantity couronne_ou_premier") == ["Par défaut, le détenteur de la Couronne doit exister."]


def test_a_filter_that_excludes_one_value_reads_autre_que():
    book = _book((CITADELLES,), LEXICON)
    assert "Les joueurs victimes sont les joueurs autres que vous dont le nombre de cartes de la main est " \
           "supérieur à 0." in _where(book, "power Voyante.divination")
    assert "Choisir un joueur autre que vous dont le nombre de personnages est au moins 1." in \
        _where(book, "power Théâtre.théâtre_échanger")
    fan = _book(*FAN)
    # several exclusions are said together, and the rest of the condition keeps its relative pronouns
    assert any("autre que **Merveille** et **Maudit**." in t for t in _where(fan, "power Troubadour.chanson"))
    assert "Choisir un joueur autre que vous qui a déjà joué ce tour-ci et dont le nombre de cartes de la main est " \
           "supérieur à 0." in _where(fan, "power Izanami.dons_d_izanami")


def test_a_participle_of_the_lexicon_agrees_with_its_subject():
    fan = _book(*FAN)
    text = " ".join(_where(fan, "procedure apparition_hors_rang"))
    assert "qui ne sont pas apparus ce tour-ci" in text and "Ce personnage est apparu ce tour-ci." in text
    assert "apparues" not in text


def test_the_lexicon_writes_participles_in_the_masculine_singular():
    """The book agrees a participle with its subject (« qui sont apparus », « la Reine est apparue »): one
    written feminine in the lexicon (« {0} est apparue ») reads « les personnages … apparues »."""
    import tomllib
    for path in (LEXICON, CARCASSONNE[1]):
        terms = tomllib.loads(path.read_text(encoding="utf-8")).get("termes", {})
        templates = [v if isinstance(v, str) else v.get("texte", "") for v in terms.values()]
        assert [t for t in templates if re.search(r"^\{0\} (?:est|a été) [^\W\d_]+(?:ée|ue|ie)s?\b", t)] == []


def test_a_letter_no_other_word_of_the_sentence_uses_is_not_written():
    book = _book((CITADELLES,), LEXICON)
    assert _rule(book, "abbé_pas_le_plus_riche") == \
        "Vous ne pouvez pas recevoir une pièce d'or d'un joueur si vous êtes parmi les joueurs dont le trésor est " \
        "le plus grand."
    # two names of the same noun keep their letters, and so does a parameter the heading names
    assert "du trésor du joueur *r* vers le trésor du joueur *p*" in " ".join(_where(book, "action aumône_de"))
    assert "Le joueur *q* devient le détenteur de la Couronne." in _where(book, "action couronner")


def test_a_noun_before_a_letter_is_dropped_before_a_noun_phrase():
    book = _book(*CARCASSONNE)
    text = " ".join(_where(book, "quantity dépasse"))
    assert "le signe de l'écart de la case" in text and "du nombre l'" not in text
    assert _where(book, "quantity signe")[0].startswith("Par défaut, le signe du nombre *n* vaut 1")


def test_a_procedure_template_agrees_its_verb_with_vous():
    text = " ".join(_where(_book(*FAN), "power Prévôt.taxe_du_prévôt"))
    assert "vous taxez ce joueur" in text and "vous taxe " not in text


def test_two_names_of_one_noun_are_told_apart_without_letters():
    """A procedure's parameter (« le joueur ») beside a player the text introduces (« ce joueur »); two
    parameters of a rule by the order of their first mentions (« le premier quartier », « le second
    quartier »); a letter beside a name the spec writes as a word (« le personnage visé », in italics only
    where it does not agree with its noun); the two players
    of a moment (« quand un joueur attaque un autre joueur »), the one it makes its subject named by what it
    does (« le joueur qui attaque »)."""
    book = _book((CITADELLES,), LEXICON)
    tour = " ".join(_where(book, "procedure tour"))
    assert "Pour le joueur qui a ensorcelé le personnage : Ce joueur devient le joueur dont c'est le tour." in tour
    assert "le joueur reçoit ses ressources" in tour.lower() and "*p*" not in tour and "*s*" not in tour
    assert _rule(book, "diplomate_de_votre_cité") == "Vous ne pouvez pas échanger un quartier de votre cité " \
        "contre un quartier de la cité d'un joueur si le premier quartier n'est pas dans votre cité."
    assert "pour échanger le premier quartier contre le second quartier" in _rule(book, "diplomate_paie_la_différence")
    mandats = " ".join(_where(book, "power Échevin.mandats"))
    assert "Pour chaque personnage parmi ces personnages, placer un jeton Mandat (**signé** si ce personnage est " \
           "le personnage visé" in mandats
    fan = _book((CITADELLES, ROOT / "spec" / "extension-fan"), LEXICON)
    contre = " ".join(_where(fan, "power Mercenaire.contre"))
    assert "quand un joueur attaque un autre joueur" in contre and "vous n'êtes pas le joueur qui attaque" in contre
    assert not re.search(r"\*[a-z]\*", contre)
