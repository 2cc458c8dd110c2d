"""The whole fuzz run: the search, here or elsewhere, then the first failure settled (shrunk, logged)."""

from __future__ import annotations

from checker.fuzz.search import FuzzReport, Games, search, settle
from checker.fuzz.workers import search_elsewhere

__all__ = ["fuzz"]


def fuzz(result, spec: list[str], games: int = 100, seed: int = 0, database: str | None = None,
         budget: int = 2000, configurations: list[str] | None = None, progress=None, add: list[str] = (),
         remove: list[str] = (), workers: int = 1, cluster: str | None = None) -> FuzzReport:
    """Play up to ``games`` games of the checked spec ``result`` (its paths ``spec``, written into logs) in
    its ``configurations`` (default: all), with cards ``add`` added and ``remove`` removed; stop at the first
    failure, shrunk within ``budget`` games.  In this process when ``workers`` is 1 and there is no
    ``cluster``; else on ``workers`` local processes or the Dask cluster at ``cluster``
    (:mod:`checker.fuzz.workers`; raises :class:`checker.base.parallel.ClusterError`).  ``progress(n)``, if
    given, is called as games end well."""
    table = Games(result, spec, configurations, add, remove)
    report = FuzzReport(table=table)
    if not table.playable:
        return report
    if workers > 1 or cluster is not None:
        found = search_elsewhere(result, spec, games, seed, database, configurations, add, remove, workers,
                                 cluster, progress)
    else:
        found = search(table, games, seed, database, progress)
    report.games, report.decisions = found.games, found.decisions
    if found.case is not None:
        report.failure = settle(table, found.kind, found.case, budget)
    return report
