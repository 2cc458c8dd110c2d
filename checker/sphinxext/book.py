"""The book: a checked spec, its wording, and where each declaration is described.

A :class:`Book` is built from the spec paths through :func:`checker.front.check.check_paths`
(the same pipeline as ``rulebook check``); nothing here parses a spec by hand.  It
knows which page describes each declaration (so that every rule, procedure and
quantity is described once and referenced everywhere else), and how to write a
cross-reference to it.  It has no Sphinx in it: the renderers turn it into reST text.
"""

from __future__ import annotations

import dataclasses
import re
import unicodedata
from pathlib import Path
from typing import Callable

from checker.front import ast
from checker.front.check import CheckResult, ParseCache, check_paths, spec_files
from checker.front.citations import source_path
from checker.base.diagnostics import Reporter
from checker.prose import Ctx, Lexicon, Prose, plural, rst_escape
from checker.prose.french import shown_quote
from checker.base.source import Span

__all__ = ["Book", "slug", "FLOW_PAGES", "OBJECT_TYPES"]

# The chapters of the rules, in reading order: (key, title).
FLOW_PAGES = (("setup", "Mise en place"), ("draft", "Choix des personnages"), ("turn", "Le tour d'un joueur"),
              ("end", "Fin de la partie et décompte"))


def slug(text: str) -> str:
    """An ASCII file name for a card name.

    >>> slug("Porte d'Or"), slug("Grand Écuyer")
    ('porte-d-or', 'grand-ecuyer')
    """
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii").lower()
    return re.sub(r"[^a-z0-9]+", "-", folded).strip("-") or "carte"


@dataclasses.dataclass
class Book:
    result: CheckResult
    lexicon: Lexicon
    spec_paths: list[Path]
    lexicon_path: Path | None = None
    finder: Callable | None = None      # finds conflicts the spec does not resolve (a solver), if any
    editions: list = dataclasses.field(default_factory=list)     # other editions and variants (editions.py)
    cache_dir: Path | None = None       # where their comparisons with this spec are kept
    refresh_diffs: bool = False         # recompute the kept comparisons an older checker computed
    comparisons: dict = dataclasses.field(default_factory=dict)   # each comparison's name → how it was had
    parsed: ParseCache = dataclasses.field(default_factory=ParseCache)    # the files the build's checks parsed
    problems: list = dataclasses.field(default_factory=list)      # (message, span) a page found; the build warns
    prose: Prose = dataclasses.field(init=False)
    placement: dict[tuple[str, str], str] = dataclasses.field(init=False, default_factory=dict)
    _mentions: list | None = dataclasses.field(init=False, default=None, repr=False)
    _checked: dict = dataclasses.field(init=False, default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        self.prose = Prose(self.result.typed, self.lexicon, card=self.card_ref, link=self.link)
        if self.result.typed is not None:
            self._place()

    # ---------------------------------------------------------------- loading
    @classmethod
    def load(cls, spec_paths: list[Path], lexicon_path: Path | None = None) -> "Book":
        parsed = ParseCache()
        result = check_paths(list(spec_paths), cache=parsed)
        lexicon = Lexicon()
        if lexicon_path is not None and lexicon_path.is_file():
            lexicon = Lexicon.load(lexicon_path)
        return cls(result, lexicon, list(spec_paths), lexicon_path, parsed=parsed)

    def check(self, paths: list[Path]) -> CheckResult:
        """Another rule set the book shows (an edition, a house rule on the base spec), checked with the files
        this build has parsed already."""
        key = tuple(Path(p).resolve() for p in paths)
        if key not in self._checked:
            self._checked[key] = check_paths(list(paths), cache=self.parsed)
        return self._checked[key]

    @property
    def program(self):
        return self.result.program

    @property
    def ok(self) -> bool:
        return self.result.typed is not None and self.result.ok

    def dependencies(self) -> list[Path]:
        """Every file the book is made from: the spec files, the texts they cite, the lexicon."""
        files: list[Path] = []
        for path in self.spec_paths:
            files.extend(spec_files(path, Reporter()))
        program = self.program
        for name in program.sources:
            path = source_path(program, name)[0] if name in program.source_dirs else None
            if path is not None:
                files.append(path)
        if self.lexicon_path is not None and self.lexicon_path.is_file():
            files.append(self.lexicon_path)
        return [f.resolve() for f in files]

    # ---------------------------------------------------------------- words
    def kind_noun(self, kind: str) -> str:
        return self.lexicon.types.get(kind, f"le {kind}")

    def kind_plural(self, kind: str) -> str:
        """``Personnages`` for the kind of characters."""
        words = plural(self.kind_noun(kind)).split(" ", 1)[-1]
        return words[:1].upper() + words[1:]

    def kind_slug(self, kind: str) -> str:
        return slug(self.kind_plural(kind))

    def card_ctx(self, card: ast.CardDecl | None) -> Ctx:
        return self.prose.card_ctx(card.kind, card.name) if card is not None else self.prose.card_ctx(None)

    def attr(self, card: ast.CardDecl, name: str):
        """A card's attribute value as Python (int, str, enum member name), or its kind's default."""
        for value in card.attrs:
            if value.name == name:
                return _literal(value.value)
        kind = self.program.kinds.get(card.kind)
        for attr in kind.attrs if kind else ():
            if attr.name == name and attr.default is not None:
                return _literal(attr.default)
        return None

    def played_kinds(self) -> list[str]:
        """The kinds the player's book has a page for: those whose cards start in a zone, which players
        handle; a kind whose cards are only parts of other cards (a tile's roads and markets) has none."""
        return [k for k, decl in self.program.kinds.items() if decl.start is not None]

    def has_page(self, card: ast.CardDecl) -> bool:
        """Cards with powers or rules get a page of their own; the others are a row in a table."""
        return bool(card.powers or self.program.rules_of_card(card.name))

    # ---------------------------------------------------------------- cross-references
    def card_ref(self, name: str) -> str:
        """A cross-reference to a card's page; a card without one (no powers, no rules) is named as printed."""
        card = self.program.cards.get(name)
        if card is not None and not self.has_page(card):
            return f"« {rst_escape(name)} »"
        role = card_objtype(card.kind) if card is not None else "card"
        return f":rb:{role}:`{_role_text(name)}`"

    def link(self, role: str, name: str, title: str | None = None) -> str:
        """A cross-reference to a declaration, when the book describes it; else the name as code."""
        table = {"action": self.program.actions, "procedure": self.program.procedures,
                 "quantity": self.program.quantities, "rule": self.program.rules,
                 "decision": self.program.decisions, "table": self.program.tables,
                 "constraint": self.program.constraints}.get(role)
        if table is not None and name in table:
            if title:
                return f":rb:{role}:`{_role_text(title)} <{_role_text(name)}>`"
            return f":rb:{role}:`{_role_text(name)}`"
        return f"``{name}``"

    def ref(self, decl) -> str:
        """A cross-reference to any declaration that carries citations."""
        if isinstance(decl, ast.CardDecl):
            return self.card_ref(decl.name)
        if isinstance(decl, PowerRef):
            return f":rb:power:`{_role_text(decl.card)}.{_role_text(decl.power.name)}`"
        if isinstance(decl, ast.PrecedenceDecl):
            return f":rb:precedence:`{_role_text(str(decl.winner))} over {_role_text(str(decl.loser))}`"
        if isinstance(decl, ast.ConfigDecl):
            return f":rb:configuration:`{_role_text(decl.name)}`"
        if isinstance(decl, (ast.VarDecl, ast.ZoneDecl)):
            return f":rb:term:`{_role_text(decl.name)}`"
        if isinstance(decl, ast.KindDecl):
            return f":rb:type:`{_role_text(decl.name)}`"
        role = {ast.RuleDecl: "rule", ast.ProcedureDecl: "procedure", ast.ActionDecl: "action",
                ast.QuantityDecl: "quantity", ast.TableDecl: "table", ast.ConstraintDecl: "constraint",
                ast.DecisionDecl: "decision"}.get(type(decl))
        if role is None:
            return f"``{getattr(decl, 'name', '?')}``"
        return f":rb:{role}:`{_role_text(decl.name)}`"

    def where(self, span: Span | None) -> str:
        return f"{span.file}:{span.line}" if span is not None else ""

    def source_lines(self, span: Span) -> list[str]:
        """The spec text of a declaration, line by line."""
        out = []
        for number in range(span.line, span.end_line + 1):
            line = self.result.sources.line(span.file, number)
            out.append(line if line is not None else "")
        return out

    def cite_line(self, cite: ast.Cite) -> tuple[str, int] | None:
        """(source, line) where a quotation was found in its source text."""
        return self.result.citations.get(id(cite))

    @property
    def rulebook_source(self) -> str | None:
        """The first declared source: the rulebook whose sentences the book traces."""
        return next(iter(self.program.sources), None)

    def shown(self, cite: ast.Cite) -> str:
        """A quotation's text as reST, as a page shows it: the source's slips corrected through the lexicon's
        errata for that source, its HTML rendered (the spec keeps the verbatim text, which `cite` checks)."""
        found = self.cite_line(cite)
        source = cite.source or (found[0] if found is not None else self.rulebook_source)
        return shown_quote(cite.quote, self.lexicon.errata.get(source or "", {}))

    def quote(self, cite: ast.Cite) -> str:
        """A quotation as reST, linked to its line in the annotated rulebook when it is the rulebook's."""
        text = f"« {self.shown(cite)} »"
        found = self.cite_line(cite)
        if found is not None and found[0] == self.rulebook_source:
            return f"{text} (:ref:`l. {found[1]} <livret-{found[1]}>`)"
        if found is not None:
            title = self.program.sources[found[0]].title or found[0]
            return f"{text} ({rst_escape(title)})"
        return text

    # ---------------------------------------------------------------- who mentions what
    def decisions_of(self, card: ast.CardDecl) -> list[str]:
        """The decisions a card applies, or that name it: every clarification that touches it."""
        names: list[str] = []
        for power in card.powers:
            names.extend(n for n, _ in power.decisions)
            names.extend(s.name for s in ast.statements(power.body) if isinstance(s, ast.DecisionStmt))
        for rule in self.program.rules_of_card(card.name):
            names.extend(n for n, _ in rule.decisions)
        subjects = {card.name} | {p.name for p in card.powers} | {r.name for r in self.program.rules_of_card(card.name)}
        for precedence in self.program.precedences:
            ends = {precedence.winner.card or precedence.winner.name, precedence.loser.card or precedence.loser.name}
            if precedence.decision and ends & subjects:
                names.append(precedence.decision[0])
        pattern = re.compile(r"(?<![\w-])" + re.escape(card.name) + r"(?![\w-])")
        for decision in self.program.decisions.values():
            if pattern.search(decision.text) or any(pattern.search(c.quote) for c in decision.cites):
                names.append(decision.name)
        return [n for n in dict.fromkeys(names) if n in self.program.decisions]

    def precedences_of(self, card: ast.CardDecl) -> list[ast.PrecedenceDecl]:
        own = {r.name for r in self.program.rules_of_card(card.name)}
        return [p for p in self.program.precedences
                if card.name in (p.winner.card, p.loser.card) or {p.winner.name, p.loser.name} & own
                and p.winner.card is None]

    def mentions_of(self, card: ast.CardDecl) -> list:
        """Declarations outside the card whose expressions name it (``"Card" in cité[p]``)."""
        out = []
        for decl, owner, strings in self._strings():
            if owner != card.name and card.name in strings:
                out.append(decl)
        return out

    def _strings(self) -> list[tuple]:
        """(declaration, the card it belongs to or None, the strings its expressions hold) for every rule,
        quantity, action, procedure, constraint and card power: each walked once for the whole book, not once
        per card page (that walk was a twentieth of building the fan expansion's book)."""
        if self._mentions is None:
            decls = [*((d, d.card if isinstance(d, ast.RuleDecl) else None) for d in self.program.rules.values()),
                     *((d, None) for d in self.program.quantities.values()),
                     *((d, None) for d in self.program.actions.values()),
                     *((d, None) for d in self.program.procedures.values()),
                     *((d, None) for d in self.program.constraints.values()),
                     *((PowerRef(c.name, p), c.name) for c in self.program.cards.values() for p in c.powers)]
            self._mentions = [(decl, owner, _strings_in(decl.power if isinstance(decl, PowerRef) else decl))
                              for decl, owner in decls]
        return self._mentions

    # ---------------------------------------------------------------- placement
    def game_field(self, name: str) -> str | None:
        game = self.program.game
        for field in game.fields if game else ():
            if field.name == name and field.values and isinstance(field.values[0], ast.Name):
                return field.values[0].id
        return None

    def _place(self) -> None:
        """Which chapter describes each procedure, quantity, table and general rule."""
        program = self.program
        flow, round_, turn = self.game_field("flow"), self.game_field("round"), self.game_field("turn")
        claims: dict[str, list[tuple[str, str]]] = {key: [] for key, _ in FLOW_PAGES}
        taken: set[tuple[str, str]] = set()

        def claim(page: str, role: str, name: str) -> None:
            if (role, name) not in taken and name in _table(program, role):
                taken.add((role, name))
                claims[page].append((role, name))
                self.placement[(role, name)] = page

        before, after, until = [], [], set()
        if flow in program.procedures:
            seen_repeat = False
            for s in program.procedures[flow].body:
                if isinstance(s, ast.Repeat):
                    seen_repeat = True
                    until |= _names(s.until)
                    continue
                (after if seen_repeat else before).extend(c.name for c in ast.statements((s,))
                                                         if isinstance(c, ast.CallProc))
        end_procs = [p for p in program.procedures
                     if p in after or any(isinstance(s, ast.SetVar) and s.target.name in until
                                          for s in ast.statements(program.procedures[p].body))]
        score = [q for q in (self.game_field("score"), self.game_field("tiebreak")) if q]
        for name in end_procs:
            claim("end", "procedure", name)
        for name in score:
            claim("end", "quantity", name)
        for rule in program.rules.values():
            if rule.card is None and any(h.pattern.name in score for h in rule.heads):
                claim("end", "rule", rule.name)
        self._claim_used("end", claim)

        if flow:
            claim("setup", "procedure", flow)
        for name in before:
            for proc in [name, *self._in_call_order(name)]:
                claim("setup", "procedure", proc)
        self._claim_used("setup", claim)

        reach_turn = {turn} | self.reach(turn) if turn else set()
        to_turn = [p for p in self._in_call_order(round_) if turn in self.reach(p)] if round_ else []
        if round_:
            claim("draft", "procedure", round_)
            for proc in self._in_call_order(round_):
                if proc not in reach_turn and proc not in to_turn:
                    claim("draft", "procedure", proc)
        self._claim_used("draft", claim)

        for proc in [*to_turn, *([turn] if turn else []), *self._in_call_order(turn)]:
            claim("turn", "procedure", proc)
        actions = set()
        for role, name in claims["turn"]:
            if role == "procedure":
                actions |= self._actions_in(program.procedures[name].body)
        for rule in program.rules.values():
            if rule.card is None and any(h.pattern.name in actions for h in rule.heads):
                claim("turn", "rule", rule.name)
        self._claim_used("turn", claim)
        self.claims = claims

    def _claim_used(self, page: str, claim) -> None:
        """Claim for ``page`` the quantities and tables its claimed declarations use."""
        program = self.program
        pending = list(self._page_decls(page))
        while pending:
            decl = pending.pop(0)
            for name in sorted(_names(decl) | _calls(decl)):
                for role in ("quantity", "table"):
                    if name in _table(program, role) and (role, name) not in self.placement:
                        claim(page, role, name)
                        pending.append(_table(program, role)[name])

    def _page_decls(self, page: str):
        for (role, name), where in list(self.placement.items()):
            if where == page:
                yield _table(self.program, role)[name]

    def chapter(self, page: str) -> list[tuple[str, str]]:
        return getattr(self, "claims", {}).get(page, [])

    def unplaced(self, role: str) -> list[str]:
        """Names of a table that no chapter describes (and no card declares)."""
        table = _table(self.program, role)
        return [n for n, d in table.items() if (role, n) not in self.placement and getattr(d, "card", None) is None]

    def reach(self, proc: str | None) -> set[str]:
        """Procedures called, directly or not, by ``proc``."""
        out: set[str] = set()
        todo = [proc] if proc else []
        while todo:
            name = todo.pop()
            decl = self.program.procedures.get(name)
            if decl is None:
                continue
            for s in ast.statements(decl.body):
                if isinstance(s, ast.CallProc) and s.name not in out:
                    out.add(s.name)
                    todo.append(s.name)
        return out

    def _in_call_order(self, proc: str | None) -> list[str]:
        order: list[str] = []

        def visit(name: str) -> None:
            decl = self.program.procedures.get(name)
            if decl is None:
                return
            for s in ast.statements(decl.body):
                if isinstance(s, ast.CallProc) and s.name not in order and s.name != proc:
                    order.append(s.name)
                    visit(s.name)
        if proc:
            visit(proc)
        return order

    def _actions_in(self, body) -> set[str]:
        names: set[str] = set()
        for s in ast.statements(body):
            if isinstance(s, ast.Do):
                names.add(s.action)
            elif isinstance(s, ast.Offer):
                names |= {i.action for i in s.items if isinstance(i, ast.OfferAction)}
        closed = set(names)
        for name in names:             # a rule about a parent action applies to its refinements
            decl = self.program.actions.get(name)
            while decl is not None and decl.parent is not None:
                closed.add(decl.parent[0])
                decl = self.program.actions.get(decl.parent[0])
        return closed


@dataclasses.dataclass(frozen=True)
class PowerRef:
    """A power, with the card that declares it (powers are named within their card)."""
    card: str
    power: ast.PowerDecl

    @property
    def name(self) -> str:
        return f"{self.card}.{self.power.name}"

    @property
    def span(self) -> Span:
        return self.power.span


# the object types of the Sphinx domain (:mod:`checker.sphinxext.domain`): (singular, plural) in French
OBJECT_TYPES: dict[str, tuple[str, str]] = {
    "character": ("personnage", "Personnages"),
    "district": ("quartier", "Quartiers"),
    "card": ("carte", "Cartes"),
    "power": ("pouvoir", "Pouvoirs"),
    "rule": ("règle", "Règles"),
    "procedure": ("procédure", "Procédures"),
    "action": ("action", "Actions"),
    "quantity": ("grandeur", "Grandeurs"),
    "table": ("table", "Tables"),
    "constraint": ("contrainte", "Contraintes"),
    "configuration": ("configuration", "Configurations"),
    "decision": ("décision", "Décisions"),
    "precedence": ("préséance", "Préséances"),
    "term": ("état", "État du jeu"),
    "type": ("type", "Types"),
    "window": ("moment", "Moments"),
}


def card_objtype(kind: str) -> str:
    """The domain's object type for a card of ``kind``: the kind's name in lower case when the domain has
    such a type (``rb:character``), else ``card``."""
    return kind.lower() if kind.lower() in OBJECT_TYPES else "card"


def _role_text(name: str) -> str:
    """A name inside a role's backquotes: ``<`` and backquotes would be read as markup."""
    return name.replace("\\", "\\\\").replace("`", "\\`").replace("<", "\\<")


def _table(program, role: str) -> dict:
    return {"procedure": program.procedures, "quantity": program.quantities, "table": program.tables,
            "rule": program.rules, "action": program.actions}[role]


def _literal(expr):
    if isinstance(expr, (ast.IntLit, ast.BoolLit, ast.StrLit)):
        return expr.value
    if isinstance(expr, ast.Name):
        return expr.id
    if isinstance(expr, ast.SetLit):
        items = [_literal(x) for x in expr.items]
        return ", ".join(str(x) for x in items) if None not in items else None
    return None


def _names(node) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)} | {
        n.target.name for n in ast.walk(node) if isinstance(n, ast.SetVar)}


def _calls(node) -> set[str]:
    out = {n.func for n in ast.walk(node) if isinstance(n, ast.Call)}
    out |= {h.pattern.name for n in ast.walk(node) if isinstance(n, ast.RuleHead) for h in [n]}
    return out


def _strings_in(node) -> frozenset[str]:
    return frozenset(n.value for n in ast.walk(node) if isinstance(n, ast.StrLit))
