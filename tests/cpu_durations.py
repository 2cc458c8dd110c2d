"""`pytest --cpu-durations N`: the CPU each test costs, for keeping the suite's cost in hand.

The machine the suite runs on is often shared, so wall time (`--durations`) is noise; CPU time is not (much).  For
every test this measures user + system CPU of the process *and* of its finished children (Sphinx, Chromium, worker
pools: ``resource.getrusage`` SELF and CHILDREN) around setup + call + teardown, then prints, at the end:

* the N heaviest tests (N = 0: all of them), with the phases' split (setup / call / teardown) and, where there are
  any, the CPU of the child processes reaped meanwhile (included in the phases);
* per xdist worker: the sum over its tests, the whole worker process (collection included), and its test files —
  with ``--dist loadfile`` a whole file runs on one worker, so this shows whether the workers are balanced;
* the total.

A session-scoped fixture's work is counted in the setup of the first test that asks for it (on each worker).
Children are counted when they have been waited for: a pool kept alive across tests is counted when it ends (the
test that ends it shows their CPU as its children's).
"""

from __future__ import annotations

import os
import resource
from collections import defaultdict

import pytest

_PHASES = ("setup", "call", "teardown")


def _cpu() -> float:
    """User + system seconds of this process and of its waited-for children."""
    return _own() + _children()


def _own() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _children() -> float:
    """User + system seconds of the children this process has waited for."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _worker() -> str:
    return os.environ.get("PYTEST_XDIST_WORKER", "main")


def addoption(parser) -> None:
    parser.addoption("--cpu-durations", type=int, default=None, metavar="N",
                     help="print the N heaviest tests by CPU (user+sys, children included) and the CPU per "
                          "xdist worker (N=0: every test)")


class CpuDurations:
    """The plugin: phases are measured where they run (a worker), reports carry them to the controller."""

    def __init__(self, config) -> None:
        self.config = config
        self.top = config.getoption("--cpu-durations")
        self.tests: dict[str, dict] = {}              # nodeid -> {"worker", "setup", "call", "teardown"}
        self.workers: dict[str, float] = {}           # worker -> CPU of its whole process

    # --- where the test runs -----------------------------------------------------------------------------
    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_makereport(self, item, call):
        outcome = yield
        start = getattr(item, "_cpu_phase_start", None)
        if start is not None:
            report = outcome.get_result()
            report.cpu_seconds = _cpu() - start
            report.cpu_children = _children() - item._cpu_children_start
            report.cpu_worker = _worker()

    def _around(self, item):
        item._cpu_phase_start = _cpu()
        item._cpu_children_start = _children()

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_setup(self, item):
        self._around(item)

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_call(self, item):
        self._around(item)

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_teardown(self, item):
        self._around(item)

    def pytest_sessionfinish(self, session):
        workeroutput = getattr(session.config, "workeroutput", None)
        if workeroutput is not None:                  # an xdist worker: its whole cost goes to the controller
            workeroutput["cpu_seconds"] = _cpu()
            workeroutput["cpu_worker"] = _worker()

    # --- where the reports arrive (the controller, or the only process) ----------------------------------
    def pytest_runtest_logreport(self, report):
        seconds = getattr(report, "cpu_seconds", None)
        if seconds is None:
            return
        entry = self.tests.setdefault(report.nodeid, {"worker": getattr(report, "cpu_worker", "main")})
        entry[report.when] = entry.get(report.when, 0.0) + seconds
        entry["children"] = entry.get("children", 0.0) + getattr(report, "cpu_children", 0.0)

    @pytest.hookimpl(optionalhook=True)
    def pytest_testnodedown(self, node, error):
        output = getattr(node, "workeroutput", None) or {}
        if "cpu_seconds" in output:
            self.workers[output.get("cpu_worker", "?")] = output["cpu_seconds"]

    def pytest_terminal_summary(self, terminalreporter):
        if not self.tests:
            return
        write = terminalreporter.write_line
        cost = {nodeid: sum(entry.get(phase, 0.0) for phase in _PHASES) for nodeid, entry in self.tests.items()}
        heaviest = sorted(cost, key=cost.get, reverse=True)
        if self.top:
            heaviest = heaviest[:self.top]
        terminalreporter.write_sep("=", f"CPU per test (user+sys, children included), heaviest {len(heaviest)}")
        for nodeid in heaviest:
            entry = self.tests[nodeid]
            split = " ".join(f"{phase[0]}{entry.get(phase, 0.0):.1f}" for phase in _PHASES)
            if entry.get("children", 0.0) >= 0.05:     # reaped child processes (part of the phases' figures)
                split += f"; children {entry['children']:.1f}"
            write(f"{cost[nodeid]:8.2f}s  {entry['worker']:>5}  ({split})  {nodeid}")
        per_worker: dict[str, float] = defaultdict(float)
        per_file: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
        for nodeid, entry in self.tests.items():
            per_worker[entry["worker"]] += cost[nodeid]
            per_file[entry["worker"]][nodeid.split("::")[0]] += cost[nodeid]
        terminalreporter.write_sep("=", "CPU per worker")
        for worker in sorted(per_worker):
            whole = self.workers.get(worker)
            process = f", whole process {whole:.1f}s" if whole is not None else ""
            files = sorted(per_file[worker].items(), key=lambda kv: kv[1], reverse=True)
            write(f"{worker}: tests {per_worker[worker]:.1f}s{process}, {len(files)} files; heaviest files: "
                  + ", ".join(f"{name} {seconds:.1f}s" for name, seconds in files[:5]))
        write(f"total: tests {sum(cost.values()):.1f}s"
              + (f", worker processes {sum(self.workers.values()):.1f}s" if self.workers else ""))
