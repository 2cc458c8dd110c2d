"""reST text for the pages of the rules: cards, kinds of cards, chapters, definitions.

Each ``render_*`` function takes a :class:`~checker.sphinxext.book.Book` and returns
reST text; the ``rb:auto`` directive parses it.  Tests compare that text with golden
files, so what the book says is reviewed as a diff.
"""

from __future__ import annotations

import dataclasses
import re

from checker.front import ast
from checker.prose import Ctx, capitalize, humanize, precondition, rst_escape
from checker.prose.names import parameter_nouns
from checker.sphinxext import rst
from checker.sphinxext.book import FLOW_PAGES, Book, card_objtype, slug

__all__ = ["plain_body", "unlinked", "render_card", "render_kind", "render_chapter", "describe", "power_block", "rule_block",
           "precondition", "quotes", "source_block", "table_grid"]


# ---------------------------------------------------------------- shared pieces


def quotes(book: Book, cites, label: str = "Dans le livret") -> list[str]:
    """The sentences a declaration encodes, quoted, in a box."""
    cites = list({c.quote: c for c in cites}.values())
    if not cites:
        return []
    content = [f"**{label}**", "", *rst.bullets([book.quote(c) for c in cites])]
    return rst.directive("container", "rb-livret", None, content)


def source_block(book: Book, span, caption: bool = True) -> list[str]:
    """The spec text of a declaration, highlighted."""
    options = {"caption": f"{span.file}, lignes {span.line} à {span.end_line}" if caption else None,
               "lineno-start": span.line}
    return rst.directive("code-block", "rulebook", options, book.source_lines(span))


def _decision_ref(book: Book):
    return lambda name: book.link("decision", name)


def _facets(book: Book, power: ast.PowerDecl, ctx: Ctx) -> str:
    first, *rest = book.prose.power_facets(power, ctx)
    return " · ".join([f"**{capitalize(first)}**", *rest]) + "."


def power_block(book: Book, card: ast.CardDecl, power: ast.PowerDecl) -> list[str]:
    """A power: when and how often, its condition, its steps, the sentences it encodes."""
    prose = book.prose
    ctx = book.card_ctx(card)
    pctx = prose.power_ctx(power, ctx)
    content = [_facets(book, power, ctx), ""]
    condition = prose.requirement(power, pctx)
    if condition:
        content += [rst.sentence(f"**Condition** : {condition}"), ""]
    steps = prose.steps(power.body, pctx)
    decisions = [n for n, _ in power.decisions]
    _drop_decisions(steps, set(decisions))
    content += rst.steps(steps, _decision_ref(book))
    if decisions:
        content += [rst.sentence("Applique " + ", ".join(book.link("decision", d) for d in decisions)), ""]
    content += quotes(book, [*power.cites, *rst.cites_of(steps)])
    options = {"label": rst_escape(power.summary or humanize(power.name)), "where": book.where(power.span)}
    return rst.directive("rb:power", f"{card.name}.{power.name}", options, content)


def _drop_decisions(steps, names: set[str]) -> None:
    """Decisions the power states once as a clause are not repeated on its steps."""
    for step in steps:
        step.decisions = [d for d in step.decisions if d not in names]
        _drop_decisions(step.children, names)


def rule_block(book: Book, rule: ast.RuleDecl, card: ast.CardDecl | None = None) -> list[str]:
    """A rule: each head as a sentence, what its letters stand for, what it overrides, its sentences."""
    prose = book.prose
    ctx = book.card_ctx(card)
    content: list[str] = []
    for head in rule.heads:
        content += [prose.head(head, ctx), ""]
        legend = prose.legend(head.pattern, ctx)
        if legend and head.kind in ("permit", "forbid"):
            content += [f"*Où* {legend}.", ""]
    if rule.overrides:
        content += [rst.sentence("L'emporte sur " + ", ".join(book.link("rule", n) for n, _ in rule.overrides)), ""]
    if rule.decisions:
        content += [rst.sentence("Applique " + ", ".join(book.link("decision", n) for n, _ in rule.decisions)), ""]
    content += quotes(book, rule.cites)
    return rst.directive("rb:rule", rule.name, {"where": book.where(rule.span)}, content)


def _params_ctx(book: Book, params, body=None, template: str | None = None) -> Ctx:
    """The context of a declaration's parameters, named as a procedure's heading (``template``, its wording in
    the lexicon) names them (:func:`~checker.prose.names.parameter_nouns`): a number its steps compare with an
    attribute, or that the heading puts after a noun, reads « le rang donné », the second of two players
    « l'autre joueur », not by their letters."""
    ctx = Ctx()
    for param, noun in zip(params, parameter_nouns(book.prose, params, body, template)):
        ctx = ctx.bind(param.name, book.prose._resolve_type(param.type), noun=noun)
    return ctx


def procedure_ctx(book: Book, proc: ast.ProcedureDecl) -> Ctx:
    """The context of a procedure's steps: its parameters named as its heading names them."""
    return _params_ctx(book, proc.params, proc.body, book.lexicon.procedures.get(proc.name))


def _signature(name: str, params) -> str:
    return f"{name}({', '.join(p.name for p in params)})"


def procedure_block(book: Book, proc: ast.ProcedureDecl) -> list[str]:
    ctx = procedure_ctx(book, proc)
    steps = book.prose.steps(proc.body, ctx)
    label = book.lexicon.procedures.get(proc.name)
    content = rst.steps(steps, _decision_ref(book)) + quotes(book, rst.cites_of(steps))
    if precondition(proc) is not None:      # where the flow may call it: its precondition, before its steps
        content = [f"Seulement si {book.prose.cond(proc.requires, ctx)}.", ""] + content
    options = {"label": rst_escape(_label(label, proc.params) if label else humanize(proc.name)),
               "where": book.where(proc.span), "signature": _signature(proc.name, proc.params)}
    return rst.directive("rb:procedure", proc.name, options, content)


def _label(template: str, params) -> str:
    text = template.format(*[p.name for p in params], *[""] * 4)
    first = text.split(" ", 1)[0]
    return text if first in {p.name for p in params} else capitalize(text)


def quantity_block(book: Book, q: ast.QuantityDecl) -> list[str]:
    """A quantity: its default value, and the rules that change it."""
    prose = book.prose
    ctx = _params_ctx(book, q.params)
    args = [f"*{p.name}*" for p in q.params]
    term = prose.term_text(q.name, args, prose._resolve_type(q.type))
    content = [rst.sentence(f"Par défaut, {prose.default_clause(q, ctx)}"), ""]
    changed = [r for r in book.program.rules.values() if any(h.pattern.name == q.name for h in r.heads)]
    if changed:
        refs = [book.link("rule", r.name) + (f" ({book.card_ref(r.card)})" if r.card else "") for r in changed]
        content += ["**Modifiée par** : " + ", ".join(refs) + ".", ""]
    content += quotes(book, q.cites)
    options = {"label": rst_escape(_plain(term) if term.startswith("*") else capitalize(_plain(term))),
               "where": book.where(q.span),
               "signature": _signature(q.name, q.params)}
    return rst.directive("rb:quantity", q.name, options, content)


def _plain(text: str) -> str:
    return text.replace("*", "")


def table_block(book: Book, table: ast.TableDecl) -> list[str]:
    """A table: a grid when it has two keys (rows by the first, columns by the second)."""
    content = table_grid(book, table) + quotes(book, table.cites)
    term = book.prose.term_text(table.name, [f"*{p.name}*" for p in table.params], None)
    options = {"label": rst_escape(capitalize(_plain(term))), "where": book.where(table.span),
               "signature": _signature(table.name, table.params)}
    return rst.directive("rb:table", table.name, options, content)


def table_grid(book: Book, table: ast.TableDecl) -> list[str]:
    """A table's values as a list-table: a grid when it has two keys."""
    content: list[str] = []
    keys = [[_cell(book, k) for k in row.keys] for row in table.rows]
    values = [_cell(book, row.value) for row in table.rows]
    names = [humanize(p.name) for p in table.params]
    if len(table.params) == 2:
        rows = list(dict.fromkeys(k[0] for k in keys))
        cols = list(dict.fromkeys(k[1] for k in keys))
        cell = {(k[0], k[1]): v for k, v in zip(keys, values)}
        header = [f"{capitalize(names[0])} \\\\ {names[1]}", *[f"{c} {names[1]}" for c in cols]]
        content += rst.list_table(header, [[r, *[cell.get((r, c), "—") for c in cols]] for r in rows])
    else:
        header = [capitalize(n) for n in names] + ["Valeur"]
        content += rst.list_table(header, [[*k, v] for k, v in zip(keys, values)])
    return content


def _cell(book: Book, expr) -> str:
    return book.prose.expr(expr, Ctx())


def describe(book: Book, role: str, name: str) -> list[str]:
    """The block that describes one declaration, by its role."""
    program = book.program
    if role == "procedure":
        return procedure_block(book, program.procedures[name])
    if role == "quantity":
        return quantity_block(book, program.quantities[name])
    if role == "table":
        return table_block(book, program.tables[name])
    if role == "rule":
        return rule_block(book, program.rules[name])
    raise KeyError(role)


# ---------------------------------------------------------------- cards


def _attr_text(book: Book, card: ast.CardDecl, name: str) -> str:
    value = book.attr(card, name)
    if value is None or value is False:
        return ""
    if value is True:
        return "oui"
    if isinstance(value, str) and value in book.program.enum_members:
        return humanize(value)
    return rst_escape(str(value))


def _attr_names(book: Book, kind: str) -> list[str]:
    decl = book.program.kinds.get(kind)
    return [a.name for a in decl.attrs] if decl else []


def _attr_label(book: Book, name: str) -> str:
    noun = book.lexicon.attribute_noun(name)
    return capitalize(noun.split(" ", 1)[-1] if noun.startswith(("le ", "la ", "les ")) else
                      noun[2:] if noun.startswith("l'") else noun)


def render_card(book: Book, name: str) -> str:
    """The page of one card: its attributes, powers, rules, clarifications and source."""
    program = book.program
    card = program.cards[name]
    lines = rst.title(name)
    facts = [f"**{_attr_label(book, a)}** : {_attr_text(book, card, a)}" for a in _attr_names(book, card.kind)
             if _attr_text(book, card, a) and a != "copies"]
    content = [" · ".join(facts), ""] if facts else []
    content += quotes(book, card.cites, "Sur la carte et dans le livret")
    for power in card.powers:
        content += power_block(book, card, power)
    for rule in program.rules_of_card(name):
        content += rule_block(book, rule, card)
    options = {"label": rst_escape(name), "annotation": capitalize(book.kind_noun(card.kind).split(" ", 1)[-1]),
               "where": book.where(card.span)}
    lines += rst.directive(f"rb:{card_objtype(card.kind)}", name, options, content)
    lines += _touches(book, card)
    lines += rst.title("Source", "-")
    lines += source_block(book, card.span)
    return "\n".join(lines)


def _touches(book: Book, card: ast.CardDecl) -> list[str]:
    """Clarifications, precedences and the declarations elsewhere that name the card."""
    program = book.program
    lines: list[str] = []
    decisions = book.decisions_of(card)
    if decisions:
        lines += rst.title("Précisions", "-")
        for name in decisions:
            decision = program.decisions[name]
            lines += [f"- {book.link('decision', name)} — {rst_escape(decision.text)}", ""]
    precedences = book.precedences_of(card)
    if precedences:
        lines += rst.title("Préséances", "-")
        for p in precedences:
            lines += [f"- {book.ref(p)} : {_subject(book, p.winner)} l'emporte sur {_subject(book, p.loser)}.", ""]
    mentions = book.mentions_of(card)
    if mentions:
        lines += rst.title("Mentionné ailleurs", "-")
        lines += rst.bullets([_mention(book, m) for m in mentions])
    return lines


def _subject(book: Book, subject: ast.Subject) -> str:
    """A precedence's side as a phrase: « le pouvoir « Recevoir… » de la carte », or the rule's link."""
    if subject.card:
        card = book.program.cards.get(subject.card)
        power = next((x for x in card.powers if x.name == subject.name), None) if card is not None else None
        summary = (power.summary or humanize(power.name)).rstrip(". ") if power is not None else subject.name
        link = f":rb:power:`{rst_escape(summary)} <{subject.card}.{subject.name}>`"
        return f"le pouvoir « {link} » de {book.prose.card_np(subject.card)}"
    return book.link("rule", subject.name)


def _mention(book: Book, decl) -> str:
    ref = book.ref(decl)
    if isinstance(decl, ast.RuleDecl) and decl.card:
        return f"{ref} ({book.card_ref(decl.card)})"
    return ref


def render_kind(book: Book, kind: str) -> str:
    """The index of one kind of card: a table of every card, and the pages of those with effects."""
    program = book.program
    cards = program.cards_of(kind)
    lines = rst.title(book.kind_plural(kind))
    attrs = [a for a in _attr_names(book, kind)]
    header = ["Nom", *[_attr_label(book, a) for a in attrs], "Effets"]
    rows = []
    for card in cards:
        name = book.card_ref(card.name) if book.has_page(card) else rst_escape(card.name)
        effects = [rst_escape(p.summary or humanize(p.name)) for p in card.powers]
        if not effects:
            effects = [book.prose.head(h, book.card_ctx(card)) for r in program.rules_of_card(card.name)
                       for h in r.heads][:1]
        rows.append([name, *[_attr_text(book, card, a) for a in attrs], " ; ".join(effects)])
    with_page = sum(1 for c in cards if book.has_page(c))
    lines += [f"{len(cards)} cartes, dont {with_page} avec une page à elles (pouvoirs ou règles).", ""]
    lines += rst.list_table(header, rows, css="rb-cards")
    pages = [f"{book.kind_slug(kind)}/{slug(c.name)}" for c in cards if book.has_page(c)]
    if pages:
        lines += rst.directive("toctree", "", {"maxdepth": 1, "hidden": True}, pages)
    return "\n".join(lines)


# ---------------------------------------------------------------- chapters of the rules


def render_chapter(book: Book, key: str) -> str:
    """A chapter of the rules (setup, draft, turn, end): its procedures, rules, quantities and tables."""
    titles = dict(FLOW_PAGES)
    lines = rst.title(titles[key])
    claimed = book.chapter(key)
    sections = (("procedure", "Déroulement"), ("rule", "Règles"), ("table", "Tables"), ("quantity", "Définitions"))
    if key == "draft":
        sections = (("procedure", "Déroulement"), ("table", "Tables par nombre de joueurs"), ("rule", "Règles"),
                    ("quantity", "Définitions"))
    for role, heading in sections:
        names = [n for r, n in claimed if r == role]
        if not names:
            continue
        lines += rst.title(heading, "-")
        for name in names:
            lines += describe(book, role, name)
    if key == "end":
        lines += _card_bonuses(book)
    return "\n".join(lines)


def _card_bonuses(book: Book) -> list[str]:
    """Rules of cards that change the score: one line each, linked to the card."""
    score = [q for q in (book.game_field("score"), book.game_field("tiebreak")) if q]
    rows = []
    for rule in book.program.rules.values():
        if rule.card is None:
            continue
        for head in rule.heads:
            if head.pattern.name in score:
                card = book.program.cards[rule.card]
                rows.append(f"{book.card_ref(rule.card)} — {book.prose.head(head, book.card_ctx(card))} "
                            f"({book.link('rule', rule.name)})")
    if not rows:
        return []
    return rst.title("Bonus des cartes", "-") + rst.bullets(rows)


# ---------------------------------------------------------------- text a player reads

def _cleared(value) -> bool:
    return isinstance(value, ast.NoneLit) or (isinstance(value, (ast.IntLit, ast.BoolLit)) and not value.value)


def plain_body(body) -> tuple:
    """A block without its bookkeeping: resets, logs and a variable put back to 0, false or none
    (« remettre à 0 »); setting one to true or to a number stays (« la fin de la partie est annoncée »)."""
    out = []
    for s in body:
        if isinstance(s, (ast.Reset, ast.Log)) or (isinstance(s, ast.SetVar) and _cleared(s.value)):
            continue
        if isinstance(s, ast.If):
            s = dataclasses.replace(s, then=plain_body(s.then), else_=plain_body(s.else_))
        elif isinstance(s, (ast.For, ast.Repeat)):
            s = dataclasses.replace(s, body=plain_body(s.body))
        out.append(s)
    return tuple(out)


_LINK = re.compile(r"\s*\(:rb:(?:action|procedure):`[^`]*`\)")


def unlinked(text: str) -> str:
    """A sentence without its links to declarations (« (détail) », « (bâtir) »): a player reads the
    rule, not the name the spec gives it."""
    return _LINK.sub("", text)
