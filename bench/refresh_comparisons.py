"""Recompute the book's kept results that are stale — the comparisons (docs/_diff/*.json) and the conflict
search's findings (docs/_conflicts/*.json) — without building the book.

    python bench/refresh_comparisons.py            # those whose rules changed (as a book build would)
    python bench/refresh_comparisons.py --all      # also those an older checker computed (RULEBOOK_DIFF_REFRESH=1)
    python bench/refresh_comparisons.py --carcassonne   # also Carcassonne's book (its search takes CPU minutes)
    python bench/refresh_comparisons.py --fan            # also the fan expansion's book (about 5 CPU minutes)
    python bench/refresh_comparisons.py --carcassonne --workers 16   # the searches on 16 processes
    python bench/refresh_comparisons.py --conflicts-only --fan        # the searches' findings only

``--workers N`` runs the conflict searches as ``rulebook conflicts --workers N`` does: the same findings in the
single-process order (``search_all``'s contract, held by tests/test_conflicts_parallel.py), so they are kept
under the book's finder and a build reads them as if that finder had run.

Prints a table: each result, how it was had (kept, kept from older code, computed) and the seconds.
"""

from __future__ import annotations

import argparse
import runpy
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from checker.front.check import check_paths  # noqa: E402
from checker.sphinxext.editions import CACHE_DIR, cached_diff, comparisons, editions_of  # noqa: E402
from checker.sphinxext.kept import KEPT_CONFLICTS, kept_findings  # noqa: E402
from checker.sphinxext.reports import load_finder  # noqa: E402


class _Tags:
    """What Sphinx gives conf.py as ``tags`` (the fan expansion's book is docs/ built with ``-t fan``)."""

    def __init__(self, *names: str):
        self.names = set(names)

    def has(self, name: str) -> bool:
        return name in self.names


def _on_workers(finder, paths: list[Path], workers: int):
    """``finder`` (the default one, :func:`find_conflicts`) run on ``workers`` processes, under its own name."""
    from checker.conflicts.parallel import search_all
    from checker.conflicts.questions import KIND_METHODS, find_conflicts
    if workers <= 1 or finder is not find_conflicts:
        return finder
    methods = tuple(KIND_METHODS.values())      # what find_conflicts runs, in its order

    def parallel(check_result):
        return search_all(check_result.typed, paths, None, workers, methods)[0]
    parallel.__module__, parallel.__qualname__ = finder.__module__, finder.__qualname__
    return parallel


def _conflicts(docs: Path, refresh: bool, tags: tuple[str, ...] = (), workers: int = 1) -> tuple[str, str, float]:
    """The kept findings of the book whose conf.py is in ``docs``, built with ``tags`` (as the conflicts page
    reads them)."""
    conf = runpy.run_path(str(docs / "conf.py"), init_globals={"tags": _Tags(*tags)})
    paths = [(docs / p).resolve() for p in conf["rulebook_spec"]]
    finder = load_finder(conf.get("rulebook_conflict_finder", "checker.conflicts.questions:find_conflicts"))
    finder = _on_workers(finder, paths, workers)
    name = "+".join(p.name for p in paths) + ".json"
    start = time.perf_counter()
    _, how = kept_findings(finder, check_paths(paths), paths, docs / KEPT_CONFLICTS / name, refresh)
    return f"conflicts: {name}", how, time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--all", action="store_true", help="also recompute those an older checker computed")
    parser.add_argument("--carcassonne", action="store_true", help="also Carcassonne's book")
    parser.add_argument("--fan", action="store_true", help="also the fan expansion's book (-t fan; CPU minutes)")
    parser.add_argument("--conflicts-only", action="store_true", help="only the conflict searches' findings, not the "
                        "comparisons")
    parser.add_argument("--workers", "-j", type=int, default=1, help="processes for the conflict searches (the same "
                        "findings, in the same order)")
    args = parser.parse_args()
    docs = ROOT / "docs"
    conf = runpy.run_path(str(docs / "conf.py"))
    base = [(docs / p).resolve() for p in conf["rulebook_spec"]][:1]
    editions = editions_of(conf["rulebook_editions"], docs, base)
    rows = []
    for edition in ([] if args.conflicts_only else editions):
        for name, a, b, _parent in comparisons(edition, editions, base):
            start = time.perf_counter()
            _, how = cached_diff(docs / CACHE_DIR, name, a, b, edition.root, args.all)
            rows.append((name, how, time.perf_counter() - start))
            print(f"{name:40} {how:18} {rows[-1][2]:8.1f} s", flush=True)
    books = [(ROOT / "docs", ())] + ([(ROOT / "docs", ("fan",))] if args.fan else []) + (
        [(ROOT / "docs" / "carcassonne", ())] if args.carcassonne else [])
    for book, tags in books:
        rows.append(_conflicts(book, args.all, tags, args.workers))
        print(f"{rows[-1][0]:40} {rows[-1][1]:18} {rows[-1][2]:8.1f} s", flush=True)
    print(f"{'total':40} {sum(1 for r in rows if r[1] == 'computed'):3} computed {sum(r[2] for r in rows):8.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
