"""Results the book keeps between builds: what takes Z3 seconds to minutes (an edition's comparison, the
conflict search) is computed once and committed, so a fresh clone builds the book without running Z3.

A kept result is a JSON file with two keys beside the result: ``key``, a digest of the rules it is about
(the spec files and the texts they cite), and ``code``, a digest of the checker's code it was computed with.
A build recomputes (and rewrites) a result whose rules changed.  A result whose rules are unchanged but whose
code key is older is kept — the rules are the same; only the checker that judged them moved — and the build
names it (an info line); ``RULEBOOK_DIFF_REFRESH=1`` in the environment or ``rulebook_diff_refresh = True`` in
``conf.py`` recomputes those too, and ``python bench/refresh_comparisons.py --all`` does it without a build.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import os
from pathlib import Path
from typing import Callable

from checker.base.output import write_text
from checker.base.source import Span
from checker.conflicts.findings import Finding

__all__ = ["KEPT", "OLDER_CODE", "COMPUTED", "rules_key", "code_key", "refresh_wanted", "kept", "findings_json",
           "findings_from_json", "kept_findings", "KEPT_CONFLICTS", "CONFLICTS_CODE"]

KEPT, OLDER_CODE, COMPUTED = "kept", "kept, older code", "computed"


def rules_key(paths: list[Path]) -> str:
    """A digest of the rules at ``paths`` (a directory: all the files below it, the texts it cites included; a
    file: it and the texts in the `sources/` beside it)."""
    files: list[Path] = []
    for path in paths:
        if path.is_dir():
            files += [f for f in path.rglob("*") if f.is_file()]
        else:
            files.append(path)
            if (path.parent / "sources").is_dir():
                files += [f for f in (path.parent / "sources").rglob("*") if f.is_file()]
    return _digest(files)


@functools.lru_cache(maxsize=None)
def code_key(patterns: tuple[str, ...]) -> str:
    """A digest of the checker's modules matching ``patterns`` (relative to ``checker/``)."""
    here = Path(__file__).resolve().parent.parent
    return _digest([f for pattern in patterns for f in here.glob(pattern)])


def _digest(files: list[Path]) -> str:
    digest = hashlib.sha256()
    for file in sorted(set(f.resolve() for f in files)):
        digest.update(file.name.encode())
        digest.update(file.read_bytes())
    return digest.hexdigest()


def refresh_wanted(config_value: bool) -> bool:
    """Whether kept results computed by an older checker are recomputed (conf.py or the environment)."""
    return bool(config_value) or os.environ.get("RULEBOOK_DIFF_REFRESH", "") not in ("", "0")


def kept(path: Path, key: str, code: str, compute: Callable[[], object], refresh: bool = False,
         keep: Callable[[object], bool] = lambda result: True) -> tuple[object, str]:
    """(the result, how it was had: :data:`KEPT`, :data:`OLDER_CODE` or :data:`COMPUTED`).  ``compute()``
    returns a JSON value; it is written to ``path`` when ``keep(result)`` (a result that cannot be kept is
    computed at every build)."""
    if path.is_file():
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            if data.get("key") == key and data.get("code") == code:
                return data["result"], KEPT
            if data.get("key") == key and not refresh:
                return data["result"], OLDER_CODE
        except (OSError, ValueError):
            pass
    result = compute()
    if keep(result):
        path.parent.mkdir(parents=True, exist_ok=True)
        text = json.dumps({"key": key, "code": code, "result": result}, ensure_ascii=False, indent=1,
                          sort_keys=True) + "\n"
        write_text(path, text, force=True)         # the book's own cache, rewritten when its key changes
    return result, COMPUTED


# ---------------------------------------------------------------- the conflict search's findings

_LEFT_OUT = ("witness", "move")      # the book shows the situations; the state files are left out


def findings_json(findings: list) -> list[dict] | None:
    """The findings of a conflict search as JSON (None when a plugged-in finder gives other objects: not kept)."""
    if not all(isinstance(f, Finding) for f in findings):
        return None
    out = []
    for finding in findings:
        d = {f.name: getattr(finding, f.name) for f in dataclasses.fields(finding) if f.name not in _LEFT_OUT}
        d["spans"] = [None if s is None else dataclasses.asdict(s) for s in d.get("spans", ())]
        d["cites"] = [list(c) for c in d.get("cites", ())]
        d["rules"] = list(d.get("rules", ()))
        out.append(d)
    return out


def findings_from_json(data: list[dict]) -> list[Finding]:
    """The findings :func:`findings_json` wrote, as findings again (spans as spans)."""
    names = {f.name for f in dataclasses.fields(Finding)}
    out = []
    for d in data:
        d = {k: v for k, v in d.items() if k in names}
        d["spans"] = tuple(None if s is None else Span(**s) for s in d.get("spans", ()))
        d["cites"] = tuple(tuple(c) for c in d.get("cites", ()))
        d["rules"] = tuple(d.get("rules", ()))
        out.append(Finding(**d))
    return out


KEPT_CONFLICTS = "_conflicts"      # beside the book's sources, one file per rule set
# the code the conflict search's findings depend on besides the spec (under checker/)
CONFLICTS_CODE = ("conflicts/*.py", "solver/*.py", "runtime/*.py", "front/*.py")


def kept_findings(finder: Callable, check_result, spec_paths: list[Path], path: Path,
                  refresh: bool = False) -> tuple[list, str]:
    """(the findings of ``finder`` on the spec, how they were had), kept in ``path``.  The key covers the rules
    and which finder searched them; the page is the same whether they were kept or just computed (both are
    read back from the JSON)."""
    raw: list = []

    def compute():
        raw[:] = finder(check_result)
        return findings_json(raw)

    key = rules_key(list(spec_paths)) + f" {getattr(finder, '__module__', '')}:{getattr(finder, '__qualname__', '')}"
    data, how = kept(path, key, code_key(CONFLICTS_CODE), compute, refresh, keep=lambda result: result is not None)
    return (raw if data is None else findings_from_json(data)), how
