"""The second engine the Monte-Carlo agent plays its playouts on (checker/runtime/montecarlo.py's ``_shadow``):
compiled once per spec and thread and kept, so a game's decisions do not each compile the spec again; and never
one of another spec, even when that spec's checked rules had the same ``id`` (a freed object's id is reused).
Written for the survivor montecarlo.py:76 of the blind runtime sample -o
(bench/results/mutation-2026-11-28-o-kills.txt)."""

from __future__ import annotations

import threading

from checker.runtime import Engine, montecarlo
from checker.runtime.montecarlo import _shadow
from conftest import engine_of
from tests.test_runtime_survivors_defaults import STOP


def _engine(tmp_path, name: str, text: str) -> Engine:
    return engine_of(tmp_path / name, text)


def test_the_playouts_engine_is_made_once_per_spec_and_thread_and_never_taken_for_another_spec(tmp_path):
    engine = _engine(tmp_path, "arret.rules", STOP)
    sim = _shadow(engine)
    assert sim is not engine and sim.typed is engine.typed and not sim.recording
    assert _shadow(engine) is sim, "kept: the next decision's playouts do not compile the spec again"
    other = _engine(tmp_path, "autre.rules", STOP.replace('"Arrêt"', '"Autre"'))
    assert _shadow(other) is not sim and _shadow(other).typed is other.typed
    # the entry of a spec whose checked rules were freed, left under the id the new spec's rules now have
    montecarlo._shadows.engines[id(other.typed)] = (engine.typed, sim)
    fresh = _shadow(other)
    assert fresh is not sim and fresh.typed is other.typed
    assert _shadow(other) is fresh
    seen = []
    worker = threading.Thread(target=lambda: seen.append(_shadow(engine)))
    worker.start()
    worker.join()
    assert seen[0] is not sim and seen[0].typed is engine.typed, "one per thread"
