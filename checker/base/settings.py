"""The project file, ``rulebook.toml``: where house rules find their base spec and the book's wording
(the lexicon).  The language server, human play and the book read it through here."""

from __future__ import annotations

import dataclasses
import tomllib
from pathlib import Path

__all__ = ["CONFIG_NAME", "Settings", "find_config", "read_settings"]

CONFIG_NAME = "rulebook.toml"


@dataclasses.dataclass(frozen=True)
class Settings:
    """Where house rules find their base spec, and the book's wording for hovers."""
    base: Path | None = None
    lexicon: Path | None = None
    origin: str = "the editor's settings"
    problem: str | None = None        # why the settings file could not be used


def find_config(directory: Path) -> Path | None:
    """The nearest ``rulebook.toml`` in ``directory`` or above it."""
    for folder in (directory, *directory.parents):
        candidate = folder / CONFIG_NAME
        if candidate.is_file():
            return candidate
    return None


def read_settings(config: Path) -> Settings:
    """Read ``base`` and ``lexicon`` (paths relative to the file) from a ``rulebook.toml``."""
    origin = str(config)
    try:
        data = tomllib.loads(config.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        return Settings(origin=origin, problem=f"{config} cannot be read: {exc}")
    unknown = sorted(set(data) - {"base", "lexicon"})
    values: dict[str, Path | None] = {}
    for key in ("base", "lexicon"):
        value = data.get(key)
        if value is not None and not isinstance(value, str):
            return Settings(origin=origin, problem=f"{config}: `{key}` must be a path between quotes")
        values[key] = (config.parent / value) if value else None
    problem = f"{config}: unknown key(s) {', '.join(unknown)} (known: base, lexicon)" if unknown else None
    for key, path in values.items():
        if path is not None and not path.exists():
            problem = f"{config}: `{key}` names {path}, which does not exist"
            values[key] = None
    return Settings(values["base"], values["lexicon"], origin, problem)
