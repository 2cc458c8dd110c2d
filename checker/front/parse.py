"""parse: text → Lark parse trees, with every syntax error as a diagnostic.

The grammar lives in ``grammar/rules.lark`` at the top of a checkout; an
installed package carries a copy in ``checker/_grammar/``.  When a file has a
syntax error, it is cut into top-level items (at ``{ }`` depth 0) and each item
is parsed on its own, so one mistake does not hide the next.
"""

from __future__ import annotations

import functools
import re

import lark
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from checker.base.diagnostics import Reporter
from checker.front.grammar_file import grammar_path as _grammar_path
from checker.base.source import SourceFile, Span

__all__ = ["grammar_text", "parser", "parse_file", "item_bounds", "parse_item", "report_item",
           "cut_short", "MAX_NESTING", "TOP_LEVEL_KEYWORDS"]

MAX_NESTING = 64

TOP_LEVEL_KEYWORDS = (
    "overlay", "game", "source", "enum", "grid", "record", "kind", "var", "counter", "zone", "window", "action",
    "quantity", "table", "card", "rule", "precedence", "constraint", "invariant", "procedure", "configuration",
    "decision", "remove", "replace", "extend", "before", "rename", "example",
)


@functools.cache
def grammar_text() -> str:
    return _grammar_path().read_text(encoding="utf-8")


@functools.cache
def parser() -> lark.Lark:
    # cache=True keeps the LALR tables in the temp directory, keyed by the grammar's hash:
    # building them takes longer than checking the whole bundled spec.
    return lark.Lark(grammar_text(), parser="lalr", propagate_positions=True, maybe_placeholders=False,
                     cache=True)


# ---------------------------------------------------------------- expected tokens, for people

_NAMED = {
    "NAME": "a name", "STRING": "a string", "INT": "a number", "$END": "the end of the file",
}


@functools.cache
def _terminal_display() -> dict[str, str]:
    shown: dict[str, str] = {}
    for term in parser().terminals:
        if term.name in _NAMED:
            shown[term.name] = _NAMED[term.name]
        elif term.pattern.type == "str":
            shown[term.name] = f"'{term.pattern.value}'"
        else:
            shown[term.name] = term.name.lower()
    shown.update(_NAMED)
    return shown


_EXPRESSION_START = {"INT", "STRING", "NAME", "LPAR", "LBRACE", "MINUS", "TRUE", "FALSE", "NONE", "NOT", "CAN",
                     "IF", "COUNT", "SUM", "ANY", "ALL", "THE", "ONLY", "MAX", "MIN", "ARGMAX", "ARGMIN", "FILTER",
                     "UNION", "COLLECT", "CONNECTED", "PATH", "JOUEUR"}
_STATEMENT_START = {"LET", "SET", "CHOOSE", "IF", "FOR", "REPEAT", "TRANSFER", "RESET", "MOVE", "DRAW", "SHUFFLE",
                    "REVEAL", "DO", "CALL", "SIGNAL", "OFFER", "END", "STOP", "CANCEL", "LOG", "CITE", "DECISION",
                    "HOOK", "RETARGET", "SWAP", "EACH", "INSTALL"}


def describe_expected(names) -> str:
    """Say what the parser expected, the way a person would: "an expression", "a statement", "'}'"."""
    display = _terminal_display()
    names = set(names)
    summary = []
    if {"INT", "STRING", "NAME", "LPAR"} <= names:
        names -= _EXPRESSION_START
        summary.append("an expression")
    if {"LET", "SET", "CHOOSE", "DO"} <= names:
        names -= _STATEMENT_START
        summary.append("a statement")
    items = summary + sorted({display.get(n, n) for n in names}, key=lambda s: (s.startswith("'") is False, s))
    if len(items) > 8:
        items = items[:8] + [f"… ({len(items) - 8} more)"]
    return ", ".join(items)


def _token_text(token: lark.Token) -> str:
    text = str(token)
    if token.type == "$END" or not text:
        return "the end of the file"
    if len(text) > 40:
        text = text[:37] + "..."
    return f"'{text}'"


# ---------------------------------------------------------------- chunking for recovery

_KEYWORD_LINE = re.compile(r"[ \t]*(" + "|".join(TOP_LEVEL_KEYWORDS) + r")\b")


_ITEM_NAME = re.compile(r'\s*(\w+)\s+(?:\w+\s+)?("[^"\n]*"|\w+)')


def _scan(text: str) -> tuple[list[int], list[int]]:
    """Return the offsets where top-level items start, and where items first nest too deep."""
    starts: list[int] = []
    depth = 0
    too_deep: list[int] = []
    i, n = 0, len(text)
    at_line_start = True
    while i < n:
        ch = text[i]
        if at_line_start:
            # an item starts at a keyword at depth 0 — or at a keyword in the first column,
            # whatever came before (so an unclosed bracket does not swallow the rest of the file)
            m = _KEYWORD_LINE.match(text, i)
            if m and (depth == 0 or m.start(1) == i):
                starts.append(i)
                depth = 0
        at_line_start = False
        if ch == "\n":
            at_line_start = True
        elif ch == "#":
            j = text.find("\n", i)
            i = n if j < 0 else j
            continue
        elif ch == '"':
            j = i + 1
            while j < n and text[j] not in '"\n':
                j += 2 if text[j] == "\\" else 1
            i = j + 1
            continue
        elif ch in "([{":
            depth += 1
            if depth > MAX_NESTING and (not too_deep or (starts and too_deep[-1] < starts[-1])):
                too_deep.append(i)
        elif ch in ")]}":
            depth = max(0, depth - 1)
        i += 1
    return starts, too_deep


def _span_at(source: SourceFile, offset: int, length: int = 1) -> Span:
    line = source.text.count("\n", 0, offset) + 1
    col = offset - (source.text.rfind("\n", 0, offset) + 1) + 1
    return Span(source.name, line, col, line, col + length)


def _report(error: UnexpectedInput, source: SourceFile, reporter: Reporter) -> None:
    if isinstance(error, UnexpectedToken):
        tok = error.token
        expected = getattr(error, "accepts", None) or error.expected
        if tok.type == "$END":
            _report_eof(expected, source, reporter)
            return
        line, col = tok.line or 1, tok.column or 1
        span = Span(source.name, line, col, line, col + max(1, len(str(tok))))
        hint = f"expected {describe_expected(expected)}" if expected else None
        if "NAME" in expected and str(tok).isidentifier() and str(tok) in _keyword_names():
            hint = f"'{tok}' is a keyword of the language and cannot be used as a name; choose another name"
        elif tok.type in ("REQUIRES", "WHEN", "LIMIT", "MANDATORY") and "LET" in expected:
            hint = f"a power's clauses (when, limit, mandatory, requires) come before its statements: " \
                   f"move '{tok}' up, just after the power's opening brace"
        reporter.error("E0101", f"unexpected {_token_text(tok)}", span, hint=hint)
    elif isinstance(error, UnexpectedCharacters):
        span = Span(source.name, error.line, error.column, error.line, error.column + 1)
        char = error.char
        hint = None
        if char in "“”«»":
            hint = 'strings are written between straight double quotes: "…"'
        elif char == "'":
            hint = "strings use double quotes; an apostrophe is fine inside them"
        reporter.error("E0102", f"unexpected character {char!r}", span, hint=hint)
    elif isinstance(error, UnexpectedEOF):
        _report_eof(error.expected, source, reporter)


def _report_eof(expected, source: SourceFile, reporter: Reporter) -> None:
    lines = source.text.rstrip("\n").split("\n")
    span = Span(source.name, len(lines), len(lines[-1]) + 1, len(lines), len(lines[-1]) + 2)
    reporter.error("E0103", "unexpected end of file", span,
                   hint=f"expected {describe_expected(expected)}" if expected else None)


_LITERAL = re.compile(r'"((?:[^"\\]|\\.)*)"i?')


@functools.cache
def _keyword_names() -> frozenset[str]:
    # read from the grammar's text, not from the parser: a command whose spec comes from the disk cache (the
    # conflict search's scope, the LSP) then never builds the Lark parser (about 0.06 s) just for this set;
    # tests/test_parse_keywords.py holds it equal to the parser's own string terminals
    words = set()
    for line in grammar_text().splitlines():
        for m in _LITERAL.finditer(line.split("//", 1)[0]):
            if m.group(1).isidentifier():
                words.add(m.group(1))
    return frozenset(words)


def parser_keyword_names() -> frozenset[str]:
    """The reserved words as the Lark parser's string terminals (what :func:`keywords` must equal)."""
    return frozenset(t.pattern.value for t in parser().terminals
                     if t.pattern.type == "str" and t.pattern.value.isidentifier())


def keywords() -> frozenset[str]:
    """The reserved words of the language."""
    return _keyword_names()


def item_bounds(text: str) -> tuple[list[tuple[int, int]], list[int]]:
    """The (begin, end) offsets of a file's top-level items, and the offsets where an item first nests too deep."""
    starts, too_deep = _scan(text)
    bounds = starts + [len(text)]
    if not starts or starts[0] != 0:
        bounds = [0] + bounds
    return list(zip(bounds, bounds[1:])), too_deep


def parse_item(text: str, begin: int, end: int) -> lark.Tree:
    """Parse one top-level item of a file where it stands (its positions are the file's); raises UnexpectedInput."""
    prefix_lines = text.count("\n", 0, begin)
    col = begin - (text.rfind("\n", 0, begin) + 1)
    return parser().parse("\n" * prefix_lines + " " * col + text[begin:end])


def parse_file(source: SourceFile, reporter: Reporter) -> list[lark.Tree]:
    """Parse a whole file; returns the parse trees of the items that parsed.

    The first tree is the whole file when it parses; otherwise one tree per
    top-level item that parses on its own.
    """
    items, too_deep = item_bounds(source.text)
    if not too_deep:
        try:
            return [parser().parse(source.text)]
        except UnexpectedInput as error:
            if len(items) <= 1 or (len(items) == 2 and not source.text[:items[0][1]].strip()):
                _report(error, source, reporter)   # a single item: parsing it again would say the same
                return []
    trees: list[lark.Tree] = []
    for begin, end in items:
        chunk = source.text[begin:end]
        if not chunk.strip():
            continue
        deep = [offset for offset in too_deep if begin <= offset < end]
        if deep:
            # an item nested deeper than any spec needs is reported, not parsed
            reporter.error("E0104", f"brackets nested more than {MAX_NESTING} deep", _span_at(source, deep[0]),
                           hint="split the expression with `let` or a quantity")
            continue
        try:
            trees.append(parse_item(source.text, begin, end))
        except UnexpectedInput as error:
            report_item(error, source, begin, end, reporter)
    return trees


def report_item(error: UnexpectedInput, source: SourceFile, begin: int, end: int, reporter: Reporter) -> None:
    """Report an item that does not parse; what it declares is then not reported again as unknown."""
    _report(error, source, reporter)
    named = _ITEM_NAME.match(source.text[begin:end])
    if named:
        reporter.unparsed.add(named.group(2).strip('"'))


def cut_short(error: UnexpectedInput) -> bool:
    """Whether parsing stopped at the end of the text (an item cut before its end, or unfinished)."""
    return isinstance(error, UnexpectedEOF) or (isinstance(error, UnexpectedToken) and error.token.type == "$END")
