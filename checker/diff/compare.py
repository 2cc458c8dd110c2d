"""compare: what two rule sets declare differently, read from their typed ASTs.

Declarations are compared by *shape*: the AST without source positions, quotations, named
decisions, summaries and log lines, with every card named by its name in the base spec (an
overlay's `rename` is not a change).  A shape is what behaviour can depend on, so two
declarations with the same shape behave the same; a different shape is a change the semantic
search (:mod:`checker.diff.semantic`) then judges where it can.

:func:`dependencies` gives, for an action's legality or a quantity's value, the shapes of every
declaration it can read (the rules about it, the quantities, tables and actions their
conditions name, the precedences between those rules, the cards' attributes): when both sides
give the same set, the legality or value is the same and no solver is needed.
"""

from __future__ import annotations

import dataclasses
import difflib

from checker.front import ast
from checker.base.source import Span

__all__ = ["Shaper", "dependencies", "source_excerpt", "TABLES"]

# The declaration tables of a program, with what a change in each means.
TABLES = ("enums", "kinds", "vars", "zones", "windows", "actions", "quantities", "tables", "cards", "rules",
          "constraints", "decisions", "procedures", "configurations", "sources")

# (an action's `tags` are read through the rules collect writes from them, which are compared semantically)
_SKIPPED_FIELDS = {"span", "name_span", "kind_span", "cites", "decisions", "decision", "summary", "doc", "title",
                   "tags"}


class Shaper:
    """Shapes of one side's declarations, with cards named by their base names."""

    def __init__(self, program):
        self.p = program
        self._cache: dict[int, object] = {}

    def card(self, name: str) -> str:
        return self.p.base_name(name)

    def shape(self, node):
        key = id(node)
        hit = self._cache.get(key)
        if hit is not None and hit[0] is node:
            return hit[1]
        out = self._shape(node)
        if dataclasses.is_dataclass(node):
            self._cache[key] = (node, out)
        return out

    def _shape(self, node):
        if isinstance(node, tuple):
            return tuple(self.shape(x) for x in node if not _documentation(x) and not isinstance(x, Span))
        if isinstance(node, Span) or not dataclasses.is_dataclass(node):
            return node
        if isinstance(node, ast.StrLit):
            return ("StrLit", self.card(node.value))
        fields = []
        for field in dataclasses.fields(node):
            if field.name in _SKIPPED_FIELDS:
                continue
            value = getattr(node, field.name)
            if isinstance(value, Span):
                continue
            if isinstance(value, str) and ((field.name == "name" and isinstance(node, ast.CardDecl))
                                           or (field.name == "card" and isinstance(node, (ast.RuleDecl, ast.Subject)))):
                value = self.card(value)
            elif isinstance(node, ast.ConfigInclude) and field.name == "names" or \
                    isinstance(node, ast.ConfigReplace) and field.name == "new":
                value = tuple(self.card(n) for n, _ in value)
            elif isinstance(node, ast.ConfigReplace) and field.name == "old":
                value = self.card(value[0])
            else:
                value = self.shape(value)
            fields.append((field.name, value))
        return (type(node).__name__, tuple(fields))

    # ------------------------------------------------------------ tables
    def entries(self, table: str) -> dict[str, object]:
        """name (base name for cards) -> declaration."""
        decls = getattr(self.p, table)
        if table == "cards":
            return {self.card(n): d for n, d in decls.items()}
        return dict(decls)

    def precedences(self) -> dict[str, ast.PrecedenceDecl]:
        return {f"{self._subject(x.winner)} over {self._subject(x.loser)}": x for x in self.p.precedences}

    def _subject(self, s: ast.Subject) -> str:
        return f'"{self.card(s.card)}".{s.name}' if s.card else s.name


def _documentation(node) -> bool:
    """Statements that change nothing in a game: quotations, named decisions, log lines."""
    return isinstance(node, (ast.CiteStmt, ast.DecisionStmt, ast.Log, ast.Cite))


# ---------------------------------------------------------------- what a legality or a value reads

def dependencies(shaper: Shaper, subject: str, card_attrs: object) -> frozenset:
    """The shapes of everything the legality of action ``subject`` (or the value of quantity ``subject``)
    can depend on, as a set: equal sets on both sides mean equal legality (or value)."""
    p = shaper.p
    out: set = set()
    seen: set[tuple[str, str]] = set()
    stack = [("action" if subject in p.actions else "quantity", subject)]
    reads_attrs = False
    while stack:
        what, name = stack.pop()
        if (what, name) in seen:
            continue
        seen.add((what, name))
        exprs = []
        if what == "action":
            chain, cursor = [], name
            while cursor in p.actions and cursor not in chain:
                chain.append(cursor)
                decl = p.actions[cursor]
                out.add(("action-params", cursor, shaper.shape(decl.params), decl.parent[0] if decl.parent else None))
                cursor = decl.parent[0] if decl.parent else None
            heads = [(r, h) for r in p.rules.values() for h in r.heads if h.pattern.name in chain
                     and h.kind in ("permit", "forbid")]
        else:
            decl = p.quantities.get(name)
            if decl is None:
                out.add(("missing", name))
                continue
            out.add(("quantity", name, shaper.shape(decl)))
            exprs.append(decl.default)
            heads = [(r, h) for r in p.rules.values() for h in r.heads if h.pattern.name == name]
        rules = {r.name for r, _ in heads}
        for r, h in heads:
            out.add(("rule", r.name, shaper.card(r.card) if r.card else None, shaper.shape(h),
                     tuple(sorted(o for o, _ in r.overrides if o in rules))))
            exprs += [x for x in (h.when, h.expr) if x is not None]
        for x in p.precedences:
            if x.winner.card is None and x.winner.name in rules and x.loser.name in rules:
                out.add(("precedence", x.winner.name, x.loser.name))
        for e in exprs:
            for node in ast.walk(e):
                if isinstance(node, ast.Call):
                    if node.func in p.quantities:
                        stack.append(("quantity", node.func))
                    elif node.func in p.tables:
                        out.add(("table", node.func, shaper.shape(p.tables[node.func])))
                elif isinstance(node, ast.Can):
                    stack.append(("action", node.action))
                elif isinstance(node, ast.Attr):
                    reads_attrs = True
                elif isinstance(node, (ast.Name, ast.Index)):
                    ident = node.id if isinstance(node, ast.Name) else getattr(node.obj, "id", None)
                    for table in ("vars", "zones", "enums"):
                        decl = getattr(p, table).get(ident)
                        if decl is not None:
                            out.add((table, ident, shaper.shape(decl)))
    if reads_attrs:
        out.add(("attributes", card_attrs))
    return frozenset(out)


# ---------------------------------------------------------------- showing a change

def source_excerpt(sources_a, decl_a, sources_b, decl_b, limit: int = 40) -> list[str]:
    """A unified diff of two declarations' source lines (either may be missing), at most ``limit`` lines.  A
    replacing procedure that keeps the precondition of the one it replaces (docs/language.md, *Overlays*) shows it
    in its header, where it would be written, with where it is written: the excerpt says what the program means."""
    a, name_a = _declaration_lines(sources_a, decl_a)
    b, name_b = _declaration_lines(sources_b, decl_b)
    out = list(difflib.unified_diff(_dedent(a), _dedent(b), name_a, name_b, lineterm="", n=1))
    if len(out) > limit:
        out = out[:limit] + [f"… ({len(out) - limit} more lines)"]
    return out


def _declaration_lines(sources, decl) -> tuple[list[str], str]:
    span = getattr(decl, "span", None)
    if span is None:
        return [], "/dev/null"
    source = sources.get(span.file)
    if source is None:
        return [], str(span)
    lines = [t.rstrip() for t in source.lines()[span.line - 1:span.end_line]]
    kept = getattr(decl, "requires", None) if isinstance(decl, ast.ProcedureDecl) else None
    if kept is not None and not _within(kept.span, span):
        lines = _with_kept_precondition(lines, _text(sources, kept.span), kept.span)
    return lines, f"{span.file}:{span.line}"


def _within(inner: Span, outer: Span) -> bool:
    return inner.file == outer.file and outer.line <= inner.line <= outer.end_line


def _text(sources, span: Span) -> str:
    """The source text a span covers, on one line."""
    source = sources.get(span.file)
    if source is None:
        return "…"
    lines = source.lines()[span.line - 1:span.end_line]
    if len(lines) == 1:
        return lines[0][span.column - 1:span.end_column - 1]
    parts = [lines[0][span.column - 1:], *lines[1:-1], lines[-1][:span.end_column - 1]]
    return " ".join(part.strip() for part in parts if part.strip())


def _with_kept_precondition(lines: list[str], requires: str, where: Span) -> list[str]:
    """The header of a replacing procedure written without `requires`: the body's `{` is the first one (its
    parameters' types have none), and the precondition it keeps goes before it, marked."""
    for i, line in enumerate(lines):
        at = line.find("{")
        if at >= 0:
            head = line[:at].rstrip()
            return lines[:i] + [f"{head} requires {requires} {line[at:]}"
                                + f"   # requires kept from the procedure it replaces ({where.file}:{where.line})"] \
                + lines[i + 1:]
    return lines


def _dedent(lines: list[str]) -> list[str]:
    indent = min((len(x) - len(x.lstrip()) for x in lines if x.strip()), default=0)
    return [x[indent:] for x in lines]
