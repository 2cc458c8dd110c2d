"""Citations: every `cite` must quote its source text verbatim.

Quotes are compared after folding what OCR and keyboards vary on (runs of white
space, typographic apostrophes and quotes, non-breaking spaces) but nothing
else: a misspelt word is a wrong quote.  A quote that is not found gets the
closest sentence of the source as a "did you mean".
"""

from __future__ import annotations

import bisect
import collections
import dataclasses
import difflib
import heapq
import os
import re
from pathlib import Path

from checker.front import ast
from checker.base.diagnostics import Reporter
from checker.front.program import Program, did_you_mean
from checker.base.source import SourceError, read_source

__all__ = ["normalize", "SourceText", "check_citations", "all_cites", "source_path"]

_SPACES = re.compile(r"\s+")
_FOLD = str.maketrans({"’": "'", "‘": "'", "“": '"', "”": '"', "\u00a0": " ", "\u202f": " "})


def normalize(text: str) -> str:
    """Fold what OCR and keyboards vary on, and nothing else.

    >>> normalize("L’or  est\\n illimité")
    "L'or est illimité"
    """
    return _SPACES.sub(" ", text.translate(_FOLD)).strip()


@dataclasses.dataclass
class SourceText:
    name: str
    path: Path
    text: str
    lines: list[str]
    normalized: str = ""
    _line_starts: list[tuple[int, int]] = dataclasses.field(default_factory=list)

    def __post_init__(self) -> None:
        # normalize(text) == " ".join of the non-empty normalized lines; remember where each starts
        pieces, offset = [], 0
        for number, line in enumerate(self.lines, start=1):
            piece = normalize(line)
            if piece:
                self._line_starts.append((offset, number))
                pieces.append(piece)
                offset += len(piece) + 1
        self.normalized = " ".join(pieces)

    def find(self, quote: str) -> int | None:
        """The 1-based line of the source where ``quote`` starts, or None."""
        q = normalize(quote)
        at = self.normalized.find(q) if q else -1
        if at < 0:
            return None
        index = bisect.bisect_right(self._line_starts, (at, float("inf"))) - 1
        return self._line_starts[index][1]

    def closest(self, quote: str) -> str | None:
        """The sentence of the source most like ``quote``: a paraphrase finds what it paraphrases."""
        q = normalize(quote)
        words = self.normalized.split(" ")
        qwords = q.split(" ")
        width = max(1, len(qwords))
        wanted = collections.Counter(w.casefold() for w in qwords)
        # slide a window of the quote's length over the text, scoring shared words; keep the best few
        window: collections.Counter = collections.Counter()
        scores = []
        for i, word in enumerate(words):
            window[word.casefold()] += 1
            if i >= width:
                window[words[i - width].casefold()] -= 1
            if i >= width - 1:
                scores.append((sum(min(n, window[w]) for w, n in wanted.items()), i - width + 1))
        top = heapq.nlargest(12, scores)
        candidates = {" ".join(words[start:start + width]): start for _, start in top}
        best = difflib.get_close_matches(q, list(candidates), n=1, cutoff=0.5)
        if not best:
            return None
        at = self.normalized.find(best[0])
        marks = (". ", "! ", "? ", ": ", ' "', ',"')
        begin = max(self.normalized.rfind(mark, 0, at + 1) for mark in marks)
        begin = at if begin < 0 or at - begin > len(q) else begin + 2
        ends = [i for i in (self.normalized.find(mark, at + len(best[0]) - 1) for mark in ".!?") if i >= 0]
        end = min(ends, default=at + len(best[0]) - 1)
        if end - begin > 3 * len(q):
            end = at + len(best[0]) - 1
        return self.normalized[begin:end + 1]


def all_cites(program: Program) -> list[ast.Cite]:
    cites: list[ast.Cite] = []

    def from_stmts(stmts) -> None:
        for s in stmts:
            if isinstance(s, ast.CiteStmt):
                cites.append(s.cite)
            for field in ("then", "else_", "body"):
                inner = getattr(s, field, None)
                if isinstance(inner, tuple):
                    from_stmts(inner)

    cited = (*program.kinds.values(), *program.vars.values(), *program.zones.values(),
             *program.quantities.values(), *program.tables.values(), *program.rules.values(),
             *program.precedences, *program.constraints.values(), *program.decisions.values(),
             *program.configurations.values(), *program.cards.values())
    for decl in cited:
        cites.extend(decl.cites)
    for card in program.cards.values():
        for power in card.powers:
            from_stmts(power.body)
    for proc in program.procedures.values():
        from_stmts(proc.body)
    for action in program.actions.values():
        from_stmts(action.body or ())
    return cites


def source_path(program: Program, name: str) -> tuple[Path | None, str | None]:
    """The file of source ``name``: (its path, None), or (None, why) when its path leaves the directory of the
    spec file that declares it — an absolute path, ``..`` above it, or a link to elsewhere.  A spec reads only
    its own texts: a spec from elsewhere cannot make `check` read, and quote, any other file."""
    decl, directory = program.sources[name], program.source_dirs[name]
    if Path(decl.path).is_absolute() or Path(decl.path).drive:
        return None, "is an absolute path"
    path = directory / decl.path
    try:
        base, real = os.path.realpath(directory), os.path.realpath(path)
        inside = os.path.commonpath([base, real]) == base
    except (OSError, ValueError):       # a NUL in the path, another drive
        inside = False
    if not inside:
        how = "goes through a link" if ".." not in Path(decl.path).parts else "goes up with '..'"
        return None, f"{how} to a file outside the directory '{directory}'"
    return path, None


def load_sources(program: Program, reporter: Reporter) -> dict[str, SourceText]:
    texts: dict[str, SourceText] = {}
    for name, decl in program.sources.items():
        path, outside = source_path(program, name)
        if path is None:
            reporter.error("E0403", f"source '{name}': \"{decl.path}\" {outside}", decl.span,
                           hint="a source text must be inside the directory of the .rules file that declares it")
            continue
        try:
            source = read_source(path)
        except SourceError as exc:
            reporter.error("E0402", f"source '{name}' cannot be read: {exc.message}", decl.span, hint=exc.hint)
            continue
        texts[name] = SourceText(name, path, source.text, source.text.split("\n"))
    return texts


def check_citations(program: Program, reporter: Reporter) -> dict[int, tuple[str, int]]:
    """Check every quote; returns, per cite (by identity), the source and line it was found at."""
    texts = load_sources(program, reporter)
    default = next(iter(program.sources), None)
    found: dict[int, tuple[str, int]] = {}
    # an example's quotations are checked as well; they are not recorded (the books show them as the example
    # writes them) and, as all_cites leaves them out, they do not count as covering a sentence of the source
    examples = {id(c) for e in program.examples.values() for c in e.cites}
    for cite in (*all_cites(program), *(c for e in program.examples.values() for c in e.cites)):
        source_name = cite.source or default
        if source_name is None:
            reporter.error("E0208", "this spec declares no source to cite", cite.span,
                           hint='add `source name "path/to/text.txt" "Title"`')
            continue
        if source_name not in program.sources:
            reporter.error("E0208", f"unknown source '{source_name}'", cite.span,
                           hint=did_you_mean(source_name, program.sources))
            continue
        text = texts.get(source_name)
        if text is None:
            continue
        line = text.find(cite.quote)
        if line is None:
            closest = text.closest(cite.quote)
            reporter.error("E0401", f"this quotation is not in source '{source_name}'", cite.span,
                           hint=f'did you mean "{closest}"?' if closest else
                           "copy the sentence verbatim from the source (OCR typos included)")
        elif id(cite) not in examples:
            found[id(cite)] = (source_name, line)
    return found
