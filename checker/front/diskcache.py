"""The checked rule set kept on disk: a second `check`, `play`, `simulate`, `legal` — or a `simulate` worker
starting — reads the result of the first instead of parsing and typechecking again.

An entry is keyed by everything the check reads: the checker's front end (its code, the grammar, the versions of
Python and Lark), the paths as given and, for every ``.rules`` file they stand for, its resolved path and its
bytes.  The texts the spec cites are found only by checking, so an entry also records each one's path and
digest, and is used only while they are unchanged.  Any change rebuilds the entry.

The passes annotate AST nodes by identity (``id(node)`` → type, range bounds, where a quotation was found),
which another process cannot read back; an entry stores those tables as (node, value) pairs and rebuilds them
over the loaded nodes.  A result whose annotated nodes are not all reachable from it is not kept (never a
wrong table, at worst no cache).

Where: ``$RULEBOOK_CACHE_DIR``, else ``$XDG_CACHE_HOME/rulebook``, else ``~/.cache/rulebook``; at most
:data:`MAX_ENTRIES` entries (the least recently used go).  ``RULEBOOK_CACHE=0`` turns it off.  An entry that
cannot be read is ignored and rewritten; a cache directory that cannot be written is not an error.  Entries are
pickles: like Python's own ``__pycache__``, the directory must be writable by you alone.
"""

from __future__ import annotations

import contextlib
import copyreg
import dataclasses
import functools
import hashlib
import io
import os
import pickle
import sys
import tempfile
from pathlib import Path

__all__ = ["cache_dir", "enabled", "entry_key", "load", "load_report", "save", "dumps", "loads", "suspended",
           "write_atomically", "MAX_ENTRIES"]

MAX_ENTRIES = 32
_FORMAT = b"rulebook-check/3"
_suspended = 0


def enabled() -> bool:
    return not _suspended and os.environ.get("RULEBOOK_CACHE", "1").lower() not in ("0", "off", "no", "false")


@contextlib.contextmanager
def suspended():
    """No entry is read or written within: for a check of files that are where they are only for a while (a
    `simulate` worker's copy of the spec in a directory of its own), which would only push the user's entries out."""
    global _suspended
    _suspended += 1
    try:
        yield
    finally:
        _suspended -= 1


def cache_dir() -> Path:
    explicit = os.environ.get("RULEBOOK_CACHE_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "rulebook"


@functools.lru_cache(maxsize=1)
def _code_digest() -> bytes:
    """The front end's code, the grammar, and the versions of Python and Lark (Lark's by its ``__init__.py``,
    which states it: importing Lark would cost a load more than the whole load does)."""
    from importlib.util import find_spec
    here = Path(__file__).resolve().parent.parent
    digest = hashlib.sha256(_FORMAT + sys.version.encode())
    lark = find_spec("lark")
    digest.update(Path(lark.origin).read_bytes() if lark is not None and lark.origin else b"no lark")
    for file in sorted([*here.glob("front/*.py"), *here.glob("base/*.py"), _grammar_file(here)]):
        digest.update(file.name.encode())
        digest.update(file.read_bytes())
    return digest.digest()


def _grammar_file(package: Path) -> Path:
    """The grammar :func:`checker.front.grammar_file.grammar_path` reads (``package``: the checker package's
    folder), found without :mod:`importlib.resources`, whose import was a third of reading a check back.

    >>> from checker.front.grammar_file import grammar_path
    >>> _grammar_file(Path(__file__).resolve().parent.parent) == grammar_path()
    True
    """
    packaged = package / "_grammar" / "rules.lark"
    return packaged if packaged.is_file() else package.parent / "grammar" / "rules.lark"


def entry_key(paths: list[Path], files: list[Path]) -> str:
    """The key of a check of ``paths`` (as given) standing for ``files`` (their bytes are read)."""
    digest = hashlib.sha256(_code_digest())
    digest.update(repr([str(p) for p in paths]).encode())
    for file in files:
        digest.update(str(file.resolve()).encode() + b"\0")
        digest.update(hashlib.sha256(file.read_bytes()).digest())
    return digest.hexdigest()


def _file_digest(path: Path) -> str | None:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None


def load(key: str):
    """The result kept under ``key``, or None."""
    return _read(key, whole=True)


def load_report(key: str) -> dict | None:
    """What `rulebook check` prints of the result kept under ``key`` (plain values and diagnostics, written
    before the result in the entry, so that reading it loads no AST class), or None."""
    return _read(key, whole=False)


def _read(key: str, whole: bool):
    path = cache_dir() / f"{key}.pickle"
    try:
        with open(path, "rb") as handle:
            if handle.read(len(_FORMAT)) != _FORMAT:
                return None
            read = pickle.load(handle)
            if any(_file_digest(Path(p)) != d for p, d in read):
                return None                    # a cited text changed: check again
            out = pickle.load(handle)          # the report
            if whole:
                out = loads(handle.read())
        if out is not None:
            os.utime(path)                     # recently used
    except Exception:                          # unreadable, truncated, from another layout: check again
        return None
    return out


def loads(data: bytes):
    """A check result from :func:`dumps`, its identity-keyed tables rebuilt over the loaded nodes (None when
    ``data`` is not one)."""
    try:
        result, types, ranges, cites = pickle.loads(data)
    except Exception:
        return None
    if result.typed is not None:
        result.typed.types = {id(node): ty for node, ty in types}
        result.typed.ranges = {id(node): r for node, r in ranges}
    result.citations = {id(node): where for node, where in cites}
    result.timings = {"cache": 0.0}
    return result


def _reachable(root) -> dict[int, object]:
    """Every object reachable from ``root`` through dataclass fields, attributes and containers, by id."""
    seen: dict[int, object] = {}
    stack = [root]
    atoms = (str, int, float, bool, bytes, type(None), Path, type)
    while stack:
        obj = stack.pop()
        if isinstance(obj, atoms) or id(obj) in seen:
            continue
        seen[id(obj)] = obj
        if isinstance(obj, dict):
            stack.extend(obj.keys())
            stack.extend(obj.values())
        elif isinstance(obj, (list, tuple, set, frozenset)):
            stack.extend(obj)
        elif dataclasses.is_dataclass(obj):
            stack.extend(getattr(obj, f.name, None) for f in dataclasses.fields(obj))
        elif hasattr(obj, "__dict__"):
            stack.extend(vars(obj).values())
    return seen


def dumps(result) -> bytes | None:
    """A check result as bytes another process can load (:func:`loads`); None when it cannot be kept."""
    typed = result.typed
    bare_typed = dataclasses.replace(typed, types={}, ranges={}) if typed is not None else None
    bare = dataclasses.replace(result, typed=bare_typed, citations={}, timings={})
    nodes = _reachable(bare)
    tables = [typed.types if typed is not None else {}, typed.ranges if typed is not None else {}, result.citations]
    if any(k not in nodes for table in tables for k in table):
        return None                            # an annotated node the result does not hold: not kept
    pairs = [[(nodes[k], v) for k, v in table.items()] for table in tables]
    buffer = io.BytesIO()
    try:
        _NodePickler(buffer, protocol=pickle.HIGHEST_PROTOCOL).dump((bare, *pairs))
    except (pickle.PicklingError, RecursionError, TypeError, AttributeError):
        return None
    return buffer.getvalue()


class _NodePickler(pickle.Pickler):
    """Pickles a frozen, slotted dataclass (the AST's nodes, the types) with a state setter that knows its
    fields' names beforehand: the setter dataclasses gives them looks the fields up again for every node, which
    was half of reading a check back."""

    def reducer_override(self, obj):
        names = _slot_names(type(obj))
        if names is None:
            return NotImplemented
        return (copyreg.__newobj__, (type(obj),), tuple([getattr(obj, n) for n in names]), None, None, _set_slots)


@functools.lru_cache(maxsize=None)
def _slot_names(cls: type) -> tuple[str, ...] | None:
    """The fields of a frozen dataclass with slots, in order; None for any other class."""
    params = getattr(cls, "__dataclass_params__", None)
    if params is None or not params.frozen or "__slots__" not in cls.__dict__:
        return None
    return tuple(f.name for f in dataclasses.fields(cls))


def _set_slots(obj, state: tuple) -> None:
    for name, value in zip(_slot_names(type(obj)), state):
        object.__setattr__(obj, name, value)


def save(key: str, result, read: list[Path], report: dict | None = None) -> bool:
    """Keep ``result`` under ``key`` (``read``: the other files the check read; ``report``: what `check` prints
    of it, see :func:`load_report`); False when it is not kept."""
    data = dumps(result)
    if data is None:
        return False
    try:
        head = pickle.dumps(report, protocol=pickle.HIGHEST_PROTOCOL)
    except (pickle.PicklingError, RecursionError, TypeError, AttributeError):
        head = pickle.dumps(None)
    digests = [(str(p), _file_digest(p)) for p in read]

    def write(handle) -> None:
        handle.write(_FORMAT)
        pickle.dump(digests, handle, protocol=pickle.HIGHEST_PROTOCOL)
        handle.write(head)
        handle.write(data)

    directory = cache_dir()
    if not write_atomically(directory / f"{key}.pickle", write):
        return False
    _trim(directory)
    return True


def write_atomically(path: Path, write) -> bool:
    """Write a cache file whole or not at all: ``write(handle)`` fills a temporary file beside ``path``, which
    then replaces it (a reader never sees half a file); False, and no file left behind, when it cannot be done."""
    handle = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("wb", dir=path.parent, delete=False, suffix=".tmp") as handle:
            write(handle)
        os.replace(handle.name, path)
    except OSError:
        if handle is not None:
            with contextlib.suppress(OSError):
                os.unlink(handle.name)
        return False
    return True


def _trim(directory: Path) -> None:
    entries = sorted(directory.glob("*.pickle"), key=lambda p: p.stat().st_mtime, reverse=True)
    for old in entries[MAX_ENTRIES:]:
        try:
            old.unlink()
        except OSError:
            pass
