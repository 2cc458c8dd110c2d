"""The files the commands write (`play --json`, `--state-at`, `conflicts --witnesses`) and their standard output.

Nothing the user already has is lost: an existing file is replaced only with ``--force``; a file is
written whole to a temporary file in its own directory, synced, then renamed over the target, so a
full disk or an interruption leaves the earlier file as it was; and the targets of one command are
checked before any work (:func:`plan`), so the same path given twice, or a path the command also
reads, is refused at once.  A standard output that cannot be written (a closed pipe, a full disk)
ends the command with a message instead of a traceback (:class:`GuardedStdout`).
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

__all__ = ["OutputError", "plan", "plan_directory", "write_text", "write_bytes", "write_json", "GuardedStdout", "StdoutFailed", "silence_stdout"]


class OutputError(Exception):
    """A file cannot (or must not) be written; the message says which and why."""


def _same(path: Path) -> str:
    """A path's identity, for comparing targets: its real path (links and ``..`` resolved, as far as it exists)."""
    return os.path.normcase(os.path.realpath(path))


def plan(targets: list[str | Path], force: bool = False, reads: list[str | Path] = (), flag: str = "--force") -> None:
    """Refuse, before any work, what :func:`write_text` would refuse later: a target given twice, a target the
    command reads, an existing target without ``force``, a directory, a target whose directory does not exist."""
    seen: dict[str, str] = {}
    read: dict[str, str] = {}
    for r in reads:             # a spec directory: every .rules file in it is read (even with --force, never written)
        read[_same(Path(r))] = str(r)
        if Path(r).is_dir():
            read.update((_same(f), str(f)) for f in Path(r).rglob("*.rules"))
    for target in targets:
        path = Path(target)
        key = _same(path)
        if key in seen:
            also = f" (also as {seen[key]})" if seen[key] != str(target) else ""
            raise OutputError(f"{target} is given twice as an output{also}: one would overwrite the other")
        if key in read:
            also = f" ({read[key]})" if read[key] != str(target) else ""
            raise OutputError(f"{target} is an input of this command{also}; write to another file")
        seen[key] = str(target)
        if path.is_dir():
            raise OutputError(f"{target} is a directory; name a file to write")
        if not path.parent.is_dir():
            above = next((a for a in path.parents if a.exists()), None)     # the nearest that exists
            if above is not None and not above.is_dir():
                raise OutputError(f"cannot write {target}: {str(above)!r} is a file, not a directory")
            raise OutputError(f"cannot write {target}: the directory {str(path.parent)!r} does not exist")
        _regular(path, target)
        if not force and (path.exists() or path.is_symlink()):
            raise OutputError(f"{target} already exists; add {flag} to replace it")


def _regular(path: Path, target) -> None:
    """Refuse an existing target that is not a regular file (a device, a pipe, a socket), with or without --force:
    replacing it would put a file where the system keeps a device."""
    if path.exists() and not path.is_file():
        raise OutputError(f"{target} is not a regular file (a device, a pipe…); name a file to write, or - for "
                          f"the standard output")


def plan_directory(folder: str | Path, pattern: str, force: bool = False, flag: str = "--force") -> None:
    """Refuse, before any work, a directory to write into that is a file, or that already holds files matching
    ``pattern`` (those a run would replace) without ``force``."""
    path = Path(folder)
    if path.exists() and not path.is_dir():
        raise OutputError(f"{folder} is not a directory")
    if path.is_dir() and not force:
        try:
            there = sum(1 for _ in path.glob(pattern))
        except OSError as exc:
            raise OutputError(f"cannot read the directory {folder}: {exc.strerror or exc}") from None
        if there:
            raise OutputError(f"{folder} already holds {there} file(s) named {pattern}; add {flag} to replace "
                              f"them, or name another directory")


def write_text(target: str | Path, text: str, force: bool = False) -> None:
    """Write ``text`` (UTF-8) to ``target`` atomically: the target is either its earlier self or the whole new
    text, never a part.  Without ``force`` an existing target is refused, even one created meanwhile."""
    write_bytes(target, text.encode("utf-8"), force)


def write_bytes(target: str | Path, data: bytes, force: bool = False) -> None:
    """:func:`write_text` of bytes (a picture)."""
    path = Path(target)
    directory = path.parent
    _regular(path, target)
    try:
        fd, temp = tempfile.mkstemp(dir=directory, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as exc:
        raise OutputError(f"cannot write {target}: {exc.strerror or exc}") from None
    try:
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
            os.chmod(temp, _mode(path))
            if force:
                os.replace(temp, path)
            else:
                _publish_new(temp, path)
        except FileExistsError:
            raise OutputError(f"{target} already exists; add --force to replace it") from None
        except IsADirectoryError:
            raise OutputError(f"{target} is a directory; name a file to write") from None
        except OSError as exc:
            raise OutputError(f"cannot write {target}: {exc.strerror or exc}; "
                              f"{'the earlier file is unchanged' if path.exists() else 'nothing was written'}") from None
    finally:
        if os.path.lexists(temp):
            os.unlink(temp)
    _sync_directory(directory)


def write_json(target: str | Path, data, force: bool = False) -> None:
    """:func:`write_text` of ``data`` as the commands write JSON (UTF-8 as is, one space of indent)."""
    import json
    write_text(target, json.dumps(data, ensure_ascii=False, indent=1) + "\n", force)


def _publish_new(temp: str, path: Path) -> None:
    """Give the temporary file its name, unless that name exists (a hard link fails if it does, atomically;
    where links are not supported, check then rename)."""
    try:
        os.link(temp, path)
    except FileExistsError:
        raise
    except OSError:
        if os.path.lexists(path):
            raise FileExistsError(path) from None
        os.replace(temp, path)


def _mode(path: Path) -> int:
    """The permissions of the file written: the earlier file's, or what a new file gets (the umask applied)."""
    try:
        return path.stat().st_mode & 0o7777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def _sync_directory(directory: Path) -> None:
    """Make the rename durable (where directories can be synced)."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


# ---------------------------------------------------------------- standard output

class StdoutFailed(Exception):
    """The standard output could not be written (``reason`` says why)."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


class GuardedStdout:
    """A stand-in for ``sys.stdout`` that turns an OS error while writing into :class:`StdoutFailed`, so that
    the command can tell it from its own failures."""

    def __init__(self, stream):
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)
        except OSError as exc:
            raise StdoutFailed(_why(exc)) from None

    def flush(self) -> None:
        try:
            self._stream.flush()
        except OSError as exc:
            raise StdoutFailed(_why(exc)) from None

    def __getattr__(self, name):
        return getattr(self._stream, name)


def _why(exc: OSError) -> str:
    import errno
    if isinstance(exc, BrokenPipeError):
        return "the reader closed the pipe"
    if exc.errno == errno.ENOSPC:
        return "no space left on the device"
    if exc.errno == errno.EBADF:
        return "it is closed"
    return exc.strerror or str(exc)


def silence_stdout() -> None:
    """After a failed write, point file descriptor 1 at the null device, so that Python's own final flush
    does not fail again (with a traceback) on the way out."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.__stdout__.fileno())
        os.close(devnull)
    except (OSError, AttributeError, ValueError):
        pass
