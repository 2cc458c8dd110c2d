"""The words of a simulation's report, charts and balance pages in the spec's language: a kind of card
by the lexicon's noun (« Personnages », not ``Character``), the quantity that says who had a card by the
lexicon's term (« le joueur qui a choisi la carte », not ``détenteur``)."""

from __future__ import annotations

from checker.prose import Lexicon, capitalize, plural
from checker.prose.french import bare, contract

__all__ = ["report_names", "kind_plural"]


def kind_plural(lexicon: Lexicon, kind: str) -> str:
    """``Personnages`` for the kind of characters (the identifier when the lexicon does not name it).

    >>> kind_plural(Lexicon(types={"Character": "le personnage"}), "Character")
    'Personnages'
    """
    noun = lexicon.types.get(kind)
    return capitalize(bare(plural(noun))) if noun else kind


def report_names(lexicon: Lexicon | None, summary: dict) -> dict[str, str]:
    """identifier -> words, for the categories (kinds of card) and controllers a summary's rates name."""
    if lexicon is None:
        return {}
    names: dict[str, str] = {}
    for r in summary.get("rates", ()):
        category, controller = r["category"], r.get("controller")
        if category not in ("seat", "agent"):
            names[category] = kind_plural(lexicon, category)
        term = lexicon.terms.get(controller) if controller else None
        if term is not None:
            names[controller] = contract(term.text.format("la carte", *[""] * 3) if "{" in term.text
                                         else f"{term.text} de la carte")
    return names
