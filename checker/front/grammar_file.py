"""Where the language's grammar is: in the installed package (``checker/_grammar/rules.lark``, put there by the
wheel's build) or, in a source tree, ``grammar/rules.lark``.  Apart from :mod:`checker.front.parse` so that a
check read back from the disk (:mod:`checker.front.diskcache`, which hashes the grammar) imports no parser."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

__all__ = ["grammar_path"]


def grammar_path() -> Path:
    packaged = resources.files("checker").joinpath("_grammar", "rules.lark")
    if packaged.is_file():
        return Path(str(packaged))
    return Path(__file__).resolve().parents[2] / "grammar" / "rules.lark"
