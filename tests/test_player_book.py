"""The player's book teaches the game: every page a player reads is French, with no identifier of the
spec, no kind named by its identifier; « La partie en bref » says, from the spec, when a city is complete
at each player count, what a player receives and keeps, who wins and how ties are broken, what everyone
sees, and which cards each configuration plays with."""

from __future__ import annotations

import html
import re

import pytest

from checker.prose.french import bare
from checker.sphinxext import Book, render
from checker.sphinxext.values import UnknownValue, expand, value_text
from conftest import ROOT, SPEC

LEXICON = ROOT / "docs" / "lexique.toml"
OVERLAY = ROOT / "tests" / "fixtures" / "good" / "overlay_partie_rapide.rules"

ROLE = re.compile(r":rb:\w+:`[^`]*`")            # a cross-reference: its target is a name, its text French
IDENTIFIER = re.compile(r"\b\w+_\w+\b")
LETTER = re.compile(r"\*[a-z]\*")                 # a variable letter, as the steps write it: « le joueur *p* »

# No step or rule names a bound value by its letter any more (74, then 25, then 6 before: two choices of one
# noun are told apart by their places, « le quartier de votre cité », a number by the attribute it is
# compared with, « pour chaque rang », or by what it counts, « ce nombre de pièces d'or »); a letter that
# comes back fails this test.
LETTERS_LEFT = 0
DIAGRAM_LETTERS_LEFT = 0          # the same letters, in the diagrams' boxes (« Le joueur s devient … » was one)


@pytest.fixture(scope="module")
def book() -> Book:
    return Book.load([SPEC], LEXICON)


COMMENT = re.compile(r"^\.\. (?![\w:-]+::|_|\[|\|).*\n(   .*\n)*", re.M)     # not a directive, target…
AUTO = re.compile(r"^\.\. rb:auto:: (\S+) ?(.*)$", re.M)


def page_text(book: Book, path, errors: list | None = None) -> str:
    """A page of docs/livre/ as the book shows it: its ``rb:auto`` directives rendered, its value roles
    replaced by what they write (what the Sphinx extension does, without building the book)."""
    text = AUTO.sub(lambda m: render(book, m.group(1), m.group(2).strip()), path.read_text(encoding="utf-8"))
    return expand(book, text, errors)


def player_pages(book: Book, livre=ROOT / "docs" / "livre", essentials: bool = True) -> list[tuple[str, str]]:
    """(name, text) of the pages of ``livre`` (with their diagrams), « La partie en bref », and the card
    pages the player's book has (:meth:`Book.played_kinds`)."""
    pages = [("player-essentials", render(book, "player-essentials"))] if essentials else []
    pages += [(path.stem, page_text(book, path)) for path in sorted(livre.glob("*.rst"))]
    return pages + [(f"player-cards {kind}", render(book, "player-cards", kind)) for kind in book.played_kinds()]


def untranslated(book: Book, pages) -> tuple[list, int]:
    """The identifiers and type names (``Character``; not ``Rempart`` or ``Gemme``, French words of their
    lexicon's nouns, « le rempart », « la forme de gemme ») on the pages, and the number of variable letters;
    the teaching pages have none."""
    names = {n for n in (set(book.program.kinds) | set(book.program.enums) | set(book.program.records) |
                         {"Player", "Int", "Bool", "Text"})
             if n.lower() not in bare(book.lexicon.types.get(n, "")).split(" ")}
    found, letters = [], 0
    for what, text in pages:
        text = ROLE.sub("", COMMENT.sub("", text))    # not the reST comments
        for line in text.split("\n"):
            found += [(what, m.group()) for m in IDENTIFIER.finditer(line)]
            found += [(what, n) for n in names if re.search(rf"(?<![\w-]){n}(?![\w-])", line)]
            letters += len(LETTER.findall(line))
            if what in ("player-essentials", "apprendre"):
                assert not LETTER.search(line), line
    return found, letters


def test_every_player_page_is_french_without_identifiers(book: Book):
    found, letters = untranslated(book, player_pages(book))
    assert found == []
    assert letters <= LETTERS_LEFT, f"{letters} variable letters on the player's pages (at most {LETTERS_LEFT})"


# The fan expansion's pages named some values by letter (238, then 114, then 40, now none): a procedure's
# parameters are named as its heading names them (« le rang donné », « l'autre joueur »), a player singled out
# beside « ce joueur » by its role (« le joueur qui a endormi le personnage »), a window's player that is the
# power's holder « vous », a count of turns « deux fois »; a letter that comes back fails this test.
FAN_LETTERS_LEFT = 0


def test_a_word_named_value_reads_plainly_beside_its_noun(book: Book):
    """« les joueurs victimes », « le personnage visé »: a name that agrees with its noun is an apposition,
    not in italics; one that does not (« le nombre *dé* ») stays in italics, told apart by it."""
    text = "\n".join(t for _, t in player_pages(book))
    assert "Pour chaque joueur parmi les joueurs victimes :" in text and "*victimes*" not in text
    assert "si ce personnage est le personnage visé, sinon" in text and "*visé*" not in text


def test_the_fan_expansions_player_pages_are_french_without_letters():
    fan = Book.load([SPEC, ROOT / "spec" / "extension-fan"], LEXICON)
    pages = player_pages(fan)
    found, letters = untranslated(fan, pages)
    assert found == []
    assert letters <= FAN_LETTERS_LEFT, f"{letters} variable letters on the fan's pages (at most {FAN_LETTERS_LEFT})"
    text = "\n".join(t for _, t in pages)
    assert "Si l'attaque en cours n'a pas eu lieu" in text and "l'n'" not in text, "« attaque » is a noun there"
    assert "subir l'attaque" not in text.lower(), "a verb left in the infinitive"
    assert "#. L'autre joueur fait subir son attaque au joueur, qui joue le personnage." in text, "its actor, conjugated"
    assert "Faire apparaître Ashura après le rang donné" in text and "passe au rang donné" in text
    assert "Deux fois, pour chaque joueur" in text
    assert "Ce joueur subit l'attaque du joueur qui a endormi le personnage" in text
    assert "vous n'êtes ni le joueur ni l'autre joueur, votre trésor" in text, "two denials of one subject: « ni … ni »"
    assert "vous n'êtes pas le joueur, vous n'êtes pas" not in text
    assert "Pour chaque joueur qui a le personnage :" in text and "dont le personnage est parmi" not in text


def test_the_diagrams_of_the_player_pages_name_no_procedure_by_its_letters(book: Book):
    """A figure's title (read by screen readers) names the procedure as the chapter's heading does; the
    boxes' texts come from the same steps, whose letters are counted with the pages'."""
    titles, letters = [], 0
    for what, text in player_pages(book):
        for svg in re.findall(r"<svg.*?</svg>", text, re.S):
            titles += [html.unescape(t) for t in re.findall(r"<title>([^<]+)</title>", svg)]
            texts = " ".join(html.unescape(t) for t in re.findall(r">([^<]+)</text>", svg))
            letters += len(re.findall(r"(?<![\w'’-])[b-xz](?![\w'’-])", texts))
    assert "Le joueur joue le tour du personnage" in titles
    assert [t for t in titles if re.search(r"(?<![\w'’-])[b-xz](?![\w'’-])", t)] == []
    assert letters <= DIAGRAM_LETTERS_LEFT, f"{letters} variable letters in the diagrams (at most {DIAGRAM_LETTERS_LEFT})"


def test_in_brief_says_when_a_city_is_complete_at_each_player_count(book: Book):
    text = render(book, "player-essentials")
    assert "Le nombre de quartiers d'une cité complète : **8** à 2 ou 3 joueurs ; **7** de 4 à 8 joueurs." in text
    faster = Book.load([SPEC, OVERLAY], LEXICON)
    assert "**7** à 2 ou 3 joueurs ; **6** de 4 à 8 joueurs" in render(faster, "player-essentials"), \
        "evaluated from the spec: a house rule that changes the quantity changes the page"


def test_in_brief_says_what_a_player_receives_keeps_sees_and_how_the_winner_is_found(book: Book):
    text = render(book, "player-essentials")
    assert "Par défaut, le nombre de cartes que vous piochez comme ressource vaut 2." in text
    assert "Par défaut, le nombre de cartes que vous gardez vaut 1." in text
    assert "il en pioche 2, en conserve 1 et défausse l'autre" in text, "the rulebook's sentence the action cites"
    assert "Le vainqueur est le joueur qui a le score le plus grand." in text
    assert "En cas d'égalité, le vainqueur est, parmi les ex æquo, celui qui a le départage le plus grand." in text
    assert "Votre départage vaut la plus grande valeur, pour chaque personnage parmi vos personnages qui ont été " \
           "révélés et qui ne sont pas assassinés, du rang de ce personnage" in text
    assert "Tous les joueurs voient la cité de chaque joueur et le trésor de chaque joueur." in text
    assert "Seul le joueur concerné voit le contenu de la main de chaque joueur" in text
    assert "les autres en voient le nombre" in text
    assert "**Première partie**, à 2 joueurs et de 4 à 7 joueurs : 8 personnages (:rb:character:`Assassin`" in text
    assert "68 quartiers, dont 14 Merveilles" in text, "the kind by its own noun, not « cartes Quartier »"
    assert "**Développement**, à 3 joueurs : 9 personnages" in text, "the cards that change with the player count"


def test_quotations_are_shown_with_the_sources_slips_corrected_but_cited_verbatim(book: Book):
    slips = [c for d in book.program.quantities.values() for c in d.cites if "lorsqu:elle" in c.quote]
    assert slips, "the spec cites the booklet verbatim, slip included (what `cite` checks)"
    assert "lorsqu'elle" in book.shown(slips[0]) and "lorsqu:elle" not in book.shown(slips[0])
    card = render(book, "card", "Assassin")
    assert "méme" not in card and "étre" not in card
    fan = render(Book.load([SPEC, ROOT / "spec" / "extension-fan"], LEXICON), "decisions")
    assert "<sup>" not in fan and "1\\ :sup:`ère`\\  édition" in fan, "the source's HTML rendered"
    trace = render(book, "trace")
    assert "Coquilles corrigées à l'affichage" in trace and "« méme »" in trace and "« même »" in trace


TEACHING = ROOT / "docs" / "livre" / "apprendre.rst"


def test_the_teaching_page_answers_a_new_players_questions_from_the_spec(book: Book):
    """« Apprendre à jouer » (written by hand, its values read from the spec): how many districts complete
    a city at each player count (the end at 2 or 3 players too), the starting hand and gold, keep one of
    the two cards drawn, the bonuses, the tie-break in the rulebook's words, what everyone sees, the cards
    of a first game, each character and Merveille in a line."""
    text = page_text(book, TEACHING)
    assert "au moins **8** quartiers à 2 ou 3 joueurs et **7** quartiers de 4 à 8 joueurs" in text
    assert "Chaque joueur reçoit\n   4 cartes Quartier" in text and "reçoit 2 pièces d'or de la banque" in text
    assert "soit 2 pièces d'or de la banque, soit il pioche\n   2 cartes Quartier, en **garde** 1" in text
    assert "**2** personnages à 2 ou 3 joueurs et **1** personnage de 4 à 8 joueurs" in text, \
        "computed by playing the draft at each player count"
    assert "+\\ 3 points si sa cité a des quartiers des cinq types" in text
    assert "+\\ 4 points s'il a été le premier" in text and "+\\ 2 points si sa cité est complète" in text
    assert "*« En cas d'égalité, la victoire va à celui des ex æquo qui avait révélé" in text
    assert "*« La richesse en or d'un joueur et le nombre de cartes dans sa main sont des informations" in text
    assert "Tous les joueurs voient la cité de chaque joueur et le trésor de chaque joueur." in text
    assert "règles : « Première partie », à 2 joueurs et de 4 à 7 joueurs, 8 personnages (:rb:character:`Assassin`" \
        in text
    assert ":rb:character:`Assassin` (rang 1) — Annoncer le personnage assassiné." in text
    assert ":rb:district:`Bibliothèque` (coût 6) — « Quand on choisit de piocher" in text


def test_a_house_rule_changes_the_teaching_page(book: Book):
    """The numbers are the spec's: an overlay that shortens the game and lowers a bonus changes them; the
    rulebook's sentence about the quantity it replaces (no longer cited) and a rule it removes are reported,
    not left stale."""
    errors: list[str] = []
    text = page_text(Book.load([SPEC, OVERLAY], LEXICON), TEACHING, errors)
    assert "au moins **7** quartiers à 2 ou 3 joueurs et **6** quartiers de 4 à 8 joueurs" in text
    assert "+\\ 3 points s'il a été le premier" in text
    assert errors == ["cité_complète_à cites no such sentence (cité_complète_à)",
                      "the spec declares no quantity or rule bonus_cinq_types"]
    assert "+\\ 4 points" not in text and "sept quartiers (4 à 8 joueurs)" not in text


def test_a_value_role_that_names_nothing_says_so(book: Book):
    for role, target, message in [("nombre", "cité_complète_à", "depends on the player count"),
                                  ("nombre", "cité_complète_à@12", "not played with 12 players"),
                                  ("phrase", "départage~nulle part", "cites no such sentence"),
                                  ("composition", "Partie imaginaire", "no configuration"),
                                  ("nombre", "mise_en_place:nulle_part", "no zone or counter")]:
        with pytest.raises(UnknownValue, match=message):
            value_text(book, role, target)
    assert value_text(book, "nombre", "cité_complète_à@3") == "8"


def test_twenty_questions_each_answered_with_the_section_that_explains_it(book: Book):
    """docs/livre/questions.rst: the first questions of a reader who never played, each with a short answer
    (its values read from the spec) and a link to a section of « Apprendre à jouer » that exists."""
    path = ROOT / "docs" / "livre" / "questions.rst"
    text = page_text(book, path)
    questions = re.findall(r"^(?:#|\d+)\. \*\*(.+?)\*\*(.*?)(?=^(?:#|\d+)\. |^\S|\Z)", text, re.M | re.S)
    assert len(questions) == 20
    labels = set(re.findall(r"^\.\. _([\w-]+):$", TEACHING.read_text(encoding="utf-8"), re.M))
    for question, answer in questions:
        refs = re.findall(r":ref:`([\w-]+)`", answer)
        assert refs and set(refs) <= labels, (question, refs)
    assert "**Et à 2 joueurs ?** 8 quartiers." in text
    assert "on garde 1 carte et l'on remet" in text
