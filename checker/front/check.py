"""The checking pipeline: files → parse → lower → collect → typecheck → bounds → citations → configurations.

Each pass is a plain function; they run in order and all report to one
:class:`~checker.base.diagnostics.Reporter`, so a run shows every problem at once.
"""

from __future__ import annotations

import collections
import dataclasses
import os
import time
from pathlib import Path
from typing import TYPE_CHECKING, Mapping

from checker.front import diskcache
from checker.base.diagnostics import Reporter
from checker.base.source import SourceError, SourceFile, SourceMap, Span, read_source, source_from_text

if TYPE_CHECKING:         # names in annotations only (a check read back from the disk needs no AST class)
    from checker.front import ast
    from checker.front.program import Program
    from checker.front.typecheck import Typed

__all__ = ["CheckResult", "ParseCache", "check_paths", "checked_spec", "kept_report", "spec_files"]

EXTENSION = ".rules"
MAX_SPEC_ENTRIES = 20_000


@dataclasses.dataclass
class CheckResult:
    program: Program
    typed: Typed | None
    reporter: Reporter
    sources: SourceMap
    citations: dict[int, tuple[str, int]]
    configurations: dict[str, list[int]]
    timings: dict[str, float] = dataclasses.field(default_factory=dict)   # seconds per pass
    files: list[ast.SpecFile] = dataclasses.field(default_factory=list)   # every file parsed, in order

    @property
    def ok(self) -> bool:
        return not self.reporter.errors


def _walk(directory: Path) -> list[Path] | None:
    """The .rules files under ``directory`` (links to directories are not followed); None when it holds more than
    MAX_SPEC_ENTRIES entries — a spec directory is small, and `/` would take minutes to walk."""
    found, seen = [], 0
    for root, dirs, files in os.walk(directory):
        seen += len(dirs) + len(files)
        if seen > MAX_SPEC_ENTRIES:
            return None
        found += [Path(root) / f for f in files if f.endswith(EXTENSION)]
    return found


def spec_files(path: Path, reporter: Reporter) -> list[Path]:
    """The .rules files a command-line path stands for (a directory: all of them, by name)."""
    if path.is_dir():
        walked = _walk(path)
        if walked is None:
            reporter.error("E0002", f"'{path}' is too large to be a spec directory (more than {MAX_SPEC_ENTRIES} "
                                    f"files and directories)", Span(str(path), 1, 1, 1, 1),
                           hint=f"a spec is a directory of {EXTENSION} files")
            return []
        files = sorted(p for p in walked if p.is_file())
        if not files:
            reporter.error("E0002", f"'{path}' holds no {EXTENSION} file", Span(str(path), 1, 1, 1, 1),
                           hint=f"a spec is a directory of {EXTENSION} files")
        return files
    if path.is_symlink() and not path.exists():
        reporter.error("E0001", f"'{path}' is a link to nowhere (dangling, or a loop of links)",
                       Span(str(path), 1, 1, 1, 1))
        return []
    if not path.exists():
        reporter.error("E0001", f"no such file or directory '{path}'", Span(str(path), 1, 1, 1, 1))
        return []
    return [path]


class ParseCache:
    """Parsed and lowered files and top-level items, by file name and text, kept between checks.

    An editor checks the same spec on every keystroke: the files not being typed in are
    not parsed again, and in the one being typed in, only the items whose text (or place)
    changed.  The result is :func:`parse_file`'s, diagnostics included (a test holds them to
    it); when an item does not parse alone and :func:`parse_file` might see it otherwise (it
    stops at its end, or it is the file's only item), the file is parsed by it, whole.
    Holds at most ``size`` files and ``16 * size`` items (least recently used first out).
    """

    def __init__(self, size: int = 64) -> None:
        self.size = size
        self._files: collections.OrderedDict[tuple[str, str], tuple] = collections.OrderedDict()
        self._items: collections.OrderedDict[tuple[str, int, int, str], tuple] = collections.OrderedDict()

    def lowered(self, source: SourceFile, reporter: Reporter) -> tuple[ast.OverlayHeader | None, list[ast.Decl]]:
        """The file's overlay header and declarations; its syntax diagnostics go to ``reporter``."""
        entry = _recall(self._files, (source.name, source.text), self.size,
                        lambda: self._by_items(source) or self._whole(source))
        header, decls, diagnostics, unparsed = entry
        reporter.diagnostics.extend(diagnostics)
        reporter.unparsed.update(unparsed)
        return header, list(decls)

    @staticmethod
    def _whole(source: SourceFile) -> tuple:
        from checker.front.lower import lower_trees
        from checker.front.parse import parse_file
        own = Reporter()
        header, decls = lower_trees(source.name, parse_file(source, own), own)
        return header, tuple(decls), tuple(own.diagnostics), frozenset(own.unparsed)

    def _by_items(self, source: SourceFile) -> tuple | None:
        """The file from its items, each parsed alone or remembered: what :func:`parse_file` finds, without
        parsing again the items that did not change.  None when only :func:`parse_file` can tell."""
        from lark.exceptions import UnexpectedInput
        from checker.front.parse import cut_short, item_bounds, report_item
        text = source.text
        items, too_deep = item_bounds(text)
        if too_deep:
            return None
        header, decls, diagnostics, failed = None, [], [], []
        for begin, end in items:
            line, column = text.count("\n", 0, begin), begin - (text.rfind("\n", 0, begin) + 1)
            try:
                item = _recall(self._items, (source.name, line, column, text[begin:end]), 16 * self.size,
                               lambda: self._item(source.name, text, begin, end))
            except UnexpectedInput as error:
                failed.append((error, begin, end))
                continue
            header = item[0] or header
            decls += item[1]
            diagnostics += item[2]
        if not failed:
            return header, tuple(decls), tuple(diagnostics), frozenset()
        # An item that stops short may have been cut where it continues at a line's start, and a lone item's
        # error is reported as the whole file's: those cases are parse_file's.
        if sum(1 for begin, end in items if text[begin:end].strip()) <= 1 or any(cut_short(e) for e, _, _ in failed):
            return None
        own = Reporter()
        for error, begin, end in failed:
            report_item(error, source, begin, end, own)
        return header, tuple(decls), tuple(own.diagnostics) + tuple(diagnostics), frozenset(own.unparsed)

    @staticmethod
    def _item(name: str, text: str, begin: int, end: int) -> tuple:
        from checker.front.lower import lower_trees
        from checker.front.parse import parse_item
        own = Reporter()
        header, decls = lower_trees(name, [parse_item(text, begin, end)], own)
        return header, tuple(decls), tuple(own.diagnostics)


PARSED = ParseCache(size=256)
"""The files this process parsed, by name and text: each is parsed and lowered once while its text stays the
same (what is kept is immutable: the lowered declarations, with their diagnostics)."""


def _recall(table: collections.OrderedDict, key, size: int, compute):
    """``table[key]``, computed on a miss; the table keeps the ``size`` most recently used entries."""
    if key in table:
        table.move_to_end(key)
        return table[key]
    value = table[key] = compute()
    while len(table) > size:
        table.popitem(last=False)
    return value


def _read(file: Path, texts: Mapping[Path, str]) -> SourceFile:
    """A file's text: the unsaved text an editor holds for it, else what is on disk."""
    text = texts.get(file.resolve())
    return read_source(file) if text is None else source_from_text(file, text)


def check_paths(paths: list[Path], *, texts: Mapping[Path, str] | None = None,
                cache: ParseCache | None = None) -> CheckResult:
    """Check a spec: its directories and files, in order (overlays and house rules after the base).

    ``texts`` gives the unsaved text of some files (by resolved path): an editor's buffers.
    ``cache`` keeps parsed files from one call to the next; without one, the process's own
    (:data:`PARSED`) does: a book, a diff or a test suite checks the same base spec many times, with
    other overlays.  Without ``texts``, the result is kept on disk (:mod:`checker.front.diskcache`) and
    read back while nothing it was checked from has changed.
    """
    key = _disk_key(paths) if texts is None else None
    if key is not None:
        kept = diskcache.load(key)
        if kept is not None:
            return kept
    result = _check_paths(paths, texts=texts, cache=PARSED if cache is None else cache)
    if key is not None:
        from checker.front.citations import source_path
        cited = [source_path(result.program, name)[0] for name in result.program.sources]
        diskcache.save(key, result, [p for p in cited if p is not None], report(result))
    return result


def report(result: CheckResult) -> dict:
    """What `rulebook check` prints of a result, in plain values and diagnostics: kept on disk beside the
    result, so that a second `check` of unchanged files reads it without loading the program."""
    diagnostics = result.reporter.sorted()
    shown = {d.span.file for d in diagnostics if d.span is not None} | {
        n.span.file for d in diagnostics for n in d.notes if n.span is not None}
    return {"ok": result.ok, "diagnostics": diagnostics, "errors": len(result.reporter.errors),
            "sources": [source for name in sorted(shown) if (source := result.sources.get(name)) is not None],
            "files": result.program.files, "counts": result.program.counts(),
            "configurations": result.configurations}


def kept_report(paths: list[Path]) -> dict | None:
    """The :func:`report` of a check of ``paths`` kept on disk while nothing it was checked from changed, or
    None (no such entry, or the disk cache is off)."""
    key = _disk_key(paths)
    return diskcache.load_report(key) if key is not None else None


def _disk_key(paths: list[Path]) -> str | None:
    """The disk cache's key of a check of ``paths``; None when the cache is off or the files cannot be listed
    or read (then the check is made and not kept)."""
    if not diskcache.enabled():
        return None
    probe = Reporter()
    files = [file for path in paths for file in spec_files(Path(path), probe)]
    if probe.diagnostics:
        return None
    try:
        if not all(Path(file).is_file() for file in files):    # a FIFO, a device: read once, by the check
            return None                                         # itself, which refuses it (never kept)
        return diskcache.entry_key(list(paths), files)
    except OSError:
        return None


def _check_paths(paths: list[Path], *, texts: Mapping[Path, str] | None = None,
                 cache: ParseCache | None = None) -> CheckResult:
    # the passes, imported here: a result read back from the disk needs none of them (nor the grammar)
    from checker.front.bounds import check_bounds
    from checker.front.citations import check_citations
    from checker.front.configurations import check_configurations
    from checker.front import ast
    from checker.front.lower import lower_trees
    from checker.front.parse import parse_file
    from checker.front.program import collect
    from checker.front.typecheck import typecheck
    timings: dict[str, float] = {}
    clock = time.perf_counter()

    def lap(name: str) -> None:
        nonlocal clock
        now = time.perf_counter()
        timings[name] = timings.get(name, 0.0) + now - clock
        clock = now

    reporter = Reporter()
    sources = SourceMap()
    parsed: list[tuple[ast.SpecFile, Path]] = []
    seen: set[Path] = set()
    for path in paths:
        unsaved = texts is not None and path.resolve() in texts          # a new file, not saved yet
        for file in [path] if unsaved else spec_files(path, reporter):
            resolved = file.resolve()
            if resolved in seen:
                continue
            seen.add(resolved)
            try:
                source = _read(file, texts or {})
            except SourceError as exc:
                reporter.error("E0001", exc.message, exc.span, hint=exc.hint)
                continue
            sources.add(source)
            lap("read")
            if cache is not None:
                header, decls = cache.lowered(source, reporter)
                lap("parse")
            else:
                trees = parse_file(source, reporter)
                lap("parse")
                header, decls = lower_trees(source.name, trees, reporter)
                lap("lower")
            parsed.append((ast.SpecFile(source.name, header, tuple(decls), Span(source.name, 1, 1, 1, 1)),
                           file.parent))
    program = collect(parsed, reporter)
    lap("collect")
    typed = citations = configurations = None
    if parsed:
        typed = typecheck(program, reporter)
        lap("typecheck")
        if not reporter.errors:
            check_bounds(typed, reporter)
            lap("bounds")
        citations = check_citations(program, reporter)
        lap("citations")
        if not reporter.errors:
            configurations = check_configurations(program, reporter)
            lap("configurations")
    return CheckResult(program, typed, reporter, sources, citations or {}, configurations or {}, timings,
                       [spec_file for spec_file, _ in parsed])


def checked_spec(command: str, paths: list[Path]) -> CheckResult | None:
    """Check the spec a command reads: the result, or None after printing its errors as `rulebook check` does
    (then the command exits 1, the code of a spec with errors for every command)."""
    import sys
    from checker.base import terminal
    from checker.base.diagnostics import render_human
    result = check_paths(paths)
    if result.ok:
        return result
    sys.stdout.write(render_human(result.reporter.sorted(), result.sources, color=terminal.colored()) + "\n")
    print(f"rulebook {command}: the spec has {len(result.reporter.errors)} error(s): fix them first", file=sys.stderr)
    return None
