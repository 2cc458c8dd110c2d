"""collect: the declarations of every file → one :class:`Program`, overlays applied.

Base files are merged first, in file-name order; then each overlay, in the order
given.  A name defined twice is an error that points at both places.  An
overlay's ``remove`` and ``replace`` must name something already declared.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from typing import Iterable

from checker.front import ast
from checker.front import example_ast as ex
from checker.base.diagnostics import Note, Reporter, did_you_mean, suggest
from checker.front.types import written
from checker.base.source import Span

__all__ = ["Program", "collect", "suggest", "did_you_mean", "card_hint"]


def card_hint(program: "Program", name: str, candidates: Iterable[str]) -> str | None:
    """The hint for an unknown card: the name an overlay renamed it to, or the closest name."""
    for new, old in program.renamed.items():
        if old == name:
            return f"an overlay renamed \"{name}\" to \"{new}\""
    return did_you_mean(name, candidates, '"')


# The tables of a program, by the word an overlay's `remove` uses.
_TABLE_OF_DECL = {
    ast.EnumDecl: "enums", ast.KindDecl: "kinds", ast.VarDecl: "vars", ast.ZoneDecl: "zones",
    ast.GridDecl: "grids", ast.RecordDecl: "records",
    ast.WindowDecl: "windows", ast.ActionDecl: "actions", ast.QuantityDecl: "quantities",
    ast.TableDecl: "tables", ast.CardDecl: "cards", ast.RuleDecl: "rules", ast.ConstraintDecl: "constraints",
    ast.DecisionDecl: "decisions", ast.ProcedureDecl: "procedures", ast.ConfigDecl: "configurations",
    ast.SourceDecl: "sources", ast.TagDecl: "tags", ex.ExampleDecl: "examples", ast.TriggerDecl: "triggers",
}
_TABLE_OF_REMOVE = {
    "rule": "rules", "card": "cards", "constraint": "constraints", "configuration": "configurations",
    "procedure": "procedures", "quantity": "quantities", "table": "tables", "action": "actions",
    "decision": "decisions", "invariant": "constraints", "var": "vars", "window": "windows", "trigger": "triggers",
}
# Names that share one namespace: anything an expression can name by itself; and the names of types.
_VALUE_TABLES = ("vars", "zones", "quantities", "tables")
_TYPE_TABLES = ("enums", "kinds", "grids", "records")
_COPY_SUFFIX = re.compile(r"#\d+$")        # "Name#2": how a card's copies are named in state files


@dataclasses.dataclass
class Program:
    """Every declaration of a spec, by name, once overlays are applied."""

    game: ast.GameDecl | None = None
    sources: dict[str, ast.SourceDecl] = dataclasses.field(default_factory=dict)
    source_dirs: dict[str, Path] = dataclasses.field(default_factory=dict)
    enums: dict[str, ast.EnumDecl] = dataclasses.field(default_factory=dict)
    enum_members: dict[str, tuple[str, ast.EnumMember]] = dataclasses.field(default_factory=dict)
    grids: dict[str, ast.GridDecl] = dataclasses.field(default_factory=dict)
    records: dict[str, ast.RecordDecl] = dataclasses.field(default_factory=dict)
    kinds: dict[str, ast.KindDecl] = dataclasses.field(default_factory=dict)
    vars: dict[str, ast.VarDecl] = dataclasses.field(default_factory=dict)
    zones: dict[str, ast.ZoneDecl] = dataclasses.field(default_factory=dict)
    windows: dict[str, ast.WindowDecl] = dataclasses.field(default_factory=dict)
    actions: dict[str, ast.ActionDecl] = dataclasses.field(default_factory=dict)
    tags: dict[str, ast.TagDecl] = dataclasses.field(default_factory=dict)
    triggers: dict[str, ast.TriggerDecl] = dataclasses.field(default_factory=dict)   # as a var and a procedure too
    quantities: dict[str, ast.QuantityDecl] = dataclasses.field(default_factory=dict)
    tables: dict[str, ast.TableDecl] = dataclasses.field(default_factory=dict)
    cards: dict[str, ast.CardDecl] = dataclasses.field(default_factory=dict)
    rules: dict[str, ast.RuleDecl] = dataclasses.field(default_factory=dict)
    precedences: list[ast.PrecedenceDecl] = dataclasses.field(default_factory=list)
    hooks: list[ast.BeforeDecl] = dataclasses.field(default_factory=list)
    # `extend procedure`, in overlay order (spliced into `procedures` once every file is collected, see hooks.py)
    extensions: list[ast.ProcedureExtension] = dataclasses.field(default_factory=list)
    extension_precedences: list[ast.PrecedenceDecl] = dataclasses.field(default_factory=list)
    hook_points: dict = dataclasses.field(default_factory=dict)     # procedure -> [HookPoint], as collected
    constraints: dict[str, ast.ConstraintDecl] = dataclasses.field(default_factory=dict)
    decisions: dict[str, ast.DecisionDecl] = dataclasses.field(default_factory=dict)
    procedures: dict[str, ast.ProcedureDecl] = dataclasses.field(default_factory=dict)
    configurations: dict[str, ast.ConfigDecl] = dataclasses.field(default_factory=dict)
    examples: dict[str, ex.ExampleDecl] = dataclasses.field(default_factory=dict)
    overlays: list[ast.OverlayHeader] = dataclasses.field(default_factory=list)
    files: list[str] = dataclasses.field(default_factory=list)
    # (the base's attribute, the overlay's) for each attribute an `extend kind` declares again
    redeclared: list[tuple[ast.AttrDecl, ast.AttrDecl]] = dataclasses.field(default_factory=list)
    renamed: dict[str, str] = dataclasses.field(default_factory=dict)   # a card's name -> its name in the base

    def base_name(self, card: str) -> str:
        """The name ``card`` had in the base spec, before any overlay's `rename`."""
        return self.renamed.get(card, card)

    def cards_of(self, kind: str) -> list[ast.CardDecl]:
        return [c for c in self.cards.values() if c.kind == kind]

    def defeats(self) -> set[tuple[str, str]]:
        """(winner, loser) of every rule that wins over another where both apply and disagree: a rule's
        ``overrides`` and a rule-level `precedence` (one between powers orders reactions instead)."""
        out = {(r.name, o) for r in self.rules.values() for o, _ in r.overrides}
        return out | {(x.winner.name, x.loser.name) for x in self.precedences if x.winner.card is None}

    def effect(self, action: str) -> tuple:
        """The statements `do action` runs: its own block, or its nearest ancestor's (none: an empty tuple)."""
        seen = set()
        while action in self.actions and action not in seen:
            seen.add(action)
            decl = self.actions[action]
            if decl.body is not None:
                return decl.body
            action = decl.parent[0] if decl.parent else None
        return ()

    def copies(self, card: ast.CardDecl) -> int:
        """How many physical cards a card declaration stands for: its ``copies``, else its kind's default, else 1."""
        value = next((v.value for v in card.attrs if v.name == "copies"), None)
        if value is None:
            kind = self.kinds.get(card.kind)
            value = next((a.default for a in kind.attrs if a.name == "copies"), None) if kind else None
        return value.value if isinstance(value, ast.IntLit) else 1

    def selection_constraints(self) -> list[ast.ConstraintDecl]:
        """The `constraint`s, which judge a selection of cards (the `invariant`s, in the same table, judge states)."""
        return [c for c in self.constraints.values() if not c.invariant]

    def invariants(self) -> list[ast.ConstraintDecl]:
        return [c for c in self.constraints.values() if c.invariant]

    def rewrite_bodies(self, fn, procedures: bool = True) -> None:
        """Replace the body of every procedure (unless ``procedures`` is false), action and power by ``fn(body)``
        (a tuple of statements; ``fn`` returns the same tuple when it changes nothing, and the declaration is
        then kept as it is).  The passes that splice statements into every body (lasting values' ends, lasting
        triggers, hook points out of place) go through here."""
        for name, proc in list(self.procedures.items()) if procedures else ():
            body = fn(proc.body)
            if body is not proc.body:
                self.procedures[name] = dataclasses.replace(proc, body=body)
        for name, action in list(self.actions.items()):
            if action.body is not None:
                body = fn(action.body)
                if body is not action.body:
                    self.actions[name] = dataclasses.replace(action, body=body)
        for name, card in list(self.cards.items()):
            powers = tuple(dataclasses.replace(p, body=fn(p.body)) for p in card.powers)
            if any(a.body is not b.body for a, b in zip(powers, card.powers)):
                self.cards[name] = dataclasses.replace(card, powers=powers)

    def rules_of_card(self, card: str) -> list[ast.RuleDecl]:
        return [r for r in self.rules.values() if r.card == card]

    def counts(self) -> dict:
        kinds = {k: len(self.cards_of(k)) for k in self.kinds}
        return {
            "cards": kinds,
            "powers": sum(len(c.powers) for c in self.cards.values()),
            "rules": len(self.rules),
            "precedences": len(self.precedences),
            "decisions": len(self.decisions),
            "constraints": len(self.constraints),
            "configurations": len(self.configurations),
            "procedures": len(self.procedures),
            "actions": len(self.actions),
            "quantities": len(self.quantities),
        }


class _Collector:
    def __init__(self, reporter: Reporter):
        self.program = Program()
        self.reporter = reporter

    def add(self, decl, directory: Path, *, replacing: bool = False, replace_span: Span | None = None) -> None:
        program = self.program
        if isinstance(decl, ast.GameDecl):
            if program.game is not None and not replacing:
                self._duplicate("game", decl.name, decl.span, program.game.span)
            program.game = decl
            return
        if isinstance(decl, ast.BeforeDecl):
            program.hooks.append(decl)
            return
        if isinstance(decl, ast.PrecedenceDecl):
            for other in program.precedences:
                if (str(other.winner), str(other.loser)) == (str(decl.winner), str(decl.loser)):
                    self._duplicate("precedence", f"{decl.winner} over {decl.loser}", decl.span, other.span)
                    return
            program.precedences.append(decl)
            return
        if isinstance(decl, ast.CardDecl):
            # a replaced card's rules replace the base's rules of the same name; the others are new
            for rule in decl.rules:
                old = program.rules.get(rule.name)
                self.add(rule, directory, replacing=replacing and old is not None and old.card == decl.name)
        table_name = _TABLE_OF_DECL[type(decl)]
        table = getattr(program, table_name)
        name = decl.name
        from checker.front.parse import keywords      # the grammar's words: only while collecting, never on a load
        if table_name not in ("cards", "configurations", "examples") and name in keywords():
            self.reporter.error("E0101", f"'{name}' is a keyword of the language and cannot name a {self._what(decl)}",
                                decl.span, hint=f"choose another name, such as '{name}_'")
        if replacing:
            if name not in table:
                hint = card_hint(program, name, table) if isinstance(decl, ast.CardDecl) else did_you_mean(name, table)
                self.reporter.error("E0501", f"`replace` names {self._what(decl)} '{name}' that the base does not declare",
                                    replace_span or decl.span, hint=hint)
                return
            if isinstance(decl, ast.RuleDecl) and decl.card is None and table[name].card is not None:
                decl = dataclasses.replace(decl, card=table[name].card)     # a card's rule stays the card's
            if isinstance(decl, ast.ProcedureDecl):
                decl = self._kept_precondition(decl, table[name], replace_span or decl.span)
            if isinstance(decl, ast.CardDecl):
                for stale in [r for r in program.rules.values() if r.card == name]:
                    if all(stale.name != new.name for new in decl.rules):
                        del program.rules[stale.name]
            table[name] = decl
            return
        existing = table.get(name)
        for shared in (_VALUE_TABLES, _TYPE_TABLES):
            if existing is None and table_name in shared:
                for other in shared:
                    if name in getattr(program, other):
                        existing = getattr(program, other)[name]
        if existing is not None:
            self._duplicate(self._what(decl), name, decl.span, existing.span)
            return
        if table_name in _VALUE_TABLES and name in program.enum_members:
            self._same_as_member(self._what(decl), name, decl.span)
            return
        if isinstance(decl, ast.CardDecl) and _COPY_SUFFIX.search(name):
            self.reporter.error("E0101", f"card '{name}' ends in '#' and a number, which state files and `moves` "
                                         f"use to name a card's copies (\"Name#2\" is the second copy of \"Name\")",
                                decl.span, hint="write the number another way, such as "
                                                f"'{_COPY_SUFFIX.sub(lambda m: ' ' + m.group(0)[1:], name)}'")
            return
        if isinstance(decl, ast.ProcedureDecl) and isinstance(decl.requires, ast.BoolLit) and decl.requires.value:
            self.reporter.warning(
                "W0507", f"`requires true` has no effect: procedure {name} replaces none, so it has no precondition "
                         f"to drop", decl.requires.span,
                hint="drop `requires true`; it only says that a replaced procedure's precondition is dropped")
        table[name] = decl
        if isinstance(decl, ast.SourceDecl):
            program.source_dirs[name] = directory
        if isinstance(decl, ast.EnumDecl):
            for member in decl.members:
                if member.name in program.enum_members:
                    first = program.enum_members[member.name][1]
                    self._duplicate("enum member", member.name, member.span, first.span)
                elif any(member.name in getattr(program, other) for other in _VALUE_TABLES):
                    self._same_as_member("enum member", member.name, member.span)
                else:
                    program.enum_members[member.name] = (decl.name, member)

    def extend(self, decl: ast.ExtendDecl) -> None:
        """Merge an `extend` into the base's enum or kind: members and attributes are added; an attribute
        declared again replaces the base's (typecheck holds it to the same type)."""
        program, new = self.program, decl.decl
        if isinstance(new, ast.ProcedureExtension):
            program.extensions.append(new)
            return
        what = {ast.EnumDecl: "enum", ast.KindDecl: "kind", ast.CardDecl: "card"}[type(new)]
        table = {"enum": program.enums, "kind": program.kinds, "card": program.cards}[what]
        old = table.get(new.name)
        if old is None:
            self.reporter.error("E0501", f"`extend {what}` names {what} '{new.name}' that the base does not declare",
                                decl.span, hint=did_you_mean(new.name, table))
            return
        if what == "enum":
            for member in new.members:
                if member.name in program.enum_members:
                    self._duplicate("enum member", member.name, member.span, program.enum_members[member.name][1].span)
                else:
                    program.enum_members[member.name] = (old.name, member)
            table[old.name] = dataclasses.replace(old, members=old.members + tuple(
                m for m in new.members if program.enum_members[m.name][1] is m))
            return
        if what == "card":
            self._extend_card(old, new, decl)
            return
        attrs = {a.name: a for a in old.attrs}
        for attr in new.attrs:
            if attr.name in attrs:
                program.redeclared.append((attrs[attr.name], attr))
                if written(attrs[attr.name].type) != written(attr.type):
                    continue        # reported by typecheck; the base's attribute stays
            attrs[attr.name] = attr
        table[old.name] = dataclasses.replace(
            old, attrs=tuple(attrs.values()), decisions=old.decisions + new.decisions, cites=old.cites + new.cites,
            **{f: getattr(new, f) or getattr(old, f) for f in ("controller", "start", "active", "imitates")})

    def _extend_card(self, old: ast.CardDecl, new: ast.CardDecl, decl: ast.ExtendDecl) -> None:
        """New attribute values replace the base's; powers, rules and citations are added."""
        program = self.program
        mine = {p.name: p for p in old.powers}
        for power in new.powers:
            if power.name in mine:
                self._duplicate("power", power.name, power.span, mine[power.name].span)
        for rule in new.rules:
            self.add(rule, Path("."))
        attrs = {a.name: a for a in old.attrs}
        attrs.update({a.name: a for a in new.attrs})
        program.cards[old.name] = dataclasses.replace(
            old, attrs=tuple(attrs.values()), powers=old.powers + tuple(p for p in new.powers if p.name not in mine),
            rules=old.rules + new.rules, cites=old.cites + new.cites)

    def remove(self, decl: ast.RemoveDecl) -> None:
        program = self.program
        if decl.kind == "precedence":
            winner, _, loser = decl.name.partition(" over ")
            for other in program.precedences:
                if (str(other.winner), str(other.loser)) == (winner.strip(), loser.strip()):
                    program.precedences.remove(other)
                    return
            self.reporter.error("E0501", f"no precedence '{decl.name}' to remove", decl.span,
                                hint='write `remove precedence "winner over loser"`')
            return
        table = getattr(program, _TABLE_OF_REMOVE[decl.kind])
        if decl.kind in ("constraint", "invariant"):      # one table holds both: each word names its own
            table = {n: c for n, c in table.items() if c.invariant == (decl.kind == "invariant")}
        if decl.name not in table:
            hint = card_hint(program, decl.name, table) if decl.kind == "card" else did_you_mean(decl.name, table)
            self.reporter.error("E0501", f"`remove` names {decl.kind} '{decl.name}' that the base does not declare",
                                decl.span, hint=hint)
            return
        removed = getattr(program, _TABLE_OF_REMOVE[decl.kind]).pop(decl.name)
        if isinstance(removed, ast.CardDecl):
            for rule in [r for r in program.rules.values() if r.card == decl.name]:
                del program.rules[rule.name]

    def rename(self, decl: ast.RenameDecl) -> None:
        """`rename card "Old" to "New"`: the card, its rules, and every reference to it take the new name."""
        program = self.program
        (old, old_span), (new, new_span) = decl.old, decl.new
        if old not in program.cards:
            self.reporter.error("E0501", f"`rename` names card \"{old}\" that the base does not declare", old_span,
                                hint=card_hint(program, old, program.cards))
            return
        if new in program.cards:
            self._duplicate("card", new, new_span, program.cards[new].span)
            return
        program.cards = {(new if k == old else k): v for k, v in program.cards.items()}
        for table in ("enums", "kinds", "vars", "zones", "windows", "actions", "quantities", "tables", "cards",
                      "rules", "constraints", "decisions", "procedures", "configurations", "examples"):
            entries = getattr(program, table)
            for key, value in entries.items():
                entries[key] = _renamed(value, old, new)
        program.precedences = [_renamed(x, old, new) for x in program.precedences]
        program.extensions = [_renamed(x, old, new) for x in program.extensions]
        if program.game is not None:
            program.game = _renamed(program.game, old, new)
        program.renamed[new] = program.renamed.pop(old, old)

    @staticmethod
    def _what(decl) -> str:
        return {
            ast.EnumDecl: "enum", ast.KindDecl: "kind", ast.VarDecl: "var", ast.ZoneDecl: "zone",
            ast.GridDecl: "grid", ast.RecordDecl: "record",
            ast.WindowDecl: "window", ast.ActionDecl: "action", ast.QuantityDecl: "quantity",
            ast.TableDecl: "table", ast.CardDecl: "card", ast.RuleDecl: "rule", ast.ConstraintDecl: "constraint",
            ast.DecisionDecl: "decision", ast.ProcedureDecl: "procedure", ast.ConfigDecl: "configuration",
            ast.TriggerDecl: "trigger",
    ast.SourceDecl: "sources", ast.TagDecl: "tags", ex.ExampleDecl: "examples",
        }.get(type(decl), "declaration")

    def _kept_precondition(self, new: ast.ProcedureDecl, old: ast.ProcedureDecl, span: Span) -> ast.ProcedureDecl:
        """A `replace procedure` without `requires` keeps the precondition of the procedure it replaces;
        `requires true` states that it has none; `requires cond` states its own (docs/language.md)."""
        if isinstance(new.requires, ast.BoolLit) and new.requires.value:
            if old.requires is None:
                self.reporter.warning(
                    "W0506", f"`requires true` has no effect: the procedure {new.name} it replaces has no "
                             f"precondition", new.requires.span,
                    hint="drop `requires true`; it only says that a replaced procedure's precondition is dropped")
            return dataclasses.replace(new, requires=None)
        if new.requires is not None or old.requires is None:
            return new
        if [(p.name, written(p.type)) for p in new.params] != [(p.name, written(p.type)) for p in old.params]:
            written_old = ", ".join(f"{p.name}: {written(p.type)}" for p in old.params)
            self.reporter.error(
                "E0505", f"`replace procedure {new.name}` changes the parameters (`{new.name}({written_old})` in the "
                         f"base), and the base's precondition does not carry over to new parameters", span,
                notes=[Note("the base's precondition", old.requires.span)],
                hint="restate it over the new parameters (`requires …` before the body), or say that there is "
                     "none (`requires true`)")
            return new
        return dataclasses.replace(new, requires=old.requires)

    def _same_as_member(self, what: str, name: str, span: Span) -> None:
        """A var, zone, quantity or table named as an enum member (or the reverse): a name in an expression
        would mean either."""
        program = self.program
        if name in program.enum_members:
            enum, member = program.enum_members[name]
            first, other = member.span, f"a member of enum '{enum}'"
        else:
            table = next(t for t in _VALUE_TABLES if name in getattr(program, t))
            decl = getattr(program, table)[name]
            first, other = decl.span, f"a {self._what(decl)}"
        self.reporter.error("E0201", f"{what} '{name}' has the name of {other}: `{name}` in an expression would "
                                     f"mean either", span, notes=[Note("the other is declared here", first)],
                            hint="rename one of them")

    def _duplicate(self, what: str, name: str, span: Span, first: Span) -> None:
        self.reporter.error("E0201", f"{what} '{name}' is defined twice", span,
                            notes=[Note("first defined here", first)],
                            hint="rename one of them, or use an overlay's `replace` to change the first")


def collect(files: list[tuple[ast.SpecFile, Path]], reporter: Reporter) -> Program:
    """Merge parsed files (base files first, overlays after, each in the given order)."""
    collector = _Collector(reporter)
    base = [(f, d) for f, d in files if f.overlay is None]
    overlays = [(f, d) for f, d in files if f.overlay is not None]
    for spec_file, directory in base + overlays:
        collector.program.files.append(spec_file.name)
        header, game = spec_file.overlay, collector.program.game
        if header is not None:
            collector.program.overlays.append(header)
            # an overlay applies to the rule set as it is when it comes: its base is the game's name then
            if game is not None and header.base != game.name:
                reporter.error("E0502", f"overlay is for '{header.base}', but the rule set it is applied to is "
                                        f"'{game.name}'", header.span, hint=did_you_mean(header.base, [game.name], '"')
                               or "overlays apply in the order given: put the one it is for before it")
        for decl in spec_file.decls:
            if spec_file.overlay is None and isinstance(decl, (ast.RemoveDecl, ast.ReplaceDecl, ast.ExtendDecl)):
                reporter.error("E0502", "`remove`, `replace` and `extend` are only allowed in an overlay", decl.span,
                               hint='start the file with `overlay "Variant" on "Game"`')
                continue
            if spec_file.overlay is None and isinstance(decl, ast.RenameDecl):
                reporter.error("E0502", "`rename` is only allowed in an overlay", decl.span,
                               hint='start the file with `overlay "Variant" on "Game"`')
                continue
            if isinstance(decl, ast.RemoveDecl):
                collector.remove(decl)
            elif isinstance(decl, ast.ExtendDecl):
                collector.extend(decl)
            elif isinstance(decl, ast.RenameDecl):
                collector.rename(decl)
            elif isinstance(decl, ast.ReplaceDecl):
                collector.add(decl.decl, directory, replacing=True, replace_span=decl.span)
            else:
                collector.add(decl, directory)
    from checker.front import hooks, lifetimes, tags, triggers     # they read the Program this module defines
    hooks.expand(collector.program, reporter)
    tags.expand(collector.program, reporter)
    triggers.declare(collector.program, reporter)
    lifetimes.expand(collector.program, reporter)
    triggers.expand(collector.program, reporter)
    return collector.program


def _renamed(node, old: str, new: str):
    """``node`` with every reference to card ``old`` naming ``new`` instead: string literals, a card's own
    name, the card a rule or precedence belongs to, configuration lists.  Quotations are left as written."""
    if isinstance(node, ast.StrLit):
        return dataclasses.replace(node, value=new) if node.value == old else node
    if isinstance(node, tuple):
        out = tuple(_renamed(x, old, new) for x in node)
        return out if any(a is not b for a, b in zip(out, node)) else node
    if not dataclasses.is_dataclass(node) or isinstance(node, (ast.Cite, Span)):
        return node
    pair = lambda p: (new, p[1]) if p[0] == old else p     # noqa: E731  (name, span)
    changes = {}
    for field in dataclasses.fields(node):
        value = getattr(node, field.name)
        if isinstance(value, str):
            own = (field.name == "name" and isinstance(node, ast.CardDecl)) or \
                (field.name == "card" and isinstance(node, (ast.RuleDecl, ast.Subject, ex.ExampleAnswer)))
            updated = new if own and value == old else value
        elif isinstance(node, ast.ConfigInclude) and field.name == "names" or \
                isinstance(node, ast.ConfigReplace) and field.name == "new":
            updated = tuple(pair(p) for p in value)
        elif isinstance(node, ast.ConfigReplace) and field.name == "old":
            updated = pair(value)
        else:
            updated = _renamed(value, old, new)
        if updated != value or updated is not value and not isinstance(value, (str, tuple)):
            changes[field.name] = updated
    return dataclasses.replace(node, **changes) if changes else node
