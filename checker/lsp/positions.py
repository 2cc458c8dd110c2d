"""Positions: the checker's spans (1-based, columns in characters) and LSP's (0-based, code units).

LSP counts columns in UTF-16 code units unless client and server agree on another
encoding; a character outside the Basic Multilingual Plane (an emoji in a comment) is
two UTF-16 units, and an accented letter (``trésor``) two UTF-8 bytes.  Every conversion
goes through the text of the line, so both sides count the same characters.

>>> lines = ["# 🏰 trésor[p]"]
>>> to_units(lines, 1, 5, "utf-16"), to_units(lines, 1, 5, "utf-8"), to_units(lines, 1, 5, "utf-32")
(5, 7, 4)
>>> from_units(lines, 0, 5, "utf-16")
(1, 5)
"""

from __future__ import annotations

from lsprotocol import types

from checker.base.source import Span

__all__ = ["to_units", "from_units", "span_range", "contains"]


def _units(text: str, encoding: str) -> int:
    if encoding == "utf-8":
        return len(text.encode("utf-8"))
    if encoding == "utf-32":
        return len(text)
    return len(text.encode("utf-16-le")) // 2


def to_units(lines: list[str], line: int, column: int, encoding: str = "utf-16") -> int:
    """The LSP character offset of the 1-based ``column`` of the 1-based ``line``."""
    text = lines[line - 1] if 1 <= line <= len(lines) else ""
    return _units(text[:max(0, column - 1)], encoding)


def from_units(lines: list[str], line: int, character: int, encoding: str = "utf-16") -> tuple[int, int]:
    """The 1-based (line, column) of an LSP position; past the end of a line is its end."""
    number = min(max(line, 0), max(len(lines) - 1, 0))
    text = lines[number] if lines else ""
    counted = column = 0
    for char in text:
        if counted >= character:
            break
        counted += _units(char, encoding)
        column += 1
    return number + 1, column + 1


def span_range(span: Span | None, lines: list[str], encoding: str = "utf-16") -> types.Range:
    """The LSP range of a span (the start of the file when there is no span)."""
    if span is None:
        return types.Range(types.Position(0, 0), types.Position(0, 0))
    start = types.Position(max(span.line - 1, 0), to_units(lines, span.line, span.column, encoding))
    end = types.Position(max(span.end_line - 1, 0), to_units(lines, span.end_line, span.end_column, encoding))
    if (end.line, end.character) < (start.line, start.character):
        end = start
    return types.Range(start, end)


def contains(span: Span, line: int, column: int) -> bool:
    """Whether the 1-based (line, column) is inside ``span`` (its end included: a cursor just after a name)."""
    return (span.line, span.column) <= (line, column) <= (span.end_line, span.end_column)
