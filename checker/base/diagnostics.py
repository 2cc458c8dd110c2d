"""Diagnostics: every problem found in a spec, located, collected, rendered once.

A :class:`Diagnostic` carries a stable code (``E0101``), a message, the
:class:`~checker.base.source.Span` it points at, optional notes (each possibly located)
and a hint.  Passes append to a :class:`Reporter`; the CLI renders them all at the
end, either for people (source line and caret) or one per line for editors and CI.
"""

from __future__ import annotations

import dataclasses
import difflib
import enum
import json
import re
from pathlib import Path
from typing import Iterable

from checker.base.source import SourceFile, SourceMap, Span

__all__ = ["Severity", "Note", "Diagnostic", "Reporter", "render_human", "render_short", "CODES", "suggest", "did_you_mean"]


class Severity(str, enum.Enum):
    ERROR = "error"
    WARNING = "warning"


# The catalogue of codes: one line each, shown by `rulebook explain`-style docs.
CODES: dict[str, str] = {
    "E0001": "the file cannot be read (missing, a directory, not text, not UTF-8)",
    "E0002": "the spec path holds no .rules file",
    "E0101": "syntax error: unexpected token",
    "E0102": "syntax error: unexpected character",
    "E0103": "syntax error: unexpected end of file",
    "E0104": "nesting too deep",
    "E0201": "duplicate definition",
    "E0202": "unknown name",
    "E0203": "unknown card",
    "E0204": "unknown rule",
    "E0205": "wrong kind of name",
    "E0206": "unknown attribute",
    "E0207": "missing attribute",
    "E0208": "unknown source",
    "E0301": "type mismatch",
    "E0302": "wrong number of arguments",
    "E0303": "not allowed here",
    "E0304": "value out of the declared range",
    "E0401": "quotation not found in the source text",
    "E0402": "source text cannot be read",
    "E0403": "source text outside the spec's directory",
    "E0501": "overlay names something the base does not declare",
    "E0502": "overlay header problem",
    "E0505": "a replaced procedure's precondition does not fit its replacement",
    "W0506": "`requires true` on a replacement that drops no precondition",
    "W0507": "`requires true` on a procedure that replaces none",
    "E0601": "configuration violates a constraint",
    "E0602": "configuration problem",
    "E0603": "constraint cannot be evaluated on a configuration",
    "E0801": "a range that may hold more integers than the limit",
    "E0802": "recursion without end",
    "E0803": "a var or zone indexed by an infinite type",
    "W0701": "decision never referenced",
    "W0702": "precedence between rules that cannot disagree",
}


@dataclasses.dataclass(frozen=True, slots=True)
class Note:
    message: str
    span: Span | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class Diagnostic:
    code: str
    message: str
    span: Span | None
    notes: tuple[Note, ...] = ()
    hint: str | None = None
    severity: Severity = Severity.ERROR

    def to_json(self) -> dict:
        def loc(span: Span | None) -> dict | None:
            if span is None:
                return None
            return {"file": span.file, "line": span.line, "column": span.column,
                    "end_line": span.end_line, "end_column": span.end_column}
        return {
            "severity": self.severity.value,
            "code": self.code,
            "message": self.message,
            "location": loc(self.span),
            "notes": [{"message": n.message, "location": loc(n.span)} for n in self.notes],
            "hint": self.hint,
        }


class Reporter:
    """Collects diagnostics from every pass; nothing is printed until the end."""

    def __init__(self) -> None:
        self.diagnostics: list[Diagnostic] = []
        # Names of declarations that did not parse: an "unknown name" about one of them
        # would only repeat the syntax error, so it is not reported.
        self.unparsed: set[str] = set()

    def error(self, code: str, message: str, span: Span | None, *, notes: Iterable[Note] = (),
              hint: str | None = None, subject: str | None = None) -> None:
        if subject is not None and subject in self.unparsed:
            return
        self.diagnostics.append(Diagnostic(code, message, span, tuple(notes), hint))

    def warning(self, code: str, message: str, span: Span | None, *, notes: Iterable[Note] = (),
                hint: str | None = None) -> None:
        self.diagnostics.append(Diagnostic(code, message, span, tuple(notes), hint, Severity.WARNING))

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity is Severity.ERROR]

    def sorted(self) -> list[Diagnostic]:
        def key(d: Diagnostic):
            s = d.span
            return (s.file, s.line, s.column, d.code) if s else ("", 0, 0, d.code)
        return sorted(self.diagnostics, key=key)


# ---------------------------------------------------------------- rendering

_MAX_SHOWN = 100  # characters of a source line shown around the caret


def _excerpt(text: str, column: int, width: int) -> tuple[str, int, int]:
    """Cut a long line around ``column`` (1-based); return (text, caret column, caret width)."""
    if len(text) <= _MAX_SHOWN:
        return text, column, max(1, min(width, len(text) - column + 1))
    start = max(0, column - 1 - _MAX_SHOWN // 2)
    piece = text[start:start + _MAX_SHOWN]
    prefix = "…" if start > 0 else ""
    suffix = "…" if start + _MAX_SHOWN < len(text) else ""
    caret = column - start + len(prefix)
    return prefix + piece + suffix, caret, max(1, min(width, _MAX_SHOWN - (column - 1 - start)))


_LONG_TOKEN = re.compile(r"\S{81,}")


def _cut(text: str | None) -> str | None:
    """Shorten any enormous token a message quotes (a megabyte-long name, say); prose is kept whole."""
    if text is None or len(text) <= 80:
        return text
    return _LONG_TOKEN.sub(lambda m: f"{m.group()[:40]}…({len(m.group()) - 60} more)…{m.group()[-20:]}", text)


def _location(span: Span | None) -> str:
    return f"{span.file}:{span.line}:{span.column}" if span else "<spec>"


def render_human(diagnostics: Iterable[Diagnostic], sources: SourceMap, *, color: bool = False) -> str:
    def paint(text: str, code: str) -> str:
        return f"\x1b[{code}m{text}\x1b[0m" if color else text

    out: list[str] = []
    for d in diagnostics:
        sev = paint(d.severity.value, "1;31" if d.severity is Severity.ERROR else "1;33")
        out.append(f"{_location(d.span)}: {sev}[{d.code}]: {paint(_cut(d.message), '1')}")
        if d.span is not None:
            line = sources.line(d.span.file, d.span.line)
            if line is not None:
                width = (d.span.end_column - d.span.column) if d.span.end_line == d.span.line else len(line)
                shown, caret, w = _excerpt(line.expandtabs(1), d.span.column, max(1, width))
                gutter = f"{d.span.line:>5} | "
                out.append(gutter + shown)
                out.append(" " * (len(gutter) - 2) + "| " + " " * (caret - 1) + paint("^" * w, "1;32"))
        for note in d.notes:
            where = f" ({_location(note.span)})" if note.span else ""
            out.append(f"      = note: {_cut(note.message)}{where}")
        if d.hint:
            out.append(f"      = hint: {_cut(d.hint)}")
        out.append("")
    return "\n".join(out)


def render_short(diagnostics: Iterable[Diagnostic]) -> str:
    """One line per diagnostic: ``file:line:col: error[CODE]: message``."""
    lines = []
    for d in diagnostics:
        extra = f" (hint: {_cut(d.hint)})" if d.hint else ""
        lines.append(f"{_location(d.span)}: {d.severity.value}[{d.code}]: {_cut(d.message)}{extra}")
    return "\n".join(lines) + ("\n" if lines else "")


def to_json(diagnostics: Iterable[Diagnostic]) -> str:
    return json.dumps([d.to_json() for d in diagnostics], ensure_ascii=False, indent=2)


# ---------------------------------------------------------------- did you mean

def suggest(name: str, candidates: Iterable[str]) -> str | None:
    """A "did you mean" for ``name`` among ``candidates``, ignoring case and accents' absence."""
    pool = list(dict.fromkeys(candidates))
    if not pool:
        return None
    folded = {_fold(c): c for c in pool}
    if _fold(name) in folded:
        return folded[_fold(name)]
    best = difflib.get_close_matches(_fold(name), list(folded), n=1, cutoff=0.75)
    return folded[best[0]] if best else None


def _fold(text: str) -> str:
    import unicodedata
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch)).replace("’", "'")


def did_you_mean(name: str, candidates: Iterable[str], quote: str = "'") -> str | None:
    best = suggest(name, candidates)
    return f"did you mean {quote}{best}{quote}?" if best else None


_SEAT_NAME = re.compile(r"\bJoueur_(\d+)\b")


def render_expression(diagnostics: Iterable[Diagnostic], name: str, prefix: str, typed: str) -> str:
    """The diagnostics of a one-line expression a command reads (``rulebook eval``'s EXPR, ``reach``'s CONDITION)
    as its user wrote it.  The expression was checked as ``prefix + text`` in a file called ``name``, with
    ``Joueur 2`` written as the name ``Joueur_2`` (same length): the lines move back by the prefix's (a span in
    the prefix points at the expression's start), the columns stay, and the messages say ``Joueur 2`` again."""
    lines = prefix.count("\n")

    def moved(span):
        if span is None or span.file != name:
            return span
        if span.line <= lines:
            return dataclasses.replace(span, line=1, column=1, end_line=1, end_column=2)
        return dataclasses.replace(span, line=span.line - lines, end_line=max(span.line, span.end_line) - lines)

    def spoken(text: str | None) -> str | None:
        return _SEAT_NAME.sub(r"Joueur \1", text) if text else text
    shown = []
    for d in diagnostics:
        notes = tuple(dataclasses.replace(n, span=moved(n.span), message=spoken(n.message)) for n in d.notes)
        d = dataclasses.replace(d, span=moved(d.span), notes=notes, message=spoken(d.message), hint=spoken(d.hint))
        if d.code == "E0103":
            d = dataclasses.replace(d, message=d.message.replace("end of file", "end of the expression"))
        shown.append(d)
    sources = SourceMap()
    sources.add(SourceFile(name, Path(name), typed))
    return render_human(shown, sources)
