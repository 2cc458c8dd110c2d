"""The checking pipeline: files → parse → lower → collect → typecheck → citations → configurations.

Each pass is a plain function; they run in order and all report to one
:class:`~checker.diagnostics.Reporter`, so a run shows every problem at once.
"""

from __future__ import annotations

import dataclasses
import os
import time
from pathlib import Path

from checker import ast
from checker.citations import check_citations
from checker.configurations import check_configurations
from checker.diagnostics import Reporter
from checker.lower import lower_trees
from checker.parse import parse_file
from checker.program import Program, collect
from checker.source import SourceError, SourceMap, Span, read_source
from checker.typecheck import Typed, typecheck

__all__ = ["CheckResult", "check_paths", "spec_files"]

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


def check_paths(paths: list[Path]) -> CheckResult:
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
        for file in spec_files(path, reporter):
            resolved = file.resolve()
            if resolved in seen:
                continue
            seen.add(resolved)
            try:
                source = read_source(file)
            except SourceError as exc:
                reporter.error("E0001", exc.message, exc.span, hint=exc.hint)
                continue
            sources.add(source)
            lap("read")
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
        citations = check_citations(program, reporter)
        lap("citations")
        if not reporter.errors:
            configurations = check_configurations(program, reporter)
            lap("configurations")
    return CheckResult(program, typed, reporter, sources, citations or {}, configurations or {}, timings)
