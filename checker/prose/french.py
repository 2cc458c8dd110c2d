"""French for the prose generator: articles, contractions, plurals, negation, and the lexicon.

>>> contract("Prendre de le trésor à les joueurs de une main")
"Prendre du trésor aux joueurs d'une main"
"""

from __future__ import annotations

import dataclasses
import re
import tomllib
from pathlib import Path

__all__ = ["contract", "yours", "capitalize", "humanize", "plural", "feminine", "indefinite", "demonstrative", "bare",
           "rst_escape", "shown_quote",
           "conj", "negate", "split_article", "Term", "Lexicon"]


_VOWEL = "aeiouyàâäéèêëîïôöûùüœæAEIOUYÀÂÉÈÊËÎÏÔÛŒ"


def contract(text: str) -> str:
    """Contract articles after prepositions and elide before a vowel, as French writes them."""
    text = re.sub(r"\b([dD])e le (?=[\w:«*])", r"\1u ", text)
    text = re.sub(r"\b([dD])e les\b", r"\1es", text)
    text = re.sub(r"\b([dD])e des\b", r"\1e", text)
    text = re.sub(r"\b([àÀ]) le (?=[\w:«*])", lambda m: "au " if m.group(1) == "à" else "Au ", text)
    text = re.sub(r"\bà les\b", "aux", text)
    text = re.sub(r"\b([nN])'(?=[^\W" + _VOWEL + r"h])", r"\1e ", text)
    elidable = r"\b([dD]e|[qQ]ue|[lL]orsque|[pP]uisque|[jJ]usque|[nN]e|[sS]e|[lL]e|[lL]a) "
    # before a cross-reference, the typographic apostrophe: reST still sees where the role starts
    text = re.sub(elidable + r"(?=:[\w:-]+:`[" + _VOWEL + "])", lambda m: m.group(1)[:-1] + "’", text)
    text = re.sub(elidable + "(?=[" + _VOWEL + "])", lambda m: m.group(1)[:-1] + "'", text)
    text = re.sub(r"\b([sS])i (?=ils?\b)", r"\1'", text)
    return text


def yours(text: str) -> str:
    """``la cité de vous`` → ``votre cité``: a possessive where a template put ``vous`` after ``de``.

    >>> yours("vérifier si la cité de vous est complète")
    'vérifier si votre cité est complète'
    """
    text = re.sub(r"\b([dD])u (\w+) de vous\b", r"\1e votre \2", text)
    text = re.sub(r"\b([dD])es (\w+) de vous\b", r"\1e vos \2", text)
    text = re.sub(r"\bau (\w+) de vous\b", r"à votre \1", text)
    text = re.sub(r"\baux (\w+) de vous\b", r"à vos \1", text)
    text = re.sub(r"\b(?:le|la|l')\s?(\w+ de \w+) de vous\b", r"votre \1", text)
    text = re.sub(r"\bles (\w+ de \w+) de vous\b", r"vos \1", text)
    text = re.sub(r"\b(?:le|la) (\w+) de vous\b", r"votre \1", text)
    text = re.sub(r"\bl'(\w+) de vous\b", r"votre \1", text)
    return re.sub(r"\bles (\w+) de vous\b", r"vos \1", text)


def capitalize(text: str) -> str:
    """Uppercase the first letter (after an opening « ), unless the text starts with markup (a
    variable, a cross-reference)."""
    if text.startswith("« ") and text[2:3].isalpha():
        return "« " + text[2].upper() + text[3:]
    if not text or not text[0].isalpha():
        return text
    return text[0].upper() + text[1:]


def humanize(identifier: str) -> str:
    """``bâtir_la_nécropole`` → ``bâtir la nécropole``; ``l_aide`` → ``l'aide``.

    >>> humanize("prendre_l_or_du_jeton")
    "prendre l'or du jeton"
    """
    text = identifier.replace("_", " ")
    return re.sub(r"\b([ldjmnst]|qu) (?=[" + _VOWEL + "])", r"\1'", text).strip()


def plural(noun_phrase: str) -> str:
    """Plural of a noun phrase with its article: the head noun (its first word) takes the mark.

    >>> plural("le type de quartier"), plural("la carte Quartier"), plural("l'embellissement")
    ('les types de quartier', 'les cartes Quartier', 'les embellissements')
    """
    article, noun = split_article(noun_phrase)
    head, _, rest = noun.partition(" ")
    if head.endswith(("s", "x", "z")):
        pass
    elif head.endswith(("al",)) and not head.endswith("ial"):
        head = head[:-2] + "aux"
    elif head.endswith(("eau", "eu")):
        head += "x"
    else:
        head += "s"
    return f"les {head}{' ' + rest if rest else ''}" if article else f"{head}{' ' + rest if rest else ''}"


def split_article(np: str) -> tuple[str, str]:
    for article in ("le ", "la ", "les ", "l'", "un ", "une ", "des "):
        if np.startswith(article):
            return article.strip(), np[len(article):]
    return "", np


def feminine(np: str) -> bool:
    article, noun = split_article(np)
    if article in ("la", "une"):
        return True
    if article in ("le", "un"):
        return False
    words = noun.split(" ")
    head = words[1] if words[0] in _BEFORE_NOUN and len(words) > 1 else words[0]     # « l'autre joueur »
    return head.endswith(("e", "té", "ion")) and not head.endswith(("age", "isme", "ème"))


# Adjectives French puts before the noun: a name such as ``premier`` reads « le premier joueur »
_BEFORE_NOUN = ("premier", "second", "dernier", "prochain", "autre")


def _feminine_adjective(word: str) -> str:
    """``premier`` → ``première``, ``second`` → ``seconde``, ``autre`` → ``autre``."""
    if word.endswith("er"):
        return word[:-2] + "ère"
    return word if word.endswith("e") else word + "e"


def apposed(np: str, name: str) -> bool:
    """Does a word ``name`` read plainly after its noun ``np``, as an apposition that agrees with it: « les
    joueurs victimes », « le personnage visé », « le joueur détenteur de la couronne »? Not a letter, not the
    noun itself, not a number's name (« le nombre *dé* »), not a word of another number (« les joueurs
    *ordre* »): those stay in italics, a name the reader is told apart by.

    >>> apposed("les joueurs", "victimes"), apposed("le personnage", "visé"), apposed("les joueurs", "ordre")
    (True, True, False)
    """
    words = humanize(name)
    if len(words) < 2 or words in (bare(np), bare(plural(np))) or bare(np) == "nombre":
        return False
    many = split_article(np)[0] in ("les", "des", "ces", "vos", "leurs")
    head = words.split(" ")[0]
    one = head[:-1] if many and head.endswith("s") else head
    if one in _BEFORE_NOUN or re.fullmatch(r"(?:mien|tien|sien|nôtre|vôtre|leur)n?e?", one):
        return False            # « les autres quartiers », a possessive: not an apposition
    if one.endswith("ée") and not feminine(np) or one.endswith("é") and feminine(np):
        return False            # « les quartiers *données* »: not of the noun's gender
    return head.endswith(("s", "x")) == many


def named(np: str, name: str) -> str | None:
    """A noun named by an adjective French puts before it: ``named("le joueur", "premier")`` is « le
    premier joueur »; None for any other name (it is then written as a letter beside its noun).

    >>> named("le joueur", "second"), named("la carte", "dernier"), named("le joueur", "victime")
    ('le second joueur', 'la dernière carte', None)
    """
    words = humanize(name)
    ordinal = re.fullmatch(r"[^\W\d_]+ième", words) is not None
    base = next((w for w in _BEFORE_NOUN if words in (w, _feminine_adjective(w))), None)
    if base is None and not ordinal:
        return None
    article, noun = split_article(np)
    if article not in ("le", "la", "l'"):
        return None
    fem = feminine(np)
    adjective = words if ordinal else _feminine_adjective(base) if fem else base
    return contract(f"{'la' if fem else 'le'} {adjective} {noun}")


def indefinite(np: str) -> str:
    """``le quartier`` → ``un quartier``; ``la carte`` → ``une carte``."""
    _, noun = split_article(np)
    return f"{'une' if feminine(np) else 'un'} {noun}"


def demonstrative(noun: str) -> str:
    """« le quartier » → « ce quartier », « la carte » → « cette carte », « l'option » → « cette option »."""
    article, rest = split_article(noun)
    if article in ("les", "des"):
        return f"ces {rest}"
    if feminine(noun):
        return f"cette {rest}"
    return f"{'cet' if rest[:1] in _VOWEL else 'ce'} {rest}"


def bare(np: str) -> str:
    """The noun without its article."""
    return split_article(np)[1]


def rst_escape(text: str) -> str:
    """Text shown as is in reST (no markup)."""
    return re.sub(r"([\\*`|])", r"\\\1", text).replace("_ ", "\\_ ")


_HTML = {"sup": ":sup:`{}`", "sub": ":sub:`{}`", "i": "*{}*", "em": "*{}*", "b": "**{}**", "strong": "**{}**"}


def shown_quote(text: str, errata: dict[str, str] | None = None) -> str:
    r"""A source's sentence as reST for display: its known slips corrected (whole words only), escaped, and
    the little HTML some sources carry (``1<sup>er</sup>``) rendered as reST; the markup of a source written in
    Markdown (``**terminés**``, a heading's ``###``) is not shown as characters (a quotation is set in
    italics, where reST nests no bold); a lone ``**`` (a footnote's mark) stays.

    >>> print(shown_quote("le 1<sup>er</sup> joueur peut étre *seul*", {"étre": "être"}))
    le 1\ :sup:`er`\  joueur peut être \*seul\*
    >>> print(shown_quote("### Les routes **terminées** sont évaluées (voir**)"))
    Les routes terminées sont évaluées (voir\*\*)
    """
    for wrong, right in (errata or {}).items():
        text = re.sub(rf"(?<!\w){re.escape(wrong)}(?!\w)", right, text)
    text = re.sub(r"\*\*(?=\S)([^*]+?)(?<=\S)\*\*", r"\1", re.sub(r"^#{1,6} +", "", text))
    text = rst_escape(text)
    return re.sub(r"<(sup|sub|i|em|b|strong)>([^<]*)</\1>",
                  lambda m: "\\ " + _HTML[m.group(1)].format(m.group(2)) + "\\ ", text)


def _strip_period(text: str) -> str:
    return text.rstrip().rstrip(".").rstrip()


# Conjugation of the few verbs the generator itself writes, for "vous" and the third person.
_CONJ = {"être": ("êtes", "est"), "avoir": ("avez", "a"), "pouvoir": ("pouvez", "peut"),
         "choisir": ("choisissez", "choisit"), "devoir": ("devez", "doit")}


def conj(verb: str, subject: str) -> str:
    you, third = _CONJ[verb]
    return you if subject == "vous" else third


def negate(clause: str) -> str:
    """``x est dans y`` → ``x n'est pas dans y``; anything else is prefixed."""
    for verb in ("êtes", "est", "sont", "avez", "a", "peut", "pouvez", "compte", "vaut", "existe", "détient",
                 "contient", "peuvent", "doit", "vient", "paie"):
        m = re.search(r"(?<![\w'])" + verb + r"(?![\w'])", clause)
        if m:
            return contract(clause[:m.start()] + "ne " + verb + " pas" + clause[m.end():])
    return f"il est faux que {clause}"


# ---------------------------------------------------------------- the lexicon


@dataclasses.dataclass(frozen=True)
class Term:
    """How the book words one name of the spec.

    ``text`` is a noun phrase (``le trésor``: ``trésor[p]`` reads ``le trésor de p``)
    or a template whose ``{0}``, ``{1}``… are the arguments.  ``element`` names the
    elements of a zone (``la carte``), ``some`` is the clause for ``x != none``.
    """
    text: str
    element: str | None = None
    some: str | None = None


@dataclasses.dataclass
class Lexicon:
    types: dict[str, str] = dataclasses.field(default_factory=dict)
    attributes: dict[str, str] = dataclasses.field(default_factory=dict)
    terms: dict[str, Term] = dataclasses.field(default_factory=dict)
    actions: dict[str, str] = dataclasses.field(default_factory=dict)
    procedures: dict[str, str] = dataclasses.field(default_factory=dict)
    windows: dict[str, str] = dataclasses.field(default_factory=dict)
    display: dict[str, str] = dataclasses.field(default_factory=dict)   # a kind -> how a card shows at the table
    unit: str | None = None
    words: frozenset[str] = frozenset()       # « mots » : words of the game a French dictionary lacks
    feminine_cards: frozenset[str] = frozenset()
    plural_cards: frozenset[str] = frozenset()
    bare_cards: frozenset[str] = frozenset()       # proper names: no article
    mute_h_cards: frozenset[str] = frozenset()     # a mute h: « l' », not « le »
    # a source -> {slip: correction}: the obvious slips of a source (OCR), corrected where a quotation is
    # shown, never in the spec (`cite` checks the verbatim text)
    errata: dict[str, dict[str, str]] = dataclasses.field(default_factory=dict)

    SECTIONS = {"types": "types", "attributs": "attributes", "termes": "terms", "actions": "actions",
                "procédures": "procedures", "moments": "windows", "cartes": None, "affichage": "display",
                "errata": "errata"}
    CARD_LISTS = {"féminin": "feminine_cards", "pluriel": "plural_cards", "sans_article": "bare_cards",
                  "h_muet": "mute_h_cards"}

    def attribute_noun(self, name: str) -> str:
        """An attribute's noun with its article (« le coût »); a yes/no attribute the lexicon words as a
        clause (« {0} a le rang « x » ») is named by its identifier (« le rang x »)."""
        wording = self.attributes.get(name)
        return wording if wording is not None and "{" not in wording else f"le {humanize(name)}"

    def card_article(self, name: str) -> str:
        """The definite article of a card's name: ``le ``, ``la ``, ``l'``, ``les `` or nothing."""
        if name in self.bare_cards:
            return ""
        if name in self.plural_cards:
            return "les "
        if name[:1] in _VOWEL or name in self.mute_h_cards:
            return "l'"
        return "la " if name in self.feminine_cards else "le "

    @classmethod
    def from_mapping(cls, data: dict) -> "Lexicon":
        """Build from a mapping shaped like ``lexique.toml``; unknown sections are an error."""
        lexicon = cls(unit=data.get("unité"), words=frozenset(w.lower() for w in data.get("mots", ())))
        for key, value in data.items():
            if key in ("unité", "mots"):
                continue
            if key not in cls.SECTIONS:
                raise ValueError(f"unknown section [{key}] (expected one of {', '.join(cls.SECTIONS)})")
            if key == "cartes":
                for name, cards in value.items():
                    if name not in cls.CARD_LISTS:
                        raise ValueError(f"unknown list '{name}' in [cartes] (expected one of "
                                         f"{', '.join(cls.CARD_LISTS)})")
                    setattr(lexicon, cls.CARD_LISTS[name], frozenset(cards))
                continue
            table = getattr(lexicon, cls.SECTIONS[key])
            for name, wording in value.items():
                if key == "termes":
                    if isinstance(wording, str):
                        table[name] = Term(wording)
                    else:
                        table[name] = Term(wording["texte"], wording.get("élément"), wording.get("existe"))
                else:
                    table[name] = wording
        return lexicon

    @classmethod
    def load(cls, path: Path) -> "Lexicon":
        with path.open("rb") as handle:
            return cls.from_mapping(tomllib.load(handle))


_PLACE = r"(?:la|le|l'|les|votre|vos)\s?[\w'’ ]{1,30}?"
_OWNER = r"(?:\s(?:d'un|d'une|de ce|de cet|de cette|du|de la|de l'|de)\s?[\w*’' ]{1,30}?)?"


_DET = r"(ce|cet|cette|ces|un|une|chaque|n'importe quel|n'importe quelle|l'un des|l'une des)"


_ALTERNATIVE = re.compile(r"\{(\d)\?([^|{}]*)\|([^{}]*)\}")


def _choose(template: str, args: list[str]) -> str:
    """``{1?oui|non}`` in a template: the words for a yes/no argument (« , qui est assassiné »),
    not « : vrai »; an argument that is not a plain yes or no reads « (…oui si …, …non sinon) »."""
    def pick(m: re.Match) -> str:
        value = args[int(m.group(1))]
        if value in ("vrai", "faux"):
            return m.group(2) if value == "vrai" else m.group(3)
        return f" ({m.group(2).strip(' ,')} si {value}, {m.group(3).strip(' ,')} sinon)"
    return _ALTERNATIVE.sub(pick, template)


def _twice(text: str) -> str:
    """A noun said twice around its determiner (a lexicon's « de type {2} », « au bout {1} » given
    « ce type de quartier »): « de type ce type de quartier » → « de ce type de quartier »,
    « au bout un bout du rempart du rempart » → « à un bout du rempart »."""
    into = {"de": "de ", "du": "de ", "au": "à ", "le": "", "la": "", "en": "en ", "sur": "sur "}

    def once(m: re.Match) -> str:
        return f"{into[m.group(1)]}{m.group(3)} {m.group(2)}{m.group(4)}"
    text = re.sub(r"\b(de|du|au|le|la|en|sur) ([^\W\d_]+) " + _DET + r" \2(s?)\b", once, text)
    return re.sub(r"\b((?:du|de la|des|de l') [\w'’ ]{1,25}?) \1\b", r"\1", text)


def _dedupe(text: str) -> str:
    """« un quartier de la cité d'un joueur dans la cité de ce joueur » → « un quartier dans la cité
    d'un joueur »: a place said twice in a row (once where the element is taken from, once by the
    wording of an action) is said once."""
    pattern = re.compile(r"\bde (" + _PLACE + r")(" + _OWNER + r") (de|dans) \1(" + _OWNER + r")(?=[\s,.;)]|$)")

    def same(m: re.Match) -> str:
        first, second = m.group(2).strip(), m.group(4).strip()
        noun = lambda s: re.sub(r"^(d'un|d'une|de ce|de cet|de cette|du|de la|de l'|de)\s?", "", s)
        if noun(first) != noun(second):
            return m.group(0)
        return f"{m.group(3)} {m.group(1)}{m.group(2)}"
    return pattern.sub(same, text)
