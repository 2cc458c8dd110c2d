"""Traceability: which sentences of a source text the spec's citations cover.

A sentence is *traced* when some `cite` quotes it whole, or quotes each of its
clauses.  Headings (short lines without a full stop) and table rows are counted
apart: they are structure, not rules.

>>> split_sentences("Recevez 2 pièces d'or. Piochez 1 carte !")
["Recevez 2 pièces d'or.", 'Piochez 1 carte !']
"""

from __future__ import annotations

import dataclasses
import re

from checker.front.citations import all_cites, normalize
from checker.front.program import Program

__all__ = ["Sentence", "split_sentences", "trace", "sections"]

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[^a-zà-ÿ])")
_CLAUSE = re.compile(r"\s*[,;:]\s*(?:(?:et|mais|ou|puis|ni)\s+)?|\s+(?:et|mais|ou|puis|ni)\s+")


@dataclasses.dataclass(frozen=True)
class Sentence:
    line: int          # 1-based line of the source
    text: str
    kind: str          # "sentence" | "heading" | "table"
    traced: bool
    section: str


def split_sentences(line: str) -> list[str]:
    return [s for s in _SENTENCE_END.split(normalize(line)) if s]


def _kind(line: str) -> str:
    stripped = line.strip()
    if stripped.startswith("|") or stripped.startswith("*") and stripped.endswith("|"):
        return "table"
    if not re.search(r"[.!?:]\s*$", stripped) and len(stripped.split()) <= 8:
        return "heading"
    return "sentence"


def _covered(sentence: str, quotes: list[str]) -> bool:
    body = sentence.lstrip("-* ").strip()
    if any(body in q for q in quotes):
        return True
    clauses = [c for c in _CLAUSE.split(body.rstrip(".!?")) if len(c.split()) >= 3]
    return bool(clauses) and all(any(c in q for q in quotes) for c in clauses)


def sections(lines: list[str]) -> list[str]:
    """The heading each line falls under (the last heading line above it)."""
    current, out = "", []
    for line in lines:
        if line.strip() and _kind(line) == "heading":
            current = line.strip()
        out.append(current)
    return out


def trace(program: Program, source: str, text: str) -> list[Sentence]:
    """Every sentence of ``text`` (the source named ``source``), with whether the spec cites it."""
    default = next(iter(program.sources), None)
    quotes = [normalize(c.quote) for c in all_cites(program) if (c.source or default) == source]
    lines = text.split("\n")
    heading_of = sections(lines)
    out: list[Sentence] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        kind = _kind(line)
        for sentence in split_sentences(line) if kind == "sentence" else [normalize(line)]:
            out.append(Sentence(number, sentence, kind, _covered(sentence, quotes), heading_of[number - 1]))
    return out
