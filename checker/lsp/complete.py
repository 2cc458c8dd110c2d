"""Completion: what may be written at the cursor, read from the text just before it.

The line up to the cursor says what is wanted — a card name inside a string, an
attribute after ``d.``, an action after ``do``/``permit``/``forbid``/``can``, a procedure
after ``call`` — and the checked spec says which names there are.  Local names come from
the index of the check; while the declaration being typed does not parse (the usual
state in the middle of a line), they come from the last check in which the file parsed.
"""

from __future__ import annotations

import dataclasses
import re

from checker.lsp.hover import signature, type_text
from checker.lsp.index import Binding, Index, Outline
from checker.lsp.workspace import Analysis
from checker.front.parse import keywords
from checker.front.typecheck import BUILTIN_FUNCTIONS, BUILTIN_NAMES
from checker.front.types import KindT, Opt, Ty

__all__ = ["Item", "complete"]


@dataclasses.dataclass(frozen=True)
class Item:
    label: str
    kind: str                    # keyword, action, procedure, window, rule, decision, quantity, table, var, zone,
    detail: str | None = None    # enum, member, kind, type, card, attribute, power, local, builtin
    replace_from: int | None = None   # 1-based column where the text it replaces starts (inside a string)


_WORD = r"[^\W\d]\w*"
_AFTER_KEYWORD = {"do": "action", "permit": "action", "forbid": "action", "can": "action", "refines": "action",
                  "call": "procedure", "signal": "window", "overrides": "rule", "decision": "decision",
                  "value": "quantity", "adjust": "quantity", "include": "kind"}
_KEYWORD_BEFORE = re.compile(r"(?<!\w)(" + "|".join(_AFTER_KEYWORD) + r")\s+(?:" + _WORD + r"\s*,\s*)*(\w*)$")
_ATTRIBUTE = re.compile(r'(?:(?<![\w"])(' + _WORD + r')|"([^"\n]*)")\.(\w*)$')
_WHEN_WINDOW = re.compile(r"^\s*when\s+(\w*)$")
_TYPE_POSITION = re.compile(r"(?:[(,]\s*" + _WORD + r"\s*:|\b(?:of|var\s+" + _WORD + r"(?:\[\w*\])?\s*:)|\[)\s*(\w*)$")
_NO_CARDS = re.compile(r"\b(?:cite(?:\s+" + _WORD + r")?|log|message|finish)\s+\"[^\"]*$|^\s*(?:overlay|game|source)\b")
_INCLUDE = re.compile(r"\binclude\s+(" + _WORD + r")\s*:")
PRIMITIVE_TYPES = ("Int", "Bool", "Text", "Player")


def _string_start(prefix: str) -> int | None:
    """The index of the quote that opens the string the cursor is in, or None (also None in a comment)."""
    opened = None
    i = 0
    while i < len(prefix):
        ch = prefix[i]
        if opened is None and ch == "#":
            return -1
        if ch == '"':
            opened = i if opened is None else None
        elif ch == "\\" and opened is not None:
            i += 1
        i += 1
    return opened


def complete(analysis: Analysis, stale: Analysis | None, file: str, line_text: str, line: int,
             column: int) -> list[Item]:
    """The completions at a 1-based position of ``file``; ``stale`` is the last check in which it parsed."""
    prefix = line_text[:max(0, column - 1)]
    quote = _string_start(prefix)
    if quote == -1:
        return []
    program = analysis.result.program
    if quote is not None:
        if _NO_CARDS.search(prefix):
            return []
        include = _INCLUDE.search(prefix)
        cards = program.cards_of(include.group(1)) if include else program.cards.values()
        return [Item(c.name, "card", c.kind, replace_from=quote + 2) for c in cards]
    attribute = _ATTRIBUTE.search(prefix)
    if attribute is not None:
        return _attributes(analysis, stale, file, line, column, attribute.group(1), attribute.group(2))
    keyword = _KEYWORD_BEFORE.search(prefix)
    if keyword is not None:
        return _globals(analysis, _AFTER_KEYWORD[keyword.group(1)])
    if _TYPE_POSITION.search(prefix):
        return _types(analysis)
    items = _globals(analysis, "window") if _WHEN_WINDOW.search(prefix) else []
    items += [Item(b.symbol.name, "local", str(b.type) if b.type is not None else None)
              for b in _unique(_scope(analysis, stale, file, line, column))]
    for kind in ("var", "zone", "quantity", "table", "member", "enum", "kind"):
        items += _globals(analysis, kind)
    items += [Item(name, "builtin") for name in (*BUILTIN_NAMES, *BUILTIN_FUNCTIONS)]
    items += [Item(word, "keyword") for word in sorted(keywords()) if word.isidentifier()]
    return items


def _unique(bindings: list[Binding]) -> list[Binding]:
    seen: dict[str, Binding] = {}
    for b in bindings:
        seen.setdefault(b.symbol.name, b)
    return list(seen.values())


def _inside(outlines: list[Outline], line: int, column: int) -> list[Outline]:
    """The outline entries containing a position, outermost first."""
    for entry in outlines:
        s = entry.span
        if (s.line, s.column) <= (line, column) <= (s.end_line, s.end_column):
            return [entry, *_inside(list(entry.children), line, column)]
    return []


def _current_or_stale(analysis: Analysis, stale: Analysis | None, file: str, line: int,
                      column: int) -> tuple[Index, Analysis]:
    """The index that knows the declaration at the cursor: this check's, or the last clean one's."""
    index = analysis.index()
    if _inside(index.outlines.get(file, []), line, column) or stale is None:
        return index, analysis
    return stale.index(), stale


def _scope(analysis: Analysis, stale: Analysis | None, file: str, line: int, column: int) -> list[Binding]:
    index, _ = _current_or_stale(analysis, stale, file, line, column)
    return index.scope_at(file, line, column)


def _nearest(index: Index, file: str, name: str, line: int) -> Binding | None:
    """The binding of ``name`` in ``file`` closest to ``line``: a guess, for a declaration being typed."""
    candidates = [b for b in index.bindings.get(file, ()) if b.symbol.name == name]
    return min(candidates, key=lambda b: abs(b.symbol.site.line - line), default=None)


def _attributes(analysis: Analysis, stale: Analysis | None, file: str, line: int, column: int,
                name: str | None, card_name: str | None) -> list[Item]:
    program = analysis.result.program
    index, source = _current_or_stale(analysis, stale, file, line, column)
    kind: str | None = None
    items: list[Item] = []
    if card_name is not None:
        card = program.cards.get(card_name)
        if card is None:
            return []
        kind = card.kind
        items += [Item(p.name, "power", p.summary) for p in card.powers]
    elif name == "this":
        card = next((e for e in _inside(index.outlines.get(file, []), line, column) if e.kind == "card"), None)
        kind = program.cards[card.name].kind if card is not None and card.name in program.cards else None
    elif name is not None:
        bindings = [b for b in index.scope_at(file, line, column) if b.symbol.name == name]
        binding = bindings[0] if bindings else _nearest(index, file, name, line)
        kind = _kind_of(binding.type) if binding is not None else None
    decl = program.kinds.get(kind) if kind is not None else None
    if decl is None:
        return items
    items += [Item(a.name, "attribute", type_text(a.type)) for a in decl.attrs]
    return items + [Item("name", "attribute", "Text")]


def _kind_of(ty: Ty | None) -> str | None:
    ty = ty.inner if isinstance(ty, Opt) else ty
    return ty.name if isinstance(ty, KindT) else None


def _types(analysis: Analysis) -> list[Item]:
    program = analysis.result.program
    return ([Item(t, "type") for t in PRIMITIVE_TYPES] + [Item(e, "enum") for e in program.enums]
            + [Item(k, "kind") for k in program.kinds])


def _globals(analysis: Analysis, kind: str) -> list[Item]:
    p = analysis.result.program
    if kind == "member":
        return [Item(name, "member", enum) for name, (enum, _) in p.enum_members.items()]
    table = {"action": p.actions, "procedure": p.procedures, "window": p.windows, "rule": p.rules,
             "decision": p.decisions, "quantity": p.quantities, "table": p.tables, "var": p.vars,
             "zone": p.zones, "enum": p.enums, "kind": p.kinds}[kind]
    return [Item(name, kind, _detail(kind, decl)) for name, decl in table.items()]


def _detail(kind: str, decl) -> str | None:
    if kind in ("action", "procedure", "window"):
        return signature(decl.name, decl.params)
    if kind in ("quantity", "table"):
        return f"{signature(decl.name, decl.params)}: {type_text(decl.type)}"
    if kind == "var":
        return ("counter" if decl.counter else type_text(decl.type)) + (f" [{decl.index.name}]" if decl.index else "")
    if kind == "zone":
        return f"{'pile' if decl.ordered else 'set'} of {decl.kind.name}"
    if kind == "rule":
        return f'of "{decl.card}"' if decl.card else None
    if kind == "decision":
        return decl.text[:80]
    return None
