"""Engines built by several threads at once (a Dask worker with two threads, `simulate --cluster`): the builds take
turns, because CPython 3.11's AST constructor is not safe to run in two threads at once (checker/runtime/engine.py,
``_BUILDING``), and each thread's engine plays the same games as one built alone."""

from __future__ import annotations

import threading
import time
from pathlib import Path

from checker.front.check import check_paths
from checker.front.configurations import select
from checker.runtime import Engine, RandomAgent, engine as engine_module

ROOT = Path(__file__).resolve().parent.parent


def _scores(engine: Engine, program) -> list:
    selection = select(program, next(iter(program.configurations.values())), 4)
    return [engine.play(selection.cards, 4, seed, [RandomAgent(seed * 10 + i) for i in range(4)]).scores
            for seed in range(2)]


def test_threads_build_engines_one_at_a_time(monkeypatch):
    result = check_paths([ROOT / "spec" / "citadelles"])
    inside, most = [0], [0]
    build = engine_module.Engine._build

    def watched(self, typed):
        inside[0] += 1
        most[0] = max(most[0], inside[0])
        time.sleep(0.05)            # long enough for the other thread to come in, were it let in
        try:
            build(self, typed)
        finally:
            inside[0] -= 1
    monkeypatch.setattr(engine_module.Engine, "_build", watched)
    engines: list[Engine] = []
    errors: list[BaseException] = []

    def make() -> None:
        try:
            engines.append(Engine(result.typed))
        except BaseException as error:      # noqa: BLE001 (reported by the assertion below)
            errors.append(error)
    threads = [threading.Thread(target=make) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and len(engines) == 3
    assert most[0] == 1, f"{most[0]} engines were being built at the same time"
    alone = _scores(Engine(result.typed), result.typed.program)
    for engine in engines:
        engine.recording = False
        assert _scores(engine, result.typed.program) == alone
