"""The generated code's compiled functions kept on disk: a second process that builds an engine for the same
rules reads the code objects back (:mod:`marshal`) instead of compiling the generated Python again, which was
most of building one (`play`, `simulate`, `legal`, a `simulate` worker starting).

An entry is keyed by the source of one generated function and its file name (``<rules:NAME>``), so it is
right for any spec and any version of the checker that generates the same source; the store is one file per
Python version (code objects are specific to it), beside the checked rule sets of
:mod:`checker.front.diskcache`, and follows its switches (``RULEBOOK_CACHE=0``, ``RULEBOOK_CACHE_DIR``).  It
holds at most :data:`MAX_CODES` functions: when a save would pass that, only what this process used is kept.
A store that cannot be read is ignored and rewritten; one that cannot be written is not an error.
"""

from __future__ import annotations

import hashlib
import marshal
import sys

from checker.front import diskcache

__all__ = ["code_of", "flush", "MAX_CODES"]

MAX_CODES = 20000
_FORMAT = b"rulebook-code/1"

_store: dict[bytes, bytes] | None = None     # what the file held when first read (None: not read yet)
_new: dict[bytes, bytes] = {}                 # compiled by this process since the last flush
_used: set[bytes] = set()                     # the keys this process read or wrote


def _path():
    tag = hashlib.sha256(_FORMAT + sys.version.encode() + str(marshal.version).encode()).hexdigest()[:16]
    return diskcache.cache_dir() / f"code-{tag}.marshal"


def _load() -> dict[bytes, bytes]:
    try:
        with open(_path(), "rb") as handle:
            if handle.read(len(_FORMAT)) != _FORMAT:
                return {}
            store = marshal.load(handle)
        return store if isinstance(store, dict) else {}
    except Exception:                   # absent, truncated, from another layout: compile again
        return {}


def code_of(source: str, filename: str):
    """The code object of ``source`` compiled as ``filename`` ("exec"), read from the store when it is there."""
    if not diskcache.enabled():
        return compile(source, filename, "exec")
    global _store
    if _store is None:
        _store = _load()
    key = hashlib.blake2b(f"{filename}\0{source}".encode(), digest_size=16).digest()
    _used.add(key)
    kept = _store.get(key)
    if kept is not None:
        try:
            return marshal.loads(kept)
        except Exception:
            pass
    code = compile(source, filename, "exec")
    _new[key] = marshal.dumps(code)
    return code


def flush() -> None:
    """Add what this process compiled to the store on disk (nothing to do when it compiled nothing new)."""
    global _store
    if not _new or not diskcache.enabled():
        return
    store = _load()                     # another process may have added some since
    store.update(_new)
    if len(store) > MAX_CODES:
        mine = {**(_store or {}), **_new}
        store = {key: mine[key] for key in _used if key in mine}
    _store = store
    _new.clear()

    def write(handle) -> None:
        handle.write(_FORMAT)
        marshal.dump(store, handle)

    diskcache.write_atomically(_path(), write)
