"""Source files and spans.

A spec's text is read once, as bytes, and decoded here so that every later
problem (binary data, bad UTF-8, a directory given as a file) becomes a
diagnostic rather than an exception.
"""

from __future__ import annotations

import dataclasses
import os
import stat
from pathlib import Path

__all__ = ["Span", "SourceFile", "SourceMap", "read_source", "read_regular", "source_from_text",
           "display_name", "SourceError"]


@dataclasses.dataclass(frozen=True, slots=True)
class Span:
    """A region of a source file; lines and columns are 1-based, ``end_column`` exclusive."""

    file: str
    line: int
    column: int
    end_line: int
    end_column: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


@dataclasses.dataclass(frozen=True, slots=True)
class SourceFile:
    name: str          # as shown in diagnostics
    path: Path
    text: str

    def lines(self) -> list[str]:
        return self.text.split("\n")


class SourceError(Exception):
    """A file could not be turned into text; carries the span to report."""

    def __init__(self, message: str, span: Span, hint: str | None = None):
        super().__init__(message)
        self.message = message
        self.span = span
        self.hint = hint


def display_name(path: Path) -> str:
    """Relative to the working directory when the file is below it, else as given."""
    try:
        relative = os.path.relpath(path)
    except ValueError:  # another drive on Windows
        return str(path)
    return str(path) if relative.startswith("..") else relative


def read_regular(path: Path, limit: int | None = None) -> bytes:
    """The bytes of a regular file, at most ``limit`` of them; a :class:`SourceError` otherwise.

    A FIFO or a device would block or never end, so only regular files are read: the file is
    opened without blocking and checked once open (it cannot be swapped for a FIFO in between).
    """
    name = display_name(path)
    here = Span(name, 1, 1, 1, 1)
    if path.is_dir():
        raise SourceError(f"'{name}' is a directory, not a file", here,
                          "give the directory as the spec, or name a .rules file inside it")
    if path.is_symlink() and not path.exists():
        raise SourceError(f"'{name}' is a link to nowhere (dangling, or a loop of links)", here)
    if path.exists() and not path.is_file():
        raise SourceError(f"'{name}' is not a regular file (a device, a FIFO or a socket)", here)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise SourceError(f"no such file '{name}'", here) from None
    except (OSError, ValueError) as exc:        # ValueError: a NUL in the path
        raise SourceError(f"cannot read '{name}': {getattr(exc, 'strerror', None) or exc}", here) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise SourceError(f"'{name}' is not a regular file (a device, a FIFO or a socket)", here)
        if limit is not None and info.st_size > limit:
            raise SourceError(f"'{name}' is too large ({_size(info.st_size)}; at most {_size(limit)})", here)
        with os.fdopen(fd, "rb", closefd=False) as f:
            data = f.read() if limit is None else f.read(limit + 1)
    except OSError as exc:
        raise SourceError(f"cannot read '{name}': {exc.strerror or exc}", here) from None
    finally:
        os.close(fd)
    if limit is not None and len(data) > limit:          # it grew while being read
        raise SourceError(f"'{name}' is too large (more than {_size(limit)})", here)
    return data


def _size(n: int) -> str:
    return f"{n / 2**20:.1f} MB" if n >= 2**20 else f"{n} bytes"


def read_source(path: Path, limit: int | None = None) -> SourceFile:
    """A text file, decoded: a :class:`SourceError` located at the first NUL byte or the first byte
    that is not UTF-8 (a leading byte-order mark is dropped, CRLF becomes LF)."""
    name = display_name(path)
    data = read_regular(path, limit)
    if b"\x00" in data:
        offset = data.index(b"\x00")
        line = data.count(b"\n", 0, offset) + 1
        col = offset - (data.rfind(b"\n", 0, offset) + 1) + 1
        raise SourceError(f"'{name}' is not a text file (NUL byte)", Span(name, line, col, line, col + 1))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        col = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise SourceError(f"'{name}' is not valid UTF-8 (byte 0x{data[exc.start]:02x})",
                          Span(name, line, col, line, col + 1),
                          "save the file as UTF-8") from None
    return source_from_text(path, text)


def source_from_text(path: Path, text: str) -> SourceFile:
    """A file's text as the checker reads it: no byte-order mark, lines ending in ``\\n``."""
    if text.startswith("\ufeff"):
        text = text[1:]
    return SourceFile(display_name(path), path, text.replace("\r\n", "\n"))


class SourceMap:
    """Every file read during a run, by display name, for rendering excerpts."""

    def __init__(self) -> None:
        self._files: dict[str, SourceFile] = {}
        self._lines: dict[str, list[str]] = {}

    def add(self, source: SourceFile) -> None:
        self._files[source.name] = source

    def get(self, name: str) -> SourceFile | None:
        return self._files.get(name)

    def names(self) -> list[str]:
        """The display names of the files read (their paths as the run named them)."""
        return list(self._files)

    def line(self, name: str, number: int) -> str | None:
        if name not in self._lines:
            source = self._files.get(name)
            if source is None:
                return None
            self._lines[name] = source.lines()
        lines = self._lines[name]
        return lines[number - 1] if 1 <= number <= len(lines) else None
