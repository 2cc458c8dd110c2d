"""`rulebook fuzz --workers N` and `--cluster ADDRESS`: the search for a failing game on local processes or
on a Dask cluster, by the pool and the cluster runner `simulate` uses (:mod:`checker.base.parallel`), with
the spec shipped as `simulate` ships it (:mod:`checker.front.shipped`).

The games are cut into chunks whose size depends on the number of games only (not on the workers): chunk
``i`` is a Hypothesis search of its own, seeded ``seed + i * 2**32``, so the same ``--seed`` plays the same
games on any number of workers or on a cluster (not the games of one process, which is one search).  A
worker sends back what it found, never a log: the failing game's case (its choices) is shrunk and written
by the command's own process, whose engine locates errors in the user's files.  The run stops at the first
chunk that reports a failure (the chunks already started are stopped).
"""

from __future__ import annotations

import dataclasses
import threading
from pathlib import Path

from checker.base.parallel import Stop, cluster_map, ordered_map
from checker.front.shipped import Shipped, checked_copy, ship, user_located
from checker.fuzz.search import Found, Games, search

__all__ = ["FuzzJob", "search_chunk", "search_elsewhere", "chunk_sizes"]

_local = threading.local()       # per worker thread: the job's key -> its games


@dataclasses.dataclass(frozen=True)
class FuzzJob:
    spec: Shipped
    paths: tuple[str, ...]                      # the spec's paths as the user gave them
    configurations: tuple[str, ...] | None
    add: tuple[str, ...] = ()
    remove: tuple[str, ...] = ()
    database: str | None = None
    keep_going: bool = False                    # play every game, list the failures (bench/fuzz.py)


def chunk_sizes(games: int) -> list[int]:
    """``games`` cut into chunks of 20 to 500, about 64 of them (the same for any number of workers)."""
    size = max(20, min(500, -(-games // 64)))
    return [min(size, games - start) for start in range(0, games, size)]


def _games(job: FuzzJob) -> tuple[Games, str | None]:
    """The job's games in this worker, and the directory its spec was copied to (None: the user's files)."""
    cache = getattr(_local, "games", None)
    if cache is None or cache[0] != job.spec.key:
        result, directory = checked_copy(job.spec.files, job.spec.roots, job.spec.checked)
        games = Games(result, list(job.paths), list(job.configurations or ()) or None, job.add, job.remove)
        cache = _local.games = (job.spec.key, games, directory)
    return cache[1], cache[2]


def search_chunk(job: FuzzJob, games: int, seed: int) -> Found:
    """In a worker: one chunk's search (failures located as the job names its files: « 0/name/… »)."""
    table, directory = _games(job)
    found = search(table, games, seed, job.database, keep_going=job.keep_going)
    if directory is not None:
        prefix = Path(directory).as_posix() + "/"
        found.failures = [(kind, case, message[len(prefix):] if message.startswith(prefix) else message)
                          for kind, case, message in found.failures]
    return found


def _search_task(task: tuple[FuzzJob, int, int]) -> Found:
    return search_chunk(*task)


class _Failed(Stop):
    def __init__(self, found: Found):
        super().__init__()
        self.found = found


def search_elsewhere(result, spec: list[str], games: int, seed: int, database: str | None,
                     configurations: list[str] | None, add, remove, workers: int, cluster: str | None,
                     progress=None, keep_going: bool = False) -> Found:
    """The search of :func:`checker.fuzz.search.search` on ``workers`` local processes or on ``cluster``:
    the games without failure, and the first failing game found (its chunk's); with ``keep_going``, every
    game played and every failure, located in the user's files."""
    job = FuzzJob(ship(spec, result), tuple(spec), tuple(configurations) if configurations else None,
                  tuple(add), tuple(remove), database, keep_going)
    tasks = [(games_i, seed + (i << 32)) for i, games_i in enumerate(chunk_sizes(games))]
    total = Found()

    def done(_i: int, found: Found) -> None:
        total.games += found.games
        total.decisions += found.decisions
        total.failures += [(kind, case, user_located(message, job.spec.roots, spec))
                           for kind, case, message in found.failures]
        if progress is not None:
            progress(found.games)
        if found.case is not None:
            raise _Failed(found)

    try:
        if cluster is not None:
            cluster_map(cluster, search_chunk, job, lambda _threads: tasks, done)
        else:
            ordered_map(_search_task, [(job, *task) for task in tasks], workers, done)
    except _Failed as failed:
        total.kind, total.case = failed.found.kind, failed.found.case
    return total
