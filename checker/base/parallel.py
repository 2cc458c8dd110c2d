"""Independent jobs on every local core: an ordered map over a pool of processes.

Workers are *spawned* (fresh interpreters, never forked), so nothing of the parent — open solvers,
threads, compiled rules — leaks into them; each job function rebuilds what it needs from plain,
picklable arguments, and caches it for the next job in the same worker.  Results come back in the
order of the jobs, whatever order the workers finish them in, so a parallel run gives the same
answer as a run in this process.
"""

from __future__ import annotations

import concurrent.futures
import multiprocessing
import os
import signal
from typing import Callable, Iterable, Sequence

__all__ = ["cores", "ordered_map", "chunks"]


def cores() -> int:
    """The cores this process may run on (the default number of workers)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def ordered_map(function: Callable, jobs: Sequence, workers: int,
                done: Callable[[int, object], None] | None = None) -> list:
    """``[function(job) for job in jobs]``, computed by ``workers`` processes (in this process when
    ``workers`` is 1 or there is a single job).  ``function`` must be importable by name (a module's
    top-level function).  ``done(i, result)`` is called in this process as each job finishes (for a
    progress bar).  An exception in a job is raised here, and the jobs not started are cancelled."""
    jobs = list(jobs)
    results: list = [None] * len(jobs)
    if workers <= 1 or len(jobs) <= 1:
        for i, job in enumerate(jobs):
            results[i] = function(job)
            if done is not None:
                done(i, results[i])
        return results
    context = multiprocessing.get_context("spawn")
    pool = concurrent.futures.ProcessPoolExecutor(min(workers, len(jobs)), mp_context=context,
                                                  initializer=_quiet_worker)
    try:
        futures = {pool.submit(function, job): i for i, job in enumerate(jobs)}
        for future in concurrent.futures.as_completed(futures):
            i = futures[future]
            results[i] = future.result()
            if done is not None:
                done(i, results[i])
    except BaseException:           # Ctrl-C, or a job failed: stop the workers now, not after their jobs
        for process in list(getattr(pool, "_processes", {}).values()):
            process.terminate()
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown()
    return results


def _quiet_worker() -> None:
    """Ctrl-C is the parent's to handle: a worker ignores it (the parent stops the workers)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def chunks(total: int, workers: int, smallest: int = 1, largest: int = 500) -> Iterable[range]:
    """``range(total)`` cut into consecutive chunks: about eight per worker (so a slow chunk does not
    keep the others waiting), each of ``smallest`` to ``largest`` items."""
    size = max(smallest, min(largest, -(-total // (8 * max(1, workers)))))
    return [range(start, min(total, start + size)) for start in range(0, total, size)]
