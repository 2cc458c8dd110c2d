"""A French style check for the sentences the prose generator writes.

Each rule is a plain function ``text -> [excerpt, …]``; :func:`lint` runs them all on one
sentence (reST inline text, as the book prints it: cross-references are read as the card
or declaration they name, ``code`` and **member names** as opaque words).

>>> [v.rule for v in lint("*p* ne peut pas bâtir de le quartier", cards={"Beffroi Doré"})]
['variable', 'contraction', 'phrase', 'phrase']
>>> lint("Vous ne pouvez pas bâtir le Beffroi Doré si ce quartier est dans votre cité.", cards={"Beffroi Doré"})
[]

:func:`misspelled` checks the words against a French dictionary (``pyspellchecker``'s, when it
is installed; ``None`` otherwise).
"""

from __future__ import annotations

import dataclasses
import re
from typing import Callable, Iterable

__all__ = ["Violation", "RULES", "lint", "plain", "words", "misspelled", "ENGLISH", "ELIDED"]


@dataclasses.dataclass(frozen=True)
class Violation:
    rule: str
    excerpt: str


_VOWEL = "aeiouyàâäéèêëîïôöûùüœæAEIOUYÀÂÄÉÈÊËÎÏÔÖÛÙÜŒÆ"
_ROLE = re.compile(r":rb:(\w+):`([^`<]*?)(?:\s*<[^>]*>)?`")
_CARD_ROLES = {"character", "district", "card"}


def _cards_marked(text: str, cards: set[str]) -> str:
    """Cross-references read as what they show; a card becomes ``⟦Name⟧`` (so the article rule sees it)."""
    def role(m: re.Match) -> str:
        shown = m.group(2).replace("\\", "")
        if m.group(1) in _CARD_ROLES:
            return f"⟦{shown}⟧"
        return "§" if "_" in shown else shown      # a link to a declaration, shown by its name (the reference's)
    text = _ROLE.sub(role, text)
    for name in sorted(cards, key=len, reverse=True):
        text = re.sub(r"« " + re.escape(name) + r" »|(?<![\w⟦-])" + re.escape(name) + r"(?![\w⟧-])", f"⟦{name}⟧",
                      text)
    return text


def plain(text: str, cards: Iterable[str] = ()) -> str:
    """The sentence without its markup: roles read as their text, ``code`` and **members** as ``§``."""
    text = _cards_marked(text, set(cards))
    text = re.sub(r"``[^`]*``", "§", text)
    text = re.sub(r"\*\*[^*]+\*\*", "§", text)
    return text.replace("’", "'")


# ---------------------------------------------------------------- the rules


def _variable(text: str) -> list[str]:
    """An italic single letter standing alone for a noun (« *p* ne peut pas… »): it reads as a formula.
    After its noun (« le quartier *x* ») it is a name, and allowed."""
    out = []
    for m in re.finditer(r"\*([^\W\d_])\*", text):
        before = text[:m.start()].rstrip()
        word = re.search(r"([\w']+)$", before)
        function = {"le", "la", "les", "l'", "un", "une", "des", "de", "d'", "du", "au", "aux", "et", "ou",
                    "si", "que", "qu'", "par", "pour", "dans", "sur", "sous", "parmi", "avec", "contre",
                    "devant", "chaque", "ce", "cette"}
        after = re.match(r"\s*([\w']+)", text[m.end():])
        counting = after is not None and after.group(1)[:1].islower() and after.group(1) not in _VERBS
        if (word is None or word.group(1).lower() in function or word.group(1).endswith("'")) and not counting:
            out.append(text[max(0, m.start() - 20):m.end() + 20])
    return out


# A letter followed by one of these is the subject of a clause (« *p* ne peut pas… »), not a count.
_VERBS = {"est", "n'est", "ne", "n'", "a", "peut", "vaut", "sont", "reçoit", "choisit", "joue", "révèle", "devient",
          "passe", "compte", "et", "ou"}


def _contraction(text: str) -> list[str]:
    return [m.group(0) for m in re.finditer(r"\b(?:[dD]e|[àÀ]) (?:le|les)\b(?! (?:plus|moins) )", text)]


def _elision(text: str) -> list[str]:
    """``de un``, ``que il``, ``le or``: the vowel after an elidable word."""
    out = []
    pattern = r"\b([dD]e|[qQ]ue|[lL]orsque|[pP]uisque|[jJ]usque|[nN]e|[sS]e|[lL]e|[lL]a) (?:⟦)?([" + _VOWEL + r"]\w*)"
    for m in re.finditer(pattern, text):
        if m.group(2).lower() in {"un", "une", "onze", "oui", "ouest", "yeux"} and m.group(1).lower() in {"le", "la"}:
            continue
        out.append(m.group(0))
    out += [m.group(0) for m in re.finditer(r"\b[sS]i ils?\b", text)]
    return out


_INDICATIVE = {"est", "sont", "a", "ont", "peut", "peuvent", "pouvez", "êtes", "avez", "vaut", "valent", "contient",
               "contiennent", "doit", "doivent", "vient", "viennent", "reçoit", "fait", "détient", "appartient"}
# « compte », « comptent » read the same in both moods (« tel qu'un quartier compte »)
_SUBJUNCTIVE = {"compte", "comptent", "soit", "soient", "ait", "aient", "puisse", "puissent", "puissiez", "soyez", "ayez",
                "vaille", "vaillent", "contienne", "doive", "vienne", "reçoive", "fasse", "détienne", "appartienne"}


def _mood(text: str) -> list[str]:
    """``tel que``, ``pour que``, ``sans que``, ``il faut que``, ``à moins que`` want the subjunctive.
    The first conjugated verb of the clause (skipping those of relative clauses: ``qui a volé``) is read."""
    out = []
    for m in re.finditer(r"\b(?:tel(?:le)?s? qu|pour qu|sans qu|[fF]aut qu|à moins qu)(?:e |')", text):
        clause = re.split(r"[,;:.]", text[m.end():], maxsplit=1)[0]
        tokens = re.findall(r"[\w']+", clause)
        skip = False
        for token in tokens:
            word = token.split("'")[-1].lower()
            if word in {"qui", "dont", "où"} or token.lower() in {"qu'", "que"}:
                skip = True
                continue
            if word in _INDICATIVE or word in _SUBJUNCTIVE:
                if skip:
                    skip = False
                    continue
                if word in _INDICATIVE:
                    out.append(text[m.start():m.end() + len(clause)][:80])
                break
    return out


_ARTICLE = re.compile(r"(?:\b(?:le|la|les|du|des|au|aux|Le|La|Les|Du|Des|Au|Aux)\s|\b[lL]')$")


def _article(text: str, bare: set[str]) -> list[str]:
    """A card is named with its article (« le Beffroi Doré », « l'Auberge Rouge »), proper names aside."""
    out = []
    text = re.sub(r"«[^»]*»", lambda m: "X" * len(m.group(0)), text)      # labels and quotations
    for m in re.finditer(r"⟦([^⟧]+)⟧", text):
        if m.group(1) in bare:
            continue
        before = text[:m.start()]
        if not _ARTICLE.search(before) and not before.endswith("pour nom "):     # « qui ont pour nom X » (a card of several copies)
            out.append(text[max(0, m.start() - 15):m.end()])
    return out


ENGLISH = {"the", "when", "then", "none", "true", "false", "player", "players", "card", "cards", "this", "me",
           "if", "else", "count", "filter", "any", "all", "sum", "where", "not", "and", "with", "turn", "city",
           "district", "character", "gold", "hand", "draw", "build", "set", "let", "choose"}


def _english(text: str) -> list[str]:
    return [w for w in re.findall(r"[^\W\d_]+", re.sub(r"⟦[^⟧]*⟧|«[^»]*»|\*[^*]+\*|§", " ", text))
            if w.lower() in ENGLISH]


def _doubled(text: str) -> list[str]:
    out = []
    for m in re.finditer(r"(?<![\w'])((?:[^\W\d_]+ )?[^\W\d_]+) \1(?![\w'])", re.sub(r"⟦[^⟧]*⟧|\*[^*]+\*", "X", text),
                         flags=re.IGNORECASE):
        if m.group(1).lower() not in {"vous", "nous"} and not (" " in m.group(1) and "X" in m.group(1)):
            out.append(m.group(0))      # (two names in a row, « joueurs *a* joueurs *b* », are not a repeat)
    return out


def _tautology(text: str) -> list[str]:
    """A filter that is only an equality: « les joueurs qui sont le joueur qui a volé… », « le seul
    quartier de votre cité qui est la carte » say one value as a set of them."""
    out = [m.group(0) for m in re.finditer(r"\bqui sont (?:le|la|l')(?=[\s⟦]|\w)\s?\S*", text)]
    out += [m.group(0) for m in re.finditer(r"\b(?:le|la) seule? [^,;:.]*?\bqui est (?:le|la|l')\s?\S*", text)]
    return out


def _boolean(text: str) -> list[str]:
    """A yes/no value written as a word of logic (« (assassiné : vrai) »): a lexicon template says it in
    words, ``{1?…|…}``."""
    return [m.group(0) for m in re.finditer(r"(?<![\w»]): (?:vrai|faux)\b", text)]


def _circular(text: str) -> list[str]:
    """A name defined as itself (« le détenteur de la Couronne vaut le détenteur de la Couronne »)."""
    pattern = r"(?<![\w'])((?:le|la|les|l')(?: |(?<=l'))[^,;:.()]{3,}?) (?:vaut|valent|est|sont) \1(?= \(|[.,;)]|$)"
    return [m.group(0) for m in re.finditer(pattern, text) if "§" not in m.group(0)]     # (two member names)


def _other_than(text: str) -> list[str]:
    """« tel que vous ne soyez pas ce joueur » says « autre que vous » — unless the condition goes on to say
    which one it is (« … et que (ce joueur soit le joueur qui révèle ce personnage ou …) »), where « autres
    que vous qui sont ce joueur ou … » would read worse (:func:`checker.prose.exprs._other_than`)."""
    pattern = r"\btel(?:le)?s? que [^,;]*?\bne (?:soit|soient|soyez) pas (?:ce|cet|cette|ces) [^\W\d_]+\b(?! et que \()"
    return [m.group(0) for m in re.finditer(pattern, text)]


def _apposition(text: str) -> list[str]:
    """A noun that stands before a letter (« le signe du nombre *n* ») put before a noun phrase:
    « le signe du nombre l'écart de… »."""
    return [m.group(0) for m in re.finditer(r"\b(?:du|le|un) nombre (?:le|la|les|l'|un|une)(?=[\s⟦']|\w)",
                                            text)]


def _prepositions(text: str) -> list[str]:
    """Two prepositions in a row (« l'autour de du rempart », « de des cartes »)."""
    pattern = r"(?<![\w-])(?:[dD]e|[dD]') ?(?:du|des|de|d')(?![\w-])|(?<![\w-])à (?:au|aux)\b(?! (?:plus|moins)\b)"
    return [m.group(0) for m in re.finditer(pattern, re.sub(r"«[^»]*»", "X", text))]


def _identifier(text: str) -> list[str]:
    """A name of the spec left as written (« choix_à_deux »): the book says it in words."""
    return re.findall(r"[^\W\d_]+(?:_[^\W\d_]+)+", re.sub(r"⟦[^⟧]*⟧|«[^»]*»|§", " ", text))


def _balanced(text: str) -> list[str]:
    out = []
    for open_, close in (("(", ")"), ("«", "»"), ("[", "]")):
        depth = 0
        for char in text:
            depth += (char == open_) - (char == close)
            if depth < 0:
                break
        if depth != 0:
            out.append(f"{open_}{close}")
    return out


def _phrase(text: str) -> list[str]:
    """A sentence starts with a capital letter and ends with a period (a colon before a list)."""
    out = []
    first = re.sub(r"^[«(\s]+", "", text)[:1]
    if not (first.isupper() or first.isdigit() or first == "⟦"):
        out.append("début : " + text[:25])
    if not text.rstrip().endswith((".", ":", "!", "?")):
        out.append("fin : " + text[-25:])
    return out


RULES: dict[str, Callable[[str], list[str]]] = {
    "variable": _variable,
    "contraction": _contraction,
    "elision": _elision,
    "subjonctif": _mood,
    "english": _english,
    "doubled": _doubled,
    "tautology": _tautology,
    "boolean": _boolean,
    "circular": _circular,
    "other-than": _other_than,
    "apposition": _apposition,
    "prepositions": _prepositions,
    "identifier": _identifier,
    "balanced": _balanced,
    "phrase": _phrase,
}


def lint(text: str, cards: Iterable[str] = (), bare: Iterable[str] = ()) -> list[Violation]:
    """Every violation of the rules in one sentence. ``cards``: the names of the spec's cards;
    ``bare``: those that take no article (proper names)."""
    marked = plain(text, cards)
    out = [Violation(rule, excerpt) for rule, check in RULES.items() for excerpt in check(marked)]
    out += [Violation("article", excerpt) for excerpt in _article(marked, set(bare))]
    order = list(RULES) + ["article"]
    return sorted(out, key=lambda v: order.index(v.rule))


# ---------------------------------------------------------------- spelling

# The elided forms the dictionary lists without their apostrophe; a game's own words are in its lexicon (« mots »).
ELIDED = {"lorsqu", "puisqu", "jusqu", "quelqu", "aujourd"}


def words(text: str, cards: Iterable[str] = ()) -> list[str]:
    """The words of a sentence that a dictionary should know: no card names, no markup, no quotations,
    no variables, no member names."""
    marked = plain(text, cards)
    marked = re.sub(r"⟦[^⟧]*⟧|«[^»]*»|\*[^*]+\*|§|:\w+:`[^`]*`", " ", marked)
    return [w for w in re.findall(r"[^\W\d_]+", marked.replace("'", " ").replace("-", " ")) if len(w) > 1]


def misspelled(texts: Iterable[str], cards: Iterable[str] = (), game_words: Iterable[str] = ()) -> dict[str, int] | None:
    """Words no French dictionary knows (nor ``game_words``, the lexicon's « mots »), with how often each
    occurs; None when no dictionary is installed."""
    try:
        from spellchecker import SpellChecker
    except ImportError:
        return None
    known = SpellChecker(language="fr", distance=1)
    allowed = ELIDED | {w.lower() for w in game_words}
    counts: dict[str, int] = {}
    for text in texts:
        for word in words(text, cards):
            lower = word.lower()
            if lower in allowed or lower in known or word in known:
                continue
            counts[word] = counts.get(word, 0) + 1
    return counts
