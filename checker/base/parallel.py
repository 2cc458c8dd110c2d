"""Independent jobs on every local core: an ordered map over a pool of processes.

Workers are *spawned* (fresh interpreters, never forked), so nothing of the parent — open solvers,
threads, compiled rules — leaks into them; each job function rebuilds what it needs from plain,
picklable arguments, and caches it for the next job in the same worker.  Results come back in the
order of the jobs, whatever order the workers finish them in, so a parallel run gives the same
answer as a run in this process.
"""

from __future__ import annotations

import os
import re
import signal
from typing import Callable, Iterable, Sequence

__all__ = ["refused", "cores", "ordered_map", "chunks", "cluster_map", "ClusterError", "Stop", "CONNECT_SECONDS", "CLUSTER_ADDRESS"]

CLUSTER_ADDRESS = re.compile(r"(tcp|tls|ws|wss|ucx)://[^\s/]+:\d+|inproc://\S+")   # what --cluster takes
CONNECT_SECONDS = 20            # how long to wait for a cluster's scheduler


def refused(workers: int | None, cluster: str | None) -> str | None:
    """Why ``--workers`` / ``--cluster`` cannot be taken as given (the command prints it after its name), or
    None: the same words for every command that runs in parallel."""
    if workers is not None and workers < 1:
        return f"--workers takes 1 or more, not {workers}"
    if cluster is not None and not CLUSTER_ADDRESS.fullmatch(cluster):
        return f"--cluster takes a Dask scheduler address such as tcp://host:8786, not {cluster!r}"
    return None


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
    import concurrent.futures           # here: every command's start-up imports this module for its names
    import multiprocessing
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


class Stop(Exception):
    """Raised by a ``done`` callback to end a run early: the workers are stopped and it propagates as it is."""


class ClusterError(Exception):
    """The Dask cluster could not be used: not installed, not reached, or it failed while running (one line)."""


def cluster_map(address: str, function: Callable, shared, tasks: Callable[[int], Sequence[tuple]],
                done: Callable[[int, object], None] | None = None) -> list:
    """``[function(shared, *task) for task in tasks(threads)]`` on the Dask scheduler at ``address``, where
    ``threads`` is the number of the cluster's worker threads; ``shared`` is sent once to every worker.
    Results come back in the order of the tasks; ``done(i, result)`` is called in that order as they come.
    Every failure of the cluster (Dask not installed, an unreachable or wrong address, a worker lost, a
    connection closed, garbage on the wire) raises :class:`ClusterError` with one line saying what."""
    try:
        from distributed import Client
    except ImportError:
        raise ClusterError("--cluster needs Dask distributed: pip install 'rulebook[cluster]'") from None
    stage = "cannot reach the cluster"
    try:
        if not address.startswith("inproc://"):
            _probe(address)
        with Client(address, set_as_default=False, timeout=CONNECT_SECONDS) as client:
            stage = "the cluster failed"
            threads = sum(client.nthreads().values()) or 1
            scattered = client.scatter(shared, broadcast=True)
            futures = [client.submit(function, scattered, *task, pure=False) for task in tasks(threads)]
            results = []
            # in order (as_completed needs a default client, and this one is not set as the default)
            for i, future in enumerate(futures):
                results.append(future.result())
                if done is not None:
                    done(i, results[-1])
            return results
    except (ClusterError, Stop):
        raise
    except Exception as exc:        # noqa: BLE001 — whatever the cluster raised, the user gets one line
        text = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
        raise ClusterError(f"{stage} {address}: {type(exc).__name__}" + (f": {text}" if text else "")) from None


def _probe(address: str) -> None:
    """Connect to the scheduler once, with its handshake, on a loop of its own: a Dask client that fails to
    start (something else answers at that address) is left half-made and waits twice its timeout to close."""
    import asyncio

    from distributed.comm import connect

    async def once() -> None:
        comm = await connect(address, timeout=CONNECT_SECONDS)
        await comm.close()
    asyncio.run(once())
