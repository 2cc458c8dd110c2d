"""Hover text: what a name is, in the French the book uses, with the sentences it encodes.

The prose comes from :class:`checker.prose.Prose`, the generator of the rulebook, given
the checked program and the book's lexicon; only the frame (signature, headings,
quotations) is written here, in Markdown.  A text is capped at :data:`MAX_LINES` lines.
"""

from __future__ import annotations

from typing import Callable

from checker.front import ast
from checker.front.check import CheckResult
from checker.lsp.index import GLOBAL_KINDS, Binding, Index, Symbol
from checker.front.types import KindT
from checker.prose import (Ctx, Lexicon, Prose, Step, UnsupportedNode, capitalize, cites_of, flatten_steps, humanize,
                           precondition)

__all__ = ["Describer", "MAX_LINES", "MAX_QUOTES"]

MAX_LINES = 60
MAX_QUOTES = 8

BUILTINS = {
    "me": "the player using the power (« vous »); only inside a power",
    "this": "the card whose body this is; only inside a card",
    "players": "every player, in seat order (a pile of Player)",
    "player_count": "the number of players (Int)",
    "left": "left(p): the neighbour on p's left",
    "right": "right(p): the neighbour on p's right",
    "seats_from": "seats_from(p): every player, clockwise from p",
    "selected": "selected(Kind): the cards of that kind in this game's configuration",
    "least": "least(a, b): the smaller of two numbers",
    "greatest": "greatest(a, b): the larger of two numbers",
    "half": "half(n): half of n, rounded down",
}
TYPES = {"Int": "a whole number", "Bool": "true or false", "Text": "a text", "Player": "a player"}


def type_text(t: ast.TypeExpr | None) -> str:
    """A type as written in the spec.

    >>> from checker.base.source import Span
    >>> at = Span("f", 1, 1, 1, 1)
    >>> type_text(ast.OptionalType(ast.SetType(ast.TypeName("District", at), at), at))
    'set of District?'
    """
    if isinstance(t, ast.OptionalType):
        return f"{type_text(t.inner)}?"
    if isinstance(t, ast.SetType):
        return f"set of {type_text(t.inner)}"
    return t.name if t is not None else "?"


def signature(name: str, params) -> str:
    return f"{name}({', '.join(f'{p.name}: {type_text(p.type)}' for p in params)})"


def _markdown_steps(steps: list[Step], depth: int = 0) -> list[str]:
    lines = []
    for number, step in enumerate(flatten_steps(steps), start=1):
        marker = f"{number}." if depth == 0 else "-"
        lines.append("   " * depth + f"{marker} {step.text}")
        lines += _markdown_steps(step.children, depth + 1)
    return lines


class Describer:
    """Hover texts for the symbols of one checked spec."""

    def __init__(self, result: CheckResult, index: Index, lexicon: Lexicon | None = None) -> None:
        self.result = result
        self.program = result.program
        self.index = index
        self.prose = Prose(result.typed, lexicon or Lexicon(), card=lambda name: f"**{name}**",
                           link=lambda role, name, title=None: f"`{name}`")
        self._describers: dict[str, Callable[[Symbol], list[str] | None]] = {
            "card": self._card, "rule": self._rule, "quantity": self._quantity, "action": self._action,
            "var": self._var, "zone": self._zone, "window": self._window, "procedure": self._procedure,
            "decision": self._decision, "enum": self._enum, "member": self._member, "kind": self._kind,
            "attribute": self._attribute, "table": self._table, "constraint": self._constraint,
            "configuration": self._configuration, "source": self._source, "power": self._power,
            "local": self._local, "builtin": self._builtin, "type": self._type, "game": self._game,
        }

    def describe(self, symbol: Symbol) -> str | None:
        """Markdown for a symbol, or None when nothing is known about it.

        A declaration's describer is given the declaration; the others (members, attributes,
        powers, local and built-in names) the symbol.
        """
        describer = self._describers.get(symbol.kind)
        subject = symbol
        if symbol.kind in GLOBAL_KINDS:
            subject = getattr(self.program, GLOBAL_KINDS[symbol.kind]).get(symbol.name)
        try:
            lines = describer(subject) if describer is not None and subject is not None else None
        except (UnsupportedNode, KeyError, IndexError, AttributeError, TypeError):
            lines = None        # prose for a half-typed declaration: the frame alone is better than nothing
        if not lines:
            return None
        while lines and not lines[-1]:
            lines.pop()
        if len(lines) > MAX_LINES:
            lines = lines[:MAX_LINES] + ["", "…"]
        return "\n".join(lines)

    # ---------------------------------------------------------------- shared pieces
    def _where(self, span) -> str:
        return f"{span.file}:{span.line}" if span is not None else ""

    def _header(self, code: str, span=None, extra: str = "") -> list[str]:
        where = f" — *{self._where(span)}*" if span is not None else ""
        return ["```rules", code, "```", f"{extra}{where}".strip(" —"), ""]

    def _quotes(self, cites) -> list[str]:
        """The sentences a declaration encodes, as quotations with the line of the source they are on."""
        unique = list({c.quote: c for c in cites}.values())
        if not unique:
            return []
        lines = ["---", "", "**Dans le livret**", ""]
        for cite in unique[:MAX_QUOTES]:
            found = self.result.citations.get(id(cite))
            where = f" *({found[0]}, l. {found[1]})*" if found else ""
            lines += [f"> « {cite.quote} »{where}", ""]
        if len(unique) > MAX_QUOTES:
            lines += [f"*… and {len(unique) - MAX_QUOTES} more*", ""]
        return lines

    def _ctx(self, params) -> Ctx:
        ctx = Ctx()
        for param in params:
            ctx = ctx.bind(param.name, self.prose._resolve_type(param.type))
        return ctx

    def _rules_about(self, name: str, kinds: tuple[str, ...]) -> list[str]:
        out = []
        for rule in self.program.rules.values():
            if any(h.kind in kinds and h.pattern.name == name for h in rule.heads):
                out.append(f"`{rule.name}`" + (f" (**{rule.card}**)" if rule.card else ""))
        return out

    def _head_lines(self, rule: ast.RuleDecl) -> list[str]:
        card = self.program.cards.get(rule.card) if rule.card else None
        ctx = self.prose.card_ctx(card.kind, card.name) if card is not None else self.prose.card_ctx(None)
        lines = []
        for head in rule.heads:
            lines += [self.prose.head(head, ctx), ""]
            legend = self.prose.legend(head.pattern, ctx)
            if legend and head.kind in ("permit", "forbid"):
                lines += [f"*Où* {legend}.", ""]
        return lines

    def _power_lines(self, card: ast.CardDecl, power: ast.PowerDecl) -> tuple[list[str], list]:
        ctx = self.prose.card_ctx(card.kind, card.name)
        facets = self.prose.power_facets(power, ctx)
        pctx = self.prose.power_ctx(power, ctx)
        title = power.summary or humanize(power.name)
        lines = [f"**{title}** — {' · '.join(facets)}", ""]
        condition = self.prose.requirement(power, pctx)
        if condition:
            lines += [f"*Condition* : {condition}.", ""]
        steps = self.prose.steps(power.body, pctx)
        lines += _markdown_steps(steps) + [""]
        return lines, [*power.cites, *cites_of(steps)]

    # ---------------------------------------------------------------- one per kind of symbol
    def _card(self, card: ast.CardDecl) -> list[str]:
        noun = self.prose.type_noun(KindT(card.kind))
        facts = " · ".join(f"{a.name}: {self._value(a.value)}" for a in card.attrs)
        lines = self._header(f'card {card.kind} "{card.name}"', card.span, capitalize(noun.split(" ", 1)[-1]))
        if facts:
            lines += [facts, ""]
        cites = list(card.cites)
        for power in card.powers:
            more, quoted = self._power_lines(card, power)
            lines += more
            cites += quoted
        for rule in self.program.rules_of_card(card.name):
            lines += [f"Règle `{rule.name}` :", ""] + self._head_lines(rule)
            cites += rule.cites
        return lines + self._quotes(cites)

    def _written(self, span) -> str | None:
        """The spec text of a one-line span."""
        line = self.result.sources.line(span.file, span.line)
        return line[span.column - 1:span.end_column - 1].strip() if line and span.line == span.end_line else None

    def _value(self, e) -> str:
        return self.prose.expr(e, Ctx())

    def _rule(self, rule: ast.RuleDecl) -> list[str]:
        of = f"Règle de **{rule.card}**" if rule.card else "Règle"
        lines = self._header(f"rule {rule.name}", rule.span, of) + self._head_lines(rule)
        if rule.overrides:
            lines += ["L'emporte sur " + ", ".join(f"`{n}`" for n, _ in rule.overrides) + ".", ""]
        if rule.decisions:
            lines += ["Applique " + ", ".join(f"`{n}`" for n, _ in rule.decisions) + ".", ""]
        return lines + self._quotes(rule.cites)

    def _quantity(self, q: ast.QuantityDecl) -> list[str]:
        lines = self._header(f"quantity {signature(q.name, q.params)}: {type_text(q.type)}", q.span, "Quantité")
        lines += [f"Par défaut, {self.prose.default_clause(q, self._ctx(q.params))}.", ""]
        changed = self._rules_about(q.name, ("value", "adjust"))
        if changed:
            lines += ["Modifiée par : " + ", ".join(changed) + ".", ""]
        return lines + self._quotes(q.cites)

    def _action(self, action: ast.ActionDecl) -> list[str]:
        refines = f" refines {action.parent[0]}" if action.parent else ""
        lines = self._header(f"action {signature(action.name, action.params)}{refines}", action.span, "Action")
        args = [f"*{p.name}*" for p in action.params]
        if args:
            lines += [self.prose.action_summary(action), ""]
        if action.doc:
            lines += [action.doc, ""]
        if action.body:
            lines += _markdown_steps(self.prose.steps(action.body, self._ctx(action.params))) + [""]
        for label, kinds in (("Permise par", ("permit",)), ("Interdite par", ("forbid",))):
            rules = self._rules_about(action.name, kinds)
            if rules:
                lines += [f"{label} : " + ", ".join(rules) + ".", ""]
        return lines

    def _var(self, var: ast.VarDecl) -> list[str]:
        index = f"[{var.index.name}]" if var.index else ""
        if var.counter:
            code = f"counter {var.name}{index}" + (" unlimited" if var.unlimited else "")
        else:
            default = f" = {self._value(var.default)}" if var.default is not None else ""
            code = f"var {var.name}{index}: {type_text(var.type)}{default}"
        return self._term(var, code, "Compteur" if var.counter else "Variable")

    def _zone(self, zone: ast.ZoneDecl) -> list[str]:
        index = f"[{zone.index.name}]" if zone.index else ""
        code = f"zone {zone.name}{index}: {'pile' if zone.ordered else 'set'} of {zone.kind.name}"
        return self._term(zone, code, "Zone")

    def _term(self, decl, code: str, what: str) -> list[str]:
        lines = self._header(code, decl.span, f"{what} ({decl.visibility})")
        term = self.prose.term_text(decl.name, ["*x*"] if decl.index else [], None)
        lines += [capitalize(term) + (f" — {decl.doc}" if decl.doc else ""), ""]
        return lines + self._quotes(decl.cites)

    def _window(self, window: ast.WindowDecl) -> list[str]:
        lines = self._header(f"window {signature(window.name, window.params)}", window.span, "Moment")
        lines += [self.prose.window_sentence(window), ""]
        powers = [f"**{c.name}**.{p.name}" for c in self.program.cards.values() for p in c.powers
                  if p.window and p.window[0] == window.name]
        if powers:
            lines += ["Réagissent : " + ", ".join(powers) + ".", ""]
        return lines

    def _procedure(self, proc: ast.ProcedureDecl) -> list[str]:
        lines = self._header(f"procedure {signature(proc.name, proc.params)}", proc.span, "Procédure")
        ctx = self._ctx(proc.params)
        if precondition(proc) is not None:  # where the flow may call it; kept from the replaced one, it says where
            s, r = proc.span, proc.requires.span
            inside = r.file == s.file and s.line <= r.line <= s.end_line
            kept = "" if inside else f" *(précondition de la procédure remplacée, {self._where(r)})*"
            lines += [f"Seulement si {self.prose.cond(proc.requires, ctx)}.{kept}", ""]
        steps = self.prose.steps(proc.body, ctx)
        return lines + _markdown_steps(steps) + [""] + self._quotes(cites_of(steps))

    def _decision(self, decision: ast.DecisionDecl) -> list[str]:
        lines = self._header(f"decision {decision.name}", decision.span, "Décision")
        lines += [decision.text, ""]
        users = sorted({(o.span.file, o.span.line) for o in self.index.references(Symbol("decision", decision.name))
                        if not o.definition})
        if users:
            lines += ["Appliquée à : " + ", ".join(f"*{file}:{line}*" for file, line in users[:10]) + ".", ""]
        return lines + self._quotes(decision.cites)

    def _enum(self, enum: ast.EnumDecl) -> list[str]:
        lines = self._header(f"enum {enum.name}", enum.span, "Énumération")
        return lines + [f"- `{m.name}`" + (f" — {m.doc}" if m.doc else "") for m in enum.members] + [""]

    def _member(self, symbol: Symbol) -> list[str] | None:
        found = self.program.enum_members.get(symbol.name)
        if found is None:
            return None
        enum, member = found
        lines = self._header(f"{enum}.{member.name}", member.span, f"Valeur de l'énumération `{enum}`")
        return lines + ([member.doc, ""] if member.doc else [])

    def _kind(self, kind: ast.KindDecl) -> list[str]:
        noun = self.prose.type_noun(KindT(kind.name))
        lines = self._header(f"kind {kind.name}", kind.span, f"Sorte de carte : {noun}")
        lines += [f"- `{a.name}: {type_text(a.type)}`" for a in kind.attrs] + [""]
        lines += [f"{len(self.program.cards_of(kind.name))} cartes.", ""]
        return lines + self._quotes(kind.cites)

    def _attribute(self, symbol: Symbol) -> list[str] | None:
        kind = self.program.kinds.get(symbol.owner or "")
        attr = next((a for a in kind.attrs if a.name == symbol.name), None) if kind else None
        if attr is None:
            return None
        written = self._written(attr.span) or f"{attr.name}: {type_text(attr.type)}"
        lines = self._header(f"{kind.name}.{written}", attr.span, "Attribut")
        noun = self.prose.lex.attributes.get(attr.name)
        return lines + ([capitalize(noun), ""] if noun else [])

    def _table(self, table: ast.TableDecl) -> list[str]:
        lines = self._header(f"table {signature(table.name, table.params)}: {type_text(table.type)}", table.span,
                             "Table")
        lines += [f"{len(table.rows)} lignes.", ""]
        return lines + self._quotes(table.cites)

    def _constraint(self, constraint: ast.ConstraintDecl) -> list[str]:
        lines = self._header(f"constraint {constraint.name}", constraint.span, "Contrainte")
        text = self.prose.cond(constraint.require, Ctx())
        if constraint.when is not None:
            text = f"lorsque {self.prose.cond(constraint.when, Ctx())}, {text}"
        lines += [capitalize(text) + ".", ""]
        if constraint.message:
            lines += [f"*{constraint.message}*", ""]
        return lines + self._quotes(constraint.cites)

    def _configuration(self, config: ast.ConfigDecl) -> list[str]:
        counts = {inc.kind: 0 for inc in config.includes}
        for inc in config.includes:
            counts[inc.kind] += len(inc.names)
        lines = self._header(f'configuration "{config.name}"', config.span, "Configuration")
        lines += [", ".join(f"{n} × {kind}" for kind, n in counts.items()), ""]
        return lines + self._quotes(config.cites)

    def _source(self, source: ast.SourceDecl) -> list[str]:
        return self._header(f'source {source.name} "{source.path}"', source.span, source.title or "Source")

    def _power(self, symbol: Symbol) -> list[str] | None:
        card = self.program.cards.get(symbol.owner or "")
        power = next((p for p in card.powers if p.name == symbol.name), None) if card else None
        if power is None:
            return None
        lines = self._header(f'"{card.name}".{power.name}', power.span, f"Pouvoir de **{card.name}**")
        more, cites = self._power_lines(card, power)
        return lines + more + self._quotes(cites)

    def _local(self, symbol: Symbol) -> list[str] | None:
        binding: Binding | None = self.index.locals.get(symbol)
        if binding is None:
            return None
        ty = binding.type
        noun = self.prose.type_noun(ty) if ty is not None else None
        what = {"parameter": "paramètre", "pattern": "lié par le motif", "let": "let", "choose": "choisi",
                "for": "for", "aggregate": "variable d'agrégat", "window": "paramètre du moment",
                "offer": "proposé"}.get(binding.what, binding.what)
        lines = ["```rules", f"{symbol.name}: {ty if ty is not None else '?'}", "```",
                 f"Nom local ({what}) de {binding.owner or 'la déclaration'}" + (f" — {noun}" if noun else ""), ""]
        return lines

    def _builtin(self, symbol: Symbol) -> list[str] | None:
        text = BUILTINS.get(symbol.name)
        return ["```rules", symbol.name, "```", f"Built-in: {text}", ""] if text else None

    def _type(self, symbol: Symbol) -> list[str] | None:
        text = TYPES.get(symbol.name)
        return ["```rules", symbol.name, "```", f"Type: {text}", ""] if text else None

    def _game(self, symbol: Symbol) -> list[str] | None:
        game = self.program.game
        if game is None:
            return None
        fields = " · ".join(f"{f.name}: {', '.join(self._field(v) for v in f.values)}" for f in game.fields)
        return self._header(f'game "{game.name}"', game.span, "Jeu") + [fields, ""]

    def _field(self, e) -> str:
        if isinstance(e, ast.Name):
            return e.id
        if isinstance(e, ast.Binary) and e.op == ".." and isinstance(e.left, ast.IntLit):
            return f"{e.left.value}..{getattr(e.right, 'value', '?')}"
        return str(getattr(e, "value", "…"))
