"""The editor's view of the specs: which spec each file belongs to, checked with its unsaved text.

A ``.rules`` file is checked together with the rest of its spec:

- its directory is a spec when exactly one ``.rules`` file under it declares the ``game``:
  the whole directory is checked (``rulebook check DIR``);
- otherwise — a house-rule or overlay file, in a directory with no ``game`` — it is checked
  after the base spec named by the nearest ``rulebook.toml`` (``base = "spec/citadelles"``,
  searched from the file's directory upwards), or else by the editor's setting
  (``baseSpec``): ``rulebook check BASE FILE``;
- a file that declares its own ``game`` in a directory of several such files (a folder of
  examples) is checked alone, and so is a house-rule file when no base spec is named (it says so).

Open buffers are checked as typed, never saved; other files are read from disk.  Parsed
files and declarations are kept between checks (:class:`~checker.front.check.ParseCache`), so a
keystroke costs the parse of the declaration typed in, plus the passes over the whole program.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import os
import re
import time
import tomllib
from pathlib import Path

from checker.front.check import CheckResult, ParseCache, check_paths
from checker.base.diagnostics import Diagnostic, Severity
from checker.base.settings import CONFIG_NAME, Settings, find_config, read_settings
from checker.lsp.hover import Describer
from checker.lsp.index import Index, build_index
from checker.prose import Lexicon

__all__ = ["CONFIG_NAME", "Settings", "SpecContext", "Analysis", "Workspace", "read_settings", "find_config"]

MAX_SCANNED = 500            # .rules files read to decide whether a directory is a spec
_SKIPPED_DIRS = {"node_modules", "__pycache__"}
_GAME_LINE = re.compile(r"^[ \t]*game\b", re.MULTILINE)
_SYNTAX_CODES = {"E0101", "E0102", "E0103", "E0104"}


@dataclasses.dataclass(frozen=True)
class SpecContext:
    """What a file is checked with: the paths given to :func:`check_paths`, and the lexicon."""
    paths: tuple[Path, ...]
    lexicon: Path | None = None
    notes: tuple[str, ...] = ()       # said once on the file (as information): why it is checked this way

    @property
    def key(self) -> tuple[Path, ...]:
        return self.paths


@dataclasses.dataclass
class Analysis:
    """One check of one spec, with the index and hover texts built when first asked for."""
    context: SpecContext
    result: CheckResult
    generation: int
    seconds: float
    lexicon: Lexicon
    _index: Index | None = None
    _describer: Describer | None = None

    def index(self) -> Index:
        if self._index is None:
            self._index = build_index(self.result)
        return self._index

    def describer(self) -> Describer:
        if self._describer is None:
            self._describer = Describer(self.result, self.index(), self.lexicon)
        return self._describer

    @functools.cached_property
    def files(self) -> dict[Path, str]:
        """Every file checked, by resolved path, with its name in spans."""
        out = {}
        for name in self.result.program.files:
            source = self.result.sources.get(name)
            if source is not None:
                out[source.path.resolve()] = name
        return out

    def file_name(self, path: Path) -> str | None:
        return self.files.get(path.resolve())

    def path_of(self, name: str) -> Path:
        source = self.result.sources.get(name)
        return source.path if source is not None else Path(name)

    def lines(self, name: str) -> list[str]:
        source = self.result.sources.get(name)
        return source.lines() if source is not None else []

    def parsed_cleanly(self, name: str) -> bool:
        return not any(d.code in _SYNTAX_CODES and d.span is not None and d.span.file == name
                       for d in self.result.reporter.diagnostics)


class Workspace:
    """Open buffers, and the latest check of every spec an open file belongs to."""

    def __init__(self, editor: Settings | None = None) -> None:
        self.editor = editor or Settings()
        self.texts: dict[Path, str] = {}              # unsaved buffers, by resolved path
        self.generation = 0                            # bumped on every edit, save or change on disk
        self.cache = ParseCache()
        self.analyses: dict[tuple[Path, ...], Analysis] = {}
        self.last_clean: dict[Path, Analysis] = {}      # by file: the last check in which it parsed
        self._games: dict[Path, list[Path]] = {}
        self._games_generation = -1
        self._lexicons: dict[Path, tuple[float, Lexicon]] = {}

    # ---------------------------------------------------------------- buffers
    def set_text(self, path: Path, text: str) -> None:
        self.texts[path.resolve()] = text
        self.generation += 1

    def close(self, path: Path) -> None:
        self.texts.pop(path.resolve(), None)
        self.generation += 1

    def touched(self) -> None:
        """Files changed on disk (saved, or changed by another program)."""
        self.generation += 1

    # ---------------------------------------------------------------- contexts
    def context(self, path: Path) -> SpecContext:
        """The spec ``path`` is checked with (see the module's documentation)."""
        directory = path.parent
        games = self._game_files(directory)
        if len(games) == 1:
            paths = (directory,) if path.exists() else (directory, path)       # a new file, not saved yet
            return SpecContext(paths, self._settings(directory).lexicon)
        resolved = path.resolve()
        if resolved in games:
            return SpecContext((path,), self._settings(directory).lexicon)
        settings = self._settings(directory)
        notes = (settings.problem,) if settings.problem else ()
        if settings.base is None:
            note = (f"checked alone: no base spec is named for this house-rule file (no `game` in its directory); "
                    f"name one in a {CONFIG_NAME} (base = \"path/to/spec\") or in the editor's settings")
            return SpecContext((path,), settings.lexicon, notes + (note,))
        base = settings.base
        if base.is_dir() and base.resolve() in resolved.parents:
            return SpecContext((base,), settings.lexicon, notes)
        return SpecContext((base, path), settings.lexicon, notes)

    def _settings(self, directory: Path) -> Settings:
        config = find_config(directory)
        return read_settings(config) if config is not None else self.editor

    def _game_files(self, directory: Path) -> list[Path]:
        """The .rules files under ``directory`` that declare a game (at most two are looked for)."""
        if self._games_generation != self.generation:
            self._games, self._games_generation = {}, self.generation
        key = directory.resolve()
        if key not in self._games:
            found = []
            unsaved = [p for p in self.texts if key in p.parents and not p.exists()]
            for file in itertools.chain(unsaved, itertools.islice(_rules_files(directory), MAX_SCANNED)):
                resolved = file.resolve()
                text = self.texts.get(resolved)
                if text is None:
                    try:
                        text = file.read_text(encoding="utf-8")
                    except (OSError, UnicodeDecodeError):
                        continue
                if _GAME_LINE.search(text):
                    found.append(resolved)
                    if len(found) > 1:
                        break
            self._games[key] = found
        return self._games[key]

    # ---------------------------------------------------------------- checks
    def analysis(self, path: Path) -> Analysis:
        """The check of the spec ``path`` belongs to, as the buffers are now."""
        return self.check(self.context(path))

    def check(self, context: SpecContext) -> Analysis:
        current = self.analyses.get(context.key)
        if current is not None and current.generation == self.generation:
            return current
        start = time.perf_counter()
        if context.key not in self.analyses and self._as_on_disk(context):
            result = check_paths(list(context.paths))       # a first check: the one kept on disk, when there is one
        else:
            result = check_paths(list(context.paths), texts=self.texts, cache=self.cache)
        analysis = Analysis(context, result, self.generation, time.perf_counter() - start,
                            self._lexicon(context.lexicon))
        self.analyses[context.key] = analysis
        for path, name in analysis.files.items():
            if analysis.parsed_cleanly(name):
                self.last_clean[path] = analysis
        return analysis

    def _as_on_disk(self, context: SpecContext) -> bool:
        """Do the open buffers of the spec's files all read as the files on disk (a file just opened, not yet
        edited)?  Then its check is the one `rulebook check` keeps on disk (:mod:`checker.front.diskcache`),
        read back instead of parsing every file: the editor's first check costs what a warm `check` costs."""
        roots = [path.resolve() for path in context.paths]
        for path, text in self.texts.items():
            if not any(path == root or root in path.parents for root in roots):
                continue
            try:
                if path.read_text(encoding="utf-8") != text:
                    return False
            except (OSError, UnicodeDecodeError):
                return False
        return True

    def _lexicon(self, path: Path | None) -> Lexicon:
        if path is None or not path.is_file():
            return Lexicon()
        mtime = path.stat().st_mtime
        cached = self._lexicons.get(path)
        if cached is None or cached[0] != mtime:
            try:
                cached = (mtime, Lexicon.load(path))
            except (OSError, ValueError, tomllib.TOMLDecodeError, KeyError, TypeError, AttributeError):
                cached = (mtime, Lexicon())
            self._lexicons[path] = cached
        return cached[1]

    def affected(self, changed: set[Path]) -> list[SpecContext]:
        """The specs to check again: those of the changed files, and of open files that read them."""
        contexts: dict[tuple, SpecContext] = {}
        for path in changed:
            ctx = self.context(path)
            contexts[ctx.key] = ctx
        for path in self.texts:
            ctx = self.context(path)
            previous = self.analyses.get(ctx.key)
            if previous is None or changed & set(previous.files) or not changed:
                contexts[ctx.key] = ctx
        return list(contexts.values())

    def diagnostics(self, analysis: Analysis, subject: Path | None = None) -> dict[Path, list[Diagnostic]]:
        """Diagnostics of the files this check speaks for, by path (an empty list clears a file).

        A file speaks through the check of its own spec only: a house-rule file's check does not
        report on the base files.  Diagnostics without a file go to ``subject``.
        """
        out: dict[Path, list[Diagnostic]] = {}
        for path in analysis.files:
            if self.context(path).key == analysis.context.key:
                out[path] = []
        elsewhere = []
        for diagnostic in analysis.result.reporter.sorted():
            name = diagnostic.span.file if diagnostic.span is not None else None
            source = analysis.result.sources.get(name) if name is not None else None
            path = source.path.resolve() if source is not None else subject
            if path is not None and (path in out or path == subject):
                out.setdefault(path, []).append(diagnostic)
            elif diagnostic.severity is Severity.ERROR:
                elsewhere.append(diagnostic)
        if elsewhere and subject is not None:
            first = elsewhere[0]
            out.setdefault(subject, []).insert(0, Diagnostic(
                first.code, f"the base spec has {len(elsewhere)} error(s); the first, at {first.span}: {first.message}",
                None, hint="open that file to see them all"))
        return out


def _rules_files(directory: Path):
    """The .rules files under a directory, skipping hidden folders and dependencies."""
    for root, dirs, files in os.walk(directory):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in _SKIPPED_DIRS)
        for name in sorted(files):
            if name.endswith(".rules"):
                yield Path(root) / name
