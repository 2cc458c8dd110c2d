"""French verbs: the forms of the verbs the book's sentences use, and the clauses built on them.

A clause is written in the third person singular of the indicative (``le trésor de *p* est
vide``, the lexicon's templates); :func:`inflect` gives another person (``vous``, a plural
subject) or the subjunctive, :func:`negate` the negation.

>>> inflect("révèle", "2p"), inflect("est", "3p", "subj"), inflect("paie", "2p", "subj")
('révélez', 'soient', 'payiez')
>>> negate("le tour de ce personnage est interrompu"), negate("vous pouvez bâtir", "plus")
("le tour de ce personnage n'est pas interrompu", 'vous ne pouvez plus bâtir')
>>> first_verb("la cité de {0} est complète")
(15, 'est')
"""

from __future__ import annotations

import re

__all__ = ["person_of", "inflect", "negate", "first_verb", "inflect_first", "is_verb", "PERSONS", "finite"]

PERSONS = ("3s", "2p", "3p")

# third person singular → (vous, ils, subj. il, subj. vous, subj. ils)
_IRREGULAR = {
    "est": ("êtes", "sont", "soit", "soyez", "soient"),
    "a": ("avez", "ont", "ait", "ayez", "aient"),
    "peut": ("pouvez", "peuvent", "puisse", "puissiez", "puissent"),
    "vaut": ("valez", "valent", "vaille", "valiez", "vaillent"),
    "vient": ("venez", "viennent", "vienne", "veniez", "viennent"),
    "doit": ("devez", "doivent", "doive", "deviez", "doivent"),
    "contient": ("contenez", "contiennent", "contienne", "conteniez", "contiennent"),
    "détient": ("détenez", "détiennent", "détienne", "déteniez", "détiennent"),
    "appartient": ("appartenez", "appartiennent", "appartienne", "apparteniez", "appartiennent"),
    "tient": ("tenez", "tiennent", "tienne", "teniez", "tiennent"),
    "devient": ("devenez", "deviennent", "devienne", "deveniez", "deviennent"),
    "reçoit": ("recevez", "reçoivent", "reçoive", "receviez", "reçoivent"),
    "choisit": ("choisissez", "choisissent", "choisisse", "choisissiez", "choisissent"),
    "bâtit": ("bâtissez", "bâtissent", "bâtisse", "bâtissiez", "bâtissent"),
    "finit": ("finissez", "finissent", "finisse", "finissiez", "finissent"),
    "réagit": ("réagissez", "réagissent", "réagisse", "réagissiez", "réagissent"),
    "fait": ("faites", "font", "fasse", "fassiez", "fassent"),
    "prend": ("prenez", "prennent", "prenne", "preniez", "prennent"),
    "met": ("mettez", "mettent", "mette", "mettiez", "mettent"),
    "part": ("partez", "partent", "parte", "partiez", "partent"),
    "perd": ("perdez", "perdent", "perde", "perdiez", "perdent"),
    "voit": ("voyez", "voient", "voie", "voyiez", "voient"),
    "va": ("allez", "vont", "aille", "alliez", "aillent"),
    "sait": ("savez", "savent", "sache", "sachiez", "sachent"),
    "dit": ("dites", "disent", "dise", "disiez", "disent"),
    "suit": ("suivez", "suivent", "suive", "suiviez", "suivent"),
    "construit": ("construisez", "construisent", "construise", "construisiez", "construisent"),
    "détruit": ("détruisez", "détruisent", "détruise", "détruisiez", "détruisent"),
    "jette": ("jetez", "jettent", "jette", "jetiez", "jettent"),
    "subit": ("subissez", "subissent", "subisse", "subissiez", "subissent"),
}

# Regular verbs of the first group, in the third person singular (« révèle »: révéler).
_FIRST_GROUP = {
    "compte", "existe", "révèle", "joue", "termine", "pioche", "garde", "paie", "copie", "imite", "attaque",
    "occupe", "touche", "longe", "prolonge", "donne", "arrive", "passe", "reste", "manque", "possède", "dresse",
    "trouve", "commence", "annonce", "entre", "quitte", "porte", "gagne", "coûte", "place", "pose", "mène",
    "protège", "double", "triple", "égale", "dépasse", "précède", "mélange", "remplace", "déclenche", "hante",
    "ferme", "change", "relance", "obtient", "tire", "lance", "refuse", "accepte", "montre", "cède", "taxe",
}
_FIRST_GROUP.discard("obtient")
_IRREGULAR["obtient"] = ("obtenez", "obtiennent", "obtienne", "obteniez", "obtiennent")


def _stem(verb: str) -> str:
    """The stem before ``-ez``/``-iez``: révèle → révél, paie → pay, appelle → appel."""
    stem = verb[:-1]
    if stem.endswith("i") and verb.endswith("aie"):
        stem = stem[:-1] + "y"
    stem = re.sub(r"[èê]([^aeiouyéèê]+)$", r"é\1", stem)
    return stem


def _forms(verb: str) -> tuple[str, str, str, str, str] | None:
    if verb in _IRREGULAR:
        return _IRREGULAR[verb]
    if verb in _FIRST_GROUP:
        stem = _stem(verb)
        return stem + "ez", verb + "nt", verb, stem + "iez", verb + "nt"
    return None


_ALL = {}
for _verb in [*_IRREGULAR, *_FIRST_GROUP]:
    _forms_of = _forms(_verb)
    for _form in (_verb, *_forms_of):
        _ALL.setdefault(_form, _verb)


def person_of(form: str) -> str:
    """The person a conjugated form is written in: ``3p`` for « touchent », ``2p`` for « êtes »…"""
    forms = _forms(_ALL.get(form, form))
    if forms is None or form == _ALL.get(form):
        return "3s"
    you, they, _, subj_you, subj_they = forms
    return "2p" if form in (you, subj_you) else ("3p" if form in (they, subj_they) else "3s")


def is_verb(word: str) -> bool:
    """A conjugated form of one of the known verbs (any person, either mood)."""
    return word in _ALL


def inflect(verb: str, person: str = "3s", mood: str = "ind") -> str:
    """The form of ``verb`` (given in the third person singular of the indicative) for a person
    (``3s``, ``2p`` for « vous », ``3p``) and a mood (``ind``, ``subj``); an unknown verb is kept."""
    forms = _forms(_ALL.get(verb, verb))
    if forms is None:
        return verb
    you, they, subj, subj_you, subj_they = forms
    if mood == "subj":
        return {"3s": subj, "2p": subj_you, "3p": subj_they}[person]
    return {"3s": _ALL.get(verb, verb), "2p": you, "3p": they}[person]


_TOKEN = re.compile(r"(?<![\w{])([^\W\d_]+)(?![\w'’}])")


def first_verb(text: str, start: int = 0) -> tuple[int, str] | None:
    """Where the first known conjugated verb of ``text`` is (skipping ``{n}`` placeholders)."""
    for m in _TOKEN.finditer(text, start):
        if m.group(1) in _ALL and text[max(0, m.start() - 2):m.start()] not in ("c'", "c’") and \
                not _ARTICLE_FIRST.fullmatch(text[:m.start()]):      # « l'attaque en cours a eu lieu »: a noun
            return m.start(), m.group(1)
    return None


_ARTICLE_FIRST = re.compile(r"\s*(?:l'|l’|le |la |les |un |une |des )")


def inflect_first(text: str, person: str = "3s", mood: str = "ind", start: int = 0) -> str:
    """``text`` with its first known verb (from ``start``) in another person or mood."""
    found = first_verb(text, start)
    if found is None:
        return text
    at, verb = found
    return text[:at] + inflect(verb, person, mood) + text[at + len(verb):]


def negate(clause: str, word: str = "pas") -> str | None:
    """The negation of a clause, on its first known verb: ``ne … pas`` (or ``plus``, ``jamais``);
    a reflexive ``se`` stays before the verb.  None when the clause has no known verb."""
    found = first_verb(clause)
    if found is None:
        return None
    at, verb = found
    before, after = clause[:at], clause[at + len(verb):]
    pronoun = re.search(r"\b(se|s'|vous)\s?$", before)
    if pronoun and pronoun.group(1) != "vous" or (pronoun and re.search(r"\bvous vous\s?$", before)):
        before = before[:pronoun.start()]
        verb = pronoun.group(0) + verb
    ne = "n'" if verb[:1] in "aeiouyéèêh" else "ne "
    return f"{before}{ne}{verb} {word}{after}"


_INFINITIVES = {"recevoir": "reçoit", "prendre": "prend", "mettre": "met", "détruire": "détruit", "faire": "fait",
                "voir": "voit", "dire": "dit", "construire": "construit", "devenir": "devient", "tenir": "tient",
                "obtenir": "obtient", "aller": "va", "partir": "part", "perdre": "perd", "suivre": "suit",
                "payer": "paie", "avoir": "a", "être": "est", "pouvoir": "peut", "devoir": "doit", "venir": "vient"}
_SECOND_GROUP = {"bâtir", "choisir", "embellir", "finir", "réagir", "enrichir", "remplir", "agir", "saisir"}


def finite(phrase: str, person: str = "3s") -> str:
    """An infinitive phrase with its verb conjugated: « bâtir ce quartier » → « bâtit ce quartier »
    (« vous bâtissez… » for ``2p``).  A phrase whose first word is no known verb is kept.

    >>> finite("recevoir deux pièces d'or"), finite("placer un jeton"), finite("révéler un personnage", "2p")
    ("reçoit deux pièces d'or", 'place un jeton', 'révélez un personnage')
    """
    verb, _, rest = phrase.partition(" ")
    if verb in _INFINITIVES:
        third = _INFINITIVES[verb]
    elif verb in _SECOND_GROUP:
        third = verb[:-2] + "it"
        _IRREGULAR.setdefault(third, (verb[:-1] + "ssez", verb[:-1] + "ssent", verb[:-1] + "sse",
                                      verb[:-1] + "ssiez", verb[:-1] + "ssent"))
        _ALL.setdefault(third, third)
    elif verb.endswith("er") and len(verb) > 3:
        stem = verb[:-2]
        third = re.sub(r"é([^aeiouyéèê]+)$", r"è\1", stem) + "e"
        if third not in _ALL:
            _FIRST_GROUP.add(third)
            for form in (third, *_forms(third)):
                _ALL.setdefault(form, third)
    else:
        return phrase
    return (inflect(third, person) + (" " + rest if rest else "")).strip()
