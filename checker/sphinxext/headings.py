"""How the player's book names a procedure: by what it does, its parameters by their role (« Le joueur joue
le tour du personnage »), never by their letters; the chapters' headings and the diagrams' titles."""

from __future__ import annotations

from checker.front.types import INT
from checker.prose import capitalize, humanize
from checker.prose.french import bare, contract, feminine
from checker.sphinxext.book import Book

__all__ = ["procedure_heading"]


def procedure_heading(book: Book, name: str) -> str:
    """A procedure as the player's book names it, its parameters by their role (« Le joueur joue le tour
    du personnage »), not by their letters."""
    proc = book.program.procedures[name]
    label = book.lexicon.procedures.get(name)
    return capitalize(contract(label.format(*_param_nouns(book, proc.params, label), *[""] * 4))) if label else \
        capitalize(humanize(name))


def _param_nouns(book: Book, params, template: str) -> list[str]:
    """How a heading of the player's book names a procedure's parameters, without their letters:
    by their type, « le joueur », then « un autre joueur » for the next one of the same type in the
    order ``template`` reads them; a number is « donné » after the noun before it (« appeler les
    personnages de rang donné »)."""
    seen: set[str] = set()
    out = [""] * len(params)
    order = sorted(range(len(params)), key=lambda i: (template.find("{%d}" % i) % (len(template) + 1), i))
    for i in order:
        ty = book.prose._resolve_type(params[i].type)
        if ty == INT:
            out[i] = "donné"
            continue
        noun = book.prose.type_noun(ty)
        out[i] = f"{'une autre' if feminine(noun) else 'un autre'} {bare(noun)}" if noun in seen else noun
        seen.add(noun)
    return out
