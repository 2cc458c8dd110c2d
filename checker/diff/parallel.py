"""`rulebook diff` on every local core, or on a Dask cluster.

The searches of a comparison (a legality per action, the values of a quantity, the order of reactions, a
changed move's behaviour) are independent: each asks its own solvers.  Each worker checks both rule sets
again, puts them side by side and plans the same steps (:func:`checker.diff.run.plan`, numbered the same way
in every process), but runs only its share of the searches (the k-th of every n); the results come back
with their number and the command puts them together in a single process's order.  So the differences,
their verdicts and their order are a single process's.  A witness is any state Z3 finds for the question,
minimised and replayed by both interpreters as in one process; which of several equally small states Z3
picks may depend on what the process asked before, so a witness may differ from a single process's.

On a cluster the two rule sets travel as :mod:`checker.front.shipped` makes them (their files' contents and
the command's checks), as for `conflicts --cluster`.
"""

from __future__ import annotations

import dataclasses
import threading
from pathlib import Path

from checker.base.parallel import cluster_map, ordered_map

__all__ = ["Outcome", "run_jobs"]


@dataclasses.dataclass
class Outcome:
    results: dict           # the search's number -> what :func:`checker.diff.run.run_job` returned
    queries: int = 0
    unknowns: int = 0


def run_jobs(plan, a: list[Path], b: list[Path], settings, causes: int, minimise: bool, workers: int,
             cluster: str | None, checked_b=None) -> Outcome:
    """Every search of ``plan`` (made in this process for rule sets ``a`` and ``b``), on ``workers``
    processes or on the cluster at ``cluster`` (a shard per worker thread).  A cluster that fails raises
    :class:`~checker.base.parallel.ClusterError`; a worker whose plan is not this one's raises RuntimeError."""
    expected = len(plan.jobs)
    options = (settings, causes, minimise, expected)
    if cluster is not None:
        from checker.base.parallel import ClusterError
        from checker.front.shipped import ship
        try:
            shipped = ship(list(a), plan.pair.a.result), ship(list(b), checked_b or plan.pair.b.result)
        except (OSError, ValueError) as exc:
            raise ClusterError(f"cannot send the rule sets to the cluster: {exc}") from None
        shared = (*shipped, tuple(map(str, a)), tuple(map(str, b)), options)
        shards = cluster_map(cluster, _shard_shipped, shared, lambda threads: [(k, threads) for k in range(threads)])
    else:
        tasks = [(tuple(map(str, a)), tuple(map(str, b)), options, k, workers) for k in range(workers)]
        shards = ordered_map(_shard, tasks, workers)
    out = Outcome({})
    for results, queries, unknowns in shards:
        out.results.update(results)
        out.queries += queries
        out.unknowns += unknowns
    return out


def _shard(task: tuple) -> tuple[dict, int, int]:
    from checker.front.check import check_paths
    a, b, options, k, n = task
    ra, rb = check_paths([Path(p) for p in a]), check_paths([Path(p) for p in b])
    if not (ra.ok and rb.ok):
        raise RuntimeError("a rule set has errors in a worker")
    return _run_shard(ra, [Path(p) for p in a], rb, [Path(p) for p in b], options, k, n)


_one_at_a_time = threading.Lock()


def _shard_shipped(shared: tuple, k: int, n: int) -> tuple[dict, int, int]:
    """A shard on a cluster's worker (Z3's main context belongs to the process: a worker's threads take their
    turns).  The witnesses name the user's paths, as in the command's process."""
    from checker.front.shipped import checked_copy
    shipped_a, shipped_b, a, b, options = shared
    with _one_at_a_time:
        ra, _ = checked_copy(shipped_a.files, shipped_a.roots, shipped_a.checked)
        rb, _ = checked_copy(shipped_b.files, shipped_b.roots, shipped_b.checked)
        return _run_shard(ra, [Path(p) for p in a], rb, [Path(p) for p in b], options, k, n)


def _run_shard(ra, a: list[Path], rb, b: list[Path], options: tuple, k: int, n: int) -> tuple[dict, int, int]:
    from checker.diff.pair import Pair, Side
    from checker.diff.steps import plan, run_job
    from checker.solver.factory import SolverSettings
    settings, causes, minimise, expected = options
    pair = Pair(Side("a", ra, a), Side("b", rb, b), settings or SolverSettings(incremental=True), causes, minimise)
    p = plan(pair)
    if len(p.jobs) != expected:
        raise RuntimeError(f"a worker planned {len(p.jobs)} searches, the command {expected}")
    queries, unknowns = pair.queries, pair.unknowns
    results = {}
    for step in p.steps:
        if step.job is not None and step.number % n == k:
            results[step.number] = run_job(p, step.job)
    return results, pair.queries - queries, pair.unknowns - unknowns
