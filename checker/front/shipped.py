"""A checked spec shipped to worker processes (local or on a Dask cluster), as `simulate` and `fuzz` do.

A :class:`Shipped` spec is plain values: the spec's *files* (their contents, so a worker on another machine
needs no shared disk), the roots to check them by (``i/name`` for the i-th path given), a digest of them all
(what a worker caches by) and the command's own check of them (:func:`checker.front.diskcache.dumps`), which a
worker loads instead of checking again.  When that check does not travel (it could not be pickled), the worker
writes the files to a directory of its own and checks them there; :func:`user_located` turns a location in
that copy back into the user's path.
"""

from __future__ import annotations

import atexit
import dataclasses
import hashlib
import shutil
import tempfile
from pathlib import Path

__all__ = ["Shipped", "ship", "spec_files", "checked_copy", "user_located", "MAX_SPEC_BYTES"]

MAX_SPEC_BYTES = 64 * 2**20     # the spec's files are shipped to workers: refuse a larger "spec"


@dataclasses.dataclass(frozen=True)
class Shipped:
    files: tuple[tuple[str, bytes], ...]       # (relative path, contents) of every file of the spec
    roots: tuple[str, ...]                     # the paths to check, relative to where the files are put
    key: str = ""                              # a digest of the files
    checked: bytes = b""                       # the command's check of them, if it could be pickled


def spec_files(paths: list[Path]) -> tuple[tuple[tuple[str, bytes], ...], tuple[str, ...], str]:
    """The files of a spec (directories whole, files alone) with the roots to check them by, and a
    digest of them all.  Raises OSError for an unreadable path, ValueError past :data:`MAX_SPEC_BYTES`."""
    files, roots, size = [], [], 0
    for i, path in enumerate(map(Path, paths)):
        root = f"{i}/{path.resolve().name}"
        roots.append(root)
        found = sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() else [path]
        for file in found:
            relative = root if file == path else f"{root}/{file.relative_to(path).as_posix()}"
            if any(part.startswith(".") or part == "__pycache__" for part in relative.split("/")):
                continue
            data = file.read_bytes()
            size += len(data)
            if size > MAX_SPEC_BYTES:
                raise ValueError(f"the spec's files are more than {MAX_SPEC_BYTES // 2**20} MiB")
            files.append((relative, data))
    digest = hashlib.sha256()
    for relative, data in files:
        digest.update(relative.encode("utf-8") + b"\0" + hashlib.sha256(data).digest())
    return tuple(files), tuple(roots), digest.hexdigest()[:16]


def ship(paths: list[Path], result) -> Shipped:
    """The spec at ``paths``, checked as ``result``, as a worker receives it.  Raises as :func:`spec_files`."""
    from checker.front import diskcache
    files, roots, digest = spec_files(paths)
    return Shipped(files, roots, digest, diskcache.dumps(result) or b"")


def user_located(error: str, roots: tuple[str, ...], paths: list) -> str:
    """A worker's error, located in the user's files: the root ``i/name`` becomes the i-th spec path."""
    for root, path in zip(roots, paths):
        if error.startswith(root + "/") or error.startswith(root + ":"):
            return Path(path).as_posix() + error[len(root):]
    return error


_directories: list[str] = []


def _remove_directories() -> None:
    for directory in _directories:
        shutil.rmtree(directory, ignore_errors=True)


def checked_copy(files, roots, checked: bytes = b""):
    """In a worker: the spec's check result and the directory its files were written to (None when the
    command's check traveled in ``checked`` and the files were not needed)."""
    from checker.front import diskcache
    from checker.front.check import check_paths
    result = diskcache.loads(checked) if checked else None
    if result is not None and result.ok:
        return result, None
    if not _directories:
        atexit.register(_remove_directories)
    directory = tempfile.mkdtemp(prefix="rulebook-worker-")
    _directories.append(directory)
    for relative, data in files:
        target = Path(directory, relative)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    with diskcache.suspended():         # a directory of this worker's own: never the same key again
        result = check_paths([Path(directory, root) for root in roots])
    if not result.ok:       # the command checked it first: only a worker that reads other files
        raise RuntimeError(f"the spec has {len(result.reporter.errors)} error(s) in a worker")
    return result, directory
