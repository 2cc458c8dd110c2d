"""Writing files the user asked for: atomically, so that an interrupted write leaves the old file or none.

Whether a file may be overwritten (``--force``) is the caller's decision; this is only how it is written.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

__all__ = ["write_file"]


def write_file(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` atomically (a temporary file in the same folder, then a rename)."""
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
