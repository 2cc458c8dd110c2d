"""The player's book (livre de règles): the rules as a player reads them, generated from the spec.

The same declarations as the designer's reference (:mod:`checker.sphinxext.render`), told without
what only a rule designer needs: no spec source, no declaration names, no quotations of the
printed rules, no decisions, no bookkeeping (counters put back to zero, flags reset).  A chapter
reads as numbered steps, then what may and may not be done, grouped by action; the cards as one
section each, with a link to the card's page in the reference.
"""

from __future__ import annotations

from checker.front import ast
from checker.front.types import INT, Coll
from checker.prose import Step, capitalize, humanize, rst_escape
from checker.prose.context import Binding
from checker.prose.names import worded
from checker.sphinxext import rst
from checker.sphinxext.book import FLOW_PAGES, Book
from checker.sphinxext.headings import procedure_heading
from checker.sphinxext.render import (_attr_names, _attr_label, _attr_text, _params_ctx, plain_body, precondition,
                                      procedure_ctx, table_grid, unlinked)

__all__ = ["render_player_chapter", "render_player_cards", "render_player_roster", "PLAYER_DIR"]

PLAYER_DIR = "livre"


def _no_decisions(steps: list[Step]) -> list[Step]:
    """Steps as a player reads them: no decisions, no links to declarations."""
    for step in steps:
        step.decisions = []
        step.text = unlinked(step.text)
        _no_decisions(step.children)
    return steps


def _procedure(book: Book, name: str) -> list[str]:
    """A procedure's steps under its heading, after its precondition (« Seulement si … ») when it has one."""
    proc = book.program.procedures[name]
    ctx = procedure_ctx(book, proc)
    steps = _no_decisions(book.prose.steps(plain_body(proc.body), ctx))
    if not steps:
        return []
    lines = rst.title(procedure_heading(book, name), "~")
    if precondition(proc) is not None:
        lines += [rst.sentence(f"Seulement si {unlinked(book.prose.cond(proc.requires, ctx))}"), ""]
    return lines + rst.steps(steps, lambda d: "")


def _rules(book: Book, names: list[str]) -> list[str]:
    """Rules as sentences, grouped by what they permit or forbid (« Bâtir », « Score »)."""
    groups: dict[str, list[str]] = {}
    for name in names:
        rule = book.program.rules[name]
        card = book.program.cards.get(rule.card) if rule.card else None
        for head in rule.heads:
            text = book.prose.head(head, book.card_ctx(card))
            groups.setdefault(head.pattern.name, []).append(text)
    lines: list[str] = []
    for action, texts in groups.items():
        lines += rst.title(capitalize(humanize(action)), "~") + rst.bullets(list(dict.fromkeys(texts)))
    return lines


def _quantities(book: Book, names: list[str]) -> list[str]:
    """The quantities a card changes (the building permit, a score): their default, and which cards."""
    prose = book.prose
    lines = []
    for name in names:
        q = book.program.quantities[name]
        changed = [r for r in book.program.rules.values() if r.card and any(h.pattern.name == name for h in r.heads)]
        if not changed:
            continue
        cards = ", ".join(dict.fromkeys(book.card_ref(r.card) for r in changed))
        lines.append(rst.sentence(f"Par défaut, {prose.default_clause(q, _params_ctx(book, q.params))}")
                     + f" Modifié par : {cards}.")
    return rst.bullets(lines)


def render_player_chapter(book: Book, arg: str) -> str:
    """``KEY [PROCEDURE]``: a chapter of the player's book — a diagram of the procedure when one is
    named, then the chapter's steps, its tables, what may and may not be done."""
    from checker.sphinxext.diagram import render_diagram
    key, _, drawn = arg.partition(" ")
    lines = rst.title(dict(FLOW_PAGES)[key])
    if drawn.strip():
        lines += rst.title("En un coup d'œil", "-") + render_diagram(book, drawn.strip()).split("\n") + [""]
    claimed = book.chapter(key)
    names = {role: [n for r, n in claimed if r == role] for role in ("procedure", "table", "rule", "quantity")}
    body: list[str] = []
    for name in names["procedure"]:
        body += _procedure(book, name)
    if body:
        lines += rst.title("Déroulement", "-") + body
    structure = _structure_types(book)
    for name in names["table"]:
        table = book.program.tables[name]
        if any(p.type.name in structure for p in table.params if isinstance(p.type, ast.TypeName)):
            continue        # keyed by a card's structure (a tile's ports): geometry, in the designer's reference
        term = book.prose.term_text(table.name, [f"*{p.name}*" if worded(Binding(p.name, None)) else
                                                 book.prose.type_noun(book.prose._resolve_type(p.type))
                                                 for p in table.params], None)
        lines += rst.title(capitalize(term.replace("*", "")), "-") + table_grid(book, table)
    if names["rule"]:
        lines += rst.title("Règles", "-") + _rules(book, names["rule"])
    quantities = _quantities(book, names["quantity"])
    if quantities:
        lines += rst.title("Ce que les cartes changent", "-") + quantities
    if key == "end":
        lines += _score_bonuses(book)
    return "\n".join(lines)


def _structure_types(book: Book) -> set[str]:
    """The types of a card's structure: the elements of a kind's set-valued attribute (a tile's parts, the
    ports they touch), which the rules compute with and no player reads on a card."""
    out = set()
    for kind in book.program.kinds.values():
        for attr in kind.attrs:
            ty = book.prose._resolve_type(attr.type)
            if isinstance(ty, Coll) and getattr(ty.elem, "name", None):
                out.add(ty.elem.name)
    return out


def _score_bonuses(book: Book) -> list[str]:
    score = [q for q in (book.game_field("score"), book.game_field("tiebreak")) if q]
    rows = [f"{book.card_ref(rule.card)} — {book.prose.head(head, book.card_ctx(book.program.cards[rule.card]))}"
            for rule in book.program.rules.values() if rule.card for head in rule.heads
            if head.pattern.name in score]
    return rst.title("Bonus des cartes", "-") + rst.bullets(rows) if rows else []


def render_player_cards(book: Book, kind: str) -> str:
    """Every card of a kind as a player reads it: what is printed on it, then what it does."""
    prose = book.prose
    lines = rst.title(book.kind_plural(kind))
    plain = []
    # a set-valued attribute is the card's structure (a tile's parts and the ports they touch), the geometry
    # the rules compute with, not what a player reads on the card: the designer's reference lists it
    structure = {a.name for a in book.program.kinds[kind].attrs if isinstance(book.prose._resolve_type(a.type), Coll)}
    for card in book.program.cards_of(kind):
        facts = [f"**{_attr_label(book, a)}** : {_attr_text(book, card, a)}" for a in _attr_names(book, kind)
                 if _attr_text(book, card, a) and a != "copies" and a not in structure]
        if not book.has_page(card):
            plain.append(f"**{rst_escape(card.name)}** — " + " · ".join(facts) if facts else rst_escape(card.name))
            continue
        lines += rst.title(rst_escape(card.name), "-")
        lines += [" · ".join(facts), ""] if facts else []
        printed = list(dict.fromkeys(book.shown(c) for c in card.cites))
        for quote in printed:                                          # the card's text, as printed
            lines += [f"*« {quote} »*", ""]
        ctx = book.card_ctx(card)
        for power in card.powers:
            pctx = prose.power_ctx(power, ctx)
            label = rst_escape(power.summary or humanize(power.name))
            first, *rest = prose.power_facets(power, ctx)
            lines += [rst.sentence(f"**{label.rstrip('.')}** — " + " · ".join([capitalize(first), *rest])), ""]
            condition = prose.requirement(power, pctx)
            if condition:
                lines += [rst.sentence(f"*Condition* : {condition}"), ""]
            lines += rst.steps(_no_decisions(prose.steps(plain_body(power.body), pctx)), lambda d: "")
        lines += rst.bullets([prose.head(h, ctx) for r in book.program.rules_of_card(card.name) for h in r.heads])
        lines += [f"Dans la référence : {book.card_ref(card.name)}.", ""]
    if plain:
        lines += rst.title("Sans effet particulier", "-") + rst.bullets(plain)
    return "\n".join(lines)


def render_player_roster(book: Book, kind: str) -> str:
    """``player-roster KIND``: every card of a kind with powers or rules in one line — its rank or cost, then
    what its powers do (their summaries) or, for a card with rules only, its printed text — for the reader
    who learns the game; the precise rules are on the kind's player page."""
    rows = []
    for card in book.program.cards_of(kind):
        if not book.has_page(card):
            continue
        numbers = [a.name for a in book.program.kinds[kind].attrs if a.name != "copies"
                   and book.prose._resolve_type(a.type) == INT and _attr_text(book, card, a.name)]
        label = f"{_attr_label(book, numbers[0]).lower()} {_attr_text(book, card, numbers[0])}" if numbers else ""
        said = [rst_escape(p.summary).rstrip(".") for p in card.powers if p.summary]
        text = " ; ".join(said) if said else " ".join(f"« {book.shown(c)} »" for c in dict.fromkeys(card.cites))
        if not text:
            continue
        rows.append(f"{book.card_ref(card.name)}" + (f" ({label})" if label else "") + " — "
                    + (text if text.endswith("»") else rst.sentence(text)))
    return "\n".join(rst.bullets(rows))
