"""What a house-rule file can change in the conflict search, so that only those questions are asked.

A question of :class:`~checker.conflicts.questions.Search` (may these two rules apply together? may this rule ever
apply? …) reads some declarations: its rules, the quantities and `can` their conditions read (with the
rules about those), the kinds, attributes and enums its values range over, the precedences between its
rules, and — for every question — the spec's invariants.  These are its *keys*.  A file (or several)
*touches* keys: what it declares, and what it replaces, extends or removes (the declaration it took
away counts too).  :class:`Scope` answers, for each question, whether its keys meet the touched ones; the
search skips a question that does not.  A card the file adds touches its own rules and powers, what names
it, and each attribute it gives a value no card of its kind had (a rule reading that attribute may apply
where it could not); it is otherwise one more value the other questions' symbolic states range over, and
those are not asked again — a base pair that only a new *combination* of known values, or one more card
to count, would make meet is left to ``--all-rules``.

Keys are tuples: ``("rule", name)``, ``("about", action or quantity)`` (the rules about it and their
order), ``("order", {a, b})`` (a precedence between a and b), ``("quantity", q)``, ``("action", a)``,
``("table", t)``, ``("kind", k)``, ``("card", c)``, ``("attr", a)``, ``("enum", e)``, ``("var", v)``,
``("zone", z)``, ``("power", '"Card".name')``, ``("window", w)``, ``("doers", a)`` (what does the action:
dangling references), ``("invariants",)``, ``("constraints",)`` (the configuration constraints: whether a rule
can apply in a game they allow) and ``("game",)``.
"""

from __future__ import annotations

from pathlib import Path

from checker.front import ast
from checker.base.diagnostics import Reporter
from checker.front.program import Program, collect

__all__ = ["Scope"]

_GLOBAL = (("invariants",), ("game",))
_TABLE_OF = {ast.ActionDecl: "action", ast.QuantityDecl: "quantity", ast.TableDecl: "table",
             ast.ProcedureDecl: "procedure", ast.VarDecl: "var", ast.ZoneDecl: "zone", ast.WindowDecl: "window",
             ast.EnumDecl: "enum", ast.KindDecl: "kind", ast.RecordDecl: "record", ast.GridDecl: "grid"}
_REMOVED = {"rule": "rules", "card": "cards", "constraint": "constraints", "invariant": "constraints",
            "procedure": "procedures", "quantity": "quantities", "table": "tables", "action": "actions"}


def _order(a: str, b: str) -> tuple:
    return ("order", frozenset((a, b)))


def _done(node) -> set:
    """("doers", a) for every action ``node`` does, offers or asks about."""
    return {("doers", n.action) for n in ast.walk(node) if isinstance(n, (ast.Do, ast.OfferAction, ast.Can))}


class Scope:
    """The questions that involve ``files`` (paths of the checked spec's files) in ``result``'s spec."""

    def __init__(self, result, files: list[Path]):
        self.p: Program = result.program
        self.files = [Path(f) for f in files]
        wanted = {f.resolve() for f in self.files}
        parsed = [f for f in result.files if Path(f.name).resolve() in wanted]
        self.touched: set = set()
        ordered = [f for f in result.files if f.overlay is None] + [f for f in result.files if f.overlay is not None]
        for i, spec_file in enumerate(ordered):
            if spec_file in parsed:
                before = collect([(f, Path(".")) for f in ordered[:i]], Reporter())
                for decl in spec_file.decls:
                    self.touched |= self._touches(decl, before)
        self._memo: dict = {}
        self.everything = bool(self.touched & self._global())

    # ------------------------------------------------------------ what the files touch
    def _touches(self, decl, before: Program) -> set:
        """The keys of a declaration of the files, and of what it replaces or removes in ``before``."""
        if isinstance(decl, ast.ReplaceDecl):
            return self._facts(decl.decl) | self._facts(self._previous(decl.decl, before))
        if isinstance(decl, ast.ExtendDecl) and isinstance(decl.decl, ast.ProcedureExtension):
            ext = decl.decl     # as replacing the procedure would: what it did, and what the extension adds
            return {("procedure", ext.procedure)} | self._facts(before.procedures.get(ext.procedure)) \
                | _done(tuple((i.body, i.cond) for i in ext.items))
        if isinstance(decl, ast.ExtendDecl):
            new = decl.decl
            out = {(_TABLE_OF.get(type(new), "card"), new.name)}
            if isinstance(new, (ast.KindDecl, ast.CardDecl)):
                out |= {("attr", a.name) for a in new.attrs}
            return out | (self._facts(new) if isinstance(new, ast.CardDecl) else set())
        if isinstance(decl, ast.RemoveDecl):
            if decl.kind == "precedence":
                winner, _, loser = decl.name.partition(" over ")
                return {_order(winner.strip(), loser.strip())} | self._about(winner.strip(), before) \
                    | self._about(loser.strip(), before)
            table = getattr(before, _REMOVED.get(decl.kind, ""), {})
            return self._facts(table.get(decl.name)) | ({("invariants",)} if decl.kind == "invariant" else set())
        if isinstance(decl, ast.CardDecl):
            return self._facts(decl) | self._new_values(decl, before)
        return self._facts(decl)

    @staticmethod
    def _new_values(card: ast.CardDecl, before: Program) -> set:
        """("attr", a) for each attribute an added card gives a value no card of its kind had: a rule that
        reads it may now apply where it could not."""
        def literal(e):
            return (type(e).__name__, getattr(e, "value", getattr(e, "id", id(e))))
        out = set()
        for attr in card.attrs:
            known = {literal(a.value) for c in before.cards.values() if c.kind == card.kind
                     for a in c.attrs if a.name == attr.name}
            if literal(attr.value) not in known:
                out.add(("attr", attr.name))
        return out

    @staticmethod
    def _previous(decl, before: Program):
        if isinstance(decl, ast.RuleDecl):
            return before.rules.get(decl.name)
        if isinstance(decl, ast.CardDecl):
            return before.cards.get(decl.name)
        for table in ("actions", "quantities", "tables", "procedures", "constraints", "configurations"):
            if isinstance(getattr(before, table).get(getattr(decl, "name", None)), type(decl)):
                return getattr(before, table)[decl.name]
        return None

    def _about(self, rule: str, program: Program) -> set:
        """("about", x) for what a rule is about (nothing for a power)."""
        found = self.p.rules.get(rule) or program.rules.get(rule)
        return {("about", h.pattern.name) for h in found.heads} if found is not None else set()

    def _facts(self, decl) -> set:
        """The keys a declaration stands for (what a question that reads it has among its keys)."""
        if decl is None:
            return set()
        if isinstance(decl, ast.RuleDecl):
            return {("rule", decl.name)} | {("about", h.pattern.name) for h in decl.heads} | _done(decl.heads)
        if isinstance(decl, ast.CardDecl):
            out = {("card", decl.name)}
            for rule in decl.rules:
                out |= self._facts(rule)
            for power in decl.powers:
                out |= {("power", f'"{decl.name}".{power.name}')} | _done(power.body) | _done(power.requires)
            return out
        if isinstance(decl, ast.PrecedenceDecl):
            out = {_order(str(decl.winner), str(decl.loser))}
            for side in (decl.winner, decl.loser):
                if side.card is None:
                    out |= self._about(side.name, self.p)
            return out
        if isinstance(decl, ast.ConstraintDecl):
            return {("invariants",)} if decl.invariant else {("constraints",)}
        if isinstance(decl, ast.GameDecl):
            return {("game",)}
        kind = _TABLE_OF.get(type(decl))
        if kind is None:        # decisions, configurations, sources, `before` hooks: no question reads them
            return set()
        out = {(kind, decl.name)}
        if kind in ("action", "quantity"):
            out.add(("about", decl.name))
        if kind in ("action", "procedure"):
            out |= _done(decl.body or ())
        return out

    # ------------------------------------------------------------ what a question reads
    def _global(self) -> set:
        out = set(_GLOBAL)
        for inv in self.p.invariants():
            out |= self.expr(inv.require) | self.expr(inv.when)
        return out

    def expr(self, e) -> set:
        """The keys an expression reads (the quantities and `can` it asks, with what they read)."""
        if e is None:
            return set()
        key = ("expr", id(e))
        if key in self._memo:
            return self._memo[key]
        self._memo[key] = out = set()        # a cycle (checked away, but cheap to guard) reads nothing more
        p = self.p
        for n in ast.walk(e):
            if isinstance(n, ast.Name):
                if n.id in p.vars:
                    out.add(("var", n.id))
                elif n.id in p.zones:
                    out.add(("zone", n.id))
                elif n.id in p.enums:
                    out.add(("enum", n.id))
                elif n.id in p.enum_members:
                    out.add(("enum", p.enum_members[n.id][0]))
            elif isinstance(n, ast.Call):
                if n.func in p.quantities:
                    out |= self.quantity(n.func)
                elif n.func in p.tables:
                    out.add(("table", n.func))
                elif n.func == "selected" and n.args and isinstance(n.args[0], ast.Name):
                    out.add(("kind", n.args[0].id))
            elif isinstance(n, ast.Can):
                out |= self.action(n.action)
            elif isinstance(n, ast.Attr):
                out.add(("attr", n.name))
            elif isinstance(n, ast.StrLit) and n.value in p.cards:
                out.add(("card", n.value))
        return out

    def quantity(self, name: str) -> set:
        """A quantity read: its declaration, its default, its value and adjust rules (and their order)."""
        key = ("quantity", name)
        if key in self._memo:
            return self._memo[key]
        self._memo[key] = out = {key, ("about", name)}
        decl = self.p.quantities[name]
        out |= self.expr(decl.default) | self._types(decl.params)
        for rule in self.p.rules.values():
            if any(h.pattern.name == name for h in rule.heads):
                out |= self.rule(rule)
        return out

    def action(self, name: str) -> set:
        """An action's legality asked (`can`): its chain of parents, and the rules about each."""
        key = ("can", name)
        if key in self._memo:
            return self._memo[key]
        self._memo[key] = out = set()
        chain, at = [], name
        while at and at not in chain and at in self.p.actions:
            chain.append(at)
            parent = self.p.actions[at].parent
            at = parent[0] if parent else None
        for a in chain:
            out |= {("action", a), ("about", a)} | self._types(self.p.actions[a].params)
            for rule in self.p.rules.values():
                if any(h.pattern.name == a and h.kind in ("permit", "forbid") for h in rule.heads):
                    out |= self.rule(rule)
        return out

    def rule(self, rule: ast.RuleDecl) -> set:
        """A rule read: its conditions and values, and its card's (the kind's `active` and `imitates`)."""
        key = ("rule", rule.name)
        if ("ruleread", rule.name) in self._memo:
            return self._memo[("ruleread", rule.name)]
        self._memo[("ruleread", rule.name)] = out = {key}
        for h in rule.heads:
            out |= self.expr(h.when) | self.expr(h.expr)
        if rule.card is not None and rule.card in self.p.cards:
            out |= self.card(rule.card)
        return out

    def card(self, name: str) -> set:
        kind = self.p.kinds.get(self.p.cards[name].kind)
        out = {("card", name)}
        if kind is not None:
            out.add(("kind", kind.name))
            for ref in (kind.active, kind.imitates, kind.controller):
                if ref is not None and ref[0] in self.p.quantities:
                    out |= self.quantity(ref[0])
        return out

    def _types(self, params) -> set:
        out = set()
        for prm in params:
            t = prm.type
            while isinstance(t, (ast.OptionalType, ast.SetType)):
                t = t.inner
            if t.name in self.p.enums:
                out.add(("enum", t.name))
            elif t.name in self.p.kinds:
                out.add(("kind", t.name))
        return out

    # ------------------------------------------------------------ the questions
    def involves(self, keys: set) -> bool:
        return self.everything or bool(keys & self.touched)

    def contradiction(self, permit: ast.RuleDecl, forbid: ast.RuleDecl, action: str) -> bool:
        """May ``permit`` and ``forbid`` apply together, judged on ``action`` (and is it settled)?"""
        keys = self.rule(permit) | self.rule(forbid) | {_order(permit.name, forbid.name)}
        keys |= {k for k in self.action(action) if k[0] == "action"} | self._types(self.p.actions[action].params)
        for name, _ in permit.overrides:
            keys.add(("rule", name))
            if name in self.p.rules:
                keys |= self.rule(self.p.rules[name])
        return self.involves(keys)

    def competing(self, first: ast.RuleDecl, second: ast.RuleDecl, quantity: str) -> bool:
        keys = self.rule(first) | self.rule(second) | {_order(first.name, second.name), ("quantity", quantity)}
        return self.involves(keys | self._types(self.p.quantities[quantity].params))

    def order(self, first: str, second: str, window: str, cards: tuple[str, str], decls) -> bool:
        """May two powers (``"Card".name``) reacting to ``window`` both be active, and is their order set?"""
        keys = {("power", first), ("power", second), _order(first, second), ("window", window)}
        for card, decl in zip(cards, decls):
            keys |= self.card(card) | self.expr(decl.requires)
        if window in self.p.windows:
            keys |= self._types(self.p.windows[window].params)
        return self.involves(keys)

    def dead(self, rule: ast.RuleDecl, head: ast.RuleHead) -> bool:
        name = head.pattern.name
        decl = self.p.actions.get(name) or self.p.quantities.get(name)
        keys = self.rule(rule) | {("constraints",)}       # whether it applies in a game they allow
        return self.involves(keys | (self._types(decl.params) if decl is not None else set()))

    def dangling_rule(self, rule: ast.RuleDecl, action: str, descendants: list[str]) -> bool:
        """Is a rule about an action nothing does a finding the files may have changed?"""
        return self.involves({("rule", rule.name)} | {("doers", a) for a in descendants}
                             | {("action", a) for a in descendants})

    def escape(self, rule: ast.RuleDecl, actions: list[str]) -> bool:
        """Is a rule that leaves ``actions`` of a category out a finding the files may have changed?"""
        return self.involves({("rule", rule.name)} | {("action", a) for a in actions})

    def dangling_power(self, side: ast.Subject, precedence: ast.PrecedenceDecl) -> bool:
        keys = {_order(str(precedence.winner), str(precedence.loser)), ("power", str(side))}
        return self.involves(keys | ({("card", side.card)} if side.card else set()))
