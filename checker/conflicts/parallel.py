"""The conflict search on every local core.

The Z3 queries of a search are independent: each builds its own symbolic state and solver.  Each
worker process checks the spec again, builds its own :class:`~checker.conflicts.questions.Search` and walks
the same loops, but runs only its share of the queries (the k-th of every n, numbered in the order
of the single-process search); the findings come back tagged with their query's number and are put
back in that order, so the result is the one a single process finds.

On a Dask cluster (``--cluster``) there is a shard per worker thread of the cluster, and the spec travels
as :mod:`checker.front.shipped` makes it (its files' contents and the command's check), so a worker on
another machine needs no shared disk.
"""

from __future__ import annotations

import dataclasses
import threading
from pathlib import Path

from checker.base.parallel import cluster_map, ordered_map

__all__ = ["SEARCHES", "WITH_EFFECTS", "SearchTotals", "search_all", "merge_inductive"]

SEARCHES = ("contradictions", "competing_values", "order_dependence", "dead_rules", "dangling")
# with `--effects`: the effect failures too (checker.conflicts.effects; not by default: see docs/conflicts.md)
WITH_EFFECTS = ("contradictions", "competing_values", "order_dependence", "effect_failures", "lifted_prohibitions",
                "broken_invariants", "dead_rules", "dangling")


@dataclasses.dataclass
class SearchTotals:
    queries: int = 0
    unknowns: int = 0
    questions: int = 0          # the independent questions of the whole search …
    asked: int = 0              # … and those in scope (all of them without a scope)
    inductive: dict = dataclasses.field(default_factory=dict)   # invariant -> status -> moves (broken_invariants)


def merge_inductive(tallies) -> dict:
    """The tallies of :meth:`Search.broken_invariants` of several shards as one (each lists its own moves)."""
    out: dict = {}
    for tally in tallies:
        for inv, statuses in tally.items():
            mine = out.setdefault(inv, {})
            for status, moves in statuses.items():
                mine[status] = list(dict.fromkeys([*mine.get(status, []), *moves]))
    return out


def _tagged(search, method: str) -> list[tuple[int, object]]:
    """Run one search method; each finding with the number of the query that found it."""
    search.marks = []
    found = getattr(search, method)()
    if method == "dangling":              # no queries: the first shard lists them
        return [(0, f) for f in found] if search.shard[0] == 0 else []
    tagged, marks = [], search.marks
    for i, finding in enumerate(found):
        unit = max(u for u, start in marks if start <= i)
        tagged.append((unit, finding))
    return tagged


def _shard(task: tuple) -> tuple[list, int, int, int, int, dict]:
    from checker.front.check import check_paths
    paths, players, k, n, methods, scoped = task
    result = check_paths([Path(p) for p in paths])
    if not result.ok:
        raise RuntimeError("the spec has errors in a worker")
    return _run_shard(result, players, k, n, methods, [Path(f) for f in scoped] if scoped is not None else None)


_one_at_a_time = threading.Lock()


def _shard_shipped(shared: tuple, k: int, n: int) -> tuple[list, int, int, int, int, dict]:
    """A shard on a cluster's worker: ``shared`` is (the shipped spec, players, methods, scoped files), each
    scoped file as (the user's path, its root, its path under the root).  Z3's main context belongs to the
    process, so a worker's threads run their shards one at a time (a cluster for `conflicts` is best started
    with one thread per worker process)."""
    from checker.front.shipped import checked_copy
    shipped, players, methods, scoped = shared
    with _one_at_a_time:
        result, directory = checked_copy(shipped.files, shipped.roots, shipped.checked)
        files = None if scoped is None else [
            Path(user) if directory is None else Path(directory, root, relative) if relative
            else Path(directory, root) for user, root, relative in scoped]
        return _run_shard(result, players, k, n, methods, files)


def _run_shard(result, players, k: int, n: int, methods, scoped) -> tuple[list, int, int, int, int, dict]:
    from checker.conflicts.questions import Search
    from checker.conflicts.scope import Scope
    from checker.solver.factory import steady_collector
    scope = Scope(result, scoped) if scoped is not None else None
    search = Search(result.typed, players, shard=(k, n), scope=scope)
    with steady_collector():    # a worker asks its questions as the command's own process would
        tagged = [_tagged(search, method) for method in methods]
    return tagged, search.queries, search.unknowns, search.questions, search.units, search.inductive


def _scoped_roots(paths: list[Path], files) -> tuple:
    """Each scoped file as (its path, the root of the spec path it is in, its path under that root)."""
    from checker.front.shipped import spec_files
    roots = spec_files(paths)[1]
    out = []
    for file in files:
        for path, root in zip(map(Path, paths), roots):
            if Path(file).resolve() == path.resolve():
                out.append((str(file), root, ""))
                break
            try:
                out.append((str(file), root, Path(file).resolve().relative_to(path.resolve()).as_posix()))
                break
            except ValueError:
                continue
    return tuple(out)


def search_all(typed, paths: list[Path], players: int | None, workers: int,
               methods: tuple[str, ...] = SEARCHES, scope=None, progress=None,
               cluster: str | None = None, shipped=None) -> tuple[list, SearchTotals]:
    """Every finding of the spec at ``paths`` (checked already as ``typed``) by the searches ``methods``
    (all by default), in the single-process order, and the number of queries and unknowns; on
    ``workers`` processes (here when 1), or on the Dask cluster at ``cluster`` (a shard per worker thread;
    ``shipped``: the spec as :func:`checker.front.shipped.ship` sends it to the workers).  With a ``scope``
    (:class:`~checker.conflicts.scope.Scope`), only the questions that involve its files.  ``progress(done,
    total)`` is told of each search (one process) or shard (several) finished.  A cluster that fails raises
    :class:`~checker.base.parallel.ClusterError`."""
    if cluster is not None:
        scoped = _scoped_roots(paths, scope.files) if scope is not None else None
        shared = (shipped, players, tuple(methods), scoped)
        count: list = []

        def tasks(threads: int) -> list:
            count.append(threads)
            return [(k, threads) for k in range(threads)]
        shards = cluster_map(cluster, _shard_shipped, shared, tasks,
                             done=(lambda i, _: progress(1, count[0])) if progress is not None else None)
        return _merged(shards, methods)
    if workers <= 1:
        from checker.conflicts.questions import Search
        search = Search(typed, players, scope=scope)
        findings = []
        for method in methods:
            findings += getattr(search, method)()
            if progress is not None:
                progress(1, len(methods))
        return findings, SearchTotals(search.queries, search.unknowns, search.questions, search.units,
                                      search.inductive)
    scoped = tuple(str(f) for f in scope.files) if scope is not None else None
    tasks = [(tuple(str(p) for p in paths), players, k, workers, tuple(methods), scoped) for k in range(workers)]
    shards = ordered_map(_shard, tasks, workers,
                         done=(lambda i, _: progress(1, len(tasks))) if progress is not None else None)
    return _merged(shards, methods)


def _merged(shards: list, methods) -> tuple[list, SearchTotals]:
    """The shards' findings in the single-process order, and their totals."""
    findings = []
    for i in range(len(methods)):
        merged = sorted((unit, k, position, f) for k, (per_method, *_) in enumerate(shards)
                        for position, (unit, f) in enumerate(per_method[i]))
        findings += [f for _, _, _, f in merged]
    return findings, SearchTotals(sum(s[1] for s in shards), sum(s[2] for s in shards), shards[0][3], shards[0][4],
                                  merge_inductive(s[5] for s in shards))
