"""Shared fixtures.  `pytest --update-golden` rewrites the golden expectations; `pytest --cpu-durations N` prints the
N heaviest tests by CPU and the CPU per xdist worker (tests/cpu_durations.py says how it measures)."""

from __future__ import annotations

import contextlib
import functools
import gc
import os
from pathlib import Path

import pytest

import cpu_durations

from checker.front.check import check_paths as _check_paths   # the real one, whatever a test patches

ROOT = Path(__file__).resolve().parent.parent
SPEC = ROOT / "spec" / "citadelles"

# The checked rule set is not kept on disk while testing (checker/front/diskcache.py): a test that patches a pass
# must see it run, and nothing is written to the home directory.  tests/test_diskcache.py turns it on.
os.environ["RULEBOOK_CACHE"] = "0"


def pytest_addoption(parser):
    parser.addoption("--update-golden", action="store_true", default=False,
                     help="rewrite tests/fixtures/**/*.expected from the current output")
    cpu_durations.addoption(parser)


def pytest_configure(config):
    if config.getoption("--cpu-durations") is not None:      # a plugin, not a conftest hook: doctests count too
        config.pluginmanager.register(cpu_durations.CpuDurations(config), "cpu-durations")


@pytest.fixture(autouse=True, scope="session")
def _commands_collect_only_what_they_made():
    """A command that asks Z3 runs in ``solver.factory.steady_collector``, which starts with a full collection
    of the process's heap.  A command's own process holds little when it starts; a test worker holds what every
    earlier test left (hundreds of MB), and scanning it cost seconds per test that runs such commands in-process
    (70 times in tests/test_fuzz_documents.py alone), more as the worker grew: the suite's cost depended on
    which files a worker ran before.  Here the worker's heap is frozen first (``gc.freeze``, which the collector
    leaves alone) so the command's collection scans what the test made; the collector then runs as it does in a
    command (it unfreezes everything when the command ends)."""
    import checker.solver.factory as factory
    real = factory.steady_collector

    @contextlib.contextmanager
    def steady_collector():
        gc.freeze()
        with real():
            yield
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(factory, "steady_collector", steady_collector)
        yield


@pytest.fixture
def store(tmp_path: Path, monkeypatch) -> Path:
    """The disk cache on, in a folder of the test's own, and the compiled code's store and memos empty
    (checker/runtime/codecache.py): the folder the store is written to."""
    from checker.runtime import codecache, codegen
    monkeypatch.setenv("RULEBOOK_CACHE", "1")
    monkeypatch.setenv("RULEBOOK_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(codecache, "_store", None)
    monkeypatch.setattr(codecache, "_new", {})
    monkeypatch.setattr(codecache, "_used", set())
    codegen._compiled.cache_clear()
    yield tmp_path / "cache"
    codegen._compiled.cache_clear()


@pytest.fixture
def update_golden(request) -> bool:
    return request.config.getoption("--update-golden")


@pytest.fixture(autouse=True)
def _run_from_root(monkeypatch):
    """Diagnostics show paths relative to the working directory: make it the repository."""
    monkeypatch.chdir(ROOT)


@functools.cache
def bundled():
    """The bundled spec, checked once per test session."""
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        from checker.front.check import check_paths
        return check_paths([Path("spec/citadelles")])
    finally:
        os.chdir(cwd)


@pytest.fixture
def bundled_checked_once(monkeypatch):
    """Every command re-checks its spec: the bundled one (named from anywhere) is checked once per session."""
    import checker.front.check
    real = checker.front.check.check_paths
    bundled()                   # checked before the patch (it calls check_paths)

    def check_paths(paths):
        if [os.path.realpath(p) for p in paths] == [str(SPEC)]:
            return bundled()
        return real(paths)
    monkeypatch.setattr(checker.front.check, "check_paths", check_paths)


@functools.cache
def checked_once(paths: tuple[str, ...]):
    """A spec and its overlays (paths relative to the repository), checked once per test session."""
    return _check_paths([Path(p) for p in paths])


@pytest.fixture
def specs_checked_once(monkeypatch):
    """Every command re-checks its spec and overlays: any set of paths is checked once per session (a check
    with options is run as asked)."""
    import checker.front.check

    def check_paths(paths, **options):
        return _check_paths(paths, **options) if options else checked_once(tuple(str(p) for p in paths))
    monkeypatch.setattr(checker.front.check, "check_paths", check_paths)


def engine_of(path: Path, text: str, recording: bool = True):
    """Write ``text`` (a good spec) to ``path``, check it and build its engine (keeping no log where
    ``recording`` is false)."""
    from checker.runtime import Engine
    path.write_text(text, encoding="utf-8")
    result = _check_paths([path])
    assert result.ok, [d.message for d in result.reporter.errors]
    engine = Engine(result.typed)
    engine.recording = recording
    return engine


def at_first_decision(engine, measure):
    """``measure(player)`` at the first decision of a two-player game (seed 1) whose every decision takes its
    first option; the game is then played to its end."""
    seen: list = []

    class Probe:
        def choose(self, decision):
            if not seen:
                seen.append(measure(decision.player))
            return 0

    engine.play({}, 2, 1, [Probe(), Probe()])
    return seen[0]


def verdict_at_first_decision(result, move_of):
    """`legal`'s verdict (checker/solver/legal.py's Legality) on the move ``move_of(engine, decision)`` gives at the
    first decision of a two-player game of ``result`` (configuration « Standard », seed 1): ``move_of`` may change
    the state first (the engine is invalidated after it).  The game stops there."""
    from checker.front.configurations import select
    from checker.runtime import Engine, RandomAgent
    from checker.solver.legal import Legality, point_of
    from checker.solver.scopes import Scopes

    class Asked(Exception):
        pass

    scopes = Scopes(result.typed)
    e = Engine(result.typed)
    e.recording = False
    verdicts = []

    def observe(decision):
        move = move_of(e, decision)
        e.invalidate()
        verdicts.append(Legality(e, scopes).check(point_of(decision, scopes), move, decision.player))
        raise Asked
    e.observer = observe
    try:
        e.play(select(result.program, result.program.configurations["Standard"], 2).cards, 2, 1,
               [RandomAgent(1), RandomAgent(2)])
    except Asked:
        pass
    [verdict] = verdicts
    return verdict


def run_cli(capsys, *argv):
    """Run `rulebook ARGV…`: (exit code, stdout, stderr); never a traceback."""
    from checker.cli import main
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


def broken_copy(tmp_path: Path, spec: Path, file: str, old: str, new: str) -> Path:
    """A copy of the spec directory ``spec`` with one rule broken: ``old``, which must be in ``file``, replaced
    by ``new`` (once) — what a test of an example or a scenario breaks to see it fail."""
    import shutil
    copy = tmp_path / spec.name
    shutil.copytree(spec, copy)
    target = copy / file
    text = target.read_text(encoding="utf-8")
    assert old in text
    target.write_text(text.replace(old, new, 1), encoding="utf-8")
    return copy
