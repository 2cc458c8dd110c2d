r"""A cheaper mutant: one working copy per worker, and a fork server that has imported pytest, Z3, Lark, Hypothesis
once.

    python bench/mutation_fork.py runtime --sample 60 --seed 4169                # each mutant's covering tests
    python bench/mutation_fork.py runtime --sample 60 --seed 4169 --indices 31-60
    python bench/mutation_fork.py runtime --match 'outlook.py:140: ' --twice     # a mutant run twice (no leak)
    python bench/mutation_fork.py runtime --overhead 5                          # the fixed cost, old and new
    python bench/mutation_fork.py solver --sample 60 --seed 7169 --probe-map --map-part 0/2 --save-map m0.json
    python bench/mutation_fork.py solver --sample 60 --seed 7169 --probe-map m0.json m1.json --claim-dir claims/

bench/mutation.py's run_mutant copies the tree for every mutant and starts a new Python for its pytest: about 3.4 s of
CPU per mutant before any test runs (h164: the copy 0.8 s, pytest's start 2.6 s, at load 12), then every test
module, the checker's modules and the third-party libraries are imported and compiled again.  Here:

* one working copy per process (bench/mutation.copy_tree), made once: a mutant is written into it, its tests run, and
  the original text is written back (in a ``finally``; a leftover is caught at the next start: the copy is checked
  against the tree before each mutant);
* the checker's modules are compiled once into hash-checked .pyc files (``compileall``, CHECKED_HASH): Python reads
  a .pyc only when the hash of the source on disk is the one it was compiled from, so the mutated file is always
  compiled from its mutated text and every other file from its cache — no timestamp can make a stale .pyc pass;
  pytest's rewritten test modules are cached once the same way (their sources never change here);
* the server imports the third-party modules a test run imports (the list is taken from a first child that
  collects the package's tests) and never a module of the copy (checker.*, the test modules, conftest); for each
  mutant it forks a child that drops any such module from ``sys.modules`` (none should be there), points
  Hypothesis's example database at an empty folder of its own (a failing example saved by one mutant is not
  replayed for the next: bench/mutation.py's fresh copy had none either), and runs ``pytest.main`` with ``-x`` on
  the mutant's tests, in its own process group (a test's own subprocesses are killed with it at a timeout).

The outcome is decided as bench/mutation.py's run_mutant decides it (killed, survived, timeout, invalid); with
``--covering-only`` (the default here) a mutant runs the tests the coverage map says execute its lines, quickest
first, and a survivor runs those tests' whole files once more (the map credits a shared fixture's work to one test).
A line executed only at import runs the package's whole set.  The map is bench/mutation.py's (coverage_map, cached).

The map.  bench/mutation.py's coverage maps (one run of each test file under coverage) took about 70 s of wall a
runtime test file here at nice 19 and load 10 (h169: 9 files in 10 minutes; the solver's test_solver.py alone 581 s).
``--probe-map`` makes instead a map of the sample's statements only: each statement holding a sampled mutant gets a
call ``_mutation_probe(n)`` in the copy (``instrument``; every mutant of both packages instruments and compiles), each
entry of the package's set runs once in a child (no coverage: the tests at their own speed), and a test executes a
mutant when it starts the mutant's statement — bench/mutation.py's map credits a line, which is the same but for a
mutant on a continuation line of a statement whose first line ran (counted here too) or in a lambda's body (counted
here when the statement holding the lambda runs: more tests, not fewer).  The tests' own subprocesses run the probed
text with a probe that does nothing (a sitecustomize.py in the copy while the map is made): their lines are not in
the map, as coverage does not see them either.  A map can be made in parts (``--map-part I/N``, each pinned to its
own core) and merged when read (``--probe-map FILE …``); the statements are numbered over the whole sample, so the
workers that share it (``--claim-dir``) read one map.

Run it with its standard input not a file: inside a shell ``while read … done < FILE`` loop every mutant was
answered "invalid — pytest exit 4" (h181; with ``< /dev/null`` the same runs were right; not explained).

The log lines are bench/mutation.py's (``--from-log`` reads them) plus the child's CPU (user+sys, ``os.wait4``) and
how many tests ran; the last line says the mean wall and CPU a mutant and what the whole package would take at that
rate.  Measured (h169, bench/results/mutation-2026-11-29-h169.txt): the fixed cost of a mutant whose one test takes
0.34 s, 3.91 s of CPU with bench/mutation.py's run_mutant and 1.34 s here (4 mutants each, load 4.6).
"""

from __future__ import annotations

import argparse
import compileall
import dataclasses
import json
import os
import py_compile
import random
import re
import resource
import shutil
import signal
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import mutation  # noqa: E402

# never kept by the server: the copy's own modules are imported afresh by each child
_OWN_PREFIXES = ("checker", "tests", "conftest", "cpu_durations", "mutation")


class _First:
    """A pytest plugin (in the child): the first failing test's node id, every failing one, how many tests ran."""

    def __init__(self):
        self.failed = None
        self.failures: list[str] = []
        self.ran = 0

    def pytest_runtest_logreport(self, report):
        if report.when == "call":
            self.ran += 1
        if report.failed:
            if self.failed is None:
                self.failed = report.nodeid
            if report.nodeid not in self.failures:
                self.failures.append(report.nodeid)


class ForkServer:
    """One working copy of the tree and a process that has imported the libraries the tests use."""

    def __init__(self, root: Path, warm_tests: list[str], log=print):
        self.root = root
        self.deselect: set[str] = set()      # tests that fail without a mutant (see main): never run again
        self.last_failures: list[str] = []   # every test that failed in the last child run
        self.copy = mutation.copy_tree(root)
        self.log = log
        self.scratch = Path(tempfile.mkdtemp(prefix="mutation-fork-"))
        self.originals: dict[str, str] = {}
        compileall.compile_dir(str(self.copy / "checker"), quiet=1,
                               invalidation_mode=py_compile.PycInvalidationMode.CHECKED_HASH)
        os.chdir(self.copy)
        sys.path[:0] = [str(self.copy)]
        os.environ["PYTHONPATH"] = str(self.copy)
        os.environ["PYTHONDONTWRITEBYTECODE"] = "1"
        sys.dont_write_bytecode = True
        modules = self.scratch / "modules.json"
        # the first child collects the tests, writing pytest's rewritten test modules, and names what it imported
        code, _, _, _ = self._child(["--co", *warm_tests], 900, write_bytecode=True, modules_to=modules)
        names = json.loads(modules.read_text()) if modules.exists() else []
        kept = 0
        for name in names:
            try:
                __import__(name)
                kept += 1
            except Exception:           # a module that cannot be imported alone: the child imports it
                pass
        self._drop_own()
        log(f"fork server: copy {self.copy}, {kept} third-party modules imported once (collection exit {code})")

    def _own(self, name: str, module) -> bool:
        if name.split(".", 1)[0] in _OWN_PREFIXES:
            return True
        file = getattr(module, "__file__", None) or ""
        return file.startswith(str(self.copy)) or file.startswith(str(self.root))

    def _drop_own(self) -> int:
        own = [name for name, module in list(sys.modules.items()) if self._own(name, module)]
        for name in own:
            del sys.modules[name]
        return len(own)

    def _child(self, args: list[str], timeout: float, write_bytecode=False, modules_to: Path | None = None,
               setup=None, finish=None, plugin=None, stop_first=True):
        """Fork, run pytest.main(args) in the child; (exit code or 'timeout', first failed test, tests run, CPU s)."""
        result = self.scratch / "result.json"
        result.unlink(missing_ok=True)
        output = self.scratch / "output.txt"
        pid = os.fork()
        if pid == 0:                                        # the child
            code = 70
            try:
                os.setpgid(0, 0)
                fd = os.open(output, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
                os.dup2(fd, 1)
                os.dup2(fd, 2)
                signal.signal(signal.SIGTERM, signal.SIG_DFL)
                self._drop_own()
                sys.dont_write_bytecode = not write_bytecode
                import hypothesis.configuration
                hypothesis.configuration.set_hypothesis_home_dir(tempfile.mkdtemp(prefix="hyp-", dir=self.scratch))
                import pytest
                first = _First()
                if setup is not None:
                    setup()
                skip = [a for t in sorted(self.deselect) for a in ("--deselect", t)]
                code = int(pytest.main([*(["-x"] if stop_first else []), "-q", "-p", "no:cacheprovider", *skip, *args],
                                       plugins=[first, *([plugin] if plugin is not None else [])]))
                if finish is not None:
                    finish()
                if modules_to is not None:
                    modules_to.write_text(json.dumps(sorted(
                        name for name, module in sys.modules.items()
                        if not self._own(name, module) and not name.startswith("_pytest.assertion.rewrite"))))
                result.write_text(json.dumps({"code": code, "failed": first.failed, "ran": first.ran,
                                              "failures": first.failures}))
            except BaseException as exc:        # noqa: BLE001 — the child must never return into the server
                try:
                    result.write_text(json.dumps({"code": 71, "failed": f"child: {exc!r}", "ran": 0}))
                except BaseException:            # noqa: BLE001
                    pass
            finally:
                sys.stdout.flush()
                sys.stderr.flush()
                os._exit(code if 0 <= code < 256 else 70)
        deadline = time.monotonic() + timeout
        while True:
            done, status, usage = os.wait4(pid, os.WNOHANG)
            if done:
                break
            if time.monotonic() > deadline:
                try:
                    os.killpg(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                _, status, usage = os.wait4(pid, 0)
                return "timeout", None, 0, usage.ru_utime + usage.ru_stime
            time.sleep(0.02)
        cpu = usage.ru_utime + usage.ru_stime
        try:                                        # whatever the tests started in its group and left running
            os.killpg(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        self.last_failures = []
        if result.exists():
            data = json.loads(result.read_text())
            self.last_failures = data.get("failures", [])
            return data["code"], data["failed"], data["ran"], cpu
        return os.waitstatus_to_exitcode(status), None, 0, cpu

    def check_clean(self) -> None:
        """The copy's mutated files hold their original text again (a leftover would poison every later mutant)."""
        for path, text in self.originals.items():
            if (self.copy / path).read_text(encoding="utf-8") != text:
                raise RuntimeError(f"{path} was left mutated in {self.copy}")

    def run(self, mutant, tests: list[str], timeout: float):
        """(exit code | 'timeout' | 'invalid', first failed test or reason, tests run, child CPU s)."""
        self.check_clean()
        target = self.copy / mutant.path
        original = self.originals.setdefault(mutant.path, target.read_text(encoding="utf-8"))
        try:
            mutated = mutant.apply(original)
            compile(mutated, str(target), "exec")
        except (SyntaxError, AssertionError, ValueError, LookupError) as exc:
            return "invalid", f"not applied: {exc}", 0, 0.0
        try:
            target.write_text(mutated, encoding="utf-8")
            return self._child(tests, timeout)
        finally:
            target.write_text(original, encoding="utf-8")

    def run_clean(self, tests: list[str], timeout: float):
        """The tests on the copy unmutated (the check that a killing test passes without the mutant)."""
        self.check_clean()
        return self._child(tests, timeout)

    def failing_clean(self, tests: list[str], timeout: float) -> tuple[list[str], float]:
        """Every test of `tests` that fails on the copy unmutated, from one run that does not stop at the first
        (the deselected ones skipped); and the run's CPU s."""
        self.check_clean()
        code, _, _, cpu = self._child(tests, timeout, stop_first=False)
        return ([] if code == "timeout" else list(self.last_failures)), cpu


# ---------------------------------------------------------------- a map of the sampled statements only

def _statements(text: str):
    """ast.walk's nodes of a module, and for each node (by id) its innermost statement."""
    import ast
    tree = ast.parse(text)
    nodes = list(ast.walk(tree))
    statement = {}
    for stmt in nodes:
        if isinstance(stmt, ast.stmt):
            for child in ast.walk(stmt):
                statement[id(child)] = stmt
    return nodes, statement


def instrument(text: str, mutants: list, base: int = 0) -> tuple[str, dict[str, int]]:
    """The module's text with a probe call, ``_mutation_probe(s)``, that runs each time the statement holding a
    mutated node starts (s numbers the statements), and {str(mutant): s}.  The probe goes on a line of its own
    before the statement (before its decorators); after the ``:`` or ``;`` that a simple statement follows on its
    line; into an ``elif``'s condition (``_mutation_probe(s) or …``: the probe returns None).  Nothing else of the
    text changes.  Statements are numbered from ``base``."""
    import ast
    nodes, statement = _statements(text)
    lines = text.splitlines(keepends=True)
    numbers: dict[int, int] = {}
    of: dict[str, int] = {}
    for m in mutants:
        index = m.apply.__defaults__[0]
        stmt = statement[id(nodes[index])]
        of[str(m)] = numbers.setdefault(id(stmt), base + len(numbers))
    edits = []           # (line index, column in characters or -1 for a new line before it, text)
    by_id = {id(n): n for n in nodes}
    for key, number in numbers.items():
        stmt = by_id[key]
        first = stmt.decorator_list[0].lineno if getattr(stmt, "decorator_list", None) else stmt.lineno
        line = lines[stmt.lineno - 1]
        col = len(line.encode("utf-8")[:stmt.col_offset].decode("utf-8"))
        if line[:col].strip():                                   # `if a: return b`, `x = 1; y = 2`
            edits.append((stmt.lineno - 1, col, f"_mutation_probe({number}); "))
        elif isinstance(stmt, ast.If) and line[col:].startswith("elif"):
            test_line = lines[stmt.test.lineno - 1]
            test_col = len(test_line.encode("utf-8")[:stmt.test.col_offset].decode("utf-8"))
            edits.append((stmt.test.lineno - 1, test_col, f"_mutation_probe({number}) or "))
        else:
            edits.append((first - 1, -1, " " * col + f"_mutation_probe({number})\n"))
    for row, col, insert in sorted(edits, reverse=True):
        lines[row] = insert + lines[row] if col < 0 else lines[row][:col] + insert + lines[row][col:]
    out = "".join(lines)
    compile(out, "instrumented", "exec")
    return out, of


class _Probes:
    """A pytest plugin (in a mapping child): which test starts each probed statement ("" outside any test)."""

    def __init__(self):
        self.hits: dict[int, set[str]] = {}
        self.current = ""
        self.tests: list[str] = []
        self.durations: dict[str, float] = {}

    def probe(self, number: int) -> None:
        seen = self.hits.get(number)
        if seen is None:
            seen = self.hits[number] = set()
        seen.add(self.current)

    def pytest_collection_modifyitems(self, items):
        self.tests = [item.nodeid for item in items]

    def pytest_runtest_protocol(self, item, nextitem):
        self.current = item.nodeid

    def pytest_runtest_logfinish(self, nodeid, location):
        self.current = ""

    def pytest_runtest_logreport(self, report):
        self.durations[report.nodeid] = self.durations.get(report.nodeid, 0.0) + report.duration


def probe_map(server: ForkServer, package: str, mutants: list, log=print, files=(), core: int = 0):
    """bench/mutation.py's coverage map (tests, (file, line) -> tests, lines run at import, durations), made for
    these mutants only: their statements probed in the copy, each test file of the package's set run once in a
    child (pinned to one core, as bench/mutation.py's map is: part I of --map-part I/N to the I-th core), then the
    copy's texts restored.  The map's keys are (file, the probe number of a statement); numbered_by_probe gives each
    mutant a copy whose `lines` is its statement's number, for ordered_tests and run_mutant."""
    import builtins
    by_file: dict[str, list] = {}
    for m in mutants:
        by_file.setdefault(m.path, []).append(m)
    of: dict[str, int] = {}
    for path, ms in by_file.items():
        target = server.copy / path
        original = server.originals.setdefault(path, target.read_text(encoding="utf-8"))
        text, local = instrument(original, ms, base=1 + max(of.values(), default=0))
        of.update(local)
        target.write_text(text, encoding="utf-8")
    # the tests' own subprocesses (`python -m checker …` with the copy on PYTHONPATH) run the probed text too: there
    # the probe does nothing (their lines are not in the map, as bench/mutation.py's coverage does not see them)
    (server.copy / "sitecustomize.py").write_text("import builtins\nbuiltins._mutation_probe = lambda n: None\n")
    path_of = {number: m.path for m in mutants for name, number in of.items() if name == str(m)}
    tests, lines, imported, durations = [], {}, set(), {}
    try:
        for test_file in files or mutation.TESTS[package]:
            plugin = _Probes()
            out = server.scratch / "probes.json"
            out.unlink(missing_ok=True)

            def setup(plugin=plugin, out=out):
                cpus = sorted(os.sched_getaffinity(0))
                os.sched_setaffinity(0, {cpus[core % len(cpus)]})
                builtins._mutation_probe = plugin.probe

            def finish(plugin=plugin, out=out):
                out.write_text(json.dumps({"tests": plugin.tests, "durations": plugin.durations,
                                           "hits": {str(k): sorted(v) for k, v in plugin.hits.items()}}))
            start = time.perf_counter()
            code, failed, ran, cpu = server._child([test_file], 3600, setup=setup, finish=finish, plugin=plugin,
                                                   stop_first=False)
            data = json.loads(out.read_text()) if out.exists() else {"tests": [], "durations": {}, "hits": {}}
            tests += data["tests"]
            durations.update(data["durations"])
            for number, names in data["hits"].items():
                named = [n for n in names if n]
                key = (path_of[int(number)], int(number))
                if named:
                    lines.setdefault(key, []).extend(named)
                if "" in names:
                    imported.add(key)
            log(f"  map {test_file}: {len(data['tests'])} tests, {ran} run, exit {code}, {cpu:.0f} s CPU, "
                f"{time.perf_counter() - start:.0f} s wall; load {open('/proc/loadavg').read().split()[0]}")
    finally:
        for path in by_file:
            (server.copy / path).write_text(server.originals[path], encoding="utf-8")
        (server.copy / "sitecustomize.py").unlink(missing_ok=True)
    server.check_clean()
    return (tests, lines, imported, durations), {str(m): dataclasses.replace(m, lines=(of[str(m)],)) for m in mutants}


def load_probe_map(files) -> tuple:
    """The map written by --map-part runs (--save-map), its parts merged."""
    tests, lines, imported, durations = [], {}, set(), {}
    for file in files:
        data = json.loads(Path(file).read_text())
        tests += data["tests"]
        for f, n, t in data["lines"]:
            lines.setdefault((f, n), []).extend(t)
        imported |= {(f, n) for f, n in data["imported"]}
        durations.update(data["durations"])
    return tests, lines, imported, durations


def numbered_by_probe(numbered: list) -> dict:
    """{str(mutant): a copy whose `lines` is its statement's probe number}, numbered as probe_map numbers them (the
    same mutants in the same order give the same numbers)."""
    of = {}
    for path in dict.fromkeys(m.path for m in numbered):
        ms = [m for m in numbered if m.path == path]
        of.update(instrument((mutation.ROOT / path).read_text(encoding="utf-8"), ms,
                             base=1 + max(of.values(), default=0))[1])
    return {str(m): dataclasses.replace(m, lines=(of[str(m)],)) for m in numbered}


def time_limit(timeout: float, factor: float, durations: dict | None, tests: list[str]) -> float:
    """The wall limit of a run of `tests`: `timeout`, or `factor` times what the tests took unmutated while the map
    was made where that is longer (an entry that is a file or a directory counts every test under it), so a test
    set that takes longer than `timeout` without any mutant is not counted a timeout (h180: 4 such sets took
    578–1,686 s unmutated under a 600 s limit)."""
    if not factor or not durations:
        return timeout
    took = sum(d for name, d in durations.items()
               if any(name == t or name.startswith(t.rstrip("/") + ("::" if t.endswith(".py") else "/"))
                      for t in tests))
    return max(timeout, factor * took)


def durations_of(cover) -> dict | None:
    """What each test took unmutated while the probe map was made (None for other maps)."""
    return cover[3] if cover is not None and len(cover) > 3 else None


def test_files(mutant, cover, covering_only=True) -> list[str]:
    """The files of the tests run_mutant may run for `mutant` (its covering tests' whole files)."""
    tests, covering = mutation.ordered_tests(mutant, cover)
    if covering > 0 and covering_only:
        tests = tests[:covering]
    return sorted({t.split("::", 1)[0] for t in tests})


def run_mutant(server: ForkServer, mutant, timeout: float, cover, covering_only=True, factor: float = 0.0):
    """bench/mutation.py's run_mutant on the fork server: (outcome, why, CPU s, tests run); with `factor`, each run's
    wall limit is time_limit's."""
    tests, covering = mutation.ordered_tests(mutant, cover)
    durations = durations_of(cover)
    note = ""
    if covering == 0:
        executed = cover is not None and any((mutant.path, n) in cover[2] for n in mutant.lines)
        note = "executed only at import" if executed else "not executed by the tests (in this process)"
        if covering_only and not executed:
            return "survived", note, 0.0, 0
    elif covering > 0 and covering_only:
        tests = tests[:covering]
    limit = time_limit(timeout, factor, durations, tests)
    code, failed, ran, cpu = server.run(mutant, tests, limit)
    if code == "invalid":
        return "invalid", failed, cpu, ran
    if code == "timeout":
        return "timeout", f"past {limit:.0f} s", cpu, ran
    if code == 0 and covering > 0 and covering_only:
        whole = sorted({t.split("::", 1)[0] for t in tests})
        limit = time_limit(timeout, factor, durations, whole)
        code2, failed2, ran2, cpu2 = server.run(mutant, whole, limit)
        cpu, ran = cpu + cpu2, ran + ran2
        if code2 == "timeout":
            return "timeout", f"past {limit:.0f} s (the covering tests' whole files)", cpu, ran
        if code2 != 0:
            code, failed, note = code2, failed2, ""
    if code == 0:
        return "survived", note or (f"{covering} tests execute it" if covering > 0 else ""), cpu, ran
    if code in (4, 5):
        return "invalid", f"pytest exit {code}", cpu, ran
    return "killed", failed or f"pytest exit {code}", cpu, ran


def run_given(server: ForkServer, mutant, timeout: float, tests: list[str]):
    """A mutant against the given tests only: (outcome, why, CPU s, tests run)."""
    code, failed, ran, cpu = server.run(mutant, tests, timeout)
    if code in ("invalid", "timeout"):
        return code, failed or f"past {timeout:.0f} s", cpu, ran
    if code == 0:
        return "survived", "", cpu, ran
    if code in (4, 5):
        return "invalid", f"pytest exit {code}", cpu, ran
    return "killed", failed or f"pytest exit {code}", cpu, ran


def overhead(package: str, count: int, test: str) -> None:
    """The fixed cost of a mutant, CPU of the runner and its children: bench/mutation.py's run_mutant (a copy of the
    tree, a new pytest) and this server's, each on `count` mutants whose only test is one quick test (`test`)."""
    mutants = random.Random(0).sample(mutation.python_mutants(mutation.ROOT, package), count)
    clean = mutation.copy_tree(mutation.ROOT)

    def cpu():
        own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
        return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime

    load = open("/proc/loadavg").read().split()[0]
    start, wall = cpu(), time.perf_counter()
    for m in mutants:
        mutation.run_mutant(clean, m, 600, None, False, [test])
    old, old_wall = (cpu() - start) / count, (time.perf_counter() - wall) / count
    shutil.rmtree(clean, ignore_errors=True)
    start, wall = cpu(), time.perf_counter()
    server = ForkServer(mutation.ROOT, [test], log=lambda *_: None)
    setup, setup_wall = cpu() - start, time.perf_counter() - wall
    start, wall = cpu(), time.perf_counter()
    for m in mutants:
        server.run(m, [test], 600)
    new, new_wall = (cpu() - start) / count, (time.perf_counter() - wall) / count
    print(f"fixed cost of a mutant ({package}, {count} mutants, the one test {test}; load {load}):\n"
          f"  bench/mutation.py run_mutant (tree copy + new pytest): {old:.2f} s CPU, {old_wall:.2f} s wall a mutant\n"
          f"  fork server: {new:.2f} s CPU, {new_wall:.2f} s wall a mutant, after a start of {setup:.1f} s CPU "
          f"({setup_wall:.1f} s wall) per worker", flush=True)


def suite_files() -> list[str]:
    """The suite as its command collects it (pyproject's testpaths): every tests/test_*.py by name, then the
    checker's doctests."""
    return sorted(f"tests/{p.name}" for p in (mutation.ROOT / "tests").glob("test_*.py")) + ["checker"]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("package", choices=("runtime", "solver", "conflicts"))
    ap.add_argument("--sample", type=int, default=0, help="N mutants drawn with --seed as bench/mutation.py draws them")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--match", default="", help="only the (sampled) mutants whose description matches this")
    ap.add_argument("--indices", default="", metavar="A-B",
                    help="only the sampled mutants numbered A to B (from 1; B < A: from the end)")
    ap.add_argument("--timeout", type=float, default=600, help="a run's wall limit, s (with --timeout-factor: its floor)")
    ap.add_argument("--timeout-factor", type=float, default=0.0, metavar="F",
                    help="with a probe map: a run's wall limit is F times what its tests took while the map was made, "
                         "where that is longer than --timeout")
    ap.add_argument("--all-tests", action="store_true",
                    help="run the package's whole set, covering tests first (not only the covering tests)")
    ap.add_argument("--suite", action="store_true",
                    help="the test set is the whole suite (every tests/test_*.py), not bench/mutation.py's set for the "
                         "package: the probe map is made over every test file, so a mutant runs every test of the "
                         "suite that starts its statement (the score is the suite's, not a lower bound of it)")
    ap.add_argument("--tests", nargs="+", default=(), metavar="TEST",
                    help="run these tests (files or node ids) for every mutant, not the map's (say so when reporting)")
    ap.add_argument("--probe-map", nargs="*", metavar="FILE", default=None,
                    help="use a map of the chosen mutants' statements (probe_map) instead of bench/mutation.py's "
                         "coverage map: read from these files (written by --map-part), or made here when none is named")
    ap.add_argument("--map-part", default="", metavar="I/N",
                    help="only make the probe map over test files I, I+N, … of the set, write it to --save-map, stop")
    ap.add_argument("--save-map", default="", metavar="FILE")
    ap.add_argument("--map-files", nargs="+", default=(), metavar="TEST",
                    help="with --map-part: map these entries of the set only (a part made again)")
    ap.add_argument("--claim-dir", default="", metavar="DIR",
                    help="several workers share the sample: each takes the next mutant, in the sample's order, that "
                         "no worker has claimed (a file DIR/<k> made with O_EXCL), so a run stopped early has run a "
                         "prefix of the sample")
    ap.add_argument("--twice", action="store_true", help="run each chosen mutant, then each again in reverse order")
    ap.add_argument("--overhead", type=int, default=0, metavar="N", help="measure the fixed cost on N mutants, stop")
    ap.add_argument("--overhead-test", default="tests/test_runtime.py::test_same_seed_same_game")
    args = ap.parse_args(argv)
    if args.overhead:
        overhead(args.package, args.overhead, args.overhead_test)
        return 0
    mutants = mutation.python_mutants(mutation.ROOT, args.package)
    total = len(mutants)
    sample = random.Random(args.seed).sample(mutants, args.sample) if args.sample else mutants
    print(f"{args.package}: {total} mutants{f', a sample of {len(sample)} (seed {args.seed})' if args.sample else ''}")
    print("command: python " + " ".join(sys.argv), flush=True)
    chosen = [(k, m) for k, m in enumerate(sample, 1) if re.search(args.match, str(m))]
    numbered = list(sample)     # the probe map's numbering: the whole sample, whatever --match or --indices runs
    if args.indices:
        a, b = map(int, args.indices.split("-"))
        chosen = [(k, m) for k, m in chosen if min(a, b) <= k <= max(a, b)][::1 if a <= b else -1]
    if args.twice:
        chosen = chosen + chosen[::-1]
    test_set = suite_files() if args.suite else mutation.TESTS[args.package]
    print(f"test set: {'the whole suite' if args.suite else 'bench/mutation.py set for ' + args.package}, "
          f"{len(test_set)} entries", flush=True)
    server = ForkServer(mutation.ROOT, list(args.tests) or test_set)
    if args.tests:
        cover = None
    elif args.probe_map is None:
        cover = mutation.coverage_map(mutation.ROOT, args.package)
    else:
        if args.map_part or not args.probe_map:
            i, n = map(int, (args.map_part or "0/1").split("/"))
            cover, _ = probe_map(server, args.package, numbered,
                                 files=list(args.map_files) or test_set[i::n], core=i)
            if args.save_map:
                Path(args.save_map).write_text(json.dumps({
                    "tests": cover[0], "lines": [[f, n, t] for (f, n), t in cover[1].items()],
                    "imported": sorted(cover[2]), "durations": cover[3]}))
            if args.map_part:
                shutil.rmtree(server.copy, ignore_errors=True)
                shutil.rmtree(server.scratch, ignore_errors=True)
                return 0
        else:
            cover = load_probe_map(args.probe_map)
        renamed = numbered_by_probe(numbered)
        chosen = [(k, renamed[str(m)]) for k, m in chosen]
    results = {args.package: []}
    spent = []          # (wall s, child CPU s) per mutant run
    signal.signal(signal.SIGTERM, mutation._interrupt)
    try:
        for k, m in chosen:
            if args.claim_dir:
                try:
                    os.close(os.open(Path(args.claim_dir) / str(k), os.O_CREAT | os.O_EXCL | os.O_WRONLY))
                except FileExistsError:
                    continue
            start = time.perf_counter()
            if args.tests:
                outcome, why, cpu, ran = run_given(server, m, args.timeout, list(args.tests))
            else:
                outcome, why, cpu, ran = run_mutant(server, m, args.timeout, cover, not args.all_tests,
                                                    args.timeout_factor)
                # a test that fails on the copy without the mutant kills nothing (with --suite: a worker pool in
                # a forked child, a count of calls): it is checked once; when it fails there too, the mutant's whole
                # test set is run once unmutated and every test that fails there is deselected together (one at a
                # time, s25's mutant #1 spent an hour on 7 such tests, a whole run of its set each), then the
                # mutant is run again
                while outcome == "killed" and "::" in why and why not in server.deselect:
                    if server.run_clean([why], args.timeout)[0] == 0:
                        break
                    files = test_files(m, cover, not args.all_tests)
                    failing, more = server.failing_clean(
                        files, time_limit(args.timeout, args.timeout_factor, durations_of(cover), files))
                    cpu += more
                    dropped = sorted({why, *failing} - server.deselect)
                    print(f"    {why} fails without the mutant too; its set's files run unmutated: "
                          f"{len(dropped)} failing test(s) deselected, the mutant run again", flush=True)
                    for test in dropped:
                        print(f"      deselected {test}", flush=True)
                    server.deselect.update(dropped)
                    outcome, why, more, ran = run_mutant(server, m, args.timeout, cover, not args.all_tests,
                                                          args.timeout_factor)
                    cpu += more
                    if outcome == "invalid" and why == "pytest exit 5":     # nothing left to run: no test guards it
                        outcome, why = "survived", "every test that executes it fails without the mutant (deselected)"
            results[args.package].append((m, outcome, why))
            spent.append((time.perf_counter() - start, cpu))
            print(f"[{args.package} {k}/{len(sample)}] {outcome:8} {time.perf_counter() - start:6.0f} s  {m}"
                  f"{'  — ' + why if why else ''}", flush=True)
            print(f"    child CPU {cpu:.1f} s, {ran} tests run; load {open('/proc/loadavg').read().split()[0]}",
                  flush=True)
    except KeyboardInterrupt:
        print("stopped: the table counts the mutants run so far", flush=True)
    finally:
        server.check_clean()
        shutil.rmtree(server.copy, ignore_errors=True)
        shutil.rmtree(server.scratch, ignore_errors=True)
    mutation.summarise(results)
    if spent:
        wall, cpu = sum(w for w, _ in spent) / len(spent), sum(c for _, c in spent) / len(spent)
        print(f"\ncost: {len(spent)} mutants, {wall:.1f} s wall and {cpu:.1f} s CPU (the children's) a mutant on "
              f"average; the whole package's {total} mutants at that rate: {total * wall / 3600:.1f} h wall, "
              f"{total * cpu / 3600:.1f} h CPU (one worker; load {open('/proc/loadavg').read().strip()})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
